"""Recording an assist the moment it is asked (a hint, a reveal of hidden cards, the hindsight solver
on a game not over): an `{"op": "assist", "kind": KIND, "at": EVENTS}` record in the save, durably
on disk before the answer is shown, and the pair in `session.labels.assists`. Undos need nothing here:
the save's undo records count them."""
from __future__ import annotations

from typing import Any

from dicehall.engine.assists import ASSIST_KINDS
from dicehall.engine.session import Session


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
    if session.journal is not None:  # a save played, or viewed (ViewedSave: refused while another plays it)
        session.journal.append(record)
    session.labels.assists = (*session.labels.assists, (kind, at))  # the host's label, as the save reads it back
    return True
