"""A session: one game's event log, folded into states, with undo, redo and chance resolution.

The session is the only way anything changes a game. A command is checked by the game's `decide`,
becomes events, and any chance the new state waits for is drawn (seeded, scripted or typed) and
recorded as events too. Before the session commits a batch it hands it to its journal (a save), so
a batch is on disk before anyone sees its result.

Every cost of a play, an undo or a look at the log is independent of the game's length: each event
is evolved once when it is played; the log keeps the state every CHECKPOINT_EVERY events (not every
state) and `state_at` folds at most that many events from the nearest one; `events` and `marks` are
read-only views, not copies. The log's parts (the journal, marks, LogError, LogView) are in
engine/log.py.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from types import ModuleType
from typing import Any, Iterable, Sequence

from dicehall.engine.chance import seeded_draws
from dicehall.engine.core import ChanceNeeded, HostLabels, IllegalCommand, Outcome, Player
# the log's parts live in engine/log.py and replace in engine/replace.py; callers import them from here too
from dicehall.engine.log import Journal, JournalError, LogError, LogView, Mark, mark_view
from dicehall.engine.matching import TypedEvent, checked_batch, match_decision
from dicehall.engine.replace import replace

__all__ = ["CHECKPOINT_EVERY", "Journal", "JournalError", "LogError", "LogView", "Mark", "Session", "replace"]

# A state is kept every this many events: state_at folds at most this many, and the replays' digest
# positions (every 100 events) fall on kept states.
CHECKPOINT_EVERY = 25


class Session:
    """One game's log and its states. What a host calls the game (its name, comments, assists, the
    seats that changed hands) is the host's, kept apart in `labels` (engine/core.py's HostLabels)."""

    # every attribute is declared: a stray `session.comments = ...` fails loudly (labels are in `labels`)
    __slots__ = ("game", "seed", "options", "players", "labels", "journal", "undos", "_human_seats", "_script",
                 "_scripted", "_seeded", "_events", "_state", "_kept", "_cursor", "_mark_starts", "_mark_players",
                 "_mark_seeded", "_mark_scripted", "_human_marks", "_redo", "_shown", "_ready", "_ready_seat")
    draft_file = None  # a writer's draft is kept in `journal` (saves/drafts.py); a hall table keeps it apart

    def __init__(
        self,
        game: ModuleType,
        *,
        seed: int | None,
        options: dict | None = None,
        players: Sequence[Player] = (),
        dice: Iterable[int] | None = None,
        journal: Journal | None = None,
        labels: HostLabels | None = None,
    ):
        self.game = game
        self.labels = HostLabels() if labels is None else labels  # the host's, filled in by the host
        # seed None: a follower's session (a hall game watched without its secret seed). It never
        # draws: every chance outcome comes from the log, checked against the rules only.
        self.seed = None if seed is None else int(seed)
        if self.seed is None and dice is None:
            dice = []
        self.options = game.check_options(dict(options or {}))
        self.players: tuple[Player, ...] = game.check_players(tuple(players))
        self._human_seats = frozenset(seat for seat, player in enumerate(self.players) if not player.bot)
        every_seat_human = bool(self.players) and len(self._human_seats) == len(self.players)
        self.journal = journal
        self.undos = 0
        # scripted dice are read through a cursor, counted like the seeded draws and kept with each
        # decision, so undo puts the faces back: undo cannot reroll with scripted dice either
        self._script: list[int] | None = None if dice is None else [_face(f) for f in dice]
        self._scripted = 0  # scripted faces used so far
        self._seeded = 0  # seeded draws used so far
        self._events: list[Any] = []
        self._state = game.initial_state(self.options, self.players)
        self._kept: list[Any] = [self._state]  # the state after 0, CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY ... events
        self._cursor: tuple[int, Any] = (0, self._state)  # the last state state_at folded to
        # the marks, one entry per decision: where it starts, whose it is, and the draw counts there
        # (arrays for the numbers that grow; lists, as quick to append to, for the seats and the
        # scripted faces used, which are small numbers that Python shares: 8 bytes a mark either way)
        self._mark_starts = array("q")
        self._mark_players: list[int] = []
        self._mark_seeded = array("q")
        self._mark_scripted: list[int] = []
        # the indexes of the marks whose player is a person (what undo takes back); None when every
        # seat is a person's, so every mark is one
        self._human_marks = None if every_seat_human else array("q")
        self._redo: list[tuple[list[Any], list[tuple[int, int, int, int]], int, int]] = []
        self._shown = False  # a view of the log was handed out since the log was last cut back
        self._ready: Any = None  # a state known to wait for a decision (not over, no dice due) ...
        self._ready_seat: int | None = None  # ... and whose decision it is
        self._complete([], [], self._state, None, None)

    # ----- reading -----
    @property
    def state(self) -> Any:
        return self._state

    @property
    def events(self) -> LogView:
        """The events so far, as a read-only sequence that later plays and undos leave as it is."""
        self._shown = True
        return LogView(self._events, len(self._events))

    @property
    def marks(self) -> LogView:
        """Where each decision starts, and whose it was (Marks), like `events`."""
        self._shown = True
        return mark_view(self._mark_starts, self._mark_players)

    def state_at(self, n: int) -> Any:
        """The state after the first n events (0 is the start): folded from the kept state at or
        before n, or from the last state asked for when that is nearer (stepping forward)."""
        total = len(self._events)
        if n < 0:
            n += total + 1
        if not 0 <= n <= total:
            raise IndexError(f"no state after {n} events: the log has {total}")
        if n == total:
            return self._state
        start = n - n % CHECKPOINT_EVERY
        state = self._kept[start // CHECKPOINT_EVERY]
        at, cursor_state = self._cursor
        if start <= at <= n:
            start, state = at, cursor_state
        evolve = self.game.evolve
        for event in self._events[start:n]:
            state = evolve(state, event)
        self._cursor = (n, state)
        return state

    # A state known to wait for a decision (self._ready) is neither over nor waiting for dice: these
    # need not ask the rules again (a sim asks them on every move).
    @property
    def outcome(self) -> Outcome | None:
        state = self._state
        return None if state is self._ready else self.game.outcome(state)

    @property
    def to_act(self) -> int | None:
        """The seat that decides next, or None (game over, or dice to be typed)."""
        state = self._state
        if state is self._ready:
            return self._ready_seat
        if self.game.outcome(state) is not None or self.game.chance_needed(state) is not None:
            return None
        return self.game.to_act(state)

    @property
    def chance_needed(self) -> ChanceNeeded | None:
        """Set while the game waits for dice the player must type (scripted dice ran out)."""
        state = self._state
        if state is self._ready or self.game.outcome(state) is not None:
            return None
        return self.game.chance_needed(state)

    def commands(self) -> list:
        if self.to_act is None:
            return []
        return list(self.game.legal_commands(self._state))

    @property
    def can_undo(self) -> bool:
        return self._last_human_mark() >= 0

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ----- changing -----
    def play(self, command: Any, faces: Sequence[int] | None = None) -> tuple:
        """Play a command for the seat to act; `faces` are physical dice for this play."""
        game = self.game
        state = self._state
        if state is self._ready:  # already seen to be neither over nor waiting for dice
            seat = self._ready_seat
        else:
            if game.outcome(state) is not None:
                raise IllegalCommand(f"the game is over: {game.outcome(state).summary}")
            need = game.chance_needed(state)
            if need is not None:
                ran_out = " (the scripted dice ran out: type them with roll())" if self._script else ""
                raise IllegalCommand(f"waiting for dice: {need.prompt}{ran_out}")
            seat = game.to_act(state)
        batch = list(game.decide(state, command))
        evolve = game.evolve
        states = []
        for event in batch:
            state = evolve(state, event)
            states.append(state)
        self._complete(batch, states, state, None if faces is None else list(faces), seat)
        if self._redo:
            self._redo.clear()
        return tuple(batch)

    def roll(self, faces: Sequence[int]) -> tuple:
        """Type physical dice for the chance the game is waiting for."""
        if self.chance_needed is None:
            raise IllegalCommand("no dice are needed now")
        batch: list[Any] = []
        self._complete(batch, [], self._state, list(faces), None)
        return tuple(batch)

    def resume_seeded(self, resolve_pending: bool = True) -> tuple:
        """Draw from the seed from now on (after loading a log).

        resolve_pending: also draw any chance still pending now (a branch cut inside a pull). A
        save reopened while it waits for typed dice keeps waiting for them instead."""
        if self.seed is None:
            raise IllegalCommand("this game's dice are drawn by its players' sessions (no seed here)")
        self._script = None
        if resolve_pending and self.game.outcome(self._state) is None and self.game.chance_needed(self._state) is not None:
            batch: list[Any] = []
            self._complete(batch, [], self._state, None, None)
            return tuple(batch)
        return ()

    def undo(self) -> None:
        """Take back the last human decision with everything it caused (bots' replies included)."""
        index = self._last_human_mark()
        if index < 0:
            raise IllegalCommand("nothing to undo")
        start = self._mark_starts[index]
        if self.journal is not None:
            self.journal.append({"op": "undo"})
        marks = list(zip(self._mark_starts[index:], self._mark_players[index:],
                         self._mark_seeded[index:], self._mark_scripted[index:]))
        self._redo.append((self._events[start:], marks, self._seeded, self._scripted))
        self._truncate(start, index)
        self.undos += 1

    def redo(self) -> None:
        if not self._redo:
            raise IllegalCommand("nothing to redo")
        if self.journal is not None:
            self.journal.append({"op": "redo"})
        events, marks, seeded, scripted = self._redo.pop()
        for mark in marks:
            self._add_mark(*mark)
        state = self._state
        for event in events:
            state = self.game.evolve(state, event)
            self._append(event, state)
        self._seeded, self._scripted = seeded, scripted

    # ----- loading a recorded log (checked in engine/matching.py; committed here) -----
    def replay_batch(self, events: Sequence[Any], by: int | None) -> None:
        """Apply a recorded batch after checking every event against the rules and the seed.

        `by` is the deciding seat for a decision batch, None for a batch of chance only.
        Raises LogError naming the first event that could not have happened.
        """
        base = len(self._events)
        checked, states, used = checked_batch(self.game, self.seed, self._state, self._seeded, events, by, base,
                                              self._typed_events)
        if self.journal is not None:
            self.journal.append({"op": "play", "by": by, "events": checked} if by is not None else {"op": "dice", "events": checked})
        if by is not None:
            self._add_mark(base, by, self._seeded, self._scripted)
        for event, state in zip(checked, states):
            self._append(event, state)
        self._seeded = used
        self._redo.clear()

    def settle(self, n: int) -> int:
        """The first position at or after n that is not inside a decision's own events (an action
        and its automatic consequences are one step; chance outcomes may follow it)."""
        index = bisect_right(self._mark_starts, n - 1) - 1  # the last decision that starts before n
        if index < 0:
            return n
        start = self._mark_starts[index]
        end = self._mark_starts[index + 1] if index + 1 < len(self._mark_starts) else len(self._events)
        if start < n < end:
            decided = match_decision(self.game, self.state_at(start), self._events[start:end]) or ()
            return max(n, start + len(decided))
        return n

    def _typed_events(self) -> list[TypedEvent]:
        """The log's typed events, each with the state before it and the seeded draws used before it
        (for naming a changed mark: engine/matching.py's seed_mismatch)."""
        return [(i, e, *self._before(i)) for i, e in enumerate(self._events) if getattr(e, "typed", False)]

    def _before(self, index: int) -> tuple[Any, int]:
        """The state before event `index` of the log and the seeded draws used before it, folded
        from the start of the decision it belongs to (the draw counts are kept per decision)."""
        mark = bisect_right(self._mark_starts, index) - 1
        start, used = (self._mark_starts[mark], self._mark_seeded[mark]) if mark >= 0 else (0, 0)
        state = self.state_at(start)
        position = start
        if mark >= 0:
            end = self._mark_starts[mark + 1] if mark + 1 < len(self._mark_starts) else len(self._events)
            for decided in match_decision(self.game, state, self._events[start:end]) or ():
                state = self.game.evolve(state, decided)
                position += 1
        for event in self._events[position:index]:
            if not getattr(event, "typed", False):
                used += len(self.game.chance_needed(state).spec)
            state = self.game.evolve(state, event)
        return state, used

    # ----- internals -----
    def _complete(self, events: list, states: list, state: Any, faces: list[int] | None, seat: int | None) -> None:
        """Finish a batch and commit it. `events` is the batch so far (a decision's events, or none),
        `states` the states after each, `state` the last of them (or the current state).

        First every chance outcome `state` waits for is drawn: typed faces first, then the script or
        seed; each is appended to `events` and the state after it to `states` (so no event is
        evolved twice). Then the batch is journaled (a decision's if `seat` is a seat, else dice
        only) and appended to the log with the states folded for it. (One routine, not two: it
        runs on every move of every sim.)"""
        game = self.game
        seed = self.seed
        used = self._seeded
        script_at = self._scripted
        seeded_only = faces is None and self._script is None  # every outcome from the seed (sims, bots)
        outcome, chance_needed, evolve = game.outcome, game.chance_needed, game.evolve
        while outcome(state) is None:
            need = chance_needed(state)
            if need is None:
                self._ready = state  # a decision is due here: play and to_act need not ask again
                self._ready_seat = game.to_act(state)
                break
            if seeded_only:
                assert seed is not None  # a session without a seed never draws: its dice are a script
                draws = seeded_draws(seed, used, need.spec)
                used += len(need.spec)
                event = game.chance_event(state, draws, False)
                events.append(event)
                state = evolve(state, event)
                states.append(state)
                continue
            typed = True
            if not need.dice and (faces is not None or self._script):
                # what no one can roll by hand (a landing spot, a shuffle) comes from the seed even
                # while the dice are typed or scripted, also once a script has run out (else a game
                # would wait for a landing nobody can type); only a script empty from the start, as
                # when a log is loaded, waits: the log brings its own outcomes
                assert seed is not None  # a session without a seed never draws: its dice are a script
                draws = seeded_draws(seed, used, need.spec)
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
            else:
                assert seed is not None  # a session without a seed never draws: its dice are a script
                draws = seeded_draws(seed, used, need.spec)
                used += len(need.spec)
                typed = False
            event = game.chance_event(state, draws, typed)
            events.append(event)
            state = game.evolve(state, event)
            states.append(state)
        if faces:
            raise IllegalCommand(f"{len(faces)} more dice typed than were needed")
        if not events:
            return
        if self.journal is not None:
            self.journal.append({"op": "play", "by": seat, "events": events} if seat is not None
                                else {"op": "dice", "events": events})
        log = self._events
        before = len(log)
        if seat is not None:
            self._add_mark(before, seat, self._seeded, self._scripted)
        log.extend(events)
        past = before % CHECKPOINT_EVERY  # events since the last kept state
        if past + len(events) >= CHECKPOINT_EVERY:  # keep the state after each CHECKPOINT_EVERY-th event
            self._kept.extend(states[CHECKPOINT_EVERY - past - 1 :: CHECKPOINT_EVERY])
        self._state = states[-1]
        self._seeded, self._scripted = used, script_at

    @staticmethod
    def _take_faces(faces: list[int], need: ChanceNeeded) -> tuple[int, ...]:
        if not need.dice:
            raise IllegalCommand("this outcome cannot be typed as dice")
        if len(faces) < len(need.spec):
            raise IllegalCommand(f"type {len(need.spec)} dice: {need.prompt}")
        taken = [faces.pop(0) for _ in need.spec]
        return tuple(_face(face) - 1 for face in taken)

    def _append(self, event: Any, state: Any) -> None:
        """Append one event and the state after it."""
        events = self._events
        events.append(event)
        self._state = state
        if len(events) % CHECKPOINT_EVERY == 0:
            self._kept.append(state)

    def _add_mark(self, start: int, player: int, seeded: int, scripted: int) -> None:
        """A decision starts at `start`, by `player`, with these draw counts before it."""
        if self._human_marks is not None and player in self._human_seats:
            self._human_marks.append(len(self._mark_starts))
        self._mark_starts.append(start)
        self._mark_players.append(player)
        self._mark_seeded.append(seeded)
        self._mark_scripted.append(scripted)

    def _last_human_mark(self) -> int:
        """The index of the last mark whose player is a person, or -1 if there is none."""
        if self._human_marks is None:  # every mark is a person's
            return len(self._mark_starts) - 1
        return self._human_marks[-1] if self._human_marks else -1

    def _truncate(self, n: int, marks: int) -> None:
        """Cut the log back to the start of mark `marks`, event n. A view handed out may still show
        what is cut: then the log is copied first, and the view keeps the old one."""
        self._state = self.state_at(n)
        self._seeded, self._scripted = self._mark_seeded[marks], self._mark_scripted[marks]
        if self._shown:
            self._events = self._events[:n]
            self._mark_starts = self._mark_starts[:marks]
            self._mark_players = self._mark_players[:marks]
            self._shown = False
        else:
            del self._events[n:]
            del self._mark_starts[marks:]
            del self._mark_players[marks:]
        del self._mark_seeded[marks:]
        del self._mark_scripted[marks:]
        del self._kept[n // CHECKPOINT_EVERY + 1 :]
        while self._human_marks and self._human_marks[-1] >= marks:
            self._human_marks.pop()
        if self._cursor[0] > n:
            self._cursor = (n, self._state)

    def describe(self, n: int, reveal: bool = True) -> str:
        """Event n (0-based) in words, as the rules saw it."""
        return self.game.describe(self.state_at(n), self._events[n], reveal)

    def turn_starts(self) -> list[int]:
        """Event indexes where a decision begins, for stepping turn by turn."""
        return list(self._mark_starts)


def _face(face: Any) -> int:
    """A die face typed or scripted: a whole number from 1 to 6 (True is not a face)."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise IllegalCommand(f"{str(face)[:10]} is not a die face (1 to 6)")
    return face
