"""The Hall screen and the hall game screens around play (issue #20), at 80x24 through Pilot: a new
game hosted from the Hall screen (a bot seat, an open seat), leaving a hall game (it asks; back to
the Hall screen when opened from it), a finished game's review and the way back, an opponent whose
link drops and comes back, and a finished game's seats shown as its players."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall.saves.hall import Hall, login_name
from tests.apphelpers import drive_hall as run, footer, join_from_the_hall_screen, screen_text, status, until
from tests.hallhelpers import play_until_over
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen, HelpScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.hall.host import HallHostScreen
from dicehall.tui.screens.hall.table import HallWaitScreen
from dicehall.tui.screens.viewer import ViewerScreen

ROOT = Path(__file__).parent.parent


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    return Hall(tmp_path / "hall")










async def to_line(pilot, key: str) -> None:
    """Move the setup's cursor to the line `key` (Down from the top)."""
    screen = pilot.app.screen
    await pilot.press("home")
    for _ in range(20):
        if screen.current() == key:
            return
        await pilot.press("down")
    raise AssertionError(f"no line {key!r}: {[k for k, _ in screen.rows()]}")


async def open_host_screen(pilot) -> None:
    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
    await until(pilot, lambda: "n New game" in footer(pilot.app))  # the key is named where it works
    await pilot.press("n")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallHostScreen))


async def choose_towers(pilot) -> None:
    await to_line(pilot, "game")
    await pilot.press("right")  # wager -> towers
    assert pilot.app.screen.game == "towers"


# ----- item 2: hosting from the Hall screen -----
def test_the_hall_screen_hosts_a_towers_game_against_a_bot_seat(hall):
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        host_footer = footer(pilot.app)
        await choose_towers(pilot)
        await to_line(pilot, "seat1")
        await pilot.press("enter")  # open -> a bot, easy
        await pilot.press("enter")  # -> medium
        await to_line(pilot, "option:first")
        await pilot.press("enter")  # Dark places first
        await to_line(pilot, "name")
        await pilot.press("enter")
        await pilot.press(*"[b]Ann[/b]", "enter")  # a name is data, never markup
        setup = screen_text(pilot.app)
        await pilot.press("s")
        await until(pilot, lambda: pilot.app.hall_game is not None and pilot.app.hall_game.session is not None
                    and hasattr(pilot.app.screen, "session"))
        return host_footer, setup, screen_text(pilot.app), [type(s).__name__ for s in pilot.app.screen_stack]

    host_footer, setup, table, stack = run(app, steps)
    assert "s Start" in host_footer and "q Back" in host_footer
    assert "Game:           Towers" in setup and "Seat 2 (Dark):  a bot, medium" in setup
    assert "First to place: Dark" in setup and "Your name:      [b]Ann[/b]" in setup
    games = hall.listing()
    assert len(games) == 1
    with hall.open(games[0].id) as game:  # what the log says: Ann at seat 1, the bot at seat 2
        players = game.session.players
        assert (players[0].name, players[0].bot) == ("[b]Ann[/b]", False)
        assert (players[1].bot, players[1].style) == (True, "medium")
        assert game.session.options == {"first": "dark", "match": False}
        session = game.session  # Dark (the bot) places first: still thinking, or its tower is down
        assert session.to_act == 1 if not session.events else session.describe(0).startswith("Bot (Dark) places")
    assert "Towers: [b]Ann[/b] v Bot" in table
    assert stack[:2] == ["LauncherScreen", "HallScreen"] and stack[-1] == "HallTowersScreen"  # the setup gave way


def test_the_hall_screen_hosts_a_towers_game_with_an_open_seat_that_waits_and_starts_when_joined(hall):
    app = DicehallApp()
    joined = []

    async def steps(pilot):
        await open_host_screen(pilot)
        await choose_towers(pilot)
        setup = screen_text(pilot.app)
        await pilot.press("s")  # the name left alone: the login name
        await until(pilot, lambda: isinstance(pilot.app.screen, HallWaitScreen))
        waiting = screen_text(pilot.app)
        game_id = pilot.app.hall_game.id
        joined.append(hall.join(game_id, name="Bob"))
        await until(pilot, lambda: "place a tower" in screen_text(pilot.app))
        return setup, waiting, game_id, screen_text(pilot.app)

    try:
        setup, waiting, game_id, started = run(app, steps)
    finally:
        for game in joined:
            game.close()
    me = login_name()
    assert "Seat 2 (Dark):  open (for another player)" in setup and f"Your name:      {me} (your login name)" in setup
    assert f"seat 1: {me} (you)" in waiting and "seat 2: open" in waiting
    assert f"waiting for seat 2: dicehall join {game_id} on another terminal" in waiting
    assert f"{me}: place a tower" in started and "Bob" in started
    with hall.open(game_id) as game:
        assert [p.name for p in game.session.players] == [me, "Bob"]
        assert not any(p.bot for p in game.session.players)


def test_the_host_screen_offers_the_games_seats_and_styles_and_esc_makes_nothing(hall):
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        await to_line(pilot, "count")
        await pilot.press("right", "right")  # 4 seats
        await to_line(pilot, "seat3")
        await pilot.press("right", "right", "right")  # bot cautious, bold, best
        await to_line(pilot, "you")
        await pilot.press("right")  # your seat: 2
        wager = screen_text(pilot.app)
        await to_line(pilot, "game")
        await pilot.press("left", "left")  # wager -> journal -> troll (round the list)
        troll = screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.pause()
        return wager, troll, type(pilot.app.screen).__name__

    wager, troll, back = run(app, steps)
    assert "Seats:          4" in wager and "Your seat:      Seat 2" in wager
    assert "Seat 1:         open" in wager and "Seat 4:         a bot, best" in wager
    assert "Seat 2:" not in wager.replace("Your seat:      Seat 2", "")  # your own seat has no line
    assert "Angry Troll versus Magic Bridge" in troll and "Difficulty:     standard" in troll
    assert "Seat 1" not in troll  # one seat: yours
    assert back == "HallScreen" and hall.listing() == []


def test_a_host_the_hall_refuses_is_one_line_and_the_setup_stays(hall, tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        pilot.app.screen.hall = Hall(blocked)  # a hall folder that is a file: nothing can be made in it
        await pilot.press("s")
        await pilot.pause()
        return status(pilot.app), type(pilot.app.screen).__name__

    said, screen = run(app, steps)
    assert screen == "HallHostScreen"
    assert said and "\n" not in said and "Traceback" not in said


# ----- item 3: leaving a hall game -----
def towers_game(hall, name="Ann"):
    ann = hall.host("towers", ["player", "open"], name)
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    return ann, bob


def test_escape_in_a_hall_game_asks_and_no_keeps_the_game(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("enter")  # Ann picks d5 to place... places it (placement)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        asked = pilot.app.screen.question
        was_confirm = True
        await pilot.press("n")
        await pilot.pause()
        kept = type(pilot.app.screen).__name__, pilot.app.hall_game is ann
        await pilot.press("question_mark")
        await pilot.pause()
        helped = screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        return asked, was_confirm, kept, helped

    try:
        asked, was_confirm, kept, helped = run(app, steps)
        assert was_confirm
        assert f"Leave game {ann.id}? Your seat waits for you: dicehall join {ann.id} takes it back." in asked
        assert "Leave dicehall?" in asked
        assert kept == ("HallTowersScreen", True)
        assert "it is saved as you play" not in helped
        assert "leave dicehall (asks first)" in helped
        assert app.return_code == 0 and not app.is_running  # yes: out of dicehall (opened by host/join)
    finally:
        bob.close()


def test_a_hall_game_joined_from_the_hall_screen_goes_back_to_it_after_asking(hall):
    ann, bob = towers_game(hall, name="Ann")
    ann.close()  # Ann's seat is free again: she takes it back from the Hall screen
    app = DicehallApp()

    async def steps(pilot):
        await join_from_the_hall_screen(pilot, "Ann")
        seated = pilot.app.hall_game.seat
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        asked = pilot.app.screen.question
        await pilot.press("y")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        return seated, asked, pilot.app.hall_game, pilot.app.is_running

    try:
        seated, asked, game, running = run(app, steps)
        assert seated == 0
        assert "Go back to the Hall screen?" in asked
        assert game is None and running  # the seat is released; dicehall goes on
        assert not hall.seat_held(bob.id, 0)
    finally:
        bob.close()


# ----- item 4: after a hall game ends -----
def finished_wager(hall):
    """A wager between Ann and Bob played to its end (no bot); Bob has left."""
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    play_until_over({0: ann, 1: bob}, random.Random(7))
    bob.close()
    ann.follow()
    assert ann.finished and ann.fold.revealed is not None
    return ann


def test_a_finished_hall_game_reviews_with_v_and_its_help_promises_nothing_false(hall):
    ann = finished_wager(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        over = screen_text(pilot.app)
        await pilot.press("question_mark")
        await pilot.pause()
        helped = screen_text(pilot.app)
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("v")
        await pilot.pause()
        viewer = pilot.app.screen
        await pilot.press("q")
        await pilot.pause()
        back = type(pilot.app.screen).__name__
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        asked = pilot.app.screen.question
        return over, helped, viewer, back, asked

    try:
        over, helped, viewer, back, asked = run(app, steps)
        assert "v reviews the game, q goes back" in over
        assert "Skip bots" not in helped and "seat waits" not in helped
        assert "leave dicehall (asks first)" in helped
        assert isinstance(viewer, ViewerScreen) and not viewer.live
        assert viewer.session.outcome is not None and viewer.session.outcome.summary == ann.session.outcome.summary
        assert back == "HallWagerScreen"
        assert "Leave dicehall?" in asked  # no Hall screen beneath: q asks before leaving dicehall
    finally:
        ann.close()


def test_q_after_a_hall_game_opened_from_the_hall_screen_goes_back_to_it(hall):
    ann = hall.host("dicetower", ["player"], "Ann", options={"start": 1})
    ann.close()
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        pilot.app.open_hall_game(hall.join(ann.id, name="Ann"))  # what j does, its name asked
        await until(pilot, lambda: hasattr(pilot.app.screen, "session"))
        for _ in range(20):
            if pilot.app.hall_game.finished:
                break
            await pilot.press("p")
        await until(pilot, lambda: "v Review" in footer(pilot.app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        return pilot.app.is_running, pilot.app.hall_game

    running, game = run(app, steps)
    assert running and game is None


# ----- item 5: an opponent's link -----
def test_a_disconnected_opponent_is_shown_and_announced_and_so_is_their_return(hall):
    ann, bob = towers_game(hall)
    app = DicehallApp(hall_game=ann)
    again = []

    async def steps(pilot):
        before = screen_text(pilot.app)
        bob.close()  # Bob's link drops: his dicehall ends, his seat's lock is released
        await until(pilot, lambda: "Bob has disconnected" in status(pilot.app))
        gone = status(pilot.app), screen_text(pilot.app)
        again.append(hall.join(ann.id, name="Bob"))  # Bob logs in again
        await until(pilot, lambda: "Bob is back" in status(pilot.app))
        return before, gone, status(pilot.app), screen_text(pilot.app)

    try:
        before, (gone_line, gone_screen), back_line, back_screen = run(app, steps)
        assert "(disconnected)" not in before
        assert gone_line == "Bob has disconnected: their seat waits"
        assert "Bob (disconnected)" in gone_screen
        assert back_line == "Bob is back"
        assert "(disconnected)" not in back_screen
    finally:
        for game in again:
            game.close()
        ann.close()


def hall_cli(hall: Hall, *args: str) -> str:
    return subprocess.run([sys.executable, "-m", "dicehall", "--hall", str(hall.folder), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True).stdout


def test_a_finished_games_seats_are_its_players_everywhere(hall):
    ann = finished_wager(hall)
    ann.close()  # nobody holds a seat any more
    entry = hall.listing()[0]
    assert [(v.status, v.name) for v in entry.seats] == [("player", "Ann"), ("player", "Bob")]
    listed = json.loads(hall_cli(hall, "hall", "--json"))["games"][0]["seats"]
    assert [s["status"] for s in listed] == ["player", "player"]
    assert "disconnected" not in hall_cli(hall, "hall")
    watched = hall_cli(hall, "watch", ann.id)  # not a terminal: its lines
    assert watched.startswith(f"watching Dead Man's Wager {ann.id}: Ann, Bob\n")
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        return screen_text(pilot.app)

    lobby = run(app, steps)
    assert "seats: 1 Ann, 2 Bob" in lobby and "disconnected" not in lobby
