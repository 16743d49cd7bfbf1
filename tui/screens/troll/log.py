"""Under the troll's bridge: what happened, in words. The log shows the newest events that fit
(the last action's lines marked with >, a hint above them while it holds); the status line says
each step while a batch is stepped through, and sums the batch up at its end."""
from __future__ import annotations

import textwrap

from rich.text import Text

from dicehall.engine.games import troll
from dicehall.engine.games.troll import TrollState
from dicehall.engine.words import counted
from dicehall.tui.screens.troll.bridge import WIDTH
from dicehall.tui.widgets import Plain


def wrapped(line: str, width: int) -> list[str]:
    """One line of words cut at word breaks into lines of at most `width` columns; the lines after
    the first are indented, so a reader sees where each event begins."""
    return textwrap.wrap(line, max(20, width), subsequent_indent="   ", break_on_hyphens=False) or [""]


class TrollLog(Plain):
    """The newest events in words, as many as fit under the header; the last action's lines are
    marked with >. The header and long lines are wrapped and counted, so the newest line (the
    one that explains the end) is always shown."""

    def draw(self, session, count: int, state: TrollState, batch: int, hint: str | None) -> None:
        """The first `count` events as of `state`; `batch`: where the last action's events begin;
        `hint`: written whole above the header."""
        result = troll.result(state, 0)  # None until the game ends
        width = self.size.width or WIDTH
        height = self.size.height or 8
        header = ("WHAT HAPPENED (> the last action and what followed; v reviews every step)" if result is None
                  else f"GAME OVER: {troll.end_words(state)}, score {result.value}; v reviews it")
        head = wrapped(header, width)
        if hint is not None:
            head = wrapped(hint, width) + head
        room = max(1, height - len(head))
        lines: list[str] = []
        index = count - 1
        while index >= 0 and len(lines) < room:
            mark = "> " if index >= batch else "  "
            pieces = wrapped(session.describe(index, reveal=False), width - 2)
            lines[:0] = [mark + pieces[0]] + ["  " + piece for piece in pieces[1:]]
            index -= 1
        lines = lines[-room:]
        self.show(Text("\n".join(head) + "\n", style="bold") + Text("\n".join(lines)))


def step_words(session, count: int, first: int) -> str:
    """The status line while stepping: which step of the batch from `first` is shown, and what it is."""
    text = session.describe(count - 1, reveal=False)
    return f"step {count - first} of {len(session.events) - first} (a key shows all): {text}"


def batch_words(session, first: int) -> str | None:
    """The status after an action: the action alone, or how many steps followed it and the last
    (None before any event)."""
    total = len(session.events)
    if total == 0:
        return None
    last = session.describe(total - 1, reveal=False)
    if total - first <= 1:
        return last
    return f"{counted(total - first, 'step')} (the > lines above), the last: {last}"
