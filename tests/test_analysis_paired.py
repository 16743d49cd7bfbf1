"""Paired judging (engine/analysis/paired.py, issue #22): common random numbers, the paired standard
error, racing, and a best named only by fresh samples. Game-independent: the candidates here are
made-up figures whose truth is known."""
import math
import random
from hashlib import blake2b

import pytest

from dicehall.engine.analysis import mark_for, paired


def noise(candidate, sample: int) -> float:
    """A number in [0, 1) fixed by (candidate, sample): the luck of one sample."""
    key = blake2b(repr((candidate, sample)).encode(), digest_size=8).digest()
    return int.from_bytes(key, "big") / 2 ** 64


def test_the_paired_difference_and_its_standard_error():
    a, b = [1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]
    gap = paired.difference(a, b)
    assert gap.mean == 0.5 and gap.n == 4
    assert gap.se == pytest.approx(math.sqrt((3 * 0.25 + 0.25) / 3 / 4))
    with pytest.raises(ValueError):
        paired.difference([1.0], [1.0, 0.0])


def test_a_drop_is_beyond_the_noise_only_by_what_two_standard_errors_leave():
    gap = paired.Difference(0.20, 0.05, 30)
    assert gap.beyond_noise() == pytest.approx(0.10)
    assert paired.Difference(0.05, 0.05, 30).beyond_noise() == 0.0
    assert paired.Difference(0.9, 0.0, paired.MIN_PAIRS - 1).beyond_noise() == 0.0  # noise unknown: no mark


def test_common_random_numbers_cancel_the_shared_luck():
    # two candidates that share their sample's luck: the paired difference is exact, however noisy each is
    def value(candidate, sample):
        return noise("world", sample) + (0.1 if candidate == "good" else 0.0)

    judged = paired.judge(["bad", "good"], value, "bad", samples=12)
    assert judged.best == "good"
    assert judged.drop == pytest.approx(0.1) and judged.noise == pytest.approx(0.0, abs=1e-12)
    assert judged.beyond_noise() == pytest.approx(0.1)


def test_candidates_equal_in_truth_are_rarely_marked_against_each_other_and_never_without_the_noise_rule():
    # triplets: the same distribution, independent luck (symmetric moves that share no random numbers);
    # a mark needs a drop beyond two standard errors of the paired difference. Marks are then rare (the
    # test's own false-alarm rate, about 2%), where the raw drop would mark about a third of them
    marked = raw = 0
    for seed in range(300):
        def value(candidate, sample):
            return float(noise((seed, candidate), sample) < 0.3)  # a win chance of 30% for each

        judged = paired.judge(["left", "right", "third"], value, "left", samples=16)
        marked += mark_for(judged.beyond_noise()) != ""
        top = max(judged.mean(candidate) for candidate in judged.confirmed)  # the best fresh figure, taken raw
        raw += mark_for(top - judged.mean("left")) != ""
    assert marked <= 9 and raw >= 60


def test_the_best_is_named_by_fresh_samples_not_by_the_race_that_flattered_it():
    # "lucky" wins every race sample, but its fresh samples show it as it is: worse than "steady"
    def value(candidate, sample):
        if candidate == "lucky":
            return 1.0 if sample < paired.CONFIRM else 0.2
        return {"steady": 0.5, "poor": 0.0, "weak": 0.1}[candidate]

    judged = paired.judge(["poor", "weak", "lucky", "steady"], value, "poor", samples=8)
    assert judged.raced["lucky"] and all(v == 1.0 for v in judged.raced["lucky"])
    assert judged.best == "steady" and judged.mean("steady") == 0.5
    assert set(judged.confirmed) == {"lucky", "steady", "poor"}  # the two finalists and the move played


def test_racing_spends_few_samples_on_poor_candidates():
    calls = {}

    def value(candidate, sample):
        calls[candidate] = calls.get(candidate, 0) + 1
        return candidate / 10 + noise(candidate, sample) / 100

    judged = paired.judge(list(range(8)), value, 0, samples=32)
    assert judged.best == 7
    assert calls[1] == 8  # a quarter of the samples, then out of the race
    assert calls[7] == 16 + 32  # raced to the last pair (16 samples), then confirmed afresh
    assert calls[0] == 8 + 32  # out early, but the move played is always confirmed


def test_exact_candidates_cost_nothing_and_eligibility_is_a_rule_not_a_sample():
    seen = set()

    def value(candidate, sample):
        seen.add(candidate)
        return 0.0

    judged = paired.judge(["fatal", "safe"], value, "fatal", samples=1, exact={"fatal": 0.4},
                          eligible=lambda candidate: candidate != "fatal")
    assert judged.best == "safe" and seen == {"safe"}  # the exact one was never sampled
    assert judged.mean("fatal") == 0.4


def test_a_move_played_outside_the_candidates_is_refused():
    with pytest.raises(ValueError):
        paired.judge(["a"], lambda c, s: random.random(), "b", samples=4)


def test_another_move_is_named_best_only_when_credibly_better_than_the_move_played():
    def value(candidate, sample):  # "close" is better by a hair, far inside the noise
        return noise("world", sample) * 0.5 + noise(candidate, sample) * 0.5 + (0.001 if candidate == "close" else 0)

    judged = paired.judge(["played", "close"], value, "played", samples=24)
    assert judged.best == "played" and judged.drop == 0.0
    clear = paired.judge(["played", "clear"], lambda c, i: value(c, i) + (0.3 if c == "clear" else 0), "played", samples=24)
    assert clear.best == "clear" and clear.beyond_noise() > 0.1
