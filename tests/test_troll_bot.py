"""The troll's adviser: legal plans, blind to hidden cards, and clearly better than random play."""
import dataclasses

from dicehall import engine
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from dicehall.sims.troll import sim_troll


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
    # On each difficulty the adviser must do strictly better than random legal moves on the same
    # deals: more wins wherever random play wins at all (tutorial), and otherwise clearly fewer
    # cards left (a quarter fewer at least). An adviser no better than random fails every line.
    hints = {}
    for difficulty in ("tutorial", "sturdy", "standard"):
        hint = hints[difficulty] = sim_troll(20, seed=2, difficulty=difficulty, variant=None, bot="hint")
        rand = sim_troll(20, seed=2, difficulty=difficulty, variant=None, bot="random")
        if rand["win_rate"] > 0:
            assert hint["win_rate"] > rand["win_rate"], difficulty
            assert hint["mean_score"] <= rand["mean_score"], difficulty
        else:
            assert hint["mean_score"] < 0.75 * rand["mean_score"], difficulty
    assert hints["sturdy"]["win_rate"] >= 0.4  # the adviser wins most sturdy games; random play wins none


def test_the_adviser_weighs_the_chance_that_the_troll_flies_away():
    state = started(seed=3).state
    pos = state.troll
    awake = troll.with_stack(state, pos, state.stack(pos)[:-1] + (dataclasses.replace(state.top(pos), awake=True),))
    dormant = troll.with_stack(state, pos, state.stack(pos)[:-1] + (dataclasses.replace(state.top(pos), awake=False),))
    # the next card is the deck's unseen top: it calls the troll's row with the odds of its colour,
    # and the die lands on the troll's position one time in six at least
    risk = adviser.flight_risk(awake, from_deck=True)
    assert 1 / 6 * 0.3 < risk <= 1.0 and adviser.flight_risk(dormant, from_deck=True) == 0.0
    # two known cards of the troll's row: a dormant card can be woken by the first and hit by the second
    row_card = next(c for c in troll.FULL_DECK if troll.row_of(state, c) == pos[0])
    queued = dataclasses.replace(dormant, set_aside=(row_card, row_card))
    hit = adviser.hit_chance(queued, pos)[0 if pos[0] == "upper" else 1]
    assert adviser.flight_risk(queued, from_deck=False) == _approx(hit * hit)
    assert adviser.evaluate(awake) < adviser.evaluate(dormant)


def _approx(value):
    import pytest

    return pytest.approx(value)


def test_bridge_holders_are_the_positions_whose_loss_collapses_the_bridge_on_every_bridge():
    positions = [(row, col) for row in troll.ROWS for col in troll.COLUMNS]
    base = started().state
    for mask in range(1 << 12):  # every pattern of occupied positions
        cells = {pos for i, pos in enumerate(positions) if mask >> i & 1}
        state = base
        for pos in positions:
            state = troll.with_stack(state, pos, (troll.Card("2C"),) if pos in cells else ())
        by_removing = {pos for pos in cells if not troll.bridge_stands(troll.with_stack(state, pos, ()))}
        assert adviser.bridge_holders(cells) == by_removing, sorted(cells)
