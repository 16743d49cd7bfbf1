"""Assists a player asked for (a hint, a reveal of hidden cards, the hindsight solver on a game not
over), as saves and replays carry them: never game events, so the fold and every digest of the game
ignore them. Here: their kinds, checking them as read from a file, and their words for `verify`.
Pure, like engine/comments.py, so that saves and replays both read it from below them."""
from __future__ import annotations

from typing import Any

from dicehall.engine.words import counted

ASSIST_KINDS = ("hint", "reveal", "hindsight")
MAX_ASSISTS = 100_000  # far above any game; it bounds what a crafted file's list can cost


def checked_assist(kind: Any, at: Any, events: int) -> tuple[str, int]:
    """(kind, at) as a file gives them, checked: a known kind, and a whole number of events from 0 to
    `events` (a save's log as long as it was when asked; a replay's longest log); ValueError otherwise."""
    if not isinstance(kind, str) or kind not in ASSIST_KINDS:
        raise ValueError("an assist of an unknown kind")
    if type(at) is not int or not 0 <= at <= events:
        raise ValueError("an assist at no position of the game")
    return kind, at


def checked_assists(raw: Any, events: int) -> tuple[tuple[str, int], ...]:
    """A replay's `assists` field ([[kind, at], ...], in the order asked); ValueError if it is not one."""
    if not isinstance(raw, (list, tuple)) or len(raw) > MAX_ASSISTS:
        raise ValueError("the assists are not a list")
    assists = []
    for entry in raw:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise ValueError("an assist is not readable")
        assists.append(checked_assist(entry[0], entry[1], events))
    return tuple(assists)


def assist_counts(assists: Any) -> dict[str, int]:
    """How many of each kind, in ASSIST_KINDS' order (kinds never asked are left out)."""
    counts = {kind: 0 for kind in ASSIST_KINDS}
    for kind, _ in assists:
        counts[kind] += 1
    return {kind: n for kind, n in counts.items() if n}


def assists_words(assists: Any, undos: int) -> str:
    """"2 hints, 1 reveal, 1 undo"; only the undos when no assist was recorded (a file older than
    format 4 could not record one, so "no assist" would claim more than it knows)."""
    parts = [counted(n, kind) for kind, n in assist_counts(assists).items()]
    return ", ".join([*parts, counted(undos, "undo")])
