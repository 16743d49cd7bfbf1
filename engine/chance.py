"""Chance sources: where dice faces and other random outcomes come from.

The seeded source is counter-based: draw k of a seed is a pure function of (seed, k), built on
BLAKE2b, so a game replays identically on every Python version and undo can never reroll.
"""
from __future__ import annotations

from hashlib import blake2b

_TWO64 = 1 << 64


def seeded_draw(seed: int, k: int, n: int) -> int:
    """Draw k of `seed`: an integer in range(n), uniform (rejection sampling, no modulo bias)."""
    if n < 1:
        raise ValueError("a draw needs at least one outcome")
    limit = _TWO64 - (_TWO64 % n)
    retry = 0
    while True:
        h = blake2b(f"dicehall:{seed}:{k}:{retry}".encode(), digest_size=8).digest()
        value = int.from_bytes(h, "big")
        if value < limit:
            return value % n
        retry += 1


def daily_seed(game: str, day: str) -> int:
    """The same seed for everyone on a date (`day`, ISO): a hash of the game and the date. The
    caller says which day it is, so the engine reads no clock."""
    return int.from_bytes(blake2b(f"dicehall daily {game} {day}".encode(), digest_size=4).digest(), "big")


def seeded_draws(seed: int, k: int, spec: tuple[int, ...]) -> tuple[int, ...]:
    """Draws k, k+1, ... of `seed`, one per entry of `spec` (each entry is a range size)."""
    return tuple([seeded_draw(seed, k + i, n) for i, n in enumerate(spec)])


def d6(seed: int, k: int) -> int:
    """The face (1-6) of draw k of `seed` read as a die."""
    return seeded_draw(seed, k, 6) + 1
