"""A hall game's messages: lines its players and watchers send to everyone in it, each shown as
written by whoever wrote its file, never by the name a line claims.

    chat = game.chat()                                     # a HallGame's: its seat, or a watcher
    chat.send("good luck")                                 # ChatRefused: one line (too fast, quiet table, full)
    for message in chat.follow(): print(message.words())   # only what is new since the last look

One file per writer beside the game's log (saves/hall/chat_files.py), never in it, made by its writer
only (0660, never through a link), with the save's framing, appended under an flock and fsync'd. A
record is {"at": unix time, "name", "seat" (None for a watcher), "uid", "text"}: name and seat are claims.

Who wrote a line is its file's: the file's owner must be the UID in its name (else the file is
refused), and the name shown is
  - on a box, for a file of this account (every player behind the shared account): its PLAYER,
    which only dicehall --player writes (players there have no shell);
  - off a box, for a file of this user: the line's own name (only this user writes it);
  - for another user's file: that user's login name (pwd), "PLAYER@login" where it names a PLAYER.
A seat a line claims is checked against the game's seats (the seat's person has the file's user,
and on a box its PLAYER); a line claiming a seat or a name that is not its writer's is "(forged)".
A table whose watchers are "quiet" (the log's header) drops every line not from a seat.

The lines already in the files when this reader first looks are the history: all read (a slice of
READ_LIMIT bytes per file per look), never announced. Lines after that are held to RATE per
RATE_WINDOW seconds per writer, counted as they arrive by this reader's own monotonic clock (the
times lines claim are data: they only order the lines of one look). Everything read is data from
other people: unpacked with limits, cleaned like every name, capped at TEXT_LIMIT characters; at
most KEEP messages are kept. A damaged or hostile file is one line (`problems`), and only that
file stops. The shared games/ID.chat of dicehall before issue #29 is never read: its senders
cannot be told."""
from __future__ import annotations

import errno
import fcntl
import math
import os
import time
import zlib
from collections import deque
from typing import Any

from dicehall.durable import write_durably
from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.saves import MAGIC, frame
from dicehall.saves.box import box_player
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import open_nofollow, shown_path as _shown

from dicehall.saves.hall.chat_find import WriterFiles
from dicehall.saves.hall.chat_files import (HEADER, KEEP, MAX_CHAT, MAX_FRAME, RATE, RATE_WINDOW, READ_LIMIT,  # noqa: F401
                                           RECORD_FRAME, TEXT_LIMIT, WATCHERS_OPEN, ChatMessage, WriterFile, account_name,
                                           claimed_order, claims_of, unpack_record, writer_file)


class ChatRefused(HallError):
    """A message not sent (too fast, empty, a quiet table, the file full, the disk full); one line."""


class HallChat(WriterFiles):
    """One game's messages as this process sees them: `messages` (the last KEEP), read by follow()
    from each writer's file; `problems` says in one line each what could not be read."""

    def __init__(self, game, name: str | None = None):
        self.game = game  # a HallGame: its hall, id, seat, and fold (the seats and the table's watchers)
        self.hall = game.hall
        self.id = game.id
        self.seat: int | None = game.seat
        self.uid = os.getuid()
        self.player = box_player()
        self.identity = self.player or account_name(self.uid)  # who this terminal writes as
        seated = self.seat is not None and game.fold.seats[self.seat].name
        self.name = clean_text(name or seated or self.identity, NAME_LIMIT) or "someone"  # the name our lines claim
        self.file = writer_file(self.id, self.uid, self.player)
        self.writers: dict[str, WriterFile] = {}
        self.looked = False  # the games folder was listed once: files found later are read as they arrive
        self.listed: tuple[tuple, float] | None = None  # the folder's (mtime, ctime) and when it was listed
        self.games_fd = -1
        self.write_fd = -1
        self.messages: deque[ChatMessage] = deque(maxlen=KEEP)
        self.unseen: deque[ChatMessage] = deque(maxlen=KEEP)  # others' live lines not yet taken by take_unseen()
        self.arrivals: dict[tuple, deque[float]] = {}  # each writer's latest arrivals, for the rate
        self.sent_at: deque[float] = deque(maxlen=RATE)  # the times our own lines claim, for our own rate
        self.dropped = 0  # live lines not shown: their writer sent too fast
        self.problems: dict[str, str] = {}  # file (or "" for the folder) -> one line
        self.clock = time.monotonic  # this reader's clock for the rate (a test may set its own)

    @property
    def problem(self) -> str:
        """The latest thing that could not be read, in one line ("" if none)."""
        return next(reversed(self.problems.values()), "")

    @property
    def behind(self) -> bool:
        """Whether a file holds more than the last look read (follow() again to read it)."""
        return any(writer.behind for writer in self.writers.values())

    def quiet(self) -> bool:
        """Whether only the game's players may write (its host's choice, in the log's header)."""
        return getattr(self.game.fold, "watchers", WATCHERS_OPEN) != WATCHERS_OPEN

    def why_not_send(self) -> str:
        """Why this terminal may not send here, or "" if it may."""
        if self.seat is None and self.quiet():
            return f"the players of game {self.id} keep its messages to themselves: watchers read them"
        return ""

    # ----- reading -----
    def _note(self, key: str, problem: str) -> None:
        self.problems.pop(key, None)
        self.problems[key] = clean_text(problem, 200)

    def _games(self) -> bool:
        """The games folder open (never through a link); False (and a problem, unless it is not made yet) if not."""
        if self.games_fd >= 0:
            return True
        try:
            self.games_fd = self.hall.folder_fd("games")
        except FileNotFoundError:
            return False
        except HallError as error:
            self._note("", str(error))
            return False
        self.problems.pop("", None)
        return True

    def _broken(self, writer: WriterFile, problem: str) -> bool:
        writer.problem = clean_text(problem, 200)
        writer.close()
        self._note(writer.name, writer.problem)
        return False

    def follow(self) -> list[ChatMessage]:
        """The messages added since the last look, at most READ_LIMIT bytes' worth of each file
        (`behind` says whether more is waiting)."""
        if not self._games():
            return []
        self._list()
        new: list[ChatMessage] = []
        for writer in list(self.writers.values()):
            if not writer.problem and self._open(writer):
                new += self._read(writer)
        new.sort(key=claimed_order)
        self.messages.extend(new)
        self.unseen.extend(m for m in new if m.live and not m.mine)
        return new

    def _read(self, writer: WriterFile) -> list[ChatMessage]:
        shown = _shown(self.hall.games / writer.name)
        size = writer.size = os.fstat(writer.fd).st_size
        if size > MAX_CHAT + MAX_FRAME:
            self._broken(writer, f"{shown}: too large for a writer's messages ({size} bytes): not shown")
            return []
        if writer.offset == 0:
            if size < len(MAGIC):
                return []  # being made
            if os.pread(writer.fd, len(MAGIC), 0) != MAGIC:
                self._broken(writer, f"{shown}: not a game's messages: not shown")
                return []
            writer.offset = len(MAGIC)
        records, damaged = self._records(writer)
        if not writer.headed and records:
            if records[0][1] != HEADER:
                self._broken(writer, f"{shown}: not a game's messages: not shown")
                return []
            writer.headed = True
            records = records[1:]
        writer.count += len(records)
        if damaged:
            self._broken(writer, f"{shown}: damaged after {writer.count} messages: no more are shown")
        new = []
        for end, record in records:
            message = self._message(writer, record, live=end > writer.history_end)
            if message is not None:
                new.append(message)
        return new

    def _records(self, writer: WriterFile) -> tuple[list[tuple[int, Any]], bool]:
        """(end offset, record or None) of each whole frame from the writer's offset on, at most
        READ_LIMIT bytes' worth (the offset moves past them), and whether the file is damaged there.
        A frame too long for any writer is skipped whole; a bad CRC is the file's damage."""
        size = writer.size
        data = os.pread(writer.fd, min(size - writer.offset, READ_LIMIT), writer.offset)
        at = 0
        records: list[tuple[int, Any]] = []
        while at + RECORD_FRAME.size <= len(data):
            length, crc = RECORD_FRAME.unpack_from(data, at)
            end = at + RECORD_FRAME.size + length
            if length > MAX_FRAME:  # no sender writes it: skipped whole, never read
                if not writer.headed and not records or writer.offset + end > size:
                    return self._moved(writer, at, records), True
                at = end
                continue
            if end > len(data):
                break  # still being written, or past this slice: the next look
            payload = data[at + RECORD_FRAME.size : end]
            if zlib.crc32(payload) != crc:
                return self._moved(writer, at, records), True
            try:
                record = unpack_record(payload)
            except Exception:  # msgpack's limits and malformed data: the record is skipped
                record = None
            at = end
            records.append((writer.offset + at, record))
        return self._moved(writer, at, records), False

    @staticmethod
    def _moved(writer: WriterFile, at: int, records: list) -> list:
        writer.offset += at
        return records

    def _message(self, writer: WriterFile, record: Any, live: bool) -> ChatMessage | None:
        """A record as its writer's message; None if it is not one, if its writer may not write at
        this table, or (live) if its writer sent too fast."""
        claims = claims_of(record)
        if claims is None:
            return None
        at, claimed, seat, text = claims
        fold = self.game.fold
        trusted = writer.uid == self.uid and self.player is None  # our own user, off a box: only we write it
        if trusted:
            who = claimed
        elif writer.uid == self.uid:
            who = writer.player or account_name(writer.uid)  # this box's account: dicehall wrote it for PLAYER
        else:
            who = f"{writer.player}@{account_name(writer.uid)}" if writer.player else account_name(writer.uid)
        person = None
        if seat is not None and seat < len(fold.seats):
            person = fold.seats[seat] if fold.seats[seat].kind == "player" else fold.handed.get(seat)
        name_of_writer = claimed if trusted else writer.player
        held = person is not None and person.uid == writer.uid and name_of_writer in (None, person.name)
        forged = seat is not None and not held or claimed not in {who, writer.player, person.name if held and person is not None else None}
        if not held and self.quiet():
            return None
        mine = writer.name == self.file and (not trusted or (claimed, seat) == (self.name, self.seat))
        if mine and math.isfinite(at):
            self.sent_at.append(at)
        key = (writer.uid, writer.player if writer.uid == self.uid else None, claimed if trusted else None)
        if live and not self._arrived(key):  # another user's files are one writer, whatever their names
            self.dropped += 1
            return None
        shown = f"{person.name} ({who})" if held and person is not None and person.name != who else who
        return ChatMessage(shown, seat if held else None, text, at, forged, mine, live)

    def _arrived(self, key: tuple) -> bool:
        """Whether a writer's line that arrives now is within the rate (by this reader's clock)."""
        now = self.clock()
        times = self.arrivals.setdefault(key, deque(maxlen=RATE))
        if len(times) == RATE and now - times[0] < RATE_WINDOW:
            return False
        times.append(now)
        return True

    def take_unseen(self) -> list[ChatMessage]:
        """The others' lines that arrived since the last call (never the history, never ours)."""
        taken = list(self.unseen)
        self.unseen.clear()
        return taken

    # ----- writing -----
    def send(self, text: str, now: float | None = None) -> ChatMessage:
        """Append one message to this writer's file; ChatRefused with one line if it cannot be."""
        text = clean_text(text, TEXT_LIMIT)
        if not text:
            raise ChatRefused("nothing to send: a message needs some text")
        why = self.why_not_send()
        if why:
            raise ChatRefused(why)
        if not self._games():
            raise ChatRefused(self.problem or "the hall has no games folder: the message was not sent")
        fd = self._open_mine()
        try:
            size = os.fstat(fd).st_size
            self._catch_up()  # our own file read to its end: our rate as every reader of it counts it
            mine = self.writers.get(self.file)
            if mine is not None and mine.problem:
                raise ChatRefused(mine.problem)
            now = time.time() if now is None else now
            if len(self.sent_at) == RATE and now - self.sent_at[0] < RATE_WINDOW:
                wait = max(1, int(RATE_WINDOW - (now - self.sent_at[0]) + 0.999))
                raise ChatRefused(f"slow down: at most {RATE} messages in {RATE_WINDOW:.0f} seconds; try again in {wait} s")
            record: dict[str, Any] = {"at": round(now, 3), "name": self.name, "seat": self.seat, "uid": self.uid, "text": text}
            data = (b"" if size else MAGIC + frame(HEADER)) + frame(record)
            if size + len(data) > MAX_CHAT:
                raise ChatRefused("your messages in this game are full: no more can be sent")
            try:
                write_durably(fd, data)
            except OSError as error:
                self._undo_write(fd, size)
                raise ChatRefused(_why(error, "the message was not sent; try again")) from None
            self._catch_up()  # our own line, read as every reader reads it
        finally:
            if self.write_fd >= 0:
                fcntl.flock(self.write_fd, fcntl.LOCK_UN)
        return ChatMessage(self.name, self.seat, text, record["at"], mine=True)

    def _open_mine(self) -> int:
        """Our own file, opened to append and locked (made, 0660, if missing; never through a link)."""
        for _ in range(3):
            if self.write_fd < 0:
                try:
                    self.write_fd = open_nofollow(self.hall.games / self.file, os.O_RDWR | os.O_APPEND, True,
                                                  dir_fd=self.games_fd)
                except HallError as error:
                    raise ChatRefused(str(error)) from None
                except OSError as error:
                    raise ChatRefused(_why(error, "the message was not sent")) from None
                if os.fstat(self.write_fd).st_uid != self.uid:  # another user made a file by our name
                    self.close_writing()
                    raise ChatRefused(f"{_shown(self.hall.games / self.file)}: not made by you: refused")
            fcntl.flock(self.write_fd, fcntl.LOCK_EX)
            if os.fstat(self.write_fd).st_nlink:
                return self.write_fd
            self.close_writing()  # removed by another of our terminals whose first line failed: made again
        raise ChatRefused("your messages file keeps changing: the message was not sent")

    def _undo_write(self, fd: int, size: int) -> None:
        """What a failed write left: cut back to `size`, or (a first line) no file at all."""
        try:
            if size == 0:
                if os.stat(self.file, dir_fd=self.games_fd, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                    os.unlink(self.file, dir_fd=self.games_fd)
                writer = self.writers.pop(self.file, None)
                if writer is not None:
                    writer.close()
            else:
                os.ftruncate(fd, size)
        except OSError:
            pass

    def _catch_up(self) -> None:
        """Read every file up to what was there now (our own to its end, for our rate)."""
        self.listed = None  # our file may be new: list again
        self.follow()
        mine = self.writers.get(self.file)
        while mine is not None and mine.behind:
            self.follow()

    def close_writing(self) -> None:
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    def close(self) -> None:
        self.close_writing()
        for writer in self.writers.values():
            writer.close()
        if self.games_fd >= 0:
            os.close(self.games_fd)
            self.games_fd = -1


def _why(error: OSError, then: str) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full: {then}"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot write in the hall: permission denied (ask the box's admin): {then}"
    return f"{clean_text(error.strerror or type(error).__name__, 60)}: {then}"
