"""The flight phase (the rules' turn, step 3): every awake top card but the troll's moves one
position toward its nearer bank, or away from the troll standing in its way; cards past position 1
or 6 reach the bank, flee and are set aside.
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.games.troll.bridge import COLUMNS, LEFT_BANK, RIGHT_BANK, ROWS, Card, TrollState, with_stack
from dicehall.engine.session import replace


@dataclass(frozen=True)
class FlightPhase:
    """Each move is (card, row, from, to); to is 0 for the left bank, 7 for the right bank."""

    moves: tuple[tuple[str, str, int, int], ...]


def flight_moves(state: TrollState) -> tuple[tuple[str, str, int, int], ...]:
    """Every awake top card but the troll's, one step toward its nearer bank unless the troll is
    in the way; listed upper row first, left to right (landings and set-aside follow this order)."""
    moves = []
    for row in ROWS:
        for col in COLUMNS:
            top = state.top((row, col))
            if top is None or not top.awake or state.troll == (row, col):
                continue
            step = -1 if col <= 3 else 1
            if state.troll is not None and state.troll[0] == row and (state.troll[1] - col) * step > 0:
                step = -step  # the troll stands between it and that bank
            moves.append((top.code, row, col, col + step))
    return tuple(moves)


def fly(state: TrollState, moves: tuple[tuple[str, str, int, int], ...]) -> TrollState:
    """All move at once: lift every moving card first, then land them in order (left first)."""
    for _, row, start, _ in moves:
        state = with_stack(state, (row, start), state.stack((row, start))[:-1])
    fled = []
    for code, row, _, to in moves:
        if to in (LEFT_BANK, RIGHT_BANK):
            fled.append(code)
        else:
            state = with_stack(state, (row, to), state.stack((row, to)) + (Card(code, True),))
    return replace(state, set_aside=state.set_aside + tuple(fled), phase="checks")
