"""The hall: games shared by the people on one box, each an append-only log in a shared folder.

    hall = Hall()                                   # --hall DIR, $DICEHALL_HALL, or the default (hall_dir)
    game = hall.host("wager", ["player", "bot:best", "open"], name="Ann")   # Ann sits at seat 0
    other = hall.join(game.id, name="Bob")          # another terminal: the first open seat
    watcher = hall.watch(game.id)                   # read only; counted in the listing
    game.play(command)                              # for game.seat, or a bot's seat; StaleState if late
    while watcher.wait(timeout=5): watcher.follow() # in a worker thread: wake, then read what is new
    hall.listing()                                  # what `dicehall hall` prints

Layout of a hall folder (files 0660, folders 2770: the hall's group only, never the world):
    games/ID.dhh          the game's log (ID: 6 lowercase letters or digits)
    games/ID.seatN        seat N's lock (N from 0, as in the records): flock'd by the terminal holding it
    games/ID.watchers/PID one lock per live watcher
    games/ID.chat         the game's messages (saves/hall_chat.py), beside its log, never in it
    games/ID.dhh.torn     the cut-off tail of an append that was interrupted, kept aside
    secrets/ID            the game's secret seed, until it is revealed into the log at the end
    hall.toml             the admin's settings (idle_minutes = N: a seat idle on its turn that long)
Nothing in it is reached through a symbolic link: games/, secrets/ and ID.watchers/ are opened with
O_NOFOLLOW|O_DIRECTORY and every file is opened, made and removed relative to them (Hall.folder_fd).

The log has the save's framing (saves.MAGIC, then length/CRC-framed msgpack records; SaveScan reads
it). Its header has `hall: 1`, the game, rules, options, `seats` (each {"kind": "open"} or {"kind":
"bot", "name", "style"}), a `commitment` to the secret seed (never the seed), `name` and `created`.
Records, seats numbered from 0 as in the engine (people read them from 1):
    {"op": "seat", "seat": n, "kind": "player", "name": NAME, "uid": UID}   a person takes an open seat
    {"op": "seat", "seat": n, "kind": "bot", "name": NAME, "style": S, "by": s}   a seated person
                                                    puts a bot in an open seat before the game starts
    {"op": "play", "by": s, "events": [...]} / {"op": "dice", "events": [...]}   as in a save
    {"op": "takeback", "by": s, "to": n}            s asks to take back to event n (its own decision)
    {"op": "answer", "by": s, "yes": bool}          every other seated person answers; one no refuses
    {"op": "undo", "by": s}                         the asker, once all said yes: back to event n
    {"op": "reveal", "seed": SEED}                  the last record, once the game is over
    {"op": "idle", "by": s, "seat": n, "then": "bot"|"abandon", "after": MINUTES}   a seated person
                                                    hands seat n, idle on its turn, to a bot, or ends
                                                    the game as abandoned (see idle_minutes)
Every record this dicehall writes has "at" (unix time, when it was appended): an idle record must
come at least `after` minutes after the record before it, by the log's own times.
The game starts (its engine session is made, named after the seats) when no seat is open. Any play
cancels a takeback still waiting. Redo and typed dice are not used in the hall. Folding is pure and
checks every record (HallFold); a bad record is the log's damage, one line.

Every append goes through HallLog.append(record, expected): under an flock of the log it reads what
is new since this process's offset and refuses with StaleState if the log holds more than
`expected` records (a decision made on an old position), else writes the frame and fsyncs.
Followers read only from their offset (follow) and sleep in wait() on inotify (ctypes, Linux) or,
where that is missing, by polling every POLL_EVERY seconds.

Fair dice: the seed lives in secrets/ID, read only by the seated players' dicehall, which derives
the dice with the engine's counter-based chance and writes them into the log as events; followers
check the events against the rules only. At the end the seed is revealed into the log, and
`verify` checks it against the commitment and re-derives every die. See README, "The hall".
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import secrets as secret_source
import select
import stat
import struct
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from hashlib import blake2b
from pathlib import Path
from typing import Any

import engine
from engine.codec import decode_event
from engine.core import IllegalCommand, Player
from engine.errors import DicehallError
from engine.session import JournalError, LogError, Session
from engine.text import NAME_LIMIT, clean_text
from engine.words import counted
from replays.durable import write_durably
from saves import (FORMAT, MAGIC, SaveError, SaveScan, encode_record, keep_torn, os_reason, frame,
                   home, make_dirs, short_name, write_new)

HALL_FORMAT = 1
LOG_SUFFIX = ".dhh"
ID_LENGTH = 6
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
_ID = re.compile(r"[a-z0-9]{6}")
_SEAT_FILE = re.compile(r"([a-z0-9]{6})\.seat([0-9]{1,2})")
_OURS = re.compile(r"[a-z0-9]{6}(\.seat[0-9]{1,2}|\.watchers|\.chat|\.dhh\.torn(\.[0-9]{1,3})?)")
MAX_LOG = 16 * 1024 * 1024  # far above a real game: bounds what one hostile file can cost a listing
MAX_SEATS = 6
POLL_EVERY = 0.2  # seconds between looks when inotify is not to be had
ADMIN_HALL = Path("/var/games/dicehall")
FILE_MODE = 0o660
DIR_MODE = 0o2770
MAX_IDLE_MINUTES = 7 * 24 * 60  # the longest idle time the hall's setting may give (a week)
SETTINGS = "hall.toml"  # the admin's settings, in the hall folder: idle_minutes = N (0 or none: off)
SEAT_TRIES = 5  # a lister probing a seat's lock holds it for microseconds: a taker tries again


class HallError(SaveError):
    """Something the hall cannot do now; the message is one line for the player."""


class StaleState(HallError, JournalError):
    """A decision made on an old position: the log had grown. Nothing was written; the game object
    has already read what is new (the board is refreshed)."""


class SeatHeld(HallError):
    pass


class HallWriteFailed(HallError, JournalError):
    """An append that could not be written (a full disk): the log was cut back, nothing changed;
    `reason` is the short cause ("disk full")."""


class HallRecordError(DicehallError, ValueError):
    """A record that the hall's rules refuse; one line."""


def hall_dir(override: str | Path | None = None) -> Path:
    """The hall folder: `override` (--hall DIR), $DICEHALL_HALL, /var/games/dicehall when it exists
    and this user may write in it (an admin set it up), else DATA/hall (one person trying it)."""
    chosen = override or os.environ.get("DICEHALL_HALL")
    if chosen:
        return Path(chosen)
    if ADMIN_HALL.is_dir() and os.access(ADMIN_HALL, os.W_OK | os.X_OK):
        return ADMIN_HALL
    return home() / "hall"


def login_name() -> str:
    """The name a player sits down as when they give none: their login name."""
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no login name to be had: a seat still needs one
        return "Player"


def bot_name(seat: int, seats: int, bots: int) -> str:
    """A hall bot's name, the one-keyboard games' scheme: "Bot 3" by its seat number (as the wager's
    setup names its bots) wherever a game has more than two seats or more than one bot, so no two
    bots share a name; a lone bot of a two-seat game is "Bot", as Towers and War of Bones name it."""
    return f"Bot {seat + 1}" if seats > 2 or bots > 1 else "Bot"


def check_id(text: Any) -> str:
    """A hall game id as typed or listed: exactly 6 lowercase letters or digits, else HallError."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise HallError(f"{clean_text(text, 40)!r} is not a hall game id (6 lowercase letters or digits)")
    return text


def is_id(text: Any) -> bool:
    return isinstance(text, str) and bool(_ID.fullmatch(text))


def commitment(seed: int) -> str:
    """What the log's header holds instead of the seed: BLAKE2b of it (checked when it is revealed)."""
    return blake2b(f"dicehall hall seed {seed}".encode(), digest_size=32).hexdigest()


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _open_dir(parent: int, name: str, shown: str, create: bool = False) -> int:
    """A descriptor on the folder `name` inside the folder open as `parent`, never through a symbolic
    link (a hall member could aim one at another player's folder); made with mode 2770 and the
    parent's group if `create` and missing. FileNotFoundError if it is missing; HallError, one
    line naming it as `shown`, for a link, a file that is not a folder, or another failure."""
    made = False
    for _ in range(3):
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
            try:
                os.mkdir(name, DIR_MODE & 0o777, dir_fd=parent)
                made = True
            except FileExistsError:
                pass  # made by another process meanwhile: open theirs
            continue
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR):  # Linux says ENOTDIR for a link with O_DIRECTORY
                try:
                    link = stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
                except OSError:
                    link = error.errno == errno.ELOOP
                raise HallError(f"{shown}: {'a symbolic link' if link else 'not a folder'}: refused") from None
            raise HallError(f"{shown}: cannot open it ({os_reason(error)})") from None
        if made:  # through the descriptor: what is changed is the folder just made, whatever the name holds now
            try:
                os.fchown(fd, -1, os.fstat(parent).st_gid)
                os.fchmod(fd, DIR_MODE)  # mkdir's mode is reduced by the umask, and cannot set setgid
            except OSError:
                pass
        return fd
    raise HallError(f"{shown}: cannot be made (it keeps changing)")


def _take_parents_group(part: Path) -> None:
    try:  # the parent's group, even where the admin's folder lacks the setgid bit
        os.chown(part, -1, os.stat(part.parent).st_gid)
    except OSError:
        pass


def _open_nofollow(path: Path, flags: int, create: bool = False, dir_fd: int | None = None) -> int:
    """A descriptor on `path`, never through a symbolic link, never blocking on a FIFO; a regular file
    or HallError. Created files get FILE_MODE whatever the umask. With `dir_fd` (its folder, opened
    by _open_dir) the file is opened there by its name, so no folder on the way is a link either."""
    extra = os.O_CREAT if create else 0
    try:
        fd = os.open(path.name if dir_fd is not None else path,
                     flags | extra | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, FILE_MODE, dir_fd=dir_fd)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise HallError(f"{_shown(path)}: a symbolic link: refused") from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise HallError(f"{_shown(path)}: not a regular file: refused")
    if create and info.st_size == 0 and stat.S_IMODE(info.st_mode) != FILE_MODE and info.st_uid == os.getuid():
        os.fchmod(fd, FILE_MODE)
    return fd


def _shown(path: Path) -> str:
    return clean_text(f"{path.parent.name}/{path.name}", 80)


def in_words(error: "OSError | HallWriteFailed", folder: Path, outcome: str) -> HallError:
    """An OSError (or a failed append) met in the hall as one line for the player: what it means
    and what became of the request (`outcome`: "no seat was taken"), never an errno or a path
    outside the hall."""
    if isinstance(error, HallWriteFailed):
        if error.reason == "disk full":
            return HallError(f"disk full: {outcome}; make room and try again")
        return HallError(f"{error.reason}: {outcome}")
    name = error.filename
    where = ""
    if isinstance(name, (str, bytes, os.PathLike)) and name != "":
        full = os.fsdecode(name)
        relative = os.path.relpath(full, folder) if os.path.isabs(full) else full
        where = clean_text(relative if not relative.startswith("..") else os.path.basename(full), 80)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return HallError(f"disk full: {outcome}; make room and try again")
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        on = f" on {where}" if where else ""
        return HallError(f"cannot write in the hall: permission denied{on} (ask the box's admin); {outcome}")
    return HallError(f"{where + ': ' if where else ''}{os_reason(error).lower()}: {outcome}")


# ----- the fold: pure, checked -----
@dataclass
class Seat:
    kind: str  # "open", "player" or "bot"
    name: str = ""
    style: str = ""
    uid: int | None = None


@dataclass
class Takeback:
    by: int
    to: int
    waiting: set[int]  # the seats whose answer is still due
    accepted: bool = False


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class HallFold:
    """A hall game's state: its header checked, then every record applied by `apply` (pure: no I/O).
    `seed` is the secret for a seated process (its session checks every die against it) or None
    for a follower (dice are checked against the rules only)."""

    def __init__(self, header: Any, label: str, seed: int | None = None):
        self.label = label
        self.seed = seed
        if not isinstance(header, dict) or not _int(header.get("hall")) or header.get("hall") != HALL_FORMAT:
            version = header.get("hall") if isinstance(header, dict) else None
            if _int(version) and version > HALL_FORMAT:
                raise HallError(f"{label}: made by a newer dicehall (hall format {version})")
            raise HallError(f"{label}: not a hall game's log")
        game = header.get("game")
        try:
            self.module = engine.get_game(game if isinstance(game, str) else "")
        except ValueError as error:
            raise HallError(f"{label}: {error}") from None
        rules = header.get("rules")
        if not _int(rules) or rules < 1:
            raise HallError(f"{label}: the header's rules version is not readable")
        if rules > self.module.RULES_VERSION:
            raise HallError(f"{label}: made for newer {self.module.TITLE} rules")
        options, seats, pledge = header.get("options"), header.get("seats"), header.get("commitment")
        if not isinstance(options, dict) or not isinstance(seats, (list, tuple)) or not 1 <= len(seats) <= MAX_SEATS:
            raise HallError(f"{label}: the header is not readable")
        if not isinstance(pledge, str) or not re.fullmatch(r"[0-9a-f]{64}", pledge):
            raise HallError(f"{label}: the header has no commitment to its dice")
        self.commitment = pledge
        self.name = clean_text(header.get("name", "")) or self.module.TITLE
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
        self.abandoned = ""  # why the game was ended before its end (an idle seat), in words
        self.idle_notes: list[str] = []  # each seat handed to a bot for being idle, in words
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
        return outcome.summary if outcome is not None else ""

    def progress(self) -> str:
        """Where the game stands, in its own words (the game's progress, as the saves list shows it)."""
        if self.session is None:
            waiting = sum(s.kind == "open" for s in self.seats)
            return f"waiting for {waiting} open seat{'s' if waiting > 1 else ''}"
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
        op = record.get("op")
        if self.revealed is not None:
            raise HallRecordError("a record after the seed was revealed")
        handler = {"seat": self._seat, "play": self._play, "dice": self._play, "takeback": self._takeback,
                   "answer": self._answer, "undo": self._undo, "reveal": self._reveal, "idle": self._idle}.get(op)
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
        if not _int(by) or not 0 <= by < len(self.seats):
            raise HallRecordError("no seat named as its author")
        return by

    def _seat(self, record: dict) -> int:
        seat, kind = record.get("seat"), record.get("kind")
        if not _int(seat) or not 0 <= seat < len(self.seats):
            raise HallRecordError("a seat that the game does not have")
        if self.seats[seat].kind != "open":
            raise HallRecordError(f"seat {seat + 1} is taken already")
        name = record.get("name")
        if not isinstance(name, str) or not short_name(name):
            raise HallRecordError("a seat taken with no name")
        if kind == "player":
            uid = record.get("uid")
            if not _int(uid) or uid < 0:
                raise HallRecordError("a seat taken by no user")
            self.seats[seat] = Seat("player", short_name(name), "", uid)
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

    def _takeback(self, record: dict) -> int:
        by, to = self._by(record), record.get("to")
        session = self.session
        if session is None or self.over:
            raise HallRecordError("a takeback outside a game in progress")
        if self.seats[by].kind != "player":
            raise HallRecordError("a takeback asked for a bot")
        if self.takeback is not None:
            raise HallRecordError("a takeback while another one waits")
        if not _int(to) or not any(m.start == to and m.player == by for m in session.marks):
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
        while len(session.events) > request.to:
            session.undo()
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
        if not _int(seat) or seat != session.to_act or seat == by or self.seats[seat].kind != "player":
            raise HallRecordError("an idle seat that is not another player's, on their turn")
        if not _int(after) or not 1 <= after <= MAX_IDLE_MINUTES or at is None or self.last_at is None:
            raise HallRecordError("an idle seat with no time to tell it by")
        if at - self.last_at < after * 60:
            raise HallRecordError(f"seat {seat + 1} was not idle for {after} minutes")
        name = self.seat_name(seat)
        idle = f"{clean_text(name, 40)} (seat {seat + 1}) did not move for {counted(after, 'minute')}"
        if then == "abandon":
            self.abandoned = f"abandoned: {idle}"
            self.takeback = None
            return by
        candidate = Seat("bot", bot_name(seat, len(self.seats), 1 + sum(s.kind == "bot" for s in self.seats)))
        seats = self.seats[:seat] + [candidate] + self.seats[seat + 1 :]
        try:
            players = self.module.check_players(tuple(Player(s.name or "x", s.kind == "bot", s.style) for s in seats))
        except ValueError as error:
            raise HallRecordError(clean_text(error, 200)) from None
        self.seats = seats
        session.players = players  # the bot plays the seat from here (the seat's moves so far stay its own)
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
        if not _int(seed) or commitment(seed) != self.commitment:
            raise HallRecordError("the revealed seed does not match the commitment in the header")
        self.revealed = seed
        return None


# ----- the log: framing, locking, reading what is new -----
class _Tail:
    """A file read from a position with pread, counting the bytes read (a follower's cost)."""

    def __init__(self, fd: int, position: int, counter: list[int]):
        self.fd, self.position, self.counter = fd, position, counter

    def read(self, size: int = -1) -> bytes:
        data = os.pread(self.fd, size if size >= 0 else MAX_LOG, self.position)
        self.position += len(data)
        self.counter[0] += len(data)
        return data


class HallLog:
    """One hall game's log file, open for this process: `count` records after the header have been
    handed to the reader (or appended by it), ending at byte `offset`; `scanned` and
    `scanned_count` say how far an append under the lock has checked the framing (at least as far).

    Records are handed out one at a time as they are read (records()), so a reader checks each
    before the next is read: a damaged or crafted log costs its first bad record, never the file."""

    def __init__(self, path: Path, hall_gid: int | None, writable: bool, dir_fd: int | None = None):
        self.path = path
        self.label = path.stem
        flags = os.O_RDWR | os.O_APPEND if writable else os.O_RDONLY
        try:
            self.dir_fd = os.dup(dir_fd) if dir_fd is not None else os.open(path.parent, _DIR_FLAGS)
        except FileNotFoundError:
            raise HallError(f"no hall game {clean_text(path.stem, 20)} (dicehall hall lists them)") from None
        except OSError as error:
            raise HallError(f"{clean_text(path.parent.name, 60)}: cannot open it ({os_reason(error)})") from None
        self.fd = -1
        try:
            self._open(flags)
            info = os.fstat(self.fd)
            if hall_gid is not None and info.st_gid != hall_gid:
                raise HallError(f"{_shown(path)}: not owned by the hall's group: refused")
            if info.st_size > MAX_LOG:
                raise HallError(f"{_shown(path)}: too large for a hall game ({info.st_size} bytes)")
            self.bytes_read = [0]
            scan = SaveScan(_Tail(self.fd, 0, self.bytes_read), self.label, info.st_size)
            self.header = scan.header
        except BaseException:
            self.close()
            raise
        self.flags = flags
        self.identity = (info.st_dev, info.st_ino)
        self.offset = self.scanned = scan.good_end  # the header's end: records() reads on from here
        self.count = self.scanned_count = 0
        self.last_at: float | None = None  # the time of this process's last append

    def _open(self, flags: int) -> None:
        try:
            self.fd = _open_nofollow(self.path, flags, dir_fd=self.dir_fd)
        except FileNotFoundError:
            raise HallError(f"no hall game {clean_text(self.path.stem, 20)} (dicehall hall lists them)") from None
        except OSError as error:
            if flags & os.O_RDWR and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise HallError(f"cannot write in the hall: permission denied on {_shown(self.path)} "
                                f"(ask the box's admin)") from None
            raise HallError(f"{_shown(self.path)}: cannot open it ({os_reason(error).lower()})") from None

    def reopen(self, dir_fd: int) -> None:
        """Open the file again after close() (the listing keeps a game's fold, not its descriptors),
        to read on from `offset`; HallError if the name now holds another file."""
        self.dir_fd = os.dup(dir_fd)
        try:
            self._open(self.flags)
            info = os.fstat(self.fd)
            if (info.st_dev, info.st_ino) != self.identity or info.st_size < self.offset:
                raise HallError(f"{self.label}: the log was replaced")
        except BaseException:
            self.close()
            raise

    def records(self):
        """Each record appended since the last read (read from the offset only), as it is read. A
        record still being written is left for the next call; damage is HallError once the good
        records before it have been handed out."""
        size = os.fstat(self.fd).st_size
        if size == self.offset:
            return
        if size > MAX_LOG:
            raise HallError(f"{self.label}: too large for a hall game ({size} bytes)")
        scan = SaveScan(_Tail(self.fd, self.offset, self.bytes_read), self.label, size,
                        resume=(self.offset, self.count + 1))
        for record in scan.records:
            self.offset, self.count = scan.good_end, self.count + 1
            if self.count > self.scanned_count:
                self.scanned, self.scanned_count = self.offset, self.count
            yield record
        if scan.damage:
            raise HallError(f"{self.label}: {scan.damage}")

    def read_new(self) -> list[Any]:
        """Every record appended since the last read, unchecked (a reader that folds them should
        take records() instead, one at a time)."""
        return list(self.records())

    def _scan(self, locked: bool = False) -> None:
        """Check the framing of what was appended past `scanned` (keeping no record: the reader
        reads them from its offset when it folds them)."""
        size = os.fstat(self.fd).st_size
        if size == self.scanned:
            return
        if size > MAX_LOG:
            raise HallError(f"{self.label}: too large for a hall game ({size} bytes)")
        scan = SaveScan(_Tail(self.fd, self.scanned, self.bytes_read), self.label, size,
                        resume=(self.scanned, self.scanned_count + 1))
        for _ in scan.records:
            self.scanned_count += 1
        if scan.damage:
            raise HallError(f"{self.label}: {scan.damage}")
        self.scanned = scan.good_end
        if locked and scan.torn:  # under the lock no one is writing: a cut-off append, as a save's
            tail = os.pread(self.fd, size - self.scanned, self.scanned)
            keep_torn(self.path, tail, FILE_MODE, self.dir_fd)
            os.ftruncate(self.fd, self.scanned)
            os.fsync(self.fd)

    def append(self, record: dict, expected: int) -> None:
        """Append `record` if the log holds exactly `expected` records; else StaleState (what is
        new is then read by records()). Durable (fsync'd) before it returns."""
        record.setdefault("at", round(time.time(), 3))  # the log's own times: what an idle seat is told by
        self.last_at = record["at"]
        data = frame(encode_record(record))
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            self._scan(locked=True)
            if self.scanned_count != expected or self.count != expected:
                raise StaleState("the game moved on: your move was made on an old position; the board is refreshed")
            try:
                write_durably(self.fd, data)
            except OSError:
                os.ftruncate(self.fd, self.scanned)
                raise
            self.offset = self.scanned = self.scanned + len(data)  # every record before it was handed out
            self.count = self.scanned_count = self.scanned_count + 1
        except OSError as error:  # the write, or keeping a torn tail aside, on a full disk
            raise HallWriteFailed(f"{os_reason(error)}: nothing was written; try again", os_reason(error)) from None
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        for name in ("fd", "dir_fd"):
            if getattr(self, name, -1) >= 0:
                os.close(getattr(self, name))
                setattr(self, name, -1)


# ----- waiting for a change -----
class _Inotify:
    """Linux inotify through ctypes: wakes when a file of one game in the games folder is written,
    created, closed after writing or removed (a seat's holder leaving closes its lock file)."""

    MASK = 0x2 | 0x8 | 0x100 | 0x200 | 0x80 | 0x40  # MODIFY, CLOSE_WRITE, CREATE, DELETE, MOVED_TO, MOVED_FROM

    def __init__(self, folder: Path, prefix: str):
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        # ONLYDIR, DONT_FOLLOW: a games folder swapped for a link is not watched through it
        if libc.inotify_add_watch(self.fd, os.fsencode(folder), self.MASK | 0x01000000 | 0x02000000) < 0:
            error = ctypes.get_errno()
            os.close(self.fd)
            raise OSError(error, "inotify_add_watch")
        self.prefix = os.fsencode(prefix)

    def wait(self, timeout: float) -> bool:
        """True once an event about this game's files arrives within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready and self._ours():
                return True

    def _ours(self) -> bool:
        found = False
        try:
            data = os.read(self.fd, 64 * 1024)
        except BlockingIOError:
            return False
        at = 0
        while at + 16 <= len(data):
            _, _, _, length = struct.unpack_from("iIII", data, at)
            name = data[at + 16 : at + 16 + length].rstrip(b"\0")
            found = found or name.startswith(self.prefix)
            at += 16 + length
        return found

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


# ----- a game as one process sees it -----
@dataclass
class SeatView:
    seat: int  # from 0
    kind: str  # "open", "player", "bot"
    name: str
    status: str  # "open", "player" (held now), "bot", "disconnected", "idle" (on its turn too long)

    def words(self) -> str:
        """The seat as the lobby and `dicehall hall` show it: a bot by its name, so two bots differ."""
        return {"open": "open", "bot": f"{self.name} (bot)", "disconnected": f"{self.name} (disconnected)",
                "idle": f"{self.name} (idle)"}.get(
            self.status, self.name)


class HallGame:
    """One hall game as this process sees it: its fold (`session`, seats, takeback), the seat it
    holds (`seat`, None for a watcher or a follower) and its position in the log.

    Thread use: wait() may run in a worker thread while the screen's thread does the rest; close()
    only once that worker's wait() has returned. Errors are one line each: IllegalCommand (not
    now, and why), StaleState (someone moved first; already refreshed), SeatHeld, HallError (a
    damaged log, a full disk)."""

    def __init__(self, hall: "Hall", game_id: str, *, writable: bool, with_secret: bool, plays_bots: bool = False):
        self.hall = hall
        self.id = check_id(game_id)
        try:
            games = hall.folder_fd("games")
        except FileNotFoundError:  # no game was ever hosted in this hall
            raise HallError(f"no hall game {self.id} (dicehall hall lists them)") from None
        try:
            self.log = HallLog(hall.games / f"{self.id}{LOG_SUFFIX}", hall.gid(), writable, games)
        finally:
            os.close(games)
        self.seat: int | None = None
        self.plays_bots = plays_bots
        self._seat_fd = -1
        self._watch_fd = -1
        self._watch_dir_fd = -1  # the game's watchers folder, while this process is counted in it
        self._waiter: _Inotify | None | bool = None  # False: inotify is not to be had, poll
        self._seen_seats: list[str] | None = None  # the seats' statuses when last looked at
        self.held_back = ""  # what falls to this terminal but could not be written yet (a full disk), in words
        try:
            seed = hall.read_secret(self.id) if with_secret else None
            self.fold = HallFold(self.log.header, self.id, seed)
            self._fold(self.log.records())
        except BaseException:
            self.log.close()
            raise

    # ----- reading -----
    @property
    def session(self) -> Session | None:
        """The game's engine session (None until every seat is taken): draw state from it."""
        return self.fold.session

    @property
    def module(self):
        return self.fold.module

    @property
    def finished(self) -> bool:
        return self.fold.over

    def seats(self) -> list[SeatView]:
        """Every seat with who is in it now: its holder's lock says whether a player is connected
        (in a finished game nobody waits for a seat: its seats are simply the players)."""
        views = []
        over = self.finished
        for n, seat in enumerate(self.fold.seats):
            status = seat.kind
            if seat.kind == "player" and not over and n != self.seat and not self.hall.seat_held(self.id, n):
                status = "disconnected"
            if seat.kind == "player" and n != self.seat and self.idle_for(n):
                status = "idle"
            views.append(SeatView(n, seat.kind, seat.name, status))
        self._seen_seats = [view.status for view in views]
        return views

    @property
    def to_act(self) -> int | None:
        session = self.session
        return None if session is None or self.fold.abandoned else session.to_act

    # ----- idle seats -----
    def idle_for(self, seat: int, now: float | None = None) -> int | None:
        """The hall's idle time in minutes if `seat` is a person's, on its turn, and has not moved
        for that long (by the log's last time); else None. Off (None) unless the admin set it."""
        fold = self.fold
        if (fold.last_at is None or fold.over or self.session is None or seat != self.session.to_act
                or fold.seats[seat].kind != "player"):
            return None
        minutes = self.hall.idle_minutes()
        if not minutes:
            return None
        now = time.time() if now is None else now
        return minutes if now - fold.last_at >= minutes * 60 else None

    def idle_seat(self) -> int | None:
        """Another person's seat that is idle now (what this player may hand to a bot or end the game over)."""
        seat = self.to_act
        return seat if seat is not None and seat != self.seat and self.idle_for(seat) else None

    def claim_idle(self, then: str) -> None:
        """Hand the idle seat to move to a bot (`then` "bot") or end the game as abandoned ("abandon").
        IllegalCommand (one line) unless another person's seat is idle now by the hall's setting."""
        if self.seat is None:
            raise IllegalCommand("only the game's players can act on an idle seat")
        seat = self.to_act
        minutes = self.hall.idle_minutes()
        if not minutes:
            raise IllegalCommand("idle seats are off in this hall (its admin sets idle_minutes in hall.toml)")
        if seat is None or seat == self.seat or self.fold.seats[seat].kind != "player":
            raise IllegalCommand("no other player's turn is waiting: no seat is idle")
        now = time.time()
        if self.idle_for(seat, now) is None:
            left = max(1, int((self.fold.last_at or now) + minutes * 60 - now + 59) // 60)
            raise IllegalCommand(f"{clean_text(self.fold.seat_name(seat), 40)} is not idle yet: "
                                 f"{counted(left, 'minute')} to go (idle after {minutes})")
        self._append({"op": "idle", "by": self.seat, "seat": seat, "then": then, "after": minutes, "at": round(now, 3)})
        self._settle()

    @property
    def my_turn(self) -> bool:
        """Whether this process may decide now: its own seat's turn, or a bot's (any seated process
        may play a bot's turn; the log lets exactly one of them in)."""
        seat = self.to_act
        if seat is None or self.fold.takeback is not None and self.fold.takeback.accepted:
            return False
        return seat == self.seat or self.fold.seats[seat].kind == "bot" and (self.seat is not None or self.plays_bots)

    # ----- following -----
    def follow(self) -> list[Any]:
        """Fold the records appended since the last look (read from this process's offset only),
        then do what falls to this process: draw the dice a started game waits for, undo a
        takeback of ours that was accepted, reveal the seed of a finished game. Returns the new
        records (those of others; ours are folded as they are written)."""
        new = self._fold(self.log.records())
        self._settle()
        self.seats()  # what wait() compares with
        return new

    def wait(self, timeout: float) -> bool:
        """Block until this game's files change (a record, a seat's holder coming or going) or
        `timeout` seconds pass; True if something changed: then call follow() and seats().
        Returns at once if records are waiting to be read."""
        if self._waiter is None:  # made before the look below, so no change falls between the two
            try:
                self._waiter = _Inotify(self.hall.games, self.id + ".")
            except (OSError, AttributeError):  # not Linux, or out of inotify watches
                self._waiter = False
        if self._changed():
            return True
        if self._waiter is False:
            return self._poll(timeout)
        return self._waiter.wait(timeout)

    def _poll(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(min(POLL_EVERY, max(0.0, deadline - time.monotonic())))
            if self._changed():
                return True
        return False

    def _changed(self) -> bool:
        """Whether the log grew past what was read, or a seat's holder came or went since the
        seats were last looked at (follow() and seats() look)."""
        if os.fstat(self.log.fd).st_size != self.log.offset:
            return True
        seen = self._seen_seats
        return seen is not None and [v.status for v in self.seats()] != seen

    def _fold(self, records) -> list[Any]:
        """Fold each record as it is read (before the next is read); returns those folded."""
        folded = []
        for record in records:
            index = self.fold.count + 1
            try:
                self.fold.apply(record)
            except (HallRecordError, LogError, ValueError) as error:
                raise HallError(f"{self.id}: record {index}: {clean_text(error, 200)}") from None
            except Exception as error:  # a wrongly typed field the checks let through
                raise HallError(f"{self.id}: record {index}: not a valid record ({type(error).__name__})") from None
            folded.append(record)
        return folded

    # ----- writing -----
    def _append(self, record: dict) -> None:
        """Append a record made on the position this process has folded; StaleState after folding
        what others wrote first (naming who)."""
        try:
            self.log.append(record, self.fold.count)
        except StaleState:
            self._refresh_after_stale()
        self._fold([record])

    def _refresh_after_stale(self) -> None:
        """Fold what others wrote first, then raise StaleState naming who moved first."""
        first = self.fold.count
        self._fold(self.log.records())
        who = self.fold.seat_name(self.fold.actors[first]) if len(self.fold.actors) > first else "another player"
        raise StaleState(f"{who} moved first: your move was made on an old position; the board is refreshed") from None

    def _act(self, action, record_op: str, by: int | None) -> tuple:
        """Run a session action (play, or the dice of a fresh game) with each batch it makes
        appended to the log first; the session changes only if the append succeeds."""
        session = self.session
        game = self

        class Recorder:
            def append(self, record: dict) -> None:
                record = dict(record)
                if by is not None and record.get("op") == "play":
                    record["by"] = by
                game.log.append(record, game.fold.count)

        if self.fold.seed is None:
            raise HallError("this terminal cannot roll for the game (its secret seed is not readable here)")
        session.resume_seeded(resolve_pending=False)
        session.journal = Recorder()
        before = self.log.count
        try:
            batch = action()
        except StaleState:
            session.journal = None
            self._refresh_after_stale()
        finally:
            session.journal = None
        # the session has played the batch itself: count it as folded, with its author
        for _ in range(self.log.count - before):
            self.fold.count += 1
            self.fold.actors.append(by)
        if self.log.count > before:
            self.fold.last_at = self.log.last_at
        if self.fold.takeback is not None and self.log.count > before:
            self.fold.note = f"{self.fold.seat_name(self.fold.takeback.by)}'s takeback was dropped: the game went on"
            self.fold.takeback = None
        return batch

    def play(self, command: Any) -> tuple:
        """Play `command` for the seat to act (this process's seat, or a bot's). IllegalCommand if
        it is not this terminal's turn or the rules refuse it; StaleState if another terminal moved
        first (nothing written; the game is refreshed)."""
        self._refuse_unless_seated()
        if self.session is None:
            raise IllegalCommand("the game starts when every seat is taken")
        if self.fold.abandoned:
            raise IllegalCommand(f"the game is over: {self.fold.abandoned}")
        seat = self.to_act
        if not self.my_turn:
            who = self.fold.seat_name(seat) if seat is not None else "nobody"
            raise IllegalCommand(f"it is {who}'s turn, not yours" if seat is not None else "no move can be made now")
        batch = self._act(lambda: self.session.play(command), "play", seat)
        self._settle()
        return batch

    def ask_takeback(self) -> None:
        """Ask the other seated people to take back this seat's last decision (and everything
        after it). Against bots only, it is taken back at once."""
        self._refuse_unless_seated()
        session = self.session
        if session is None or self.finished:
            raise IllegalCommand("there is no game in progress to take back")
        if self.fold.takeback is not None:
            raise IllegalCommand("a takeback is waiting for answers already")
        mine = [m.start for m in session.marks if m.player == self.seat]
        if not mine:
            raise IllegalCommand("you have no move to take back")
        self._append({"op": "takeback", "by": self.seat, "to": mine[-1]})
        self._settle()

    def answer_takeback(self, yes: bool) -> None:
        self._refuse_unless_seated()
        request = self.fold.takeback
        if request is None or self.seat not in request.waiting:
            raise IllegalCommand("no takeback is waiting for your answer")
        self._append({"op": "answer", "by": self.seat, "yes": bool(yes)})
        self._settle()

    def _refuse_unless_seated(self) -> None:
        if self.seat is None and not self.plays_bots:
            raise IllegalCommand("you are watching this game: only its players move")

    def _settle(self) -> None:
        """What falls to whoever notices it first, each refused harmlessly if another did it. On a
        full disk it waits: what was written stays, `held_back` says what is not yet, and the next
        look (follow) tries again."""
        for _ in range(3):  # a StaleState here means someone else did it: look again
            pending = ""
            try:
                fold = self.fold
                request = fold.takeback
                if request is not None and request.accepted and request.by == self.seat:
                    pending = "your takeback is accepted but not made yet"
                    self._append({"op": "undo", "by": self.seat})
                elif (fold.started and not fold.over and self.session.chance_needed is not None
                      and fold.seed is not None and (self.seat is not None or self.plays_bots)):
                    pending = "the dice are not rolled yet"
                    self._act(lambda: self.session.resume_seeded(), "dice", None)
                elif fold.over and fold.revealed is None and fold.seed is not None:
                    pending = "the game is over and every move is in its log, but its seed is not revealed yet"
                    self._append({"op": "reveal", "seed": fold.seed})
                    self.hall.forget_secret(self.id)
                self.held_back = ""
                return
            except StaleState:
                continue
            except HallWriteFailed as error:  # nothing of it was written: the next look tries again
                self.held_back = f"{pending} ({error.reason}): the next look at the game does it"
                return

    # ----- seats and watching -----
    def _take(self, seat: int | None, name: str) -> None:
        """Take `seat` (the first open one if None) as `name`: a new seat, or one of ours back."""
        name = short_name(name)
        if not name:
            raise HallError("a player needs a name (--name)")
        uid = os.getuid()
        for _ in range(10):
            choice = seat if seat is not None else self._first_free(name, uid)
            if not 0 <= choice < len(self.fold.seats):
                raise HallError(f"{self.id} has no seat {choice + 1} (seats 1 to {len(self.fold.seats)})")
            current = self.fold.seats[choice]
            if current.kind == "bot":
                raise SeatHeld(f"seat {choice + 1} is a bot's")
            if current.kind == "player" and (current.name != name or current.uid != uid):
                raise SeatHeld(f"seat {choice + 1} is {current.name}'s: only they can take it back")
            fd = self.hall.lock_seat(self.id, choice, name)
            try:
                if current.kind == "open":
                    self._append({"op": "seat", "seat": choice, "kind": "player", "name": name, "uid": uid})
            except StaleState:
                os.close(fd)  # the seats changed meanwhile: look again
                continue
            except BaseException:
                os.close(fd)
                raise
            self._seat_fd, self.seat = fd, choice
            self._settle()
            return
        raise HallError("the seats keep changing: try again")

    def _first_free(self, name: str, uid: int) -> int:
        seats = self.fold.seats
        for n, s in enumerate(seats):  # our own disconnected seat first
            if s.kind == "player" and s.name == name and s.uid == uid and not self.hall.seat_held(self.id, n):
                return n
        for n, s in enumerate(seats):
            if s.kind == "open":
                return n
        raise SeatHeld(f"{self.id} has no open seat: watch it with dicehall watch {self.id}")

    def seat_bot(self, seat: int, style: str = "", name: str = "") -> None:
        """Put a bot in an open seat (a seated player, before the game starts)."""
        self._refuse_unless_seated()
        if self.seat is None or self.fold.started:
            raise IllegalCommand("bots are seated by a player before the game starts")
        if not 0 <= seat < len(self.fold.seats) or self.fold.seats[seat].kind != "open":
            raise IllegalCommand(f"seat {seat + 1} is not open")
        players = [Player(s.name or "x", s.kind == "bot" or n == seat, style if n == seat else s.style)
                   for n, s in enumerate(self.fold.seats)]
        try:  # checked before it is written: a record the fold refused would be the log's damage
            self.module.check_players(tuple(players))
        except ValueError as error:
            raise IllegalCommand(str(error)) from None
        bots = 1 + sum(s.kind == "bot" for s in self.fold.seats)
        self._append({"op": "seat", "seat": seat, "kind": "bot", "style": style, "by": self.seat,
                      "name": short_name(name) or bot_name(seat, len(self.fold.seats), bots)})
        self._settle()

    def _start_watching(self) -> None:
        games = self.hall.folder_fd("games")
        try:
            folder = _open_dir(games, f"{self.id}.watchers", f"games/{self.id}.watchers", create=True)
        finally:
            os.close(games)
        self._watch_dir_fd = folder
        name = str(os.getpid())
        path = self.hall.games / f"{self.id}.watchers" / name  # named in messages; opened in `folder`
        while True:
            fd = _open_nofollow(path, os.O_RDWR, create=True, dir_fd=folder)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:  # a lister may have removed the file as dead between our open and our lock
                if os.stat(name, dir_fd=folder, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        self._watch_fd = fd

    def close(self) -> None:
        """Leave the game: the seat's lock is released (the seat shows as disconnected)."""
        if self._watch_fd >= 0:
            try:
                if os.stat(str(os.getpid()), dir_fd=self._watch_dir_fd, follow_symlinks=False).st_ino == os.fstat(
                        self._watch_fd).st_ino:
                    os.unlink(str(os.getpid()), dir_fd=self._watch_dir_fd)
            except OSError:
                pass
            os.close(self._watch_fd)
            self._watch_fd = -1
        if self._watch_dir_fd >= 0:
            os.close(self._watch_dir_fd)
            self._watch_dir_fd = -1
        if self._seat_fd >= 0:
            os.close(self._seat_fd)
            self._seat_fd = -1
        if self._waiter not in (None, False):
            self._waiter.close()
        self.log.close()

    def __enter__(self) -> "HallGame":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ----- the hall -----
def _live_watcher(folder: int, name: str, gid: int | None) -> int:
    """1 if the file `name` in the watchers folder open as `folder` is a live watcher's lock; a dead
    watcher's is removed. Anything else (a link, a FIFO, a file with data or another name, of
    another group) was not made by a watcher: it is neither counted nor touched."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return 0
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_size or info.st_nlink != 1
                or gid is not None and info.st_gid != gid):
            return 0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 1
        try:  # its watcher is gone; removed only if the name still holds this very file
            if os.stat(name, dir_fd=folder, follow_symlinks=False).st_ino == info.st_ino:
                os.unlink(name, dir_fd=folder)
        except OSError:
            pass
        return 0
    finally:
        os.close(fd)


@dataclass
class _Listed:
    """What the listing read of one game: the log's (device, inode, size, mtime, ctime) then, and
    the game (its fold; its descriptors closed) or the problem line."""

    key: tuple | None
    game: "HallGame | None"
    problem: str | None


@dataclass
class HallEntry:
    """One line of `dicehall hall`: a game, or (`problem` set) a file that is not one."""

    id: str
    game: str = "?"  # the game's id ("towers")
    title: str = "?"  # the game's title ("Towers")
    name: str = ""  # who plays: "Ann v Bob"
    seats: list[SeatView] = field(default_factory=list)
    moves: int = 0
    watchers: int = 0
    finished: bool = False
    result: str = ""
    last_move: float = 0.0
    problem: str | None = None
    progress: str = ""  # where the game stands, in its own words ("placing: Light 0, Dark 0")

    def as_json(self) -> dict:
        return {"id": self.id, "game": self.game, "title": self.title, "name": self.name,
                "seats": [{"seat": v.seat + 1, "status": v.status, "name": v.name} for v in self.seats],
                "moves": self.moves, "watchers": self.watchers, "finished": self.finished, "result": self.result,
                "progress": self.progress,
                "last_move": datetime.fromtimestamp(self.last_move, timezone.utc).isoformat(timespec="seconds")
                if self.last_move else None, "problem": self.problem}


# what `verify` re-derived from the revealed seed, in each game's words (Towers has no chance at all)
RE_DERIVED = {
    "dicetower": "every die was re-derived from it",
    "wager": "every die was re-derived from it",
    "troll": "the deck's order and every die were re-derived from it",
    "bones": "every die and every landing was re-derived from it",
    "towers": "every move was checked against the rules (Towers has no dice: the seed decides nothing)",
}


class Hall:
    """A hall folder. `games` and `secrets` are made (2770) when a game is hosted."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = hall_dir(folder)
        self.games = self.folder / "games"
        self.secrets = self.folder / "secrets"
        self._listed: dict[str, _Listed] = {}  # what listing() read of each game, to read only what changed

    def folder_fd(self, name: str, create: bool = False) -> int:
        """A descriptor on the hall's folder `name` ("games", "secrets"), never through a symbolic link:
        every file of the hall is opened, made and removed relative to one of these. The hall folder
        itself is the admin's or the player's choice, and is taken as named. FileNotFoundError if
        the folder is missing (and not `create`); HallError, one line, for a link or a non-folder."""
        if create:
            make_dirs(self.folder, DIR_MODE, _take_parents_group)
        try:
            top = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise
        except OSError as error:
            raise HallError(f"cannot open the hall {clean_text(str(self.folder), 200)} ({os_reason(error)})") from None
        try:
            return _open_dir(top, name, name, create)
        finally:
            os.close(top)

    def idle_minutes(self) -> int | None:
        """The admin's idle time (hall.toml in the hall folder: `idle_minutes = N`), None when off:
        no file, 0, or anything unreadable (a setting that cannot be read changes nothing)."""
        import tomllib

        try:
            fd = _open_nofollow(self.folder / SETTINGS, os.O_RDONLY)
        except (OSError, HallError):
            return None
        try:
            text = os.read(fd, 4096).decode("utf-8", "replace")
        finally:
            os.close(fd)
        try:
            minutes = tomllib.loads(text).get("idle_minutes")
        except tomllib.TOMLDecodeError:
            return None
        return minutes if _int(minutes) and 1 <= minutes <= MAX_IDLE_MINUTES else None

    def gid(self) -> int | None:
        """The hall's group (the folder's): a game file of another group is not the hall's."""
        try:
            return os.stat(self.folder).st_gid
        except OSError:
            return None

    # ----- games -----
    def host(self, game: str, seats: list[str], name: str, *, options: dict | None = None,
             title: str = "") -> HallGame:
        """Open a new hall game. `seats`, one per seat: "player" (the host's seat, taken as `name`),
        "open" (for others to join), or "bot" / "bot:STYLE". With no "player" seat (bots against
        bots, to watch) the game returned plays the bots' turns instead of holding a seat."""
        module = engine.get_game(game)
        kinds = [s.strip() for s in seats]
        if kinds.count("player") > 1:
            raise HallError("the host takes one seat; leave the others open")
        header_seats = []
        bots = sum(kind == "bot" or kind.startswith("bot:") for kind in kinds)
        for n, kind in enumerate(kinds):
            if kind in ("player", "open"):
                header_seats.append({"kind": "open"})
            elif kind == "bot" or kind.startswith("bot:"):
                style = kind.partition(":")[2]
                header_seats.append({"kind": "bot", "name": bot_name(n, len(kinds), bots), "style": style})
            else:
                raise HallError(f"seat {n + 1}: {clean_text(kind, 20)!r} is not player, open or bot[:STYLE]")
        seed = secret_source.randbits(63)
        header = {"format": FORMAT, "hall": HALL_FORMAT, "dicehall": engine.VERSION, "game": game,
                  "rules": module.RULES_VERSION, "options": dict(options or {}), "seats": header_seats,
                  "commitment": commitment(seed), "name": short_name(title) or module.TITLE,
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        HallFold(header, "the new game", None)  # checks options and styles before any file is made
        made: list[str] = []  # the game's id once its files exist: removed again if hosting fails
        try:
            return self._open_new(game, kinds, name, seed, header, made)
        except BaseException as error:
            if made:
                self._unhost(made[0], len(MAGIC + frame(header)))
            if isinstance(error, (OSError, HallWriteFailed)):
                raise in_words(error, self.folder, "the game was not opened") from None
            raise

    def _open_new(self, game: str, kinds: list[str], name: str, seed: int, header: dict, made: list[str]) -> HallGame:
        os.close(self.folder_fd("games", create=True))
        os.close(self.folder_fd("secrets", create=True))
        for _ in range(100):
            game_id = "".join(secret_source.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            try:
                self._write_new("secrets", game_id, str(seed).encode())
            except FileExistsError:
                continue
            try:
                self._write_new("games", f"{game_id}{LOG_SUFFIX}", MAGIC + frame(header))
            except FileExistsError:
                self.forget_secret(game_id)
                continue
            except BaseException:
                self.forget_secret(game_id)  # no secret without its game
                raise
            made.append(game_id)
            break
        else:
            raise HallError("no free game id in the hall")
        hosted = HallGame(self, game_id, writable=True, with_secret=True, plays_bots="player" not in kinds)
        try:
            if "player" in kinds:
                hosted._take(kinds.index("player"), name)
            else:  # bots only: this process plays their turns, holding no seat
                hosted._settle()
        except BaseException:
            hosted.close()
            raise
        return hosted

    def _unhost(self, game_id: str, header_size: int) -> None:
        """Remove what a failed host made: the game's log (while it holds its header only: nobody
        has taken a seat), its seat locks and its secret."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return
        try:
            log = f"{game_id}{LOG_SUFFIX}"
            if os.stat(log, dir_fd=games, follow_symlinks=False).st_size != header_size:
                return  # a seat was taken meanwhile: the game is someone's now
            os.unlink(log, dir_fd=games)
            for seat in range(MAX_SEATS):
                try:
                    os.unlink(f"{game_id}.seat{seat}", dir_fd=games)
                except OSError:
                    pass
        except OSError:
            return
        finally:
            os.close(games)
        self.forget_secret(game_id)

    def join(self, game_id: str, seat: int | None = None, name: str = "") -> HallGame:
        """Take a seat (from 0; the first open one, or our own disconnected one, if None) for the
        life of this process; SeatHeld says who holds it."""
        try:
            joined = HallGame(self, game_id, writable=True, with_secret=True)
        except OSError as error:
            raise in_words(error, self.folder, "no seat was taken") from None
        try:
            joined._take(seat, name)
        except BaseException as error:
            joined.close()
            if isinstance(error, (OSError, HallWriteFailed)):
                raise in_words(error, self.folder, "no seat was taken") from None
            raise
        return joined

    def watch(self, game_id: str) -> HallGame:
        """Follow a game, read only, counted as a watcher while this process lives."""
        try:
            watching = HallGame(self, game_id, writable=False, with_secret=False)
        except OSError as error:
            raise in_words(error, self.folder, "the game cannot be watched") from None
        try:
            watching._start_watching()
        except BaseException as error:
            watching.close()
            if isinstance(error, OSError):
                raise in_words(error, self.folder, "the game cannot be watched") from None
            raise
        return watching

    def open(self, game_id: str, plays_bots: bool = False) -> HallGame:
        """The game as it stands, neither seated nor counted as a watcher. `plays_bots`: a process
        that plays the bots' turns of a game nobody sits in (bots against bots; the tests)."""
        return HallGame(self, game_id, writable=plays_bots, with_secret=plays_bots, plays_bots=plays_bots)

    def _write_new(self, folder: str, name: str, data: bytes) -> None:
        """saves.write_new of a new file `name` in the hall's folder `folder`, opened refusing a link."""
        fd = self.folder_fd(folder)
        try:
            write_new(self.folder / folder / name, data, FILE_MODE, fd)
        finally:
            os.close(fd)

    # ----- secrets -----
    def read_secret(self, game_id: str) -> int | None:
        """The game's seed, or None once it is revealed (or if it cannot be read here)."""
        try:
            secrets = self.folder_fd("secrets")
        except (OSError, HallError):
            return None
        try:
            fd = _open_nofollow(self.secrets / check_id(game_id), os.O_RDONLY, dir_fd=secrets)
        except (OSError, HallError):
            return None
        finally:
            os.close(secrets)
        try:
            text = os.read(fd, 40).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        return int(text) if re.fullmatch(r"[0-9]{1,20}", text) else None

    def forget_secret(self, game_id: str) -> None:
        try:
            secrets = self.folder_fd("secrets")
        except (OSError, HallError):
            return
        try:
            os.unlink(check_id(game_id), dir_fd=secrets)  # a link named so is removed itself, never followed
        except OSError:
            pass
        finally:
            os.close(secrets)

    # ----- locks -----
    def lock_seat(self, game_id: str, seat: int, name: str) -> int:
        """The descriptor holding seat `seat`'s lock (held until it is closed or the process ends),
        or SeatHeld naming who holds it."""
        path = self.games / f"{game_id}.seat{seat}"
        games = self.folder_fd("games")
        try:
            fd = _open_nofollow(path, os.O_RDWR, create=True, dir_fd=games)
        finally:
            os.close(games)
        if os.fstat(fd).st_nlink != 1:  # a second name of another file: never truncated nor written
            os.close(fd)
            raise HallError(f"{_shown(path)}: a file with another name too: refused")
        for attempt in range(SEAT_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == SEAT_TRIES - 1:
                    holder = clean_text(os.pread(fd, 200, 0).decode("utf-8", "replace").partition(" ")[2]) or "another terminal"
                    os.close(fd)
                    raise SeatHeld(f"seat {seat + 1} is held by {holder}") from None
                time.sleep(0.02)
        try:  # the holder's name is for others' refusals only: a full disk does not keep a seat from its player
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {name}\n".encode(), 0)
        except OSError:
            pass
        return fd

    def seat_held(self, game_id: str, seat: int) -> bool:
        """Whether a live process holds the seat's lock (a dead one's lock the kernel has freed)."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return False
        try:
            fd = _open_nofollow(self.games / f"{game_id}.seat{seat}", os.O_RDONLY, dir_fd=games)
        except (OSError, HallError):
            return False
        finally:
            os.close(games)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def watchers(self, game_id: str) -> int:
        """Live watchers of a game; a dead watcher's file is removed. The watchers folder is never
        listed through a link (a link there counts no one), and only a file a watcher made (an
        empty regular file of the hall's group, with no other name) is counted or removed."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return 0
        try:
            folder = _open_dir(games, f"{check_id(game_id)}.watchers", f"games/{game_id}.watchers")
        except (OSError, HallError):
            return 0
        finally:
            os.close(games)
        gid = self.gid()
        live = 0
        try:
            for name in os.listdir(folder):
                if name.isdigit():
                    live += _live_watcher(folder, name, gid)
        except OSError:
            pass
        finally:
            os.close(folder)
        return live

    # ----- listing -----
    def listing(self) -> list[HallEntry]:
        """Every game in the hall, the latest move first; a file that is not a good game is one
        entry with a `problem` line, and never stops the listing. A game whose log has not changed
        since the last listing by this Hall is not read again; one that grew is read from where the
        last listing stopped (the lobby lists every second)."""
        try:
            games = self.folder_fd("games")
        except FileNotFoundError:
            return []
        try:
            names = sorted(os.listdir(games))
        except OSError as error:
            raise HallError(f"cannot read the hall's games folder ({os_reason(error).lower()})") from None
        finally:
            os.close(games)
        entries = []
        for name in names:
            if _OURS.fullmatch(name):
                continue
            shown = clean_text(name, 60)
            if not name.endswith(LOG_SUFFIX) or not is_id(name[: -len(LOG_SUFFIX)]):
                entries.append(HallEntry(shown, problem=f"games/{shown}: not a hall game's name: left alone"))
                continue
            entries.append(self.entry(name[: -len(LOG_SUFFIX)]))
        listed = {entry.id for entry in entries}
        for gone in set(self._listed) - listed:
            del self._listed[gone]
        entries.sort(key=lambda e: (e.problem is None, e.last_move), reverse=True)
        return entries

    def entry(self, game_id: str) -> HallEntry:
        """One game's listing entry; whatever is wrong with it is its problem line."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError) as error:
            problem = str(error) if isinstance(error, HallError) else f"cannot read the hall ({os_reason(error)})"
            return HallEntry(game_id, problem=clean_text(problem, 300))
        try:
            try:
                info = os.stat(f"{check_id(game_id)}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False)
            except OSError:
                info = None
            key = None if info is None else (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
            listed = self._listed.get(game_id)
            if listed is None or key is None or listed.key != key:  # else nothing changed: nothing is read
                listed = _Listed(key, *self._read_for_listing(game_id, games, listed))
                self._listed[game_id] = listed
        finally:
            os.close(games)
        last = info.st_mtime if info is not None else 0.0
        if listed.game is None:
            return HallEntry(game_id, last_move=last, problem=listed.problem)
        game = listed.game
        fold = game.fold
        session = fold.session
        return HallEntry(game_id, fold.module.ID, fold.module.TITLE, fold.players_name(), game.seats(),
                         len(session.marks) if session else 0, self.watchers(game_id), fold.over,
                         clean_text(fold.result, 120), last, progress=clean_text(fold.progress(), 200))

    def _read_for_listing(self, game_id: str, games: int, listed: "_Listed | None") -> tuple["HallGame | None", str | None]:
        """The game as the listing keeps it (its fold, the log's descriptors closed), read on from
        the last listing's offset where it is the same file grown, else from the start; or None
        and the problem line."""
        try:
            game = listed.game if listed is not None else None
            if game is not None:
                try:
                    game.log.reopen(games)
                except HallError:
                    game = None  # replaced, or cut back: read afresh
                else:
                    try:
                        game.follow()
                    finally:
                        game.log.close()
            if game is None:
                game = HallGame(self, game_id, writable=False, with_secret=False)
                game.log.close()  # the fold is kept; the file is opened again only when it changes
            return game, None
        except SaveError as error:
            return None, clean_text(str(error), 300)
        except Exception as error:  # the per-game boundary: one bad file never stops the listing
            return None, f"{game_id}: cannot be read ({type(error).__name__})"

    # ----- finished games -----
    def finished_session(self, game_id: str) -> Session:
        """The whole game refolded with its revealed seed: the commitment checked and every die
        re-derived. HallError with one line if it is unfinished, unrevealed, or anything differs.
        The session is named after the game and its seats, as a replay of it shows them."""
        check_id(game_id)
        self._reveal_if_over(game_id)
        with HallGame(self, game_id, writable=False, with_secret=False) as game:
            if not game.finished:
                raise HallError(f"{game_id}: the game is not over yet (its dice stay secret until it is)")
            seed = game.fold.revealed
            if seed is None:
                raise HallError(f"{game_id}: the game is over but its seed was never revealed")
            log = HallLog(game.log.path, self.gid(), writable=False, dir_fd=game.log.dir_fd)
        try:  # again from the start, every die drawn from the seed and compared with the log's
            fold = HallFold(log.header, game_id, seed)
            for index, record in enumerate(log.records(), start=1):
                try:
                    fold.apply(record)
                except (HallRecordError, LogError, ValueError) as error:
                    raise HallError(f"{game_id}: record {index}: {clean_text(error, 200)}") from None
                except Exception as error:
                    raise HallError(f"{game_id}: record {index}: not a valid record ({type(error).__name__})") from None
        finally:
            log.close()
        session = fold.session
        session.save_name = fold.players_name()  # type: ignore[attr-defined]  # "Ann v Bob", as the lobby named it
        session.hall_result = fold.result  # type: ignore[attr-defined]  # the engine's, or why it was abandoned
        session.hall_notes = list(fold.idle_notes)  # type: ignore[attr-defined]  # seats handed to bots
        session.save_id = game_id  # type: ignore[attr-defined]
        return session

    def verify(self, game_id: str) -> str:
        """`dicehall verify ID`: a summary line, or HallError with one line saying what is wrong."""
        session = self.finished_session(game_id)
        players = ", ".join(p.name for p in session.players)
        notes = "".join(f"\n{note}" for note in session.hall_notes)
        return (f"ok: hall game {game_id}, {session.game.TITLE}, {players}, {len(session.events)} events, "
                f"{session.hall_result}{notes}\nthe revealed seed matches the commitment made when the game was "
                f"opened, and {RE_DERIVED.get(session.game.ID, 'every chance outcome was re-derived from it')}")

    def export(self, game_id: str, target: str | Path | None = None, overwrite: bool = False) -> Path:
        """Write a finished hall game as a replay (.dhr), as saves.export_save does for a save."""
        from saves import write_export

        return write_export(self.finished_session(game_id), f"hall-{game_id}", target, overwrite)

    def _reveal_if_over(self, game_id: str) -> None:
        """Reveal the seed of a game that ended without it (its last player left at once)."""
        if self.read_secret(game_id) is None:
            return
        try:
            with HallGame(self, game_id, writable=True, with_secret=True) as game:
                game._settle()
        except SaveError:
            pass
