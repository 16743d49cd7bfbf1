"""The files a player names. On a shared box (saves.box) no dialog, option or argument takes a path:
a player names a file of their own replays folder by its name alone (an export is written there, a
record is read from there), and a link there is never read, written through or replaced. Off a box
a path typed is the person's own to choose, as it always was.

A name is checked, never cleaned into another: no `/` or `\\`, not starting with a dot (so no `..`),
no control character, at most MAX_FILE_NAME characters. Every player is the same Unix user behind
the shared account and has no shell, so nothing but dicehall makes a file in their folder: a file
is looked at (lstat) and then opened by its path."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from dicehall.engine.text import clean_text
from dicehall.saves.box import on_box
from dicehall.saves.errors import SaveError
from dicehall.saves.files import replays_dir

MAX_FILE_NAME = 80
FILE_NAME_RULE = f"a file name only: no /, not starting with a dot, at most {MAX_FILE_NAME} characters"


class NotAFileName(SaveError):
    pass


def check_file_name(text: object) -> str:
    """`text` as a file name of the player's own folder (FILE_NAME_RULE), else NotAFileName in one line."""
    name = text.strip() if isinstance(text, str) else ""
    if (not name or len(name) > MAX_FILE_NAME or clean_text(name, MAX_FILE_NAME) != name
            or "/" in name or "\\" in name or name.startswith(".")):
        raise NotAFileName(f"{clean_text(text, 40)!r}: on this box a file is named by its name in your "
                           f"replays folder ({FILE_NAME_RULE})")
    return name


def _refuse_odd(path: Path, name: str) -> bool:
    """Whether `path` is there; SaveError for a link or anything but a regular file."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        raise SaveError(f"{name}: a symbolic link in your replays folder: refused")
    if not stat.S_ISREG(mode):
        raise SaveError(f"{name}: not a file")
    return True


def export_path(text: str | None, default: str) -> Path:
    """On a box, where an export named `text` is written: the player's replays folder, by a file
    name (a name without a suffix gets the default's); `text` empty: `default`. A link or a folder
    of that name is refused; a file there is the caller's to ask about (never replaced unasked)."""
    name = check_file_name(text) if text and text.strip() else default
    if not Path(name).suffix:
        name += Path(default).suffix
    path = replays_dir() / name
    _refuse_odd(path, name)
    return path


def names_record(text: str) -> bool:
    """Whether `text` names a record file (tried before a hall game's id or a save): on a box, a file
    of the player's replays folder by that name; off a box, anything there but a folder."""
    if on_box():
        try:
            return os.path.lexists(replays_dir() / check_file_name(text))
        except NotAFileName:
            return False
    path = Path(text)
    return path.is_file() or ((path.exists() or path.is_symlink()) and not path.is_dir())


def record_file(text: str) -> Path:
    """The record file (.dhr or .dht) `text` names: off a box the path as given (the reader says
    what is wrong with it); on a box a regular file of the player's replays folder, never a link."""
    if not on_box():
        return Path(text)
    name = check_file_name(text)
    path = replays_dir() / name
    if not _refuse_odd(path, name):
        raise SaveError(f"{name}: no such file in your replays folder")
    return path
