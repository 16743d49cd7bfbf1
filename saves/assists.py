"""Recording an assist the moment it is asked (a hint, a reveal of hidden cards, the hindsight solver
on a game not over): an `{"op": "assist", "kind": KIND, "at": EVENTS}` record in the save, durably
on disk before the answer is shown, and the pair in `session.assists`. Undos need nothing here:
the save's undo records count them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from dicehall.engine.session import Session
from dicehall.replays.assists import ASSIST_KINDS
from dicehall.saves.store import close_save, open_save, read_only_path



def record_assist(session: Session | Any, kind: str) -> bool:
    """Record that `kind` was asked on `session` now; False when it is no assist (the game is over:
    a finished game is not helped by it). A save that cannot be written raises its one-line error
    (a JournalError or SaveError) with nothing recorded: the caller then does not show the answer."""
    if kind not in ASSIST_KINDS:
        raise ValueError(f"no assist is called {kind!r}")
    host = getattr(session, "record_assist", None)
    if callable(host):  # a host with a log of its own (a hall table's session) records it there
        return bool(host(kind))
    if session.outcome is not None:
        return False
    at = len(session.events)
    record = {"op": "assist", "kind": kind, "at": at}
    path = read_only_path(session)
    if session.journal is not None:
        session.journal.append(record)
    elif path is not None:  # loaded read only (the saves list's viewer): a short open of the save, which
        _append_to_save(path, record)  # refuses while another dicehall plays it
    session.assists = (*getattr(session, "assists", ()), (kind, at))  # a hall table's session keeps it in memory
    return True


def _append_to_save(path: Path, record: dict) -> None:
    """Append one record to a save that is not open here: opened (locked, checked) like any save,
    the record given its length there (another dicehall may have played on since it was read)."""
    saved = open_save(path.stem)
    try:
        saved.journal.append(dict(record, at=len(saved.events)))
    finally:
        close_save(saved)
