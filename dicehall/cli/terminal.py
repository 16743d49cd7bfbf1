"""Whether the command runs on a terminal, the refusal of a screen without one, and standard output
whose reader has gone. Callers look these up on this module when they run (tests stand in for a
terminal by replacing `missing_terminal`)."""
from __future__ import annotations

import os
import sys

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
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), 0)  # no event asked for: only the errors are reported
        return any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _fd, mask in poller.poll(0))
    except (OSError, ValueError):
        return True


def drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush at exit has nowhere to fail
    ("Exception ignored ... BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
