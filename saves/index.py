"""The saves list: every save's summary, cached in a fingerprinted index beside the saves, and
finding a save by its id or name."""
from __future__ import annotations

import os
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from dicehall import engine
from dicehall.durable import open_regular
from dicehall.engine.text import clean_text
from dicehall.saves.box import SAVES_KEY, command_hint
from dicehall.saves.caches import read_cache, write_cache
from dicehall.saves.errors import SaveError, SaveUnreadable
from dicehall.saves.files import save_label, saves_dir, scanning, shown_path
from dicehall.saves.framing import SUFFIX
from dicehall.saves.rebuild import build_session


@dataclass
class SaveInfo:
    id: str
    name: str
    game: str
    title: str
    progress: str
    finished: bool
    last_played: float
    path: Path
    problem: str | None = None
    branch_of: str = ""  # "branch of NAME at event N" for a save made by continuing from a replay


def find_save(name_or_id: str) -> Path:
    folder = saves_dir()
    candidates = sorted(folder.glob("*" + SUFFIX))
    for path in candidates:
        if path.stem == name_or_id:
            return path
    by_label = [path for path in candidates if save_label(path) == name_or_id]  # the id as listed
    if len(by_label) == 1:
        return by_label[0]
    if len(by_label) > 1:
        raise SaveError(f"more than one save file is listed as {clean_text(name_or_id, 120)!r}: rename one of them in {shown_path(folder)}")
    by_name = [info.path for info in list_saves() if info.name == name_or_id]
    if len(by_name) == 1:
        return by_name[0]
    if len(by_name) > 1:
        raise SaveError(f"more than one save is named {clean_text(name_or_id)!r}: use its id ({command_hint('saves', key=SAVES_KEY)} shows it)")
    prefixed = [p for p in candidates if p.stem.startswith(name_or_id)]
    if len(prefixed) == 1 and name_or_id:
        return prefixed[0]
    raise SaveError(f"no save named {clean_text(name_or_id)!r} ({command_hint('saves', key=SAVES_KEY)} lists them)")


def list_saves(warn: Callable[[str], None] | None = None) -> list[SaveInfo]:
    """Every save, most recently played first; damaged ones carry a `problem`. Every text field is
    cleaned of control characters, whatever the file is called or holds. Whatever goes wrong with
    one file is that file's one-line problem: the others are listed as usual.

    A save's summary is taken from the index (INDEX_NAME) while the file is exactly as it was when
    the summary was made; any other save is rebuilt from its records, and the index rewritten (an
    index that was not what the list writes is said through `warn`, in one line)."""
    folder = saves_dir()
    paths = list(folder.glob("*" + SUFFIX))
    index, dropped, fault = _read_index(folder, {path.name for path in paths})
    if fault and warn:
        warn(f"the saves list's index ({INDEX_NAME}) {fault}: rebuilt from the saves")
    kept: dict[str, dict] = {}
    infos = []
    for path in paths:
        try:
            before = _fingerprint(path)
        except FileNotFoundError:
            continue  # deleted while we were listing
        info = _cached_info(index.get(path.name), path, before)
        if info is not None:
            kept[path.name] = index[path.name]
        else:
            info, cacheable = _summary(path, before.stat.st_mtime)
            if cacheable and before.checked and not before.racy() and _same_file(path, before) and _utf8(path.name):
                kept[path.name] = _index_entry(info, before)
        infos.append(info)
    if kept != index or dropped:
        _write_index(folder, kept)
    infos.sort(key=lambda info: info.last_played, reverse=True)
    return infos


def _summary(path: Path, mtime: float) -> tuple[SaveInfo, bool]:
    """A save's line in the list, rebuilt from its records; and whether it may be cached (not when
    the file could not be read: that is a fault of the moment, not of its bytes)."""
    shown = save_label(path)
    try:
        with scanning(path, shown) as scan:
            session = build_session(scan, shown)
            outcome = session.outcome
            progress = session.game.progress(session.state) + (" (cut-off tail)" if scan.torn else "")
            problem = scan.damage and clean_text(f"{shown}: {scan.damage}", 300)
        return SaveInfo(shown, session.labels.save_name, session.game.ID, session.game.TITLE,
                        progress, outcome is not None, mtime, path, problem, branch_text(scan.header)), True
    except Exception as error:  # the per-file boundary: SaveError is one line already
        problem = str(error) if isinstance(error, SaveError) else f"{shown}: cannot be read ({type(error).__name__})"
        cacheable = isinstance(error, SaveError) and not isinstance(error, SaveUnreadable)
        return SaveInfo(shown, shown, "?", "?", "damaged", False, mtime, path, clean_text(problem, 300)), cacheable


# ----- the index: a cache of the list's summaries, beside the saves -----
INDEX_NAME = "index.dhi"  # not *.dhs: never listed as a save
INDEX_FORMAT = 1
MAX_INDEX = 16 * 1024 * 1024
MAX_INDEX_SAVES = 1_000_000  # entries an index may hold (and a map in it): above it, it is rebuilt
FINGERPRINT_BYTES = 16 * 1024  # CRCs of this much of the file's start (the header) and of its end (the last records)
RACY_NS = 2_000_000_000  # a file changed this recently could change again within the same tick of its clock: not cached


@dataclass(frozen=True)
class Fingerprint:
    """What tells a save file from any changed version of it: its identity, size and times, and a
    CRC of its first and of its last bytes. `checked` is False when those bytes could not be read."""

    stat: os.stat_result
    head_crc: int = -1
    tail_crc: int = -1
    checked: bool = False

    def key(self) -> list[int]:
        st = self.stat
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, self.head_crc, self.tail_crc]

    def racy(self) -> bool:
        return time.time_ns() - max(self.stat.st_mtime_ns, self.stat.st_ctime_ns) < RACY_NS


def _fingerprint(path: Path) -> Fingerprint:
    """The file's fingerprint, read in constant time whatever its size (FileNotFoundError if it is gone)."""
    stat = os.stat(path)
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        raise
    except OSError:
        return Fingerprint(stat)
    try:
        stat = os.fstat(fd)
        head = os.pread(fd, FINGERPRINT_BYTES, 0)
        tail = os.pread(fd, FINGERPRINT_BYTES, max(0, stat.st_size - FINGERPRINT_BYTES))
        return Fingerprint(stat, zlib.crc32(head), zlib.crc32(tail), True)
    except OSError:
        return Fingerprint(stat)
    finally:
        os.close(fd)


def _same_file(path: Path, before: Fingerprint) -> bool:
    """Whether the file is still as it was before it was read (no writer changed it meanwhile)."""
    try:
        return _fingerprint(path).key() == before.key()
    except OSError:
        return False


def _utf8(name: str) -> bool:
    """Whether a file name can be a key of the index (a name that is not UTF-8 holds surrogates)."""
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _index_entry(info: SaveInfo, fingerprint: Fingerprint) -> dict:
    return {"file": fingerprint.key(), "name": info.name, "game": info.game, "progress": info.progress,
            "finished": info.finished, "problem": info.problem, "branch_of": info.branch_of}


def _is_text(value: Any, limit: int) -> bool:
    """Text as the list makes it: printable characters only, at most `limit` of them."""
    return isinstance(value, str) and len(value) <= limit and value == clean_text(value, limit)


TITLES = {known.id: known.title for known in engine.games.CATALOGUE} | {"?": "?"}
ENTRY_KEYS = {"file", "name", "game", "progress", "finished", "problem", "branch_of"}


def _sound_entry(entry: Any) -> bool:
    """Whether an index entry holds only what the list itself writes (the index is a file like any
    other: what it holds is checked, never trusted), before it is kept."""
    if not isinstance(entry, dict) or set(entry) != ENTRY_KEYS:
        return False
    key, problem = entry["file"], entry["problem"]
    return (type(key) is list and len(key) == 7 and all(type(n) is int for n in key)
            and _is_text(entry["name"], 120) and _is_text(entry["progress"], 400) and _is_text(entry["branch_of"], 200)
            and (problem is None or _is_text(problem, 300)) and isinstance(entry["finished"], bool)
            and isinstance(entry["game"], str) and entry["game"] in TITLES)


def _cached_info(entry: Any, path: Path, fingerprint: Fingerprint) -> SaveInfo | None:
    """The save's summary from its (sound) index entry, or None when there is none or it does not
    match the file as it is now."""
    if entry is None or not fingerprint.checked or entry["file"] != fingerprint.key():
        return None
    return SaveInfo(save_label(path), entry["name"], entry["game"], TITLES[entry["game"]], entry["progress"],
                    entry["finished"], fingerprint.stat.st_mtime, path, entry["problem"], entry["branch_of"])


def _read_index(folder: Path, names: set[str]) -> tuple[dict[str, Any], bool, str]:
    """The sound entries of the saves named, by file name, whether the file held anything else, and
    what was off in it; ({}, True, ...) if there is none or it cannot be read as one (saves/caches.py)."""
    return read_cache(folder / INDEX_NAME, INDEX_FORMAT, MAX_INDEX, MAX_INDEX_SAVES, names, _sound_entry)


def _write_index(folder: Path, entries: dict[str, dict]) -> None:
    write_cache(folder / INDEX_NAME, INDEX_FORMAT, entries)


def branch_text(header: dict) -> str:
    """What a save branched from, in words, from its header ("" for a save started afresh)."""
    branch = header.get("branch_of")
    if not isinstance(branch, dict):
        return ""
    event = branch.get("event")
    at = f" at event {event}" if isinstance(event, int) and not isinstance(event, bool) else ""
    return f"branch of {clean_text(branch.get('name', '')) or 'a replay'}{at}"
