"""Text that comes from players or files is data: strip control characters and cap its length."""
from __future__ import annotations

import reprlib
import unicodedata

NAME_LIMIT = 40
_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3


def clean_text(value: object, limit: int = NAME_LIMIT) -> str:
    """Keep printable characters only (no ESC, no bidi overrides, no newlines), trimmed and capped."""
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        value = _SHORT.repr(value)  # str() of a list nested 1,000 deep (from a file) would recurse until it failed
    elif not isinstance(value, str):
        value = str(value)
    if value.isprintable():  # no control, format or unassigned character (category C*), no \t\n\r: all kept
        return " ".join(value[: limit * 4].split())[:limit]
    kept = []
    for ch in value[: limit * 4]:
        if ch in "\t\n\r":
            kept.append(" ")
        elif not unicodedata.category(ch).startswith("C"):
            kept.append(ch)
    text = " ".join("".join(kept).split())
    return text[:limit]
