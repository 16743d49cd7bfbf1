"""Canonical encoding of events and states: for saves, replays and state digests.

An event is encoded as [type name, {field: value}]; values are ints, bools, strings, None and
tuples of them. Decoding never runs code from the file: it looks the type up in the game's own
list of event classes and checks the field names; whether the event could really happen is checked
later, by the session, against the rules.
"""
from __future__ import annotations

import dataclasses
from hashlib import blake2b
from typing import Any

import msgpack


class DecodeError(ValueError):
    """An encoded event that is not one of the game's events."""


def _plain(value: Any) -> Any:
    """A value as msgpack-ready plain data, in a canonical order."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, [_plain(getattr(value, f.name)) for f in dataclasses.fields(value)]]
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return [[_plain(k), _plain(v)] for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, frozenset):
        return sorted((_plain(v) for v in value), key=repr)
    return value


def digest(state: Any) -> str:
    """A short hex digest of a state (BLAKE2b of its canonical msgpack encoding)."""
    return blake2b(msgpack.packb(_plain(state), use_bin_type=True), digest_size=16).hexdigest()


def encode_event(event: Any) -> list:
    fields = {f.name: _to_wire(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return [type(event).__name__, fields]


def _to_wire(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_wire(v) for v in value]
    return value


def _from_wire(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_from_wire(v) for v in value)
    return value


def decode_event(data: Any, event_types: dict[str, type]) -> Any:
    """Rebuild an event from [name, {field: value}]; raises DecodeError with a short reason."""
    if not isinstance(data, (list, tuple)) or len(data) != 2:
        raise DecodeError("not an event record")
    name, fields = data
    if not isinstance(name, str) or name not in event_types:
        raise DecodeError(f"unknown event type {str(name)[:30]!r}")
    if not isinstance(fields, dict):
        raise DecodeError(f"{name}: fields are not a map")
    cls = event_types[name]
    expected = {f.name for f in dataclasses.fields(cls)}
    if set(fields) != expected:
        raise DecodeError(f"{name}: fields do not match")
    return cls(**{k: _from_wire(v) for k, v in fields.items()})
