"""The game-over summary (engine/analysis/summary.py), as a roguelike's morgue file: for a whole game
of every game, played by its bots on a fixed seed, with a comment, an undo and an assist, the text
is pinned as a snapshot (with the analysis's turning points); `dicehall summary` writes it from a
save or a replay file, and the end screen's help shows it first."""
from __future__ import annotations

from pathlib import Path

import pytest

from dicehall import replays, saves
from dicehall.cli import main
from dicehall.engine import analysis
from dicehall.engine.analysis.summary import game_summary, summary_lines
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE, entry_of
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text
from dicehall.engine.bots import bones as bones_bot
from dicehall.engine.bots import towers as towers_bot
from dicehall.engine.bots import troll as troll_bot
from dicehall.engine.bots import wager as wager_bot
from dicehall.engine.games.dicetower import PullBlock
from tests.test_viewer_app import BOTS

SNAPSHOTS = Path(__file__).parent / "snapshots"
PLAYABLE = [entry.id for entry in CATALOGUE if entry.playable]
SAMPLES = 2  # the sampling analysers' fewest: the figures repeat (they draw from the seed), and quickly


def played(game: str):
    """A whole game of `game` on a fixed seed, as a save: Ada (a person, in the first seat) plays as
    the bots would, against bots; with two comments, an undo and redo, and assists asked."""
    seed = 4
    players = [Player("Ada")] + BOTS[game][1:] if game in BOTS else [Player("Ada")]
    session = saves.new_save(game, name=f"morgue {game}", seed=seed, players=players)
    choose = {"dicetower": lambda state: PullBlock(), "troll": troll_bot.choose,
              "wager": lambda state: wager_bot.choose(state, session.players[state.seat].style or "best"),
              "towers": lambda state: towers_bot.choose(state, "easy", seed, len(session.events)),
              "bones": lambda state: bones_bot.choose(state, "random", seed, len(session.events)),
              "journal": lambda state: session.commands()[0]}[game]
    for _ in range(400):
        if session.outcome is not None:
            break
        session.play(choose(session.state))
    assert session.outcome is not None, game
    saves.write_comment(session, 0, "a game to remember")
    saves.write_comment(session, 2, "an early choice")
    session.undo()  # Ada's last move, and the bots' after it
    session.redo()
    session.labels.assists = (("hint", 1), ("hint", 3), ("reveal", 5))  # the `stats` work records these
    return session


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_summary_of_a_whole_game_of_every_game(game, snapshot):
    session = played(game)
    analysed = analysis.has_analyser(game)
    result = analysis.analyse(session, samples=SAMPLES) if analysed else None
    text = game_summary(session, result)
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text + "\n", f"summary-{game}.txt")
    lines = text.splitlines()
    assert all(len(line) <= 74 for line in lines)
    assert lines[1] == f"Result: {session.outcome.summary}"
    assert "Assists: 2 hints, 1 reveal of the hidden cards" in text
    assert f"; {session.undos} undo" in text and session.undos == 1
    assert "Comments: 2 (on the whole game, event 2)" in text
    assert ("Turning points (analysed):" if analysed else f"Turning points: {entry_of(game).title} has no analysis yet") in text
    saves.close_save(session)


def test_without_analysis_it_says_how_to_get_the_turning_points_and_the_hindsight():
    session = played("troll")
    text = game_summary(session)
    assert "Turning points: not analysed (a in the viewer, or dicehall summary" in text
    assert "Hindsight: not asked (H in the viewer" in text and "looks at the" in text
    assert "Deal: troll:standard:4" in text
    saves.close_save(session)
    assert "Hindsight" not in game_summary(played("wager"))  # only a game with a solver has the line


def test_an_unfinished_game_says_so_and_names_come_in_as_text():
    session = saves.new_save("dicetower", name="[bold]x\x1b[2J", seed=1, players=[Player("[red]Ann")])
    lines = summary_lines(session)
    assert lines[0] == "Dice Tower: [bold]x[2J" and lines[1] == "Result: unfinished, after 0 events"
    assert lines[2] == "Players: [red]Ann"
    saves.close_save(session)


def test_dicehall_summary_reads_a_save_and_a_replay_file(tmp_path, capsys):
    session = played("dicetower")
    saves.close_save(session)
    assert main(["summary", session.labels.save_id, "--analyse"]) == 0
    from_save = capsys.readouterr().out
    assert from_save.startswith("Dice Tower: morgue dicetower\nResult: the tower fell")
    assert "the luckiest roll: event" in from_save and "the unluckiest roll: event" in from_save
    path = replays.write_replay(saves.load_readonly(session.labels.save_id), tmp_path / "g.dhr")
    assert main(["summary", str(path)]) == 0
    from_file = capsys.readouterr().out
    assert "1 undo (claimed)" in from_file and "Comments: 2 (on the whole game, event 2)" in from_file


def test_dicehall_summary_refuses_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.dhr"
    bad.write_bytes(b"not a replay")
    assert main(["summary", str(bad)]) == 1
    assert capsys.readouterr().err.strip().count("\n") == 0
    assert main(["summary", "no such save"]) == 1
    assert capsys.readouterr().err.strip() == "dicehall: no save named 'no such save' (dicehall saves lists them)"
    session = played("wager")
    saves.close_save(session)
    assert main(["summary", session.labels.save_id, "--hindsight"]) == 2
    assert capsys.readouterr().err.strip() == "dicehall: Dead Man's Wager has no hindsight solver (only the troll has one)"
    with pytest.raises(SystemExit) as caught:
        main(["summary", session.labels.save_id, "--samples", "3"])
    assert caught.value.code == 2 and capsys.readouterr().err.strip().endswith("--samples goes with --analyse")


def test_the_troll_summary_with_hindsight_is_labelled(capsys):
    session = played("troll")
    saves.close_save(session)
    assert main(["summary", session.labels.save_id, "--hindsight", "--budget", "1"]) == 0
    out = capsys.readouterr().out
    assert "Hindsight (the solver looked at the hidden cards): " in out


@pytest.mark.parametrize("game", ["troll", "wager"])
def test_the_end_screens_help_shows_the_summary_first(game):
    session = played(game)

    async def steps(pilot):
        await pilot.press("question_mark")
        await pilot.pause()
        return pilot.app.screen.notes, screen_text(pilot.app)

    notes, text = drive(DicehallApp(session=session), steps)
    assert notes.startswith(f"Game over. {entry_of(game).title}: morgue {game}. Result: {session.outcome.summary}. ")
    assert "Assists: 2 hints, 1 reveal of the hidden cards. Comments: 2 (on the whole game, event 2)." in notes
    assert "Game over. " in text and "Result: " in text  # on the screen, under the keys
    saves.close_save(session)
