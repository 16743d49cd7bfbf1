"""The hall's folder and files: where it is, game ids, and opening its folders and files never
through a symbolic link (a hall member could aim one at another player's files)."""
from __future__ import annotations

import errno
import os
import re
import stat
from hashlib import blake2b
from pathlib import Path
from typing import Any

from dicehall.engine.text import clean_text
from dicehall.saves import os_reason
from dicehall.saves.files import data_root
from dicehall.saves.files import login_name  # noqa: F401  (the hall's name for it too)
from dicehall.saves.hall.errors import HallError


HALL_FORMAT = 1
LOG_SUFFIX = ".dhh"
ID_LENGTH = 6
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
ID_PATTERN = re.compile(r"[a-z0-9]{6}")
SEAT_FILE = re.compile(r"([a-z0-9]{6})\.seat([0-9]{1,2})")
OUR_FILES = re.compile(r"[a-z0-9]{6}(\.seat[0-9]{1,2}|\.watchers|\.chat(\.[0-9]{1,10}(\.[a-z][a-z0-9_-]{0,23})?)?"
                       r"|\.dhh\.torn(\.[0-9]{1,3})?)")
MAX_LOG = 16 * 1024 * 1024  # far above a real game: bounds what one hostile file can cost a listing
MAX_SEATS = 6
POLL_EVERY = 0.2  # seconds between looks when inotify is not to be had
ADMIN_HALL = Path("/var/games/dicehall")
FILE_MODE = 0o660
DIR_MODE = 0o3770  # setgid: every file takes the hall's group; sticky: a member renames or removes only their own
WATCHERS_MODE = 0o2770  # not sticky: a lister removes a dead watcher's lock, whoever made it
MAX_IDLE_MINUTES = 7 * 24 * 60  # the longest idle time the hall's setting may give (a week)
SETTINGS = "hall.toml"  # the admin's settings, in the hall folder (saves/hall/settings.py)
WATCHER_POLICIES = ("open", "quiet", "none")  # a table's watchers: read and write chat, read only, kept off
SEAT_TRIES = 5  # a lister probing a seat's lock holds it for microseconds: a taker tries again

def hall_dir(override: str | Path | None = None) -> Path:
    """The hall folder: `override` (--hall DIR), $DICEHALL_HALL, /var/games/dicehall when it exists
    and this user may write in it (an admin set it up), else DATA/hall (one person trying it)."""
    chosen = override or os.environ.get("DICEHALL_HALL")
    if chosen:
        return Path(chosen)
    if ADMIN_HALL.is_dir() and os.access(ADMIN_HALL, os.W_OK | os.X_OK):
        return ADMIN_HALL
    return data_root() / "hall"  # the account's, shared by every player of a box


def bot_name(seat: int, seats: int, bots: int) -> str:
    """A hall bot's name, the one-keyboard games' scheme: "Bot 3" by its seat number (as the wager's
    setup names its bots) wherever a game has more than two seats or more than one bot, so no two
    bots share a name; a lone bot of a two-seat game is "Bot", as Towers and War of Bones name it."""
    return f"Bot {seat + 1}" if seats > 2 or bots > 1 else "Bot"


def check_id(text: Any) -> str:
    """A hall game id as typed or listed: exactly 6 lowercase letters or digits, else HallError."""
    if not isinstance(text, str) or not ID_PATTERN.fullmatch(text):
        raise HallError(f"{clean_text(text, 40)!r} is not a hall game id (6 lowercase letters or digits)")
    return text


def is_id(text: Any) -> bool:
    return isinstance(text, str) and bool(ID_PATTERN.fullmatch(text))


def commitment(seed: int) -> str:
    """What the log's header holds instead of the seed: BLAKE2b of it (checked when it is revealed)."""
    return blake2b(f"dicehall hall seed {seed}".encode(), digest_size=32).hexdigest()


DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def open_dir(parent: int, name: str, shown: str, create: bool = False, mode: int = DIR_MODE) -> int:
    """A descriptor on the folder `name` inside the folder open as `parent`, never through a symbolic
    link (a hall member could aim one at another player's folder); made with `mode` and the
    parent's group if `create` and missing. FileNotFoundError if it is missing; HallError, one
    line naming it as `shown`, for a link, a file that is not a folder, or another failure."""
    made = False
    for _ in range(3):
        try:
            fd = os.open(name, DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
            try:
                os.mkdir(name, mode & 0o777, dir_fd=parent)
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
                os.fchmod(fd, mode)  # mkdir's mode is reduced by the umask, and cannot set setgid
            except OSError:
                pass
        elif mode & stat.S_ISVTX:
            make_sticky(fd)
        return fd
    raise HallError(f"{shown}: cannot be made (it keeps changing)")


def make_sticky(fd: int) -> None:
    """Give the sticky bit to a hall folder an older dicehall made (2770) for this user; another
    user's folder is left alone (`Hall.folder_warnings` names it for the admin)."""
    try:
        info = os.fstat(fd)
        if (info.st_uid == os.geteuid() and info.st_mode & (stat.S_ISGID | stat.S_IWGRP) == stat.S_ISGID | stat.S_IWGRP
                and not info.st_mode & stat.S_ISVTX):
            os.fchmod(fd, stat.S_IMODE(info.st_mode) | stat.S_ISVTX)
    except OSError:
        pass


def take_parents_group(part: Path) -> None:
    try:  # the parent's group, even where the admin's folder lacks the setgid bit
        os.chown(part, -1, os.stat(part.parent).st_gid)
    except OSError:
        pass


def open_nofollow(path: Path, flags: int, create: bool = False, dir_fd: int | None = None) -> int:
    """A descriptor on `path`, never through a symbolic link, never blocking on a FIFO; a regular file
    or HallError. Created files get FILE_MODE whatever the umask. With `dir_fd` (its folder, opened
    by open_dir) the file is opened there by its name, so no folder on the way is a link either."""
    extra = os.O_CREAT if create else 0
    try:
        fd = os.open(path.name if dir_fd is not None else path,
                     flags | extra | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, FILE_MODE, dir_fd=dir_fd)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise HallError(f"{shown_path(path)}: a symbolic link: refused") from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise HallError(f"{shown_path(path)}: not a regular file: refused")
    if create and info.st_size == 0 and stat.S_IMODE(info.st_mode) != FILE_MODE and info.st_uid == os.getuid():
        os.fchmod(fd, FILE_MODE)
    return fd


def shown_path(path: Path) -> str:
    return clean_text(f"{path.parent.name}/{path.name}", 80)
