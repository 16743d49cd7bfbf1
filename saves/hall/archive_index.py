"""The archive's index: what each hall log gave the archive (saves/hall/archive.py), kept in the
player's own data folder (on a box DATA/players/NAME/hall-archive/, 0700), one file per hall (named
by its games folder's device and inode), so that listing 10,000 finished games reads no log.

It is a cache like the saves list's (saves/caches.py: written whole in one step, read as hostile),
kept by columns so that 10,000 entries are checked in milliseconds: {"format": 1, "saves": {"id":
[...], "key": [5 numbers per log], "genuine": [...], "state": [...], ...}}, one value per log in
each column. Reading it costs what its bytes allow (at most MAX_INDEX, read once, msgpack's limits
on every string and array); every column is checked as a whole (the type of each value, the
lengths and the characters of every text at once) before any of it is used, and an entry is used
only while its log is exactly as it was (its device, inode, size and times). An index that is not
one (damaged, crafted, of another format, a column not sound) is rebuilt from the logs, and said
in one line."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import msgpack

from dicehall.durable import open_regular
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.saves.caches import write_cache
from dicehall.saves.files import home, make_dirs
from dicehall.saves.framing import refuse_ext
from dicehall.saves.hall.files import MAX_SEATS

INDEX_FORMAT = 1
MAX_INDEX = 64 * 1024 * 1024  # bytes: 10,000 games take about 2 MiB
MAX_INDEX_GAMES = 1_000_000
STATES = frozenset(("won", "lost", "drawn", "abandoned", "playing", "damaged"))
GAMES = frozenset({known.id for known in CATALOGUE} | {""})  # "": a damaged log's
HEX = "0123456789abcdef"  # a commitment: 64 of these
TEXT_LIMIT, NAME_LIMIT = 300, 60


class IndexRow(NamedTuple):
    """What one log gave: its file's key (device, inode, size, mtime_ns, ctime_ns), whether its own
    players own it, its state (STATES), and for a finished game what the archive lists: the game,
    the commitment, when it ended, its moves, its result and news line, its people's names and
    whether each won. A damaged log's `result` is its problem line."""

    key: tuple
    genuine: bool = True
    state: str = "damaged"
    game: str = ""
    commitment: str = ""
    ended: float = 0.0
    moves: int = 0
    result: str = ""
    news: str = ""
    names: Sequence[str] = ()
    wins: Sequence[bool] = ()


COLUMNS = ("id", "key") + IndexRow._fields[1:]


@dataclass
class IndexRead:
    rows: dict[str, IndexRow]  # by game id, for the logs asked for
    changed: bool  # the file holds anything else (a log gone, or no index): it is written anew
    note: str  # one line when the index was off and is rebuilt ("" when it was sound or not there yet)


def index_path(hall: tuple[int, int]) -> Path:
    return home() / "hall-archive" / f"{hall[0]:x}-{hall[1]:x}.dhi"


NOT_AN_INDEX = "the archive's index could not be read as one (damaged, or not dicehall's): rebuilt from the hall's logs"
NOT_SOUND = "the archive's index held what the archive never writes ({}): rebuilt from the hall's logs"


def read_index(hall: tuple[int, int], wanted: set[str]) -> IndexRead:
    """The rows of the games `wanted` (by id) in the index of the hall whose games folder is
    (device, inode); none, and the line saying why, when the index is not sound."""
    path = index_path(hall)
    try:
        with os.fdopen(open_regular(path), "rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_INDEX:
                return IndexRead({}, True, NOT_AN_INDEX)
            data = handle.read(MAX_INDEX + 1)
    except FileNotFoundError:
        return IndexRead({}, True, "")  # not made yet: nothing was off
    except OSError:
        return IndexRead({}, True, NOT_AN_INDEX)
    try:
        index = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=refuse_ext, max_bin_len=0,
                                max_ext_len=0, max_str_len=4096, max_array_len=5 * MAX_INDEX_GAMES, max_map_len=64)
    except Exception:  # damaged or crafted: msgpack's own error, or a limit
        return IndexRead({}, True, NOT_AN_INDEX)
    if (type(index) is not dict or index.get("format") != INDEX_FORMAT or type(index.get("saves")) is not dict
            or set(index) != {"format", "saves"}):
        return IndexRead({}, True, NOT_AN_INDEX)
    columns = index["saves"]
    try:
        fault = column_fault(columns)
    except Exception:  # a value no check expected (an unhashable state): not sound either
        fault = "a column that is not readable"
    if fault:
        return IndexRead({}, True, NOT_SOUND.format(fault))
    # each log's row made in C: its key's 5 numbers as one tuple, then one value from each column
    keys = zip(*[iter(columns["key"])] * 5)
    made = map(partial(tuple.__new__, IndexRow), zip(keys, *(columns[name] for name in IndexRow._fields[1:])))
    rows = dict(zip(columns["id"], made))
    for gone in rows.keys() - wanted:  # a log no longer there
        del rows[gone]
    return IndexRead(rows, len(rows) != len(columns["id"]), "")


def _types(values: list, *kinds: type) -> bool:
    return set(map(type, values)) <= set(kinds)


def _texts(values: list, limit: int) -> bool:
    """Strings of at most `limit` characters, printable (isprintable, in C: no control character;
    else only what clean_text would leave)."""
    return (_types(values, str) and max(map(len, values), default=0) <= limit
            and ("".join(values).isprintable() or all(value == clean_text(value, limit) for value in values)))


def column_fault(columns: Any) -> str:
    """What in the index's columns is not what the archive writes, in words ("" when they are)."""
    if type(columns) is not dict or set(columns) != set(COLUMNS) or not all(type(c) is list for c in columns.values()):
        return "not the archive's columns"
    ids, keys = columns["id"], columns["key"]
    count = len(ids)
    if len(keys) != 5 * count or any(len(columns[name]) != count for name in COLUMNS[2:]):
        return "columns of different lengths"
    names, wins = columns["names"], columns["wins"]
    checks = (
        ("ids", _texts(ids, 6)),
        ("keys", _types(keys, int)),
        ("owners", _types(columns["genuine"], bool)),
        ("states", set(columns["state"]) <= STATES),
        ("games", set(columns["game"]) <= GAMES),
        ("commitments", _types(columns["commitment"], str) and set(map(len, columns["commitment"])) <= {0, 64}
         and not "".join(columns["commitment"]).strip(HEX)),
        ("times", _types(columns["ended"], float, int) and 0 <= min(columns["ended"], default=0)
         and max(columns["ended"], default=0) < 1e11),
        ("moves", _types(columns["moves"], int) and min(columns["moves"], default=0) >= 0),
        ("results", _texts(columns["result"], TEXT_LIMIT) and _texts(columns["news"], TEXT_LIMIT)),
        ("names", _types(names, list) and max(map(len, names), default=0) <= 2 * MAX_SEATS
         and _texts(list(chain.from_iterable(names)), NAME_LIMIT)),
        ("wins", _types(wins, list) and list(map(len, wins)) == list(map(len, names))
         and _types(list(chain.from_iterable(wins)), bool)),
    )
    for what, sound in checks:
        if not sound:
            return f"its {what}"
    if any((pledge == "") != (state == "damaged") or (game == "") != (state == "damaged")
           for pledge, state, game in zip(columns["commitment"], columns["state"], columns["game"])):
        return "a game without its commitment"
    return ""


def write_index(hall: tuple[int, int], rows: dict[str, IndexRow]) -> None:
    """Replace the hall's index with these rows (a failure leaves it as it was: it is a cache)."""
    path = index_path(hall)
    try:
        make_dirs(path.parent, 0o700)
    except OSError:
        return
    columns: dict[str, list] = {name: [] for name in COLUMNS}
    for game_id, row in rows.items():
        columns["id"].append(game_id)
        columns["key"].extend(row.key)
        for name, value in zip(IndexRow._fields[1:], row[1:]):
            columns[name].append(list(value) if isinstance(value, tuple) else value)
    write_cache(path, INDEX_FORMAT, columns)
