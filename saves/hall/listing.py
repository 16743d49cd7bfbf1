"""What `dicehall hall` and the lobby list: one entry per game, re-read only where it changed (a part of Hall)."""
from __future__ import annotations

import os
import time
from copy import copy
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import SaveError, os_reason
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.fold import HallFold
from dicehall.saves.hall.files import LOG_SUFFIX, OUR_FILES, check_id, is_id
from dicehall.saves.hall.game import HallGame
from dicehall.saves.hall.seats import SeatView


@dataclass
class Listed:
    """What the listing read of one game: the log's (device, inode, size, mtime, ctime) then, and
    the game (its fold; its descriptors closed) or the problem line."""

    key: tuple | None
    game: "HallGame | None"
    problem: str | None
    owner: int | None = None  # the log file's Unix user
    # a finished game's entry, made once: it depends on the log alone (nobody moves, idles or
    # watches live in a finished game), so a look at a hall of finished games costs a stat per log
    entry: "HallEntry | None" = None

    @property
    def genuine(self) -> bool:
        """Whether the log belongs to one of its own players: dicehall makes a game's log as its host,
        so a log owned by someone who sits at none of its seats is a member's copy (kept second)."""
        if self.game is None:
            return False
        uids = {seat.uid for seat in self.game.fold.seats if seat.kind == "player"}
        return not uids or self.owner in uids


@dataclass
class HallEntry:
    """One line of `dicehall hall`: a game, or (`problem` set) a file that is not one."""

    id: str
    game: str = "?"  # the game's id ("towers")
    title: str = "?"  # the game's title ("Towers")
    name: str = ""  # who plays: "Ann v Bob"
    seats: list[SeatView] = field(default_factory=list)
    moves: int = 0
    watchers: int = 0
    finished: bool = False
    result: str = ""
    last_move: float = 0.0
    problem: str | None = None
    progress: str = ""  # where the game stands, in its own words ("placing: Light 0, Dark 0")
    watching: str = "open"  # the table's watchers: "open", "quiet" (they read messages only), "none"
    copies: int = 0  # other logs of this very game (the same commitment to its dice), not listed
    match: str = ""  # a match's game: its running score ("match ID: Ann 2 - 1 Bob, game 4 of 5"), set by the lobby

    def watching_words(self) -> str:
        """The table's watchers in words for the lobby ("" when they are welcome, as by default)."""
        return {"quiet": "watchers read only", "none": "no watchers"}.get(self.watching, "")

    def copies_said(self) -> str:
        return f"{counted(self.copies, 'copy')} of its log (the same game) not listed"

    def as_json(self) -> dict:
        return {"id": self.id, "game": self.game, "title": self.title, "name": self.name,
                "seats": [{"seat": v.seat + 1, "status": v.status, "name": v.name, **({"for": v.was} if v.was else {}),
                           **({"kept": v.kept} if v.kept else {})}
                          for v in self.seats],  # "for": the person whose seat a bot took over
                "moves": self.moves, "watchers": self.watchers, "finished": self.finished, "result": self.result,
                "progress": self.progress, "watching": self.watching, "copies": self.copies, "match": self.match,
                "last_move": datetime.fromtimestamp(self.last_move, timezone.utc).isoformat(timespec="seconds")
                if self.last_move else None, "problem": self.problem}



def log_time(fold: HallFold) -> float:
    """When the game last moved, by its log: the time of its last record, else of its header (a game
    no record was written to yet); never later than now (a time in the future is another member's
    forgery: it would keep a game at the top of the list). Not the file's time: copying or touching
    a log changes that, not the game."""
    stamp = fold.last_at if fold.last_at is not None else fold.created_at
    return min(stamp, time.time()) if stamp else 0.0


class HallListing:
    """The listing of a Hall (its base class: it uses the Hall's `folder_fd`, `watchers` and
    `_listed`, what the last listing read of each game)."""

    _listed: dict[str, Listed]

    if TYPE_CHECKING:  # the Hall's
        def folder_fd(self, name: str, create: bool = False) -> int: ...
        def watchers(self, game_id: str) -> int: ...

    # ----- listing -----
    def log_count(self) -> int:
        """How many files the games folder holds (0 when it cannot be read): a listing's size, cheaply."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return 0
        try:
            return len(os.listdir(games))
        except OSError:
            return 0
        finally:
            os.close(games)

    def listing(self) -> list[HallEntry]:
        """Every game in the hall, the latest move first; a file that is not a good game is one
        entry with a `problem` line, and never stops the listing. A game whose log has not changed
        since the last listing by this Hall is not read again; one that grew is read from where the
        last listing stopped (the lobby lists every second)."""
        try:
            games = self.folder_fd("games")
        except FileNotFoundError:
            return []
        entries = []
        try:  # the folder is opened once for the whole listing, not once per game
            try:
                names = sorted(os.listdir(games))
            except OSError as error:
                raise HallError(f"cannot read the hall's games folder ({os_reason(error).lower()})") from None
            for name in names:
                if OUR_FILES.fullmatch(name):
                    continue
                shown = clean_text(name, 60)
                if not name.endswith(LOG_SUFFIX) or not is_id(name[: -len(LOG_SUFFIX)]):
                    entries.append(HallEntry(shown, problem=f"games/{shown}: not a hall game's name: left alone"))
                    continue
                entries.append(self._entry_in(name[: -len(LOG_SUFFIX)], games))
        finally:
            os.close(games)
        listed = {entry.id for entry in entries}
        for gone in set(self._listed) - listed:
            del self._listed[gone]
        entries = self._without_copies(entries)
        entries.sort(key=lambda e: (e.problem is None, e.last_move), reverse=True)
        return entries

    def _without_copies(self, entries: list[HallEntry]) -> list[HallEntry]:
        """One entry per game: logs with the same commitment to their dice are copies of one game (a
        log copied with `cp`), listed once, as the scores count them once: the first by id of those
        its own players own (then of the others), which counts the others in `copies`."""
        first: dict[str, HallEntry] = {}
        copies = set()
        for entry in sorted(entries, key=lambda e: (not self._genuine(e.id), e.id)):
            listed = self._listed.get(entry.id)
            if not entry.problem and listed is not None and listed.game is not None:
                kept = first.setdefault(listed.game.fold.commitment, entry)
                if kept is not entry:
                    kept.copies += 1
                    copies.add(entry.id)
        return [entry for entry in entries if entry.id not in copies]

    def _genuine(self, game_id: str) -> bool:
        listed = self._listed.get(game_id)
        return listed is not None and listed.genuine

    def listed_folds(self) -> list[tuple[str, "HallFold"]]:
        """(id, fold) of every good game the last listing read, by id, those its own players own
        first (what the hall's scores count: of two copies of a game, the first is credited)."""
        return [(game_id, listed.game.fold) for game_id, listed in
                sorted(self._listed.items(), key=lambda item: (not item[1].genuine, item[0]))
                if listed.game is not None]

    def listed_fold(self, game_id: str) -> "HallFold | None":
        """The fold the last listing read of a game (None: not listed, or not a good game)."""
        listed = self._listed.get(game_id)
        return listed.game.fold if listed is not None and listed.game is not None else None

    def entry(self, game_id: str) -> HallEntry:
        """One game's listing entry; whatever is wrong with it is its problem line."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError) as error:
            problem = str(error) if isinstance(error, HallError) else f"cannot read the hall ({os_reason(error)})"
            return HallEntry(game_id, problem=clean_text(problem, 300))
        try:
            return self._entry_in(game_id, games)
        finally:
            os.close(games)

    def _entry_in(self, game_id: str, games: int) -> HallEntry:
        """`entry` in the games folder open as `games`."""
        try:
            info = os.stat(f"{check_id(game_id)}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False)
        except OSError:
            info = None
        key = None if info is None else (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        listed = self._listed.get(game_id)
        if listed is None or key is None or listed.key != key:  # else nothing changed: nothing is read
            listed = Listed(key, *self._read_for_listing(game_id, games, listed), owner=info.st_uid if info else None)
            self._listed[game_id] = listed
        if listed.game is None:  # a file that is not a good game has no times of its own: the file's
            return HallEntry(game_id, last_move=info.st_mtime if info is not None else 0.0, problem=listed.problem)
        if listed.entry is not None:  # a copy: the lobby sets its `match`, the listing its `copies`
            return copy(listed.entry)
        game = listed.game
        fold = game.fold
        session = fold.session
        over = fold.over
        entry = HallEntry(game_id, fold.module.ID, fold.module.TITLE, fold.players_name(), game.seats(),
                          len(session.marks) if session else 0, 0 if over else self.watchers(game_id), over,
                          clean_text(fold.result, 120), log_time(fold), progress=clean_text(fold.progress(), 200),
                          watching=fold.watchers)
        if over:
            listed.entry = copy(entry)
        return entry

    def _read_for_listing(self, game_id: str, games: int, listed: "Listed | None") -> tuple["HallGame | None", str | None]:
        """The game as the listing keeps it (its fold, the log's descriptors closed), read on from
        the last listing's offset where it is the same file grown, else from the start; or None
        and the problem line."""
        try:
            game = listed.game if listed is not None else None
            if game is not None:
                try:
                    game.log.reopen(games)
                except HallError:
                    game = None  # replaced, or cut back: read afresh
                else:
                    try:
                        game.follow()
                    finally:
                        game.log.close()
            if game is None:
                game = HallGame(self, game_id, writable=False, with_secret=False)
                game.log.close()  # the fold is kept; the file is opened again only when it changes
            return game, None
        except SaveError as error:
            return None, clean_text(str(error), 300)
        except Exception as error:  # the per-game boundary: one bad file never stops the listing
            return None, f"{game_id}: cannot be read ({type(error).__name__})"
