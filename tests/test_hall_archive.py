"""The hall's archive (saves/hall/archive.py, `dicehall archive [--json]`) and its index
(saves/hall/archive_index.py), and the news line's words (saves/hall/news.py): from scripted hall
folders with exact figures; other players' files (copies, crafted names, damaged logs) and a
damaged or crafted index never crash it, never list a game twice, and are said in one line."""
from __future__ import annotations

import dataclasses
import json
import math
import os
import random
from array import array
from types import SimpleNamespace

import msgpack
import pytest

from dicehall import engine
from dicehall.cli import main
from dicehall.engine.core import Outcome, Player
from dicehall.saves.hall import Hall
from dicehall.saves.hall.archive import hall_archive
from dicehall.saves.hall.archive_index import index_path
from dicehall.saves.hall.fold import Seat
from dicehall.saves.hall.news import announcement, beat_words
from tests.test_hall import hostile_hall
from tests.test_hall_scores import DICE_SEED, log_path, scripted_hall, tower_pulls, towers
from tests.test_hall_social import Clock, set_idle, towers_pair
from tests.test_caches_hostile import peak_of


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    return Hall(tmp_path / "hall")


def the_index(hall):
    info = os.stat(hall.games)
    return index_path((info.st_dev, info.st_ino))


# ----- what is listed -----
def test_a_scripted_hall_lists_each_finished_game_once_the_latest_first(hall, monkeypatch):
    ids = scripted_hall(hall, monkeypatch)  # 4 Towers and a Dice Tower finished, a copy, one waiting, one damaged
    ids[0] = min(ids[0], "copy01")  # a copy is the same game: listed as the first by id (as the listing does)
    archive = hall_archive(hall)
    pulls = tower_pulls(DICE_SEED)
    assert (len(archive.games), archive.in_progress, archive.copies, archive.damaged) == (5, 1, 1, 1)
    assert archive.left_out() == "1 in progress, 1 copy, 1 damaged"
    assert [entry.ended for entry in archive.games] == sorted((entry.ended for entry in archive.games), reverse=True)
    by_id = {entry.id: entry for entry in archive.games}
    assert set(by_id) == {*ids, next(e.id for e in archive.games if e.game == "dicetower")}
    assert by_id[ids[0]].copies == 1  # copy01 is the same game, not listed
    assert by_id[ids[0]].news == "Ann beat Bob at Towers, 3 to 2"
    assert by_id[ids[1]].news == "Bob beat Ann at Towers, 3 to 2"
    assert by_id[ids[3]].news == "Ann beat Ann at Towers, 3 to 2" and by_id[ids[3]].people == [("Ann", True)]
    tower = next(entry for entry in archive.games if entry.game == "dicetower")
    assert tower.news == f"Ann at Dice Tower: {pulls} pulls" and tower.outcome == "lost"
    # the filters: by player (any case), game, result (the player's), days
    assert len(archive.chosen(player="ann")) == 5 and len(archive.chosen(player="BOB")) == 3
    assert {e.id for e in archive.chosen(player="Bob", result="won")} == {ids[1]}
    assert {e.id for e in archive.chosen(player="Ann", result="lost")} == {ids[1], tower.id}
    assert [e.game for e in archive.chosen(game="dicetower")] == ["dicetower"]
    assert archive.chosen(player="Mallory") == [] and archive.chosen(result="drawn") == []
    assert archive.chosen(since=archive.games[0].ended + 1) == [] and len(archive.chosen(until=1e11)) == 5
    assert archive.players() == ["Ann", "Bob"] and archive.game_ids() == ["dicetower", "towers"]


def test_the_command_line_lists_filters_and_gives_json(hall, monkeypatch, capsys):
    ids = scripted_hall(hall, monkeypatch)
    assert main(["--hall", str(hall.folder), "archive", "--player", "bob", "--result", "won"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"the archive: 5 finished games in the hall {hall.folder} (not listed: 1 in progress, 1 copy, 1 damaged)"
    assert out[1].startswith("1 match (dicehall replay ID opens one")
    assert out[3].startswith(f"{ids[1]}  ") and out[3].endswith("  Bob beat Ann at Towers, 3 to 2") and len(out) == 4
    assert main(["--hall", str(hall.folder), "archive", "--game", "towers", "--limit", "2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["matched"], found["listed"], found["archived"], found["copies"], found["damaged"]) == (4, 2, 5, 1, 1)
    first = found["games"][0]
    assert set(first) == {"id", "game", "title", "ended", "outcome", "result", "news", "moves", "players", "copies"}
    assert first["title"] == "Towers" and first["outcome"] == "won" and first["moves"] > 0
    assert {p["name"] for p in first["players"]} <= {"Ann", "Bob"}
    assert main(["--hall", str(hall.folder), "archive", "--player", "Zed"]) == 0
    assert capsys.readouterr().out.endswith("no finished game matches\n")


@pytest.mark.parametrize("argv, words", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--since", "yesterday"], "'yesterday' is not a day as YYYY-MM-DD"),
    (["--until", "2026-13-40"], "'2026-13-40' is not a day as YYYY-MM-DD"),
    (["--result", "maybe"], "invalid choice: 'maybe'"),
])
def test_a_bad_argument_is_one_line(hall, capsys, argv, words):
    with pytest.raises(SystemExit) as stopped:
        main(["--hall", str(hall.folder), "archive", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_an_empty_hall_says_so(hall, capsys):
    assert main(["--hall", str(hall.folder), "archive"]) == 0
    assert capsys.readouterr().out.endswith("no game has finished in the hall yet\n")


# ----- the news line's words -----
def finished(game: str, players: list[tuple[str, bool]], seed: int, options: dict | None = None):
    """A game played to its end through the engine (random legal moves), as a fold-like object."""
    rng = random.Random(seed)
    session = engine.new_session(game, seed=seed, options=options or {},
                                 players=[Player(name, bot, "") for name, bot in players])
    while session.outcome is None:
        session.play(rng.choice(session.commands()))
    seats = [Seat("bot" if bot else "player", name, uid=os.getuid()) for name, bot in players]
    return SimpleNamespace(session=session, over=True, abandoned="", module=session.game, seats=seats, handed={})


def test_the_news_words_of_each_game(monkeypatch):
    tower = finished("dicetower", [("Ann", False)], 3)
    assert announcement(tower) == f"Ann at Dice Tower: {tower.session.state.pulls} pulls"
    troll = finished("troll", [("Ann", False)], 5)
    words = engine.get_game("troll").result(troll.session.state, 0).words
    assert announcement(troll) == f"Ann at Angry Troll versus Magic Bridge: {words}"
    wager = finished("wager", [("Ann", False), ("Bob", False), ("Bot 3", True), ("Di", False)], 7)
    winner = wager.session.outcome.winners[0]
    names = ["Ann", "Bob", "Bot 3 (bot)", "Di"]
    others = [name for n, name in enumerate(names) if n != winner]
    scores = wager.session.state.scores  # the score both ways: the winner's, then each other's in seat order
    assert wager.session.state.ways[0] == "score"
    losing = [str(score) for n, score in enumerate(scores) if n != winner]
    assert announcement(wager) == (f"{names[winner]} beat {others[0]}, {others[1]} and {others[2]} at Dead Man's Wager, "
                                   f"{scores[winner]} to {losing[0]}, {losing[1]} and {losing[2]}")
    wager.session = SimpleNamespace(outcome=wager.session.outcome,  # won by Outrageous Fortune: no score decided it
                                    state=dataclasses.replace(wager.session.state, ways=("fortune",)))
    assert announcement(wager).endswith(f" at Dead Man's Wager with {scores[winner]}")
    bones = finished("bones", [("Ann", False), ("Bob", False)], 11)  # Bob wins: the troops left each side
    left = [len(bones.session.state.in_play(seat)) for seat in (0, 1)]
    assert announcement(bones) == f"Bob beat Ann at War of Bones, {left[1]} to {left[0]}" and left[1] > 0
    towers = finished("towers", [("Ann", False), ("Bob", False)], 2)
    light, dark = towers.session.state.results[-1]
    assert light != dark and announcement(towers) == (f"Ann beat Bob at Towers, {light} to {dark}" if light > dark
                                                      else f"Bob beat Ann at Towers, {dark} to {light}")
    for game in ("towers", "bones", "wager"):  # no score before the end
        begun = engine.new_session(game, seed=1, players=[Player("Ann", False, ""), Player("Bob", False, "")])
        assert begun.game.final_score(begun.state) is None
    match = finished("towers", [("Ann", False), ("Bob", False)], 2, {"match": True})  # its two games' points together
    light, dark = (sum(points) for points in zip(*match.session.state.results))
    assert len(match.session.state.results) == 2 and light != dark
    assert announcement(match) == (f"Ann beat Bob at Towers, {light} to {dark}" if light > dark
                                   else f"Bob beat Ann at Towers, {dark} to {light}")
    draw = finished("towers", [("Ann", False), ("Bob", False)], 1)
    draw.session = SimpleNamespace(outcome=Outcome((), "a draw, 9 to 9"), state=draw.session.state)
    assert announcement(draw) == "Ann and Bob drew at Towers: a draw, 9 to 9"
    assert beat_words("won by 11") == " by 11" and beat_words("won, 2 troops lost") == ", 2 troops lost"
    assert beat_words("saved on day 9") == ": saved on day 9" and beat_words("won") == ""


def idle_towers(hall, clock, then: str):
    """A Towers game whose player to move stayed idle 2 minutes: the other ends it ("abandon") or
    hands the seat to a bot ("bot"). The claimer's game and the idle one's."""
    claimer, idle = towers_pair(hall)
    clock.now += 121
    claimer.claim_idle(then)
    idle.close()
    return claimer, idle


def test_the_news_of_an_abandoned_game_and_of_a_seat_a_bot_took(hall, monkeypatch):
    set_idle(hall, 2)
    clock = Clock(monkeypatch)
    ended, idle = idle_towers(hall, clock, "abandon")
    names = " v ".join(seat.name for seat in ended.fold.seats)
    who = idle.fold.seats[idle.seat].name
    assert announcement(ended.fold) == f"{names} at Towers: abandoned: {who} (seat {idle.seat + 1}) did not move for 2 minutes"
    ended.close()
    archive = hall_archive(hall)
    assert [entry.outcome for entry in archive.games] == ["abandoned"]
    assert archive.chosen(player=who, result="abandoned") == archive.games
    handed, idle = idle_towers(hall, clock, "bot")
    while not handed.finished:
        handed.play(handed.session.commands()[-1])
    assert f"(bot, for {idle.fold.seats[idle.seat].name})" in announcement(handed.fold)
    handed.close()


def test_a_bots_game_names_its_bots_who_are_no_players(hall):
    game = hall.host("wager", ["player", "bot:bold", "bot:cautious"], "Ann")
    while not game.finished:
        game.play(game.session.commands()[-1])  # roll on, else end the turn
    game.close()
    entry = hall_archive(hall).games[0]
    winner = entry.news.split(" beat ")[0]
    assert sorted([winner, *entry.news.split(" beat ")[1].split(" at ")[0].split(" and ")]) == [
        "Ann", "Bot 2 (bot)", "Bot 3 (bot)"]
    assert entry.people == [("Ann", winner == "Ann")] and hall_archive(hall).players() == ["Ann"]


# ----- other players' files, and the index -----
def test_hostile_hall_files_never_crash_the_archive_and_names_stay_text(hall, tmp_path, capsys):
    hostile_hall(hall, tmp_path)
    finished_id = towers(hall, "Ann", "\x1b[2J[bold red]Eve[/]\u202e")
    archive = hall_archive(hall)
    assert [entry.id for entry in archive.games] == [finished_id] and archive.in_progress == 2
    assert archive.damaged == 9  # as the listing: every bad file one DAMAGED line
    assert archive.games[0].news == "Ann beat [2J[bold red]Eve[/] at Towers, 3 to 2"  # no escape, no bidi mark
    assert main(["--hall", str(hall.folder), "archive"]) == 0
    assert "\x1b" not in capsys.readouterr().out


def test_dicehall_hall_prints_the_lobbys_news_line_as_text(hall, tmp_path, capsys):
    plain = Hall(tmp_path / "plain")
    towers(plain, "Ann", "Bob")
    assert main(["--hall", str(plain.folder), "hall"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("news: Ann beat Bob at Towers, 3 to 2 (")  # when: the hour
    towers(hall, "Ann", "\x1b[2J[bold red]Eve[/]\u202e")  # a hostile name
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("news: Ann beat [2J[bold red]Eve[/] at Towers, 3 to 2 (")
    assert "\x1b" not in out and "\u202e" not in out
    assert main(["--hall", str(hall.folder), "hall", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["news"].startswith("news: Ann beat [2J[bold red]Eve[/] at Towers, 3 to 2 (")


def test_the_index_lists_without_reading_a_log_and_reads_a_changed_one_again(hall, monkeypatch):
    ids = [towers(hall, "Ann", "Bob"), towers(hall, "Bob", "Ann")]
    first = hall_archive(hall)
    assert the_index(hall).exists() and oct(the_index(hall).parent.stat().st_mode & 0o777) == "0o700"
    from dicehall.saves.hall import archive as archive_module

    def no_log(*args, **kwargs):
        raise AssertionError("a log was read")

    with monkeypatch.context() as patch:
        patch.setattr(archive_module, "HallGame", no_log)
        assert hall_archive(hall).games == first.games  # every row from the index
    data = bytearray(log_path(hall, ids[0]).read_bytes())
    data[-3] ^= 0xFF  # inside the last record: damaged now (the same size: its times tell it changed)
    log_path(hall, ids[0]).write_bytes(bytes(data))
    again = hall_archive(hall)
    assert [entry.id for entry in again.games] == [ids[1]] and again.damaged == 1 and not again.note


CRAFTED = {  # a column of a sound index changed as another player (or a bad disk) might
    "names": lambda columns: dict(columns, names=columns["names"].replace("Ann", "\x1b]0;pwned\x07Mallory", 1)),
    "states": lambda columns: dict(columns, state=b"\x63" + columns["state"][1:]),  # no state is the 99th
    "count": lambda columns: dict(columns, count=10**9),  # more than the folder's logs: never split
    "times": lambda columns: dict(columns, ended=array("d", [math.nan]).tobytes()),
    "ids": lambda columns: dict(columns, id="../../x"),
    "columns": lambda columns: {"id": ["abcdef"]},  # an array: no column is one
}


@pytest.mark.parametrize("index, said", [
    (b"\x00garbage", "could not be read as one"),
    ("columns", "could not be read as one"),
    ("names", "held what the archive never writes (its names)"),
    ("states", "held what the archive never writes (its states)"),
    ("count", "held what the archive never writes (its count)"),
    ("times", "held what the archive never writes (its times)"),
    ("ids", "held what the archive never writes (its ids)"),
    ("huge", "could not be read as one"),
])
def test_a_damaged_or_crafted_index_is_rebuilt_and_said_in_one_line(hall, index, said, capsys):
    game = towers(hall, "Ann", "Bob")
    truth = hall_archive(hall).games
    path = the_index(hall)
    if index in CRAFTED:
        columns = msgpack.unpackb(path.read_bytes())["saves"]
        path.write_bytes(msgpack.packb({"format": 1, "saves": CRAFTED[index](columns)}))
    elif index == "huge":
        with open(path, "wb") as handle:
            handle.truncate(64 * 1024 * 1024 + 1)
    else:
        path.write_bytes(index)
    rebuilt = hall_archive(hall)
    assert rebuilt.games == truth and said in rebuilt.note and game == truth[0].id
    assert hall_archive(hall).note == ""  # written anew: sound again
    path.write_bytes(b"\x00garbage")
    assert main(["--hall", str(hall.folder), "archive"]) == 0
    assert capsys.readouterr().out.startswith("the archive's index could not be read as one")


def test_a_crafted_index_costs_no_more_memory_than_its_bytes(hall):
    """8 MiB of newlines as the names of one game (8 million empty names if it were split): refused
    by its size before any of it is split, in memory about the file's bytes."""
    towers(hall, "Ann", "Bob")
    hall_archive(hall)
    path = the_index(hall)
    columns = msgpack.unpackb(path.read_bytes())["saves"]
    path.write_bytes(msgpack.packb({"format": 1, "saves": dict(columns, names="\n" * (8 << 20))}))
    rebuilt, peak = peak_of(lambda: hall_archive(hall))
    assert "(its names)" in rebuilt.note and len(rebuilt.games) == 1
    assert peak < 3 * (8 << 20)  # the file read, and its column: never a list of its pieces


def test_on_a_box_the_index_is_the_players_own(hall, monkeypatch, tmp_path):
    towers(hall, "Ann", "Bob")
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    hall_archive(hall)
    assert str(the_index(hall)).startswith(str(tmp_path / "dicehall-home" / "players" / "ann" / "hall-archive"))
    assert the_index(hall).exists()


def test_an_index_of_tables_within_tables_is_refused_as_they_nest_not_after(hall):
    """Maps of maps, each within msgpack's map limit and the file within the size cap, cost about 30
    times their bytes parsed whole (a 60 MiB file took 1.8 GB): the third level is refused as it
    closes, in memory about the file's bytes."""
    towers(hall, "Ann", "Bob")
    hall_archive(hall)
    path = the_index(hall)
    keys = [bytes([0xA1, c]) for c in b"abcdefghijklmnopqrstuvwxyzABCDEF"]

    def nested(depth: int) -> bytes:  # a table of 32 tables of 32 ... down to empty ones
        return b"\x80" if depth == 0 else b"\xde\x00\x20" + b"".join(key + nested(depth - 1) for key in keys)

    middle = nested(3)
    path.write_bytes(b"\xde\x00\x13" + b"".join(keys[i] + middle for i in range(19)))  # 19 of 32 KiB tables of tables
    size = path.stat().st_size
    rebuilt, peak = peak_of(lambda: hall_archive(hall))
    assert "could not be read as one" in rebuilt.note and len(rebuilt.games) == 1
    assert peak < 3 * size, f"{peak / 2**20:.1f} MiB for {size / 2**20:.1f} MiB"
