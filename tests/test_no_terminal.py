"""Without a terminal, and when the terminal goes away (issue #20, items 1 and 6): a screen command
refuses to start without a terminal on stdin, stdout and stderr; `watch` off a terminal prints and
leaves (--follow follows); a running app whose input ends, whose pseudo-terminal closes or whose
output breaks exits (at once when idle: the tests assert only that it ends) with its save released
and nothing left running; every command
that prints ends quietly on a closed pipe. Real processes, real pipes and pseudo-terminals."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock
from dicehall.saves.hall import Hall
from tests.apphelpers import eventually, exited
from tests.hallhelpers import play_until_over
from tests.test_signals import pulls_on_disk, read_for

ROOT = Path(__file__).parent.parent
SCREEN_DRAWN = b"COUNTDOWN"  # the Dice Tower's screen is up


@pytest.fixture(autouse=True)
def no_driver_from_the_environment(monkeypatch):
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)  # dicehall serve's: the browser is the terminal
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # as a player has it: a pipe's output is buffered


@pytest.fixture
def hall(tmp_path, monkeypatch):
    folder = tmp_path / "hall"
    monkeypatch.setenv("DICEHALL_HALL", str(folder))
    return Hall(folder)


# How long a test waits for dicehall to leave before it fails: a guard against a process that never
# leaves (an orphan spinning on a dead terminal), generous because a busy machine (the suite runs on
# both cores) can take seconds to start Python; it leaves at once, in well under a second, when idle.
# How fast it leaves is not asserted.
LEAVES_WITHIN = 30.0


def closed_pipe() -> int:
    """The read end of a pipe whose write end is closed: the first read is end of file."""
    read, write = os.pipe()
    os.close(write)
    return read


def dicehall(*args: str, stdin, stdout, stderr=subprocess.PIPE) -> subprocess.Popen:
    """dicehall ARGS; stdin "closed": a pipe already at end of file."""
    given = closed_pipe() if stdin == "closed" else stdin
    try:
        return subprocess.Popen([sys.executable, "-m", "dicehall", *args], cwd=ROOT, stdin=given, stdout=stdout, stderr=stderr)
    finally:
        if stdin == "closed":
            os.close(given)


def finish(proc: subprocess.Popen, seconds: float) -> tuple[int, str]:
    """Its exit code and stderr; the test fails (and the process is killed) if it is still running."""
    try:
        _, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running after {seconds} s")
    return proc.returncode, (err or b"").decode()


def running_with(marker: str) -> list[int]:
    """The pids of live (not zombie) processes with `marker` in their command line, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def a_replay(tmp_path: Path) -> Path:
    session = saves.new_save("dicetower", name="for replay", seed=4)
    session.play(PullBlock())
    saves.close_save(session)
    return saves.export_save(session.labels.save_id, tmp_path / "game.dhr")


# ----- refused at the start -----
@pytest.mark.parametrize("args, what", [([], "the launcher"), (["play", "troll"], "dicehall play"),
                                        (["continue"], "dicehall continue"), (["replay", "FILE"], "the replay viewer"),
                                        (["practice"], "dicehall practice")])
def test_a_screen_command_with_no_terminal_says_so_in_one_line_and_exits_2(tmp_path, home, args, what):
    replay = a_replay(tmp_path)  # and an unfinished save for continue
    args = [str(replay) if a == "FILE" else a for a in args]
    saves_before = sorted(p.name for p in saves.saves_dir().glob("*") if p.name != saves.INDEX_NAME)
    out = tmp_path / "out.txt"
    with out.open("wb") as file:
        code, err = finish(dicehall(*args, stdin="closed", stdout=file), LEAVES_WITHIN)
    assert code == 2
    assert err.splitlines() == [f"dicehall: no terminal on standard input: {what} needs one (run it in a terminal; "
                                f"over ssh: ssh -t box, or a pty in authorized_keys: restrict,pty)"]
    assert out.read_bytes() == b""  # no screen drawn into the file
    # play made no save (continue may list the saves first, and so write the list's index: a cache,
    # written once the save is two seconds old, as on a busy machine it is by then)
    assert sorted(p.name for p in saves.saves_dir().glob("*") if p.name != saves.INDEX_NAME) == saves_before
    saves.close_save(saves.open_save("for replay"))  # continue left it unlocked


@pytest.mark.parametrize("missing", ["standard output", "standard error"])
def test_a_terminal_on_input_alone_is_not_enough(tmp_path, missing):
    master, slave = os.openpty()
    try:
        with (tmp_path / "out.txt").open("wb") as file:
            proc = dicehall("play", "troll", stdin=slave, stdout=file if missing == "standard output" else slave,
                            stderr=subprocess.PIPE if missing == "standard error" else file)
            code, err = finish(proc, LEAVES_WITHIN)
        if missing == "standard output":
            err = (tmp_path / "out.txt").read_text()
    finally:
        os.close(master), os.close(slave)
    assert code == 2 and err.startswith(f"dicehall: no terminal on {missing}: dicehall play needs one")


def test_host_and_join_off_a_terminal_still_print_and_leave(hall, tmp_path):
    proc = dicehall("host", "towers", "--name", "Ann", stdin="closed", stdout=subprocess.PIPE)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and err == b"" and out.decode().startswith("hosted Towers as ")


# ----- watch off a terminal -----
def test_watch_off_a_terminal_prints_a_finished_game_and_leaves(hall, tmp_path):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    with (tmp_path / "out.txt").open("wb") as file:
        code, err = finish(dicehall("watch", bots.id, stdin="closed", stdout=file), LEAVES_WITHIN)
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert code == 0 and err == ""
    assert lines[0] == f"watching Dead Man's Wager {bots.id}: Bot 1 (bot), Bot 2 (bot)"
    assert lines[1] == "1 round 1, Bot 1's turn" and lines[-1].startswith("over: Bot")
    assert hall.watchers(bots.id) == 0


def test_watch_off_a_terminal_prints_a_game_in_progress_so_far_and_leaves_at_once(hall, tmp_path):
    game = hall.host("wager", ["player", "bot:cautious"], "Ann")
    game.play(game.session.commands()[-1])
    with (tmp_path / "out.txt").open("wb") as file:
        code, err = finish(dicehall("watch", game.id, stdin="closed", stdout=file), LEAVES_WITHIN)
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert code == 0 and err == ""
    assert len(lines) == 2 + len(game.session.events)
    assert lines[-1] == f"in progress: dicehall watch {game.id} --follow prints each move until it is over"
    assert hall.watchers(game.id) == 0
    game.close()


def test_watch_follow_prints_each_move_until_the_game_is_over(hall):
    game = hall.host("wager", ["player", "bot:cautious"], "Ann")
    proc = dicehall("watch", game.id, "--follow", stdin="closed", stdout=subprocess.PIPE)
    assert proc.stdout.readline().decode().startswith("watching ")
    play_until_over({0: game}, random.Random(2))
    out, err = proc.communicate(timeout=20)
    lines = out.decode().splitlines()
    assert proc.returncode == 0 and err == b""
    assert len(lines) == len(game.session.events) + 1 and lines[-1].startswith("over: ")
    game.close()


def test_watch_follow_ends_when_the_reader_of_its_pipe_goes_while_nothing_is_played(hall):
    game = hall.host("wager", ["player", "open"], "Ann")
    proc = dicehall("watch", game.id, "--follow", stdin="closed", stdout=subprocess.PIPE)
    assert proc.stdout.readline().decode().startswith("watching ")  # `| head -1`
    proc.stdout.close()
    code, err = finish(proc, LEAVES_WITHIN)
    assert code == 0 and err == ""
    assert hall.watchers(game.id) == 0
    game.close()


# ----- a closed pipe on standard output -----
PRINTING = [["hall"], ["hall", "--json"], ["saves"], ["rules", "troll"], ["watch", "GAME"],
            ["sim", "dicetower", "--games", "50"], ["--help"], ["--version"], ["verify", "FILE"], ["play", "--help"]]


@pytest.mark.parametrize("how", ["head -1", "closed at once"])
@pytest.mark.parametrize("args", PRINTING, ids=" ".join)
def test_a_command_that_prints_ends_quietly_on_a_closed_pipe(hall, tmp_path, args, how):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    args = [bots.id if a == "GAME" else str(a_replay(tmp_path)) if a == "FILE" else a for a in args]
    proc = dicehall(*args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    if how == "head -1":
        assert proc.stdout.readline()
    proc.stdout.close()  # before the first write (closed at once) or after the first line
    code, err = finish(proc, 30.0)
    assert err == ""  # no traceback, no "Exception ignored ... BrokenPipeError" at exit
    assert code == 0


# ----- the terminal goes away while the app runs -----
APP = """
import sys
from dicehall import saves
from dicehall.tui.app import DicehallApp
app = DicehallApp(session=saves.new_save("dicetower", name=sys.argv[1], seed=7))
app.run()
sys.exit(app.return_code or 0)
"""


def start_app(name: str, stdin, stdout, stderr) -> subprocess.Popen:
    """The app itself, past the command's refusal, on whatever streams it is given (the name marks it)."""
    return subprocess.Popen([sys.executable, "-c", APP, name], cwd=ROOT, stdin=stdin, stdout=stdout, stderr=stderr)


def gone_within(proc: subprocess.Popen, seconds: float) -> None:
    """The process exits; the test fails if it outlives `seconds` (it is killed)."""
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"the app still ran {seconds} s after its terminal went away")


def assert_saved_and_released(name: str, pulls: int) -> None:
    session = saves.open_save(name)  # the lock was released: continue works at once
    assert session.state.pulls == pulls
    saves.close_save(session)


def press_p_until_saved(send, name: str, count: int, drain=lambda: None) -> None:
    for expected in range(1, count + 1):
        send(b"p")
        eventually(lambda: pulls_on_disk(name) >= expected, f"pull {expected} saved", between=lambda: (drain(), time.sleep(0.05)))
        assert pulls_on_disk(name) == expected


def test_the_app_exits_when_its_input_pipe_ends(tmp_path):
    """`sleep 3 | dicehall > out.txt` spun at 85% of a core once standard input reached end of file."""
    name = f"eof-{tmp_path.name}"
    read, write = os.pipe()
    master, slave = os.openpty()
    proc = start_app(name, stdin=read, stdout=slave, stderr=slave)
    os.close(read), os.close(slave)
    try:
        assert SCREEN_DRAWN in read_for(master, 60, until=SCREEN_DRAWN)
        press_p_until_saved(lambda key: os.write(write, key), name, 2, lambda: read_for(master, 0.05))
        os.close(write)
        write = -1
        gone_within(proc, LEAVES_WITHIN)
    finally:
        if write >= 0:
            os.close(write)
        os.close(master)
    assert proc.returncode == 129  # as a hang-up
    assert running_with(name) == []
    assert_saved_and_released(name, 2)


def test_the_app_exits_when_its_pseudo_terminal_closes_without_a_hangup(tmp_path):
    """The terminal is not the app's controlling one, so no SIGHUP comes: reading it fails (EIO)."""
    name = f"eio-{tmp_path.name}"
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-c", APP, name], cwd=ROOT, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    try:
        assert SCREEN_DRAWN in read_for(master, 60, until=SCREEN_DRAWN)
        press_p_until_saved(lambda key: os.write(master, key), name, 1, lambda: read_for(master, 0.05))
    finally:
        os.close(master)
    gone_within(proc, LEAVES_WITHIN)
    assert proc.returncode == 129 and running_with(name) == []
    assert_saved_and_released(name, 1)


def test_the_real_command_exits_when_its_terminal_closes(tmp_path):
    """dicehall in a terminal of its own (its controlling one, as under sshd): the master closes."""
    import pty

    name = f"pty-{tmp_path.name}"
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "dicehall", "play", "dicetower", "--seed", "7", "--name", name])
    try:
        assert SCREEN_DRAWN in read_for(fd, 60, until=SCREEN_DRAWN)
        press_p_until_saved(lambda key: os.write(fd, key), name, 1, lambda: read_for(fd, 0.05))
    finally:
        os.close(fd)
    status = exited(pid, "dicehall ended after its terminal closed", seconds=LEAVES_WITHIN)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 129
    assert running_with(name) == []
    assert_saved_and_released(name, 1)


def test_the_app_exits_when_its_output_breaks(tmp_path):
    """The screen is drawn on stderr; its reader goes away (EPIPE) while keys still come: the next
    drawing fails and the app leaves, with the move that caused it saved."""
    name = f"epipe-{tmp_path.name}"
    read, write = os.pipe()
    proc = start_app(name, stdin=read, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(read)
    try:
        screen = proc.stderr.fileno()
        assert SCREEN_DRAWN in read_for(screen, 60, until=SCREEN_DRAWN)
        press_p_until_saved(lambda key: os.write(write, key), name, 1, lambda: read_for(screen, 0.05))
        for _ in range(50):  # the first pull's frames drawn (a quiet second): only the next move's drawing may break
            if not read_for(screen, 1.0):
                break
        proc.stderr.close()
        os.write(write, b"p")  # a move, then a drawing that cannot be written
        gone_within(proc, LEAVES_WITHIN)  # the pull's own time, then the exit
    finally:
        os.close(write)
    assert proc.returncode == 129 and running_with(name) == []
    assert_saved_and_released(name, 2)


def test_a_hall_seat_is_released_when_the_terminal_goes_away(hall):
    """`dicehall host` on a terminal that is not its controlling one (no SIGHUP): the terminal
    closes, the app leaves (within LEAVES_WITHIN: at once when idle), and the seat is free for its player to take back."""
    master, slave = os.openpty()
    proc = dicehall("host", "towers", "--name", "Ann", stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    try:
        assert b"in the hall: game" in read_for(master, 60, until=b"in the hall: game")
        [entry] = hall.listing()
        assert [seat.status for seat in entry.seats] == ["player", "open"]
    finally:
        os.close(master)
    gone_within(proc, LEAVES_WITHIN)
    assert proc.returncode == 129
    assert [seat.words() for seat in hall.entry(entry.id).seats] == ["Ann (disconnected)", "open"]
    again = hall.join(entry.id, name="Ann")  # her own seat, at once: the lock went with the app
    assert again.seat == 0
    again.close()
