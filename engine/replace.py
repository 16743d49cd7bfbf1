"""replace: dataclasses.replace for the game modules' evolve functions, without its cost (a fold
makes a new state per event, so this is on the hot path of every play, undo and replay)."""
from __future__ import annotations

import dataclasses
from typing import Any

_FIELD_NAMES: dict[type, frozenset[str]] = {}


def replace(obj: Any, **changes: Any) -> Any:
    """dataclasses.replace for the game modules' evolve functions, without its cost: the new state
    is the old one's fields with `changes` (every state is a frozen dataclass with no __post_init__,
    so nothing is skipped). Unknown field names are a TypeError, as with dataclasses.replace."""
    cls = obj.__class__
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = _plain_fields(cls)
    if not names or not names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # slots, __post_init__, or a wrong name: the full check
    return replaced(obj, changes)


def replaced(obj: Any, changes: dict[str, Any]) -> Any:
    """replace(obj, **changes) unchecked, the changes given as a dict: for a game's hottest folds (a
    playout's every action), whose changes name only fields of a plain frozen dataclass (replace's
    keyword call, its copy of the changes and its check of their names were a twentieth of a playout)."""
    fields = obj.__dict__.copy()  # a copy given to the new object whole: filling its own dict cost a third more
    fields.update(changes)
    new = _object_new(obj.__class__)
    _set(new, "__dict__", fields)  # object's own: a frozen dataclass refuses its own __setattr__
    return new


_object_new = object.__new__
_set = object.__setattr__


def _plain_fields(cls: type) -> frozenset[str]:
    """The field names of a dataclass whose instances are just their fields in __dict__; empty if not."""
    if hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        return frozenset()
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        return frozenset()
    return frozenset(f.name for f in fields)
