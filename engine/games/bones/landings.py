"""Landings: troops rolled into the area, one at a time.

Setup, Reengage, a reinforcement and a completed converge all pick troops up and queue them
(`roll_in`); while the queue is not empty the game waits for a landing chance: a uniform point on
the area's 1/100 inch grid and a face. A point closer than one die width to a die already in the
area is a `LandingMissed` and is drawn again. When the queue is empty the game goes on to what the
landings were for (`after`: the roll-off, the first turn, or the end of a turn).
"""
from __future__ import annotations

from dicehall.engine.core import ChanceNeeded
from dicehall.engine.games.bones.area import Troop, area_bounds, overlaps, troop_name
from dicehall.engine.games.bones.events import LandingMissed, TroopLanded
from dicehall.engine.games.bones.state import BonesState, end_turn, set_troop
from dicehall.engine.session import replace


def roll_in(state: BonesState, picks: tuple[tuple[int, int], ...], after: str) -> BonesState:
    """Pick these troops up and queue them to be rolled in, one at a time."""
    for seat, troop in picks:
        state = set_troop(state, seat, troop, None)
    return after_landings(replace(state, landing=picks, after=after))


def after_landings(state: BonesState) -> BonesState:
    if state.landing:
        return replace(state, stage="landing")
    if state.after == "rolloff":
        return replace(state, stage="rolloff", after="")
    if state.after == "play":
        return replace(state, stage="action", player=state.first_strike, turn=1, after="")
    return end_turn(state)


def landed(state: BonesState, event: TroopLanded) -> BonesState:
    state = set_troop(state, event.seat, event.troop, Troop(event.x, event.y, event.face))
    return after_landings(replace(state, landing=state.landing[1:]))


def landing_needed(state: BonesState) -> ChanceNeeded:
    """The next queued troop's landing: x and y on the area's grid, edges included, and a face."""
    seat, troop = state.landing[0]
    return ChanceNeeded(spec=(state.side + 1, state.side + 1, 6),
                        prompt=f"roll {troop_name(seat, troop)} into the area", dice=False)


def landing_event(state: BonesState, draws: tuple[int, ...]) -> TroopLanded | LandingMissed:
    seat, troop = state.landing[0]
    low, _ = area_bounds(state)
    x, y = low + draws[0], low + draws[1]
    if any(overlaps(x, y, other) for other in state.dice_in_area()):
        return LandingMissed(seat, troop, x, y)
    return TroopLanded(seat, troop, x, y, draws[2] + 1)
