"""Players' comments kept with a save: a `comment` record appended beside the game's records
(`{"op": "comment", "event": N, "text": str}`; the latest per event wins, empty text removes it),
never a game event, so undo and the game's replay are untouched."""
from __future__ import annotations

from dicehall.engine.comments import clean_comment, comment_overflow, with_comment
from dicehall.engine.session import Session
from dicehall.saves.errors import SaveError
from dicehall.saves.store import SaveJournal, ViewedSave


def comment_record(event: int, text: str) -> dict:
    return {"op": "comment", "event": event, "text": clean_comment(text)}


def write_comment(session: Session, event: int, text: str) -> bool:
    """Set (or, with empty text, remove) the comment on `event` (0: the whole game) and keep it with
    the save: True once it is on disk; False when the session has no save (a replay file, a hall
    game), so it is kept in memory only. A save that cannot take it raises SaveError (one line) and
    nothing changes."""
    if not 0 <= event <= len(session.events):
        raise SaveError(f"there is no event {event} to comment on")
    if comment_overflow(text):  # refused whole, never cut without a word
        raise SaveError(comment_overflow(text))
    record = comment_record(event, text)
    journal = session.journal  # a save played here, or one viewed (load_readonly); a hall's log never
    if isinstance(journal, (SaveJournal, ViewedSave)):
        journal.append(record)  # a full disk, a save in use: SaveError, the file as it was, nothing changed
    else:
        session.labels.comments = with_comment(session.labels.comments, event, record["text"])
        return False
    session.labels.comments = with_comment(session.labels.comments, event, record["text"])
    return True
