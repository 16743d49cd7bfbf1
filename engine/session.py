"""A session: one game's event log, folded into states, with undo, redo and chance resolution.

The session is the only way anything changes a game. A command is checked by the game's `decide`,
becomes events, and any chance the new state waits for is drawn (seeded, scripted or typed) and
recorded as events too. Before the session commits a batch it hands it to its journal (a save), so
a batch is on disk before anyone sees its result.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Iterable, Protocol, Sequence

from engine.chance import seeded_draws
from engine.core import ChanceNeeded, IllegalCommand, Outcome, Player


class Journal(Protocol):
    def append(self, record: dict) -> None: ...


class JournalError(Exception):
    """The journal could not record a batch (a full disk): it was not committed, so the session is
    exactly as it was before the call. The message is one line for the player; `reason` is the
    short cause ("disk full")."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason or message


@dataclass(frozen=True)
class Mark:
    """Where a decision starts in the event log, and whose it was."""

    start: int
    player: int


class LogError(ValueError):
    """An event log that the rules could not have produced; `index` is the first bad event (0-based).
    The message numbers events from 1, as the replay viewer does: "event 70" is where `g 70` goes."""

    def __init__(self, index: int, reason: str):
        super().__init__(f"event {index + 1}: {reason}")
        self.index = index
        self.reason = reason


class Session:
    def __init__(
        self,
        game: ModuleType,
        *,
        seed: int,
        options: dict | None = None,
        players: Sequence[Player] = (),
        dice: Iterable[int] | None = None,
        journal: Journal | None = None,
    ):
        self.game = game
        self.seed = int(seed)
        self.options = game.check_options(dict(options or {}))
        self.players: tuple[Player, ...] = game.check_players(tuple(players))
        self.journal = journal
        self.undos = 0
        # scripted dice are read through a cursor kept per prefix of the log (like the seeded draw
        # count), so undo puts the faces back: undo cannot reroll with scripted dice either
        self._script: list[int] | None = None if dice is None else [_face(f) for f in dice]
        self._script_at: list[int] = [0]
        self._pending_script: list[tuple[int, int]] = []  # (event index in a batch, scripted faces it used)
        self._events: list[Any] = []
        self._states: list[Any] = [game.initial_state(self.options, self.players)]
        self._seeded: list[int] = [0]  # seeded draws used after each prefix of the log
        self._marks: list[Mark] = []
        self._redo: list[tuple[list[Any], list[Mark], list[int]]] = []
        setup = self._resolve_chance(self.state, None)
        if setup:
            self._commit({"op": "dice", "events": setup}, setup, None)

    # ----- reading -----
    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def events(self) -> tuple:
        return tuple(self._events)

    @property
    def marks(self) -> tuple[Mark, ...]:
        return tuple(self._marks)

    def state_at(self, n: int) -> Any:
        """The state after the first n events (0 is the start)."""
        return self._states[n]

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def to_act(self) -> int | None:
        """The seat that decides next, or None (game over, or dice to be typed)."""
        if self.outcome is not None or self.chance_needed is not None:
            return None
        return self.game.to_act(self.state)

    @property
    def chance_needed(self) -> ChanceNeeded | None:
        """Set while the game waits for dice the player must type (scripted dice ran out)."""
        return None if self.outcome is not None else self.game.chance_needed(self.state)

    def commands(self) -> list:
        if self.to_act is None:
            return []
        return list(self.game.legal_commands(self.state))

    @property
    def can_undo(self) -> bool:
        return self._last_human_mark() is not None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ----- changing -----
    def play(self, command: Any, faces: Sequence[int] | None = None) -> tuple:
        """Play a command for the seat to act; `faces` are physical dice for this play."""
        if self.outcome is not None:
            raise IllegalCommand(f"the game is over: {self.outcome.summary}")
        need = self.chance_needed
        if need is not None:
            ran_out = " (the scripted dice ran out: type them with roll())" if self._script else ""
            raise IllegalCommand(f"waiting for dice: {need.prompt}{ran_out}")
        seat = self.game.to_act(self.state)
        decided = tuple(self.game.decide(self.state, command))
        state = self.state
        for event in decided:
            state = self.game.evolve(state, event)
        chance = self._resolve_chance(state, None if faces is None else list(faces))
        batch = list(decided) + chance
        self._commit({"op": "play", "by": seat, "events": batch}, batch, Mark(len(self._events), seat))
        self._redo.clear()
        return tuple(batch)

    def roll(self, faces: Sequence[int]) -> tuple:
        """Type physical dice for the chance the game is waiting for."""
        if self.chance_needed is None:
            raise IllegalCommand("no dice are needed now")
        batch = self._resolve_chance(self.state, list(faces))
        self._commit({"op": "dice", "events": batch}, batch, None)
        return tuple(batch)

    def resume_seeded(self, resolve_pending: bool = True) -> tuple:
        """Draw from the seed from now on (after loading a log).

        resolve_pending: also draw any chance still pending now (a branch cut inside a pull). A
        save reopened while it waits for typed dice keeps waiting for them instead."""
        self._script = None
        if resolve_pending and self.game.outcome(self.state) is None and self.game.chance_needed(self.state) is not None:
            batch = self._resolve_chance(self.state, None)
            self._commit({"op": "dice", "events": batch}, batch, None)
            return tuple(batch)
        return ()

    def undo(self) -> None:
        """Take back the last human decision with everything it caused (bots' replies included)."""
        index = self._last_human_mark()
        if index is None:
            raise IllegalCommand("nothing to undo")
        start = self._marks[index].start
        if self.journal is not None:
            self.journal.append({"op": "undo"})
        scripted = [b - a for a, b in zip(self._script_at[start:], self._script_at[start + 1:])]
        self._redo.append((self._events[start:], self._marks[index:], scripted))
        self._truncate(start)
        del self._marks[index:]
        self.undos += 1

    def redo(self) -> None:
        if not self._redo:
            raise IllegalCommand("nothing to redo")
        if self.journal is not None:
            self.journal.append({"op": "redo"})
        events, marks, scripted = self._redo.pop()
        for event, taken in zip(events, scripted):
            self._apply(event, taken)
        self._marks.extend(marks)

    # ----- loading a recorded log -----
    def replay_batch(self, events: Sequence[Any], by: int | None) -> None:
        """Apply a recorded batch after checking every event against the rules and the seed.

        `by` is the deciding seat for a decision batch, None for a batch of chance only.
        Raises LogError naming the first event that could not have happened.
        """
        base = len(self._events)
        state = self.state
        position = 0
        if by is not None:
            if self.outcome is not None or self.game.chance_needed(state) is not None:
                raise LogError(base, "a move where none can be made")
            if self.game.to_act(state) != by:
                raise LogError(base, "a move by a player whose turn it is not")
            decided = self._match_decision(state, events)
            if decided is None:
                raise LogError(base, "not a legal move here")
            for event in decided:
                state = self.game.evolve(state, event)
            position = len(decided)
        checked = list(events[:position])
        used = self._seeded[-1]
        typed_here = []  # (index, event, state before, seeded draws before) of this batch's typed events
        for i in range(position, len(events)):
            event = events[i]
            need = self.game.chance_needed(state) if self.game.outcome(state) is None else None
            if need is None:
                raise LogError(base + i, "an event where the rules expect none")
            typed = bool(getattr(event, "typed", False))
            if typed:
                draws = self._typed_draws(need, event, base + i)
                typed_here.append((base + i, event, state, used))
            else:
                draws = seeded_draws(self.seed, used, need.spec)
                if self.game.chance_event(state, draws, False) != event:
                    raise self._seed_mismatch(base + i, event, state, used, need, typed_here)
                used += len(need.spec)
            expected = self.game.chance_event(state, draws, typed)
            if expected != event:
                raise LogError(base + i, "a chance outcome that does not fit the rules")
            state = self.game.evolve(state, event)
            checked.append(event)
        if self.journal is not None:
            self.journal.append({"op": "play", "by": by, "events": checked} if by is not None else {"op": "dice", "events": checked})
        for event in checked:
            self._apply(event)
        if by is not None:
            self._marks.append(Mark(base, by))
        self._redo.clear()

    def settle(self, n: int) -> int:
        """The first position at or after n that is not inside a decision's own events (an action
        and its automatic consequences are one step; chance outcomes may follow it)."""
        for index, mark in enumerate(self._marks):
            end = self._marks[index + 1].start if index + 1 < len(self._marks) else len(self._events)
            if mark.start < n < end:
                decided = self._match_decision(self._states[mark.start], self._events[mark.start:end]) or ()
                return max(n, mark.start + len(decided))
        return n

    def _match_decision(self, state: Any, events: Sequence[Any]) -> tuple | None:
        if not events:
            return None
        # a game whose decisions are too many to list (War of Bones' attack splits) says which
        # command an event records; the command is still checked by decide
        command_of = getattr(self.game, "command_of", None)
        candidates = [command_of(events[0])] if command_of is not None else []
        for command in candidates + [c for c in self.game.legal_commands(state) if c not in candidates]:
            if command is None:
                continue
            try:
                decided = tuple(self.game.decide(state, command))
            except IllegalCommand:
                continue
            if tuple(events[: len(decided)]) == decided:
                return decided
        return None

    def _seed_mismatch(self, index: int, event: Any, state: Any, used: int, need: ChanceNeeded, typed_here: list) -> LogError:
        """The error for a seeded event that does not match the seed. A seeded outcome re-marked
        as typed moves every later seeded draw, so the first seeded event after it fails: when an
        earlier typed event holds exactly the seed's own outcome and counting it as seeded makes
        this one match, that is the changed event, and the error names it."""
        earlier = [(i, e, self._states[i], self._seeded[i]) for i, e in enumerate(self._events) if getattr(e, "typed", False)]
        for at, typed_event, before, drawn in reversed(earlier + typed_here):
            spec = self.game.chance_needed(before).spec
            seeds_own = self.game.chance_event(before, seeded_draws(self.seed, drawn, spec), True) == typed_event
            if seeds_own and self.game.chance_event(state, seeded_draws(self.seed, used + len(spec), need.spec), False) == event:
                return LogError(at, "marked as typed, but these are the seed's own dice (the mark was changed)")
        return LogError(index, "the dice do not match the seed")

    def _typed_draws(self, need: ChanceNeeded, event: Any, index: int) -> tuple[int, ...]:
        if not need.dice:  # a shuffle or a landing spot always comes from the seed
            raise LogError(index, "marked as typed, but only dice can be typed")
        try:
            draws = tuple(self.game.chance_draws(event))
        except Exception:
            raise LogError(index, "a chance outcome that does not fit the rules") from None
        if len(draws) != len(need.spec) or not all(
            isinstance(d, int) and not isinstance(d, bool) and 0 <= d < n for d, n in zip(draws, need.spec)
        ):
            raise LogError(index, "a chance outcome out of range")
        return draws

    # ----- internals -----
    def _resolve_chance(self, state: Any, faces: list[int] | None) -> list:
        """Draw every chance outcome `state` waits for: typed faces first, then the script or seed.
        Each event drawn from the script is remembered with how many scripted faces it took."""
        events: list[Any] = []
        self._pending_script = []
        used = self._seeded[-1]
        script_at = self._script_at[-1]
        while self.game.outcome(state) is None:
            need = self.game.chance_needed(state)
            if need is None:
                break
            typed = True
            if not need.dice and (faces is not None or self._script):
                # what no one can roll by hand (a landing spot, a shuffle) comes from the seed even
                # while the dice are typed or scripted, also once a script has run out (else a game
                # would wait for a landing nobody can type); only a script empty from the start, as
                # when a log is loaded, waits: the log brings its own outcomes
                draws = seeded_draws(self.seed, used, need.spec)
                used += len(need.spec)
                typed = False
            elif faces:
                draws = self._take_faces(faces, need)
            elif faces is not None:
                break  # the player's typed dice are used up: wait for more
            elif self._script is not None:
                left = self._script[script_at:]
                if len(left) < len(need.spec):
                    break
                draws = self._take_faces(left, need)
                script_at += len(need.spec)
                self._pending_script.append((len(events), len(need.spec)))
            else:
                draws = seeded_draws(self.seed, used, need.spec)
                used += len(need.spec)
                typed = False
            event = self.game.chance_event(state, draws, typed)
            events.append(event)
            state = self.game.evolve(state, event)
        if faces:
            raise IllegalCommand(f"{len(faces)} more dice typed than were needed")
        return events

    @staticmethod
    def _take_faces(faces: list[int], need: ChanceNeeded) -> tuple[int, ...]:
        if not need.dice:
            raise IllegalCommand("this outcome cannot be typed as dice")
        if len(faces) < len(need.spec):
            raise IllegalCommand(f"type {len(need.spec)} dice: {need.prompt}")
        taken = [faces.pop(0) for _ in need.spec]
        return tuple(_face(face) - 1 for face in taken)

    def _commit(self, record: dict, batch: list, mark: Mark | None) -> None:
        if self.journal is not None and batch:
            self.journal.append(record)
        scripted = dict(self._pending_script)
        self._pending_script = []
        for index, event in enumerate(batch):
            self._apply(event, scripted.get(index, 0))
        if mark is not None and batch:
            self._marks.append(mark)

    def _apply(self, event: Any, scripted: int = 0) -> None:
        """Append one event; `scripted` is how many scripted dice faces it used."""
        before = self.state
        need = self.game.chance_needed(before) if self.game.outcome(before) is None else None
        seeded = self._seeded[-1]
        if need is not None and not getattr(event, "typed", False):
            seeded += len(need.spec)
        self._states.append(self.game.evolve(before, event))
        self._events.append(event)
        self._seeded.append(seeded)
        self._script_at.append(self._script_at[-1] + scripted)

    def _truncate(self, n: int) -> None:
        del self._events[n:]
        del self._states[n + 1 :]
        del self._seeded[n + 1 :]
        del self._script_at[n + 1 :]

    def _last_human_mark(self) -> int | None:
        for index in range(len(self._marks) - 1, -1, -1):
            seat = self._marks[index].player
            if 0 <= seat < len(self.players) and not self.players[seat].bot:
                return index
        return None

    def describe(self, n: int, reveal: bool = True) -> str:
        """Event n (0-based) in words, as the rules saw it."""
        return self.game.describe(self._states[n], self._events[n], reveal)

    def turn_starts(self) -> list[int]:
        """Event indexes where a decision begins, for stepping turn by turn."""
        return [m.start for m in self._marks]


def _face(face: Any) -> int:
    """A die face typed or scripted: a whole number from 1 to 6 (True is not a face)."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise IllegalCommand(f"{str(face)[:10]} is not a die face (1 to 6)")
    return face


def replace(obj: Any, **changes: Any) -> Any:
    """dataclasses.replace, named for use in the game modules' evolve functions."""
    return dataclasses.replace(obj, **changes)
