"""Replays (.dhr): one self-contained msgpack document a player can share with strangers.

Every file read here is untrusted: it is size-capped before reading, unpacked with msgpack limits
and no extension types, its text is cleaned, and every event is checked against the rules and the
seed while it is refolded. Failures raise ReplayError with one line saying what and where.

Format history: 1 stored players as [name, bot]; 2 stores [name, bot, style] and requires the state
digests (at least the final one). Older documents are upcast one step at a time by UPCASTS.
"""
from __future__ import annotations

import errno
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import msgpack

import engine
from engine.codec import DecodeError, decode_event, encode_event
from engine.core import player_from_record
from engine.session import LogError, Session
from engine.text import clean_text

FORMAT = 2
MAX_BYTES = 16 * 1024 * 1024
MAX_EVENTS = 200_000
DIGEST_EVERY = 100
SUFFIX = ".dhr"



def _upcast_1(document: dict) -> dict:
    """Format 1 stored a player as [name, bot]; format 2 as [name, bot, style] (no style: "").
    Replays written between the style's arrival and format 2 already hold [name, bot, style]."""
    players = document.get("players")
    if isinstance(players, (list, tuple)):
        players = [[entry[0], entry[1], ""] if isinstance(entry, (list, tuple)) and len(entry) == 2 else entry
                   for entry in players]
    return dict(document, format=2, players=players)


# Older formats are upcast one step at a time: UPCASTS[n] turns a format-n document into format n+1.
UPCASTS: dict[int, Callable[[dict], dict]] = {1: _upcast_1}


class ReplayError(ValueError):
    """A replay that cannot be used; the message is one line."""


def replay_document(session: Session) -> dict:
    outcome = session.outcome
    events = session.events
    digests = [[n, engine.digest(session.state_at(n))] for n in range(DIGEST_EVERY, len(events), DIGEST_EVERY)]
    digests.append([len(events), engine.digest(session.state)])
    return {
        "format": FORMAT,
        "dicehall": engine.VERSION,
        "game": session.game.ID,
        "rules": session.game.RULES_VERSION,
        "seed": session.seed,
        "options": session.options,
        "players": [p.record() for p in session.players],
        "name": getattr(session, "save_name", ""),
        "result": outcome.summary if outcome else None,
        "undos": session.undos,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "events": [encode_event(e) for e in events],
        "marks": [[m.start, m.player] for m in session.marks],
        "digests": digests,
    }


def write_replay(session: Session, path: str | Path, overwrite: bool = True) -> Path:
    """Write atomically: a temporary file next to the target, fsync'd, then renamed over it.

    With overwrite=False an existing target is never replaced: FileExistsError instead. On any
    failure the temporary file is removed."""
    from saves import write_durably

    path = Path(path)
    data = msgpack.packb(replay_document(session), use_bin_type=True)
    for attempt in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(path.parent))
    try:
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, path)
        else:
            _place_new(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _place_new(tmp: Path, path: Path) -> None:
    """Move `tmp` to `path` only if nothing is there (FileExistsError otherwise)."""
    try:
        os.link(tmp, path)  # atomic, and fails if the target exists
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: reserve the name, then rename over our own empty file
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.close(fd)
        try:
            os.replace(tmp, path)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return
    tmp.unlink()


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ReplayError("contains a msgpack extension type, which dicehall never writes")


def unpack(data: bytes) -> Any:
    unpacker = msgpack.Unpacker(
        raw=False, use_list=False, strict_map_key=True, max_buffer_size=MAX_BYTES,
        max_str_len=1024 * 1024, max_bin_len=0, max_array_len=MAX_EVENTS, max_map_len=64,
        max_ext_len=1024, ext_hook=_refuse_ext,
    )
    unpacker.feed(data)
    try:
        document = unpacker.unpack()
    except msgpack.OutOfData:
        raise ReplayError(f"cut off after {len(data)} bytes") from None
    except ReplayError:
        raise
    except RecursionError:
        raise ReplayError("nested too deeply to be a dicehall replay") from None
    except UnicodeDecodeError:  # a flipped byte inside a name or a label, say
        raise ReplayError("damaged: a piece of text in it is not valid UTF-8") from None
    except Exception as error:  # msgpack's own errors name the problem in a sentence
        text = str(error).splitlines()[0][:80] if str(error) else type(error).__name__
        raise ReplayError(f"not a dicehall replay ({text})") from None
    if not isinstance(document, dict) or "format" not in document or "events" not in document:
        raise ReplayError("not a dicehall replay")
    rest = len(data) - unpacker.tell()
    if rest:
        raise ReplayError(f"{rest} stray bytes after the replay, at byte {unpacker.tell()}")
    return document


def _need(document: dict, key: str, kinds: tuple, what: str) -> Any:
    value = document.get(key)
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise ReplayError(f"the header's {key} is missing or not {what}")
    return value


def read_document(path: str | Path) -> dict:
    path = Path(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise ReplayError(f"{clean_text(str(path), 60)} is not a file")
        if size > MAX_BYTES:
            raise ReplayError(f"too large for a replay ({size} bytes; the limit is {MAX_BYTES})")
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise ReplayError(f"cannot read {clean_text(str(path), 60)}: {error.strerror}") from None
    if not data:
        raise ReplayError("the file is empty")
    document = unpack(data)
    version = _need(document, "format", (int,), "a number")
    if version > FORMAT:
        raise ReplayError(f"made by a newer dicehall (format {version}); this one reads format {FORMAT}")
    while version < FORMAT:
        if version not in UPCASTS:
            raise ReplayError(f"format {version} is too old to read")
        document = UPCASTS[version](dict(document))
        version = document["format"]
    return document


def read_replay(path: str | Path) -> Session:
    """The session a replay describes, refolded and checked, positioned at its end."""
    return session_from_document(read_document(path))


def session_from_document(document: dict) -> Session:
    game_id = _need(document, "game", (str,), "a game name")
    try:
        module = engine.get_game(game_id)
    except ValueError as error:
        raise ReplayError(str(error)) from None
    rules = _need(document, "rules", (int,), "a number")
    if rules > module.RULES_VERSION:
        raise ReplayError(f"made for newer {module.TITLE} rules (version {rules})")
    seed = _need(document, "seed", (int,), "a number")
    options = _need(document, "options", (dict,), "a map")
    raw_players = _need(document, "players", (list, tuple), "a list")
    if len(raw_players) > 16:
        raise ReplayError("too many players")
    players = []
    for entry in raw_players:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise ReplayError("a player entry is not readable")
        try:
            players.append(player_from_record(entry, clean_text))
        except ValueError as error:
            raise ReplayError(str(error)) from None
    raw_events = _need(document, "events", (list, tuple), "a list")
    raw_marks = _need(document, "marks", (list, tuple), "a list")
    undos = document.get("undos", 0)
    try:
        session = Session(module, seed=seed, options=dict(options), players=players, dice=[])
    except ValueError as error:
        raise ReplayError(f"the header does not fit {module.TITLE}: {error}") from None
    events = []
    for index, raw in enumerate(raw_events):
        try:
            events.append(decode_event(raw, module.EVENTS))
        except DecodeError as error:
            raise ReplayError(f"event {index}: {error}") from None
    marks = []
    for raw in raw_marks:
        if not (isinstance(raw, (list, tuple)) and len(raw) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)):
            raise ReplayError("a turn mark is not readable")
        marks.append((raw[0], raw[1]))
    starts = [m[0] for m in marks]
    if starts != sorted(set(starts)) or (starts and (starts[0] < 0 or starts[-1] >= max(len(events), 1))):
        raise ReplayError("the turn marks are out of order")
    bounds = starts + [len(events)]
    try:
        if starts and starts[0] > 0 or not starts and events:
            session.replay_batch(events[: bounds[0]], None)
        for (start, player), end in zip(marks, bounds[1:]):
            session.replay_batch(events[start:end], player)
    except LogError as error:
        raise ReplayError(str(error)) from None
    _check_digests(session, document.get("digests"))
    session.undos = undos if isinstance(undos, int) and not isinstance(undos, bool) and undos >= 0 else 0
    session.save_name = clean_text(document.get("name", ""))  # type: ignore[attr-defined]
    session.recorded_result = clean_text(document.get("result") or "", 120)  # type: ignore[attr-defined]
    return session


def _check_digests(session: Session, digests: Any) -> int:
    """Every digest must match the refolded state; a replay with events must carry at least the final one."""
    if digests is None:
        raise ReplayError("the state digests are missing")
    if not isinstance(digests, (list, tuple)):
        raise ReplayError("the state digests are not a list")
    final = len(session.events)
    for entry in digests:
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], str)):
            raise ReplayError("a state digest is not readable")
        if not 0 <= entry[0] <= final:
            raise ReplayError(f"a state digest names event {entry[0]}, past the end")
    if final and not any(n == final for n, _ in digests):
        raise ReplayError(f"the final state digest (after event {final - 1}) is missing")
    for n, expected in digests:
        if engine.digest(session.state_at(n)) != expected:
            raise ReplayError(f"event {n}: the state digest does not match (the file was changed)")
    return len(digests)


def verify(path: str | Path) -> str:
    """Check a replay completely; returns a one-line summary or raises ReplayError."""
    document = read_document(path)
    session = session_from_document(document)
    typed = sum(1 for e in session.events if getattr(e, "typed", False))
    outcome = session.outcome
    result = outcome.summary if outcome else "unfinished"
    recorded = document.get("result")
    if recorded is not None and recorded != (outcome.summary if outcome else None):
        raise ReplayError(f"the recorded result ({clean_text(recorded, 60)}) is not what the events give ({result})")
    dice = f", {typed} typed dice outcomes (not from the seed)" if typed else ""
    players = ", ".join(p.name for p in session.players)
    return (f"ok: {session.game.TITLE}, seed {session.seed}, {players}, {len(session.events)} events, "
            f"{len(document.get('digests', ()))} digests checked, {session.undos} undos, {result}{dice}")
