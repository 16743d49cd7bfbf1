"""Each game's optional `best_result(state) -> (value, words)` hook (engine/contract.py): the result
in the game's own measure, higher better, None before the end or for a draw. The hall's scores keep
the best (tests/test_hall_scores.py); positions here are built by hand."""
from __future__ import annotations

from dataclasses import replace

from dicehall.engine.games import bones, dicetower, towers, troll, wager
from dicehall.engine.games.bones.area import Troop
from dicehall.engine.games.dicetower import TowerState


def test_every_playable_game_has_the_hook():
    from dicehall.engine.games import CATALOGUE

    assert all(callable(getattr(entry.module, "best_result", None)) for entry in CATALOGUE if entry.playable)


def test_dice_tower_the_pulls_it_stood():
    standing = TowerState(countdown=40, start=100, advantage_from=51, pulls=17)
    assert dicetower.best_result(standing) is None
    assert dicetower.best_result(replace(standing, countdown=0, fell=True)) == (17, "17 pulls")


def test_wager_the_winners_total():
    state = wager.WagerState(names=("Ann", "Bob"), play_on=False, scores=(14, 23), out=(False, False), runs=((0, 0),) * 2)
    assert wager.best_result(state) is None
    assert wager.best_result(replace(state, over=True, places=(1, 0), ways=("score",))) == (23, "won with 23")


def test_towers_the_winning_margin_and_no_best_for_a_draw():
    state = towers.TowersState(names=("Ann", "Bob"), board=(0,) * 64, first_placer=0, turn=0)
    assert towers.best_result(state) is None
    assert towers.best_result(replace(state, phase="over", results=((2, 7),))) == (5, "won by 5")
    assert towers.best_result(replace(state, phase="over", results=((4, 4),))) is None
    match = replace(state, phase="over", match=True, results=((5, 2), (3, 4)))  # Light by 3, then Dark by 1
    assert towers.best_result(match) == (2, "won by 2")


def test_troll_a_perfect_win_then_a_win_then_the_fewest_cards_left():
    state = troll.TrollState(heights=(3, 2, 1, 1, 2, 3))
    assert troll.best_result(state) is None
    perfect = troll.best_result(replace(state, end="perfect", deck=()))
    won = troll.best_result(replace(state, end="won", deck=()))
    close = troll.best_result(replace(state, end="collapsed", deck=("2C",)))
    far = troll.best_result(replace(state, end="flew", deck=("2C", "3C", "4C")))
    assert (perfect, won, close, far) == ((200, "perfect win"), (100, "won"), (-1, "lost, 1 card left"),
                                          (-3, "lost, 3 cards left"))
    assert perfect[0] > won[0] > close[0] > far[0]


def test_bones_the_fewest_troops_the_winner_lost_and_no_best_for_a_draw():
    alive = Troop(100, 100, 3)
    left = (alive, alive, alive, alive, alive, None, None, None)  # 3 of the 8 lost
    state = bones.BonesState(names=("Ann", "Bob"))
    assert bones.best_result(state) is None
    over = replace(state, stage="over", troops=(left, (None,) * 8), result=(0,))
    assert bones.best_result(over) == (-3, "won, 3 troops lost")
    assert bones.best_result(replace(over, result=())) is None


def test_journal_salvation_above_any_loss_then_the_days():
    from dicehall import engine
    from dicehall.engine.games import journal

    session = engine.new_session("journal", seed=4)
    while session.outcome is None:
        session.play(session.commands()[0])
    state = session.state
    assert journal.best_result(session.state_at(1)) is None  # not over
    lost = replace(state, ending="kings")
    saved = replace(state, ending="salvation", day=2)
    assert journal.best_result(lost) == (state.day, f"lasted on day {state.day}")
    assert journal.best_result(saved)[0] > journal.best_result(replace(lost, day=400))[0]
    assert journal.result_measure(state, 0) == state.day
