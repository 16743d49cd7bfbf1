"""The event log's parts that are not the session itself: the journal a session hands each batch to
(and its error), the marks saying where each decision starts, a log the rules could not have produced
(LogError), and LogView, the read-only view of the events and marks that copies nothing."""
from __future__ import annotations

from array import array
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from itertools import islice
from typing import Protocol, Sequence

from dicehall.engine.core import DicehallError


class Journal(Protocol):
    def append(self, record: dict) -> None: ...


class JournalError(DicehallError):
    """The journal could not record a batch (a full disk): it was not committed, so the session is
    exactly as it was before the call. The message is one line for the player; `reason` is the
    short cause ("disk full")."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason or message


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a decision starts in the event log, and whose it was."""

    start: int
    player: int


class LogError(DicehallError, ValueError):
    """An event log that the rules could not have produced; `index` is the first bad event (0-based).
    The message numbers events from 1, as the replay viewer does: "event 70" is where `g 70` goes."""

    def __init__(self, index: int, reason: str):
        super().__init__(f"event {index + 1}: {reason}")
        self.index = index
        self.reason = reason


class LogView(SequenceABC):
    """The log (its events or its marks) as it stood when the view was taken, without copying it:
    len and indexing cost the same at any length, and a slice copies that slice only. Later plays
    and undos do not change a view: the session appends after it, and copies the log before it
    cuts back a log that a view still shows (see Session._truncate)."""

    __slots__ = ("_items", "_length", "_item")
    __hash__ = None  # type: ignore[assignment]  # compared by content, like the tuple it stands for

    def __init__(self, items: Sequence | MarkPairs, length: int, item=None):
        self._items = items
        self._length = length
        self._item = item  # builds an item from what is stored, where that is not the item itself

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            got = self._items[slice(*index.indices(self._length))]
            return tuple(got) if self._item is None else tuple(map(self._item, got))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("log index out of range")
        got = self._items[index]
        return got if self._item is None else self._item(got)

    def __iter__(self):
        items = islice(self._items, self._length)
        return items if self._item is None else map(self._item, items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LogView, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"LogView({tuple(self)!r})"


class MarkPairs:
    """The marks as stored (two arrays), indexable like a list of (start, player) pairs."""

    __slots__ = ("starts", "players")

    def __init__(self, starts: array, players: array | list[int]):
        self.starts = starts
        self.players = players

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(zip(self.starts[index], self.players[index]))
        return self.starts[index], self.players[index]

    def __iter__(self):
        return zip(self.starts, self.players)


def _mark(pair: tuple[int, int]) -> Mark:
    return Mark(*pair)


def mark_view(starts: array, players: array | list[int]) -> LogView:
    """The marks kept as two arrays (where each decision starts, whose it is), seen as Marks."""
    return LogView(MarkPairs(starts, players), len(starts), _mark)
