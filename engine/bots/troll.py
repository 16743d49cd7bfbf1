"""The troll's adviser: searches every legal pair of actions this turn and judges where each leaves
the bridge after the flight phase. Used by the `h` hint and by `dicehall sim troll`.

It sees what a player sees: the bridge, the flight stacks, the set-aside cards, the deck's size.
It never looks at face-down cards or the deck order.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.games import troll
from engine.games.troll import COLUMNS, ROWS, TrollState

WIN = 1_000_000.0


@dataclass(frozen=True)
class Plan:
    commands: tuple
    score: float
    reason: str


def _fold(state: TrollState, events) -> TrollState:
    for event in events:
        state = troll.evolve(state, event)
    return state


def _articulations(state: TrollState, cells: set) -> int:
    """How many occupied positions the bridge could not lose without collapsing."""
    count = 0
    for pos in cells:
        stack = state.stack(pos)
        if len(stack) == 1:  # a deeper stack keeps the position occupied if its top flees
            if not troll.bridge_stands(troll.with_stack(state, pos, ())):
                count += 1
    return count


def features(state: TrollState) -> dict[str, float]:
    cells = troll.occupied(state)
    awake_top = awake_covered = 0
    for row in ROWS:
        for col in COLUMNS:
            stack = state.stack((row, col))
            if stack:
                awake_top += stack[-1].awake
                awake_covered += sum(card.awake for card in stack[:-1])
    coming = max(1, len(state.set_aside)) if (state.set_aside or state.deck) else 0
    troll_top = state.top(state.troll) if state.troll else None
    in_danger = bool(troll_top and troll_top.awake)
    return {
        "occupied": len(cells),
        "weak": _articulations(state, cells) if cells else 0,
        "awake": awake_top,
        "covered": awake_covered,
        "aside": len(state.set_aside),
        "danger": in_danger * min(1.0, coming / 6 * 1.5),
        "tools": sum(1 for c in state.carried if c.awake),
    }


WEIGHTS = {"occupied": 3.0, "weak": -4.0, "awake": -6.0, "covered": -20.0, "aside": -2.5, "danger": -60.0, "tools": 2.0}


def evaluate(state: TrollState) -> float:
    if state.end in ("won", "perfect"):
        return WIN + (1000 if state.end == "perfect" else 0)
    if state.end:
        return -WIN - len(state.deck)  # losing later (fewer cards left) is better
    return sum(WEIGHTS[name] * value for name, value in features(state).items())


def _reason(before: TrollState, events: list, after: TrollState, losing_alternatives: bool) -> str:
    """A few words on why: what the chosen actions do, from their own events."""
    if after.end in ("won", "perfect"):
        return "this wins" + (" perfectly" if after.end == "perfect" else "")
    if after.end:
        return "every line loses; this one keeps the most cards"
    words = []
    for event in events:
        if isinstance(event, troll.CardStomped):
            words.append(f"stomps the {event.card}")
        elif isinstance(event, troll.ClubUsed):
            words.append(f"clubs the {event.card}")
        elif isinstance(event, troll.DiamondThrown) and event.card:
            words.append(f"hits the {event.card}")
        elif isinstance(event, troll.SpadeUsed):
            words.append(f"digs up the {event.card}")
        elif isinstance(event, troll.CardPickedUp):
            words.append(f"takes the {event.card} to use")
        elif isinstance(event, troll.CardLaidDown):
            words.append(f"fills {event.row} {event.col}")
    if losing_alternatives:
        words.append("other lines collapse the bridge")
    top = after.top(after.troll) if after.troll else None
    if not words:
        words.append("keeps the troll off awake cards" if not (top and top.awake) else "the least bad place to stand")
    fled = [code for event in events if isinstance(event, troll.FlightPhase)
            for code, _, _, to in event.moves if to in (troll.LEFT_BANK, troll.RIGHT_BANK)]
    if fled:
        words.append(f"{' '.join(fled)} flee{'s' if len(fled) == 1 else ''}")
    return ", ".join(words[:3])


def best_turn(state: TrollState) -> Plan:
    """The best one or two actions left this turn, by searching every legal sequence."""
    lines = []  # (score, commands, events, final state)
    for first in troll.legal_commands(state):
        first_events = troll.decide(state, first)
        after_first = _fold(state, first_events)
        if troll.to_act(after_first) == 0 and after_first.turn == state.turn:
            for second in troll.legal_commands(after_first):
                second_events = troll.decide(after_first, second)
                final = _fold(after_first, second_events)
                lines.append((evaluate(final), (first, second), first_events + second_events, final))
        else:
            lines.append((evaluate(after_first), (first,), first_events, after_first))
    assert lines, "best_turn needs a state where the troll acts"
    score, commands, events, final = max(lines, key=lambda line: line[0])  # the first of equals
    losing = score > -WIN / 2 and any(line[0] <= -WIN / 2 for line in lines)
    return Plan(commands, score, _reason(state, list(events), final, losing))


def choose(state: TrollState) -> object:
    """The bot's next command: the first of its best plan."""
    return best_turn(state).commands[0]
