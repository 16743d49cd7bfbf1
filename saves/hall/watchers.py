"""A watcher counted in a hall game's `games/ID.watchers/` folder: one file per watching process,
named by its pid and flock'd for the process's life, so a lister tells a live watcher from a dead
one's leftover (the lock is gone with the process) and may remove the latter."""
from __future__ import annotations

import fcntl
import os

from dicehall.saves.hall.files import WATCHERS_MODE, open_dir, open_nofollow


class WatcherMark:
    """This process's mark in a game's watchers folder, from `start` until `close`."""

    def __init__(self, folder_fd: int, fd: int):
        self.folder_fd = folder_fd  # the game's watchers folder
        self.fd = fd  # our file in it, locked

    @classmethod
    def start(cls, hall, game_id: str) -> "WatcherMark":
        games = hall.folder_fd("games")
        try:
            folder = open_dir(games, f"{game_id}.watchers", f"games/{game_id}.watchers", create=True,
                              mode=WATCHERS_MODE)
        finally:
            os.close(games)
        name = str(os.getpid())
        path = hall.games / f"{game_id}.watchers" / name  # named in messages; opened in `folder`
        while True:
            fd = open_nofollow(path, os.O_RDWR, create=True, dir_fd=folder)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:  # a lister may have removed the file as dead between our open and our lock
                if os.stat(name, dir_fd=folder, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        return cls(folder, fd)

    def close(self) -> None:
        """Remove our file (if it is still ours) and let go of the folder."""
        if self.fd >= 0:
            try:
                if os.stat(str(os.getpid()), dir_fd=self.folder_fd, follow_symlinks=False).st_ino == os.fstat(self.fd).st_ino:
                    os.unlink(str(os.getpid()), dir_fd=self.folder_fd)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = -1
        if self.folder_fd >= 0:
            os.close(self.folder_fd)
            self.folder_fd = -1
