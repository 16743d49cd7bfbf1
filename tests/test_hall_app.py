"""Playing in the hall (issue #15): the game screen of `dicehall host` / `dicehall join` driven
through Pilot at 80x24, with the other seat played through the hall's API in this process; and two
real dicehall processes in tmux playing a whole game against each other, one hung up and back."""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicehall import engine
from dicehall.engine.games.towers import Place, parse_square
from dicehall.saves.hall import Hall
from tests.apphelpers import drive_hall as run, eventually, screen_text, status, until
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.hall.table import HallWaitScreen
from dicehall.tui.screens.troll import TrollScreen
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.widgets import StatusLine

ROOT = Path(__file__).parent.parent


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")








def test_the_host_waits_for_the_open_seat_then_the_game_starts_when_it_is_taken(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        waiting = screen_text(pilot.app)
        was_waiting = isinstance(pilot.app.screen, HallWaitScreen)
        bob = hall.join(ann.id, name="<b>Bob[/b]")  # a name is data, never markup
        try:
            await until(pilot, lambda: "place a tower" in screen_text(pilot.app))
            return waiting, was_waiting, screen_text(pilot.app)
        finally:
            bob.close()

    waiting, was_waiting, started = run(app, steps)
    assert was_waiting
    assert "seat 1: Ann (you)" in waiting and "seat 2: open" in waiting
    assert "The game starts when the seats are full" in waiting
    assert f"waiting for seat 2: dicehall join {ann.id} on another terminal" in waiting
    assert "Ann: place a tower" in started and "<b>Bob[/b]" in started


def towers_game(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    return ann, bob


def test_a_move_by_the_other_terminal_appears_and_a_key_for_its_seat_is_refused(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("enter")  # Ann (Light) places on d5
        placed = ann.session.state.board[parse_square("d5")]
        await pilot.press("enter")  # Bob's turn: refused, nothing written
        refused = status(pilot.app)
        events = len(ann.session.events)
        bob.follow()
        bob.play(Place(parse_square("a1")))
        await until(pilot, lambda: "on a1" in status(pilot.app))
        return placed, refused, events, screen_text(pilot.app)

    placed, refused, events, screen = run(app, steps)
    try:
        assert placed != 0
        assert refused == "Not now: Bob's turn (seat 2, another terminal)"
        assert events == 1
        assert ann.session.state.board[parse_square("a1")] != 0
        assert "Bob (Dark) places tower 1 of 8 on a1" in screen
        assert "Ann: place a tower" in screen
    finally:
        bob.close()


def test_a_decision_on_a_stale_position_is_refused_with_one_line_and_the_screen_refreshes(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("enter")  # Ann on d5
        bob.follow()
        bob.play(Place(parse_square("a1")))
        await until(pilot, lambda: "on a1" in status(pilot.app))  # Ann's turn
        follower = pilot.app.screen_stack[1].hall_follower
        follower.stop(wait=5.0)  # her screen stops following: it cannot learn of Bob's next record
        assert follower.done.is_set()
        bob.ask_takeback()  # Bob asks to take a1 back: Ann's next move is made on an old position
        await pilot.press("right", "enter")  # e5: refused, as the log has grown
        said = pilot.app.screen_stack[1].query_one(StatusLine).message
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))  # the refreshed game asks
        question = screen_text(pilot.app)
        await pilot.press("y")
        bob.follow()  # Bob's terminal sees the yes and takes his move back
        return said, question

    said, question = run(app, steps)
    try:
        assert said == "Not now: Bob moved first: your move was made on an old position; the board is refreshed"
        assert ann.session.state.board[parse_square("e5")] == 0  # nothing of the stale move was written
        assert "Bob asks to take back their last move" in question
        assert bob.session.state.board[parse_square("a1")] == 0
        assert len(bob.session.events) == 1
    finally:
        bob.close()


def test_undo_asks_the_other_player_and_their_yes_takes_the_move_back(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("enter")
        await pilot.press("u")
        asked = status(pilot.app)
        redo = None
        await pilot.press("ctrl+y")
        redo = status(pilot.app)
        bob.follow()
        bob.answer_takeback(True)
        await until(pilot, lambda: len(ann.session.events) == 0)
        await until(pilot, lambda: "took back" in status(pilot.app))
        return asked, redo, screen_text(pilot.app)

    asked, redo, screen = run(app, steps)
    try:
        assert asked == "asked Bob to take back your last move"
        assert "no redo in the hall" in redo
        assert "Ann took back a move" in screen
        assert "Placement: 0 of 16 placed" in screen
        assert "Undo" not in screen.splitlines()[-1]  # nothing of Ann's is left to take back
    finally:
        bob.close()


def test_leaving_releases_the_seat_and_the_follower(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    followers = []

    async def steps(pilot):
        followers.append(pilot.app.screen.hall_follower)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)  # leaving asks first
        await pilot.press("y")
        await pilot.pause()

    asyncio.run(_run_plain(app, steps))
    assert app.return_code == 0  # opened by dicehall host/join: leaving leaves dicehall
    try:
        assert followers[0].done.is_set()  # the follower's thread has ended
        assert [v.status for v in bob.seats()] == ["disconnected", "player"]
        again = hall.join(ann.id, name="Ann")  # the same person takes the seat back
        assert again.seat == 0
        again.close()
    finally:
        bob.close()


async def _run_plain(app, steps):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await steps(pilot)


# ----- two real processes in tmux -----
class Panes:
    """dicehall processes in tmux sessions of one private tmux server."""

    def __init__(self, tmp_path: Path):
        self.socket = f"dicehall-test-{os.getpid()}-{time.monotonic_ns()}"
        self.env = {"TERM": "xterm-256color", "DICEHALL_HALL": str(tmp_path / "hall")}
        self.tmp = tmp_path
        self.started: list[str] = []

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def start(self, name: str, *args: str) -> None:
        env = " ".join(f"{k}={v}" for k, v in {**self.env, "DICEHALL_HOME": str(self.tmp / name)}.items())
        command = f"cd {ROOT} && exec env {env} {sys.executable} -m dicehall {' '.join(args)}"
        if name in self.started:
            self.tmux("respawn-pane", "-k", "-t", name, command)
        else:
            self.tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
            self.tmux("set-option", "-t", name, "remain-on-exit", "on")
            self.started.append(name)

    def keys(self, name: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", name, *keys)

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", name)

    def pid(self, name: str) -> int:
        return int(self.tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip())

    def wait_for(self, name: str, *texts: str) -> str:
        """Wait until `name`'s screen shows one of `texts`; return the screen."""
        shown = [""]

        def showing() -> bool:
            shown[0] = self.screen(name)
            return any(text in shown[0] for text in texts)

        eventually(showing, lambda: f"{texts!r} not on {name}'s screen:\n{shown[0]}", between=lambda: time.sleep(0.1))
        return shown[0]

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def recorded(hall, game_id: str, events: int, or_over: bool = False):
    """A look for `eventually`: the game's log holds more than `events` events (or, `or_over`, the
    game is over). The log is read and folded whole only when its file has changed size since the
    last look: a record is an append, and the looks between two records cost a stat each."""
    log, last = hall.games / f"{game_id}.dhh", [-1]

    def look() -> bool:
        size = log.stat().st_size
        if size == last[0]:
            return False
        last[0] = size
        with hall.open(game_id) as after:
            return (or_over and after.finished) or len(after.session.events) > events

    return look


def hall_json(hall_dir: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "dicehall", "--hall", str(hall_dir), "hall", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return json.loads(out)


def test_two_real_terminals_play_a_whole_wager_through_the_hall_one_hung_up_and_back(tmp_path):
    panes = Panes(tmp_path)
    hall = Hall(tmp_path / "hall")
    try:
        panes.start("ann", "host", "wager", "--name", "Ann")
        panes.wait_for("ann", "waiting for seat 2")
        game_id = hall.listing()[0].id
        panes.start("bob", "join", game_id, "--name", "Bob")
        panes.wait_for("ann", "Dead Man's Wager: Ann v Bob")
        panes.wait_for("bob", "Dead Man's Wager: Ann v Bob")
        panes.start("eve", "watch", game_id)  # a third terminal watches
        panes.wait_for("eve", "live)")
        hung_up = False
        terminals, last_seat = {0: "ann", 1: "bob"}, None
        for _ in range(400):
            game = hall.open(game_id)
            try:
                if game.finished:
                    break
                session = game.session
                seat, events = session.to_act, len(session.events)
                key = "r" if "roll" in [str(c) for c in session.commands()] else "e"
                name = game.fold.seat_name(seat)
            finally:
                game.close()
            if not hung_up and events >= 6 and seat == 0:  # Ann's turn: Bob's link drops
                os.kill(panes.pid("bob"), signal.SIGHUP)
                eventually(lambda: panes.tmux("display-message", "-p", "-t", "bob", "#{pane_dead}").strip() == "1",
                           "the hung-up dicehall ended")  # no orphan left
                eventually(lambda: hall.listing()[0].as_json()["seats"][1]["status"] == "disconnected",
                           "Bob's seat listed disconnected")  # read here, not by a process a poll
                listed = hall_json(hall.folder)["games"][0]["seats"][1]  # then as `dicehall hall --json` says it
                panes.start("bob", "join", game_id, "--name", "Bob")  # Bob logs in again
                panes.wait_for("bob", "Dead Man's Wager: Ann v Bob")
                hung_up = True
            if seat != last_seat:  # a person presses keys once their screen says it is their turn
                panes.wait_for(terminals[seat], f"{name}: ", f"{name} (bonus turn): ")
                last_seat = seat
            panes.keys(terminals[seat], key)
            eventually(recorded(hall, game_id, events, or_over=True),  # the key's record (its dice too)
                       lambda: panes.screen("ann" if seat == 0 else "bob"))
        assert hung_up and listed == {"seat": 2, "status": "disconnected", "name": "Bob"}
        with hall.open(game_id) as final:
            assert final.finished
            summary = final.session.outcome.summary
            events = len(final.session.events)
        panes.wait_for("ann", summary.upper())
        panes.wait_for("bob", summary.upper())
        watched = panes.wait_for("eve", f"the game is over: {summary}")
        assert f"event {events}/{events}" in watched
        assert verify_hall_game(hall.folder, game_id).endswith(f"{events} events, {summary}")
    finally:
        panes.close()


def verify_hall_game(hall_dir: Path, game_id: str) -> str:
    """`dicehall verify ID`'s summary line; the test fails if it does not pass."""
    verified = subprocess.run([sys.executable, "-m", "dicehall", "--hall", str(hall_dir), "verify", game_id],
                              cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith(f"ok: hall game {game_id}")
    return verified.stdout.splitlines()[0]


def towers_keys(cursor: int, command) -> tuple[list[str], int]:
    """The keys a Towers screen whose cursor is on `cursor` needs to make `command`, and where its
    cursor ends: arrows to each square the command names, Enter on each (a move: pick, then target)."""
    keys: list[str] = []
    squares = [command.square] if isinstance(command, Place) else [command.source, command.target]
    for square in squares:
        (row, col), (to_row, to_col) = divmod(cursor, 8), divmod(square, 8)
        keys += ["Right" if to_col > col else "Left"] * abs(to_col - col)
        keys += ["Down" if to_row > row else "Up"] * abs(to_row - row)
        keys.append("Enter")
        cursor = square
    return keys, cursor


def test_two_real_terminals_play_a_whole_towers_game_through_the_hall_and_a_third_watches(tmp_path):
    panes = Panes(tmp_path)
    hall = Hall(tmp_path / "hall")
    rng = random.Random(15)
    try:
        panes.start("ann", "host", "towers", "--name", "Ann")
        panes.wait_for("ann", "waiting for seat 2")
        game_id = hall.listing()[0].id
        panes.start("eve", "watch", game_id)  # watching before the game has started
        panes.wait_for("eve", "waiting for players")
        panes.start("bob", "join", game_id, "--name", "Bob")
        for name in ("ann", "bob"):
            panes.wait_for(name, "Ann: place a tower")
        panes.wait_for("eve", "live)")
        terminals = {0: "ann", 1: "bob"}
        cursors = {0: parse_square("d5"), 1: parse_square("d5")}  # where each screen's cursor starts
        moves = 0
        while True:
            with hall.open(game_id) as game:
                if game.finished:
                    break
                seat, events = game.to_act, len(game.session.events)
                command = rng.choice(game.session.commands())
                turn = f"{game.fold.seat_name(seat)}: " + ("place a tower" if isinstance(command, Place)
                                                           else "pick a tower to move")
            panes.wait_for(terminals[seat], turn)  # a person presses keys once their screen says it is their turn
            keys, cursors[seat] = towers_keys(cursors[seat], command)
            panes.keys(terminals[seat], *keys)
            moves += 1
            eventually(recorded(hall, game_id, events), lambda: panes.screen(terminals[seat]))  # the keys' decision
        assert moves > 16  # every tower placed, then moved
        with hall.open(game_id) as final:
            summary = final.session.outcome.summary
            events = len(final.session.events)
            digest = engine.digest(final.session.state)
        listed = hall_json(hall.folder)["games"][0]
        assert (listed["finished"], listed["result"], listed["moves"]) == (True, summary, moves)
        assert verify_hall_game(hall.folder, game_id).endswith(f"{events} events, {summary}")
        assert engine.digest(hall.finished_session(game_id).state) == digest  # replayed from the revealed seed
        for name in ("ann", "bob"):
            assert "Game over" in panes.wait_for(name, summary)
        watched = panes.wait_for("eve", f"the game is over: {summary}")
        assert f"Watching {game_id}: Towers" in watched and f"event {events}/{events}" in watched
    finally:
        panes.close()


def troll_key(session) -> str:
    """A key of the troll's screen that makes a legal command: an arrow moves the troll; else s or w."""
    for command in session.commands():
        kind = type(command).__name__
        if kind == "Move":
            return command.direction
        if kind in ("Stomp", "Wait"):
            return "s" if kind == "Stomp" else "w"
    raise AssertionError(f"no move, stomp or wait: {session.commands()}")


@pytest.mark.parametrize("game_id", ["dicetower", "troll"])
def test_the_dice_tower_and_the_troll_are_played_in_the_hall_by_their_one_person_and_watched(hall, game_id,
                                                                                            monkeypatch):
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 0)  # what an action sets off shows at once
    ann = hall.host(game_id, ["player"], "Ann")
    watcher = hall.watch(ann.id)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        pressed = []
        for n in range(3):
            if game_id == "troll" and pressed and ann.session.outcome is not None:
                break  # the secret deal can end the troll's game within three actions: what was played stands
            before = len(ann.session.events)
            key = troll_key(ann.session) if game_id == "troll" else "pr"[n % 2]  # pull, pull and remove
            await pilot.press(key)
            assert len(ann.session.events) > before, status(pilot.app)
            pressed.append(key)
        listed = hall.entry(ann.id)
        await pilot.press("t")  # typed dice: the hall's dice come from its secret seed
        return pressed, listed, status(pilot.app), screen_text(pilot.app)

    try:
        pressed, listed, typed, screen = run(app, steps)
        watcher.follow()
        assert engine.digest(watcher.session.state) == engine.digest(ann.session.state)
        assert len(watcher.session.events) == len(ann.session.events) > len(pressed)
        # a finished game lists no watchers (saves/hall/listing.py): the secret deal can end the troll's on the last key
        assert listed.watchers == (0 if listed.finished else 1), listed
        assert listed.moves == len(pressed) and [v.status for v in listed.seats] == ["player"]
        assert f"(hall {ann.id})" in screen
        if game_id == "dicetower":
            assert pressed == ["p", "r", "p"]
            assert typed == "Not now: typed dice are not used in the hall: its dice come from the game's secret seed"
            assert "rolled by dicehall" in screen and "t: type" not in screen
            assert "Pulls so far     3" in screen
        else:
            assert "Troll: Ann" in screen and "turn 1, 2 actions left" not in screen
    finally:
        watcher.close()
        ann.close()


def test_war_of_bones_in_the_hall_follows_the_other_seat_and_refuses_its_keys(hall, monkeypatch):
    """War of Bones is playable in the hall: the other terminal's decisions appear on this one's
    screen, this screen's keys are refused while the other seat decides, and its own seat decides
    here once its turn comes."""
    from dicehall.tui.screens.bones import BonesScreen

    monkeypatch.setattr(BonesScreen, "SETUP_SECONDS", 0.01)  # the troops still land one by one, without 0.3 s between
    for _ in range(30):  # the roll-off comes from the game's secret seed: host until Bob decides first
        ann = hall.host("bones", ["player", "open"], "Ann")
        bob = hall.join(ann.id, name="Bob")
        ann.follow()
        if ann.to_act == 1:
            break
        ann.close()
        bob.close()
    app = DicehallApp(hall_game=ann)
    rng = random.Random(4)

    async def steps(pilot):
        await pilot.pause()
        refused = None
        for _ in range(40):  # Bob decides until it is Ann's turn
            bob.follow()
            if bob.to_act != 1:
                break
            if refused is None:
                await until(pilot, lambda: pilot.app.screen.shown is None)  # the steps through the roll-off drawn
                await pilot.press("a")  # Ann's attack key, on Bob's decision
                refused = status(pilot.app)
            bob.play(rng.choice(bob.session.commands()))
            await until(pilot, lambda: len(ann.session.events) == len(bob.session.events))
        await until(pilot, lambda: pilot.app.screen.stepper is None)  # Bob's moves shown step by step
        return refused, pilot.app.screen.human(), screen_text(pilot.app)

    refused, human, screen = run(app, steps)
    try:
        assert refused == "Not now: Bob's turn (seat 2, another terminal)"
        assert bob.to_act == 0 and human == 0  # Ann's turn, decided on this screen
        assert len(ann.session.events) == len(bob.session.events) > 1
        assert "Ann" in screen
    finally:
        bob.close()


def test_the_footer_and_help_say_what_u_and_q_do_in_the_hall(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("enter")  # Ann places: now she has a move to take back
        footer = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("question_mark")
        await pilot.pause()
        return footer, screen_text(pilot.app)

    footer, help_text = run(app, steps)
    bob.close()
    assert "u Takeback" in footer and "q Leave" in footer
    assert "ask the others to take back your last move" in help_text
    assert "leave dicehall (asks first); your seat waits" in help_text
    assert "it is saved as you play" not in help_text


def test_the_hall_dice_towers_title_keeps_the_seed_secret_until_the_end_then_shows_the_revealed_seed(hall):
    """The title once showed a number made from the commitment, which a player could take for the
    seed: it says the seed is secret, and shows the real one once the game is over and revealed."""
    ann = hall.host("dicetower", ["player"], "Ann", options={"start": 1})
    secret = hall.read_secret(ann.id)
    public = int(ann.fold.commitment[:12], 16)  # the number the bots' tie-breaks use
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        playing = screen_text(pilot.app).splitlines()[0]
        for _ in range(20):
            if ann.finished:
                break
            await pilot.press("p")
        await pilot.pause()
        return playing, screen_text(pilot.app).splitlines()[0]

    try:
        playing, over = run(app, steps)
        assert "(seed secret until the end, undos 0)" in playing
        assert str(public) not in playing and str(secret) not in playing
        assert ann.finished and ann.fold.revealed == secret
        assert f"(seed {secret}, undos 0)" in over
    finally:
        ann.close()


def test_a_fallen_hall_tower_offers_its_review_and_leaves_pull_out_of_the_footer(hall):
    # once the tower falls the seed is revealed: v opens the finished game as a replay; p and r say why not
    ann = hall.host("dicetower", ["player"], "Ann", options={"start": 1})
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        for _ in range(20):
            if ann.finished:
                break
            await pilot.press("p")
        await pilot.pause()
        fallen = screen_text(pilot.app)
        await pilot.press("p")
        await pilot.pause()
        refused = status(pilot.app)
        await pilot.press("v")
        await pilot.pause()
        viewer = pilot.app.screen
        return fallen, refused, viewer

    try:
        fallen, refused, viewer = run(app, steps)
        assert ann.finished and ann.fold.revealed is not None
        assert "Press v to review it, q to go back." in fallen
        assert "Pull" not in fallen.splitlines()[-1] and "v Review" in fallen.splitlines()[-1]  # the footer
        assert "the tower has fallen" in refused
        assert isinstance(viewer, ViewerScreen) and not viewer.live
        assert len(viewer.session.events) == len(ann.session.events)
    finally:
        ann.close()
