"""The flight phase (the rules' turn, step 3): every awake top card but the troll's moves one
position toward its nearer bank, or away from the troll standing in its way; cards past position 1
or 6 reach the bank, flee and are set aside.
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.games.troll.bridge import COLUMNS, LEFT_BANK, RIGHT_BANK, ROWS, TrollState, card
from dicehall.engine.replace import replaced


@dataclass(frozen=True)
class FlightPhase:
    """Each move is (card, row, from, to); to is 0 for the left bank, 7 for the right bank."""

    moves: tuple[tuple[str, str, int, int], ...]


def flight_moves(state: TrollState) -> tuple[tuple[str, str, int, int], ...]:
    """Every awake top card but the troll's, one step toward its nearer bank unless the troll is
    in the way; listed upper row first, left to right (landings and set-aside follow this order)."""
    moves = []
    troll = state.troll
    for pos, stack in zip(_POSITIONS, state.upper + state.lower):  # the rows read directly (every turn of every playout)
        if not stack or not stack[-1].awake or troll == pos:
            continue
        row, col = pos
        step = -1 if col <= 3 else 1
        if troll is not None and troll[0] == row and (troll[1] - col) * step > 0:
            step = -step  # the troll stands between it and that bank
        moves.append((stack[-1].code, row, col, col + step))
    return tuple(moves)


_POSITIONS = tuple((row, col) for row in ROWS for col in COLUMNS)  # upper row first, left to right


def fly(state: TrollState, moves: tuple[tuple[str, str, int, int], ...]) -> TrollState:
    """All move at once: lift every moving card first, then land them in order (left first). The
    rows are changed as lists and the state made once (a new state per card cost a tenth of a playout)."""
    if not moves:  # a calm bridge: the rows as they are
        return replaced(state, {"phase": "checks"})
    rows = {"upper": list(state.upper), "lower": list(state.lower)}
    for _, row, start, _ in moves:
        rows[row][start - 1] = rows[row][start - 1][:-1]
    fled = []
    for code, row, _, to in moves:
        if to in (LEFT_BANK, RIGHT_BANK):
            fled.append(code)
        else:
            rows[row][to - 1] = rows[row][to - 1] + (card(code, True),)
    return replaced(state, {"upper": tuple(rows["upper"]), "lower": tuple(rows["lower"]),
                            "set_aside": state.set_aside + tuple(fled), "phase": "checks"})
