"""The refusals of saves, and an OSError or a refusal said in one line for the player."""
from __future__ import annotations

import errno
import os
from pathlib import Path

from dicehall.engine.errors import DicehallError
from dicehall.engine.log import JournalError  # not through engine.session: a deck read or a box checked needs no session
from dicehall.engine.text import clean_text


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

def os_reason(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk full"
    if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link: dicehall never reads or writes through one
        return "a symbolic link: refused"
    return error.strerror or type(error).__name__


def error_line(error: BaseException) -> str:
    """What a refusal says to the player, in one line: a DicehallError's own words; an OSError as
    its cause and the file's name, never an errno or a whole path ("x.dhr: permission denied")."""
    if isinstance(error, OSError):
        name = error.filename
        shown = clean_text(os.path.basename(os.fsdecode(name)), 80) if isinstance(name, (str, bytes, os.PathLike)) else ""
        reason = os_reason(error)
        reason = reason[:1].lower() + reason[1:]
        return f"{shown}: {reason}" if shown else reason
    lines = str(error).splitlines()
    return clean_text(lines[0], 400) if lines and lines[0] else type(error).__name__
