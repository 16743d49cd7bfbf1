"""The area and the troops in it: its measures, a troop's place and face, range and overlap.

Positions are a troop's centre in hundredths of an inch, x from the left and y from the top edge
of the original 9" area (0..900). The area is always centred, so its edges are `area_bounds`.
Ranges and overlaps are decided exactly, in whole numbers (no square root at the boundary).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

TROOPS = 8  # per side, numbered 0..7 in the engine, #1..#8 in words
ROLLERS = 3
FULL = 900  # the starting area's side, in hundredths of an inch
DIE = 62.5  # one die width in hundredths of an inch
SIDES = ("A", "B")  # seat 0 is side A, seat 1 side B


class Sized(Protocol):
    """What the area's edges depend on (a BonesState): the side of the area as it has shrunk. A
    protocol, so that this module, which state.py builds on, needs nothing from state.py."""

    @property
    def side(self) -> int: ...


@dataclass(frozen=True)
class Troop:
    """A troop in the area: its centre (hundredths of an inch) and its face (firepower)."""

    x: int
    y: int
    face: int


def area_bounds(state: Sized) -> tuple[int, int]:
    """The area's low and high edge (the same for x and y), in hundredths of an inch."""
    low = (FULL - state.side) // 2
    return low, low + state.side


def distance(a: Troop, b: Troop) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def gap(a: Troop, b: Troop) -> float:
    """The gap between two dice, in hundredths of an inch (centre distance minus one die width)."""
    return distance(a, b) - DIE


def in_range(a: Troop, b: Troop, firepower: int) -> bool:
    """Exact: gap <= firepower die widths, i.e. centre distance <= (firepower + 1) * 62.5."""
    dx, dy = a.x - b.x, a.y - b.y
    return 4 * (dx * dx + dy * dy) <= (125 * (firepower + 1)) ** 2


def overlaps(x: int, y: int, other: Troop) -> bool:
    """Closer than one die width (a centre distance under 62.5 hundredths)."""
    dx, dy = x - other.x, y - other.y
    return 4 * (dx * dx + dy * dy) < 125 * 125


def troop_name(seat: int, troop: int) -> str:
    """A troop in words: side and number, A#1..B#8 (the # keeps the number apart from a face)."""
    return f"{SIDES[seat]}#{troop + 1}"
