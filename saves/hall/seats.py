"""The hall's seat locks, live watchers and secret seeds (a part of Hall)."""
from __future__ import annotations

import fcntl
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicehall.engine.text import clean_text
from dicehall.saves import short_name
from dicehall.saves.hall.errors import HallError, SeatHeld
from dicehall.saves.hall.files import SEAT_TRIES, WATCHERS_MODE, check_id, open_dir, open_nofollow, shown_path


# ----- seats as shown -----
@dataclass
class SeatView:
    seat: int  # from 0
    kind: str  # "open", "player", "bot"
    name: str
    status: str  # "open", "player" (held now), "bot", "disconnected", "idle" (on its turn too long)
    was: str = ""  # a bot's seat that was a person's: their name (a seat changes hands only when idle) ...
    why: str = ""  # ... and why, in words ("idle for 30 minutes")
    kept: str = ""  # an open seat of a match's game: the player it is kept for (nobody else may take it)

    def words(self) -> str:
        """The seat as the lobby and `dicehall hall` show it: a bot by its name, so two bots differ;
        a bot in a person's seat with whose it was ("Bot (for Bob, idle)")."""
        bot = f"{self.name} (for {self.was}, idle)" if self.was else f"{self.name} (bot)"
        return {"open": f"kept for {self.kept}" if self.kept else "open", "bot": bot, "disconnected": f"{self.name} (disconnected)",
                "idle": f"{self.name} (idle)"}.get(
            self.status, self.name)

    def handed_words(self, game_id: str) -> str:
        """Why the person whose seat this was cannot take it back (a bot took it over), in one line."""
        return (f"your seat in {game_id} went to {self.name} when you were {self.why or 'idle'}: "
                "the game goes on without you")


def seat_label(seat) -> tuple[str, bool]:
    """A seat's name as this reader shows it, and whether it is a key's (a fold Seat). A key's name is
    the admin's only when its seat was taken by this reader's own Unix user: on a box every player is
    the box's account, so a seat marked as a key's by another account (a member with a shell of their
    own) is shown with that account's login ("alice@mallory"), never as the key's."""
    if not seat.keyed or seat.uid is None or seat.uid == os.getuid():
        return seat.name, seat.keyed
    from dicehall.saves.hall.chat_files import account_name

    return f"{seat.name}@{account_name(seat.uid)}", False


def _live_watcher(folder: int, name: str, gid: int | None) -> int:
    """1 if the file `name` in the watchers folder open as `folder` is a live watcher's lock; a dead
    watcher's is removed. Anything else (a link, a FIFO, a file with data or another name, of
    another group) was not made by a watcher: it is neither counted nor touched."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return 0
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_size or info.st_nlink != 1
                or gid is not None and info.st_gid != gid):
            return 0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 1
        try:  # its watcher is gone; removed only if the name still holds this very file
            if os.stat(name, dir_fd=folder, follow_symlinks=False).st_ino == info.st_ino:
                os.unlink(name, dir_fd=folder)
        except OSError:
            pass
        return 0
    finally:
        os.close(fd)



class HallSeats:
    """The seat locks, watchers and secrets of a Hall (its base class: it uses the Hall's
    `folder_fd`, `games`, `secrets` and `gid`)."""

    games: Path
    secrets: Path

    if TYPE_CHECKING:  # the Hall's
        def folder_fd(self, name: str, create: bool = False) -> int: ...
        def gid(self) -> int | None: ...

    # ----- secrets -----
    def read_secret(self, game_id: str) -> int | None:
        """The game's seed, or None once it is revealed (or if it cannot be read here)."""
        try:
            secrets = self.folder_fd("secrets")
        except (OSError, HallError):
            return None
        try:
            fd = open_nofollow(self.secrets / check_id(game_id), os.O_RDONLY, dir_fd=secrets)
        except (OSError, HallError):
            return None
        finally:
            os.close(secrets)
        try:
            text = os.read(fd, 40).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        return int(text) if re.fullmatch(r"[0-9]{1,20}", text) else None

    def forget_secret(self, game_id: str) -> None:
        try:
            secrets = self.folder_fd("secrets")
        except (OSError, HallError):
            return
        try:
            os.unlink(check_id(game_id), dir_fd=secrets)  # a link named so is removed itself, never followed
        except OSError:
            pass
        finally:
            os.close(secrets)

    # ----- locks -----
    def lock_seat(self, game_id: str, seat: int, name: str) -> int:
        """The descriptor holding seat `seat`'s lock (held until it is closed or the process ends),
        or SeatHeld naming who holds it."""
        path = self.games / f"{game_id}.seat{seat}"
        games = self.folder_fd("games")
        try:
            fd = open_nofollow(path, os.O_RDWR, create=True, dir_fd=games)
        finally:
            os.close(games)
        if os.fstat(fd).st_nlink != 1:  # a second name of another file: never truncated nor written
            os.close(fd)
            raise HallError(f"{shown_path(path)}: a file with another name too: refused")
        for attempt in range(SEAT_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == SEAT_TRIES - 1:
                    holder = clean_text(os.pread(fd, 200, 0).decode("utf-8", "replace").partition(" ")[2]) or "another terminal"
                    os.close(fd)
                    raise SeatHeld(f"seat {seat + 1} is held by {holder}") from None
                time.sleep(0.02)
        try:  # the holder's name is for others' refusals only: a full disk does not keep a seat from its player
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {name}\n".encode(), 0)
        except OSError:
            pass
        return fd

    def seat_held(self, game_id: str, seat: int) -> bool:
        """Whether a live process holds the seat's lock (a dead one's lock the kernel has freed)."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return False
        try:
            fd = open_nofollow(self.games / f"{game_id}.seat{seat}", os.O_RDONLY, dir_fd=games)
        except (OSError, HallError):
            return False
        finally:
            os.close(games)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def watchers(self, game_id: str) -> int:
        """Live watchers of a game; a dead watcher's file is removed. The watchers folder is never
        listed through a link (a link there counts no one), and only a file a watcher made (an
        empty regular file of the hall's group, with no other name) is counted or removed."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return 0
        try:
            folder = open_dir(games, f"{check_id(game_id)}.watchers", f"games/{game_id}.watchers", mode=WATCHERS_MODE)
        except (OSError, HallError):
            return 0
        finally:
            os.close(games)
        gid = self.gid()
        live = 0
        try:
            for name in os.listdir(folder):
                if name.isdigit():
                    live += _live_watcher(folder, name, gid)
        except OSError:
            pass
        finally:
            os.close(folder)
        return live


def same_player(seat, name: str, uid: int, keyed: bool) -> bool:
    """Whether a seat's player is this one: the same name, user and kind of name. A key's name (the
    box admin's, from the login's key) is never matched by the same name typed: on a box every
    login is the same user, and a typed name is no identity."""
    return seat.name == name and seat.uid == uid and seat.keyed == keyed


def kept_keyed(header: Any, seat: int) -> bool | None:
    """Whether a match game's seat is kept for a key's name (its tag's `keyed`); None when the tag
    does not say (a game hosted before it: its kept name is matched by the name alone, as then)."""
    tag = header.get("match") if isinstance(header, dict) else None
    keyed = tag.get("keyed") if isinstance(tag, dict) else None
    if not isinstance(keyed, (list, tuple)) or not 0 <= seat < len(keyed) or not isinstance(keyed[seat], bool):
        return None
    return keyed[seat]


def kept_for(header: Any, seat: int) -> str:
    """The name a match game's seat is kept for (its header's `match` tag), "" when anyone may take it."""
    tag = header.get("match") if isinstance(header, dict) else None
    kept = tag.get("kept") if isinstance(tag, dict) else None
    if isinstance(kept, (list, tuple)) and 0 <= seat < len(kept) and isinstance(kept[seat], str):
        return short_name(kept[seat])
    return ""
