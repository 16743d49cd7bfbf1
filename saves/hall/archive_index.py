"""The archive's index: what each hall log gave the archive (saves/hall/archive.py), kept in the
player's own data folder (on a box DATA/players/NAME/hall-archive/, 0700), one file per hall (named
by its games folder's device and inode), so that listing 10,000 finished games reads no log.

It is a cache like the saves list's index (saves/caches.py: read as hostile, streamed one entry at
a time, its cost bounded by its bytes, entries only for the logs in the folder). Each entry is
checked field by field before it is used, and used only while its log is exactly as it was (its
device, inode, size and times). An index that is not one (damaged, crafted, of another format) is
rebuilt from the logs, and so is an entry that is not sound; either is said in one line."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves.caches import read_cache, write_cache
from dicehall.saves.files import home, make_dirs
from dicehall.saves.hall.files import MAX_SEATS

INDEX_FORMAT = 1
MAX_INDEX = 64 * 1024 * 1024  # bytes: 10,000 games take about 3 MiB
MAX_INDEX_GAMES = 1_000_000
STATES = ("won", "lost", "drawn", "abandoned", "playing", "damaged")
GAMES = {known.id for known in CATALOGUE} | {""}  # "": a damaged log's
COMMITMENT = re.compile(r"[0-9a-f]{64}")


@dataclass(slots=True)
class IndexEntry:
    """What one log gave: its file's key (device, inode, size, mtime_ns, ctime_ns), whether its own
    players own it, its state (STATES), and for a finished game what the archive lists. A damaged
    log's `result` is its problem line."""

    key: tuple
    genuine: bool = True
    state: str = "damaged"
    game: str = ""
    commitment: str = ""
    ended: float = 0.0
    moves: int = 0
    result: str = ""
    news: str = ""
    people: tuple[tuple[str, bool], ...] = ()
    cacheable: bool = True  # False: the log changed while it was read (not written to the index)

    def packed(self) -> list:
        return [list(self.key), self.genuine, self.state, self.game, self.commitment, self.ended, self.moves,
                self.result, self.news, [[name, won] for name, won in self.people]]


def _text(value: Any, limit: int) -> bool:
    """Text as the archive writes it: printable, at most `limit` characters (isprintable first: C)."""
    return type(value) is str and len(value) <= limit and (value.isprintable() or value == clean_text(value, limit))


def unpacked(entry: Any) -> IndexEntry | None:
    """An entry as read from the index, checked field by field; None if anything in it is not what
    the archive writes."""
    if type(entry) is not list or len(entry) != 10:
        return None
    key, genuine, state, game, pledge, ended, moves, result, news, people = entry
    if (type(key) is not list or len(key) != 5 or not all(type(n) is int for n in key) or type(genuine) is not bool
            or state not in STATES or game not in GAMES or type(pledge) is not str
            or not (pledge == "" or COMMITMENT.fullmatch(pledge)) or type(ended) not in (int, float)
            or not 0 <= ended < 1e11 or type(moves) is not int or moves < 0
            or not _text(result, 300) or not _text(news, 300) or type(people) is not list
            or len(people) > 2 * MAX_SEATS):
        return None
    if state != "damaged" and (game == "" or pledge == ""):
        return None
    persons = []
    for person in people:
        if type(person) is not list or len(person) != 2 or not _text(person[0], 60) or type(person[1]) is not bool:
            return None
        persons.append((person[0], person[1]))
    return IndexEntry(tuple(key), genuine, state, game, pledge, float(ended), moves, result, news, tuple(persons))


@dataclass
class IndexRead:
    entries: dict[str, IndexEntry]
    changed: bool  # the file holds anything else (an entry dropped, or no index): it is written anew
    note: str  # one line when the index was off and is rebuilt ("" when it was sound or not there yet)


def index_path(hall: tuple[int, int]) -> Path:
    return home() / "hall-archive" / f"{hall[0]:x}-{hall[1]:x}.dhi"


def read_index(hall: tuple[int, int], wanted: set[str]) -> IndexRead:
    """The sound entries of the games `wanted` (by id) in the index of the hall whose games folder
    is (device, inode)."""
    path = index_path(hall)
    checked: dict[int, IndexEntry] = {}  # each sound entry as read, by the identity of its raw value
    unsound = [0]

    def sound(entry: Any) -> bool:
        unpacking = unpacked(entry)
        if unpacking is None:
            unsound[0] += 1
            return False
        checked[id(entry)] = unpacking
        return True

    try:
        there = os.path.lexists(path)
    except OSError:
        there = False
    raw, changed = read_cache(path, INDEX_FORMAT, MAX_INDEX, MAX_INDEX_GAMES, wanted, sound)
    entries = {game_id: checked[id(entry)] for game_id, entry in raw.items()}
    if unsound[0]:
        note = (f"the archive's index had {counted(unsound[0], 'entry', 'entries')} that were not sound: "
                "read again from their logs")
    elif there and changed and not raw and wanted:
        note = "the archive's index could not be read as one (damaged, or not dicehall's): rebuilt from the hall's logs"
    else:
        note = ""
    return IndexRead(entries, changed or not there, note)


def write_index(hall: tuple[int, int], entries: dict[str, IndexEntry]) -> None:
    """Replace the hall's index with these entries (a failure leaves it as it was: it is a cache)."""
    path = index_path(hall)
    try:
        make_dirs(path.parent, 0o700)
    except OSError:
        return
    write_cache(path, INDEX_FORMAT, {game_id: entry.packed() for game_id, entry in entries.items()})
