"""A writer's draft kept with a save: a `{"op": "draft", "text": str}` record appended as the player
types (the screen writes it a moment after the last key, and at once on leaving or a hang-up); the
latest wins and empty text clears it. Never a game event, so undo and the game's replay are
untouched, and `continue` puts it back in the entry box. A hall game's draft cannot go into the
hall's shared log: it is kept in a file of the player's own instead (`session.draft_file`, a
saves.hall.drafts.HallDraft), written whole each time. A rewrite of an earlier entry being made is
kept the same way, apart: `{"op": "draft", "rewrite": PAGE, "text": str}` (one at a time; PAGE 0
with empty text: none)."""
from __future__ import annotations

from typing import Protocol

from dicehall.engine.core import HostLabels

from dicehall.saves.draft_record import clean_draft
from dicehall.saves.store import SaveJournal


class DraftFile(Protocol):
    """A file a draft is kept in apart from the game's log (saves.hall.drafts.HallDraft)."""

    def write(self, draft: str, rewrite: tuple[int, str]) -> None: ...


class DraftHolder(Protocol):
    """What a draft is kept with: the engine's Session (in its save's journal; its `draft_file` is
    None) or a hall table's session (in its `draft_file`); `draft` and `rewrite` are its labels'."""

    @property
    def journal(self) -> object: ...
    @property
    def labels(self) -> HostLabels: ...
    @property
    def draft_file(self) -> DraftFile | None: ...


def draft_of(session: DraftHolder) -> str:
    return session.labels.draft


def rewrite_of(session: DraftHolder) -> tuple[int, str]:
    """The rewrite being made when the save was left: (its page, its words); (0, "") if none."""
    return session.labels.rewrite


def write_rewrite(session: DraftHolder, page: int, text: str) -> bool:
    """Keep the rewrite of entry `page` being made (page 0 or empty text: none), as write_draft does."""
    kept = (page, clean_draft(text)) if page and text else (0, "")
    return _keep(session, "rewrite", kept, {"op": "draft", "rewrite": kept[0], "text": kept[1]}, rewrite_of(session),
                 (draft_of(session), kept))


def write_draft(session: DraftHolder, text: str) -> bool:
    """Keep `text` as the session's draft: True once it is on disk (nothing is written when it is the
    draft already); False when the session has no save of its own to play (kept in memory only). A
    save that cannot take it raises its one-line error and the draft in memory is unchanged."""
    text = clean_draft(text)
    return _keep(session, "draft", text, {"op": "draft", "text": text}, draft_of(session), (text, rewrite_of(session)))


def _keep(session: DraftHolder, name: str, value: object, record: dict, before: object,
          words: tuple[str, tuple[int, str]]) -> bool:
    """Keep `value` as the labels' `name`: in the save's journal as `record`, or in the draft file as
    `words` (the draft and the rewrite after the change: the file holds both)."""
    apart = session.draft_file  # a hall game's: a file of the player's own (saves/hall/drafts.py)
    on_disk = apart is not None or isinstance(session.journal, SaveJournal)
    if value != before:  # a failure raises before the session changes
        if apart is not None:
            apart.write(*words)
        elif isinstance(session.journal, SaveJournal):  # on disk, a save's own
            session.journal.append(record)
        setattr(session.labels, name, value)
    return on_disk
