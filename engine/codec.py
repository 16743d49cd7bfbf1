"""Canonical encoding of events and states: for saves, replays and state digests.

An event is encoded as [type name, {field: value}]; values are ints, bools, strings, None and
tuples of them. Decoding never runs code from the file: it looks the type up in the game's own
list of event classes, checks the field names, and checks every value against the type its event
class declares (so a new game's events are checked without code of their own); whether the event
could really happen is checked later, by the session, against the rules.
"""
from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from dicehall.engine.errors import DicehallError

# No genuine save record or replay nests deeper than about 7 levels; a hostile one could nest
# ~1,000 (msgpack's own limit), deep enough to make any recursive code (repr, decoders) fail.
MAX_NESTING = 32
MAX_FIELD_TEXT = 100  # no event's text field comes near it (card codes, directions, die kinds)
# ... but a player's words do: such an event class sets TEXT_LIMIT (a class attribute) to its own cap


class DecodeError(DicehallError, ValueError):
    """An encoded event that is not one of the game's events."""


# A state's field added after records were written is marked `field(default=..., metadata=ADDED)`:
# at its default it is left out of the digest, so every record written before it still verifies.
ADDED = {"digest": "when-set"}


def _plain(value: Any) -> Any:
    """A value as msgpack-ready plain data, in a canonical order."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, [_plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                                       if f.metadata.get("digest") != "when-set" or getattr(value, f.name) != f.default]]
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return [[_plain(k), _plain(v)] for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, frozenset):
        return sorted((_plain(v) for v in value), key=repr)
    return value


def digest(state: Any) -> str:
    """A short hex digest of a state (BLAKE2b of its canonical msgpack encoding)."""
    from hashlib import blake2b  # these two here, not above: a command that never digests (`sim journal`)
    import msgpack  # starts without them (hashlib loads OpenSSL)

    return blake2b(msgpack.packb(_plain(state), use_bin_type=True), digest_size=16).hexdigest()


def check_nesting(value: Any, limit: int = MAX_NESTING) -> None:
    """DecodeError if lists and maps in `value` (as read from a file) nest deeper than `limit`.
    Walks one level at a time, never recursing, so any depth msgpack accepts is measured safely.
    (Map keys are never lists: both readers unpack with strict_map_key.)"""
    level = [value] if isinstance(value, (list, tuple, dict)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise DecodeError(f"lists nested more than {limit} levels deep")
        inside: list = []
        for item in level:
            inside.extend(item.values() if isinstance(item, dict) else item)
        level = [child for child in inside if isinstance(child, (list, tuple, dict))]


def encode_event(event: Any) -> list:
    fields = {f.name: _to_wire(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return [type(event).__name__, fields]


def _to_wire(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_wire(v) for v in value]
    return value


class _WrongType(Exception):
    pass


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    """The declared type of each field of an event class, resolved from its annotations."""
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        _check_supported(hints[field.name], f"{cls.__name__}.{field.name}")
    return {field.name: hints[field.name] for field in dataclasses.fields(cls)}


def _check_supported(hint: Any, where: str) -> None:
    """A TypeError at first use for an annotation the decoder cannot check, so a new game's
    event with such a field fails its tests instead of being read unchecked."""
    if hint in (int, bool, str, type(None)):
        return
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) or origin is tuple:
        for arg in args:
            if arg is not Ellipsis:
                _check_supported(arg, where)
        return
    raise TypeError(f"{where}: the event decoder cannot check values of type {hint!r}")


def _typed(value: Any, hint: Any, limit: int = MAX_FIELD_TEXT) -> Any:
    """`value` as `hint` declares it (lists become tuples); _WrongType if it is not of that type.
    A bool is never an int here: a die face True is not 1. `limit`: the longest text a field may hold."""
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is bool or hint is type(None):
        if isinstance(value, hint):
            return value
    elif hint is str:
        if isinstance(value, str) and len(value) <= limit:
            return value
    elif typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if isinstance(value, (list, tuple)):
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(_typed(v, args[0], limit) for v in value)
            if len(value) == len(args):
                return tuple(_typed(v, arg, limit) for v, arg in zip(value, args))
    else:  # a union such as `int | None`
        for arg in typing.get_args(hint):
            try:
                return _typed(value, arg, limit)
            except _WrongType:
                continue
    raise _WrongType


def _type_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) and not typing.get_args(hint) else repr(hint).replace("NoneType", "None")


def _shown(value: Any) -> str:
    """A short, safe rendering of a name read from a file, for an error message."""
    text = value if isinstance(value, str) else type(value).__name__
    return repr("".join(ch if ch.isprintable() else "?" for ch in text[:30]))


def decode_event(data: Any, event_types: dict[str, type]) -> Any:
    """Rebuild an event from [name, {field: value}]; raises DecodeError with a short reason
    naming the event type and the field that is wrong."""
    if not isinstance(data, (list, tuple)) or len(data) != 2:
        raise DecodeError("not an event record")
    name, fields = data
    if not isinstance(name, str) or name not in event_types:
        raise DecodeError(f"unknown event type {_shown(name)}")
    if not isinstance(fields, dict):
        raise DecodeError(f"{name}: fields are not a map")
    cls = event_types[name]
    declared = field_types(cls)
    if set(fields) != set(declared):
        raise DecodeError(f"{name}: fields do not match")
    values = {}
    # an event whose text is a player's words (a journal entry) says how long it may be
    limit = getattr(cls, "TEXT_LIMIT", MAX_FIELD_TEXT)
    for field, hint in declared.items():
        try:
            values[field] = _typed(fields[field], hint, limit)
        except _WrongType:
            raise DecodeError(f"{name}: field {field} is not {_type_name(hint)}") from None
    return cls(**values)
