"""Pebbles' own tests (step 4), run by tests/test_adding_a_game.py with the plugin loaded: the
launcher lists it and plays it at 80x24, the hall plays it against a bot seat, `dicehall sim` plays
it with its bots, a save and a replay of it round-trip, and the replay viewer draws it."""
from __future__ import annotations

import pytest

from dicehall import replays, saves
from dicehall.cli import main
from dicehall.engine.core import Player
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text, until
from tests.toy_game import rules


def test_the_launcher_lists_it_and_a_game_of_it_is_played_against_its_bot():
    app = DicehallApp()

    async def steps(pilot):
        listed = screen_text(app)
        await pilot.press(*["down"] * 6, "enter")  # the seventh game: its setup
        await until(pilot, lambda: "Pebbles: which bot?" in screen_text(app))
        await pilot.press("s")  # against the sharp bot
        await until(pilot, lambda: "PEBBLES" in screen_text(app))
        await pilot.press("1")  # 7 - 1 = 6; the sharp bot can only take 1 or 2 of a multiple of three
        await pilot.pause()
        return listed, screen_text(app), app.screen.session

    listed, board, session = drive(app, steps)
    assert "Pebbles" in listed and "take the last pebble" in listed
    assert [str(event) for event in session.events][:1] == ["Taken(seat=0, count=1)"]
    assert len(session.events) == 2 and session.state.pile == 5  # the bot answered through the catalogue
    assert "5 left" in board


def test_sim_plays_it_with_the_catalogue_bots(capsys):
    assert main(["sim", rules.ID, "--games", "60", "--seed", "3", "--bots", "sharp,random"]) == 0
    out = capsys.readouterr().out
    assert "pebbles: 60 games, seed 3, sharp, random" in out and "win rate per seat taken: sharp" in out
    with pytest.raises(SystemExit) as refused:  # a usage error: the usage, then one line
        main(["sim", rules.ID, "--bots", "clever"])
    assert refused.value.code == 2
    assert "unknown Pebbles bot 'clever' (bots: sharp, random)" in capsys.readouterr().err


def test_a_save_and_a_replay_of_it_round_trip(tmp_path):
    session = saves.new_save(rules.ID, name="pile", seed=9, players=[Player("Ada"), Player("Bo")], options={"pile": 9})
    for count in (2, 1, 2):
        session.play(rules.Take(count))
    saves.close_save(session)
    reopened = saves.open_save("pile")
    assert reopened.events == session.events and reopened.state == session.state
    assert [(info.name, info.title) for info in saves.list_saves()] == [("pile", "Pebbles")]
    path = replays.write_replay(reopened, tmp_path / "pile.dhr")
    again = replays.read_replay(path)
    assert again.state == session.state and again.players == session.players


def test_the_replay_viewer_draws_it(tmp_path):
    session = saves.new_save(rules.ID, name="seen", seed=1, players=[Player("Ada"), Player("Bot", True, "random")])
    session.play(rules.Take(1))
    app = DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "seen.dhr")))

    async def steps(pilot):
        await until(pilot, lambda: "PEBBLES" in screen_text(app))
        return screen_text(app)

    text = drive(app, steps)
    assert "Pebbles" in text.splitlines()[0]  # the title names the game
    assert "6 left" in text and "Ada takes 1: 6 left" in text  # the board at the end, and the event in words


def test_a_hall_game_of_it_is_played_against_a_bot_seat(tmp_path, monkeypatch):
    from dicehall.saves.hall import Hall
    from tests.apphelpers import drive_hall

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    ann = Hall(tmp_path / "hall").host(rules.ID, ["player", "bot:sharp"], "Ann")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await until(pilot, lambda: "PEBBLES" in screen_text(app))
        await pilot.press("2")  # 7 - 2 = 5: the bot leaves three
        await until(pilot, lambda: "3 left" in screen_text(app))
        return type(app.screen).__name__, app.screen.session.state.pile

    assert drive_hall(app, steps) == ("HallPebblesScreen", 3)  # the hall's keys first, the bot through the catalogue
