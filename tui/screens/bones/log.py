"""The War of Bones log in words: every event as the screen tells it (with no pre-measuring, a
landing without its coordinates), the newest events that fit the side panel with a run of missed
landings told in one line, and one status line for a batch of events."""
from __future__ import annotations

import re
import textwrap

from rich.text import Text

from dicehall.engine.games import bones
from dicehall.engine.games.bones import TroopLanded, troop_name
from dicehall.engine.words import counted


def event_words(session, index: int) -> str:
    """Event `index` in the on-screen words: with no_premeasure, landings without their
    coordinates (the replay keeps them), so the screen cannot be used to measure."""
    text = session.describe(index, reveal=False)
    if session.state.no_premeasure and isinstance(session.events[index], (TroopLanded, bones.LandingMissed)):
        text = re.sub(r" at \([^)]*\)", "", text).replace(" lands showing", " lands in the area showing")
    return text


def log_text(session, count: int, width: int, room: int) -> Text:
    """The newest of the first `count` events, whole, in at most `room` lines of `width` columns;
    missed landings before a landing are one line."""
    lines: list[str] = []
    index = count - 1
    while index >= 0 and len(lines) < room:
        words = event_words(session, index)
        if isinstance(session.events[index], bones.LandingMissed):
            first = index
            while first > 0 and isinstance(session.events[first - 1], bones.LandingMissed):
                first -= 1
            if index > first:
                words = f"{troop_name(session.events[index].seat, session.events[index].troop)} lands on " \
                        f"another die (... rolled again {counted(index - first + 1, 'time')})"
            index = first
        pieces = textwrap.wrap(words, width, subsequent_indent="  ")
        if lines and len(lines) + len(pieces) > room:
            break  # whole events only (the newest is cut at the bottom if it alone is too long)
        lines[:0] = pieces
        index -= 1
    return Text("Log:\n", style="bold") + Text("\n".join(lines[-room:]), style="dim")


def batch_words(session, before: int) -> str | None:
    """The events from `before` on in one line; several troops rolled into the area are counted
    (the log says where), missed landings left out. None when there is nothing new."""
    total = len(session.events)
    if total == 0 or before >= total:
        return None
    events = session.events
    landed = sum(1 for i in range(before, total) if isinstance(events[i], TroopLanded))
    words = [event_words(session, i) for i in range(before, total)
             if not isinstance(events[i], (bones.LandingMissed, TroopLanded)) or landed == 1]
    if landed > 1:
        words.insert(1 if words and before in session.turn_starts() else 0,
                     f"{counted(landed, 'troop')} rolled into the area (the log says where)")
    return "; ".join(words)
