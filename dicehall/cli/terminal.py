"""Whether the command runs on a terminal, the refusal of a screen without one, standard output
whose reader has gone, and whether the session that started the command has ended. Callers look these up on this module when they run (tests stand in for a
terminal by replacing `missing_terminal`)."""
from __future__ import annotations

import os
import signal
import stat
import sys
from types import FrameType
from typing import Any, Callable

STREAMS = ("standard input", "standard output", "standard error")  # file descriptors 0, 1, 2


def missing_terminal() -> str | None:
    """The first of stdin, stdout and stderr that is not a terminal (Textual reads keys from stdin
    and draws on stderr; stdout must not be a file or a pipe the screen would be lost in), or None.
    Under `dicehall serve` the browser is the terminal: TEXTUAL_DRIVER names its driver."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    return next((name for fd, name in enumerate(STREAMS) if not os.isatty(fd)), None)


def on_terminal() -> bool:
    return missing_terminal() is None


def refuse_without_terminal(command: str | None) -> int:
    """One line saying why a screen cannot be opened here, and exit 2. Without this, an app with no
    terminal draws into a file and, once its input ends, can never be told to stop."""
    stream = missing_terminal()
    what = {None: "the launcher", "replay": "the replay viewer"}.get(command, f"dicehall {command}")
    print(f"dicehall: no terminal on {stream}: {what} needs one (run it in a terminal; over ssh: ssh -t box, "
          f"or a pty in authorized_keys: restrict,pty)", file=sys.stderr)
    return 2


def stdout_gone() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll says POLLERR/POLLHUP)."""
    try:
        return hung_up(sys.stdout.fileno())
    except (OSError, ValueError):
        return True


def hung_up(fd: int) -> bool:
    """Whether `fd` is hung up: a terminal whose other side closed, a pipe or socket whose other end
    is gone, or no open file at all (poll says POLLHUP, POLLERR or POLLNVAL)."""
    import select

    try:
        poller = select.poll()
        poller.register(fd, 0)  # no event asked for: only the errors are reported
        return any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _fd, mask in poller.poll(0))
    except (OSError, ValueError):
        return True


def input_is_a_terminal() -> bool:
    """Whether standard input is a terminal, or was one (a pseudo-terminal whose other side closed
    is no tty any more, but still a character device). The end of a pipe or socket on input says
    only that no more input comes (`ssh -n`, `< /dev/null` on the client's side): not that the
    session ended (its output says that)."""
    try:
        return stat.S_ISCHR(os.fstat(0).st_mode)
    except OSError:
        return False


class SessionEnd:
    """Whether the session that started this process has ended, for a command that would otherwise
    run on by itself (`watch ID --follow`): a SIGHUP came, the parent is gone (the process was handed
    to init or a subreaper: `su` or sshd killed), the terminal on standard input hung up, or standard
    output's reader left (a pipe or socket: `| head`, sshd's). Entered on the main thread: it takes
    SIGHUP until left."""

    def __init__(self) -> None:
        self.parent = os.getppid()
        self.input_watched = input_is_a_terminal()
        self.hangup = False
        self.before: Callable[[int, FrameType | None], Any] | int | None = None  # SIGHUP's handler before

    def __enter__(self) -> "SessionEnd":
        self.before = signal.signal(signal.SIGHUP, self.hang_up)  # even if ignored (nohup): it ends with its session
        return self

    def __exit__(self, *_exc) -> None:
        signal.signal(signal.SIGHUP, self.before)

    def hang_up(self, _signum, _frame) -> None:
        self.hangup = True  # the follower's loop looks at least every second

    def why(self) -> str | None:
        """What ended the session ("hangup", "parent", "input", "output"), or None while it goes on."""
        if self.hangup:
            return "hangup"
        if os.getppid() != self.parent:
            return "parent"
        if self.input_watched and hung_up(0):
            return "input"
        if stdout_gone():
            return "output"
        return None


def drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush at exit has nowhere to fail
    ("Exception ignored ... BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
