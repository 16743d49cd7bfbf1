"""The lobby's rows as the hall changes under them (issue #29): the cursor stays on its game when
rows are added or moved (a game that goes: the nearest row), a copied log lists once, the last move
is the log's own time (not the file's), counts read "1 card", the hall's dialogs are centred, and a
game ended as abandoned leaves no move key in the footer. Through Pilot at 80x24."""
from __future__ import annotations

import json
import os
import random
import shutil
import time
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from dicehall.cli import main
from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves.hall import Hall, HallError
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.screens.hall.lobby import HallScreen, when
from dicehall.tui.screens.hall.talk import IdleScreen, MessagesScreen
from tests.apphelpers import drive, drive_hall, footer, screen_text, status, until
from tests.hallhelpers import play_until_over
from tests.test_hall_social_app import Clock, abandon_the_idle_seat


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


def log_of(hall, game_id: str):
    return hall.games / f"{game_id}.dhh"


def waiting_game(hall, name: str):
    """A Towers game with one seat open, its host gone (a row in the lobby that nothing moves)."""
    game = hall.host("towers", ["player", "open"], name)
    game.close()
    return game.id


def set_log_time(hall, game_id: str, stamp: float) -> None:
    """Every record of the log written at `stamp` (the order of the lobby is by the log's own times)."""
    parsed = parse_save(log_of(hall, game_id).read_bytes(), game_id)
    records = [dict(record, at=stamp) for record in parsed.records]
    log_of(hall, game_id).write_bytes(MAGIC + frame(parsed.header) + b"".join(frame(r) for r in records))


# ----- the cursor stays on its game -----
def test_a_game_added_above_the_cursor_leaves_it_on_its_game_and_j_takes_that_one(hall):
    now = time.time()
    older, newer = waiting_game(hall, "Ann"), waiting_game(hall, "Bob")
    set_log_time(hall, older, now - 120)
    set_log_time(hall, newer, now - 60)

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        lobby = pilot.app.screen
        assert [entry.id for entry in lobby.entries] == [newer, older]
        await pilot.press("down")  # onto the older game
        await pilot.pause()
        assert lobby.current().id == older
        latest = waiting_game(hall, "Cat")  # a new game, listed first: above the cursor
        await until(pilot, lambda: len(lobby.entries) == 3)
        rows = [entry.id for entry in lobby.entries]
        said = status(pilot.app)
        await pilot.press("j")
        await pilot.pause()
        return latest, rows, lobby.current().id, said, pilot.app.screen

    latest, rows, under_cursor, said, dialog = drive(DicehallApp(), steps)
    assert rows == [latest, newer, older]
    assert under_cursor == older
    assert said.startswith(f"{older}: Towers, Ann v open, in progress")
    assert isinstance(dialog, AskScreen) and f"Your name at the table in {older}" in dialog.question


def test_a_game_that_goes_leaves_the_cursor_on_the_nearest_row_and_a_failed_look_keeps_the_rows(hall, monkeypatch):
    now = time.time()
    ids = [waiting_game(hall, name) for name in ("Ann", "Bob", "Cat")]
    for age, game_id in enumerate(ids):
        set_log_time(hall, game_id, now - 60 * (3 - age))  # Cat's the latest: listed Cat, Bob, Ann

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        lobby = pilot.app.screen
        await pilot.press("down")  # Bob, the middle row
        await pilot.pause()
        assert lobby.current().id == ids[1]
        log_of(hall, ids[1]).unlink()
        await until(pilot, lambda: len(lobby.entries) == 2)
        after_gone = lobby.current().id, status(pilot.app)

        def unreadable():
            raise HallError("cannot read the hall's games folder (permission denied)")

        monkeypatch.setattr(lobby.hall, "listing", unreadable)
        await pilot.press("r")
        await pilot.pause()
        return after_gone, [entry.id for entry in lobby.entries], lobby.current().id, status(pilot.app), screen_text(pilot.app)

    (gone_to, gone_said), rows, kept, said, text = drive(DicehallApp(), steps)
    assert gone_to == ids[0]  # Bob's row went: the row that took its place, Ann's
    assert gone_said.startswith(f"{ids[0]}: Towers, Ann v open")
    assert rows == [ids[2], ids[0]] and kept == ids[0]  # the hall could not be read: the rows stay
    assert said.endswith("cannot read the hall's games folder (permission denied)")
    assert "The hall: 2 in progress" in text and "Cat" in text and "Ann" in text


# ----- a copied log lists once -----
def test_copies_of_a_log_list_once_as_the_first_by_id_in_the_lobby_hall_and_json(hall, capsys):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    copies = ["000000", "000001", "zzzzzz"]
    for name in copies:
        shutil.copyfile(log_of(hall, bots.id), log_of(hall, name))
    other = waiting_game(hall, "Ann")  # a game of its own is listed as ever

    entries = hall.listing()
    assert sorted(entry.id for entry in entries) == sorted(["000000", other])
    [copied] = [entry for entry in entries if entry.id == "000000"]
    assert copied.copies == 3 and copied.finished

    assert main(["hall", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["games"]
    assert [(game["id"], game["copies"]) for game in listed if game["finished"]] == [("000000", 3)]
    assert main(["hall"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games in the hall ")
    assert "3 copies of its log (the same game) not listed" in out and bots.id not in out

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert "The hall: 1 in progress, 1 finished" in text
    assert "  3 copies of its log (the same game) not listed" in text
    assert "zzzzzz" not in text and bots.id not in text


# ----- the last move is the log's -----
def test_the_last_move_is_the_time_of_the_logs_last_record_not_the_files(hall, capsys):
    game = hall.host("wager", ["player", "bot:bold"], "Ann")
    game.play(game.session.commands()[0])
    game.close()
    last = game.fold.last_at
    touched = datetime(2001, 2, 3, 4, 5, tzinfo=timezone.utc).timestamp()
    os.utime(log_of(hall, game.id), (touched, touched))  # copied, touched, restored: the file's time moves

    [entry] = hall.listing()
    assert entry.last_move == pytest.approx(last)
    assert main(["hall", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)["games"]
    assert listed["last_move"] == datetime.fromtimestamp(last, timezone.utc).isoformat(timespec="seconds")
    assert main(["hall"]) == 0
    out = capsys.readouterr().out
    assert datetime.fromtimestamp(last).strftime("%Y-%m-%d %H:%M") in out and "2001-" not in out

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    row = next(line for line in text.splitlines() if game.id in line)
    assert f"  {when(last)}  " in row and "2001" not in row


def test_a_game_with_no_record_yet_is_timed_by_its_header_and_a_time_to_come_is_now(hall):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")  # bots only: no seat record
    bots.close()
    header = parse_save(log_of(hall, bots.id).read_bytes(), "x").header
    created = datetime.fromisoformat(header["created"]).timestamp()
    os.utime(log_of(hall, bots.id), (1e9, 1e9))
    assert hall.entry(bots.id).last_move == created

    future = waiting_game(hall, "Eve")
    set_log_time(hall, future, time.time() + 10 * 365 * 86400)  # a forged time: it would stay on top for years
    before = time.time()
    assert before <= hall.entry(future).last_move <= time.time()


# ----- counts -----
def test_the_journals_progress_and_deck_say_1_card_not_1_cards():
    from dicehall import engine
    from dicehall.engine.games.journal import rules

    session = engine.new_session("journal", seed=3)
    state = session.state
    page = rules.Page(1, state.remaining[0])
    one = replace(state, day=1, pages=(page,), kings=("KS",), salvation=True, tokens=1)
    assert rules.progress(one) == f"day 1, 1 card, tower {state.tower.countdown}, 1 King, 1 token"
    two = replace(state, day=2, pages=(page, page), kings=("KS", "KH"), salvation=True, tokens=2)
    assert rules.progress(two) == f"day 2, 2 cards, tower {state.tower.countdown}, 2 Kings, 2 tokens"


def test_the_lobby_says_1_open_seat(hall):
    waiting_game(hall, "Ann")
    [entry] = hall.listing()
    assert entry.progress == "waiting for 1 open seat"
    wager = hall.host("wager", ["player", "open", "open"], "Bob")
    wager.close()
    assert hall.entry(wager.id).progress == "waiting for 2 open seats"


# ----- the hall's dialogs are centred -----
def frame_box(text: str) -> tuple[int, int, int, int]:
    """The first dialog frame on the screen: its top row, bottom row, left and right columns."""
    lines = text.splitlines()
    top = next(n for n, line in enumerate(lines) if "╭" in line)
    bottom = next(n for n, line in enumerate(lines) if "╰" in line)
    return top, bottom, lines[top].index("╭"), lines[top].index("╮")


def test_the_idle_seat_dialog_and_the_messages_list_are_centred_like_the_others(hall):
    ann = hall.host("wager", ["player", "bot:bold"], "Ann")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        shown = {}
        await pilot.press("M")
        await pilot.pause()
        assert isinstance(pilot.app.screen, MessagesScreen)
        shown["messages"] = screen_text(pilot.app)
        await pilot.press("escape")
        pilot.app.push_screen(IdleScreen("Bob", 3))
        await pilot.pause()
        shown["idle"] = screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.press("m")  # the message prompt: an AskScreen, centred already
        await pilot.pause()
        shown["ask"] = screen_text(pilot.app)
        await pilot.press("escape")
        return shown

    shown = drive_hall(app, steps)
    for name, text in shown.items():
        top, bottom, left, right = frame_box(text)
        assert top > 0, name  # not over the title
        assert abs(top - (23 - bottom)) <= 1 and abs(left - (79 - right)) <= 1, name  # as far from each edge
    assert "Messages in game" in shown["messages"] and "Bob has not moved on their turn" in shown["idle"]


# ----- a game ended as abandoned -----
def test_a_wager_ended_as_abandoned_leaves_no_move_key_in_the_footer(hall, monkeypatch):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text("idle_minutes = 1\n")
    clock = Clock(monkeypatch)
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    while ann.my_turn:  # Ann ends her first turn: Bob is to roll
        ann.play(ann.session.commands()[-1])
    clock.offset = 61
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await abandon_the_idle_seat(pilot)
        keys = footer(pilot.app)
        await pilot.press("r")
        await pilot.pause()
        return keys, status(pilot.app), screen_text(pilot.app)

    keys, said, text = drive_hall(app, steps)
    assert ann.finished and ann.fold.abandoned
    assert "Roll" not in keys and "Wager" not in keys and "End turn" not in keys and "Idle seat" not in keys
    assert "Leave" in keys
    assert said == "Not now: the game is over: abandoned: Bob (seat 2) did not move for 1 minute"
    assert "ABANDONED: BOB (SEAT 2)" in text.splitlines()[0]
    bob.close()
