"""Dead Man's Wager bots: legal play in every style, each style's character, the odds (exact for two
players, sampled for more) and best beating cautious and bold."""
import dataclasses

import pytest

from dicehall import engine
from dicehall.engine.bots import wager as bots
from dicehall.engine.core import Player
from dicehall.engine.games import wager
from dicehall.engine.games.wager import EndTurn, Roll, Wager


def decision(scores, runs=None, seat=0, **more):
    """A state at `seat`'s wager decision, built directly."""
    count = len(scores)
    state = wager.initial_state({"play_on": False}, tuple(Player(f"P{i}") for i in range(count)))
    return dataclasses.replace(state, scores=tuple(scores), runs=tuple(runs or ((0, 0),) * count), seat=seat,
                               normal_left=0, can_wager=True, **more)


def bot_game(styles, seed, **options):
    session = engine.new_session("wager", seed=seed, options=options,
                                 players=[Player(f"{style} {i}", True, style) for i, style in enumerate(styles)])
    while session.outcome is None:
        command = bots.choose(session.state, styles[session.to_act])
        assert command in session.commands()
        session.play(command)
    return session


def test_styles_and_every_style_plays_legal_commands_to_the_end():
    assert bots.STYLES == ("cautious", "bold", "best")
    session = bot_game(("best", "cautious", "bold"), seed=5)
    assert session.outcome.winners
    session = bot_game(("bold", "best"), seed=6, play_on=True)
    assert sorted(session.state.places) == [0, 1]


def test_the_normal_rolls_are_not_a_choice():
    state = dataclasses.replace(decision((0, 0)), normal_left=1, can_wager=False)
    assert all(bots.choose(state, style) == Roll() for style in bots.STYLES)
    with pytest.raises(ValueError):
        bots.choose(decision((0, 0)), "reckless")
    with pytest.raises(ValueError):
        bots.choose(dataclasses.replace(decision((0, 0)), rolling="normal"), "best")


def test_bold_wagers_unless_two_sixes_in_a_row():
    assert bots.choose(decision((15, 0)), "bold") == Wager()
    assert bots.choose(decision((0, 15), runs=((6, 1), (0, 0))), "bold") == Wager()
    assert bots.choose(decision((0, 15), runs=((6, 2), (0, 0))), "bold") == EndTurn()


def test_cautious_wagers_only_far_behind_and_never_on_a_six():
    assert bots.choose(decision((5, 10)), "cautious") == EndTurn()
    assert bots.choose(decision((2, 10)), "cautious") == Wager()
    assert bots.choose(decision((2, 10), runs=((6, 1), (0, 0))), "cautious") == EndTurn()
    assert bots.choose(decision((2, 13, 5), seat=2), "cautious") == Wager()  # 8 behind the leader
    assert bots.choose(decision((2, 12, 5), seat=2), "cautious") == EndTurn()


def test_win_chances_at_19_to_0_stopping_is_a_certain_win():
    chances = bots.win_chances(decision((19, 0)))
    assert chances["stop"] == pytest.approx(1.0, abs=1e-9)
    assert chances["wager"] < chances["stop"]  # a 4 would give the other player a chance
    assert bots.choose(decision((19, 0)), "best") == EndTurn()
    hopeless = bots.win_chances(decision((0, 19)))
    assert hopeless["stop"] == pytest.approx(0.0, abs=1e-9) and hopeless["wager"] == pytest.approx(0.0, abs=1e-9)


def test_win_chances_are_probabilities_and_only_asked_at_the_decision():
    for scores in ((0, 0), (-12, 17), (10, 10), (18, 18), (-40, 3)):
        for run in ((0, 0), (6, 1), (6, 2), (3, 1), (3, 2)):
            chances = bots.win_chances(decision(scores, runs=(run, (3, 2))))
            assert set(chances) == {"wager", "stop"}
            assert all(0.0 <= p <= 1.0 for p in chances.values())
    with pytest.raises(ValueError, match="after the normal rolls"):
        bots.win_chances(dataclasses.replace(decision((0, 0)), normal_left=1, can_wager=False))


def test_two_threes_make_the_wager_a_one_in_six_instant_win():
    plain = bots.win_chances(decision((10, 10)))
    lucky = bots.win_chances(decision((10, 10), runs=((3, 2), (0, 0))))
    assert lucky["wager"] > plain["wager"] + 0.05  # a 3 now wins outright instead of scoring 3


def test_the_exact_tables_agree_with_a_simulation():
    table = bots.tables()
    assert table.sweeps < 40  # converges in a few sweeps (its time is bench.py's wager odds row)
    for scores, codes in (((0, 0), (0, 0)), ((12, 15), (2, 0)), ((-5, 10), (0, 4))):
        exact = table.choices(scores[0], scores[1], codes[0], codes[1])
        sampled = bots._sampled(scores, codes, (0, 1), 0, 3000)  # the simulation, forced on two players
        assert sampled["wager"] == pytest.approx(exact[0], abs=0.03)
        assert sampled["stop"] == pytest.approx(exact[1], abs=0.03)


def test_the_table_floor_barely_matters_and_the_first_player_is_favoured():
    assert 0.55 < bots.tables().start() < 0.62


def test_sampled_odds_are_repeatable_probabilities():
    # (their speed is measured in tests/perf/bench.py, not here)
    crowd = decision((7, 11, 3, 14, 0, 9), seat=2)
    chances = bots.win_chances(crowd)
    bots._sampled.cache_clear()
    assert chances == bots.win_chances(crowd)  # the same position always gets the same figures, even recomputed
    assert all(0.0 <= p <= 1.0 for p in chances.values())


def test_three_or_more_players_are_sampled_and_deterministic():
    state = decision((0, 0, 0))
    first = bots.win_chances(state)
    bots._sampled.cache_clear()
    assert bots.win_chances(state) == first
    far = bots.win_chances(decision((2, 17, 17)))
    assert far["wager"] < 0.2 and far["stop"] < 0.2
    out = dataclasses.replace(decision((5, 10, 12)), out=(False, False, True), eliminated=(2,))
    exact = bots.win_chances(out)  # two players still in: exact again
    assert exact == pytest.approx(dict(zip(("wager", "stop"), bots.tables().choices(5, 10, 0, 0))))


@pytest.mark.parametrize("other", ["cautious", "bold"])
def test_best_beats_the_other_styles_over_300_games_with_seats_alternating(other):
    wins = 0
    for game_number in range(300):
        best_first = game_number % 2 == 0
        styles = ("best", other) if best_first else (other, "best")
        session = bot_game(styles, seed=game_number // 2)  # each deal is played from both seats
        wins += styles[session.outcome.winners[0]] == "best"
    assert wins / 300 > 0.5


def test_best_beats_the_other_styles_exactly():
    """Policy evaluation, no sampling: best's chance with seats alternating."""
    chances = bots.duels("best", ("cautious", "bold"))
    for other, at_least in (("cautious", 0.70), ("bold", 0.5)):
        first, second = chances[other]
        assert (first + second) / 2 > at_least, other
