"""Paired statistics with common random numbers, the one module every sampled analysis uses (the
troll, War of Bones, the wager): two moves judged over the same sampled futures differ by a paired
difference whose noise is its standard error, far smaller than either figure's own; a mark is
earned only by the drop less about two standard errors (`Z`), and never on fewer than MIN_PAIRS
paired samples, whose noise cannot be estimated. Game-independent.

    gap = paired.difference(better, worse)      # a Difference: .mean, .se, .n
    gap.beyond_noise()                          # the drop a mark is given on

Judging several candidates (`judge`): the caller gives them and a `value(candidate, sample)`
function: the figure (a win chance, an equity, ...) one sampled future gives that candidate. Sample
`i` must use the same random numbers for every candidate (the same deal, the same dice): common
random numbers, so the difference between two candidates on sample `i` is theirs and not the
luck's, and the differences are far less noisy than the figures themselves.

    result = paired.judge(candidates, value, played, samples=24)
    result.best, result.mean(result.best), result.drop, result.noise, result.beyond_noise()

How it spends the samples (racing, then a fresh look at the leaders):

1. Racing by successive halving: every sampled candidate gets a few samples (a quarter of
   `samples`); the better half by mean goes on with twice as many, and so on until `finalists`
   remain. Samples go where they decide something: a poor candidate costs a few playouts.
2. Confirmation: the finalists and the move played get `samples` fresh samples each, numbered
   from CONFIRM on, so independent of the race's. The best is named by these fresh samples only:
   the race picked the top of several noisy means, which flatters the winner (the winner's curse);
   the fresh ones do not know who won.
3. Another move than the one played is named best only if it is better on the fresh samples by
   more than CREDIBLE (one) standard error of the paired difference; else the move played was as
   good as any found, within the noise.
4. Verification: where another move is named best, it and the move played get `samples` fresh
   samples again (numbered from VERIFY on), and their figures are these: the samples that named a
   best also chose it, so on them the best is flattered and the move played, whenever it is found
   worse, is found worse by its bad luck as well as by its play (at the troll's size and 24 samples,
   where they would mark, the move played 0.02 of equity low and the drop 0.056 high:
   tests/test_analysis_paired.py). The fresh ones know nothing of the choice. A best they do not
   bear out (no better in the mean) gives way to the move played.
5. The drop is the mean paired difference (best - played) on those samples, and its noise the
   standard error of that mean (the differences' spread / sqrt(n)). `beyond_noise(z)` is the drop
   less z standard errors (about two): a mark is earned only by what is left. With fewer than
   MIN_PAIRS paired samples the noise is unknown: nothing is beyond it.

Candidates whose value needs no sampling (a move that loses at once) are given in `exact`: they
take part at their exact value and cost nothing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Generator, Generic, Hashable, Mapping, Sequence, TypeVar

Z = 2.0  # standard errors of the paired difference taken off a drop before it can earn a mark
MIN_PAIRS = 6  # fewer paired samples than this: the noise cannot be estimated, nothing is beyond it
FINALISTS = 2  # candidates the race leaves for the confirmation (with the move played)
CONFIRM = 1 << 20  # the confirmation's sample numbers start here: a set apart from the race's
VERIFY = 2 << 20  # the verification's: apart from both, so the figures shown know nothing of the choice
CREDIBLE = 1.0  # standard errors by which another move must beat the move played to be named best
C = TypeVar("C", bound=Hashable)  # a candidate: a move, or a turn's moves


@dataclass(frozen=True)
class Difference:
    """The mean of paired differences a[i] - b[i], and its standard error."""

    mean: float
    se: float
    n: int

    def beyond_noise(self, z: float = Z) -> float:
        """The difference less z standard errors, never below 0 (0 when the noise is unknown)."""
        if self.n < MIN_PAIRS:
            return 0.0
        return max(0.0, self.mean - z * self.se)


def mean(values: Sequence[float]) -> float:
    """The mean of some samples (0 with none)."""
    return sum(values) / len(values) if values else 0.0


def difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """The paired difference of two candidates' figures on the same samples."""
    if len(a) != len(b):
        raise ValueError("paired samples must be the same samples")
    n = len(a)
    if n == 0:
        return Difference(0.0, math.inf, 0)
    gaps = [x - y for x, y in zip(a, b)]
    centre = mean(gaps)
    if n < 2:
        return Difference(centre, math.inf, n)
    variance = sum((gap - centre) ** 2 for gap in gaps) / (n - 1)
    return Difference(centre, math.sqrt(variance / n), n)


@dataclass
class Judgement(Generic[C]):
    """What `judge` found: the best candidate (by the fresh samples), every candidate's figures."""

    best: C
    played: C
    confirmed: dict = field(default_factory=dict)  # finalists and the played: their fresh samples
    raced: dict = field(default_factory=dict)  # every candidate: its race samples
    exact: dict = field(default_factory=dict)  # candidates valued without sampling
    verified: dict = field(default_factory=dict)  # the best named and the played: samples apart from the choice

    def numbers(self, candidate) -> range:
        """The sample numbers of a candidate's figure: its verification's, else its confirmation's,
        else its race's."""
        for start, stage in ((VERIFY, self.verified), (CONFIRM, self.confirmed), (0, self.raced)):
            if candidate in stage:
                return range(start, start + len(stage[candidate]))
        return range(0)

    def samples_of(self, candidate) -> list[float]:
        """The samples of a candidate's figure (see numbers)."""
        for stage in (self.verified, self.confirmed, self.raced):
            if candidate in stage:
                return stage[candidate]
        return []

    def mean(self, candidate) -> float:
        if candidate in self.exact:
            return self.exact[candidate]
        return mean(self.samples_of(candidate))

    @property
    def gap(self) -> Difference:
        """best - played, paired on the samples of their figures (exact where either needs no sampling)."""
        if self.best == self.played:
            return Difference(0.0, 0.0, MIN_PAIRS)
        n = max(len(self.samples_of(self.best)), len(self.samples_of(self.played)), 1)
        return difference(self._row(self.best, n), self._row(self.played, n))

    def _row(self, candidate, n: int) -> list[float]:
        if candidate in self.exact:
            return [self.exact[candidate]] * n
        return self.samples_of(candidate)

    @property
    def drop(self) -> float:
        return max(0.0, self.gap.mean)

    @property
    def noise(self) -> float:
        return self.gap.se

    def beyond_noise(self, z: float = Z) -> float:
        if self.best == self.played:
            return 0.0
        both_exact = self.best in self.exact and self.played in self.exact
        return max(0.0, self.gap.mean) if both_exact else self.gap.beyond_noise(z)


def judge(candidates: Sequence[C], value: Callable[[C, int], float], played: C,
          samples: int, exact: Mapping[C, float] | None = None, finalists: int = FINALISTS,
          eligible: Callable[[C], bool] | None = None, credible: float = CREDIBLE,
          race: int | None = None) -> Judgement[C]:
    """Race the candidates on common random numbers, confirm the leaders on fresh samples, name the
    best by those, and verify a best other than the move played (both again on fresh samples, whose
    figures are the judgement's). `played` must be one of `candidates`. `eligible(candidate)`: whether
    it may be named best (all by default; the troll: a pair that goes on before one that loses at
    once); it never gives a mark, which is the drop's alone. Ties go to the move
    played, then to the earlier candidate: the caller lists them in its preferred order. Another
    move than the one played is named best only if its paired advantage is more than `credible`
    standard errors: a "better move" within the noise would teach a lesson the samples do not hold.
    `race`: the samples the race goes up to (default `samples`): it only picks the finalists, whose
    figures are their fresh samples, so fewer can do."""
    return run(judging(candidates, played, samples, exact, finalists, eligible, credible, race), value)


Steps = Generator[list, list, Judgement]  # what `judging` is: see there


def run(steps: Steps, value: Callable) -> Judgement:
    """A judging's steps each valued here, in the order asked (what `judge` does)."""
    try:
        wanted = next(steps)
        while True:
            wanted = steps.send([value(candidate, sample) for candidate, sample in wanted])
    except StopIteration as finished:
        return finished.value


def judging(candidates: Sequence[C], played: C, samples: int, exact: Mapping[C, float] | None = None,
            finalists: int = FINALISTS, eligible: Callable[[C], bool] | None = None, credible: float = CREDIBLE,
            race: int | None = None) -> Steps:
    """`judge` as steps, for a caller that values them elsewhere (the troll's, over the pool): each
    step yields the (candidate, sample) pairs it needs, candidate by candidate, and is sent their
    values in that order; the judgement is returned. A step needs only what the ones before it
    decided (a round of the race, the confirmation, the verification), and its pairs can be valued
    in any grouping: a sample is never asked for again in a later step."""
    exact = dict(exact or {})
    order = {candidate: index for index, candidate in enumerate(candidates)}
    if played not in order:
        raise ValueError("the move played must be among the candidates")
    eligible = eligible or (lambda candidate: True)
    raced: dict = {}
    sampled = [c for c in candidates if c not in exact]

    def rank(pool, means) -> list:
        return sorted(pool, key=lambda c: (-means(c), c != played, order[c]))

    samples = max(1, samples)
    longest = max(1, samples if race is None else race)
    alive = [c for c in sampled if eligible(c)]
    n = max(1, longest // 4)
    while len(alive) > finalists:
        wanted = [(c, i) for c in alive for i in range(len(raced.setdefault(c, [])), n)]
        for (candidate, _), found in zip(wanted, (yield wanted) if wanted else []):
            raced[candidate].append(found)
        alive = rank(alive, lambda c: mean(raced[c]))[:max(finalists, (len(alive) + 1) // 2)]
        n = min(longest, n * 2)
    fresh = [c for c in candidates if c not in exact and (c in alive or c == played)]
    confirmed = yield from _fresh(fresh, CONFIRM, samples)
    result = Judgement(played, played, confirmed, raced, exact)
    pool = [c for c in fresh if eligible(c)] + [c for c in exact if eligible(c)]
    if pool:
        result.best = rank(pool, result.mean)[0]
    if eligible(played) and result.best != played and result.beyond_noise(credible) <= 0:
        result.best = played  # not credibly better: the move played is as good as any found, within the noise
    if result.best != played:  # the figures from fresh samples, which know nothing of the choice
        result.verified = yield from _fresh([c for c in (result.best, played) if c not in exact], VERIFY, samples)
        if eligible(played) and result.gap.mean <= 0:
            result.best = played  # not borne out: the move played is as good as any found
    return result


def _fresh(candidates: list, start: int, samples: int) -> Generator[list, list, dict]:
    """A step: `samples` samples numbered from `start` for each candidate."""
    if not candidates:
        return {}
    found = yield [(c, start + i) for c in candidates for i in range(samples)]
    return {c: list(found[k * samples:(k + 1) * samples]) for k, c in enumerate(candidates)}


__all__ = ["CONFIRM", "CREDIBLE", "VERIFY", "Difference", "FINALISTS", "Judgement", "MIN_PAIRS", "Z", "difference", "judge", "judging", "mean", "run"]
