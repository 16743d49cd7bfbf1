"""Reinforce, resupply and converge: one key each, then a line that says what will happen, which
Enter or y confirms. Here: the command each key asks for and those words."""
from __future__ import annotations

from dicehall.engine.games import bones
from dicehall.engine.games.bones import SIDES, BonesState, Converge, Reinforce, Resupply, troop_name
from dicehall.tui.screens.bones.troops import troop_at


def order(state: BonesState, seat: int, what: str, number: int | None):
    """(command, words) for `what` ("reinforce", "resupply" or "converge") by `seat` with troop
    `number` (None: no troop chosen); or why it cannot be asked, as a string."""
    if what == "converge":
        if state.converge_by == 1 - seat:
            words = ("Converge, answering the converge: " + (
                f"the area shrinks to {(state.side - bones.SHRINK) // 100} in; troops outside roll back in"
                if state.side > bones.SMALLEST else "the area is at its smallest, nothing happens"))
        else:
            words = f"Converge: nothing now; if {SIDES[1 - seat]} converges next, the area shrinks"
        return Converge(), words
    if number is None:
        return f"you have no troop to {what} with"
    troop = troop_at(state, seat, number)
    name = troop_name(seat, number)
    if what == "reinforce":
        higher = f"above {troop.face} lets it roll back in" if troop.face < 6 else "a 6 never rolls a 6 back in"
        return Reinforce(number), f"Reinforce {name} ({troop.face}): roll a die; {higher}; a 6 may bring back a troop"
    gain = min(bones.MAX_SUPPLY, state.supply[seat] + troop.face)
    words = f"Resupply with {name}: it leaves play, supply {state.supply[seat]} -> {gain}"
    if len(state.in_play(seat)) == 1:
        words += " (your last troop: you lose)"
    return Resupply(number), words
