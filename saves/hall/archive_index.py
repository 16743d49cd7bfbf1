"""The archive's index: what each hall log gave the archive (saves/hall/archive.py), kept in the
player's own data folder (on a box DATA/players/NAME/hall-archive/, 0700), one file per hall (named
by its games folder's device and inode), so that listing 10,000 finished games reads no log.

It is a cache like the saves list's (saves/caches.py: written whole in one step, read as hostile),
kept by columns, each packed whole, so that 10,000 entries are read and checked in milliseconds
and never cost more memory than the hall's logs allow: {"format": 1, "saves": {"count": N, ...}},
where each column is one string (texts joined by newlines, which no cleaned text holds, a game's
people's names by tabs; the commitments end to end) or one run of bytes (numbers of a fixed width,
who won as bits; a state or a game by its place in a fixed list). Reading it: at most MAX_INDEX bytes, read once with
msgpack's limits and tables no deeper than its own two; N at most what the games folder's logs allow; every column's size checked against
N before it is split, then the values of every column checked at once (printable texts within
their lengths, states and games known, times that are times). An entry is used only while its log
is exactly as it was (its device, inode, size and times). An index that is not one (damaged,
crafted, of another format, a column not sound) is rebuilt from the logs, and said in one line."""
from __future__ import annotations

import math
import os
import re
from array import array
from dataclasses import dataclass
from functools import partial
from itertools import repeat
from pathlib import Path
from typing import Any, NamedTuple, Sized

import msgpack

from dicehall.durable import open_regular
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.saves.caches import write_cache
from dicehall.saves.files import home, make_dirs
from dicehall.saves.framing import refuse_ext
from dicehall.saves.hall.files import MAX_SEATS

INDEX_FORMAT = 1
MAX_INDEX = 64 * 1024 * 1024  # bytes: 10,000 games take about 2 MiB
STATES = ("won", "lost", "drawn", "abandoned", "playing", "damaged")
GAMES = ("",) + tuple(known.id for known in CATALOGUE)  # "": a damaged log's
NO_COMMITMENT = "0" * 64  # a damaged log's place in the commitments
TEXT_LIMIT, NAME_LIMIT = 300, 60
IDS = re.compile(r"(?:[a-z0-9]{6}(?:\n[a-z0-9]{6})*)?")
COMMITMENTS = re.compile(r"[0-9a-f]{64}")
KEY, MOVES, WINS = "q", "L", "H"  # the arrays' types: 64-bit keys, 32-bit moves, 16 bits of who won (at least)
PEOPLE = 2 * MAX_SEATS  # a game's people at most: its seats, and those a bot took over for being idle
PEOPLE_LIMIT = PEOPLE * (NAME_LIMIT + 1)
LONG_NAME = re.compile(f"[^\t\n]{{{NAME_LIMIT + 1}}}")  # a name longer than a cleaned name is


class IndexRow(NamedTuple):
    """What one log gave: its file's key (device, inode, size, mtime_ns, ctime_ns), whether its own
    players own it, its state (STATES), and for a finished game what the archive lists: the game,
    the commitment, when it ended, its moves, its result and news line, its people's names (joined
    by tabs) and who of them won (bit n: person n). A damaged log's `result` is its problem line."""

    key: tuple
    genuine: bool = True
    state: str = "damaged"
    game: str = ""
    commitment: str = ""
    ended: float = 0.0
    moves: int = 0
    result: str = ""
    news: str = ""
    names: str = ""  # its people's names joined by tabs (no cleaned name holds one)
    wins: int = 0  # bit n set: its person n won


ROW_FIELDS = tuple(IndexRow.__annotations__)  # its fields, in order


@dataclass
class IndexRead:
    rows: dict[str, IndexRow]  # by game id, for the logs asked for
    changed: bool  # the file holds anything else (a log gone, or no index): it is written anew
    note: str  # one line when the index was off and is rebuilt ("" when it was sound or not there yet)


def index_path(hall: tuple[int, int], under: Path | None = None) -> Path:
    """The index of the hall whose games folder is (device, inode), in the data folder `under`
    (home() when None: a worker thread is given it, resolved before it starts)."""
    return (under or home()) / "hall-archive" / f"{hall[0]:x}-{hall[1]:x}.dhi"


NOT_AN_INDEX = "the archive's index could not be read as one (damaged, or not dicehall's): rebuilt from the hall's logs"
NOT_SOUND = "the archive's index held what the archive never writes ({}): rebuilt from the hall's logs"


def read_index(hall: tuple[int, int], wanted: set[str], under: Path | None = None) -> IndexRead:
    """The rows of the games `wanted` (by id) in the index of the hall whose games folder is
    (device, inode); none, and the line saying why, when the index is not sound."""
    path = index_path(hall, under)
    try:
        with os.fdopen(open_regular(path), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_INDEX:
                return IndexRead({}, True, NOT_AN_INDEX)
            data = handle.read(size + 1)  # what is there (read(MAX_INDEX) would take 64 MiB at once)
    except FileNotFoundError:
        return IndexRead({}, True, "")  # not made yet: nothing was off
    except OSError:
        return IndexRead({}, True, NOT_AN_INDEX)
    try:  # a handful of objects, however large: every column is one string or one run of bytes
        index = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=refuse_ext, max_ext_len=0,
                                max_array_len=0, max_map_len=32, max_str_len=MAX_INDEX, max_bin_len=MAX_INDEX,
                                object_pairs_hook=_table)
    except Exception:  # damaged or crafted: msgpack's own error, or a limit
        return IndexRead({}, True, NOT_AN_INDEX)
    if (type(index) is not _Table or set(index) != {"format", "saves"} or index["format"] != INDEX_FORMAT
            or type(index["saves"]) is not _Table):
        return IndexRead({}, True, NOT_AN_INDEX)
    try:
        rows = unpacked_rows(index["saves"], 2 * len(wanted) + 1000)  # logs removed since: a few more than there are
    except NotSound as fault:
        return IndexRead({}, True, NOT_SOUND.format(fault))
    count = len(rows)
    for gone in rows.keys() - wanted:  # a log no longer there
        del rows[gone]
    return IndexRead(rows, len(rows) != count, "")


class _Table(dict):
    depth = 1  # tables within it, and itself


def _table(pairs: list) -> _Table:
    """msgpack's object_pairs_hook: the index is a table of one table (its columns). Tables nest no
    deeper, refused as soon as one does: maps of maps within the size and map limits cost 30
    times their bytes (a 60 MiB file took 1.8 GB and 10 s) before anything else was looked at."""
    table = _Table(pairs)
    table.depth = 1 + max((value.depth for _, value in pairs if type(value) is _Table), default=0)
    if table.depth > 2:
        raise NotSound("tables within tables")
    return table


class NotSound(DicehallError):
    """What in the index is not what the archive writes, in words (said in the index's one line)."""


def _texts(blob: Any, count: int, limit: int, what: str, within: str = "") -> list[str]:
    """`count` texts joined by newlines, each printable (but for the characters `within`, which
    join a text's parts) and at most `limit` characters; its size is checked before it is split,
    so a crafted column costs no more than `count` texts may."""
    if type(blob) is not str or len(blob) > count * (limit + 1) or blob.count("\n") != max(0, count - 1):
        raise NotSound(what)
    texts = blob.split("\n") if count else []
    printable = blob.replace("\n", "").replace(within, "") if within else blob.replace("\n", "")
    if max(map(len, texts), default=0) > limit or not (printable.isprintable() or all(
            part == clean_text(part, limit) for text in texts for part in (text.split(within) if within else [text]))):
        raise NotSound(what)  # (isprintable, in C: no control character; else only what clean_text leaves)
    return texts


def _numbers(blob: Any, kind: str, count: int, what: str) -> array:
    numbers = array(kind)
    if type(blob) is not bytes or len(blob) != count * numbers.itemsize:
        raise NotSound(what)
    numbers.frombytes(blob)
    return numbers


def _places(blob: Any, count: int, choices: Sized, what: str) -> bytes:
    """`count` bytes, each a place in `choices`."""
    if type(blob) is not bytes or len(blob) != count or max(blob, default=0) >= len(choices):
        raise NotSound(what)
    return blob


def unpacked_rows(columns: Any, most: int) -> dict[str, IndexRow]:
    """The rows the index's columns hold, by game id (at most `most` of them); NotSound otherwise."""
    if not isinstance(columns, dict) or set(columns) != set(COLUMNS):
        raise NotSound("not the archive's columns")
    count = columns["count"]
    if type(count) is not int or not 0 <= count <= most:
        raise NotSound("its count")
    ids = columns["id"]
    if type(ids) is not str or len(ids) != max(0, 7 * count - 1) or not IDS.fullmatch(ids):
        raise NotSound("its ids")
    keys = _numbers(columns["key"], KEY, 5 * count, "its keys")
    genuine = _places(columns["genuine"], count, (False, True), "its owners")
    states = _places(columns["state"], count, STATES, "its states")
    games = _places(columns["game"], count, GAMES, "its games")
    pledges = columns["commitment"]
    if type(pledges) is not str or len(pledges) != 64 * count or pledges.strip("0123456789abcdef"):
        raise NotSound("its commitments")
    ended = _numbers(columns["ended"], "d", count, "its times")
    if count and not (0 <= min(ended) and max(ended) < 1e11) or any(map(math.isnan, ended)):
        raise NotSound("its times")
    moves = _numbers(columns["moves"], MOVES, count, "its moves")
    results = _texts(columns["result"], count, TEXT_LIMIT, "its results")
    news = _texts(columns["news"], count, TEXT_LIMIT, "its news")
    names = _texts(columns["names"], count, PEOPLE_LIMIT, "its names", within="\t")
    if LONG_NAME.search(columns["names"]) or max(map(str.count, names, repeat("\t")), default=0) >= PEOPLE:
        raise NotSound("its names")
    wins = _numbers(columns["wins"], WINS, count, "its wins")
    if any((state == 5) != (game == 0) for state, game in zip(states, games)):  # STATES[5]: "damaged"
        raise NotSound("a game without its game")
    # each log's row made in C: its key's 5 numbers as one tuple, then one value from each column
    made = map(partial(tuple.__new__, IndexRow),
               zip(zip(*[iter(keys)] * 5), map(bool, genuine), map(STATES.__getitem__, states),
                   map(GAMES.__getitem__, games), COMMITMENTS.findall(pledges), ended, moves, results, news,
                   names, wins))
    return dict(zip(ids.split("\n") if count else [], made))


COLUMNS = ("count", "id", "key", "genuine", "state", "game", "commitment", "ended", "moves", "result", "news",
           "names", "wins")


def packed_columns(rows: dict[str, IndexRow]) -> dict[str, Any]:
    """The rows as the index keeps them (see the module's notes)."""
    values = list(rows.values())
    return {"count": len(values), "id": "\n".join(rows),
            "key": array(KEY, [n for row in values for n in row.key]).tobytes(),
            "genuine": bytes(row.genuine for row in values),
            "state": bytes(STATES.index(row.state) for row in values),
            "game": bytes(GAMES.index(row.game) for row in values),
            "commitment": "".join(row.commitment or NO_COMMITMENT for row in values),
            "ended": array("d", [row.ended for row in values]).tobytes(),
            "moves": array(MOVES, [row.moves for row in values]).tobytes(),
            "result": "\n".join(row.result for row in values), "news": "\n".join(row.news for row in values),
            "names": "\n".join(row.names for row in values),
            "wins": array(WINS, [row.wins for row in values]).tobytes()}


def write_index(hall: tuple[int, int], rows: dict[str, IndexRow], under: Path | None = None) -> None:
    """Replace the hall's index with these rows (a failure leaves it as it was: it is a cache)."""
    path = index_path(hall, under)
    try:
        make_dirs(path.parent, 0o700)
    except OSError:
        return
    write_cache(path, INDEX_FORMAT, packed_columns(rows))
