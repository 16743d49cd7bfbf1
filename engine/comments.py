"""Players' comments on a game's events: text of their own, kept by the host beside the game (a save's
`comment` records, a replay's `comments`), never game events: undo, the fold and the digests never
see them. Position 0 is the whole game; N is event N, numbered from 1 as the viewer numbers them."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from dicehall.engine.text import clean_text

COMMENT_LIMIT = 2000  # characters of one comment, newlines included
COMMENT_LINES = 20  # lines of one comment: a comment is a note, not a document


def _lines(raw: str) -> list[str]:
    """The comment's lines cleaned of control characters, blank lines at either end dropped; read
    up to four times the limits, so a pasted book costs no more than that."""
    lines = [clean_text(line, COMMENT_LIMIT * 4) for line in raw[: COMMENT_LIMIT * 4].split("\n")[: COMMENT_LINES * 4]]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def clean_comment(value: object) -> str:
    """A comment as it is kept: each line cleaned of control characters (a file's text is data),
    blank lines at either end dropped, at most COMMENT_LINES lines and COMMENT_LIMIT characters
    (a file's longer comment is cut; a player's is refused first: comment_overflow)."""
    lines = _lines(value if isinstance(value, str) else "")
    return "\n".join(lines[:COMMENT_LINES])[:COMMENT_LIMIT].rstrip()


def comment_overflow(text: str) -> str:
    """Why `text` would be cut if kept as a comment, in one line; "" when it fits whole."""
    lines = _lines(text)
    if len(lines) > COMMENT_LINES:
        return f"a comment holds at most {COMMENT_LINES} lines: this one has {len(lines)}"
    length = len("\n".join(lines)) if len(text) <= COMMENT_LIMIT * 4 else len(text)  # past the lines read: all of it
    if length > COMMENT_LIMIT:
        return f"a comment holds at most {COMMENT_LIMIT:,} characters (a line break counts as one): this one has {length:,}"
    return ""


def with_comment(comments: Mapping[int, str], event: int, text: str) -> Mapping[int, str]:
    """A new mapping with `event`'s comment set to `text` (cleaned), or removed when it is empty.
    The host replaces the whole mapping, never mutates the one it has (the default is shared)."""
    changed = dict(comments)
    text = clean_comment(text)
    if text:
        changed[event] = text
    else:
        changed.pop(event, None)
    return MappingProxyType(dict(sorted(changed.items())))


def comment_of(record: Any, events: int) -> tuple[int, str]:
    """The (event, text) of a stored comment ([event, text], or a save record's fields), checked:
    ValueError with the reason for anything else. `events`: how many events there are, the
    highest position a comment may name."""
    event, text = record
    if type(event) is not int or not isinstance(text, str):
        raise ValueError("a comment is not [event number, text]")
    if not 0 <= event <= events:
        raise ValueError(f"a comment names event {event}, past the end ({events} events)")
    return event, clean_comment(text)


def cut_note(events: list[int]) -> str | None:
    """One line for a file that held comments longer than a comment may be (they are cut to fit as
    they are read, never silently): which events; None when there were none."""
    if not events:
        return None
    where = [("the whole game" if event == 0 else f"event {event}") for event in sorted(set(events))]
    named = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
    return (f"a comment longer than {COMMENT_LIMIT:,} characters or {COMMENT_LINES} lines was cut to fit "
            f"({named})")


def with_notice(notice: str | None, more: str | None) -> str | None:
    """Two lines for the player on opening a file, as one."""
    return "; ".join(line for line in (notice, more) if line) or None


def one_line(text: str) -> str:
    """A comment on one line (its lines joined by " / "), for a prompt or a list."""
    return " / ".join(text.split("\n"))
