"""Choosing a troop on the War of Bones map: which troops a player may go through now, the one an
arrow picks, a troop in words, and the troops picked at Reengage."""
from __future__ import annotations

from dicehall.engine.games.bones import BonesState, Reengage, Troop, troop_name


def troop_at(state: BonesState, seat: int, number: int) -> Troop:
    """`seat`'s troop `number`, which the caller knows is in the area (chosen, attacking, a target)."""
    troop = state.troops[seat][number]
    assert troop is not None, f"{troop_name(seat, number)} is out of play"
    return troop


def troop_words(state: BonesState, seat: int, number: int) -> str:
    """A troop as the words name it, with its face while it is in the area: B#5 (3)."""
    troop = state.troops[seat][number]
    return f"{troop_name(seat, number)} ({troop.face})" if troop else troop_name(seat, number)


def own_troops(state: BonesState, seat: int) -> list[tuple[int, int]]:
    """The troops the player to act goes through: their own, and in Reengage the enemy's too."""
    if state.stage == "reengage":
        return [(s, t) for s in (seat, 1 - seat) for t in state.in_play(s)]
    return [(seat, t) for t in state.in_play(seat)]


def nearest_troop(state: BonesState, here_key: tuple[int, int], troops: list, direction: str) -> tuple[int, int] | None:
    """The troop an arrow moves to from `here_key`: the nearest one ahead, preferring troops within
    45 degrees of the direction (sideways no more than ahead); only when there is none, the nearest
    of the rest further that way."""
    here = troop_at(state, *here_key)
    best: dict[bool, tuple[tuple[int, int] | None, float | None]] = {True: (None, None), False: (None, None)}  # within 45 degrees or not: (key, score)
    for key in troops:
        if key == here_key:
            continue
        other = troop_at(state, *key)
        dx, dy = other.x - here.x, other.y - here.y
        along, across = {"right": (dx, dy), "left": (-dx, dy), "down": (dy, dx), "up": (-dy, dx)}[direction]
        if along <= 0:
            continue
        cone = abs(across) <= along
        value = along + 2 * abs(across)
        score = best[cone][1]
        if score is None or value < score:
            best[cone] = (key, value)
    return best[True][0] if best[True][0] is not None else best[False][0]


class ReengagePicks:
    """The troops picked to roll back in at Reengage: the player's own and the enemy's (at most as
    many as their own; the engine says so if not)."""

    def __init__(self) -> None:
        self.picked: set[tuple[int, int]] = set()

    def clear(self) -> None:
        self.picked = set()

    def toggle(self, troop: tuple[int, int]) -> str:
        """Pick or unpick a troop; the words that say which."""
        if troop in self.picked:
            self.picked.discard(troop)
            return f"{troop_name(*troop)} unpicked"
        self.picked.add(troop)
        return f"{troop_name(*troop)} picked to roll back in"

    def split(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(own, theirs) as `seat` sees them, each by number."""
        own = tuple(sorted(t for s, t in self.picked if s == seat))
        theirs = tuple(sorted(t for s, t in self.picked if s != seat))
        return own, theirs

    def command(self, seat: int) -> Reengage:
        return Reengage(*self.split(seat))

    def marks(self) -> dict:
        return {key: ("", "+", "underline") for key in self.picked}

    def describe(self, state: BonesState, seat: int, selected: tuple[int, int] | None) -> list[str]:
        own, theirs = self.split(seat)
        lines = ["Tab/arrows: troop  Space: pick  Enter: roll the picks in",
                 "Picked: " + (", ".join([troop_name(seat, t) for t in own] + [troop_name(1 - seat, t) for t in theirs]) or "none")
                 + f" (theirs at most as many as yours: {len(theirs)}/{len(own)})"]
        if selected:
            lines.append(f"On {troop_words(state, *selected)}")
        return lines
