"""A hall game's messages: lines its players and watchers send to everyone in it.

    chat = HallChat(hall, game.id, name="Ann", seat=0)     # seat None: a watcher ("Eve (watching)")
    chat.send("good luck")                                 # ChatRefused: one line (too fast, too big)
    for message in chat.follow(): print(message.words())   # only what is new since the last look

Stored beside the game's log, never in it (the log stays the game): games/ID.chat, with the save's
framing (saves.MAGIC, a header, then length/CRC-framed msgpack records), each record appended under
an flock of the file and fsync'd, as HallLog appends. A record is {"at": unix time, "name", "seat"
(None for a watcher), "uid", "text"}. Everything read is data from other people: unpacked with
limits, cleaned like every name (control characters stripped, never markup), capped at TEXT_LIMIT
characters; a sender is held to RATE messages per RATE_WINDOW seconds when sending and again when
reading (a writer that bypasses this module floods nobody's screen); at most KEEP messages are kept.
A damaged or oversized file is one line (`problem`), and messages stop there."""
from __future__ import annotations

import errno
import fcntl
import os
import struct
import time
import zlib
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.replays.durable import write_durably
from dicehall.saves import MAGIC, frame
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import check_id, open_nofollow, shown_path as _shown

CHAT_SUFFIX = ".chat"
TEXT_LIMIT = 200  # characters in one message
RATE = 5  # messages a sender may send ...
RATE_WINDOW = 10.0  # ... in this many seconds
MAX_CHAT = 1024 * 1024  # a game's messages file: past this no more are sent, and a larger file is refused
MAX_FRAME = 4096  # one record's bytes: far above TEXT_LIMIT characters in UTF-8 with its fields
READ_LIMIT = 64 * 1024  # bytes read in one look: a flood is read a slice at a time
KEEP = 200  # messages kept for the messages list
_FRAME = struct.Struct(">II")
HEADER = {"chat": 1}


class ChatRefused(HallError):
    """A message not sent (too fast, empty, the file full, the disk full); one line."""


@dataclass(frozen=True)
class ChatMessage:
    at: float
    name: str
    seat: int | None  # None: a watcher's
    text: str

    def words(self) -> str:
        """"Ann: hi", or "Eve (watching): hi" for a watcher's line."""
        who = self.name if self.seat is not None else f"{self.name} (watching)"
        return f"{who}: {self.text}"


def _unpack(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False, strict_map_key=True, max_str_len=MAX_FRAME, max_bin_len=0,
                           max_array_len=8, max_map_len=8, max_ext_len=0)


def _message(record: Any) -> ChatMessage | None:
    """A record as a message, or None if it is not one (skipped: one bad line hides no other)."""
    if not isinstance(record, dict):
        return None
    at, name, seat, text = record.get("at"), record.get("name"), record.get("seat"), record.get("text")
    if not isinstance(at, (int, float)) or isinstance(at, bool) or not isinstance(name, str) or not isinstance(text, str):
        return None
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 100):
        return None
    name, text = clean_text(name, NAME_LIMIT), clean_text(text, TEXT_LIMIT)
    if not name or not text:
        return None
    return ChatMessage(float(at), name, seat, text)


class HallChat:
    """One game's messages as this process sees them: `messages` (the last KEEP), read from the
    file's `offset` on by follow(); `problem` says in one line why no more can be read."""

    def __init__(self, hall, game_id: str, name: str, seat: int | None):
        self.hall = hall
        self.id = check_id(game_id)
        self.path: Path = hall.games / f"{self.id}{CHAT_SUFFIX}"
        self.name = clean_text(name, NAME_LIMIT) or "someone"
        self.seat = seat
        self.offset = 0  # 0: the header is not read yet
        self.messages: deque[ChatMessage] = deque(maxlen=KEEP)
        self.unseen: deque[ChatMessage] = deque(maxlen=KEEP)  # read but not yet taken by take_unseen()
        self.recent: dict[tuple[str, bool], deque[float]] = {}  # each sender's latest times, for the rate
        self.problem = ""
        self.fd = -1
        self.writable = False

    # ----- reading -----
    def _open(self, create: bool) -> bool:
        if self.fd >= 0 and (self.writable or not create):
            return True
        self.close()  # opened to read: opened again to write, the offset kept
        flags = os.O_RDWR | os.O_APPEND if create else os.O_RDONLY
        try:
            games = self.hall.folder_fd("games")  # inside the games folder, never through a link to it
            try:
                self.fd = open_nofollow(self.path, flags, create, dir_fd=games)
            finally:
                os.close(games)
            self.writable = create
        except FileNotFoundError:
            return False
        except OSError as error:
            if create:
                raise ChatRefused(_why(error, "the message was not sent")) from None
            self.problem = f"{_shown(self.path)}: cannot be read ({clean_text(error.strerror, 60)})"
            return False
        except HallError as error:
            self.problem = str(error)
            if create:
                raise ChatRefused(self.problem) from None
            return False
        gid = self.hall.gid()
        if gid is not None and os.fstat(self.fd).st_gid != gid:
            self.problem = f"{_shown(self.path)}: not owned by the hall's group: refused"
            self.close()
            if create:
                raise ChatRefused(self.problem)
            return False
        return True

    def follow(self) -> list[ChatMessage]:
        """The messages added since the last look (each sender held to the rate), at most READ_LIMIT
        bytes' worth per call; [] once `problem` is set."""
        if self.problem or not self._open(create=False):
            return []
        size = os.fstat(self.fd).st_size
        if size > MAX_CHAT + MAX_FRAME:
            return self._broken(f"{_shown(self.path)}: too large for a game's messages ({size} bytes): not shown")
        if self.offset == 0:
            if size < len(MAGIC):
                return []
            if os.pread(self.fd, len(MAGIC), 0) != MAGIC:
                return self._broken(f"{_shown(self.path)}: not a game's messages: not shown")
            self.offset = len(MAGIC)
            header = self._frames(size, header=True)
            if header is None:
                return []
        return self._frames(size) or []

    def _frames(self, size: int, header: bool = False) -> list[ChatMessage] | None:
        data = os.pread(self.fd, min(size - self.offset, READ_LIMIT), self.offset)
        at, new = 0, []
        while at + _FRAME.size <= len(data):
            length, crc = _FRAME.unpack_from(data, at)
            end = at + _FRAME.size + length
            if length > MAX_FRAME:  # no sender writes it: skipped whole, never read
                if header or self.offset + end > size:
                    self._broken(f"{_shown(self.path)}: damaged after {len(self.messages) + len(new)} messages: no more are shown")
                    break
                at = end
                continue
            if end > len(data):
                break  # still being written, or past this slice: the next look
            payload = data[at + _FRAME.size : end]
            if zlib.crc32(payload) != crc:
                self._broken(f"{_shown(self.path)}: damaged after {len(self.messages) + len(new)} messages: no more are shown")
                break
            at = end
            try:
                record = _unpack(payload)
            except Exception:  # msgpack's limits and malformed data: the record is skipped
                record = None
            if header:
                self.offset += at
                if record != HEADER:
                    return self._broken(f"{_shown(self.path)}: not a game's messages: not shown")
                return []
            message = _message(record)
            if message is not None and self._within_rate(message):
                new.append(message)
        self.offset += at
        if header:
            return [] if self.problem else None
        self.messages.extend(new)
        self.unseen.extend(new)
        return new[-KEEP:]

    def take_unseen(self) -> list[ChatMessage]:
        """Every message read since the last call, by follow() or by send() (which reads first)."""
        taken = list(self.unseen)
        self.unseen.clear()
        return taken

    def _within_rate(self, message: ChatMessage) -> bool:
        times = self.recent.setdefault((message.name, message.seat is None), deque(maxlen=RATE))
        if len(times) == RATE and message.at - times[0] < RATE_WINDOW:
            return False
        times.append(message.at)
        return True

    def _broken(self, problem: str) -> list[ChatMessage]:
        self.problem = clean_text(problem, 200)
        return []

    # ----- writing -----
    def send(self, text: str, now: float | None = None) -> ChatMessage:
        """Append one message for everyone in the game; ChatRefused with one line if it cannot be."""
        text = clean_text(text, TEXT_LIMIT)
        if not text:
            raise ChatRefused("nothing to send: a message needs some text")
        self._open(create=True)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(self.fd).st_size
            start = b"" if size else MAGIC + frame(HEADER)
            self.follow()  # what others sent, for this sender's rate as every reader counts it
            if self.problem:
                raise ChatRefused(self.problem)
            now = time.time() if now is None else now
            mine = self.recent.get((self.name, self.seat is None), ())
            if len(mine) == RATE and now - mine[0] < RATE_WINDOW:
                wait = max(1, int(RATE_WINDOW - (now - mine[0]) + 0.999))
                raise ChatRefused(f"slow down: at most {RATE} messages in {RATE_WINDOW:.0f} seconds; try again in {wait} s")
            record = {"at": round(now, 3), "name": self.name, "seat": self.seat, "uid": os.getuid(), "text": text}
            data = start + frame(record)
            if size + len(data) > MAX_CHAT:
                raise ChatRefused("this game's messages are full: no more can be sent")
            try:
                write_durably(self.fd, data)
            except OSError as error:
                os.ftruncate(self.fd, size)
                raise ChatRefused(_why(error, "the message was not sent; try again")) from None
            self.follow()  # our own line, read as every reader reads it
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        return ChatMessage(record["at"], self.name, self.seat, text)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _why(error: OSError, then: str) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full: {then}"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot write in the hall: permission denied (ask the box's admin): {then}"
    return f"{clean_text(error.strerror or type(error).__name__, 60)}: {then}"
