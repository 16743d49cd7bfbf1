"""Replays (.dhr): one self-contained msgpack document a player can share with strangers.

Every file read here is untrusted: it is size-capped before reading, unpacked with msgpack limits
and no extension types, its text is cleaned, and every event is checked against the rules and the
seed while it is refolded. Failures raise ReplayError with one line saying what and where.

Format history: 1 stored players as [name, bot]; 2 stores [name, bot, style] and requires the state
digests (at least the final one); 3 adds the file digest, a BLAKE2b over every other field, header
and events alike, so no field can be damaged unseen (the rules and the state digests cannot see a
changed name or undo count, nor a typed die changed to another typed die); 4 adds the players'
`comments` ([event, text]) and the `assists` ([kind, at] for each hint, reveal or hindsight asked
while the game ran; optional), both covered by the file digest, never game events; 5 adds the
`handovers` ([event, seat, player, why] for each seat a bot took over from a person: `players` are
those the game began with, as its state names them) and `abandoned` (why a hall game was ended
before its end, or ""). Older documents are
upcast one step at a time by UPCASTS; an upcast format 2 document says its header was not checked.

What a file can make dicehall do is bounded by what the game itself takes: nesting is capped, every
event field is type-checked as it is decoded, events are decoded one turn at a time as they are
refolded (so junk after a bad event is never decoded), and turn marks and state digests must name
positions in strictly increasing order, at most one each. The events are kept as the file's bytes
(_RawEvents), each unpacked and checked as it is read and again when refolded: a file's texts cost
their bytes, not fifty bytes of objects for each three.
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from hashlib import blake2b
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Sequence

import msgpack

from dicehall import engine
from dicehall.durable import open_regular, write_new_file
from dicehall.engine.assists import MAX_ASSISTS, assists_words, checked_assists
from dicehall.engine.codec import MAX_NESTING, DecodeError, check_nesting, decode_event, encode_event
from dicehall.engine.comments import comment_of, comment_overflow, cut_note, with_notice
from dicehall.engine.core import Handover, player_from_record
from dicehall.engine.errors import DicehallError
from dicehall.engine.session import LogError, Session
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.replays.handovers import MAX_ABANDONED, abandoned_result, hand_over, handover_lines

FORMAT = 5
MAX_BYTES = 16 * 1024 * 1024
MAX_EVENTS = 200_000
# Lists and maps one replay may unpack into: a real event is 2 or 3 of them, a turn mark 1, so this is
# far above any game; it bounds what a crafted file of empty maps (a byte each) costs in memory.
MAX_CONTAINERS = 8 * MAX_EVENTS
# Values in lists and maps besides the events, as many as a game of MAX_EVENTS may hold: a turn mark and a
# comment (2 each) an event, MAX_ASSISTS assists (2 each), and room for the header, the digests and the rest
MAX_KEPT = 4 * MAX_EVENTS + 2 * MAX_ASSISTS + 50_000
MAX_EVENT_BYTES = 16 * 1024  # one event as the file holds it
DIGEST_EVERY = 100
SUFFIX = ".dhr"
FILE_DIGEST = "file_digest"
DIGEST_FROM = 3  # the first format written with a file digest: one without it is damaged or forged, not old
# What a replay says that the events cannot prove; `verify` names them. The file digest shows
# they were not damaged, but anyone can write a replay with a digest that fits what they wrote.
CLAIMS = "the name, the players' names, the assists and the undo count, when it was made and by which dicehall"
COMMENTS_CLAIM = "the comments are the players' own words, not covered by the seed"


def _upcast_1(document: dict) -> dict:
    """Format 1 stored a player as [name, bot]; format 2 as [name, bot, style] (no style: "").
    Replays written between the style's arrival and format 2 already hold [name, bot, style]."""
    players = document.get("players")
    if isinstance(players, (list, tuple)):
        players = [[entry[0], entry[1], ""] if isinstance(entry, (list, tuple)) and len(entry) == 2 else entry
                   for entry in players]
    return dict(document, format=2, players=players)


def _upcast_2(document: dict) -> dict:
    """Format 2 had no file digest: the upcast document carries None in its place, and `verify`
    says that its header was not checked."""
    return dict(document, format=3, **{FILE_DIGEST: None})


def _upcast_3(document: dict) -> dict:
    """Format 3 had no comments and no assists: the upcast document has none."""
    return dict(document, format=4, comments=[])


def _upcast_4(document: dict) -> dict:
    """Format 4 had no handovers: every seat was played by one player throughout."""
    return dict(document, format=5, handovers=[], abandoned="")


# Older formats are upcast one step at a time: UPCASTS[n] turns a format-n document into format n+1.
UPCASTS: dict[int, Callable[[dict], dict]] = {1: _upcast_1, 2: _upcast_2, 3: _upcast_3, 4: _upcast_4}


def file_digest(document: dict) -> str:
    """BLAKE2b of the msgpack encoding of every field but the file digest itself, in the order
    written. A document read back packs to the bytes it was read from (msgpack keeps map order), so
    this costs one pass at C speed, less than reading the file did."""
    rest = {key: value for key, value in document.items() if key != FILE_DIGEST}
    if not isinstance(rest.get("events"), _RawEvents):
        return blake2b(msgpack.packb(rest, use_bin_type=True), digest_size=16).hexdigest()
    digest = blake2b(_map_header(len(rest)), digest_size=16)  # a map packed is its header, then each key and value
    for key, value in rest.items():
        digest.update(msgpack.packb(key, use_bin_type=True))
        digest.update(value.packed() if isinstance(value, _RawEvents) else msgpack.packb(value, use_bin_type=True))
    return digest.hexdigest()


def _map_header(size: int) -> bytes:
    return bytes([0x80 | size]) if size < 16 else b"\xde" + size.to_bytes(2, "big")


def seal(document: dict) -> dict:
    """The document with its file digest set last, as it is written."""
    return dict(document, **{FILE_DIGEST: file_digest(document)})


class ReplayError(DicehallError, ValueError):
    """A replay that cannot be used; the message is one line."""


def replay_document(session: Session) -> dict:
    outcome = session.outcome
    events = session.events
    digests = [[n, engine.digest(session.state_at(n))] for n in range(DIGEST_EVERY, len(events), DIGEST_EVERY)]
    digests.append([len(events), engine.digest(session.state)])
    return seal({
        "format": FORMAT,
        "dicehall": engine.VERSION,
        "game": session.game.ID,
        "rules": session.game.RULES_VERSION,
        "seed": session.seed,
        "options": session.options,
        "players": [p.record() for p in session.labels.first_players(session.players)],  # what the state names; handovers below
        "name": session.labels.save_name,
        "result": outcome.summary if outcome else None,
        "undos": session.undos,
        "assists": [[kind, at] for kind, at in session.labels.assists],
        "handovers": [[h.at, h.seat, session.players[h.seat].record(), h.why] for h in session.labels.handovers],
        "abandoned": session.labels.abandoned,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "events": [encode_event(e) for e in events],
        "marks": [[m.start, m.player] for m in session.marks],
        "comments": [[n, text] for n, text in sorted(session.labels.comments.items()) if n <= len(events)],
        "digests": digests,
    })


def write_replay(session: Session, path: str | Path, overwrite: bool = True) -> Path:
    """Write atomically: a temporary file next to the target, fsync'd, then renamed over it.

    With overwrite=False an existing target is never replaced: FileExistsError instead. On any
    failure the temporary file is removed."""
    path = Path(path)
    write_new_file(path, replay_bytes(session), overwrite)
    return path


def replay_bytes(session: Session) -> bytes:
    """The replay file's bytes (what write_replay writes; `export ID -o -` prints them)."""
    return msgpack.packb(replay_document(session), use_bin_type=True)


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ReplayError("contains a msgpack extension type, which dicehall never writes")


class _Containers:
    """Counts the lists and maps as msgpack makes them (its list and object hook), refusing the file
    once there are more than MAX_CONTAINERS: the per-list limits alone would let 16 MiB of empty maps
    cost over a gigabyte. Outside the events it counts what they hold too (MAX_KEPT): 16 MiB of
    two-letter texts in lists cost 500 MB before."""

    def __init__(self) -> None:
        self.left = MAX_CONTAINERS
        self.kept = MAX_KEPT
        self.keeping = True  # False while an event is checked: it is dropped at once (_RawEvents)

    def __call__(self, value: Any) -> Any:
        self.left -= 1
        if self.left < 0:
            raise ReplayError(f"more than {MAX_CONTAINERS} lists and maps: not a dicehall replay")
        if self.keeping:
            self.kept -= 2 * len(value) if isinstance(value, dict) else len(value)
            if self.kept < 0:
                raise ReplayError(f"more than {MAX_KEPT} values outside its events: not a dicehall replay")
        return value


class _RawEvents(Sequence):
    """A replay's events as the file holds them, each unpacked again when the refold reads it: what
    a file holds in its events costs its bytes, not the objects they unpack to (16 MiB of two-letter
    texts in events cost 500 MB unpacked at once). Each was unpacked and checked once as the file was
    read (_events), so reading one again cannot fail."""

    def __init__(self, data: memoryview, starts: list[int], end: int, header: int):
        self.data, self.starts, self.end, self.header = data, starts, end, header
        self.decoder = _event_decoder(data[starts[0]:end] if starts else b"")  # the refold reads them in order
        self.next = 0

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        if index == self.next:
            self.next += 1
            return self.decoder.unpack()
        end = self.starts[index + 1] if index + 1 < len(self.starts) else self.end
        return msgpack.unpackb(self.data[self.starts[index]:end], **EVENT_UNPACKING)

    def packed(self) -> bytes:
        """The events as the file holds them, their list's header and all (what packb makes of them)."""
        return bytes(self.data[self.header:self.end])


# One event's unpacking: no game's event holds a long list or text (a journal entry, 4,000 bytes, is the longest)
EVENT_UNPACKING: dict[str, Any] = dict(raw=False, use_list=False, strict_map_key=True, max_str_len=MAX_EVENT_BYTES,
                                       max_bin_len=0, max_array_len=1024, max_map_len=64, max_ext_len=1024,
                                       ext_hook=_refuse_ext)
_ARRAY_HEADERS = frozenset(range(0x90, 0xA0)) | {0xDC, 0xDD}
_MAP_HEADERS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}


def _event_decoder(data: Any, hook: Any = None) -> Any:
    decoder = msgpack.Unpacker(**EVENT_UNPACKING, max_buffer_size=MAX_BYTES, list_hook=hook, object_hook=hook)
    decoder.feed(data)
    return decoder


def _events(unpacker: Any, data: memoryview, counted: _Containers) -> _RawEvents:
    """The events list, read one event at a time: each measured (skipped unmade, so one event of a
    whole file's texts is refused by its size), then unpacked, checked for nesting and dropped."""
    header = unpacker.tell()
    count = unpacker.read_array_header()
    if count > MAX_EVENTS:
        raise ReplayError(f"not a dicehall replay ({count} exceeds max_array_len({MAX_EVENTS}))")
    starts: list[int] = []
    decoder = _event_decoder(data[unpacker.tell():], counted)
    counted.keeping = False
    for number in range(1, count + 1):
        start = unpacker.tell()
        unpacker.skip()
        size = unpacker.tell() - start
        if size > MAX_EVENT_BYTES:
            raise ReplayError(f"event {number} is {size} bytes: no game's event is over {MAX_EVENT_BYTES}")
        event = decoder.unpack()
        if size > MAX_NESTING - 2:  # (a level takes a byte at least: a shorter event cannot nest so deep)
            try:
                check_nesting(event, MAX_NESTING - 2)  # (in the document: a map, its events' list, the event)
            except DecodeError:
                raise ReplayError(f"not a dicehall replay (lists nested more than {MAX_NESTING} levels deep)") from None
        starts.append(start)
    counted.keeping = True
    return _RawEvents(data, starts, unpacker.tell(), header)


def _document(unpacker: Any, data: memoryview, counted: _Containers) -> Any:
    """The file's document: a map read entry by entry, its events kept as the file holds them
    (_RawEvents); anything but a map unpacked whole, to be refused by what it is."""
    if not data or data[0] not in _MAP_HEADERS:
        return unpacker.unpack()
    size = unpacker.read_map_header()
    if size > 64:
        raise ReplayError(f"not a dicehall replay ({size} exceeds max_map_len(64))")
    document: dict[str, Any] = {}
    for _ in range(size):
        key = unpacker.unpack()
        if not isinstance(key, str):
            raise ReplayError("not a dicehall replay (a key of its header is not text)")
        at = unpacker.tell()
        if key == "events" and at < len(data) and data[at] in _ARRAY_HEADERS:
            document[key] = _events(unpacker, data, counted)
        else:
            document[key] = unpacker.unpack()
    counted(document)
    return document


def unpack(data: bytes) -> Any:
    counted_containers = _Containers()
    unpacker = msgpack.Unpacker(
        raw=False, use_list=False, strict_map_key=True, max_buffer_size=MAX_BYTES,
        max_str_len=1024 * 1024, max_bin_len=0, max_array_len=MAX_EVENTS, max_map_len=64,
        max_ext_len=1024, ext_hook=_refuse_ext, list_hook=counted_containers, object_hook=counted_containers,
    )
    unpacker.feed(data)
    try:
        document = _document(unpacker, memoryview(data), counted_containers)
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
    try:
        check_nesting(document)  # before anything reads it: str() or a decoder would recurse through it
    except DecodeError as error:
        raise ReplayError(f"not a dicehall replay ({error})") from None
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


def read_capped(path: str | Path, limit: int, what: str) -> bytes:
    """A shared file's bytes, size-capped before reading (a replay, a text record); ReplayError with
    one line for a folder, a FIFO (refused, never waited on), a file too large or unreadable."""
    path = Path(path)
    try:
        if path.is_dir():
            raise ReplayError(f"{clean_text(str(path), 60)} is not a file")
        with os.fdopen(open_regular(path), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise ReplayError(f"too large for a {what} ({size} bytes; the limit is {limit})")
            data = handle.read(limit + 1)
    except OSError as error:
        raise ReplayError(f"cannot read {clean_text(str(path), 60)}: {error.strerror}") from None
    if len(data) > limit:  # it grew while being read
        raise ReplayError(f"too large for a {what} (the limit is {limit} bytes)")
    return data


def read_document(path: str | Path) -> dict:
    data = read_capped(path, MAX_BYTES, "replay")
    if not data:
        raise ReplayError("the file is empty")
    document = unpack(data)
    version = _need(document, "format", (int,), "a number")
    if version > FORMAT:
        raise ReplayError(f"made by a newer dicehall (format {version}); this one reads format {FORMAT}")
    if version >= DIGEST_FROM or FILE_DIGEST in document:  # a format flipped down still carries its digest
        recorded = document.get(FILE_DIGEST)
        if not isinstance(recorded, str):
            raise ReplayError("the file digest is missing")
        if recorded != file_digest(document):
            raise ReplayError("damaged or changed: it does not match its file digest")
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
    if rules < 1:  # rules versions count from 1
        raise ReplayError("the header's rules version is not readable")
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
    undos = _need(document, "undos", (int,), "a number")
    if not 0 <= undos < 1 << 40:  # as a text record's Undos: a count a game could have, not 19 digits shown
        raise ReplayError("the header's undos is missing or not a number")
    for key in ("name", "created", "dicehall"):
        _need(document, key, (str,), "text")
    if document.get("result") is not None:
        _need(document, "result", (str,), "text")
    raw_events = _need(document, "events", (list, tuple, _RawEvents), "a list")
    raw_marks = _need(document, "marks", (list, tuple), "a list")
    try:
        session = Session(module, seed=seed, options=dict(options), players=players, dice=[])
    except ValueError as error:
        raise ReplayError(f"the header does not fit {module.TITLE}: {error}") from None
    starts = _positions(raw_marks, "turn mark", len(raw_events) - 1)
    bounds = [0] + starts + [len(raw_events)]
    if not all(type(raw[1]) is int for raw in raw_marks):
        raise ReplayError("a turn mark is not readable")
    seats = [None] + [raw[1] for raw in raw_marks]  # the events before the first mark are chance only
    try:
        for start, end, seat in zip(bounds, bounds[1:], seats):
            if start < end:
                session.replay_batch(_DecodedAsRead(raw_events, start, end, module), seat)
    except LogError as error:
        raise ReplayError(str(error)) from None
    _check_digests(session, document.get("digests"))
    _hand_over(session, document.get("handovers"), document.get("abandoned"))
    session.labels.comments = _comments(document.get("comments"), len(session.events))
    session.labels.notice = with_notice(session.labels.notice, _cut_comments(document.get("comments")))
    session.undos = undos
    try:
        # an assist asked before an undo may name a position past the log's end: bounded by the longest log
        session.labels.assists = checked_assists(document.get("assists", ()), MAX_EVENTS)
    except ValueError as error:
        raise ReplayError(str(error)) from None
    session.labels.save_name = clean_text(document["name"])
    session.labels.recorded_result = clean_text(document.get("result") or "", 120)
    session.labels.header_claimed = True  # CLAIMS: the viewer marks the undo count
    return session


class _DecodedAsRead(Sequence):
    """A turn's events, each decoded when the refold first reads it: a file cannot buy the decoding
    of events past the first one the rules refuse."""

    def __init__(self, raw_events: Any, start: int, end: int, module: Any):
        self.raw_events, self.start, self.end, self.module = raw_events, start, end, module
        self.decoded: dict[int, Any] = {}

    def __len__(self) -> int:
        return self.end - self.start

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index not in self.decoded:
            at = self.start + index
            try:
                self.decoded[index] = decode_event(self.raw_events[at], self.module.EVENTS)
            except DecodeError as error:
                raise ReplayError(f"event {at + 1}: {error}") from None  # numbered from 1, as the viewer does
        return self.decoded[index]


def _positions(entries: Any, what: str, last: int) -> list[int]:
    """The positions [position, value] entries name, checked to be whole numbers from 0 to `last`
    in strictly increasing order, so a file can hold at most one per position: it cannot make
    dicehall do more work than the game's own length."""
    positions: list[int] = []
    for entry in entries:
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and type(entry[0]) is int):
            raise ReplayError(f"a {what} is not readable")
        position = entry[0]
        if not 0 <= position <= last:
            raise ReplayError(f"a {what} names position {position}, past the end")
        if positions and position <= positions[-1]:
            raise ReplayError(f"the {what}s are out of order (position {position} after {positions[-1]})")
        positions.append(position)
    return positions


def _comments(entries: Any, events: int) -> Any:
    """The players' comments: [event, text] in order of event, at most one each (0 the whole game,
    up to the last event); none when the field is absent."""
    if entries is None:
        return MappingProxyType({})
    if not isinstance(entries, (list, tuple)):
        raise ReplayError("the comments are not a list")
    _positions(entries, "comment", events)
    try:
        pairs = [comment_of(entry, events) for entry in entries]
    except ValueError as error:
        raise ReplayError(str(error)) from None
    return MappingProxyType({n: text for n, text in pairs if text})


def _cut_comments(entries: Any) -> str | None:
    """The line saying which of the (checked) comments were over a comment's limits, cut to fit."""
    return cut_note([entry[0] for entry in entries or () if isinstance(entry[1], str) and comment_overflow(entry[1])])


def _hand_over(session: Session, entries: Any, abandoned: Any) -> None:
    """The seats that changed hands ([event, seat, player, why] each, in order), applied to the
    refolded session: its players become those at the end; and why it was abandoned, if it was."""
    if not isinstance(entries, (list, tuple)) or len(entries) > len(session.players):
        raise ReplayError("the handovers are not a list of at most one per seat")
    players = list(session.players)
    done: list[Handover] = []
    for entry in entries:
        if not isinstance(entry, (list, tuple)) or len(entry) != 4 or type(entry[0]) is not int:
            raise ReplayError("a handover is not readable")
        if not 0 <= entry[0] <= len(session.events):
            raise ReplayError(f"a handover after event {entry[0]}, past the end")
        try:
            hand_over(session.game, session.state_at(entry[0]), players, done, entry[0], entry[1],
                      player_from_record(entry[2], clean_text), entry[3])
        except ValueError as error:
            raise ReplayError(str(error)) from None
    session.players, session.labels.handovers = tuple(players), tuple(done)
    if not isinstance(abandoned, str):
        raise ReplayError("the header's abandoned is not text")
    if abandoned and session.outcome is not None:
        raise ReplayError("a game that reached its end says it was abandoned")
    session.labels.abandoned = clean_text(abandoned, MAX_ABANDONED)


def _check_digests(session: Session, digests: Any) -> int:
    """Every digest must match the refolded state; a replay with events must carry at least the
    final one. A digest at position n is of the state after event n, the viewer's position n."""
    if digests is None:
        raise ReplayError("the state digests are missing")
    if not isinstance(digests, (list, tuple)):
        raise ReplayError("the state digests are not a list")
    final = len(session.events)
    positions = _positions(digests, "state digest", final)
    if not all(isinstance(expected, str) for _, expected in digests):
        raise ReplayError("a state digest is not readable")
    if final and (not positions or positions[-1] != final):
        raise ReplayError(f"the final state digest (after event {final}) is missing")
    for n, expected in digests:
        if engine.digest(session.state_at(n)) != expected:
            raise ReplayError(f"after event {n}: the state digest does not match (the file was changed)")
    return len(digests)


def verify(path: str | Path) -> str:
    """Check a replay completely; returns a summary line and a line saying how far its header can
    be trusted, or raises ReplayError."""
    document = read_document(path)
    session = session_from_document(document)
    typed = sum(1 for e in session.events if getattr(e, "typed", False))
    outcome = session.outcome
    result = outcome.summary if outcome else abandoned_result(session)
    recorded = document.get("result")
    if recorded is not None and recorded != (outcome.summary if outcome else None):
        raise ReplayError(f"the recorded result ({clean_text(recorded, 60)}) is not what the events give ({result})")
    dice = f", {counted(typed, 'typed dice outcome')} (not from the seed)" if typed else ""
    if session.labels.comments:
        dice += f", {counted(len(session.labels.comments), 'comment')} ({COMMENTS_CLAIM})"
    players = ", ".join(p.name for p in session.players)
    header = ("header intact (the file matches its digest)" if document[FILE_DIGEST] is not None
              else "header not checked (a format 2 replay has no file digest)")
    return (f"ok: {session.game.TITLE}, seed {session.seed}, {players}, {counted(len(session.events), 'event')}, "
            f"{counted(len(document['digests']), 'digest')} checked, {assists_words(session.labels.assists, session.undos)}, {result}{dice}"
            f"{handover_lines(session)}\n"
            f"{header}; only claimed, no replay can prove them: {CLAIMS}{winnable_line(session)}")


def winnable_line(session: Session) -> str:
    """verify's line on a winnable deal (its seed is one the search chose, and the solver proves
    it); "" for any other game."""
    if not session.options.get("winnable"):
        return ""
    from dicehall.engine.analysis.winnable import claim_line

    try:
        return "\n" + claim_line(session)
    except DicehallError as error:
        raise ReplayError(str(error)) from None
