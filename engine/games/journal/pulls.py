"""A pull from the journal's tower as tables: each countdown after one pull (the Dice Tower's own
rules, enumerated through dicetower.evolve) with its chance, shared by far countdowns, cumulative for
sampling, and as drops for runs of pulls (odds.py samples whole games from them)."""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import DiceRolled, TowerState
from dicehall.engine.games.journal.runs import Runs

# A pull's table leaves out chains of more than DEPTH double threes (a chance under 36**-40, 1e-62:
# far below a float's reach when sampled). Deeper than that, a tower of 10,000 built every table
# from 10,000 down, each as long as its countdown: 60 s and gigabytes for one sim.
DEPTH = 40


@lru_cache(maxsize=None)
def after_pull(countdown: int, advantage_from: int, remove: bool, depth: int | None = None) -> tuple[tuple[int, float], ...]:
    """One pull from `countdown` as the Dice Tower's rules play it: each countdown after it (0: the
    tower fell) with its chance. Every roll goes through dicetower.evolve (_rolls); a double three rolls
    again from the countdown it left, whose own outcomes are this function's (cached) answer.
    depth: at most that many double threes in a row are followed (None: all of them)."""
    if depth is None and countdown > 600:  # the chain below cached first, a hundred double threes at a time: no deep recursion
        after_pull(countdown - 600, advantage_from, remove)
    chances: dict[int, float] = {}
    for value, again in _rolls(countdown, advantage_from, remove):
        if again:  # double threes: the same pull rolls again
            if depth == 0:
                continue
            deeper = None if depth is None else depth - 1
            for after, chance in after_pull(value, advantage_from, remove, deeper):
                chances[after] = chances.get(after, 0.0) + chance / 36
        else:
            chances[value] = chances.get(value, 0.0) + 1 / 36
    return tuple(sorted(chances.items()))


@lru_cache(maxsize=None)
def _drops(countdown: int, advantage_from: int, remove: bool) -> tuple[tuple[int, bool], ...]:
    """A pull's 36 rolls from `countdown` through dicetower.evolve: what each takes, and whether it rolls again."""
    tower = TowerState(countdown=countdown, start=max(countdown, 1), advantage_from=advantage_from, pulling=True,
                       removing=remove)
    rolls = [dicetower.evolve(tower, DiceRolled((a, b))) for a in range(1, 7) for b in range(1, 7)]
    return tuple((countdown - after.countdown, after.pulling) for after in rolls)


def _rolls(countdown: int, advantage_from: int, remove: bool) -> list[tuple[int, bool]]:
    """A pull's 36 rolls from `countdown`: the countdown after each and whether it rolls again. Above 12 no
    roll reaches 0, so a countdown rolls as the lowest above 12 on its side of the threshold does, moved:
    rolled once through evolve, not 36 times for each countdown a table reaches (a tower's tables took
    thousands of evolve calls, a tenth of `sim journal`'s start)."""
    if countdown > 12:
        lowest = max(13, advantage_from) if countdown >= advantage_from else 13
        return [(countdown - drop, again) for drop, again in _drops(lowest, advantage_from, remove)]
    return [(countdown - drop, again) for drop, again in _drops(countdown, advantage_from, remove)]


def _shifts(countdown: int, advantage_from: int) -> bool:
    """Whether the dice subtract from `countdown` as from any other countdown of its side of the
    advantage threshold: its DEPTH double threes (and a roll after them) neither reach 0 nor cross it."""
    lowest = countdown - 6 * DEPTH
    return lowest > 12 and not lowest < advantage_from <= countdown


def own_countdown(countdown: int, advantage_from: int) -> int:
    """The countdown whose pull table, moved by the difference, is `countdown`'s: those that _shift
    share one table; a small countdown, or one near the threshold, has its own."""
    if not _shifts(countdown, advantage_from):
        return countdown
    return max(advantage_from, 13) + 6 * DEPTH if countdown >= advantage_from else 13 + 6 * DEPTH


@lru_cache(maxsize=None)
def drop_table(own: int, advantage_from: int, remove: bool) -> tuple[tuple[int, float], ...]:
    """A pull's table (for an _own countdown) with its values as drops (countdown - value): all of
    them for a countdown with its own table, else those within DEPTH double threes."""
    depth = DEPTH if _shifts(own, advantage_from) else None
    return tuple((own - value, chance) for value, chance in after_pull(own, advantage_from, remove, depth))


NEGLIGIBLE = 1e-24  # the fall figure's chances below this are left out (a side panel shows a percentage)


@lru_cache(maxsize=None)
def likely_drops(own: int, advantage_from: int, remove: bool) -> tuple[tuple[int, float], ...]:
    return tuple((drop, chance) for drop, chance in drop_table(own, advantage_from, remove) if chance >= NEGLIGIBLE)


@lru_cache(maxsize=None)
def pull_outcomes(countdown: int, advantage_from: int, remove: bool) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """A pull's table as cumulative chances (rising countdowns after it) and the drop to each, for
    sampling (cached by countdown, one lookup a pull: a tower of 10,000 can take thousands)."""
    return _cumulative(own_countdown(countdown, advantage_from), advantage_from, remove)


class _ByCountdown(dict):
    """countdown -> pull_outcomes(countdown, ...) for one threshold and kind of pull, filled as countdowns
    come: the hot loops' lookup is a dict's (a third of the cached three-argument call's cost a pull)."""

    def __init__(self, advantage_from: int, remove: bool):
        super().__init__()
        self.advantage_from, self.remove = advantage_from, remove

    def __missing__(self, countdown: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
        table = self[countdown] = pull_outcomes(countdown, self.advantage_from, self.remove)
        return table


@lru_cache(maxsize=None)
def pull_tables(advantage_from: int) -> tuple[dict, dict]:
    """pull_outcomes by countdown: [False] a plain pull's, [True] a pull and remove's."""
    return _ByCountdown(advantage_from, False), _ByCountdown(advantage_from, True)


@lru_cache(maxsize=None)
def _cumulative(own: int, advantage_from: int, remove: bool) -> tuple[tuple[float, ...], tuple[int, ...]]:
    total = 0.0
    cumulative, drops = [], []
    for drop, chance in drop_table(own, advantage_from, remove):
        total += chance
        cumulative.append(total)
        drops.append(drop)
    cumulative[-1] = 1.0
    return tuple(cumulative), tuple(drops)


@lru_cache(maxsize=None)
def drop_runs(advantage_from: int, remove: bool = False) -> Runs:
    """A pull's drops where the countdown is far above the advantage threshold, for runs of pulls."""
    drops: dict[int, float] = {}
    for drop, chance in drop_table(max(advantage_from, 13) + 6 * DEPTH, advantage_from, remove):
        drops[drop] = drops.get(drop, 0.0) + chance
    return Runs(drops)


def rolled(countdown: int, advantage_from: int, plain: int, removes: int, rng) -> list[int]:
    """The countdown after each pull of a pass's `plain` pull and `removes` pull-and-remove cards in
    a random order (until one fells the tower: 0): the pulls a pass makes are the first of them in
    such an order, whichever its skips cancel (returns.py). Each a remove or not by the count of each
    left, then rolled from its table."""
    uniform = rng.random
    tables = pull_tables(advantage_from)
    after = []
    while plain + removes and countdown:
        remove = removes > 0 and uniform() * (plain + removes) < removes
        plain, removes = (plain, removes - 1) if remove else (plain - 1, removes)
        cumulative, drops = tables[remove][countdown]
        countdown -= drops[bisect_left(cumulative, uniform())]
        after.append(countdown)
    return after
