"""The troll's adviser: legal plans, blind to hidden cards, and clearly better than random play."""
import dataclasses

import engine
from engine.bots import troll as adviser
from engine.games import troll
from tui.sim import sim_troll


def started(seed=3, **options):
    session = engine.new_session("troll", seed=seed, options=options)
    assert session.to_act == 0
    return session


def test_plan_is_one_or_two_legal_actions_with_a_reason():
    session = started()
    plan = adviser.best_turn(session.state)
    assert 1 <= len(plan.commands) <= 2 and plan.reason
    for command in plan.commands:
        assert command in session.commands()
        session.play(command)


def test_the_adviser_does_not_see_face_down_cards_or_the_deck_order():
    state = started(seed=11).state
    dormant = [(row, col) for row in troll.ROWS for col in troll.COLUMNS
               if state.stack((row, col)) and not state.top((row, col)).awake]
    a, b = dormant[0], dormant[1]
    top_a, top_b = state.top(a), state.top(b)
    swapped = troll.with_stack(state, a, state.stack(a)[:-1] + (dataclasses.replace(top_a, code=top_b.code),))
    swapped = troll.with_stack(swapped, b, swapped.stack(b)[:-1] + (dataclasses.replace(top_b, code=top_a.code),))
    swapped = dataclasses.replace(swapped, deck=tuple(reversed(state.deck)))
    assert adviser.best_turn(swapped).commands == adviser.best_turn(state).commands


def test_the_adviser_beats_random_play_clearly():
    for difficulty in ("tutorial", "sturdy", "standard"):
        hint = sim_troll(30, seed=2, difficulty=difficulty, variant=None, bot="hint")
        rand = sim_troll(30, seed=2, difficulty=difficulty, variant=None, bot="random")
        assert hint["win_rate"] >= rand["win_rate"], difficulty
        assert hint["mean_score"] < rand["mean_score"] or hint["win_rate"] > rand["win_rate"] + 0.1, difficulty
