"""The hall's archive (`dicehall archive`, the Hall screen's `a`): every finished hall game, browsable
by player, game, date and result, each with its result in one line (saves/hall/news.py).

What is listed follows the hall's listing and scores (each log is another player's file):
- a game finished with a result, or abandoned (an idle seat ended it); not one in progress, nor a
  file the listing calls DAMAGED (counted, and said);
- a game once: logs with the same commitment to their dice are copies of one game, listed as the
  first by id of those its own players own (then of the others), the others counted as copies;
- its people are its players' seats, and a person whose seat a bot took for being idle (played,
  not won); bots are named in its result line but are no player to filter by.

Reading 10,000 logs takes seconds, so what each log gave is kept in an index of the player's own
(saves/hall/archive_index.py): a log is read again only when its file is not as it was."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from operator import itemgetter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from dicehall.engine.games import CATALOGUE, entry_of
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import SaveError, os_reason
from dicehall.saves.hall.archive_index import ROW_FIELDS, IndexRow, read_index, write_index
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import ID_PATTERN, LOG_SUFFIX, OUR_FILES
from dicehall.saves.hall.fold import HallFold
from dicehall.saves.hall.game import HallGame
from dicehall.saves.hall.listing import log_time
from dicehall.saves.hall.news import announcement
from dicehall.saves.hall.scores import credit
from dicehall.saves.hall.seats import seat_label

RESULTS = ("won", "lost", "drawn", "abandoned")  # the result filter's values (see ArchiveEntry.result_for)
LOG_NAME = re.compile(ID_PATTERN.pattern + re.escape(LOG_SUFFIX))  # a game's log: ID.dhh


class ArchiveEntry(NamedTuple):
    """One finished game of the archive: its id, then its index row's fields from its state on (a
    named tuple: 10,000 are made in milliseconds)."""

    id: str
    outcome: str  # "won" (someone won), "lost" (a game for one, lost), "drawn", "abandoned"
    game: str  # the game's id ("towers")
    commitment: str  # to its dice: what tells a copy of its log
    ended: float  # unix time of its last record (log_time: never later than now)
    moves: int
    result: str  # the fold's result in words ("Ann (Light) wins 17 to 6")
    news: str  # the announcement ("Ann beat Bob at Towers by 11")
    names: str  # its people (its players, and any whose seat a bot took for being idle), joined by tabs
    wins: int  # bit n set: its person n won
    copies: int = 0  # other logs of this very game, not listed

    @property
    def people(self) -> list[tuple[str, bool]]:
        """Each person's name, and whether they won."""
        return [(name, bool(self.wins >> n & 1)) for n, name in enumerate(self.names.split("\t"))] if self.names else []

    @property
    def title(self) -> str:
        return entry_of(self.game).title

    def result_for(self, player: str | None) -> str:
        """The result as the filter sees it: for a player, "won", "lost", "drawn" or "abandoned" (""
        if they did not play it); for no player, the game's outcome."""
        if player is None:
            return self.outcome
        wanted = player.casefold()
        if wanted not in self.names.casefold():  # most games, at once
            return ""
        wins = [won for name, won in self.people if name.casefold() == wanted]
        if not wins:
            return ""
        if self.outcome in ("drawn", "abandoned"):
            return self.outcome
        return "won" if any(wins) else "lost"

    def date(self) -> str:
        return datetime.fromtimestamp(self.ended).strftime("%Y-%m-%d") if self.ended else "-"

    def as_json(self) -> dict:
        return {"id": self.id, "game": self.game, "title": self.title,
                "ended": datetime.fromtimestamp(self.ended, timezone.utc).isoformat(timespec="seconds")
                if self.ended else None, "outcome": self.outcome, "result": self.result, "news": self.news,
                "moves": self.moves, "players": [{"name": name, "won": won} for name, won in self.people],
                "copies": self.copies}


assert tuple(ArchiveEntry.__annotations__)[2:-1] == ROW_FIELDS[3:]  # an entry is made of its row's fields (_listed)


@dataclass
class Archive:
    """The archive's games, the latest first, and what was left out and why."""

    games: list[ArchiveEntry] = field(default_factory=list)
    in_progress: int = 0
    copies: int = 0
    damaged: int = 0
    note: str = ""  # the index's one line when it was off and rebuilt ("" when it was as it should be)

    def left_out(self) -> str:
        parts = [(self.in_progress, "in progress"), (self.copies, "copy" if self.copies == 1 else "copies"),
                 (self.damaged, "damaged")]
        return ", ".join(f"{count} {words}" for count, words in parts if count)

    def players(self) -> list[str]:
        """Every person's name in the archive, in alphabetical order (one per name, whatever its case)."""
        names: dict[str, str] = {}
        for entry in self.games:
            for name, _ in entry.people:
                names.setdefault(name.casefold(), name)
        return sorted(names.values(), key=lambda name: (name.casefold(), name))

    def game_ids(self) -> list[str]:
        """The games the archive holds, in the catalogue's order."""
        held = {entry.game for entry in self.games}
        return [known.id for known in CATALOGUE if known.id in held]

    def chosen(self, player: str | None = None, game: str | None = None, since: float | None = None,
               until: float | None = None, result: str | None = None) -> list[ArchiveEntry]:
        """The games a player played, of a game, ended from `since` and before `until` (unix times),
        of a result (RESULTS: the player's, else the game's); None: any."""
        return [entry for entry in self.games
                if (player is None or entry.result_for(player))
                and (game is None or entry.game == game)
                and (since is None or entry.ended >= since) and (until is None or entry.ended < until)
                and (result is None or entry.result_for(player) == result)]

    def as_json(self, chosen: list[ArchiveEntry]) -> dict:
        return {"games": [entry.as_json() for entry in chosen], "listed": len(chosen), "archived": len(self.games),
                "in_progress": self.in_progress, "copies": self.copies, "damaged": self.damaged, "index": self.note}


# ----- reading the hall, through the index -----
class ArchiveStopped(Exception):
    """The reading was stopped (`should_stop`): what was read so far is in the index."""


def hall_archive(hall, progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None, data: Path | None = None) -> Archive:
    """The archive of a Hall's games. Each log is read only when the index has no entry for it as it
    is now (its identity, size and times); the index is written again when anything in it changed.
    `progress(done, total)` is told after each log read (done: the logs looked at so far);
    `should_stop()` is asked before each log: when it says so, the index is written for the logs
    read so far (the next reading goes on from there) and ArchiveStopped raised.
    `data` is the data folder its index is under (home() when None; a thread is given it resolved).
    HallError (one line) if the games folder cannot be read."""
    try:
        games = hall.folder_fd("games")
    except FileNotFoundError:
        return Archive()
    try:
        try:
            names = os.listdir(games)
            where = os.fstat(games)
        except OSError as error:
            raise HallError(f"cannot read the hall's games folder ({os_reason(error).lower()})") from None
        ids = []
        found = Archive()
        for name in names:
            if LOG_NAME.fullmatch(name):
                ids.append(name[: -len(LOG_SUFFIX)])
            elif not OUR_FILES.fullmatch(name):
                found.damaged += 1  # not a hall game's name (the listing's DAMAGED line)
        index = read_index((where.st_dev, where.st_ino), set(ids), data)
        rows: dict[str, IndexRow] = {}
        unsettled: set[str] = set()  # logs that changed while they were read: not written to the index
        kept = index.rows
        stopped = False
        for done, game_id in enumerate(ids):
            if should_stop is not None and should_stop():
                rows.update((left, kept[left]) for left in ids[done:] if left in kept)  # not looked at: as they were
                stopped = True
                break
            try:
                info = os.stat(f"{game_id}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False)
            except OSError:
                continue  # gone since the folder was listed
            key = _key(info)
            row = kept.get(game_id)
            if row is None or row.key != key:  # new, or not as it was: read again
                row = _read_game(hall, game_id, key, info.st_uid)
                if _file_key(games, game_id) != key:
                    unsettled.add(game_id)
                if progress is not None:
                    progress(done + 1, len(ids))
            rows[game_id] = row
        found.note = index.note
        if index.changed or unsettled or any(row is not kept.get(game_id) for game_id, row in rows.items()):
            write_index((where.st_dev, where.st_ino), {game_id: row for game_id, row in rows.items()
                                                       if game_id not in unsettled}, data)
    finally:
        os.close(games)
    if stopped:
        raise ArchiveStopped
    return _listed(found, rows)


def _key(info: os.stat_result) -> tuple:
    """A log's key: what tells a changed file (device, inode, size, mtime_ns, ctime_ns)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _file_key(games: int, game_id: str) -> tuple | None:
    """A log's key now; None if it is gone."""
    try:
        return _key(os.stat(f"{game_id}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False))
    except OSError:
        return None


def _read_game(hall, game_id: str, key: tuple, owner: int) -> IndexRow:
    """A game's row from its log (read only, its descriptors closed at once)."""
    try:
        with HallGame(hall, game_id, writable=False, with_secret=False) as game:
            return row_of_fold(game.fold, key, owner)
    except SaveError as error:
        return IndexRow(key, result=clean_text(str(error), 300))
    except Exception as error:  # the per-game boundary: one bad file never stops the archive
        return IndexRow(key, result=f"{game_id}: cannot be read ({type(error).__name__})")


def row_of_fold(fold: HallFold, key: tuple, owner: int) -> IndexRow:
    """What the archive keeps of a folded game."""
    uids = {seat.uid for seat in fold.seats if seat.kind == "player"}
    genuine = not uids or owner in uids  # a log owned by none of its players is a member's copy (listing.Listed)
    session = fold.session
    if session is None or not fold.over:
        return IndexRow(key, genuine, "playing", fold.module.ID, fold.commitment)
    if fold.abandoned:
        state = "abandoned"
        people = [(seat_label(held)[0], False) for held in [*fold.seats, *fold.handed.values()] if held.kind == "player"]
    else:
        outcome = session.outcome
        assert outcome is not None  # over and not abandoned
        state = "won" if outcome.winners else "lost" if len(fold.seats) == 1 else "drawn"
        people = [(name, won) for (name, _), (won, _) in credit(fold).items()]
    return IndexRow(key, genuine, state, fold.module.ID, fold.commitment, log_time(fold), len(session.marks),
                    clean_text(fold.result, 200), announcement(fold),
                    "\t".join(clean_text(name, 60) for name, _ in people), sum(won << n for n, (_, won) in enumerate(people)))


def _listed(found: Archive, rows: dict[str, IndexRow]) -> Archive:
    """The archive from each log's row: finished games once each (of the logs of one commitment, the
    first by id of those its own players own, then of the others), the latest first."""
    first: dict[str, tuple[tuple[bool, str], IndexRow]] = {}  # by commitment: the log listed, by its order
    copies: dict[str, int] = {}
    for game_id, row in rows.items():
        state = row.state
        if state == "damaged":
            found.damaged += 1
        elif state == "playing":
            found.in_progress += 1
        else:
            order = (not row.genuine, game_id)
            kept = first.setdefault(row.commitment, (order, row))
            if kept[1] is not row:
                found.copies += 1
                copies[row.commitment] = copies.get(row.commitment, 0) + 1
                if order < kept[0]:
                    first[row.commitment] = order, row
    make = tuple.__new__  # a named tuple made from its values at once (10,000 of them)
    listed = [make(ArchiveEntry, (order[1],) + row[2:] + (copies.get(pledge, 0),))
              for pledge, (order, row) in first.items()]
    listed.sort(key=itemgetter(4, 0), reverse=True)  # by when it ended, then by id
    found.games = listed
    return found


def archive_line(entry: ArchiveEntry) -> str:
    """A game as `dicehall archive` prints it: its id, when it ended, its result in one line."""
    ended = datetime.fromtimestamp(entry.ended).strftime("%Y-%m-%d %H:%M") if entry.ended else "-"
    copies = f" ({counted(entry.copies, 'copy')} not listed)" if entry.copies else ""
    return f"{entry.id}  {ended}  {clean_text(entry.news, 300)}{copies}"


def parse_day(text: str) -> float:
    """A day YYYY-MM-DD as the unix time of its start (local time); ValueError in one line."""
    try:
        return datetime.strptime(text, "%Y-%m-%d").timestamp()
    except (ValueError, OverflowError, OSError):  # year 1 is no time the clock can tell
        raise ValueError(f"{clean_text(text, 20)!r} is not a day as YYYY-MM-DD") from None


def check_game(game: str | None) -> None:
    """ValueError (one line) for a game that is not one of dicehall's."""
    if game is not None and game not in {known.id for known in CATALOGUE}:
        raise ValueError(f"unknown game {clean_text(game, 20)!r} (games: {', '.join(k.id for k in CATALOGUE)})")
