"""The hall's refusals, and an OSError met in the hall said in one line for the player."""
from __future__ import annotations

import errno
import os
from pathlib import Path

from dicehall.engine.errors import DicehallError
from dicehall.engine.session import JournalError
from dicehall.engine.text import clean_text
from dicehall.saves.errors import SaveError, os_reason


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
