"""Towers endings solved exactly (engine/analysis/towers_exact.py): against the rules' own
`legal_commands`/`decide`/`evolve` on random positions, on endings whose value is worked out by
hand, and in the analysis (its marks and named best where the position is exact)."""
from __future__ import annotations

import random

import pytest

from dicehall import engine
from dicehall.engine import analysis
from dicehall.engine.analysis import towers as towers_analysis
from dicehall.engine.analysis import towers_exact
from dicehall.engine.bots import towers as bot
from dicehall.engine.core import Player
from dicehall.engine.games import towers
from dicehall.engine.games.towers import BUILT, DARK, LIGHT, UNBUILT, Move, parse_square


def position(turn: int, **cells: str) -> towers.TowersState:
    """A movement-phase position from squares named like the rules: a8="L" an unbuilt Light tower,
    "[L]" a built one (and D, [D] Dark's)."""
    codes = {"L": UNBUILT[LIGHT], "D": UNBUILT[DARK], "[L]": BUILT[LIGHT], "[D]": BUILT[DARK]}
    board = [towers.EMPTY] * 64
    for name, cell in cells.items():
        board[parse_square(name)] = codes[cell]
    return towers.TowersState(("Light", "Dark"), tuple(board), LIGHT, turn, phase="movement")


def after(state: towers.TowersState, command: object) -> towers.TowersState:
    for event in towers.decide(state, command):
        state = towers.evolve(state, event)
    return state


def by_the_rules(state: towers.TowersState, colour: int) -> int:
    """The final margin from `colour`'s side with best play, by plain minimax over the rules' own
    functions (skips and the end as `decide` reports them): slow, for small endings only."""
    if state.phase == "over":
        light, dark = state.results[-1]
        return light - dark if colour == LIGHT else dark - light
    values = [by_the_rules(after(state, command), colour) for command in towers.legal_commands(state)]
    return max(values) if state.turn == colour else min(values)


def random_position(rng: random.Random, unbuilt: int) -> towers.TowersState:
    """16 towers, 8 a side, `unbuilt` of them still to move, the side to act able to move."""
    while True:
        squares = rng.sample(range(64), 16)
        cells = [UNBUILT[n % 2] if n < unbuilt else BUILT[n % 2] for n in range(16)]
        rng.shuffle(cells)
        board = [towers.EMPTY] * 64
        for square, cell in zip(squares, cells):
            board[square] = cell
        state = towers.TowersState(("Light", "Dark"), tuple(board), LIGHT, rng.randrange(2), phase="movement")
        if towers.can_move(state.board, state.turn):
            return state


def test_the_solvers_moves_are_the_rules_moves_on_random_positions():
    rng = random.Random(7)
    for _ in range(300):
        state = random_position(rng, rng.randrange(1, 17))
        solver = towers_exact.Solver(state)
        ours = solver.moves(state.turn)
        assert len(set(ours)) == len(ours)
        assert set(map(towers_analysis._as_command, ours)) == set(towers.legal_commands(state))


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_agrees_with_minimax_over_the_rules_on_random_endings(seed):
    rng = random.Random(seed)
    for _ in range(15):  # up to 3 towers left: minimax over the rules' own functions is slow
        state = random_position(rng, rng.randrange(1, 4))
        assert towers_exact.solve(state) == by_the_rules(state, state.turn)
        played = rng.choice(towers.legal_commands(state))
        best, best_value, played_value = towers_exact.Solver(state).root(state.turn, towers_analysis._as_move(played))
        assert best_value == by_the_rules(state, state.turn)
        assert played_value == by_the_rules(after(state, played), state.turn)
        assert by_the_rules(after(state, towers_analysis._as_command(best)), state.turn) == best_value


# Dark threatens h1-a1 (the a column between its a8 and a1: 6 points); Light's b2 scores 6 with the b
# column down to b1, which also blocks Dark's way along row 1: +6. b2-b3 scores only 4 (b7 to b4)
# and lets Dark through (6): -2, a loss of 8 points. [L] on h7 keeps Dark's h1 off the h8 corner.
BLOCK = {"a8": "[D]", "h1": "D", "b8": "[L]", "b2": "L", "h7": "[L]"}
# Dark's only tower is shut in (d4 between Light's four), so Light moves both its towers, Dark skipped
# between: a8 and h8 (the top row, 6 points) is the best pair; no two lines reach more.
SKIPPED = {"a1": "L", "h1": "L", "d4": "D", "d5": "[L]", "d3": "[L]", "c4": "[L]", "e4": "[L]"}


def swapped(cells: dict) -> dict:
    return {square: cell.replace("L", "x").replace("D", "L").replace("x", "D") for square, cell in cells.items()}


def test_hand_built_endings_have_the_values_worked_out_by_hand():
    assert towers_exact.solve(position(LIGHT, **BLOCK)) == 6
    assert towers_exact.solve(after(position(LIGHT, **BLOCK), Move(parse_square("b2"), parse_square("b3")))) == 2  # Dark's +2
    assert towers_exact.solve(position(DARK, **swapped(BLOCK))) == 6  # from the side to act's side
    assert towers_exact.solve(position(LIGHT, **SKIPPED)) == 6
    for cells in (BLOCK, SKIPPED):
        assert towers_exact.solve(position(LIGHT, **cells)) == by_the_rules(position(LIGHT, **cells), LIGHT)


def test_an_exact_ending_marks_by_the_exact_margin_lost_and_names_an_exactly_best_move():
    state = position(LIGHT, **BLOCK)
    judged = towers_analysis.judge(state, Move(parse_square("b2"), parse_square("b3")))
    assert judged.exact and (judged.best_points, judged.played_points) == (6.0, -2.0)
    assert str(judged.best) == "move b2-b1" and towers_analysis.mark(judged, "movement") == "??"
    best = towers_analysis.judge(state, Move(parse_square("b2"), parse_square("b1")))
    assert best.lost == 0 and towers_analysis.mark(best, "movement") == ""


def exactly_after(state: towers.TowersState, command: object, table: dict) -> int:
    """The margin with best play after `command`, from the side that played it."""
    reached = after(state, command)
    if reached.phase != "movement":
        return by_the_rules(reached, state.turn)
    return towers_exact.Solver(reached, table).value(reached.turn) * (1 if reached.turn == state.turn else -1)


def test_the_analysis_of_a_game_is_exact_where_few_towers_are_left_and_agrees_with_the_solver():
    from dicehall.engine.analysis.towers import EXACT_TOWERS

    session = engine.new_session("towers", seed=4, players=[Player("Ann"), Player("Bob")])
    while session.outcome is None:
        level = "easy" if session.to_act == 0 else "medium"
        session.play(bot.choose(session.state, level, seed=4, nonce=len(session.events)))
    result = analysis.analyse(session)
    exact, table = 0, {}  # the solver's, kept along the game as the analysis keeps its own
    for decision, margins in zip(result.decisions, result.extra["margins"]):
        state = session.state_at(decision.event - 1)
        if state.phase != "movement" or towers_exact.towers_left(state) > EXACT_TOWERS:
            continue
        exact += 1
        best_value = towers_exact.Solver(state, table).value(state.turn)
        played_value = exactly_after(state, towers.parse_command(decision.played), table)
        assert margins["exact"] and (margins["margin_best"], margins["margin_played"]) == (best_value, played_value)
        assert decision.mark == analysis.mark_for(best_value - played_value, towers_analysis.THRESHOLDS)
        assert exactly_after(state, towers.parse_command(decision.best), table) == best_value  # a best move, exactly
        assert decision.chance_best == towers_analysis.chance(best_value, exact=True)
    assert exact >= 4  # the game's last moves


def test_the_json_names_whose_chance_each_decision_holds():
    session = engine.new_session("towers", seed=1, players=[Player("Ann"), Player("Bob")])
    for square in ("d5", "b2", "g7"):
        session.play(towers.parse_command(f"place {square}"))
    document = analysis.as_json(analysis.analyse(session))
    assert [d["figure"] for d in document["decisions"]] == ["Light's chance", "Dark's chance", "Light's chance"]
    assert document["figure"] == "Light's chance"  # the curve's: the graph is Light's
