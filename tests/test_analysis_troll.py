"""The troll's analysis judged with paired samples (issue #22): the fatal pair is `??` at every budget,
every legal pair is a candidate (pairs leaving the same position judged once), the equity the marks
use, and the figures beside the win chance."""
import json

import pytest

from dicehall import engine, replays
from dicehall.cli import main
from dicehall.engine import analysis
from dicehall.engine.analysis import troll as troll_analysis
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll

FATAL_SEED = 3685572073
FATAL_KEYS = ["left", "left", "left", "up", "down", "right", "up", "left"]  # Left Left, Left Up, Down Right, Up Left


def fatal_game():
    session = engine.new_session("troll", seed=FATAL_SEED, options={"difficulty": "standard"})
    for direction in FATAL_KEYS:
        session.play(troll.Move(direction))
    assert session.state.end == "collapsed" and session.state.turn == 4
    return session


def test_ruling_a_pair_that_loses_at_once_when_another_does_not_is_a_blunder_at_every_budget():
    session = fatal_game()
    state = session.state_at(18)
    played = (troll.Move("up"), troll.Move("left"))
    safe = [c for c, final in troll_analysis.groups(state, played).items() if final.end not in troll_analysis.LOSSES]
    assert [troll_analysis.words(c) for c in safe] == ["move up then move right"]  # the hint's pair
    for samples in (1, 2, 3, 5, 8, 16, 64):
        decision = troll_analysis.judge_turn(state, played, FATAL_SEED, 19, samples, 28)
        assert (decision.event, decision.played, decision.mark) == (19, "move up then move left", "??"), samples
        assert decision.best == "move up then move right", samples
        assert decision.chance_played == 0.0 and decision.equity_played < decision.equity_best
    for budget in (0.001, 0.05, 1.0):
        fatal = analysis.analyse(session, budget=budget).decisions[-1]
        assert (fatal.event, fatal.mark, fatal.best) == (19, "??", "move up then move right"), budget
    # the samples asked for, at a count the budgets above do not give (the turn's own judge took 1 to 64)
    fatal = analysis.analyse(session, samples=2).decisions[-1]
    assert (fatal.event, fatal.mark, fatal.best) == (19, "??", "move up then move right")


def test_the_fatal_pair_from_the_command_line_at_the_default(tmp_path, capsys):
    path = tmp_path / "fatal.dhr"
    replays.write_replay(fatal_game(), path)
    assert main(["analyse", str(path), "--json", "--samples", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    fatal = document["decisions"][-1]
    assert (fatal["event"], fatal["mark"], fatal["best"]) == (19, "??", "move up then move right")
    assert document["marked_by"] == "equity" and fatal["equity_played"] < fatal["equity_best"]


def decision_positions(seeds, turns=(3, 6, 9)):
    """Positions of adviser games (standard) where two legal pairs leave the same position."""
    found = []
    for seed in seeds:
        session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
        while session.outcome is None:
            state = session.state
            if state.actions_left == 2 and troll.to_act(state) == 0 and state.turn in turns:
                finals = {}
                for _, commands, _, final in adviser.scored_lines(state):
                    finals.setdefault(final, []).append(commands)
                twins = [pair for pair in finals.values() if len(pair) > 1]
                if twins:
                    found.append((seed, len(session.events), state, twins[0][:2]))
            session.play(adviser.choose(state))
    return found


def test_pairs_that_leave_the_same_position_are_never_marked_against_each_other_over_many_seeds():
    positions = decision_positions(range(1, 13))[:12]
    assert len(positions) == 12
    for seed, event, state, (one, other) in positions:
        # either played, the other is in its group: never a candidate against it, never named best
        first = troll_analysis.judge_turn(state, one, seed, event + 1, 6, 28)
        second = troll_analysis.judge_turn(state, other, seed, event + 1, 6, 28)
        assert first.best != troll_analysis.words(other) and second.best != troll_analysis.words(one)
        # the same position: the same figures on the same deals and dice
        assert (first.equity_played, first.chance_played) == (second.equity_played, second.chance_played)
        assert (first.best, first.mark) == (second.best.replace(troll_analysis.words(other), troll_analysis.words(one)),
                                            second.mark)


def test_every_legal_pair_is_a_candidate_once_per_position():
    seed, event, state, (one, other) = decision_positions([3])[0]
    options = troll_analysis.groups(state, other)
    lines = adviser.scored_lines(state)
    assert {final for _, _, _, final in lines} == set(options.values())  # every position a pair can leave
    assert len(options) == len({final for _, _, _, final in lines})  # each once
    assert other in options and one not in options  # the played pair stands for its group


def test_equity_counts_the_win_and_the_share_of_the_deck_played():
    assert troll_analysis.equity(True, 0, 28) == 1.0
    assert troll_analysis.equity(False, 28, 28) == 0.0
    assert troll_analysis.equity(False, 14, 28) == pytest.approx(0.25)
    # a later loss is worth more than an earlier one: equity tells lost games apart
    assert troll_analysis.equity(False, 3, 28) > troll_analysis.equity(False, 20, 28)


def test_the_help_says_which_figure_the_troll_marks_use():
    from dicehall.cli.analyse import DESCRIPTION
    from dicehall.tui.screens.games import game_screens
    from dicehall.tui.screens.viewer.analysis import thresholds_note

    note = thresholds_note("troll", "Angry Troll versus Magic Bridge", game_screens("troll").also_blunder)
    assert "points of equity (half win, half deck played) lost beyond 2 SE" in note and "loses at once" in note
    assert "the troll: of equity" in DESCRIPTION
    assert "points of win chance lost" in thresholds_note("wager", "Dead Man's Wager")  # the others unchanged
