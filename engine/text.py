"""Text that comes from players or files is data: strip control characters and cap its length."""
from __future__ import annotations

import unicodedata

NAME_LIMIT = 40


def clean_text(value: object, limit: int = NAME_LIMIT) -> str:
    """Keep printable characters only (no ESC, no bidi overrides, no newlines), trimmed and capped."""
    if not isinstance(value, str):
        value = str(value)
    kept = []
    for ch in value[: limit * 4]:
        if ch in "\t\n\r":
            kept.append(" ")
        elif not unicodedata.category(ch).startswith("C"):
            kept.append(ch)
    text = " ".join("".join(kept).split())
    return text[:limit]
