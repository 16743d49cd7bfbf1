"""Reinforce and converge, the actions besides attack and resupply.

Reinforce: roll a roller for one of your troops; higher than its face (strictly), and the troop may
roll back in; a 6 may also bring back a troop out of play, with fewer than 8 in play. Converge: the
first does nothing by itself; answered by the opponent's very next action, the area shrinks by 2"
on each side (down to 3") and every troop now outside rolls back in.
"""
from __future__ import annotations

from dicehall.engine.core import IllegalCommand
from dicehall.engine.games.bones.area import TROOPS, area_bounds
from dicehall.engine.games.bones.commands import Converge, Reinforce, RollIn
from dicehall.engine.games.bones.events import Converged, ReinforceCalled, ReinforcementsTaken
from dicehall.engine.games.bones.landings import roll_in
from dicehall.engine.games.bones.state import BonesState, end_turn, troop_in_play
from dicehall.engine.session import replace

SMALLEST = 300  # converging stops at 3"
SHRINK = 200  # each completed converge takes 2" off the side


def reinforce_options(state: BonesState) -> tuple[bool, bool]:
    """(the troop may roll back in, an extra troop may roll in) after the reinforce roll."""
    assert state.reinforce_troop is not None  # set by the reinforce call before its roll
    troop = state.troops[state.player][state.reinforce_troop]
    back = troop is not None and state.reinforce_face > troop.face
    extra = state.reinforce_face == 6 and len(state.in_play(state.player)) < TROOPS
    return back, extra


def roll_in_choices(state: BonesState) -> list[RollIn]:
    back, extra = reinforce_options(state)
    return [RollIn(t, e) for t in ((False, True) if back else (False,)) for e in ((False, True) if extra else (False,))]


# ----- deciding -----
def reinforce(state: BonesState, seat: int, command: Reinforce) -> tuple[object, ...]:
    troop_in_play(state, seat, command.troop, "reinforce")
    return (ReinforceCalled(seat, command.troop),)


def take_reinforcements(state: BonesState, seat: int, command: RollIn) -> tuple[object, ...]:
    if state.stage != "reinforce_choice":
        raise IllegalCommand("troops roll back in only after a reinforce roll")
    back, extra = reinforce_options(state)
    if command.troop and not back:
        raise IllegalCommand(f"the roll ({state.reinforce_face}) is not higher than the troop's face")
    if command.extra and not extra:
        raise IllegalCommand("an extra troop needs a 6 and fewer than 8 troops in play")
    spare = next(t for t, troop in enumerate(state.troops[seat]) if troop is None) if command.extra else None
    return (ReinforcementsTaken(seat, state.reinforce_troop if command.troop else None, spare),)


def converge(state: BonesState, seat: int, command: Converge) -> tuple[object, ...]:
    return (Converged(seat),)


# ----- the fold -----
def reinforce_called(state: BonesState, event: ReinforceCalled) -> BonesState:
    return replace(state, stage="reinforce_roll", reinforce_troop=event.troop, converge_by=None)


def reinforce_die_kept(state: BonesState) -> BonesState:
    back, extra = reinforce_options(state)
    if back or extra:
        return replace(state, stage="reinforce_choice")
    return end_turn(state)


def reinforcements_taken(state: BonesState, event: ReinforcementsTaken) -> BonesState:
    picks = tuple((event.seat, t) for t in (event.troop, event.extra) if t is not None)
    return roll_in(state, picks, "end")


def converged(state: BonesState, event: Converged) -> BonesState:
    if state.converge_by == 1 - event.seat:
        return shrink(replace(state, converge_by=None))
    return end_turn(replace(state, converge_by=event.seat))


def shrink(state: BonesState) -> BonesState:
    """A completed converge: the area loses 2" a side, and the troops now outside roll back in."""
    if state.side <= SMALLEST:
        return end_turn(state)
    state = replace(state, side=state.side - SHRINK)
    low, high = area_bounds(state)
    outside = tuple((s, t) for s in (0, 1) for t, troop in enumerate(state.troops[s])
                    if troop is not None and not (low <= troop.x <= high and low <= troop.y <= high))
    return roll_in(state, outside, "end")
