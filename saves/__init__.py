"""Saves: each game in progress is an append-only, fsync'd log of framed records on disk.

File layout: MAGIC, then framed records. A frame is a 4-byte big-endian length, the CRC32 of the
payload, and the msgpack payload. The first record is the header (format, game, rules version,
seed, options, players, name, created); the others are session operations: a decision with the
events it caused, typed dice, an undo, a redo. The session is rebuilt by replaying the operations,
each checked against the rules and the seed.

A save is held with an exclusive flock while open, so a second dicehall (a second SSH session)
is told it is in use instead of writing into it.

A frame whose declared end runs past the end of the file is a torn tail (the last append was cut
off) only when the bytes that are there are less than a whole record: a torn write is shorter than
its length says. If the rest of the file is exactly one whole record (its checksum matches those
bytes), or a whole record follows later, the length field is damaged: the load stops, as for a
checksum failure, and the record is kept. A torn tail is copied aside (`<save>.dhs.torn`) before it
is cut off, so no byte is thrown away unseen.

A save is read as a stream, one record at a time, so memory follows the game, not the file's size.

Format history: 1 stored players as [name, bot]; 2 stores [name, bot, style]. Older headers are
upcast one step at a time by UPCASTS.
"""
from __future__ import annotations

import errno
import fcntl
import io
import os
import re
import struct
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import msgpack

import engine
import engine.games
from engine.codec import DecodeError, check_nesting, decode_event, encode_event
from engine.core import player_from_record
from engine.errors import DicehallError
from engine.session import JournalError, LogError, Session
from engine.text import NAME_LIMIT, clean_text
from engine.words import counted
from replays.durable import open_regular, write_all, write_durably

MAGIC = b"DICEHALL-SAVE\n\x00\x00"
FORMAT = 2
SUFFIX = ".dhs"
TORN_SUFFIX = ".torn"
MAX_RECORD = 4 * 1024 * 1024
# What one record may hold when it is unpacked. The largest genuine record (a War of Bones turn) is
# under 1 KiB, 175 values, lists of 13 and maps of 6: these are far above that, and bound what a
# crafted record can cost (every value takes at least one byte, so at most MAX_UNPACKED of them).
MAX_UNPACKED = 64 * 1024
UNPACK_LIMITS = {"max_str_len": 4096, "max_bin_len": 0, "max_ext_len": 0, "max_array_len": 1024, "max_map_len": 64}
MAX_FILE = 64 * 1024 * 1024  # far above any real game; it bounds the time a hostile file can cost a list
TORN_SCAN_BUDGET = 64 * 1024 * 1024  # bytes checksummed while deciding whether a tail is torn
READ_CHUNK = 1024 * 1024  # a save is read this much at a time
_FRAME = struct.Struct(">II")


class SaveError(DicehallError):
    """A save that cannot be used; the message is one line for the player."""


class SaveInUse(SaveError):
    pass


class SaveUnreadable(SaveError):
    """The file could not be read (permissions, an I/O error): a fault of the moment, not of its bytes."""


class SaveDamaged(SaveError):
    def __init__(self, message: str, good_records: int):
        super().__init__(message)
        self.good_records = good_records


class SaveHealthy(SaveError):
    """recover_save was asked to recover a save that has nothing wrong with it; nothing was written."""


class SaveWriteFailed(SaveError, JournalError):
    """An append could not be written (a full disk): the file was cut back to its last whole record
    and the session was not changed, so play can go on once the disk has room again."""


class ExportExists(SaveError):
    """export_save would replace an existing file; `path` names it. Ask, then pass overwrite=True."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


def save_label(path: Path) -> str:
    """A save file's id as dicehall shows it: the file name without .dhs, control characters removed."""
    return clean_text(path.stem, 120)


def _shown(path: Path | str) -> str:
    return clean_text(str(path), 200)


def home() -> Path:
    """dicehall's data folder: $DICEHALL_HOME, else the platform's user data dir."""
    override = os.environ.get("DICEHALL_HOME")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("dicehall", appauthor=False))


def make_dirs(folder: Path, mode: int = 0o700, made=None) -> None:
    """Create `folder` and its missing parents with `mode` (whatever the umask); folders that already
    exist are left alone. `made(part)` is called on each folder made (the hall gives it its group)."""
    missing = []
    part = folder
    while not os.path.lexists(part) and part.parent != part:
        missing.append(part)
        part = part.parent
    for part in reversed(missing):
        try:
            part.mkdir(mode=mode & 0o777)
        except FileExistsError:
            continue  # made by someone else meanwhile: not ours to change
        os.chmod(part, mode)  # mkdir's mode is reduced by the umask, and cannot set setgid
        if made is not None:
            made(part)


def _make_private_dirs(folder: Path) -> None:
    make_dirs(folder, 0o700)


def saves_dir() -> Path:
    folder = home() / "saves"
    _make_private_dirs(folder)
    return folder


def replays_dir() -> Path:
    """Where the saves list exports replays unless told otherwise: `replays` beside `saves`."""
    folder = home() / "replays"
    _make_private_dirs(folder)
    return folder


def frame(record: Any) -> bytes:
    payload = msgpack.packb(record, use_bin_type=True)
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def _reason(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk full"
    return error.strerror or type(error).__name__


def error_line(error: BaseException) -> str:
    """What a refusal says to the player, in one line: a DicehallError's own words; an OSError as
    its cause and the file's name, never an errno or a whole path ("x.dhr: permission denied")."""
    if isinstance(error, OSError):
        name = error.filename
        shown = clean_text(os.path.basename(os.fsdecode(name)), 80) if isinstance(name, (str, bytes, os.PathLike)) else ""
        reason = _reason(error)
        reason = reason[:1].lower() + reason[1:]
        return f"{shown}: {reason}" if shown else reason
    lines = str(error).splitlines()
    return clean_text(lines[0], 400) if lines and lines[0] else type(error).__name__


class SaveJournal:
    """The open, locked file a session appends to; every append is fsync'd before it returns.

    An append that fails (a full disk) cuts the file back to its last whole record and raises
    SaveWriteFailed before the session changes, so no fragment is left for later records to land
    after, and play goes on once the disk has room."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd = fd
        self.size = os.fstat(fd).st_size  # the end of the last whole record

    def append(self, record: dict) -> None:
        label = save_label(self.path)
        if self.fd < 0:  # a JournalError, so a game screen says it in one line
            raise SaveWriteFailed(f"save {label} is closed: leave the game and continue it", "save closed")
        data = frame(_encode_record(record))
        try:
            write_durably(self.fd, data)
        except OSError as error:
            reason = _reason(error)
            try:
                os.ftruncate(self.fd, self.size)
                os.fsync(self.fd)
            except OSError:
                self.close()  # never append after a fragment; reopening the save cuts its end off
                raise SaveWriteFailed(f"{reason}: nothing was saved or changed; leave, make room, continue {label}",
                                      reason) from None
            raise SaveWriteFailed(f"{reason}: nothing was saved or changed; make room and try again", reason) from None
        self.size += len(data)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = -1


def _encode_record(record: dict) -> dict:
    if "events" in record:
        record = dict(record, events=[encode_event(e) for e in record["events"]])
    return record


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise SaveInUse(f"save {save_label(path)} is in use by another dicehall (another terminal or SSH session?)") from None
        raise


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug[:24] or "save"


def new_save(
    game: str,
    *,
    name: str = "",
    seed: int | None = None,
    options: dict | None = None,
    players: list | None = None,
    dice: list[int] | None = None,
    branch_of: dict | None = None,
) -> Session:
    """Create a save and return its session; every event played on it is appended durably.
    Without a name it is named after its players or options; a name another save has gets a number."""
    header, probe = _new_header(game, name, seed, options, players, branch_of)
    path, fd = _create_file(header["name"], MAGIC + frame(header), "create the save")
    try:
        journal = SaveJournal(path, fd)
        session = engine.new_session(game, seed=header["seed"], options=probe.options, players=probe.players, dice=dice,
                                     journal=journal)
    except (OSError, SaveError) as error:  # a full disk: leave no empty or half-written save behind
        os.close(fd)
        path.unlink(missing_ok=True)
        reason = _reason(error) if isinstance(error, OSError) else getattr(error, "reason", str(error))
        raise SaveError(f"could not create the save ({reason}); no file was left behind") from None
    session.save_name = header["name"]  # type: ignore[attr-defined]
    session.save_id = path.stem  # type: ignore[attr-defined]
    return session


def _new_header(game: str, name: str, seed: int | None, options: dict | None, players: list | None,
                branch_of: dict | None) -> tuple[dict, Session]:
    """A new save's header, with its name made distinct, and a probe session holding the checked
    options and players."""
    module = engine.get_game(game)
    seed = engine.new_seed() if seed is None else int(seed)
    probe = engine.new_session(game, seed=seed, options=options, players=players, dice=[])
    header = {
        "format": FORMAT,
        "dicehall": engine.VERSION,
        "game": game,
        "rules": module.RULES_VERSION,
        "seed": seed,
        "options": probe.options,
        "players": [p.record() for p in probe.players],
        "name": distinct_name(short_name(name) or default_name(module, probe.options, probe.players)),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if branch_of:
        header["branch_of"] = branch_of
    return header, probe


def _create_file(name: str, data: bytes, what: str) -> tuple[Path, int]:
    """A new save file under a free id made from `name`, holding `data` written in one durable
    write, and its descriptor, locked. On failure no file is left behind and SaveError says
    "could not WHAT (reason)"."""
    folder = saves_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(1000):
        save_id = f"{stamp}-{_slug(name)}" + (f"-{attempt}" if attempt else "")
        path = folder / (save_id + SUFFIX)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise SaveError("could not find a free file name for the save")
    _lock(fd, path)
    try:
        write_durably(fd, data)
        _fsync_dir(folder)
    except OSError as error:  # a full disk: leave no empty or half-written save behind
        os.close(fd)
        path.unlink(missing_ok=True)
        raise SaveError(f"could not {what} ({_reason(error)}); no file was left behind") from None
    return path, fd


def short_name(name: str) -> str:
    """A save's name cleaned and at most NAME_LIMIT long, ending in "..." where it was cut."""
    name = clean_text(name, 4 * NAME_LIMIT)
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 3] + "..."


def solo_players() -> list[engine.Player]:
    """The player of a one-player game (the Dice Tower, the troll) started at this terminal: the
    login name, as the hall seats a person who names nobody (the engine cleans and caps it)."""
    from saves.hall import login_name

    return [engine.Player(login_name())]


def default_name(module: Any, options: dict, players: Any) -> str:
    """A new save's name when the player gives none: who plays ("Ann v Bot"), else the game's
    options in a few words ("Tower from 100", "Sturdy, toys"), else the game's title."""
    people = [p.name for p in players]
    if len(people) > 1:
        return short_name(" v ".join(people))
    label = getattr(module, "game_label", None)
    if label is None:
        return module.TITLE
    words = clean_text(label(options))
    return words[:1].upper() + words[1:]


def read_header(path: Path) -> dict | None:
    """The header record of a save file, read alone (the names in use need no more); None if unreadable."""
    try:
        with os.fdopen(open_regular(path), "rb") as file:
            return SaveScan(file, save_label(path), 0).header
    except Exception:  # any damage: this file's name is simply not in use
        return None


def names_in_use(besides: Path | None = None) -> set[str]:
    """The names of every save (but `besides`), as the list shows them."""
    names = set()
    for path in saves_dir().glob("*" + SUFFIX):
        header = read_header(path) if path != besides else None
        if header is not None:
            names.add(clean_text(header.get("name", "")) or save_label(path))
    return names


def distinct_name(name: str, besides: Path | None = None) -> str:
    """`name`, or `name (2)`, `name (3)`...: the first that no other save has, so saves can be told apart."""
    taken = names_in_use(besides)
    if name not in taken:
        return name
    for number in range(2, 10_000):
        suffix = f" ({number})"
        candidate = name[: NAME_LIMIT - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    return name


@dataclass
class ParsedSave:
    header: dict
    records: list[Any]
    good_end: int  # byte offset just past the last good record
    torn: bool  # the file ends inside a record (cut off while writing)
    damage: str | None  # a record whose checksum or content is wrong
    size: int


class SaveScan:
    """A save's records read from an open binary file one at a time, never the whole file at once.

    `header` is read when the scan is made (SaveError if there is none). Iterating `records` gives
    the later records; when it stops, `torn`, `damage` and `good_end` say why, as for parse_save.
    A record whose length field alone is damaged (its bytes are all there and match its checksum)
    is still given, after `damage` is set, so a recovered save keeps that move."""

    def __init__(self, handle: Any, label: str, size: int, resume: tuple[int, int] | None = None):
        """`resume` (byte offset, record number): the handle is at that record, already past the
        header (a hall game's follower reads only what is new); `header` is then None."""
        self.handle = handle
        self.label = label
        self.size = size
        self.buffer = b""
        self.pos = 0  # where the next frame starts in `buffer`
        self.offset = len(MAGIC) if resume is None else resume[0]  # where it starts in the file
        self.good_end = self.offset
        self.torn = False
        self.damage: str | None = None
        self.index = 0 if resume is None else resume[1]
        if resume is not None:
            self.header = None
            self.records = self._frames()
            return
        if handle.read(len(MAGIC)) != MAGIC:
            raise SaveError(f"{label}: not a dicehall save")
        header = next(self._frames(), None)
        if header is None:
            raise SaveError(f"{label}: the header is damaged or missing")
        if not isinstance(header, dict):
            raise SaveError(f"{label}: the header is not readable")
        self.header = header
        self.records = self._frames()

    def _have(self, count: int) -> bool:
        """Make sure `count` bytes from the next frame on are in the buffer; False at the end of the file."""
        if len(self.buffer) - self.pos >= count:
            return True
        parts = [self.buffer[self.pos :]]
        have = len(parts[0])
        while have < count:
            try:
                more = self.handle.read(max(count - have, READ_CHUNK))
            except OSError as error:
                raise SaveUnreadable(f"{self.label}: cannot read it ({_reason(error)})") from None
            if not more:
                break
            parts.append(more)
            have += len(more)
        self.buffer = b"".join(parts)
        self.pos = 0
        return have >= count

    def _rest(self) -> bytes:
        """The rest of the file from the next frame on, when it is no longer than one record can be; else b""."""
        if self._have(_FRAME.size + MAX_RECORD + 1):
            return b""
        return self.buffer[self.pos :]

    def _frames(self):
        while self.damage is None and self._have(1):
            at = f"record {self.index} at byte {self.offset}"
            if not self._have(_FRAME.size):
                self.torn = True
                return
            length, crc = _FRAME.unpack_from(self.buffer, self.pos)
            if length > MAX_RECORD:
                self.damage = f"{at}: impossible length {length}"
                return
            if not self._have(_FRAME.size + length):
                tail = self.buffer[self.pos :]
                self.damage, whole = _past_the_end(tail, crc, at, length, self.offset)
                self.torn = self.damage is None
                if whole:
                    yield from self._unpacked(tail[_FRAME.size :], at)
                return
            end = self.pos + _FRAME.size + length
            payload = self.buffer[self.pos + _FRAME.size : end]
            if zlib.crc32(payload) != crc:
                rest = self._rest()[_FRAME.size :]
                if rest and zlib.crc32(rest) == crc:  # the last record, whole, with a wrong length
                    self.damage = (f"{at}: length {length} is wrong: the {len(rest)} bytes to the end of the file "
                                   f"are the whole record (they match its checksum)")
                    yield from self._unpacked(rest, at)
                else:
                    self.damage = f"{at}: checksum does not match"
                return
            record = self._unpack(payload, at)
            if self.damage is not None:
                return
            self.pos = end
            self.offset += _FRAME.size + length
            self.good_end = self.offset
            self.index += 1
            yield record

    def _unpack(self, payload: bytes, at: str) -> Any:
        if len(payload) > MAX_UNPACKED:  # checked before unpacking: a crafted record costs nothing
            self.damage = f"{at}: {len(payload)} bytes, more than a dicehall record holds"
            return None
        try:
            record = msgpack.unpackb(payload, raw=False, use_list=False, strict_map_key=True, ext_hook=_refuse_ext,
                                     **UNPACK_LIMITS)
            check_nesting(record)  # a record nested 600 deep would make str() and the checks recurse until they fail
            return record
        except Exception:
            self.damage = f"{at}: not readable"
            return None

    def _unpacked(self, payload: bytes, at: str):
        """A record whose length alone is damaged: given once if it can be read at all."""
        damage = self.damage
        record = self._unpack(payload, at)
        if self.damage == damage:
            yield record


def _past_the_end(tail: bytes, crc: int, at: str, length: int, offset: int) -> tuple[str | None, bool]:
    """Why a frame whose length runs past the end of the file (`tail` is the file from the frame
    on) is damage, or None for a torn tail; and whether the rest of the file is that whole record.

    A torn write is shorter than its length says: the bytes that are there are a cut-off record.
    If they are a whole record (they match its checksum), or a whole record follows them, the
    length is what is damaged."""
    if zlib.crc32(memoryview(tail)[_FRAME.size :]) == crc:
        return (f"{at}: length {length} runs past the end of the file, but the {len(tail) - _FRAME.size} bytes there "
                f"are the whole record (they match its checksum)"), True
    later = _later_frame(tail, _FRAME.size + 1)
    if later is None:
        return None, False
    if later < 0:
        return f"{at}: length {length} runs past the end of the file", False
    return f"{at}: length {length} runs past the end of the file, but a whole record follows at byte {offset + later}", False


def parse_save(data: bytes, label: str) -> ParsedSave:
    """Split a save held in memory into header and records, never raising for damage after the header."""
    scan = SaveScan(io.BytesIO(data), label, len(data))
    records = list(scan.records)
    return ParsedSave(scan.header, records, scan.good_end, scan.torn, scan.damage, len(data))


# Where a later frame could start: a length under MAX_RECORD (so its first byte is 0 and its second at
# most 0x40), any CRC, then a payload that opens as every dicehall record does: a small map (fixmap)
# whose first key is short text (fixstr). A regular expression finds these in C, overlapping.
_FRAME_START = re.compile(rb"(?=\x00[\x00-\x40][\x00-\xff]{6}[\x81-\x8f][\xa0-\xbf])", re.DOTALL)
assert MAX_RECORD <= 0x40FFFFFF


def _later_frame(data: bytes, start: int) -> int | None:
    """The offset of a whole frame (a length of 2 to MAX_RECORD, a matching CRC32, a record's first
    bytes) at or after `start`; None if there is none, so the bytes before `start` are a torn tail;
    -1 if telling would cost more than TORN_SCAN_BUDGET bytes of checksumming (the caller then calls
    it damage: the file is kept, never cut on a guess)."""
    view = memoryview(data)
    budget = TORN_SCAN_BUDGET
    for match in _FRAME_START.finditer(data, start):
        offset = match.start()
        length, crc = _FRAME.unpack_from(data, offset)
        end = offset + _FRAME.size + length
        if length > MAX_RECORD or end > len(data):
            continue
        budget -= length
        if budget < 0:
            return -1
        if zlib.crc32(view[offset + _FRAME.size : end]) == crc:
            return offset
    return None


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("msgpack extension types are not used by dicehall")


def _upcast_1(header: dict) -> dict:
    """Format 1 stored a player as [name, bot], read with bool(bot); format 2 as [name, bot, style].
    (Saves written between the style's arrival and format 2 already hold [name, bot, style].)"""
    players = header.get("players")
    if isinstance(players, (list, tuple)):
        players = [[entry[0], bool(entry[1]), ""] if isinstance(entry, (list, tuple)) and len(entry) == 2 else entry
                   for entry in players]
    return dict(header, format=2, players=players)


# Older save headers are upcast one step at a time: UPCASTS[n] turns a format-n header into format n+1.
UPCASTS: dict[int, Any] = {1: _upcast_1}


def upcast_header(header: dict, label: str) -> dict:
    """The header in the current format, or SaveError naming a format this dicehall cannot read."""
    version = header.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{label}: the header has no format version")
    if version > FORMAT:
        raise SaveError(f"{label}: made by a newer dicehall (save format {version}); this one reads format {FORMAT}")
    while version < FORMAT:
        if version not in UPCASTS:
            raise SaveError(f"{label}: save format {version} is too old to read")
        header = UPCASTS[version](dict(header))
        version = header["format"]
    return header


def _header_fields(header: dict, label: str) -> tuple:
    header = upcast_header(header, label)
    game = header.get("game")
    try:
        module = engine.get_game(game if isinstance(game, str) else "")
    except ValueError as error:
        raise SaveError(f"{label}: {error}") from None
    rules = header.get("rules")
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 1:  # rules versions count from 1
        raise SaveError(f"{label}: the header's rules version is not readable")
    if rules > module.RULES_VERSION:
        raise SaveError(f"{label}: made for newer {module.TITLE} rules (version {rules})")
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{label}: the header has no seed")
    options = header.get("options")
    players_raw = header.get("players")
    if not isinstance(options, dict) or not isinstance(players_raw, (list, tuple)) or len(players_raw) > 16:
        raise SaveError(f"{label}: the header is not readable")
    players = []
    for entry in players_raw:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise SaveError(f"{label}: a player in the header is not readable")
        try:
            players.append(player_from_record(entry, clean_text))
        except ValueError as error:
            raise SaveError(f"{label}: {error}") from None
    return module, seed, options, tuple(players)


def build_session(parsed: ParsedSave | SaveScan, label: str, journal: Any = None) -> Session:
    """Rebuild the session a save describes, checking every record; SaveDamaged names the first bad one.

    Whatever a record holds, the only errors are SaveError and SaveDamaged, one line each: an
    exception from a record the checks let through is that record's damage, so one bad file can
    never take down a list of saves or a command."""
    try:
        module, seed, options, players = _header_fields(parsed.header, label)
        session = Session(module, seed=seed, options=options, players=players, dice=[])
    except SaveError:
        raise
    except ValueError as error:
        raise SaveError(f"{label}: {error}") from None
    except Exception as error:
        raise SaveError(f"{label}: the header is not readable ({type(error).__name__})") from None
    session.save_name = _save_name(parsed.header, label)  # type: ignore[attr-defined]
    for index, record in enumerate(parsed.records, start=1):
        try:
            _replay_record(session, record, module)
        except (LogError, DecodeError, ValueError) as error:
            raise SaveDamaged(f"{label}: record {index}: {error}", index - 1) from None
        except Exception as error:  # a wrongly typed field the decoder let through
            raise SaveDamaged(f"{label}: record {index}: not a valid record ({type(error).__name__})", index - 1) from None
    session.journal = journal
    return session


def _save_name(header: dict, label: str) -> str:
    return clean_text(header.get("name", "")) or label


def _replay_record(session: Session, record: Any, module: Any) -> None:
    if not isinstance(record, dict):
        raise ValueError("not a save record")
    op = record.get("op")
    if op == "undo":
        session.undo()
    elif op == "redo":
        session.redo()
    elif op in ("play", "dice"):
        raw = record.get("events")
        if not isinstance(raw, (list, tuple)):
            raise ValueError("no events in the record")
        events = [decode_event(e, module.EVENTS) for e in raw]
        by = record.get("by")
        if op == "play" and (not isinstance(by, int) or isinstance(by, bool)):
            raise ValueError("a move with no player")
        session.replay_batch(events, by if op == "play" else None)
    else:
        raise ValueError(f"unknown record {str(op)[:20]!r}")


@dataclass
class SaveInfo:
    id: str
    name: str
    game: str
    title: str
    progress: str
    finished: bool
    last_played: float
    path: Path
    problem: str | None = None
    branch_of: str = ""  # "branch of NAME at event N" for a save made by continuing from a replay


def _find(name_or_id: str) -> Path:
    folder = saves_dir()
    candidates = sorted(folder.glob("*" + SUFFIX))
    for path in candidates:
        if path.stem == name_or_id:
            return path
    by_label = [path for path in candidates if save_label(path) == name_or_id]  # the id as listed
    if len(by_label) == 1:
        return by_label[0]
    if len(by_label) > 1:
        raise SaveError(f"more than one save file is listed as {clean_text(name_or_id, 120)!r}: rename one of them in {_shown(folder)}")
    by_name = [info.path for info in list_saves() if info.name == name_or_id]
    if len(by_name) == 1:
        return by_name[0]
    if len(by_name) > 1:
        raise SaveError(f"more than one save is named {clean_text(name_or_id)!r}: use its id (dicehall saves)")
    prefixed = [p for p in candidates if p.stem.startswith(name_or_id)]
    if len(prefixed) == 1 and name_or_id:
        return prefixed[0]
    raise SaveError(f"no save named {clean_text(name_or_id)!r} (dicehall saves lists them)")


@contextmanager
def _scanning(path: Path, label: str):
    """A SaveScan of the save at `path`, read a chunk at a time; an OSError becomes one SaveError line."""
    try:
        handle = os.fdopen(open_regular(path), "rb")  # a FIFO named like a save is refused, never waited on
        size = os.fstat(handle.fileno()).st_size
    except OSError as error:
        raise SaveUnreadable(f"{label}: cannot read it ({_reason(error)})") from None
    with handle:
        if size > MAX_FILE:
            raise SaveError(f"{label}: the file is too large to be a save ({size} bytes)")
        yield SaveScan(handle, label, size)


def list_saves() -> list[SaveInfo]:
    """Every save, most recently played first; damaged ones carry a `problem`. Every text field is
    cleaned of control characters, whatever the file is called or holds. Whatever goes wrong with
    one file is that file's one-line problem: the others are listed as usual.

    A save's summary is taken from the index (INDEX_NAME) while the file is exactly as it was when
    the summary was made; any other save is rebuilt from its records, and the index rewritten."""
    folder = saves_dir()
    index = _read_index(folder)
    kept: dict[str, dict] = {}
    infos = []
    for path in folder.glob("*" + SUFFIX):
        try:
            before = _fingerprint(path)
        except FileNotFoundError:
            continue  # deleted while we were listing
        info = _cached_info(index.get(path.name), path, before)
        if info is not None:
            kept[path.name] = index[path.name]
        else:
            info, cacheable = _summary(path, before.stat.st_mtime)
            if cacheable and before.checked and not before.racy() and _same_file(path, before) and _utf8(path.name):
                kept[path.name] = _index_entry(info, before)
        infos.append(info)
    if kept != index:
        _write_index(folder, kept)
    infos.sort(key=lambda info: info.last_played, reverse=True)
    return infos


def _summary(path: Path, mtime: float) -> tuple[SaveInfo, bool]:
    """A save's line in the list, rebuilt from its records; and whether it may be cached (not when
    the file could not be read: that is a fault of the moment, not of its bytes)."""
    shown = save_label(path)
    try:
        with _scanning(path, shown) as scan:
            session = build_session(scan, shown)
            outcome = session.outcome
            progress = session.game.progress(session.state) + (" (cut-off tail)" if scan.torn else "")
            problem = scan.damage and clean_text(f"{shown}: {scan.damage}", 300)
        return SaveInfo(shown, session.save_name, session.game.ID, session.game.TITLE,  # type: ignore[attr-defined]
                        progress, outcome is not None, mtime, path, problem, branch_text(scan.header)), True
    except Exception as error:  # the per-file boundary: SaveError is one line already
        problem = str(error) if isinstance(error, SaveError) else f"{shown}: cannot be read ({type(error).__name__})"
        cacheable = isinstance(error, SaveError) and not isinstance(error, SaveUnreadable)
        return SaveInfo(shown, shown, "?", "?", "damaged", False, mtime, path, clean_text(problem, 300)), cacheable


# ----- the index: a cache of the list's summaries, beside the saves -----
INDEX_NAME = "index.dhi"  # not *.dhs: never listed as a save
INDEX_FORMAT = 1
MAX_INDEX = 16 * 1024 * 1024
MAX_INDEX_SAVES = 1_000_000  # entries an index may hold (and a map in it): above it, it is rebuilt
FINGERPRINT_BYTES = 16 * 1024  # CRCs of this much of the file's start (the header) and of its end (the last records)
RACY_NS = 2_000_000_000  # a file changed this recently could change again within the same tick of its clock: not cached


@dataclass(frozen=True)
class Fingerprint:
    """What tells a save file from any changed version of it: its identity, size and times, and a
    CRC of its first and of its last bytes. `checked` is False when those bytes could not be read."""

    stat: os.stat_result
    head_crc: int = -1
    tail_crc: int = -1
    checked: bool = False

    def key(self) -> list[int]:
        st = self.stat
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, self.head_crc, self.tail_crc]

    def racy(self) -> bool:
        return time.time_ns() - max(self.stat.st_mtime_ns, self.stat.st_ctime_ns) < RACY_NS


def _fingerprint(path: Path) -> Fingerprint:
    """The file's fingerprint, read in constant time whatever its size (FileNotFoundError if it is gone)."""
    stat = os.stat(path)
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        raise
    except OSError:
        return Fingerprint(stat)
    try:
        stat = os.fstat(fd)
        head = os.pread(fd, FINGERPRINT_BYTES, 0)
        tail = os.pread(fd, FINGERPRINT_BYTES, max(0, stat.st_size - FINGERPRINT_BYTES))
        return Fingerprint(stat, zlib.crc32(head), zlib.crc32(tail), True)
    except OSError:
        return Fingerprint(stat)
    finally:
        os.close(fd)


def _same_file(path: Path, before: Fingerprint) -> bool:
    """Whether the file is still as it was before it was read (no writer changed it meanwhile)."""
    try:
        return _fingerprint(path).key() == before.key()
    except OSError:
        return False


def _utf8(name: str) -> bool:
    """Whether a file name can be a key of the index (a name that is not UTF-8 holds surrogates)."""
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _index_entry(info: SaveInfo, fingerprint: Fingerprint) -> dict:
    return {"file": fingerprint.key(), "name": info.name, "game": info.game, "progress": info.progress,
            "finished": info.finished, "problem": info.problem, "branch_of": info.branch_of}


def _is_text(value: Any, limit: int) -> bool:
    """Text as the list makes it: printable characters only, at most `limit` of them."""
    return isinstance(value, str) and len(value) <= limit and value == clean_text(value, limit)


def _cached_info(entry: Any, path: Path, fingerprint: Fingerprint) -> SaveInfo | None:
    """The save's summary from its index entry, or None when the entry is missing, does not match
    the file as it is now, or holds anything the list itself would not have written (the index is
    a file like any other: what it holds is checked, never trusted)."""
    if not isinstance(entry, dict) or not fingerprint.checked or entry.get("file") != fingerprint.key():
        return None
    name, game, progress = entry.get("name"), entry.get("game"), entry.get("progress")
    finished, problem, branch_of = entry.get("finished"), entry.get("problem"), entry.get("branch_of")
    titles = {known.id: known.title for known in engine.games.CATALOGUE}
    titles["?"] = "?"
    if not (_is_text(name, 120) and _is_text(progress, 400) and _is_text(branch_of, 200)
            and (problem is None or _is_text(problem, 300)) and isinstance(finished, bool)
            and isinstance(game, str) and game in titles):
        return None
    return SaveInfo(save_label(path), name, game, titles[game], progress, finished, fingerprint.stat.st_mtime, path,
                    problem, branch_of)


def _read_index(folder: Path) -> dict[str, Any]:
    """The index's entries by file name; empty if there is none or it cannot be read as one."""
    try:
        with os.fdopen(open_regular(folder / INDEX_NAME), "rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_INDEX:
                return {}
            data = handle.read(MAX_INDEX + 1)
        index = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_refuse_ext, max_bin_len=0,
                                max_ext_len=0, max_str_len=4096, max_array_len=64, max_map_len=MAX_INDEX_SAVES)
        check_nesting(index)
    except Exception:  # missing, unreadable, damaged or crafted: rebuilt from the saves
        return {}
    if not isinstance(index, dict) or index.get("format") != INDEX_FORMAT or not isinstance(index.get("saves"), dict):
        return {}
    return {name: entry for name, entry in index["saves"].items() if isinstance(name, str)}


def _write_index(folder: Path, entries: dict[str, dict]) -> None:
    """Replace the index in one step (a new file renamed over it); a failure leaves it as it was."""
    temporary = folder / f"{INDEX_NAME}.{os.getpid()}.tmp"  # one per process: two lists at once never share one
    try:
        # packb would start from a 256 KiB buffer: a list's memory follows its saves, not msgpack's defaults
        data = msgpack.Packer(buf_size=16 * 1024, use_bin_type=True).pack({"format": INDEX_FORMAT, "saves": entries})
        temporary.unlink(missing_ok=True)  # left by a process of this id that was killed while writing
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except (OSError, ValueError, TypeError):
        return
    try:
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, folder / INDEX_NAME)
    except OSError:
        temporary.unlink(missing_ok=True)  # the list does not need its cache: it goes on without it


def _recover_hint(label: str) -> str:
    return f"the file is kept as it is ('dicehall recover {label}' keeps the good part)"


def write_new(path: Path, data: bytes, mode: int, dir_fd: int | None = None) -> None:
    """Create `path` (never over an existing file, FileExistsError, nor through a link) and write
    `data` durably with `mode` whatever the umask (a hall's group needs its bits); the folder is
    synced, and a file left half written is removed. With `dir_fd` (the hall's folders, opened
    without following a link) the file is made in that folder, by its name only."""
    target = path.name if dir_fd is not None else path
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    try:
        os.fchmod(fd, mode)
        write_durably(fd, data)
    except BaseException:
        os.close(fd)
        try:
            os.unlink(target, dir_fd=dir_fd)
        except FileNotFoundError:
            pass
        raise
    os.close(fd)
    if dir_fd is not None:
        os.fsync(dir_fd)
    else:
        _fsync_dir(path.parent)


def _keep_torn(path: Path, tail: bytes, mode: int = 0o600, dir_fd: int | None = None) -> Path:
    """Copy a torn tail into a new file next to the save (never over an existing one); returns its path."""
    for attempt in range(1, 1000):
        aside = path.with_name(path.name + TORN_SUFFIX + (f".{attempt}" if attempt > 1 else ""))
        try:
            write_new(aside, tail, mode, dir_fd)
        except FileExistsError:
            continue
        return aside
    raise SaveError(f"{save_label(path)}: no free file name to keep its cut-off tail in")


def open_save(name_or_id: str) -> Session:
    """Open a save to play on: locked, checked, a torn last record cut off (with `session.notice`)
    after its bytes are copied to `<save>.dhs.torn`."""
    path = _find(name_or_id)
    shown = save_label(path)
    try:
        fd = open_regular(path, os.O_RDWR | os.O_APPEND)
    except OSError as error:
        raise SaveError(f"{shown}: cannot open it ({_reason(error)})") from None
    _lock(fd, path)
    try:
        with _scanning(path, shown) as scan:
            try:
                session = build_session(scan, shown)
            except SaveDamaged as error:
                raise SaveDamaged(f"{error}; {_recover_hint(shown)}", error.good_records) from None
            if scan.damage:
                raise SaveDamaged(f"{shown}: {scan.damage}; {_recover_hint(shown)}", scan.index - 1)
        notice = None
        if scan.torn:
            try:
                aside = _keep_torn(path, os.pread(fd, scan.size - scan.good_end, scan.good_end))
                os.ftruncate(fd, scan.good_end)
                os.fsync(fd)
            except OSError as error:
                raise SaveError(f"{shown}: its last record was cut off while writing, and the cut-off bytes could not be "
                                f"kept aside ({_reason(error)}); the file is left as it is") from None
            notice = (f"the last record of {shown} was cut off while writing ({counted(scan.size - scan.good_end, 'byte')}); "
                      f"it was removed, and its bytes kept in {clean_text(aside.name, 160)}")
    except BaseException:
        os.close(fd)
        raise
    session.journal = SaveJournal(path, fd)
    session.resume_seeded(resolve_pending=False)
    session.save_id = shown  # type: ignore[attr-defined]
    session.notice = notice  # type: ignore[attr-defined]
    return session


def close_save(session: Session) -> None:
    journal = session.journal
    if isinstance(journal, SaveJournal):
        journal.close()


def delete_save(name_or_id: str) -> None:
    path = _find(name_or_id)
    fd = os.open(path, os.O_RDWR)
    _lock(fd, path)  # never delete a save another dicehall is playing
    try:
        path.unlink()
    finally:
        os.close(fd)


def load_readonly(name_or_id: str) -> Session:
    """The session of a save, for exporting or viewing, without locking or changing the file."""
    path = _find(name_or_id)
    shown = save_label(path)
    with _scanning(path, shown) as scan:
        session = build_session(scan, shown)
        if scan.damage:
            raise SaveDamaged(f"{shown}: {scan.damage}", scan.index - 1)
    session.save_id = shown  # type: ignore[attr-defined]
    return session


def export_save(name_or_id: str, target: str | Path | None = None, overwrite: bool = False) -> Path:
    """Write a save as a replay file (.dhr) and return its path.

    `target` may be a file or a folder (then the file is `<folder>/<save id>.dhr`); without it, the
    current folder. An existing file is never replaced unless `overwrite` is true: ExportExists
    (a SaveError whose `path` names the file) is raised instead, so the caller can ask first.
    Other failures raise SaveError with one line; no temporary file is left behind."""
    session = load_readonly(name_or_id)
    return write_export(session, session.save_id, target, overwrite)  # type: ignore[attr-defined]


def write_export(session: Session, stem: str, target: str | Path | None, overwrite: bool) -> Path:
    """Write `session` as a replay to `target` (a file, or a folder: `<folder>/<stem>.dhr`; none: the
    current folder); ExportExists for a file already there unless `overwrite`, SaveError otherwise."""
    import replays

    default = f"{stem}{replays.SUFFIX}"
    path = Path(target) if target else Path.cwd() / default
    if path.is_dir():
        path = path / default
    try:
        replays.write_replay(session, path, overwrite=overwrite)
    except FileExistsError:
        raise ExportExists(f"{_shown(path)} already exists", path) from None
    except OSError as error:
        raise SaveError(f"cannot write {_shown(path)}: {error.strerror or type(error).__name__}") from None
    return path


def recover_save(name_or_id: str) -> str:
    """Copy the good records of a damaged save into a new save; the damaged file is kept. Returns the
    new id. A save with nothing wrong raises SaveHealthy and nothing is written. The file is read
    twice, a record at a time: once to find where the good part ends, once to copy it."""
    path = _find(name_or_id)
    shown = save_label(path)
    with _scanning(path, shown) as scan:
        good = None  # how many records after the header to copy; None: all that can be read
        try:
            build_session(scan, shown)
        except SaveDamaged as error:
            good = error.good_records
        header = scan.header
        if good is None and not scan.damage and not scan.torn:
            raise SaveHealthy(f"{shown} is not damaged: nothing to recover ('dicehall continue {shown}' opens it)")
    folder = saves_dir()
    header = dict(header, name=clean_text(f"{_save_name(header, shown)} (recovered)"))
    base = _slug(shown) if shown != path.stem else shown  # a file name with control characters is not copied
    for attempt in range(1000):
        new_path = folder / f"{base}-recovered{f'-{attempt + 1}' if attempt else ''}{SUFFIX}"
        try:
            fd = os.open(new_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise SaveError(f"{shown}: no free file name for the recovered save")
    try:
        with _scanning(path, shown) as scan:
            chunk = bytearray(MAGIC + frame(header))
            for index, record in enumerate(scan.records):
                if good is not None and index >= good:
                    break
                chunk += frame(record)
                if len(chunk) >= READ_CHUNK:
                    write_all(fd, chunk)
                    chunk.clear()
            write_durably(fd, chunk)
    except BaseException as error:
        os.close(fd)
        new_path.unlink(missing_ok=True)  # never leave half a save behind
        if isinstance(error, OSError):
            raise SaveError(f"could not write the recovered save ({_reason(error)}); nothing was written") from None
        raise
    os.close(fd)
    _fsync_dir(folder)
    return new_path.stem


def rename_save(name_or_id: str, new_name: str) -> str:
    """Give a save a new name and return it. The file keeps its id; only the header changes, written
    with the same records into a new file that replaces the old one at once (never half a save).
    Refused while another dicehall plays it, for an empty name, and for a name another save has."""
    path = _find(name_or_id)
    new_name = short_name(new_name)
    if not new_name:
        raise SaveError("a save needs a name")
    if new_name in names_in_use(besides=path):
        raise SaveError(f"another save is named {new_name!r} already")
    fd = os.open(path, os.O_RDWR)
    _lock(fd, path)  # never rename under another dicehall's feet
    try:
        header = read_header(path)
        if header is None:
            raise SaveError(f"{save_label(path)}: the header is damaged or missing")
        temporary = path.with_name(path.name + ".renaming")
        out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            try:
                with open(path, "rb") as source:  # every record after the header, byte for byte, a chunk at a time
                    source.seek(len(MAGIC))
                    length = _FRAME.unpack(source.read(_FRAME.size))[0]
                    source.seek(length, os.SEEK_CUR)
                    write_all(out, MAGIC + frame(dict(header, name=new_name)))
                    while chunk := source.read(READ_CHUNK):
                        write_all(out, chunk)
                os.fsync(out)
            finally:
                os.close(out)
            os.replace(temporary, path)
        except BaseException as error:
            temporary.unlink(missing_ok=True)  # never leave half a save behind
            if isinstance(error, OSError):
                raise SaveError(f"{save_label(path)}: not renamed ({_reason(error)}); the save is as it was") from None
            raise
        _fsync_dir(path.parent)
    finally:
        os.close(fd)
    return new_name


def branch_text(header: dict) -> str:
    """What a save branched from, in words, from its header ("" for a save started afresh)."""
    branch = header.get("branch_of")
    if not isinstance(branch, dict):
        return ""
    event = branch.get("event")
    at = f" at event {event}" if isinstance(event, int) and not isinstance(event, bool) else ""
    return f"branch of {clean_text(branch.get('name', '')) or 'a replay'}{at}"


def branch_save(session: Session, upto: int, name: str = "") -> Session:
    """A new save that replays `session`'s first `upto` events, ready to be played on from there.
    Its header names the save it branched from (`branch_of`), so the saves list can say so.

    The branch is played through the rules in memory, gathering the records a played game would
    have written, and the whole file is then written at once: linear in the events kept, one
    durable write, and no file at all if that write fails."""
    parent = getattr(session, "save_name", "") or session.game.TITLE
    branch_of = {"name": parent, "event": upto}
    if getattr(session, "save_id", None):
        branch_of["save"] = session.save_id  # type: ignore[attr-defined]
    header, probe = _new_header(session.game.ID, name or f"{parent[: NAME_LIMIT - 9]} (branch)", session.seed,
                                session.options, list(session.players), branch_of)
    records: list[dict] = []  # a list is a journal: the session appends each record to it
    new = engine.new_session(session.game.ID, seed=session.seed, options=probe.options, players=probe.players, dice=[],
                             journal=records)
    engine.replay_upto(session, new, session.settle(upto))  # settle: never cut an action from its own consequences
    data = b"".join([MAGIC, frame(header), *(frame(_encode_record(record)) for record in records)])
    path, fd = _create_file(header["name"], data, "make the branch")
    new.journal = SaveJournal(path, fd)
    new.save_name = header["name"]  # type: ignore[attr-defined]
    new.save_id = path.stem  # type: ignore[attr-defined]
    return new
