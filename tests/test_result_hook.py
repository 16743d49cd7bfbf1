"""Each game's `result(state, seat) -> Result | None` (engine/contract.py, the one way a game says how
it went): its value in the measure of its catalogue entry, its words, which way is better, won and perfect; None
before the end and, in a game of several seats, for a seat that did not win. The hall's scores keep
the best by `Result.rank()` (tests/test_hall_scores.py), the statistics the best value
(tests/test_stats.py); positions here are built by hand."""
from __future__ import annotations

from dataclasses import replace

import pytest

from dicehall import engine
from dicehall.engine.core import HIGHER, LOWER, Measure, Result
from dicehall.engine.games import CATALOGUE, bones, dicetower, towers, troll, wager
from dicehall.engine.games.bones.area import Troop
from dicehall.engine.games.dicetower import TowerState


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.playable], ids=lambda e: e.id)
def test_every_game_tells_a_finished_games_result_in_its_own_measure(entry):
    module = entry.module
    measure = entry.measure
    assert isinstance(measure, Measure) and measure.better in (HIGHER, LOWER) and measure.name
    players = [f"P{n}" for n in range(entry.seats[0])]
    session = engine.new_session(entry.id, seed=3, players=players)
    assert all(module.result(session.state, seat) is None for seat in range(len(players)))  # not over
    while session.outcome is None:
        session.play(session.commands()[0])
    results = [module.result(session.state, seat) for seat in range(len(players))]
    for seat, result in enumerate(results):
        if result is not None:
            assert result.better == measure.better and type(result.value) is int and result.words
            assert result.won == (seat in session.outcome.winners)
            assert result.perfect == (session.outcome.summary == measure.perfect != "")
        else:
            assert len(players) > 1 and seat not in session.outcome.winners


def test_a_result_ranks_a_perfect_result_then_a_win_then_the_better_value():
    fewer = Measure("cards left", LOWER)
    assert fewer.result(1, "").rank() > fewer.result(3, "").rank()
    assert fewer.result(5, "", won=True).rank() > fewer.result(0, "").rank()
    assert fewer.result(5, "", won=True, perfect=True).rank() > fewer.result(0, "", won=True).rank()
    assert Measure("pulls").result(9, "").rank() > Measure("pulls").result(8, "").rank()
    assert fewer.best([4, None, 2, 7]) == 2 and Measure("pulls").best([4, None, 7]) == 7 and fewer.best([None]) is None


def test_dice_tower_the_pulls_it_stood():
    standing = TowerState(countdown=40, start=100, advantage_from=51, pulls=17)
    assert dicetower.result(standing, 0) is None
    assert dicetower.result(replace(standing, countdown=0, fell=True), 0) == Result(17, "17 pulls", HIGHER)


def test_wager_the_winners_total_and_none_for_the_others():
    state = wager.WagerState(names=("Ann", "Bob"), play_on=False, scores=(14, 23), out=(False, False), runs=((0, 0),) * 2)
    assert wager.result(state, 1) is None
    over = replace(state, over=True, places=(1, 0), ways=("score",))
    assert wager.result(over, 1) == Result(23, "won with 23", HIGHER, won=True)
    assert wager.result(over, 0) is None


def test_towers_the_winning_margin_and_none_for_a_draw():
    state = towers.TowersState(names=("Ann", "Bob"), board=(0,) * 64, first_placer=0, turn=0)
    assert towers.result(state, 0) is None
    assert towers.result(replace(state, phase="over", results=((2, 7),)), towers.DARK) == Result(5, "won by 5", won=True)
    assert towers.result(replace(state, phase="over", results=((2, 7),)), towers.LIGHT) is None
    assert towers.result(replace(state, phase="over", results=((4, 4),)), 0) is None
    match = replace(state, phase="over", match=True, results=((5, 2), (3, 4)))  # Light by 3, then Dark by 1
    assert towers.result(match, towers.LIGHT) == Result(2, "won by 2", won=True)


def test_troll_the_cards_left_a_perfect_win_then_a_win_then_the_fewest_cards_left():
    state = troll.TrollState(heights=(3, 2, 1, 1, 2, 3))
    assert troll.result(state, 0) is None
    perfect = troll.result(replace(state, end="perfect", deck=()), 0)
    won = troll.result(replace(state, end="won", deck=()), 0)
    close = troll.result(replace(state, end="collapsed", deck=("2C",)), 0)
    far = troll.result(replace(state, end="flew", deck=("2C", "3C", "4C")), 0)
    assert [(r.value, r.words, r.better) for r in (perfect, won, close, far)] == [
        (0, "perfect win", LOWER), (0, "won", LOWER), (1, "lost, 1 card left", LOWER), (3, "lost, 3 cards left", LOWER)]
    assert perfect.perfect and perfect.won and won.won and not won.perfect and not close.won
    assert perfect.rank() > won.rank() > close.rank() > far.rank()


def test_bones_the_troops_the_winner_lost_and_none_for_a_draw():
    alive = Troop(100, 100, 3)
    left = (alive, alive, alive, alive, alive, None, None, None)  # 3 of the 8 lost
    state = bones.BonesState(names=("Ann", "Bob"))
    assert bones.result(state, 0) is None
    over = replace(state, stage="over", troops=(left, (None,) * 8), result=(0,))
    assert bones.result(over, 0) == Result(3, "won, 3 troops lost", LOWER, won=True)
    assert bones.result(over, 1) is None
    assert bones.result(replace(over, result=()), 0) is None


def test_journal_the_days_lasted_and_a_salvation_above_any_loss():
    from dicehall.engine.games import journal

    session = engine.new_session("journal", seed=4)
    while session.outcome is None:
        session.play(session.commands()[0])
    state = session.state
    assert journal.result(session.state_at(1), 0) is None  # not over
    lost = replace(state, ending="kings")
    saved = replace(state, ending="salvation", day=2)
    assert journal.result(lost, 0) == Result(state.day, f"lasted on day {state.day}", HIGHER)
    assert journal.result(saved, 0).rank() > journal.result(replace(lost, day=400), 0).rank()
