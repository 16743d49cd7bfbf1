"""A recorded log checked against the rules and the seed, as saves, replays and the hall read one
back: which legal decision a batch of events records, whether each chance outcome is the seed's
(or, typed or a follower's, at least one the rules allow), and which event to name when it is not.
The session commits what passes (Session.replay_batch); nothing here changes a session."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Sequence

from dicehall.engine.chance import seeded_draws
from dicehall.engine.core import ChanceNeeded, IllegalCommand
from dicehall.engine.log import LogError

# an earlier typed event of the log: (its index, the event, the state before it, seeded draws used before it)
TypedEvent = tuple[int, Any, Any, int]


def matched_command(game: ModuleType, state: Any, events: Sequence[Any]) -> tuple[Any, tuple] | None:
    """The legal command whose decision `events` begins with, and that decision's own events (the
    rest are chance); None if no command's `decide` gives them."""
    if not events:
        return None
    # a game whose decisions are too many to list (War of Bones' attack splits) says which
    # command an event records; the command is still checked by decide
    command_of = getattr(game, "command_of", None)
    candidates = [command_of(events[0])] if command_of is not None else []
    for command in candidates + [c for c in game.legal_commands(state) if c not in candidates]:
        if command is None:
            continue
        try:
            decided = tuple(game.decide(state, command))
        except IllegalCommand:
            continue
        if decided and tuple(events[: len(decided)]) == decided:
            return command, decided
    return None


def match_decision(game: ModuleType, state: Any, events: Sequence[Any]) -> tuple | None:
    """The events of the legal decision that `events` begins with, or None if none matches."""
    found = matched_command(game, state, events)
    return None if found is None else found[1]


def checked_batch(game: ModuleType, seed: int | None, state: Any, used: int, events: Sequence[Any], by: int | None,
                  base: int, typed_earlier: Callable[[], list[TypedEvent]]) -> tuple[list, list, int]:
    """A recorded batch checked event by event from `state` (`used` seeded draws so far, the log
    `base` events long): (the events, the state after each, the seeded draws used after them).
    `by` is the deciding seat for a decision batch, None for a batch of chance only;
    `typed_earlier` gives the log's typed events, asked only to name a changed mark. Raises
    LogError naming the first event that could not have happened."""
    position = 0
    states: list[Any] = []
    if by is not None:
        if game.outcome(state) is not None or game.chance_needed(state) is not None:
            raise LogError(base, "a move where none can be made")
        if game.to_act(state) != by:
            raise LogError(base, "a move by a player whose turn it is not")
        decided = match_decision(game, state, events)
        if decided is None:
            raise LogError(base, "not a legal move here")
        for event in decided:
            state = game.evolve(state, event)
            states.append(state)
        position = len(decided)
    checked = list(events[:position])
    typed_here: list[TypedEvent] = []  # this batch's typed events
    for i in range(position, len(events)):
        event = events[i]
        need = game.chance_needed(state) if game.outcome(state) is None else None
        if need is None:
            raise LogError(base + i, "an event where the rules expect none")
        typed = bool(getattr(event, "typed", False))
        if typed:
            if not need.dice:  # a shuffle or a landing spot always comes from the seed
                raise LogError(base + i, "marked as typed, but only dice can be typed")
            draws = given_draws(game, need, event, state, base + i)
            typed_here.append((base + i, event, state, used))
        elif seed is None:  # a follower: the outcome is taken as given, if the rules allow it
            draws = given_draws(game, need, event, state, base + i)
            used += len(need.spec)
        else:
            draws = seeded_draws(seed, used, need.spec)
            if game.chance_event(state, draws, False) != event:
                raise seed_mismatch(game, seed, base + i, event, state, used, need, typed_earlier() + typed_here)
            used += len(need.spec)
        expected = game.chance_event(state, draws, typed)
        if expected != event:
            raise LogError(base + i, "a chance outcome that does not fit the rules")
        state = game.evolve(state, event)
        checked.append(event)
        states.append(state)
    return checked, states, used


def seed_mismatch(game: ModuleType, seed: int, index: int, event: Any, state: Any, used: int, need: ChanceNeeded,
                  typed: list[TypedEvent]) -> LogError:
    """The error for a seeded event that does not match the seed. A seeded outcome re-marked
    as typed moves every later seeded draw, so the first seeded event after it fails: when an
    earlier typed event holds exactly the seed's own outcome and counting it as seeded makes
    this one match, that is the changed event, and the error names it. (Only on this error
    path does it walk the log.)"""
    for at, typed_event, before, drawn in reversed(typed):
        spec = game.chance_needed(before).spec
        seeds_own = game.chance_event(before, seeded_draws(seed, drawn, spec), True) == typed_event
        if seeds_own and game.chance_event(state, seeded_draws(seed, used + len(spec), need.spec), False) == event:
            return LogError(at, "marked as typed, but these are the seed's own dice (the mark was changed)")
    return LogError(index, "the dice do not match the seed")


def given_draws(game: ModuleType, need: ChanceNeeded, event: Any, state: Any, index: int) -> tuple[int, ...]:
    """The draws a recorded chance event holds, checked to be in range for what the state needs
    (a game whose outcomes need the state to be read back, War of Bones' landings, says so)."""
    recorded = getattr(game, "recorded_draws", None)
    try:
        draws = tuple(recorded(state, event) if recorded else game.chance_draws(event))
    except Exception:
        raise LogError(index, "a chance outcome that does not fit the rules") from None
    if len(draws) != len(need.spec) or not all(
        isinstance(d, int) and not isinstance(d, bool) and 0 <= d < n for d, n in zip(draws, need.spec)
    ):
        raise LogError(index, "a chance outcome out of range")
    return draws
