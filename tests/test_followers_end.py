"""A follower ends when the session that started it ends (issue #29): `watch ID --follow` off a
terminal and the app on the Hall screen (its listing thread, and the live viewer's follower of a
game watched from it) each end after a SIGHUP, after their parent goes away (`su` or sshd
killed: the process is handed to init or a subreaper, its terminal perhaps still open) or after
their terminal closes (within about a second when idle: the tests assert only that they end),
with their watcher's mark removed and nothing left running.
Real processes, pipes and pseudo-terminals; every wait is bounded."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.apphelpers import eventually
from tests.test_no_terminal import ROOT, dicehall, finish, running_with
from tests.test_no_terminal import hall, no_driver_from_the_environment  # noqa: F401 (fixtures: a player's terminal, a hall)
from tests.test_signals import read_for

# How long a test waits for a follower to end with its session before it fails: a guard against an
# orphan (which never ends), generous for a busy machine; when idle it ends within about a second (it
# looks every second). How fast is not asserted.
WITHIN = 30.0


@pytest.fixture
def game(hall):
    """A wager in progress that nobody moves: a follower of it would wait for ever."""
    game = hall.host("wager", ["player", "bot:bold"], "Ann")
    yield game
    game.close()


def watcher_marks(hall, game_id: str) -> list[str]:
    """The files in the game's watchers folder (one per watching process, removed as it leaves)."""
    folder = hall.games / f"{game_id}.watchers"
    return sorted(os.listdir(folder)) if folder.is_dir() else []


def gone_within(pids_of, seconds: float, drain=lambda: time.sleep(0.05)) -> None:
    """Wait until `pids_of()` is empty; fail (killing what is left) after `seconds`. `drain` reads
    a terminal that stays open meanwhile, so no drawing blocks on it."""
    try:
        eventually(lambda: not pids_of(), "every process of the session ended", seconds, drain)
    finally:
        for pid in pids_of():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def until_marked(hall, game_id: str) -> None:
    eventually(lambda: watcher_marks(hall, game_id), "the follower started watching")


# ----- dicehall watch ID --follow -----
def test_watch_follow_ends_on_a_hangup(hall, game):
    proc = dicehall("watch", game.id, "--follow", stdin="closed", stdout=subprocess.PIPE)
    assert proc.stdout.readline().decode().startswith("watching ")
    assert watcher_marks(hall, game.id) == [str(proc.pid)]
    proc.send_signal(signal.SIGHUP)
    code, err = finish(proc, WITHIN)
    assert code == 129 and err == ""
    assert watcher_marks(hall, game.id) == []  # left as it should: its mark removed, not left to the lister


def test_watch_follow_ends_when_its_parent_is_killed(hall, game, tmp_path):
    """`su` killed under it: the follower is handed to init, its output still open (a file)."""
    out = tmp_path / "moves.txt"
    parent = subprocess.Popen(["sh", "-c", f'"{sys.executable}" -m dicehall watch {game.id} --follow > "{out}" & '
                                           f'echo $!; wait'],
                              cwd=ROOT, stdout=subprocess.PIPE, start_new_session=True)
    follower = int(parent.stdout.readline())
    until_marked(hall, game.id)
    parent.kill()
    parent.wait(10)
    gone_within(lambda: [pid for pid in running_with(game.id) if pid == follower], WITHIN)
    assert watcher_marks(hall, game.id) == []
    assert out.read_text().startswith(f"watching Dead Man's Wager {game.id}")


def test_watch_follow_ends_when_its_terminal_closes(hall, game, tmp_path):
    """Its input a terminal that is not its controlling one (no SIGHUP comes), its output a file:
    the terminal closes (the window, the link) and reading it would say so."""
    master, slave = os.openpty()
    with (tmp_path / "moves.txt").open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "dicehall", "watch", game.id, "--follow"], cwd=ROOT,
                                stdin=slave, stdout=out, stderr=subprocess.PIPE, start_new_session=True)
    os.close(slave)
    try:
        until_marked(hall, game.id)
    finally:
        os.close(master)
    code, err = finish(proc, WITHIN)
    assert code == 129 and err == ""
    assert watcher_marks(hall, game.id) == []


@pytest.mark.parametrize("stdin", ["closed from the start", "closed after the start"])
def test_watch_follow_whose_input_pipe_ends_still_follows(hall, game, stdin):
    """A pipe on input that ends (`ssh -n box dicehall watch ID --follow`, `< closed-pipe`) says only
    that no input comes: the follower goes on waiting for moves (its output says when the session ends)."""
    proc = dicehall("watch", game.id, "--follow", stdout=subprocess.PIPE,
                    stdin="closed" if stdin == "closed from the start" else subprocess.PIPE)
    assert proc.stdout.readline().decode().startswith("watching ")
    if proc.stdin is not None:
        proc.stdin.close()
        proc.stdin = None  # closed: nothing for communicate to flush
    time.sleep(1.5)  # longer than a look: it would have ended by now
    assert proc.poll() is None
    game.play(game.session.commands()[0])
    assert proc.stdout.readline().decode().startswith("1 round 1")  # the move, as it is played
    proc.send_signal(signal.SIGHUP)
    assert finish(proc, WITHIN)[0] == 129


# ----- the app on the Hall screen, watching a game from it -----
MIDDLE = """
import subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdin=0, stdout=0, stderr=0)  # the terminal, passed on
print(child.pid, flush=True)
child.wait()
"""


@pytest.mark.parametrize("how", ["parent killed", "terminal closed", "hangup"])
def test_the_hall_screen_and_its_watcher_end_with_the_session(hall, game, tmp_path, how):
    """dicehall on the Hall screen, watching a game live (the lobby's listing thread and the
    viewer's follower both run) under a parent (the `su`, the sshd) that is then killed, or whose
    terminal closes, or that is hung up on."""
    master, slave = os.openpty()
    parent = subprocess.Popen([sys.executable, "-c", MIDDLE, sys.executable, "-m", "dicehall", "--hall", str(hall.folder)],
                              cwd=ROOT, stdin=slave, stdout=subprocess.PIPE, stderr=slave, start_new_session=True)
    os.close(slave)
    marker = str(hall.folder)
    try:
        app = int(parent.stdout.readline())
        assert b"Hall" in read_for(master, 60, until=b"Hall"), "the launcher was not drawn"
        os.write(master, b"h")
        assert game.id.encode() in read_for(master, 30, until=game.id.encode()), "the Hall screen was not drawn"
        os.write(master, b"\r")  # watch the game under the cursor: the live viewer follows it
        until_marked(hall, game.id)  # the viewer is opening: its follower starts (or has started)
        if how == "parent killed":  # the terminal stays open: only the parent goes
            parent.kill()
            parent.wait(10)
        elif how == "terminal closed":
            os.close(master)
            master = -1
        else:
            os.kill(app, signal.SIGHUP)
        drain = (lambda: read_for(master, 0.05)) if master >= 0 else (lambda: time.sleep(0.05))
        gone_within(lambda: running_with(marker), WITHIN, drain)
    finally:
        if master >= 0:
            os.close(master)
        if parent.poll() is None:
            parent.kill()
        parent.wait(10)
    assert watcher_marks(hall, game.id) == []
    assert hall.watchers(game.id) == 0
