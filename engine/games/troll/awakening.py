"""The awakening phase (the rules' turn, step 1): which cards a turn plays onto the flight stacks,
where each one's die roll lands, and what it does there (wakes a dormant card, or flies an awake
one away, with the troll if it stands on it).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dicehall.engine.games.troll.bridge import COLUMNS, TrollState, row_of, stack_change, top_change
from dicehall.engine.replace import replaced
from dicehall.engine.session import replace


# ----- events -----
@dataclass(frozen=True)
class TurnBegan:
    """cards: what this awakening phase plays, in order; from_deck: the deck's top card."""

    turn: int
    cards: tuple[str, ...]
    from_deck: bool


@dataclass(frozen=True)
class AwakeningRolled:
    """Chance: `card` goes onto its flight stack and the die picks the position in `row`.

    col is where the awakening landed (0: the row is empty); result is "woke", "flew",
    "troll flew" or "nothing"."""

    card: str
    row: str
    face: int
    col: int
    result: str
    typed: bool = False


# ----- the turn's cards -----
def next_turn(state: TrollState) -> TurnBegan:
    if state.set_aside:
        return TurnBegan(state.turn + 1, state.set_aside, False)
    if state.deck:
        return TurnBegan(state.turn + 1, state.deck[:1], True)
    return TurnBegan(state.turn + 1, (), False)  # a quiet turn: nothing awakens


def begin_turn(state: TrollState, event: TurnBegan) -> TrollState:
    """The turn's cards taken from the set-aside cards or the deck; a quiet turn goes straight to
    the troll's actions."""
    changes: dict[str, Any] = ({"deck": state.deck[len(event.cards):]} if event.from_deck
                               else {"set_aside": state.set_aside[len(event.cards):]})
    changes.update(turn=event.turn, awakening=event.cards, stood=(state.troll,),
                   quiet_turns=0 if event.cards else state.quiet_turns + 1,
                   phase="awakening" if event.cards else "actions", actions_left=0 if event.cards else 2)
    return replaced(state, changes)  # every turn's end in every playout: unchecked


# ----- one awakening -----
def awakening_target(state: TrollState, row: str, face: int) -> int:
    """The column one awakening lands on: the rolled one, else toward the nearer bank, else the
    other way; 0 when the row is empty."""
    return _target(_filled(state, row), face)


def row_targets(state: TrollState, row: str) -> tuple[int, ...]:
    """awakening_target for each face 1 to 6 (the adviser weighs all six every judgement, for each
    row: the last answer per row is kept for the same stacks, the same tuple)."""
    stacks = state.upper if row == "upper" else state.lower
    last = _last_targets.get(row)
    if last is not None and last[0] is stacks:
        return last[1]
    targets = _row_targets(tuple(map(bool, stacks)))
    _last_targets[row] = (stacks, targets)  # one tuple, set at once: a thread reads all of it or none
    return targets


_last_targets: dict[str, tuple] = {}


def _filled(state: TrollState, row: str) -> tuple[bool, ...]:
    return tuple(map(bool, state.upper if row == "upper" else state.lower))


def _target(filled: tuple[bool, ...], face: int) -> int:
    if filled[face - 1]:
        return face
    toward = range(face - 1, 0, -1) if face <= 3 else range(face + 1, 7)
    away = range(face + 1, 7) if face <= 3 else range(face - 1, 0, -1)
    for col in (*toward, *away):
        if filled[col - 1]:
            return col
    return 0


@lru_cache(maxsize=None)
def _row_targets(filled: tuple[bool, ...]) -> tuple[int, ...]:
    """Remembered per row's occupancy (64 of them)."""
    return tuple(_target(filled, face) for face in COLUMNS)


def awakening_roll(state: TrollState, face: int, typed: bool) -> AwakeningRolled:
    """The next card's awakening on a die face: where it lands and what it does there."""
    card = state.awakening[0]
    row = row_of(state, card)
    col = awakening_target(state, row, face)
    if col == 0:
        result = "nothing"
    elif not state.stack((row, col))[-1].awake:
        result = "woke"
    else:
        result = "troll flew" if state.troll == (row, col) else "flew"
    return AwakeningRolled(card=card, row=row, face=face, col=col, result=result, typed=typed)


def awaken(state: TrollState, face: int) -> TrollState:
    """One awakening's effect, its changes gathered and the state made once (every awakening of every playout)."""
    card, rest = state.awakening[0], state.awakening[1:]
    row = row_of(state, card)
    flight = "lower_flight" if row == "lower" else "upper_flight"
    stack_of_colour = getattr(state, flight)
    changes: dict[str, Any] = {"awakening": rest, flight: replace(stack_of_colour, cards=stack_of_colour.cards + (card,))}
    col = awakening_target(state, row, face)
    if col:
        pos = (row, col)
        top = state.top(pos)
        assert top is not None  # the target column has a card (awakening_target)
        if not top.awake:
            changes.update(top_change(state, pos, True))
        else:  # a second awakening: the card flies away, and the troll with it if it stands there
            changes.update(stack_change(state, pos, state.stack(pos)[:-1]), set_aside=state.set_aside + (top.code,))
            if state.troll == pos:
                changes.update(phase="over", end="flew")
                return replaced(state, changes)
    if not rest:
        changes.update(phase="actions", actions_left=2)
    return replaced(state, changes)
