"""A draft record as a save holds it, read back (hostile input, like the rest of a save): the
reading half of saves/drafts.py, apart so that reading a save (saves/rebuild.py) never imports
the writing half, which appends through saves/store.py."""
from __future__ import annotations

from dicehall.engine.session import Session
from dicehall.engine.text import clean_text

DRAFT_LIMIT = 4000  # characters kept: more than an entry holds, so words typed past the limit are not lost


def clean_draft(value: object) -> str:
    """A draft as it is kept: each line cleaned of control characters (a file's text is data), capped."""
    raw = value if isinstance(value, str) else ""
    return "\n".join(clean_text(line, DRAFT_LIMIT) for line in raw[:DRAFT_LIMIT].split("\n"))[:DRAFT_LIMIT]


def is_page(page: object) -> bool:
    """Whether a file's `page` is a rewrite's page: a whole number from 1 to a game's worth of pages."""
    return isinstance(page, int) and not isinstance(page, bool) and 0 < page <= 1_000_000


def read_draft(session: Session, record: dict) -> None:
    """A draft record of a save (hostile input: a page that is no whole number is no rewrite)."""
    page = record.get("rewrite")
    text = clean_draft(record.get("text"))
    if page is None:
        session.labels.draft = text
    else:
        session.labels.rewrite = (page, text) if is_page(page) and text else (0, "")
