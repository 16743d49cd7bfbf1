"""The end-of-turn checks (the rules' turn, step 4) and the game's outcome: does the bridge stand
(and where it broke if not), is it calm, has it stayed unsettled too long, and the score.
`end_of_turn` strings the flight phase, the checks and the next turn's start together.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from dicehall.engine.core import Outcome, Result
from dicehall.engine.games import entry_of
from dicehall.engine.games.troll.awakening import next_turn
from dicehall.engine.games.troll.bridge import DIRECTIONS, ROWS, TrollState, neighbour, occupied, place
from dicehall.engine.games.troll.flight import FlightPhase, flight_moves, fly

QUIET_LIMIT = 10  # dicehall's decision: quiet turns in a row before the bridge wins


# ----- events -----
@dataclass(frozen=True)
class BridgeCollapsed:
    turn: int


@dataclass(frozen=True)
class TrollWon:
    perfect: bool


@dataclass(frozen=True)
class BridgeUnsettled:
    quiet_turns: int


# ----- the checks -----
def bridge_stands(state: TrollState) -> bool:
    """Occupied positions connect a position 1 to a position 6 through orthogonal steps."""
    return _connects_the_banks(occupied(state))


@lru_cache(maxsize=None)
def _connects_the_banks(cells: frozenset) -> bool:
    """bridge_stands for one set of occupied positions, remembered (at most 4,096 sets): every turn
    of every playout asks it."""
    todo = deque(p for p in cells if p[1] == 1)
    seen = set(todo)
    while todo:
        pos = todo.popleft()
        if pos[1] == 6:
            return True
        for direction in DIRECTIONS:
            step = neighbour(pos, direction)
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    return False


def collapse_cause(state: TrollState) -> str:
    """Where a fallen bridge is broken, in words: how far the occupied positions reach from the left
    bank and which empty positions stop them (derived from the bridge as it stands)."""
    cells = occupied(state)
    todo = deque(p for p in cells if p[1] == 1)
    seen = set(todo)
    while todo:
        pos = todo.popleft()
        for direction in DIRECTIONS:
            step = neighbour(pos, direction)
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    if not seen:
        return "no path from bank to bank: upper 1 and lower 1 are empty"
    far = max(col for _, col in seen)
    gaps = [place((row, far + 1)) for row in ROWS if (row, far) in seen]
    return f"no path from bank to bank: the left bank's part ends at column {far} ({' and '.join(gaps)} empty)"


def calm(state: TrollState) -> bool:
    """No card on the bridge is awake, covered ones included."""
    return not any(card.awake for row in (state.upper, state.lower) for stack in row for card in stack)


def end_of_turn(state: TrollState) -> list[object]:
    """The flight phase, the checks and the next turn's start, as events."""
    flight, last, _ = turn_end(state)
    return [flight, last]


def turn_end(state: TrollState) -> tuple[FlightPhase, object, TrollState]:
    """end_of_turn's two events and the state after the flight phase (the first one's fold), which
    the checks needed anyway: decide hands it on rather than flying the cards again."""
    flight = FlightPhase(flight_moves(state))
    state = fly(state, flight.moves)
    if not bridge_stands(state):
        return flight, BridgeCollapsed(state.turn), state
    if not state.deck and not state.set_aside and calm(state):
        return flight, TrollWon(perfect=len(occupied(state)) == 12), state
    if state.quiet_turns >= QUIET_LIMIT:
        return flight, BridgeUnsettled(state.quiet_turns), state
    return flight, next_turn(state), state


# ----- the outcome -----
MEASURE = entry_of("troll").measure  # the catalogue's: what its results count, which way is better


def outcome(state: TrollState) -> Outcome | None:
    if not state.end:
        return None
    if state.end in ("won", "perfect"):
        return Outcome(winners=(0,), summary=MEASURE.perfect if state.end == "perfect" else "won")
    if state.end == "collapsed":
        summary = "lost: the bridge collapsed"  # replays record this; end_words gives the cause
    elif state.end == "flew":
        assert state.troll is not None  # it flew from where it stood
        summary = f"lost: the troll flew away with the {state.set_aside[-1]} at {place(state.troll)}"
    else:
        summary = f"lost: the bridge would not settle ({QUIET_LIMIT} quiet turns)"
    return Outcome(winners=(), summary=summary)


def result(state: TrollState, seat: int) -> Result | None:
    """The cards left in the deck at the end (the contract's result), the fewest best; a perfect
    win ranks above a win, a win above any loss."""
    if not state.end:
        return None
    left = len(state.deck)
    cards = f"{left} card{'' if left == 1 else 's'} left"
    won, perfect = state.end in ("won", "perfect"), state.end == "perfect"
    words = (MEASURE.perfect if perfect else "won") + (f", {cards}" if left else "") if won else f"lost, {cards}"
    return MEASURE.result(left, words, won, perfect)
