"""Matches in the app, at 80x24 (tui/screens/hall/match.py): a match started from the host screen's
Match line, its running score in the lobby, `p` on its table opening the next game with the seats
swapped, and a round-robin's table (its players, points, who plays whom next) and invitation."""
from __future__ import annotations

import random

import pytest

from dicehall.saves.hall import Hall
from dicehall.saves.hall.match_book import MatchBook
from dicehall.saves.hall.matches import figure
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import HelpScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.hall.match import MatchesScreen, MatchTableScreen
from dicehall.tui.screens.hall.table import HallWaitScreen
from tests.apphelpers import drive_hall, screen_text, settled, status, until
from tests.hallhelpers import play_until_over
from tests.test_hall_matches import points_by_name


@pytest.fixture
def hall(tmp_path, monkeypatch):
    folder = tmp_path / "hall"
    monkeypatch.setenv("DICEHALL_HALL", str(folder))
    return Hall(folder)


def playing_as(monkeypatch, name: str) -> None:
    monkeypatch.setenv("LOGNAME", name)  # the login name: what Enter alone at a name's question takes
    monkeypatch.setenv("USER", name)


async def line_to(pilot, key: str) -> None:
    """Move the setup's cursor to its line `key`."""
    for _ in range(20):
        if pilot.app.screen.current() == key:
            return
        await pilot.press("down")
    raise AssertionError(screen_text(pilot.app))


async def open_table(pilot, row: int = 0) -> None:
    """From the launcher: the Hall screen (h), its matches (m), the match on `row` (Enter)."""
    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
    await pilot.press("m")
    await until(pilot, lambda: isinstance(pilot.app.screen, MatchesScreen))
    await pilot.press(*["down"] * row, "enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, MatchTableScreen) and pilot.app.screen.table is not None)


def test_a_match_started_from_the_host_screen_comes_back_to_its_table(hall, monkeypatch):
    playing_as(monkeypatch, "Ann")
    found = {}

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        await pilot.press("n")
        await line_to(pilot, "game")
        for _ in range(5):
            if pilot.app.screen.game == "towers":
                break
            await pilot.press("right")
        await line_to(pilot, "match")
        await pilot.press("enter")  # one game -> a match, best of 3
        found["host"] = screen_text(pilot.app)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallWaitScreen))
        game = pilot.app.hall_game
        found["tag"] = dict(game.log.header["match"])
        bob = hall.join(game.id, name="Bob")
        await until(pilot, lambda: not isinstance(pilot.app.screen, HallWaitScreen))  # the game starts
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")  # leave the game in progress: its seat waits
        await until(pilot, lambda: isinstance(pilot.app.screen, MatchTableScreen))
        found["table"] = await settled(pilot)
        bob.close()

    drive_hall(DicehallApp(), steps)
    assert "Match:          a match, best of 3" in found["host"]
    assert found["tag"]["kept"] == ("Ann", "") and found["tag"]["number"] == 0
    lines = found["table"].splitlines()
    assert f"Towers {found['tag']['id']}: a match, best of 3" in lines[0]
    assert "Ann 0 - 0 Bob, game 1 of 3" in lines[1]
    assert any("Ann (Light) v Bob (Dark): in progress" in line for line in lines)
    assert "p Play" in lines[-1] and "W Withdraw" in lines[-1] and "Accept" not in lines[-1]


def test_the_lobby_shows_the_running_score_and_p_opens_the_next_game_with_the_seats_swapped(hall, monkeypatch):
    book = MatchBook(hall)
    match_id, ann = book.host("towers", "match", 3, ["Ann", "Bob"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    first = ann.id
    play_until_over({0: ann, 1: bob}, random.Random(2))
    ann.close(), bob.close()
    points = points_by_name(hall, first)
    score = f"Ann {figure(points['Ann'])} - {figure(points['Bob'])} Bob, game 2 of 3"
    playing_as(monkeypatch, "Ann")
    found = {}

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and score in screen_text(pilot.app))
        found["lobby"] = screen_text(pilot.app)
        await pilot.press("m")
        await until(pilot, lambda: isinstance(pilot.app.screen, MatchesScreen))
        found["matches"] = await settled(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, MatchTableScreen) and pilot.app.screen.table is not None)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("enter")  # off a box: the name asked once, Enter alone the login name
        await until(pilot, lambda: isinstance(pilot.app.screen, HallWaitScreen))
        game = pilot.app.hall_game
        found["seat"], found["number"] = game.seat, game.log.header["match"]["number"]
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await until(pilot, lambda: isinstance(pilot.app.screen, MatchTableScreen))
        found["table"] = await settled(pilot)

    drive_hall(DicehallApp(), steps)
    assert f"match {match_id}: {score}" in found["lobby"]
    assert score in found["matches"] and f"{match_id}  Towers: a match, best of 3" in found["matches"]
    assert found["seat"] == 1 and found["number"] == 1  # game 2: Bob in seat 1 (Light), Ann Dark
    assert "Bob (Light) v Ann (Dark): waiting for Bob" in found["table"]


def test_a_round_robins_table_shows_its_players_points_and_who_plays_whom_next(hall, monkeypatch):
    book = MatchBook(hall)
    match_id, _ = book.host("wager", "round", 1, ["Ann", "Bob", "Cat", "[b]Dan[/b]"], "Ann")
    book.accept(match_id, "Bob")
    playing_as(monkeypatch, "Cat")
    found = {}

    async def steps(pilot):
        await open_table(pilot)
        found["before"] = await settled(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()
        box = pilot.app.screen.query_one("#help-box")
        found["help"] = (box.max_scroll_y, box.border_subtitle)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MatchTableScreen))
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("enter")  # Enter alone: Cat, the login name
        await until(pilot, lambda: "you are in round-robin" in status(pilot.app))
        found["after"] = await settled(pilot)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallWaitScreen))
        found["kept"] = pilot.app.hall_game.log.header["match"]["kept"]
        found["seat"] = pilot.app.hall_game.seat

    drive_hall(DicehallApp(), steps)
    assert found["help"] == (0, "")  # the table's help fits 80x24 unscrolled
    before = found["before"]
    assert f"Dead Man's Wager {match_id}: a round-robin, 1 game each" in before
    assert "round-robin of 4: 0 of 6 games played" in before
    for name, mark in (("Ann", ""), ("Bob", ""), ("Cat", " (invited)"), ("[b]Dan[/b]", " (invited)")):
        assert any(line.strip().endswith(f"0{mark}") and f" {name} " in line for line in before.splitlines()), name
    assert "Next (who plays whom):" in before and len([line for line in before.splitlines() if "(game 1 of 1)" in line]) == 6
    assert "Accept" in before.splitlines()[-1]
    assert "Cat" in found["after"] and not any("Cat" in line and "(invited)" in line for line in found["after"].splitlines())
    assert "Cat" in found["kept"] and set(found["kept"]) <= {"Ann", "Bob", "Cat"}  # an opponent who accepted
    assert found["kept"][found["seat"]] == "Cat"


def test_on_a_box_a_seat_kept_for_a_matchs_player_is_shown_as_theirs_and_only_they_may_take_it(hall, monkeypatch, tmp_path):
    from dicehall.tui.screens.hall.lobby import joinable

    match_id, ann = MatchBook(hall).host("wager", "match", 3, ["ann", "bob"], "ann")
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DICEHALL_PLAYER", "carol")
    found = {}

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "kept for bob" in screen_text(pilot.app))
        found["lobby"] = screen_text(pilot.app)
        await pilot.press("j")
        await pilot.pause()
        found["said"], found["seated"] = status(pilot.app), pilot.app.hall_game

    drive_hall(DicehallApp(), steps)
    assert "seats: 1 ann, 2 kept for bob" in found["lobby"] and "now: waiting for bob" in found["lobby"]
    assert "open" not in found["lobby"].split("seats:")[1].splitlines()[0]
    assert f"{ann.id}'s open seat is kept for bob: a game of their match" in found["said"] and found["seated"] is None
    assert not joinable(hall.entry(ann.id))
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    assert joinable(hall.entry(ann.id))  # his own seat
    ann.close()
