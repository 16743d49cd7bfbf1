"""Towers through the keys at 80x24: setup, placing and moving with the cursor, the bot thinking in
a worker, undo against the bot, reasons for refused keys, and a snapshot."""
from __future__ import annotations

from pathlib import Path

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games import towers
from dicehall.engine.games.towers import DARK, LIGHT, Place, parse_square
from tests.apphelpers import drive, screen_text
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.towers import TowersScreen, TowersSetupScreen

SNAPSHOTS = Path(__file__).parent / "snapshots"
PLACEMENT = [f"{f}{r}" for r in range(1, 5) for f in "afch"]  # Light a and c files, Dark f and h


async def bot_done(pilot):
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_setup_then_place_against_the_bot_which_answers_in_a_worker():
    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "down", "down", "enter")  # the launcher: Towers is the fourth game
        assert isinstance(app.screen, TowersSetupScreen)
        await pilot.press("down", "down", "right")  # bot level: medium -> hard
        setup = screen_text(app)
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, TowersScreen)
        await pilot.press("enter")  # the cursor starts on d5
        await bot_done(pilot)
        return screen.session, setup, screen_text(app)

    session, setup, after = drive(DicehallApp(), steps)
    assert "Bot level:      hard" in setup
    assert [(p.name, p.bot, p.style) for p in session.players] == [("You", False, ""), ("Bot", True, "hard")]
    assert session.state.board[parse_square("d5")] == towers.UNBUILT[LIGHT]
    assert session.state.placed == 2 and session.state.turn == LIGHT  # the bot placed its first tower
    assert "Bot (Dark) places tower 1 of 8" in after


def test_two_people_move_by_cursor_with_destinations_shown_and_reasons_for_refusals(snapshot):
    session = saves.new_save("towers", name="table", players=[Player("Ada"), Player("Bo")])
    for name in PLACEMENT:
        session.play(Place(parse_square(name)))
    assert session.state.phase == "movement" and session.state.turn == DARK  # Light placed first

    async def steps(pilot):
        screen = pilot.app.screen
        screen.cursor = parse_square("a1")
        await pilot.press("enter")  # Dark to move: a1 is Light's
        refused = screen_text(pilot.app)
        screen.cursor = parse_square("h4")
        await pilot.press("enter")  # pick h4: it can go up the h file, or left to g4
        picked = screen_text(pilot.app)
        targets = {towers.square_name(sq) for sq in screen.targets()}
        await pilot.press("k", "k", "k")  # up to h7
        await pilot.press("space")
        moved = screen_text(pilot.app)
        return refused, picked, targets, moved

    refused, picked, targets, moved = drive(DicehallApp(session=session), steps)
    assert "Not now: the tower on a1 is Light's: pick one of yours" in refused
    assert targets == {"h5", "h6", "h7", "h8", "g4"}
    board = [line.split("\u2502")[0] for line in picked.splitlines()]
    rank = {line.split()[0]: line for line in board if line.strip()[:1].isdigit()}
    assert rank["8"].rstrip().endswith("*") and rank["4"].count("*") == 1  # h8 and g4 marked
    assert "picked h4" in picked
    assert session.state.board[parse_square("h7")] == towers.BUILT[DARK]
    assert "Bo (Dark) moves h4-h7" in moved and "[D]" in moved
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(moved, "towers.txt")


def test_escape_drops_the_pick_and_a_built_tower_cannot_be_picked():
    session = saves.new_save("towers", name="built", players=[Player("Ada"), Player("Bo")])
    for name in PLACEMENT:
        session.play(Place(parse_square(name)))

    async def steps(pilot):
        screen = pilot.app.screen
        screen.cursor = parse_square("h4")
        await pilot.press("enter", "escape")
        dropped = screen.selected
        await pilot.press("enter", "up", "enter")  # h4-h5, now built; Ada (Light) to move
        screen.cursor = parse_square("h5")
        await pilot.press("enter")
        return dropped, screen_text(pilot.app)

    dropped, text = drive(DicehallApp(session=session), steps)
    assert dropped is None
    assert "Not now: the tower on h5 is Dark's: pick one of yours" in text


def test_undo_against_the_bot_takes_back_the_move_and_its_answer():
    session = saves.new_save("towers", name="undo", players=[Player("Ada"), Player("Bot", True, "easy")])

    async def steps(pilot):
        await pilot.press("enter")
        await bot_done(pilot)
        placed = session.state.placed
        await pilot.press("u")
        await bot_done(pilot)
        return placed

    placed = drive(DicehallApp(session=session), steps)
    assert placed == 2
    assert session.state.placed == 0 and session.undos == 1 and session.state.turn == LIGHT


def test_keys_are_refused_with_reasons_at_the_edge_and_when_the_game_is_over():
    session = saves.new_save("towers", name="edge", players=[Player("Ada"), Player("Bo")])
    while session.outcome is None:
        session.play(session.commands()[0])

    async def steps(pilot):
        pilot.app.screen.cursor = 0
        await pilot.press("up")
        edge = screen_text(pilot.app)
        await pilot.press("enter")
        return edge, screen_text(pilot.app)

    edge, over = drive(DicehallApp(session=session), steps)
    assert "Not now: the edge of the board" in edge
    assert f"Not now: the game is over: {session.outcome.summary}" in over


def test_both_boards_fit_their_columns_and_show_lines_of_sight():
    from dicehall.tui.screens.towers import draw_board

    session = saves.new_save("towers", name="fit", players=[Player("Ada"), Player("Bo")])
    for name in PLACEMENT:
        session.play(Place(parse_square(name)))
    narrow = draw_board(session.state).plain.splitlines()
    wide = draw_board(session.state, cursor=0, wide=True).plain.splitlines()
    assert max(map(len, narrow)) <= 26 and len(narrow) == 9  # the replay viewer's board column
    assert max(map(len, wide)) <= 43 and len(wide) == 16  # the game screen's, at 80x24
    rank1 = next(line for line in narrow if line.startswith("1 "))
    assert rank1 == "1  L --- L  .  .  D === D "  # a1-c1 Light (1 point), f1-h1 Dark (1 point)


def test_leaving_while_the_bot_thinks_drops_its_answer(monkeypatch):
    import threading

    from dicehall.engine.bots import towers as bot

    session = saves.new_save("towers", name="leave", players=[Player("Ada"), Player("Bot", True, "hard")])
    release = threading.Event()
    think = bot.BOTS["hard"]  # the screen plays its seat through the catalogue's bots
    monkeypatch.setitem(bot.BOTS, "hard", lambda *args: release.wait(10) and think(*args))  # thinks until released

    async def steps(pilot):
        await pilot.press("enter")
        screen = pilot.app.screen
        ticket, state = screen.thinking, session.state  # the search under way
        await pilot.press("q")  # leave while it searches: the save is closed
        screen.bot_answered(ticket, state, Place(parse_square("a1")))  # its answer arrives late
        release.set()
        await bot_done(pilot)
        return len(session.events)

    assert drive(DicehallApp(session=session), steps) == 1  # only Ada's placement: nothing after leaving
    reopened = saves.open_save(session.labels.save_id)
    assert len(reopened.events) == 1
    saves.close_save(reopened)


def test_the_title_shows_a_long_name_whole():
    name = "A forty character save name for the title"[:40]  # the longest a name can be
    session = saves.new_save("towers", name=name, players=[Player("Ada"), Player("Bo")], options={"match": True})

    async def steps(pilot):
        return screen_text(pilot.app).splitlines()[0]

    title = drive(DicehallApp(session=session), steps)
    assert f"Towers: {name}  game 1 of 2  (undos 0)" in title


def test_a_setup_name_is_asked_and_played_under():
    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "down", "down", "enter")  # the launcher: Towers is the fourth game
        assert isinstance(app.screen, TowersSetupScreen)
        await pilot.press(*["down"] * 5, "enter")  # Light's name
        await pilot.press(*"Zed", "enter")
        await pilot.pause()
        setup = screen_text(app)
        await pilot.press("s")
        return app.screen.session, setup

    session, setup = drive(DicehallApp(), steps)
    assert "Light's name:   Zed" in setup
    assert session.players[0].name == "Zed"
