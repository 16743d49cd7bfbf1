"""One hall game's log file: read from an offset, appended under an flock, never past a stale position."""
from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path
from typing import Any

from dicehall.durable import write_durably
from dicehall.engine.text import clean_text
from dicehall.saves import SaveScan, encode_record, frame, keep_torn, os_reason
from dicehall.saves.box import HALL_KEY, command_hint
from dicehall.saves.hall.errors import HallError, HallWriteFailed, StaleState
from dicehall.saves.hall.files import DIR_FLAGS, FILE_MODE, MAX_LOG, open_nofollow, shown_path


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
            self.dir_fd = os.dup(dir_fd) if dir_fd is not None else os.open(path.parent, DIR_FLAGS)
        except FileNotFoundError:
            raise HallError(f"no hall game {clean_text(path.stem, 20)} ({command_hint('hall', key=HALL_KEY)} lists them)") from None
        except OSError as error:
            raise HallError(f"{clean_text(path.parent.name, 60)}: cannot open it ({os_reason(error)})") from None
        self.fd = -1
        try:
            self._open(flags)
            info = os.fstat(self.fd)
            if hall_gid is not None and info.st_gid != hall_gid:
                raise HallError(f"{shown_path(path)}: not owned by the hall's group: refused")
            if info.st_size > MAX_LOG:
                raise HallError(f"{shown_path(path)}: too large for a hall game ({info.st_size} bytes)")
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
            self.fd = open_nofollow(self.path, flags, dir_fd=self.dir_fd)
        except FileNotFoundError:
            raise HallError(f"no hall game {clean_text(self.path.stem, 20)} ({command_hint('hall', key=HALL_KEY)} lists them)") from None
        except OSError as error:
            if flags & os.O_RDWR and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise HallError(f"cannot write in the hall: permission denied on {shown_path(self.path)} "
                                f"(ask the box's admin)") from None
            raise HallError(f"{shown_path(self.path)}: cannot open it ({os_reason(error).lower()})") from None

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


class LogRecorder:
    """The journal a hall game's session appends to while it acts (HallGame._act): each batch the
    session makes goes to the log first, on the position the game has folded (`position()`), with `by` (the
    seat acting, None for dice) as the author of a play; StaleState if the log moved on."""

    def __init__(self, log: HallLog, position):
        self.log = log
        self.position = position  # the number of records the game has folded, asked at each append
        self.by: int | None = None

    def append(self, record: dict) -> None:
        record = dict(record)
        if self.by is not None and record.get("op") == "play":
            record["by"] = self.by
        self.log.append(record, self.position())
