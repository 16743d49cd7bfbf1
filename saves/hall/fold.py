"""A hall game's log folded into its state: pure, every record checked (HallFold)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol, TypeGuard

from dicehall import engine
from dicehall.engine.assists import ASSIST_KINDS
from dicehall.engine.codec import decode_event
from dicehall.engine.core import Handover, Player
from dicehall.engine.session import LogError, Session
from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.engine.words import counted
from dicehall.saves import short_name
from dicehall.saves.hall.errors import HallError, HallRecordError
from dicehall.saves.hall.files import HALL_FORMAT, MAX_IDLE_MINUTES, MAX_SEATS, WATCHER_POLICIES, bot_name, commitment
from dicehall.saves.hall.seats import kept_for, kept_keyed


# ----- the fold: pure, checked -----
@dataclass
class Seat:
    kind: str  # "open", "player" or "bot"
    name: str = ""
    style: str = ""
    uid: int | None = None
    keyed: bool = False  # the name is the one the box's admin gave the player's key (never typed)


@dataclass
class Takeback:
    by: int
    to: int
    waiting: set[int]  # the seats whose answer is still due
    accepted: bool = False


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def header_time(created: Any) -> float | None:
    """The header's `created` (ISO 8601, as the host wrote it) as a unix time, or None."""
    if not isinstance(created, str) or len(created) > 40:
        return None
    try:
        moment = datetime.fromisoformat(created)
    except ValueError:
        return None
    if moment.tzinfo is None:  # a time with no zone is not the host's (it writes UTC): not trusted as one
        return None
    stamp = moment.timestamp()
    return stamp if 0 <= stamp < 1e11 else None  # as a record's "at"


class HallFold:
    """A hall game's state: its header checked, then every record applied by `apply` (pure: no I/O).
    `seed` is the secret for a seated process (its session checks every die against it) or None
    for a follower (dice are checked against the rules only)."""

    def __init__(self, header: Any, label: str, seed: int | None = None):
        self.label = label
        self.seed = seed
        if not isinstance(header, dict) or not is_int(header.get("hall")) or header.get("hall") != HALL_FORMAT:
            version = header.get("hall") if isinstance(header, dict) else None
            if is_int(version) and version > HALL_FORMAT:
                raise HallError(f"{label}: made by a newer dicehall (hall format {version})")
            raise HallError(f"{label}: not a hall game's log")
        game = header.get("game")
        try:
            self.module = engine.get_game(game if isinstance(game, str) else "")
        except ValueError as error:
            raise HallError(f"{label}: {error}") from None
        rules = header.get("rules")
        if not is_int(rules) or rules < 1:
            raise HallError(f"{label}: the header's rules version is not readable")
        if rules > self.module.RULES_VERSION:
            raise HallError(f"{label}: made for newer {self.module.TITLE} rules")
        options, seats, pledge = header.get("options"), header.get("seats"), header.get("commitment")
        if not isinstance(options, dict) or not isinstance(seats, (list, tuple)) or not 1 <= len(seats) <= MAX_SEATS:
            raise HallError(f"{label}: the header is not readable")
        if not isinstance(pledge, str) or not re.fullmatch(r"[0-9a-f]{64}", pledge):
            raise HallError(f"{label}: the header has no commitment to its dice")
        self.commitment = pledge
        self.watchers = header.get("watchers", "open")  # the host's choice (saves/hall/chat.py); a log before it: open
        if self.watchers not in WATCHER_POLICIES:
            raise HallError(f"{label}: the header's watchers are not one of {', '.join(WATCHER_POLICIES)}")
        self.name = clean_text(header.get("name", "")) or self.module.TITLE
        self.kept = tuple(kept_for(header, n) for n in range(len(seats)))  # a match's seat: whose it is ("" anyone's)
        self.kept_keyed = tuple(kept_keyed(header, n) for n in range(len(seats)))  # ... and whether that is a key's name
        self.seats: list[Seat] = []
        bots = sum(isinstance(entry, dict) and entry.get("kind") == "bot" for entry in seats)
        for entry in seats:
            kind = entry.get("kind") if isinstance(entry, dict) else None
            if kind == "open":
                self.seats.append(Seat("open"))
            elif kind == "bot":
                name = clean_text(entry.get("name", "")) or bot_name(len(self.seats), len(seats), bots)
                self.seats.append(Seat("bot", name, clean_text(entry.get("style", ""), 20)))
            else:
                raise HallError(f"{label}: a seat in the header is not readable")
        if options.get("winnable") or options.get("winnable_from") is not None:  # engine/analysis/winnable.py
            raise HallError(f"{label}: winnable deals are not dealt in the hall: its seed is secret, and a "
                            "winnable deal's options would tell where the search for it began")
        try:  # the options and the bots' styles, checked as a game of these seats would be
            probe = Session(self.module, seed=0, options=dict(options), players=self._players(), dice=[])
        except ValueError as error:
            raise HallError(f"{label}: {clean_text(error, 200)}") from None
        self.options = probe.options
        self.session: Session | None = None
        self.takeback: Takeback | None = None
        self.note = ""  # what became of the last takeback, in words
        self.revealed: int | None = None
        self.count = 0  # records applied after the header
        self.actors: list[int | None] = []  # the seat behind each record (None: the dice, a reveal)
        self.last_at: float | None = None  # the "at" of the last record that has one
        self.created_at = header_time(header.get("created"))  # when it was hosted (None: not said, or not a time)
        self.abandoned = ""  # why the game was ended before its end (an idle seat), in words
        self.idle_notes: list[str] = []  # each seat handed to a bot for being idle, in words
        self.handed: dict[int, Seat] = {}  # the person each seat handed to a bot had (the hall's scores count them)
        self._start_if_full()

    def _players(self) -> tuple[Player, ...]:
        return tuple(Player(s.name if s.kind != "open" else "", s.kind == "bot", s.style) for s in self.seats)

    def _start_if_full(self) -> None:
        if self.session is None and all(s.kind != "open" for s in self.seats):
            self.session = Session(self.module, seed=self.seed, options=self.options, players=self._players(), dice=[])

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def over(self) -> bool:
        return self.session is not None and (self.session.outcome is not None or bool(self.abandoned))

    @property
    def result(self) -> str:
        """The game's result in words: the engine's, or why it was abandoned; "" while it goes on."""
        if self.abandoned:
            return self.abandoned
        outcome = self.session.outcome if self.session is not None else None
        if outcome is None:
            return ""
        # the engine names a seat by its first player: a winner's seat a bot played on says so
        played_for = [f"{self.seats[n].name} for {held.name}" for n, held in sorted(self.handed.items())
                      if n in outcome.winners]
        return outcome.summary + (f" ({', '.join(played_for)})" if played_for else "")

    def progress(self) -> str:
        """Where the game stands, in its own words (the game's progress, as the saves list shows it)."""
        if self.session is None:
            open_seats = [n for n, s in enumerate(self.seats) if s.kind == "open"]
            waiting = [self.kept[n] for n in open_seats if self.kept[n]]  # a match's player, by name
            anyone = len(open_seats) - len(waiting)
            return f"waiting for {', '.join(waiting + ([counted(anyone, 'open seat')] if anyone else []))}"
        if self.abandoned:
            return self.abandoned
        return self.module.progress(self.session.state)

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "another player"
        return self.seats[seat].name or f"seat {seat + 1}"

    def players_name(self, each: int = NAME_LIMIT) -> str:
        """Who plays, as the game's screen and the lobby name the game: "Ann v Bob" (an open seat
        is "open"), each name cut to `each` characters."""
        return " v ".join(clean_text(s.name, each) if s.kind != "open" else "open" for s in self.seats)

    def people(self) -> set[int]:
        return {n for n, s in enumerate(self.seats) if s.kind == "player"}

    def apply(self, record: Any) -> None:
        """Apply one record; HallRecordError (or the engine's LogError) says why it cannot be, and
        leaves the fold as it was for every check made before anything changes."""
        if not isinstance(record, dict):
            raise HallRecordError("not a hall record")
        op: Any = record.get("op")  # any JSON value: one that names no handler is refused below
        if self.revealed is not None:
            raise HallRecordError("a record after the seed was revealed")
        handler = {"seat": self._seat, "play": self._play, "dice": self._play, "takeback": self._takeback,
                   "answer": self._answer, "undo": self._undo, "reveal": self._reveal, "idle": self._idle,
                   "assist": self._assist}.get(op)
        if handler is None:
            raise HallRecordError(f"unknown record {clean_text(op, 20)!r}")
        at = record.get("at")
        if at is not None and (not isinstance(at, (int, float)) or isinstance(at, bool) or not 0 <= at < 1e11):
            raise HallRecordError("a record whose time is not a time")
        if self.abandoned and op != "reveal":
            raise HallRecordError("a record after the game was abandoned")
        actor = handler(record)
        self.count += 1
        self.actors.append(actor)
        if at is not None:
            self.last_at = float(at)

    def _by(self, record: dict) -> int:
        by = record.get("by")
        if not is_int(by) or not 0 <= by < len(self.seats):
            raise HallRecordError("no seat named as its author")
        return by

    def _seat(self, record: dict) -> int:
        seat, kind = record.get("seat"), record.get("kind")
        if not is_int(seat) or not 0 <= seat < len(self.seats):
            raise HallRecordError("a seat that the game does not have")
        if self.seats[seat].kind != "open":
            raise HallRecordError(f"seat {seat + 1} is taken already")
        name = record.get("name")
        if not isinstance(name, str) or not short_name(name):
            raise HallRecordError("a seat taken with no name")
        if kind == "player":
            uid = record.get("uid")
            if not is_int(uid) or uid < 0:
                raise HallRecordError("a seat taken by no user")
            self.seats[seat] = Seat("player", short_name(name), "", uid, record.get("key") is True)
        elif kind == "bot":
            by = self._by(record)
            if self.seats[by].kind != "player":
                raise HallRecordError("a bot seated by someone not seated")
            style = record.get("style")
            candidate = Seat("bot", short_name(name), clean_text(style, 20) if isinstance(style, str) else "")
            seats = self.seats[:seat] + [candidate] + self.seats[seat + 1 :]
            try:
                self.module.check_players(tuple(Player(s.name or "x", s.kind == "bot", s.style) for s in seats))
            except ValueError as error:
                raise HallRecordError(clean_text(error, 200)) from None
            self.seats[seat] = candidate
        else:
            raise HallRecordError("a seat taken by neither a player nor a bot")
        self._start_if_full()
        return seat

    def _play(self, record: dict) -> int | None:
        if self.session is None:
            raise HallRecordError("a move before every seat is taken")
        raw = record.get("events")
        if not isinstance(raw, (list, tuple)) or not raw:
            raise HallRecordError("no events in the record")
        events = [decode_event(e, self.module.EVENTS) for e in raw]
        if any(getattr(e, "typed", False) for e in events):
            raise HallRecordError("typed dice: a hall game's dice come from its seed")
        by = self._by(record) if record["op"] == "play" else None
        self.session.replay_batch(events, by)
        if self.takeback is not None:
            self.note = f"{self.seat_name(self.takeback.by)}'s takeback was dropped: the game went on"
            self.takeback = None
        return by

    def _assist(self, record: dict) -> int:
        """A hint a seated person asked for (saves/assists.py): beside the game, never in it."""
        by, kind, event = self._by(record), record.get("kind"), record.get("event")
        session = self.session
        if session is None or self.over:
            raise HallRecordError("an assist outside a game in progress")
        if self.seats[by].kind != "player":
            raise HallRecordError("an assist asked for a bot")
        if not isinstance(kind, str) or kind not in ASSIST_KINDS or not is_int(event) or event != len(session.events):
            raise HallRecordError("an assist that is not readable")
        session.labels.assists = (*session.labels.assists, (kind, event))
        return by

    def _takeback(self, record: dict) -> int:
        by, to = self._by(record), record.get("to")
        session = self.session
        if session is None or self.over:
            raise HallRecordError("a takeback outside a game in progress")
        if self.seats[by].kind != "player":
            raise HallRecordError("a takeback asked for a bot")
        if self.takeback is not None:
            raise HallRecordError("a takeback while another one waits")
        if not is_int(to) or not any(m.start == to and m.player == by for m in session.marks):
            raise HallRecordError("a takeback to a position that is not the asker's own move")
        self.takeback = Takeback(by, to, self.people() - {by})
        self.note = ""
        self.takeback.accepted = not self.takeback.waiting
        return by

    def _answer(self, record: dict) -> int:
        by, yes = self._by(record), record.get("yes")
        request = self.takeback
        if request is None or request.accepted or by not in request.waiting:
            raise HallRecordError("an answer to no takeback waiting for it")
        if not isinstance(yes, bool):
            raise HallRecordError("an answer that is neither yes nor no")
        if not yes:
            self.note = f"{self.seat_name(by)} refused {self.seat_name(request.by)}'s takeback"
            self.takeback = None
            return by
        request.waiting.discard(by)
        request.accepted = not request.waiting
        return by

    def _undo(self, record: dict) -> int:
        by = self._by(record)
        request = self.takeback
        if request is None or not request.accepted or request.by != by:
            raise HallRecordError("an undo with no takeback accepted")
        session = self.session
        assert session is not None  # a takeback was accepted: it was asked in a game in progress
        while len(session.events) > request.to:
            session.undo()
        # a seat handed over after the position taken back to is the bot's from there
        session.labels.handovers = tuple(replace(h, at=min(h.at, len(session.events))) for h in session.labels.handovers)
        self.takeback = None
        self.note = f"{self.seat_name(by)} took back a move"
        return by

    def _idle(self, record: dict) -> int:
        """A seat idle on its turn for `after` minutes (by the log's times) handed to a bot, or the
        game ended as abandoned, by another seated person."""
        by, seat, then, after, at = self._by(record), record.get("seat"), record.get("then"), record.get("after"), record.get("at")
        session = self.session
        if session is None or self.over:
            raise HallRecordError("an idle seat outside a game in progress")
        if self.seats[by].kind != "player" or then not in ("bot", "abandon"):
            raise HallRecordError("an idle seat claimed by no seated player, or for nothing")
        if not is_int(seat) or seat != session.to_act or seat == by or self.seats[seat].kind != "player":
            raise HallRecordError("an idle seat that is not another player's, on their turn")
        if not is_int(after) or not 1 <= after <= MAX_IDLE_MINUTES or at is None or self.last_at is None:
            raise HallRecordError("an idle seat with no time to tell it by")
        if at - self.last_at < after * 60:
            raise HallRecordError(f"seat {seat + 1} was not idle for {after} minutes")
        name = self.seat_name(seat)
        idle = f"{clean_text(name, 40)} (seat {seat + 1}) did not move for {counted(after, 'minute')}"
        if then == "abandon":
            self.abandoned = f"abandoned: {idle}"
            session.labels.abandoned = idle  # what a replay of it says
            self.takeback = None
            return by
        candidate = Seat("bot", bot_name(seat, len(self.seats), 1 + sum(s.kind == "bot" for s in self.seats)))
        seats = self.seats[:seat] + [candidate] + self.seats[seat + 1 :]
        try:
            players = self.module.check_players(tuple(Player(s.name or "x", s.kind == "bot", s.style) for s in seats))
        except ValueError as error:
            raise HallRecordError(clean_text(error, 200)) from None
        self.handed.setdefault(seat, self.seats[seat])
        self.seats = seats
        # the bot plays the seat from here; the moves so far stay the person's (a replay says so)
        handover = Handover(len(session.events), seat, session.players[seat], f"idle for {counted(after, 'minute')}")
        session.labels.handovers = (*session.labels.handovers, handover)
        session.players = players
        self.idle_notes.append(f"{idle}: seat {seat + 1} handed to {candidate.name}")
        if self.takeback is not None and self.takeback.by == seat:
            self.takeback = None  # a bot does not carry out a person's takeback
        elif self.takeback is not None:
            self.takeback.waiting.discard(seat)
            self.takeback.accepted = not self.takeback.waiting
        return by

    def _reveal(self, record: dict) -> None:
        seed = record.get("seed")
        if not self.over:
            raise HallRecordError("the seed revealed before the game is over")
        if not is_int(seed) or commitment(seed) != self.commitment:
            raise HallRecordError("the revealed seed does not match the commitment in the header")
        self.revealed = seed
        return None


class Folding(Protocol):
    """A log's fold: a game's (HallFold) or a match's (saves/hall/matches.py)."""

    count: int

    def apply(self, record: Any) -> None: ...


def fold_records(fold: Folding, records, label: str):
    """Apply each record to `fold` as it is read (before the next is read), yielding it once folded.
    Whatever a record holds, what is wrong with it is one HallError line naming the record: the
    one place where a fold's refusals become the log's damage."""
    for record in records:
        index = fold.count + 1
        try:
            fold.apply(record)
        except (HallRecordError, LogError, ValueError) as error:
            raise HallError(f"{label}: record {index}: {clean_text(error, 200)}") from None
        except Exception as error:  # a wrongly typed field the checks let through
            raise HallError(f"{label}: record {index}: not a valid record ({type(error).__name__})") from None
        yield record
