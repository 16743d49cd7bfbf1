"""Each save's result for the statistics (saves/stats.py), read from its records and cached in an
index beside the saves (`stats.dhi`), so a count over 10,000 saves costs a directory listing, a
stat of each file and one read of the index.

A save's entry is kept while its file is exactly as it was (size, times, inode: a save is only
ever appended to, and every append changes them) and was not changed within the last seconds
(RACY_NS, as the saves list's index); anything else is read again. The index is a file like any
other: an entry that is not what this module writes is read again from its save, never trusted."""
from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from hashlib import blake2b
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Callable

from dicehall.engine.assists import ASSIST_KINDS, assist_counts
from dicehall.engine.chance import daily_seed
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.saves.errors import SaveError, SaveUnreadable
from dicehall.saves.files import save_label, saves_dir, scanning
from dicehall.saves.framing import SUFFIX
from dicehall.saves.caches import read_cache, write_cache
from dicehall.saves.index import RACY_NS
from dicehall.saves.rebuild import build_session

RESULTS_NAME = "stats.dhi"  # not *.dhs: never listed as a save
RESULTS_FORMAT = 1
MAX_RESULTS_FILE = 64 * 1024 * 1024
MAX_SEATS = 16
MAX_RESULTS = 1_000_000  # entries: above it, the index is rebuilt


@dataclass
class SaveResult:
    """What the statistics need of one save. `problem` is set (and nothing else counts) for a save
    that cannot be read whole."""

    file: str  # the file's name in the saves folder
    id: str
    game: str = "?"
    variant: str = ""  # the game's options in words (the troll's difficulty), "" where it has none
    players: list = field(default_factory=list)  # [name, bot] per seat
    finished: bool = False
    winners: list = field(default_factory=list)  # the winners' seats
    summary: str = ""  # the outcome in words
    measures: list = field(default_factory=list)  # per seat: the value of the game's result, or None
    assists: dict = field(default_factory=dict)  # kind -> how many
    undos: int = 0
    identity: str = ""  # a hash of the game, seed, start time, first name and players: a copy counts once
    daily: str = ""  # the date of the daily deal it is (its seed proves it), or ""
    last_played: float = 0.0
    problem: str | None = None

    @property
    def people(self) -> list[int]:
        return [seat for seat, (_, bot) in enumerate(self.players) if not bot]


@contextmanager
def paused_gc():
    """The cyclic garbage collector paused while the index's many small lists and maps are made
    (msgpack's own advice for unpacking much data): none of them forms a cycle, and the collector
    would otherwise scan the growing heap again and again (a third of a 10,000-save count)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def results(warn: Callable[[str], None] | None = None) -> list[SaveResult]:
    """Every save's result, from the index where the file is as it was, else from its records (an
    index that was not what this writes is said through `warn`, in one line)."""
    folder = saves_dir()
    kept: dict[str, list] = {}
    found = []
    now = time.time_ns()
    try:
        entries = list(os.scandir(folder))
    except OSError as error:
        raise SaveError(f"cannot list the saves ({error.strerror})") from None
    index, dropped, fault = _read(folder, {entry.name for entry in entries})
    if fault and warn:
        warn(f"the statistics' index ({RESULTS_NAME}) {fault}: rebuilt from the saves")
    for entry in entries:
        name = entry.name
        if not name.endswith(SUFFIX):
            continue
        try:
            stat = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # deleted while we were counting
        key = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]
        cached = index.get(name)
        result = _cached(cached, name, key, stat.st_mtime) if cached is not None else None
        if result is None:
            result, cacheable = _read_save(Path(entry.path), stat.st_mtime)
            if not cacheable or now - max(stat.st_mtime_ns, stat.st_ctime_ns) < RACY_NS or not _utf8(name):
                found.append(result)
                continue
            cached = [key, *(getattr(result, field) for field in ENTRY_FIELDS)]
        assert cached is not None  # the index's entry the result came from, or the one made just above
        kept[name] = cached
        found.append(result)
    if kept != index or dropped:
        _write(folder, kept)
    return found


def _read_save(path: Path, mtime: float) -> tuple[SaveResult, bool]:
    """A save's result from its records; whether it may be cached (not after a fault of the moment)."""
    shown = save_label(path)
    try:
        with scanning(path, shown) as scan:
            session = build_session(scan, shown)
            header = scan.header
            if scan.damage:
                return SaveResult(path.name, shown, problem=clean_text(f"{shown}: {scan.damage}", 300),
                                  last_played=mtime), True
    except Exception as error:  # the per-file boundary: one line, the others are counted as usual
        problem = str(error) if isinstance(error, SaveError) else f"{shown}: cannot be read ({type(error).__name__})"
        return (SaveResult(path.name, shown, problem=clean_text(problem, 300), last_played=mtime),
                isinstance(error, SaveError) and not isinstance(error, SaveUnreadable))
    game = session.game
    outcome = session.outcome
    measures = [game.result(session.state, seat) if outcome else None for seat in range(len(session.players))]
    label = getattr(game, "game_label", None)
    created = header.get("created") if isinstance(header.get("created"), str) else ""
    players = [[p.name, p.bot] for p in session.players]
    return SaveResult(
        path.name, shown, game.ID, clean_text(label(session.options), 60) if label else "", players,
        outcome is not None, list(outcome.winners) if outcome else [], clean_text(outcome.summary, 120) if outcome else "",
        [m.value if m is not None and type(m.value) is int else None for m in measures], assist_counts(session.labels.assists), session.undos,
        blake2b(repr((game.ID, session.seed, created, session.labels.save_name, players)).encode(), digest_size=12).hexdigest(),
        _daily(game.ID, session.options.get("winnable_from", session.seed), session.labels.save_name, created), mtime), True


DAY = re.compile(r"daily (\d{4}-\d{2}-\d{2})")


def _daily(game: str, seed: int, name: str, created: str) -> str:
    """The date whose daily deal this save plays, if its seed (a winnable deal's: the seed its search
    began at, today's winnable deal) is that date's: the date in its
    default name ("daily 2026-11-24"), else the day it was made or the day either side (the name
    says the player's local date, `created` is UTC)."""
    days = []
    named = DAY.match(name)
    if named:
        days.append(named.group(1))
    try:
        made = date.fromisoformat(created[:10])
        days += [(made + timedelta(days=shift)).isoformat() for shift in (0, -1, 1)]
    except ValueError:
        pass
    return next((day for day in days if daily_seed(game, day) == seed), "")


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


GAMES = {entry.id for entry in CATALOGUE}
# An index entry is a list: the file's key, then these fields of its SaveResult.
ENTRY_FIELDS = ("game", "variant", "players", "finished", "winners", "summary", "measures", "assists", "undos",
                "identity", "daily", "problem")


def _text(value: Any, limit: int) -> bool:
    """Text as clean_text leaves it. Printable text with single spaces is (str.isprintable, at C
    speed, refuses every character clean_text drops); any other is checked by clean_text itself."""
    if type(value) is not str or len(value) > limit:
        return False
    if value.isprintable() and " ".join(value.split()) == value:
        return True
    return value == clean_text(value, limit)


def _cached(entry: Any, name: str, key: list, mtime: float) -> SaveResult | None:
    """The save's result from its (sound) index entry, or None unless the entry matches the file."""
    if entry[0] != key:
        return None
    _, game, variant, players, finished, winners, summary, measures, assists, undos, identity, daily, problem = entry
    stem = name[: -len(SUFFIX)]
    shown = stem if _text(stem, 120) else clean_text(stem, 120)  # the id as save_label shows it
    if problem is not None:
        return SaveResult(name, shown, problem=problem, last_played=mtime)
    return SaveResult(name, shown, game, variant, players, finished, winners, summary, measures, assists, undos,
                      identity, daily, mtime)


def _sound(entry: Any) -> bool:
    """Whether an index entry holds only what _read_save could have made (the index is a file like
    any other: checked, never trusted), before it is kept."""
    if type(entry) is not list or len(entry) != 13:
        return False
    key, game, variant, players, finished, winners, summary, measures, assists, undos, identity, daily, problem = entry
    if type(key) is not list or len(key) != 5 or not all(type(n) is int for n in key):
        return False
    if problem is not None:
        return _text(problem, 300)
    if not (type(game) is str and game in GAMES and type(players) is list and 0 < len(players) <= MAX_SEATS
            and type(finished) is bool and type(winners) is list and type(measures) is list and len(measures) == len(players)
            and type(assists) is dict and type(undos) is int and 0 <= undos < 1 << 40):
        return False
    for player in players:
        if type(player) is not list or len(player) != 2 or type(player[1]) is not bool or not _text(player[0], 120):
            return False
    seats = len(players)
    for seat in winners:
        if type(seat) is not int or not 0 <= seat < seats:
            return False
    for measure in measures:
        if measure is not None and type(measure) is not int:
            return False
    for kind, count in assists.items():
        if kind not in ASSIST_KINDS or type(count) is not int or not 0 < count < 1 << 40:
            return False
    return len(set(winners)) == len(winners) and (_text(variant, 60) and _text(summary, 120) and _text(identity, 24)
                                                  and _text(daily, 10))


def _read(folder: Path, names: set[str]) -> tuple[dict[str, Any], bool, str]:
    return read_cache(folder / RESULTS_NAME, RESULTS_FORMAT, MAX_RESULTS_FILE, MAX_RESULTS, names, _sound)


def _write(folder: Path, entries: dict[str, list]) -> None:
    write_cache(folder / RESULTS_NAME, RESULTS_FORMAT, entries)
