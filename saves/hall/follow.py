"""Waiting for a change to one hall game's files: inotify through ctypes (Linux), else polling."""
from __future__ import annotations

import ctypes
import os
import select
import struct
import time
from pathlib import Path
from typing import Literal

from dicehall.saves.hall.files import POLL_EVERY




# ----- waiting for a change -----
class Inotify:
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


class ChangeWaiter:
    """Waits until one game's files change: on inotify where it is to be had (made at the first
    wait), else by polling every POLL_EVERY seconds. `changed()` says whether something is waiting
    to be read already; it is asked before any sleep, so no change falls between a look and a wait."""

    def __init__(self, folder: Path, prefix: str, changed):
        self.folder, self.prefix, self.changed = folder, prefix, changed
        self.inotify: Inotify | None | Literal[False] = None  # False: inotify is not to be had, poll

    def wait(self, timeout: float) -> bool:
        if self.inotify is None:  # made before the look below, so no change falls between the two
            try:
                self.inotify = Inotify(self.folder, self.prefix)
            except (OSError, AttributeError):  # not Linux, or out of inotify watches
                self.inotify = False
        if self.changed():
            return True
        if self.inotify is False:
            return self._poll(timeout)
        return self.inotify.wait(timeout)

    def _poll(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(min(POLL_EVERY, max(0.0, deadline - time.monotonic())))
            if self.changed():
                return True
        return False

    def close(self) -> None:
        if self.inotify is not None and self.inotify is not False:
            self.inotify.close()
