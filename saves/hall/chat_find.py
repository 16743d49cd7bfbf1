"""Finding and opening the writers' files of a hall game's messages (a part of HallChat): which
files there are (this user's first, then the seated players', at most MAX_WRITERS read), and each
opened only if it is its named writer's."""
from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, Any, Callable

from dicehall.engine.text import clean_text
from dicehall.saves.hall.chat_files import CHAT_INFIX, MAX_WRITERS, RELIST_EVERY, WRITER_NAME, WriterFile
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import open_nofollow, shown_path as _shown


class WriterFiles:
    """HallChat's writers' files: it uses the chat's `game`, `hall`, `id`, `uid`, `games_fd`,
    `writers`, `listed`, `looked`, `clock`, `_note` and `_broken`."""

    game: Any  # a HallGame, and its Hall: each imports this module, naming them would make a circle
    hall: Any
    id: str
    uid: int
    games_fd: int
    writers: dict[str, WriterFile]
    listed: tuple[tuple, float] | None
    looked: bool
    clock: Callable[[], float]

    if TYPE_CHECKING:  # HallChat's
        def _note(self, key: str, problem: str) -> None: ...
        def _broken(self, writer: WriterFile, problem: str) -> bool: ...

    def _list(self) -> None:
        """Find the writers' files: when the folder changed (or RELIST_EVERY seconds on), this user's first."""
        info = os.fstat(self.games_fd)
        key, now = (info.st_mtime_ns, info.st_ctime_ns), self.clock()
        if self.listed is not None and self.listed[0] == key and now - self.listed[1] < RELIST_EVERY:
            return
        self.listed = (key, now)
        prefix = f"{self.id}{CHAT_INFIX}"
        mine = f"{prefix}{self.uid}"
        seated = {seat.uid for seat in self.game.fold.seats if seat.kind == "player"}

        def first(name: str) -> tuple:  # this user's file, then the seated players', then the rest
            match = WRITER_NAME.fullmatch(name[len(prefix):])
            uid = int(match[1]) if match else None
            return name != mine and not name.startswith(mine + "."), uid not in seated, name

        names = sorted((n for n in os.listdir(self.games_fd) if n.startswith(prefix) and n not in self.writers), key=first)
        for name in names:
            match = WRITER_NAME.fullmatch(name[len(prefix):])
            if match is None:
                continue  # not a name dicehall makes: the listing names it
            if len(self.writers) >= 4 * MAX_WRITERS:
                break
            writer = WriterFile(name, int(match[1]), match[2], history=not self.looked)
            self.writers[name] = writer
            if not self._owned(writer):
                continue  # refused, said once: it takes no reader's place from a real writer
            if sum(1 for w in self.writers.values() if not w.problem) > MAX_WRITERS:
                del self.writers[name]
                self._note("*", f"games/{self.id}: more than {MAX_WRITERS} message files: the others are not read")
                break
        self.looked = True

    def _owned(self, writer: WriterFile) -> bool:
        """Whether the file is its named writer's (its owner the UID in its name); else it is refused
        at once, before it could take one of the MAX_WRITERS places a crowd of files is held to."""
        try:
            info = os.stat(writer.name, dir_fd=self.games_fd, follow_symlinks=False)
        except OSError:
            return True  # gone, or unreadable: the reader says so when it opens it
        if stat.S_ISREG(info.st_mode) and info.st_uid != writer.uid:  # a link, a FIFO: _open says which
            return self._broken(writer, f"{_shown(self.hall.games / writer.name)}: not made by uid {writer.uid}: refused")
        return True

    def _open(self, writer: WriterFile) -> bool:
        if writer.fd >= 0:
            return True
        shown = _shown(self.hall.games / writer.name)
        try:
            fd = open_nofollow(self.hall.games / writer.name, os.O_RDONLY, dir_fd=self.games_fd)
        except FileNotFoundError:
            return False
        except HallError as error:
            return self._broken(writer, str(error))
        except OSError as error:
            return self._broken(writer, f"{shown}: cannot be read ({clean_text(error.strerror, 60)})")
        info = os.fstat(fd)
        gid = self.hall.gid()
        why = (f"not made by uid {writer.uid}" if info.st_uid != writer.uid
               else "not owned by the hall's group" if gid is not None and info.st_gid != gid else "")
        if why:
            os.close(fd)
            return self._broken(writer, f"{shown}: {why}: refused")
        writer.fd = fd
        if writer.history:
            writer.history_end = info.st_size
        return True
