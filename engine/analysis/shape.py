"""Checking an analysis read from a file (saves/analyses.py) field by field: the pieces each game's
checker (`check_stored` beside its analyser) and the common reader use. Anything off raises
ShapeError with one line naming what and where; nothing here trusts a type it has not looked at."""
from __future__ import annotations

import math

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text


class ShapeError(DicehallError, ValueError):
    """An analysis read from a file that is not what its analyser writes: the message says what, in one line."""


def whole(value, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ShapeError(f"{what} is not a whole number from {low} to {high}")
    return value


def number(value, low: float, high: float, what: str) -> float:
    # an int is compared as it is: isfinite (and float) of one too large for a float raises OverflowError
    if type(value) not in (int, float) or (type(value) is float and not math.isfinite(value)) or not low <= value <= high:
        raise ShapeError(f"{what} is not a number from {low:g} to {high:g}")
    return float(value)


def events_at(values: list, expected: list[int]) -> bool:
    """Whether `values` are exactly these event numbers: whole numbers (True and 5.0 compare equal to
    1 and 5, and are not what an analyser writes)."""
    return len(values) == len(expected) and all(type(value) is int and value == event
                                                for value, event in zip(values, expected))


def maybe(value, low: float, high: float, what: str) -> float | None:
    return None if value is None else number(value, low, high, what)


def text(value, limit: int, what: str) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ShapeError(f"{what} is not text of at most {limit} characters")
    return clean_text(value, limit)


def rows(value, width: int, limit: int, what: str) -> list:
    """A list of at most `limit` lists of `width` fields each."""
    if not isinstance(value, list) or len(value) > limit:
        raise ShapeError(f"{what} is not a list of at most {limit} entries")
    for index, row in enumerate(value):
        if not isinstance(row, list) or len(row) != width:
            raise ShapeError(f"{what} {index + 1} is not a list of {width} fields")
    return value


def table(value, keys: set, what: str) -> dict:
    """A map with exactly these keys (the per-game figures: what the analyser writes, nothing else)."""
    if not isinstance(value, dict) or set(value) != keys:
        names = ", ".join(sorted(keys)) or "nothing"
        raise ShapeError(f"{what} is not a table of {names}")
    return value


def records(value, keys: set, limit: int, what: str) -> list:
    """A list of at most `limit` tables with exactly these keys."""
    if not isinstance(value, list) or len(value) > limit:
        raise ShapeError(f"{what} is not a list of at most {limit} entries")
    return [table(item, keys, f"{what} {n}") for n, item in enumerate(value, start=1)]


def ascending(events: list[int], what: str) -> None:
    """Event numbers in order, each once (a curve, the odds along the game)."""
    if any(later <= earlier for earlier, later in zip(events, events[1:])):
        raise ShapeError(f"the {what} are not in order of event, each once")


__all__ = ["ShapeError", "ascending", "events_at", "maybe", "number", "records", "rows", "table", "text", "whole"]
