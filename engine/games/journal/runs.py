"""Long runs of independent draws sampled at once: the sum of 4, 16, 64, ... draws from one
distribution (a pull's drop, a day's die) as its own exact distribution, so that a game of
thousands of pulls or days costs a few dozen samples instead of thousands.

Each sum's table is the convolution of the one below with itself (4 draws are two 2s, 16 are two
8s), leaving out chances under PRUNE (far below what a sample of a float can tell apart)."""
from __future__ import annotations

import math
import random
from bisect import bisect_left
from functools import lru_cache

PRUNE = 1e-20
LARGEST = 4 ** 5  # the longest run sampled at once (its table: about a thousand sums, 0.2 s to build)


def convolve(first: dict[int, float], second: dict[int, float]) -> dict[int, float]:
    total: dict[int, float] = {}
    for a, p in first.items():
        for b, q in second.items():
            total[a + b] = total.get(a + b, 0.0) + p * q
    return {value: chance for value, chance in total.items() if chance >= PRUNE}


class Runs:
    """Sums of runs of draws from `chances` (value -> chance, values >= 0), sampled with a float each."""

    def __init__(self, chances: dict[int, float]):
        self.single = {value: chance for value, chance in chances.items() if chance >= PRUNE}
        self.mean = sum(value * chance for value, chance in self.single.items())
        self._tables: dict[int, tuple[tuple[float, ...], tuple[int, ...]]] = {}
        self._sums = {1: self.single}

    def _sum_of(self, size: int) -> dict[int, float]:
        if size not in self._sums:
            half = self._sum_of(size // 2)
            self._sums[size] = convolve(half, half)
        return self._sums[size]

    def sum_of(self, count: int) -> dict[int, float]:
        """The sum of any number of draws (its powers of two convolved)."""
        total, size = {0: 1.0}, 1
        while count:
            if count & 1:
                total = convolve(total, self._sum_of(size))
            count, size = count >> 1, size * 2
        return total

    def most_of(self, count: int) -> int:
        """The largest sum of `count` draws (but for chances under PRUNE)."""
        most, size = 0, 1
        while count:
            if count & 1:
                most += max(self._sum_of(size))
            count, size = count >> 1, size * 2
        return most

    def beyond(self, count: int) -> int:
        """A sum that `count` draws pass with a chance under PRUNE, by Chernoff's bound (at the best of
        forty exponents: each is a bound) without their sum's table (a tenth of its cost)."""
        best = math.inf
        for step in range(1, 41):
            t = step / 40
            generating = sum(chance * math.exp(t * value) for value, chance in self.single.items())
            best = min(best, (count * math.log(generating) - math.log(PRUNE)) / t)
        return math.ceil(best)

    def table(self, size: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """The sum of `size` draws (a power of two) as cumulative chances and values, rising."""
        if size not in self._tables:
            items = sorted(self._sum_of(size).items())
            cumulative, total = [], 0.0
            for _, chance in items:
                total += chance
                cumulative.append(total)
            self._tables[size] = (tuple(c / total for c in cumulative), tuple(value for value, _ in items))
        return self._tables[size]

    def run_under(self, room: int, rng: random.Random, smallest: int = 4) -> tuple[int, int]:
        """Draws taken in runs as long as their sum surely stays under `room` (each run's largest sum
        still fits): (how many draws, their sum). The draws after it are the caller's, one at a time."""
        taken = total = 0
        size = LARGEST
        while size >= smallest:
            if size in self._tables or room - total > 12 * size * self.mean:  # worth its table: a dozen runs to come
                cumulative, values = self.table(size)
                while total + values[-1] < room:
                    total += values[bisect_left(cumulative, rng.random())]
                    taken += size
            size //= 4
        return taken, total


@lru_cache(maxsize=None)
def day_runs() -> Runs:
    """A day's die: the cards a day draws."""
    return Runs({face: 1 / 6 for face in range(1, 7)})


def days_to_draw(cards: int, rng: random.Random) -> tuple[int, int]:
    """How many more days' dice it takes to draw `cards` more cards, and the cards those days draw."""
    days, drawn = day_runs().run_under(cards, rng)
    while drawn < cards:
        drawn += int(rng.random() * 6) + 1
        days += 1
    return days, drawn


@lru_cache(maxsize=None)
def _trials(chance: float) -> Runs:
    return Runs({0: 1 - chance, 1: chance})


def successes(trials: int, chance: float, rng: random.Random) -> int:
    """How many of `trials` independent trials (a salvation die each) succeed: runs of a power of
    two trials, one sample each (their sums exact convolutions)."""
    total, size = 0, 1
    while trials:
        if trials & 1:
            cumulative, values = _trials(chance).table(size)
            total += values[bisect_left(cumulative, rng.random())]
        trials, size = trials >> 1, size * 2
    return total


# Dice from random bytes, many at once in C (a pass's days cost a Python loop a die otherwise): a byte
# under 252 (42 sixes) is a face, one of 252 or more is left out, so each face is as likely.
_FACES = bytes(byte % 6 + 1 if byte < 252 else 0 for byte in range(256))
_WINS = {lowest: bytes((byte % 6 + 1 >= lowest) if byte < 252 else 2 for byte in range(256)) for lowest in range(1, 8)}


def _bytes(count: int, rng: random.Random) -> bytes:
    return rng.getrandbits(count * 8).to_bytes(count, "little")  # rng.randbytes, without its Python frame


def dice(count: int, rng: random.Random) -> bytes:
    """`count` dice's faces or more (the card loop's days draw on them, a few bytecodes a die)."""
    faces = b""
    while len(faces) < count:
        faces += _bytes(count - len(faces) + 8, rng).translate(_FACES).replace(b"\0", b"")
    return faces


def dice_covering(cards: int, rng: random.Random) -> tuple[bytes, int]:
    """The day dice rolled until they draw `cards` cards (one at least): their faces, and the cards drawn."""
    faces = _bytes(cards // 3 + 8, rng).translate(_FACES).replace(b"\0", b"")  # about 3.5 cards a die: nearly always enough
    # the first dice's sum in C, at about as many as cover the cards, then a die at a time back or on to the
    # first that covers them (a third of their running sums' cost)
    count = min(len(faces), cards * 2 // 7)
    drawn = sum(faces[:count])
    while drawn >= cards:
        count -= 1
        drawn -= faces[count]
    while drawn < cards:
        if count == len(faces):  # all of them short of the cards: more dice
            faces += _bytes(cards // 3 + 8, rng).translate(_FACES).replace(b"\0", b"")
            continue
        drawn += faces[count]
        count += 1
    return faces[:count], drawn


def salvation_dice(days: int, lowest: int, rng: random.Random) -> bytes:
    """`days` salvation dice, each 1 if it shows `lowest` or more, else 0."""
    wins = b""
    while len(wins) < days:
        wins += _bytes(days - len(wins) + 4, rng).translate(_WINS[lowest]).replace(b"\2", b"")
    return wins[:days]
