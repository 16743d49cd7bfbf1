"""Each save's result for the statistics (saves/stats.py), read from its records and cached in an
index beside the saves (`stats.dhi`), so a count over 10,000 saves costs a directory listing, a
stat of each file and one read of the index.

A save's entry is kept while its file is exactly as it was (size, times, inode: a save is only
ever appended to, and every append changes them) and was not changed within the last seconds
(RACY_NS, as the saves list's index); anything else is read again. The index is a file like any
other: an entry that is not what this module writes is read again from its save, never trusted."""
from __future__ import annotations

import os
import re
import time
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import msgpack

from dicehall.engine.chance import daily_seed
from dicehall.engine.codec import check_nesting
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.replays.assists import ASSIST_KINDS, assist_counts
from dicehall.replays.durable import open_regular, write_durably
from dicehall.saves.errors import SaveError, SaveUnreadable
from dicehall.saves.files import save_label, saves_dir, scanning
from dicehall.saves.framing import SUFFIX, refuse_ext
from dicehall.saves.index import RACY_NS
from dicehall.saves.rebuild import build_session

RESULTS_NAME = "stats.dhi"  # not *.dhs: never listed as a save
RESULTS_FORMAT = 1
MAX_RESULTS_FILE = 64 * 1024 * 1024
MAX_SEATS = 16


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
    measures: list = field(default_factory=list)  # per seat: the game's result_measure, or None
    assists: dict = field(default_factory=dict)  # kind -> how many
    undos: int = 0
    identity: str = ""  # the game, seed, start time, first name and players: a copied file counts once
    daily: str = ""  # the date of the daily deal it is (its seed proves it), or ""
    last_played: float = 0.0
    problem: str | None = None

    @property
    def people(self) -> list[int]:
        return [seat for seat, (_, bot) in enumerate(self.players) if not bot]


def results() -> list[SaveResult]:
    """Every save's result, from the index where the file is as it was, else from its records."""
    folder = saves_dir()
    index = _read(folder)
    kept: dict[str, dict] = {}
    found = []
    now = time.time_ns()
    try:
        entries = list(os.scandir(folder))
    except OSError as error:
        raise SaveError(f"cannot list the saves ({error.strerror})") from None
    for entry in entries:
        if not entry.name.endswith(SUFFIX):
            continue
        try:
            stat = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # deleted while we were counting
        key = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]
        cached = index.get(entry.name)
        result = _cached(cached, entry.name, key, stat.st_mtime) if isinstance(cached, dict) else None
        if result is None:
            result, cacheable = _read_save(Path(entry.path), stat.st_mtime)
            if not cacheable or now - max(stat.st_mtime_ns, stat.st_ctime_ns) < RACY_NS or not _utf8(entry.name):
                found.append(result)
                continue
            cached = dict(asdict(result), key=key)
            del cached["file"], cached["id"], cached["last_played"]
        kept[entry.name] = cached
        found.append(result)
    if kept != index:
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
    measure = getattr(game, "result_measure", None)
    measures = [measure(session.state, seat) if measure and outcome else None for seat in range(len(session.players))]
    label = getattr(game, "game_label", None)
    created = header.get("created") if isinstance(header.get("created"), str) else ""
    players = [[p.name, p.bot] for p in session.players]
    return SaveResult(
        path.name, shown, game.ID, clean_text(label(session.options), 60) if label else "", players,
        outcome is not None, list(outcome.winners) if outcome else [], clean_text(outcome.summary, 120) if outcome else "",
        [m if type(m) is int else None for m in measures], assist_counts(session.assists), session.undos,
        clean_text(f"{game.ID}:{session.seed}:{created}:{session.save_name}:{players}", 400),
        _daily(game.ID, session.seed, session.save_name, created), mtime), True


DAY = re.compile(r"daily (\d{4}-\d{2}-\d{2})")


def _daily(game: str, seed: int, name: str, created: str) -> str:
    """The date whose daily deal this save plays, if its seed is that date's: the date in its
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


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) <= limit and value == clean_text(value, limit)


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value < 1 << 40


def _cached(entry: dict, name: str, key: list, mtime: float) -> SaveResult | None:
    """The save's result from its index entry, or None unless the entry matches the file and holds
    only what _read_save could have made."""
    if entry.get("key") != key:
        return None
    players, winners, measures, assists = (entry.get("players"), entry.get("winners"), entry.get("measures"),
                                           entry.get("assists"))
    problem = entry.get("problem")
    if problem is not None:
        if not _text(problem, 300):
            return None
        return SaveResult(name, clean_text(name[: -len(SUFFIX)], 120), problem=problem, last_played=mtime)
    seats = len(players) if isinstance(players, list) else -1
    if not (entry.get("game") in GAMES and _text(entry.get("variant"), 60) and 0 < seats <= MAX_SEATS
            and all(isinstance(p, list) and len(p) == 2 and _text(p[0], 120) and isinstance(p[1], bool) for p in players)
            and isinstance(entry.get("finished"), bool) and _text(entry.get("summary"), 120)
            and isinstance(winners, list) and all(type(w) is int and 0 <= w < seats for w in winners)
            and len(set(winners)) == len(winners)
            and isinstance(measures, list) and len(measures) == seats
            and all(m is None or type(m) is int for m in measures)
            and isinstance(assists, dict) and all(k in ASSIST_KINDS and _count(n) and n for k, n in assists.items())
            and _count(entry.get("undos")) and _text(entry.get("identity"), 400) and _text(entry.get("daily"), 10)):
        return None
    return SaveResult(name, clean_text(name[: -len(SUFFIX)], 120), entry["game"], entry["variant"], players,
                      entry["finished"], winners, entry["summary"], measures, assists, entry["undos"],
                      entry["identity"], entry["daily"], mtime)


def _read(folder: Path) -> dict[str, Any]:
    try:
        with os.fdopen(open_regular(folder / RESULTS_NAME), "rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_RESULTS_FILE:
                return {}
            data = handle.read(MAX_RESULTS_FILE + 1)
        index = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=refuse_ext, max_bin_len=0,
                                max_ext_len=0, max_str_len=4096, max_array_len=64, max_map_len=1_000_000)
        check_nesting(index)
    except Exception:  # missing, unreadable, damaged or crafted: read again from the saves
        return {}
    if not isinstance(index, dict) or index.get("format") != RESULTS_FORMAT or not isinstance(index.get("saves"), dict):
        return {}
    return {name: entry for name, entry in index["saves"].items() if isinstance(name, str)}


def _write(folder: Path, entries: dict[str, dict]) -> None:
    """Replace the index in one step; a failure leaves it as it was (the counts need no cache)."""
    temporary = folder / f"{RESULTS_NAME}.{os.getpid()}.tmp"
    try:
        data = msgpack.Packer(buf_size=16 * 1024, use_bin_type=True).pack({"format": RESULTS_FORMAT, "saves": entries})
        temporary.unlink(missing_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except (OSError, ValueError, TypeError):
        return
    try:
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, folder / RESULTS_NAME)
    except OSError:
        temporary.unlink(missing_ok=True)
