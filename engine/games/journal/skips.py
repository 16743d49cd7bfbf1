"""The skips a reshuffled deck's passes carry, as a chain: a pass's skip cards cancel the pull cards
after them, those left over carry into the next pass, and the pulls a pass makes follow from the
skips it starts and ends with (odds.py samples whole games of such a deck from it)."""
from __future__ import annotations

from functools import lru_cache
from math import comb


@lru_cache(maxsize=None)
def skips_left(pulls: int, skips: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The skips a pass of `pulls` pull cards and `skips` skip cards leaves when it starts with none:
    the highest count of skip cards over pull cards in any stretch that ends the pass (Lindley's
    recursion), by the reflection principle: at least k with chance C(n, pulls + k) / C(n, pulls).
    Cumulative chances and the counts, rising."""
    n, ways = pulls + skips, comb(pulls + skips, pulls)
    at_least = [comb(n, pulls + k) / ways for k in range(skips + 1)] + [0.0]
    cumulative = tuple(1.0 - at_least[k + 1] for k in range(skips + 1))
    return cumulative[:-1] + (1.0,), tuple(range(skips + 1))


@lru_cache(maxsize=None)
def skip_steps(pulls: int, skips: int, most: int, passes: int) -> tuple[tuple[float, ...], ...]:
    """The skips carried after `passes` passes from each count 0..most carried before: cumulative
    chances by count (the one-pass chain, skips_left, raised to that power)."""
    cumulative, counts = skips_left(pulls, skips)
    single = [[0.0] * (most + 1) for _ in range(most + 1)]
    for start in range(most + 1):
        before = 0.0
        for chance, left in zip(cumulative, counts):
            single[start][max(start - (pulls - skips), left)] += chance - before
            before = chance
    power, size = single, 1
    while size < passes:
        power = [[sum(row[k] * power[k][j] for k in range(most + 1)) for j in range(most + 1)] for row in power]
        size *= 2
    table = []
    for row in power:
        total, rising = 0.0, []
        for chance in row:
            total += chance
            rising.append(total)
        rising[-1] = 1.0
        table.append(tuple(rising))
    return tuple(table)
