"""Matches in the hall (saves/hall/matches.py, match_book.py): a best-of-N match between two seats,
the seats alternating, the score from the verified games only, the next game, a leaver, an idle
seat, a round-robin's table, and match records crafted by another player."""
from __future__ import annotations

import json
import os
import random
import shutil
from fractions import Fraction

import pytest

from dicehall.cli import main
from dicehall.saves import MAGIC, frame
from dicehall.saves.box import NotAPlayerName
from dicehall.saves.hall import Hall, HallError, SeatHeld
from dicehall.saves.hall.match_book import MATCHES, MatchBook
from dicehall.saves.hall.matches import (HALF, GameScore, MatchFold, MatchGame, figure, points_of, round_robin,
                                         standing)
from tests.hallhelpers import play_until_over
from tests.test_hall_social import Clock, set_idle


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    return Hall(tmp_path / "hall")


def play_out(games, seed: int) -> None:
    """Play a hall game to its end through its two seated objects; then let both go."""
    play_until_over({game.seat: game for game in games}, random.Random(seed))
    for game in games:
        game.close()


def points_by_name(hall, game_id: str) -> dict[str, Fraction]:
    """Each player's points in a finished game, from the game itself (re-derived with its seed)."""
    fold = hall.finished_fold(game_id)
    winners = fold.session.outcome.winners
    return {seat.name: (Fraction(1) if n in winners else Fraction(0)) if winners else HALF
            for n, seat in enumerate(fold.seats)}


def append_raw(hall, match_id: str, record: dict) -> None:
    """A record appended as another player's dicehall (or a member with a shell) would write it."""
    with open(hall.folder / MATCHES / f"{match_id}.dhm", "ab") as file:
        file.write(frame(record))


def test_a_best_of_three_towers_match_alternates_the_seats_and_counts_the_verified_games(hall):
    book = MatchBook(hall)
    match_id, ann = book.host("towers", "match", 3, ["Ann", "Bob"], "Ann")
    assert ann.log.header["match"]["kept"] == ("Ann", "Bob") and ann.seat == 0
    bob = hall.join(ann.id, name="Bob")
    assert book.read(match_id).score_line() == "Ann 0 - 0 Bob, game 1 of 3"
    expected = {"Ann": Fraction(0), "Bob": Fraction(0)}
    seats = []
    for number in range(3):
        ann.follow()
        seats.append((ann.fold.seats[0].name, ann.fold.seats[1].name))
        game_id = ann.id
        play_out([ann, bob], seed=number)
        for name, points in points_by_name(hall, game_id).items():
            expected[name] += points
        table = book.read(match_id)
        assert {row.name: row.points for row in table.rows} == expected
        assert table.score_line().startswith(f"Ann {figure(expected['Ann'])} - {figure(expected['Bob'])} Bob")
        if table.over:
            break
        assert table.score_line().endswith(f"game {number + 2} of 3")
        bob = book.next_game(match_id, "Bob")  # either player opens the next game; the other takes it up
        ann = book.next_game(match_id, "Ann")
        assert ann.id == bob.id and ann.log.header["match"]["number"] == number + 1
    # the seats alternate: Ann is Light (seat 1, who places first) in games 1 and 3, Bob in game 2
    assert seats[:2] == [("Ann", "Bob"), ("Bob", "Ann")] and seats[2:] in ([], [("Ann", "Bob")])
    assert table.over and max(expected.values()) >= 2 or len(seats) == 3
    with pytest.raises(HallError, match="is over"):
        book.next_game(match_id, "Ann")
    lines = book.lines_by_game(book.listing())
    assert set(lines) == {game.id for game in table.fold.games} and all(f"match {match_id}: Ann" in line for line in lines.values())


def test_dicehall_hall_says_a_match_games_running_score(hall, capsys):
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 5, ["Ann", "Bob"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    assert f"; match {match_id}: Ann 0 - 0 Bob, game 1 of 5" in capsys.readouterr().out
    assert main(["--hall", str(hall.folder), "hall", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"][0]["match"] == f"match {match_id}: Ann 0 - 0 Bob, game 1 of 5"
    ann.close(), bob.close()


def test_a_seat_kept_for_a_matchs_player_says_whose_it_is_not_open(hall, capsys):
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 3, ["Ann", "Bob"], "Ann")
    entry = hall.entry(ann.id)
    assert [view.words() for view in entry.seats] == ["Ann", "kept for Bob"]
    assert entry.progress == "waiting for Bob"
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    out = capsys.readouterr().out
    assert "Ann, kept for Bob; in progress: waiting for Bob" in out and "open" not in out.split("SEATS")[1]
    assert main(["--hall", str(hall.folder), "hall", "--json"]) == 0
    seats = json.loads(capsys.readouterr().out)["games"][0]["seats"]
    assert seats[1] == {"seat": 2, "status": "open", "name": "", "kept": "Bob"}
    ann.close()
    anyone = hall.host("wager", ["player", "open"], "Ann")  # a game of no match: its seat is anyone's
    assert [view.words() for view in hall.entry(anyone.id).seats] == ["Ann", "open"]
    assert hall.entry(anyone.id).progress == "waiting for 1 open seat"
    anyone.close()


def test_best_of_n_ends_once_it_cannot_be_caught_and_a_draw_is_half_a_point_each():
    fold = MatchFold({"hall": 1, "match": 1, "kind": "match", "game": "towers", "games": 3, "invited": ["Ann", "Bob"],
                      "nonce": "0" * 16}, "m")
    for place, name in enumerate(("Ann", "Bob")):
        fold.places[place].name, fold.places[place].taken = name, True

    def after(*results):
        games = [MatchGame(f"g{n:05}", (0, 1), n) for n in range(len(results))]
        fold.games = games
        return standing(fold, [GameScore(game, points_of(winners)) for game, winners in zip(games, results)])

    assert after((0,), (0,)).score_line() == "Ann 1 - 1 Bob, game 3 of 3"  # seat 1 won both: Ann, then Bob
    assert after((0,), (1,)).score_line() == "Ann 2 - 0 Bob: Ann wins the match"
    assert after((0,), ()).score_line() == "Ann 1½ - ½ Bob, game 3 of 3"  # a draw: not decided yet
    assert after((), (), ()).score_line() == "Ann 1½ - 1½ Bob: the match is drawn"
    assert points_of((0,), lost_by=0) == (0, 1) and figure(HALF) == "½" and figure(Fraction(3, 2)) == "1½"


def test_a_leaver_takes_their_seat_back_and_no_one_else_can_take_it(hall):
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 3, ["Ann", "Bob"], "Ann")
    with pytest.raises(SeatHeld, match="kept for Bob"):
        hall.join(ann.id, name="Eve")
    bob = hall.join(ann.id, name="Bob")
    play_out([ann, bob], seed=1)
    ann = book.next_game(match_id, "Ann")
    assert "waiting for Bob" == book.read(match_id).scores[-1].state
    with pytest.raises(SeatHeld, match="kept for Bob"):
        hall.join(ann.id, name="Eve")
    bob = book.next_game(match_id, "Bob")
    ann.play(ann.session.commands()[0]) if ann.my_turn else bob.play(bob.session.commands()[0])
    bob.close()  # Bob's link drops mid-game: the game and the match wait for him
    assert book.read(match_id).scores[-1].state == "in progress"
    again = book.next_game(match_id, "Bob")  # his next game is the one he left: his seat back
    assert again.id == ann.id and again.seat == 1 - ann.seat
    again.close()
    book.resign(match_id, "Bob")
    table = book.read(match_id)
    assert table.decided == "Bob withdrew: Ann wins the match"
    with pytest.raises(HallError, match="over"):
        book.next_game(match_id, "Bob")
    ann.close()


def test_a_game_abandoned_for_an_idle_seat_is_lost_by_that_seat(hall, monkeypatch):
    set_idle(hall, 30)
    clock = Clock(monkeypatch)
    book = MatchBook(hall)
    match_id, ann = book.host("towers", "match", 3, ["Ann", "Bob"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    if ann.my_turn:  # Ann (Light) places first: then it is Bob's turn, and Bob goes idle
        ann.play(ann.session.commands()[0])
        bob.follow()
    idle, other = (bob, ann) if ann.to_act == bob.seat else (ann, bob)
    clock.now += 31 * 60
    other.claim_idle("abandon")
    idle.close(), other.close()
    table = book.read(match_id)
    assert {row.name: row.points for row in table.rows} == {idle.fold.seats[idle.seat].name: 0,
                                                            other.fold.seats[other.seat].name: 1}


def test_a_match_against_a_bot_swaps_the_bot_into_seat_one(hall):
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 3, ["Ann"], "Ann", opponent="bot:cautious")
    play_out([ann], seed=2)
    ann = book.next_game(match_id, "Ann")
    assert ann.seat == 1 and ann.fold.seats[0].kind == "bot" and ann.fold.seats[0].style == "cautious"
    ann.close()


def test_a_round_robin_invites_its_players_and_keeps_its_table(hall):
    book = MatchBook(hall)
    match_id, none = book.host("wager", "round", 1, ["Ann", "Bob", "Cat"], "Ann")
    assert none is None
    with pytest.raises(HallError, match="has not invited Eve"):
        book.accept(match_id, "Eve")
    with pytest.raises(HallError, match="Bob, Cat have not accepted the round-robin yet"):
        book.next_game(match_id, "Ann")
    book.accept(match_id, "Bob")
    book.accept(match_id, "Cat")
    with pytest.raises(HallError, match="already"):
        book.accept(match_id, "Cat")
    table = book.read(match_id)
    assert [row.name for row in table.rows] == ["Ann", "Bob", "Cat"]
    assert sorted(pair for pair, _ in table.next_games()) == [(0, 1), (0, 2), (1, 2)]
    for seed in range(3):
        pair, _ = book.read(match_id).next_games()[0]
        names = [("Ann", "Bob", "Cat")[place] for place in pair]
        first = book.next_game(match_id, names[0])
        second = book.next_game(match_id, names[1])
        assert first.id == second.id
        play_out([first, second], seed=seed)
    table = book.read(match_id)
    assert sum(row.points for row in table.rows) == 3 and all(row.played == 2 for row in table.rows)
    assert table.next_games() == [] and table.decided
    assert table.score_line() == f"round-robin of 3: {table.decided}"
    assert table.decided in (f"{table.rows[0].name} wins the round-robin", "shared first place: Ann, Bob, Cat")


def test_a_round_robin_withdrawal_forfeits_the_unplayed_games():
    header = {"hall": 1, "match": 1, "kind": "round", "game": "wager", "games": 2, "invited": ["Ann", "Bob", "Cat"],
              "nonce": "1" * 16}
    fold = MatchFold(header, "r")
    for place, name in enumerate(("Ann", "Bob", "Cat")):
        fold.apply({"op": "accept", "place": place, "name": name, "uid": 1000, "key": True})
    fold.apply({"op": "resign", "place": 2})
    table = standing(fold, [])
    assert {row.name: (row.points, row.played) for row in table.rows} == {"Ann": (2, 2), "Bob": (2, 2), "Cat": (0, 4)}
    assert table.next_games() == [((0, 1), 0)]
    with pytest.raises(ValueError, match="withdrew"):
        fold.apply({"op": "game", "id": "abcdef", "pair": [0, 2], "by": 0})


def test_the_rounds_pair_everyone_once():
    for places in range(2, 9):
        pairs = [pair for one in round_robin(places) for pair in one]
        assert sorted(pairs) == [(a, b) for a in range(places) for b in range(a + 1, places)]
        assert all(len({p for pair in one for p in pair}) == 2 * len(one) for one in round_robin(places))


# ----- another player's files -----
def played_match(hall):
    """A match of which Ann and Bob played game 1; returns (book, match id, the game's id)."""
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 3, ["Ann", "Bob"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    game_id = ann.id
    play_out([ann, bob], seed=5)
    return book, match_id, game_id


def test_a_crafted_match_record_cannot_change_the_score(hall):
    book, match_id, first = played_match(hall)
    before = [(row.name, row.points) for row in book.read(match_id).rows]
    # a friendly game of Ann and Bob, not the match's, named as its game 2
    casual = hall.host("wager", ["player", "open"], "Bob")
    other = hall.join(casual.id, name="Ann")
    play_out([casual, other], seed=6)
    append_raw(hall, match_id, {"op": "game", "id": casual.id, "pair": [0, 1], "by": 1})
    # a copy of game 1 under another id, named as game 3
    games = hall.folder / "games"
    shutil.copy(games / f"{first}.dhh", games / "zzzzzz.dhh")
    append_raw(hall, match_id, {"op": "game", "id": "zzzzzz", "pair": [0, 1], "by": 0})
    table = book.read(match_id)
    assert [(row.name, row.points) for row in table.rows] == before
    assert [score.problem for score in table.scores][1:] == [
        f"{casual.id}: not this match's game 2: not counted", "zzzzzz: not this match's game 3: not counted"]


def test_a_game_of_the_match_with_its_seats_not_alternated_does_not_count(hall):
    book, match_id, first = played_match(hall)
    fold = book.read(match_id).fold
    tag = fold.tag(match_id, MatchGame("", (0, 1), 1))  # game 2: Bob should be in seat 1
    forged = hall.host("wager", ["player", "open"], "Ann", match={**tag, "kept": ["Ann", "Bob"]})
    bob = hall.join(forged.id, name="Bob")
    play_out([forged, bob], seed=7)
    append_raw(hall, match_id, {"op": "game", "id": forged.id, "pair": [0, 1], "by": 0})
    table = book.read(match_id)
    assert table.scores[1].problem == f"{forged.id}: Ann sits in Bob's seat: not counted"
    assert sum(row.points for row in table.rows) == 1


@pytest.mark.parametrize("record, words", [
    ({"op": "game", "id": "../etc", "pair": [0, 1], "by": 0}, "no hall game's id"),
    ({"op": "game", "id": "abcdef", "pair": [0, 7], "by": 0}, "a pairing that the match does not have"),
    ({"op": "game", "id": "abcdef", "pair": "[/bold]", "by": 0}, "a game with no pairing"),
    ({"op": "accept", "place": 1, "name": "Eve", "uid": 0}, "an acceptance in a match"),
    ({"op": "[@click=quit]"}, "unknown record '[@click=quit]'"),
    ({"op": "resign", "place": 9}, "a place that the match does not have"),
    ([1, 2, 3], "not a match record"),
])
def test_a_hostile_match_record_is_one_line_and_the_good_part_is_kept(hall, record, words):
    book, match_id, first = played_match(hall)
    before = [(row.name, row.points) for row in book.read(match_id).rows]
    append_raw(hall, match_id, record)
    table = book.read(match_id)
    assert words in table.damage and table.damage.startswith(f"{match_id}: record 2: ")
    assert [(row.name, row.points) for row in table.rows] == before
    with pytest.raises(HallError, match="the match is damaged; nothing was written"):
        book.next_game(match_id, "Ann")
    entry = next(entry for entry in book.listing() if entry.id == match_id)
    assert entry.table is not None and entry.table.damage == table.damage


def test_hostile_files_in_the_matches_folder_are_one_line_each(hall, tmp_path):
    book, match_id, _ = played_match(hall)
    folder = hall.folder / MATCHES
    (folder / "junk00.dhm").write_bytes(b"\x00" * 100)
    (folder / "notes.txt").write_text("hello")
    (folder / "head00.dhm").write_bytes(MAGIC + frame({"hall": 1, "match": 1, "kind": "match", "game": "troll",
                                                       "games": 3, "invited": ["a", "b"], "nonce": "0" * 16}))
    (tmp_path / "secret").write_text("42")
    os.symlink(tmp_path / "secret", folder / "link00.dhm")
    os.mkfifo(folder / "fifo00.dhm")
    entries = {entry.id: entry for entry in book.listing()}
    assert entries[match_id].table is not None and not entries[match_id].problem
    problems = {name: entries[name].problem for name in ("junk00", "notes.txt", "head00", "link00", "fifo00")}
    assert "not a hall game" not in "".join(problems.values())
    assert "'troll' is not a game of the hall for two" in problems["head00"]
    assert "symbolic link" in problems["link00"] and "not a regular file" in problems["fifo00"]
    assert "not a match's name" in problems["notes.txt"] and problems["junk00"]
    assert all("\n" not in problem and "42" not in problem for problem in problems.values())


def test_on_a_box_the_invited_are_players_names_and_the_host_is_the_keys(hall, monkeypatch):
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    book = MatchBook(hall)
    with pytest.raises(NotAPlayerName, match="is not a player name"):
        book.host("wager", "round", 1, ["ann", "bob", "../secrets/x"], "ann")
    with pytest.raises(HallError, match="on this box you play as ann"):
        book.host("wager", "round", 1, ["eve", "bob", "cat"], "eve")
    match_id, _ = book.host("wager", "round", 1, ["", "bob", "cat"], "")
    assert book.read(match_id).fold.places[0].name == "ann" and book.read(match_id).fold.places[0].keyed


def test_a_game_of_the_match_counts_only_for_its_known_players(hall):
    book = MatchBook(hall)
    match_id, ann = book.host("wager", "match", 3, ["Ann", "Bob"], "Ann")  # game 1: Bob has not come yet
    ann.close()
    tag = {"id": match_id, "nonce": book.read(match_id).fold.nonce, "pair": [0, 1], "number": 1, "kept": ["", ""]}
    mallory = hall.host("wager", ["player", "open"], "Mallory", match=tag)  # a game 2 another member made
    eve = hall.join(mallory.id, name="Eve")
    play_out([mallory, eve], seed=8)
    append_raw(hall, match_id, {"op": "game", "id": mallory.id, "pair": [0, 1], "by": 1})
    table = book.read(match_id)
    assert all(row.points == 0 and row.played == 0 for row in table.rows)
    assert table.scores[1].problem == f"{mallory.id}: who plays the match is not known (its game 1 names them): not counted"
