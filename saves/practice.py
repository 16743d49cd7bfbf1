"""What practice brings back (issue #22): the marked decisions of the people in your saves whose
analysis is stored (saves/analyses.py: nothing is analysed here, so practice starts at once), the
unsolved first, the latest save first; and the positions solved, kept in a small file in the data
folder (DATA/practice.json), read as hostile: capped, checked, and a damaged one ignored with one line."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Callable

from dicehall.durable import open_regular
from dicehall.engine.analysis import Decision
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.saves.analyses import content_digest, stored
from dicehall.saves.errors import os_reason
from dicehall.saves.files import home, make_dirs, write_new
from dicehall.saves.index import list_saves
from dicehall.saves.store import load_readonly

SOLVED_FILE = "practice.json"
MAX_SOLVED = 10_000  # positions remembered (the oldest are forgotten first)
MAX_SOLVED_BYTES = 1024 * 1024
KEY_LIMIT = 80


@dataclass(frozen=True)
class Position:
    """A marked decision to practise: the save's session and the decision (answer hidden until played)."""

    key: str  # the game's content digest and the decision's event: what "solved" remembers
    save: str  # the save's name, as listed
    session: object
    decision: Decision
    solved: bool


def _solved_path():
    return home() / SOLVED_FILE


def read_solved(warn: Callable[[str], None] | None = None) -> list[str]:
    """The keys of the positions solved, oldest first; a damaged file is said and read as empty."""
    path = _solved_path()
    try:
        fd = open_regular(path)
        with os.fdopen(fd, "rb") as file:
            data = file.read(MAX_SOLVED_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as error:
        if warn:
            warn(f"{SOLVED_FILE}: {os_reason(error)}; the positions solved are not known")
        return []
    try:
        if len(data) > MAX_SOLVED_BYTES:
            raise ValueError(f"larger than {MAX_SOLVED_BYTES // 1024} KiB")
        document = json.loads(data.decode("utf-8"))
        if not isinstance(document, dict) or set(document) != {"solved"} or not isinstance(document["solved"], list):
            raise ValueError("not a list of positions solved")
        keys = document["solved"]
        if len(keys) > MAX_SOLVED or not all(isinstance(k, str) and 0 < len(k) <= KEY_LIMIT and k.isprintable()
                                             for k in keys):
            raise ValueError(f"not at most {MAX_SOLVED} keys of at most {KEY_LIMIT} characters")
    except (ValueError, RecursionError) as error:
        if warn:
            warn(f"{SOLVED_FILE} is damaged ({clean_text(str(error), 80)}): the positions solved are started afresh")
        return []
    return keys


def mark_solved(key: str, warn: Callable[[str], None] | None = None) -> None:
    """Remember `key` as solved (written whole, then put in place)."""
    keys = [k for k in read_solved(warn) if k != key] + [key]
    folder = home()
    make_dirs(folder, 0o700)
    path = _solved_path()
    temporary = path.with_name(f".{SOLVED_FILE}.{os.getpid()}.tmp")
    try:
        write_new(temporary, json.dumps({"solved": keys[-MAX_SOLVED:]}).encode(), 0o600)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def positions(warn: Callable[[str], None] | None = None) -> tuple[list[Position], int]:
    """Every marked decision of a person in the saves with a stored analysis (the unsolved first,
    the latest save first), and how many saves with an analyser have none stored yet."""
    solved = set(read_solved(warn))
    found, unanalysed = [], 0
    for info in sorted(list_saves(), key=lambda info: -info.last_played):
        if info.problem:
            continue
        try:
            session = load_readonly(info.id)
        except (DicehallError, OSError, ValueError):
            continue  # the saves list says what is wrong with it
        people = {seat for seat, player in enumerate(session.players) if not player.bot}
        try:
            result = stored(session, warn=warn)
        except (DicehallError, OSError, ValueError):
            result = None
        if result is None:
            from dicehall.engine import analysis

            if analysis.has_analyser(session.game.ID) and people:
                unanalysed += 1
            continue
        digest = content_digest(session)
        for decision in result.decisions:
            if decision.mark and decision.seat in people:
                key = f"{digest}:{decision.event}"
                found.append(Position(key, clean_text(info.name, 40), session, decision, key in solved))
    found.sort(key=lambda position: position.solved)  # stable: the latest save first within each
    return found, unanalysed


__all__ = ["Position", "mark_solved", "positions", "read_solved"]
