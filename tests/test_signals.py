"""A dropped SSH link (SIGHUP) or a shutdown (SIGTERM) ends the app cleanly with every event on disk,
and `continue` resumes the identical state. The app runs for real, in a pseudo-terminal."""
from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time

import pytest

from dicehall import engine
from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock
from tests.apphelpers import eventually, exited


def read_for(fd: int, seconds: float, until: bytes | None = None) -> bytes:
    end = time.time() + seconds
    out = b""
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
            if until and until in out:
                break
    return out


def pulls_on_disk(name: str) -> int:
    try:
        return saves.load_readonly(name).state.pulls
    except saves.SaveError:
        return -1


def dicehall_in_a_terminal(*args: str) -> tuple[int, int]:
    """`dicehall ARGS` started in a pseudo-terminal of its own: its pid and the terminal's fd."""
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "dicehall", *args])
    return pid, fd


def hang_up(pid: int, fd: int) -> None:
    """The link drops: the terminal closes and SIGHUP comes; fail unless dicehall exits soon after."""
    os.close(fd)
    os.kill(pid, signal.SIGHUP)
    exited(pid, "dicehall exited after the hang-up")


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_signal_ends_the_app_and_continue_resumes_identically(home, signum):
    pid, fd = dicehall_in_a_terminal("play", "dicetower", "--seed", "7", "--name", "link")
    try:
        assert b"COUNTDOWN" in read_for(fd, 60, until=b"COUNTDOWN"), "the app did not draw its screen"
        for expected in (1, 2, 3):
            os.write(fd, b"p")
            eventually(lambda: pulls_on_disk("link") >= expected, f"pull {expected} saved", between=lambda: read_for(fd, 0.1))
            assert pulls_on_disk("link") == expected
        if signum == signal.SIGHUP:
            os.close(fd)  # the link is gone as well
            fd = -1
        os.kill(pid, signum)
        status = exited(pid, "dicehall exited after the signal", fd)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 128 + signum
    finally:
        if fd >= 0:
            os.close(fd)

    expected = engine.new_session("dicetower", seed=7)
    for _ in range(3):
        expected.play(PullBlock())
    resumed = saves.open_save("link")  # the lock was released: continue works at once
    assert engine.digest(resumed.state) == engine.digest(expected.state)
    assert resumed.events == expected.events
    saves.close_save(resumed)


def signal_pending(pid: int, signum: int) -> bool:
    """Whether `signum` waits to be delivered to process `pid` (its /proc status; gone: not)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
    except OSError:
        return False
    bit = 1 << (signum - 1)
    return any(int(fields.get(name, "0").strip() or "0", 16) & bit for name in ("SigPnd", "ShdPnd"))


def test_hang_ups_that_keep_coming_while_the_app_ends_leave_the_signals_exit_status(home):
    """The kernel's own SIGHUP comes a moment after the terminal closes, possibly once the app's loop
    has closed (which puts back the default action, death by the signal): a signal after the first is
    ignored, so the process still ends by its own exit, with the first signal's status."""
    pid, fd = dicehall_in_a_terminal("play", "dicetower", "--seed", "7", "--name", "late")
    try:
        assert b"COUNTDOWN" in read_for(fd, 60, until=b"COUNTDOWN"), "the app did not draw its screen"
        os.kill(pid, signal.SIGTERM)
        # the first hang-up only once the SIGTERM is taken: two signals pending together are
        # delivered lowest number first (SIGHUP before SIGTERM), which would make the hang-up first
        eventually(lambda: not signal_pending(pid, signal.SIGTERM), "the SIGTERM taken", 30, between=lambda: read_for(fd, 0.005))
        status = 0
        for _ in range(20_000):  # hang-ups every moment until it is gone, through the whole ending
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            os.kill(pid, signal.SIGHUP)
            read_for(fd, 0.001)
        else:
            status = exited(pid, "dicehall exited after the signals", fd)
        assert os.WIFEXITED(status), f"killed by signal {os.WTERMSIG(status)}"
        assert os.WEXITSTATUS(status) == 128 + signal.SIGTERM
    finally:
        os.close(fd)
