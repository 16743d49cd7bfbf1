"""The hall's scores (`dicehall hall --scores [--json]`, saves/hall/scores.py): per player name and
game, from the finished hall games, from scripted hall folders with exact figures; other players'
files (copies, crafted names, damaged logs) never crash it and never count a game twice."""
from __future__ import annotations

import json
import random

import pytest

from dicehall import engine
from dicehall.cli import main
from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves import hall as hallmod
from dicehall.saves.hall import Hall, hall_scores
from tests.hallhelpers import step
from tests.test_hall import hostile_hall
from tests.test_hall_social import Clock, set_idle, towers_pair

DICE_SEED = 424242  # the hosted Dice Tower's secret seed in these halls


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    return Hall(tmp_path / "hall")


def log_path(hall, game_id):
    return hall.games / f"{game_id}.dhh"


def towers(hall, light, dark):
    """A whole Towers game, `light` hosting and `dark` joining, each playing its last legal command
    (Towers has no dice: the same moves every time, and Light wins 3 to 2)."""
    first = hall.host("towers", ["player", "open"], light)
    second = hall.join(first.id, name=dark)
    games = {0: first, 1: second}
    while not first.finished:
        step(games)
    step(games)
    first.close(), second.close()
    return first.id


def tower_pulls(seed):
    """The pulls a Dice Tower from 100 stands with the seed's dice (the engine alone)."""
    session = engine.new_session("dicetower", seed=seed)
    while session.outcome is None:
        session.play(session.commands()[0])
    return session.state.pulls


def scripted_hall(hall, monkeypatch):
    """Ann beats Bob twice and loses once at Towers, and plays both seats of a fourth game (one win
    for her); a copy of her first game's log; a game waiting for a seat; a damaged log; one Dice
    Tower of Ann's, hosted with a known seed."""
    ids = [towers(hall, "Ann", "Bob"), towers(hall, "Bob", "Ann"), towers(hall, "Ann", "Bob"), towers(hall, "Ann", "Ann")]
    log_path(hall, "copy01").write_bytes(log_path(hall, ids[0]).read_bytes())
    waiting = hall.host("towers", ["player", "open"], "Bob")
    waiting.close()
    log_path(hall, "broken").write_bytes(MAGIC + b"\x00\x00\x00\x05nonsense")
    with monkeypatch.context() as patch:  # (undo() would undo the test's DICEHALL_HOME too)
        patch.setattr(hallmod.folder.secret_source, "randbits", lambda bits: DICE_SEED)
        tower = hall.host("dicetower", ["player"], "Ann")
        while not tower.finished:
            tower.play(tower.session.commands()[0])
        tower.close()
    return ids


def test_exact_figures_from_a_scripted_hall(hall, monkeypatch):
    scripted_hall(hall, monkeypatch)
    found = hall_scores(hall)
    pulls = tower_pulls(DICE_SEED)
    assert [(s.game, s.player, s.games, s.wins, s.win_percent, s.best and (s.best.value, s.best.words))
            for s in found.scores] == [
        ("dicetower", "Ann", 1, 0, 0, (pulls, f"{pulls} pulls")),
        ("towers", "Ann", 4, 3, 75, (1, "won by 1")),
        ("towers", "Bob", 3, 1, 33, (1, "won by 1")),
    ]
    assert (found.counted, found.in_progress, found.abandoned, found.copies, found.damaged) == (5, 1, 0, 1, 1)


def test_scores_on_the_command_line(hall, monkeypatch, capsys):
    scripted_hall(hall, monkeypatch)
    pulls = tower_pulls(DICE_SEED)
    assert main(["--hall", str(hall.folder), "hall", "--scores"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"scores from 5 finished games in the hall {hall.folder} (not counted: 1 in progress, "
                      "1 copy, 1 damaged)")
    assert "unauthenticated" in out[1] and "bots' seats are not counted" in out[1]
    assert out[3:] == [
        "GAME        PLAYER                GAMES   WINS  WIN %  BEST",
        f"dicetower   Ann                       1      0     0%  {pulls} pulls",
        "towers      Ann                       4      3    75%  won by 1",
        "towers      Bob                       3      1    33%  won by 1",
    ]


def test_scores_as_json(hall, monkeypatch, capsys):
    scripted_hall(hall, monkeypatch)
    assert main(["--hall", str(hall.folder), "hall", "--scores", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["hall"] == str(hall.folder) and "unauthenticated" in found["unauthenticated"]
    assert (found["counted"], found["in_progress"], found["abandoned"], found["copies"], found["damaged"]) == (5, 1, 0, 1, 1)
    assert found["scores"][1] == {"game": "towers", "title": "Towers", "player": "Ann", "games": 4, "wins": 3,
                                  "win_percent": 75, "best": {"value": 1, "words": "won by 1", "better": "higher"}}
    assert found["scores"][2]["player"] == "Bob" and found["scores"][2]["wins"] == 1


def test_an_empty_hall_has_no_scores(hall, capsys):
    assert main(["--hall", str(hall.folder), "hall", "--scores"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("scores from 0 finished games") and out.endswith("no finished game with a person seated yet\n")


def test_bots_seats_are_not_players(hall):
    game = hall.host("towers", ["player", "bot:easy"], "Ann")
    rng = random.Random(3)
    while not game.finished:
        game.play(rng.choice(game.session.commands()))
    game.close()
    found = hall_scores(hall)
    assert [(s.player, s.games) for s in found.scores] == [("Ann", 1)]


def test_ruling_a_seat_handed_to_a_bot_for_idleness_is_played_not_won(hall, monkeypatch):
    set_idle(hall, 2)
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    idle_name = other.fold.seats[other.seat].name
    clock.now += 121
    mover.claim_idle("bot")
    other.close()
    while not mover.finished:
        mover.play(mover.session.commands()[-1])
    mover.close()
    scores = {s.player: s for s in hall_scores(hall).scores}
    assert scores[idle_name].games == 1 and scores[idle_name].wins == 0 and scores[idle_name].best is None
    assert set(scores) == {"Ann", "Bob"}  # the bot that took the seat is no player


def test_ruling_an_abandoned_game_is_not_counted(hall, monkeypatch):
    set_idle(hall, 2)
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    clock.now += 121
    mover.claim_idle("abandon")
    mover.close(), other.close()
    found = hall_scores(hall)
    assert found.scores == [] and (found.counted, found.abandoned) == (0, 1)


def test_hostile_hall_files_never_crash_the_scores_nor_count_twice(hall, tmp_path, monkeypatch, capsys):
    hostile_hall(hall, tmp_path)  # two games in progress (one with a hostile name) and every kind of bad file
    finished = towers(hall, "Ann", "Bob")
    data = log_path(hall, finished).read_bytes()
    parsed = parse_save(data, "x")
    # a copy under another id, its seats renamed: the same game (the same commitment) counts once, as
    # the first by id (this one sorts last: the original counts; either way the game counts once)
    renamed = [dict(r, name="Mallory") if r.get("op") == "seat" else r for r in parsed.records]
    log_path(hall, "zzzzzz").write_bytes(MAGIC + frame(parsed.header) + b"".join(frame(r) for r in renamed))
    # another game (a commitment of its own, no seed revealed) whose winner's name is hostile
    evil = "\x1b[2J\x1b]0;pwned\x07[bold red]Eve[/]\u202e"
    header = dict(parsed.header, commitment="ab" * 32)
    crafted = [dict(r, name=evil) if r.get("op") == "seat" and r.get("seat") == 0 else r
               for r in parsed.records if r.get("op") != "reveal"]
    log_path(hall, "evilsc").write_bytes(MAGIC + frame(header) + b"".join(frame(r) for r in crafted))
    found = hall_scores(hall)
    assert (found.counted, found.copies, found.in_progress) == (2, 1, 2) and found.damaged == 9  # evilnm: in progress
    players = {s.player: s for s in found.scores}
    assert "Mallory" not in players  # the renamed copy was never counted
    assert players["Ann"].games == 1 and players["Bob"].games == 2
    eve = next(name for name in players if "Eve" in name)
    assert not any(ch < " " or ch == "\u202e" for ch in eve) and players[eve].wins == 1
    for as_json in (False, True):
        assert main(["--hall", str(hall.folder), "hall", "--scores", *(["--json"] if as_json else [])]) == 0
        captured = capsys.readouterr()
        assert captured.err == "" and "\x1b" not in captured.out and "\x07" not in captured.out
        assert "\u202e" not in captured.out


def test_the_hall_screens_s_shows_the_scores_at_80x24(hall, monkeypatch, snapshot):
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.screens.hall.lobby import HallScreen
    from dicehall.tui.screens.hall.scores import HallScoresScreen
    from tests.apphelpers import drive, screen_text, settled, until

    scripted_hall(hall, monkeypatch)
    monkeypatch.setenv("DICEHALL_HALL", str(hall.folder))
    (hall.games / "zzzzzz.dhh").write_bytes(b"\x1b[31m[bold]not a game")

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        hall_footer = (await settled(pilot)).splitlines()[-1]
        await pilot.press("s")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScoresScreen) and pilot.app.screen.found is not None)
        await pilot.pause()
        text = screen_text(pilot.app)
        await pilot.press("q")
        await pilot.pause()
        return hall_footer, text, pilot.app.screen

    hall_footer, text, back = drive(DicehallApp(), steps)
    assert "s Scores" in hall_footer
    lines = text.splitlines()
    assert lines[0].strip() == "The hall's scores: 5 finished games"
    assert lines[-2].strip() == "not counted: 1 in progress, 1 copy, 2 damaged; r reads the hall again"
    assert "unauthenticated" in lines[1]
    pulls = tower_pulls(DICE_SEED)
    assert any(line.strip(" ▊▎").startswith("Dice Tower        Ann                       1     0    0%  "
                                               f"{pulls} pulls") for line in lines)
    assert any("Towers            Ann                       4     3   75%  won by 1" in line for line in lines)
    assert "\x1b" not in text and isinstance(back, HallScreen)
    snapshot.assert_match(text, "hall_scores_80x24.txt")
