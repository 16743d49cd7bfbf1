"""Every Dice Tower ruling of ../shared/RULINGS.md, and the seed's four worked examples."""
from fractions import Fraction
from functools import lru_cache

import pytest

from dicehall import engine
from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import BlockPulled, DiceRolled, PullBlock


def tower(start=100, dice=(), **options):
    return engine.new_session("dicetower", seed=1, options={"start": start, **options}, dice=list(dice))


def test_countdown_starts_at_100_by_default():
    session = engine.new_session("dicetower", seed=1)
    assert session.state.countdown == 100
    assert session.options == {"start": 100, "advantage_from": 51}


def test_option_start_and_threshold():
    session = tower(start=40, advantage_from=30)
    assert session.state.countdown == 40 and session.state.advantage_from == 30


@pytest.mark.parametrize("options", [{"start": 0}, {"start": "100"}, {"start": True}, {"colour": 1}, {"start": 10**9}])
def test_bad_options_are_refused_with_a_reason(options):
    with pytest.raises(ValueError):
        engine.new_session("dicetower", seed=1, options=options)


def test_two_commands_pull_and_pull_and_remove():
    assert [str(c) for c in tower().commands()] == ["pull", "pull and remove"]


def test_seed_example_1_advantage_subtracts_lower_92_to_89():
    session = tower(start=92, dice=[3, 5])
    session.play(PullBlock())
    assert session.state.countdown == 89


def test_seed_example_2_remove_subtracts_both_62_to_57():
    session = tower(start=62, dice=[1, 4])
    session.play(PullBlock(remove=True))
    assert session.state.countdown == 57


def test_seed_example_3_double_threes_then_advantage_75_69_67():
    session = tower(start=75, dice=[3, 3, 2, 5])
    session.play(PullBlock())
    assert [session.state_at(n).countdown for n in range(len(session.events) + 1)] == [75, 75, 69, 67]


def test_seed_example_4_two_double_threes_then_disadvantage_14_8_2_0():
    session = tower(start=14, dice=[3, 3, 3, 3, 1, 5])
    session.play(PullBlock())
    assert [session.state_at(n).countdown for n in range(len(session.events) + 1)] == [14, 14, 8, 2, 0]
    assert session.outcome is not None and session.state.fell


def test_advantage_at_51_subtracts_lower():
    session = tower(start=51, dice=[2, 6])
    session.play(PullBlock())
    assert session.state.countdown == 49


def test_disadvantage_at_50_subtracts_higher():
    session = tower(start=50, dice=[2, 6])
    session.play(PullBlock())
    assert session.state.countdown == 44


def test_advantage_judged_after_double_threes():
    # 55 -> 49 after double threes: the following roll is at disadvantage (higher die)
    session = tower(start=55, dice=[3, 3, 1, 6])
    session.play(PullBlock())
    assert session.state.countdown == 43


def test_double_threes_also_explode_for_pull_and_remove():
    session = tower(start=80, dice=[3, 3, 1, 2])
    session.play(PullBlock(remove=True))
    assert session.state.countdown == 80 - 6 - 3


def test_countdown_never_goes_below_zero():
    session = tower(start=3, dice=[6, 6])
    session.play(PullBlock(remove=True))
    assert session.state.countdown == 0


def test_reaching_zero_mid_chain_of_double_threes_ends_at_once():
    session = tower(start=6, dice=[3, 3, 4, 4])
    session.play(PullBlock())
    assert session.state.fell
    assert [type(e) for e in session.events] == [BlockPulled, DiceRolled]  # no further roll
    assert session.commands() == []
    with pytest.raises(engine.IllegalCommand, match="over"):
        session.play(PullBlock())


def test_physical_dice_typed_for_a_pull():
    session = engine.new_session("dicetower", seed=1)
    session.play(PullBlock(), faces=[3, 5])
    assert session.state.countdown == 97
    assert session.events[-1] == DiceRolled((3, 5), typed=True)


@pytest.mark.parametrize("faces", [[0, 5], [7, 1], [3]])
def test_bad_typed_faces_are_refused_and_nothing_is_appended(faces):
    session = engine.new_session("dicetower", seed=1)
    with pytest.raises(engine.IllegalCommand):
        session.play(PullBlock(), faces=faces)
    assert session.events == ()


def test_typed_double_threes_wait_for_more_dice():
    session = engine.new_session("dicetower", seed=1)
    session.play(PullBlock(), faces=[3, 3])
    assert session.chance_needed is not None and session.commands() == []
    with pytest.raises(engine.IllegalCommand, match="waiting for dice"):
        session.play(PullBlock())
    session.roll([2, 5])
    assert session.state.countdown == 92 and session.chance_needed is None


def test_expected_pulls_exact_small_cases():
    assert dicetower.expected_pulls(0) == 0
    assert dicetower.expected_pulls(1) == 1  # any roll takes at least 1
    # at 6 (disadvantage): falls if the higher die is 6 or on double threes (12 of 36)
    assert dicetower.topple_chance(6) == Fraction(12, 36)
    assert dicetower.topple_chance(1) == 1


@lru_cache(maxsize=None)
def reference_expected(countdown, advantage_from, in_pull=False):
    """A direct, slow reading of the rules over all 36 rolls, to check the fast chain against."""
    if countdown <= 0:
        return Fraction(0)
    total = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            if (a, b) == (3, 3):
                total += Fraction(1, 36) * reference_expected(countdown - 6, advantage_from, True)
            else:
                after = countdown - (min(a, b) if countdown >= advantage_from else max(a, b))
                total += Fraction(1, 36) * reference_expected(after, advantage_from)
    return total if in_pull else 1 + total


def test_expected_pulls_matches_a_direct_reading_of_the_rules():
    for countdown in range(1, 40):
        assert dicetower.expected_pulls(countdown, 9) == reference_expected(countdown, 9)


def test_float_chain_agrees_with_the_exact_one():
    assert abs(dicetower.expected_pulls(100, exact=False) - float(dicetower.expected_pulls(100))) < 1e-9


def test_expected_pulls_from_100_is_about_thirty():
    value = dicetower.expected_pulls(100)
    assert isinstance(value, Fraction)
    assert 29.9 < float(value) < 30.0


def test_expected_pulls_agrees_with_sampled_games():
    from dicehall.sims.dicetower import sim_dicetower

    report = sim_dicetower(1500, seed=11, remove_rate=0)
    assert abs(report["mean"] - float(dicetower.expected_pulls(100))) < 0.5
    # the seed's "lower bound of about 18 and upper bound of around 42"
    assert 15 <= report["percentiles"]["p5"] and report["percentiles"]["p95"] <= 45


def test_describe_names_why_the_amount_was_subtracted():
    session = tower(start=75, dice=[3, 3, 2, 5])
    session.play(PullBlock())
    words = [session.describe(i) for i in range(3)]
    assert "double threes" in words[1] and "75 -> 69" in words[1]
    assert "advantage, lower -2" in words[2] and "69 -> 67" in words[2]


def test_rules_text_states_the_rulings():
    text = dicetower.RULES_TEXT
    for phrase in ("51 or more", "50 or less", "Double threes", "never goes below 0", "undo cannot reroll"):
        assert phrase in text


def test_the_rules_text_quotes_the_exact_mean():
    from dicehall.engine.games import dicetower

    assert f"lasts {float(dicetower.expected_pulls(100)):.2f} pulls on average" in dicetower.RULES_TEXT


def test_the_rolls_rules_are_said_once_and_every_reader_agrees():
    # evolve, the screen's words (subtraction) and the exact figures all ask dicetower.taken and
    # rolls_again: for every roll, under every rule, the fold takes what the words say, and the
    # chance that a pull fells the tower is the one found by rolling every chain through evolve
    def falls(state):  # the chance that the pull in progress ends with the tower down, through evolve
        total = Fraction(0)
        for a in range(1, 7):
            for b in range(1, 7):
                after = dicetower.evolve(state, DiceRolled((a, b)))
                total += Fraction(1, 36) * (1 if after.fell else (falls(after) if after.pulling else 0))
        return total

    for countdown, removing in ((60, False), (40, False), (40, True), (5, False)):
        state = dicetower.evolve(tower(start=countdown).state, BlockPulled(remove=removing))
        for a in range(1, 7):
            for b in range(1, 7):
                amount, why = dicetower.subtraction(state, (a, b))
                after = dicetower.evolve(state, DiceRolled((a, b)))
                assert after.countdown == max(0, countdown - amount)
                assert after.pulling == ((a, b) == (3, 3) and after.countdown > 0) and why.startswith("double") == ((a, b) == (3, 3))
    for countdown in (1, 6, 7, 13, 20, 52):
        for removing in (False, True):
            state = dicetower.evolve(tower(start=countdown).state, BlockPulled(remove=removing))
            assert dicetower.topple_chance(countdown, remove=removing) == falls(state), (countdown, removing)
