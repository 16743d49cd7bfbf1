"""Where saves live and what their files are called: the data folder, save ids and names, making
a file (never over another, never half written), locking it, and keeping a torn tail aside."""
from __future__ import annotations

import errno
import fcntl
import os
import re
import shlex
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dicehall import engine
from dicehall.durable import open_regular, write_durably
from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.saves.box import RECOVER_KEY, box_player, command_hint
from dicehall.saves.errors import SaveError, SaveInUse, SaveUnreadable, os_reason
from dicehall.saves.framing import MAX_FILE, SUFFIX, TORN_SUFFIX, SaveScan

def save_label(path: Path) -> str:
    """A save file's id as dicehall shows it: the file name without .dhs, control characters removed."""
    return clean_text(path.stem, 120)


def shown_path(path: Path | str) -> str:
    return clean_text(str(path), 200)


def data_root() -> Path:
    """dicehall's data folder for this account: $DICEHALL_HOME, else the platform's user data dir."""
    override = os.environ.get("DICEHALL_HOME")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("dicehall", appauthor=False))


def home() -> Path:
    """Where this player's saves, replays and records live: the data folder; on a shared box (a
    player named by the admin's key line) that player's own folder in it, DATA/players/NAME."""
    player = box_player()
    return data_root() if player is None else data_root() / "players" / player


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

def lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise SaveInUse(f"save {save_label(path)} is in use by another dicehall (another terminal or SSH session?)") from None
        raise


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug[:24] or "save"


def create_file(name: str, data: bytes, what: str) -> tuple[Path, int]:
    """A new save file under a free id made from `name`, holding `data` written in one durable
    write, and its descriptor, locked. On failure no file is left behind and SaveError says
    "could not WHAT (reason)"."""
    folder = saves_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(1000):
        save_id = f"{stamp}-{slug(name)}" + (f"-{attempt}" if attempt else "")
        path = folder / (save_id + SUFFIX)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise SaveError("could not find a free file name for the save")
    lock(fd, path)
    try:
        write_durably(fd, data)
        fsync_dir(folder)
    except OSError as error:  # a full disk: leave no empty or half-written save behind
        os.close(fd)
        path.unlink(missing_ok=True)
        raise SaveError(f"could not {what} ({os_reason(error)}); no file was left behind") from None
    return path, fd


def short_name(name: str) -> str:
    """A save's name cleaned and at most NAME_LIMIT long, ending in "..." where it was cut."""
    name = clean_text(name, 4 * NAME_LIMIT)
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 3] + "..."


def login_name() -> str:
    """The name a player sits down as when they give none: on a shared box the name the admin's key
    line gives (never typed there), else their login name."""
    player = box_player()
    if player is not None:
        return player
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no login name to be had: a seat still needs one
        return "Player"


def solo_players() -> list[engine.Player]:
    """The player of a one-player game (the Dice Tower, the troll) started at this terminal: the
    login name, as the hall seats a person who names nobody (the engine cleans and caps it)."""
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


@contextmanager
def scanning(path: Path, label: str):
    """A SaveScan of the save at `path`, read a chunk at a time; an OSError becomes one SaveError line."""
    try:
        handle = os.fdopen(open_regular(path), "rb")  # a FIFO named like a save is refused, never waited on
        size = os.fstat(handle.fileno()).st_size
    except OSError as error:
        raise SaveUnreadable(f"{label}: cannot read it ({os_reason(error)})") from None
    with handle:
        if size > MAX_FILE:
            raise SaveError(f"{label}: the file is too large to be a save ({size} bytes)")
        yield SaveScan(handle, label, size)


def recover_hint(label: str) -> str:
    return f"the file is kept as it is ({command_hint(f'recover {shlex.quote(label)}', key=RECOVER_KEY)} keeps the good part)"


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
        fsync_dir(path.parent)


def keep_torn(path: Path, tail: bytes, mode: int = 0o600, dir_fd: int | None = None) -> Path:
    """Copy a torn tail into a new file next to the save (never over an existing one); returns its path."""
    for attempt in range(1, 1000):
        aside = path.with_name(path.name + TORN_SUFFIX + (f".{attempt}" if attempt > 1 else ""))
        try:
            write_new(aside, tail, mode, dir_fd)
        except FileExistsError:
            continue
        return aside
    raise SaveError(f"{save_label(path)}: no free file name to keep its cut-off tail in")
