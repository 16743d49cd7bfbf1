"""A save's bytes: MAGIC, then framed records (length, CRC32, msgpack payload), read as a stream.

Torn-tail detection (a cut-off last append, told apart from a damaged length), scanning one record
at a time, and upcasting older headers (UPCASTS) live here.
"""
from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from dicehall.engine.codec import check_nesting, encode_event
from dicehall.saves.errors import SaveError, SaveUnreadable, os_reason

MAGIC = b"DICEHALL-SAVE\n\x00\x00"
FORMAT = 2
SUFFIX = ".dhs"
TORN_SUFFIX = ".torn"
MAX_RECORD = 4 * 1024 * 1024
# What one record may hold when it is unpacked. The largest genuine record (a War of Bones turn) is
# under 1 KiB, 175 values, lists of 13 and maps of 6: these are far above that, and bound what a
# crafted record can cost (every value takes at least one byte, so at most MAX_UNPACKED of them).
MAX_UNPACKED = 64 * 1024
UNPACK_LIMITS = {"max_str_len": 4096, "max_bin_len": 0, "max_ext_len": 0, "max_array_len": 1024, "max_map_len": 64}
MAX_FILE = 64 * 1024 * 1024  # far above any real game; it bounds the time a hostile file can cost a list
TORN_SCAN_BUDGET = 64 * 1024 * 1024  # bytes checksummed while deciding whether a tail is torn
READ_CHUNK = 1024 * 1024  # a save is read this much at a time
FRAME = struct.Struct(">II")

def frame(record: Any) -> bytes:
    import msgpack  # here and in _unpack, not above: commands that read no save (`sim journal`) start without it

    payload = msgpack.packb(record, use_bin_type=True)
    return FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def encode_record(record: dict) -> dict:
    if "events" in record:
        record = dict(record, events=[encode_event(e) for e in record["events"]])
    return record


@dataclass
class ParsedSave:
    header: dict
    records: list[Any]
    good_end: int  # byte offset just past the last good record
    torn: bool  # the file ends inside a record (cut off while writing)
    damage: str | None  # a record whose checksum or content is wrong
    size: int


class SaveScan:
    """A save's records read from an open binary file one at a time, never the whole file at once.

    `header` is read when the scan is made (SaveError if there is none). Iterating `records` gives
    the later records; when it stops, `torn`, `damage` and `good_end` say why, as for parse_save.
    A record whose length field alone is damaged (its bytes are all there and match its checksum)
    is still given, after `damage` is set, so a recovered save keeps that move."""

    def __init__(self, handle: Any, label: str, size: int, resume: tuple[int, int] | None = None):
        """`resume` (byte offset, record number): the handle is at that record, already past the
        header (a hall game's follower reads only what is new); `header` is then None."""
        self.handle = handle
        self.label = label
        self.size = size
        self.buffer = b""
        self.pos = 0  # where the next frame starts in `buffer`
        self.offset = len(MAGIC) if resume is None else resume[0]  # where it starts in the file
        self.good_end = self.offset
        self.torn = False
        self.damage: str | None = None
        self.index = 0 if resume is None else resume[1]
        if resume is not None:
            self.header = None
            self.records = self._frames()
            return
        if handle.read(len(MAGIC)) != MAGIC:
            raise SaveError(f"{label}: not a dicehall save")
        header = next(self._frames(), None)
        if header is None:
            raise SaveError(f"{label}: the header is damaged or missing")
        if not isinstance(header, dict):
            raise SaveError(f"{label}: the header is not readable")
        self.header = header
        self.records = self._frames()

    def _have(self, count: int) -> bool:
        """Make sure `count` bytes from the next frame on are in the buffer; False at the end of the file."""
        if len(self.buffer) - self.pos >= count:
            return True
        parts = [self.buffer[self.pos :]]
        have = len(parts[0])
        while have < count:
            try:
                more = self.handle.read(max(count - have, READ_CHUNK))
            except OSError as error:
                raise SaveUnreadable(f"{self.label}: cannot read it ({os_reason(error)})") from None
            if not more:
                break
            parts.append(more)
            have += len(more)
        self.buffer = b"".join(parts)
        self.pos = 0
        return have >= count

    def _rest(self) -> bytes:
        """The rest of the file from the next frame on, when it is no longer than one record can be; else b""."""
        if self._have(FRAME.size + MAX_RECORD + 1):
            return b""
        return self.buffer[self.pos :]

    def _frames(self):
        while self.damage is None and self._have(1):
            at = f"record {self.index} at byte {self.offset}"
            if not self._have(FRAME.size):
                self.torn = True
                return
            length, crc = FRAME.unpack_from(self.buffer, self.pos)
            if length > MAX_RECORD:
                self.damage = f"{at}: impossible length {length}"
                return
            if not self._have(FRAME.size + length):
                tail = self.buffer[self.pos :]
                self.damage, whole = _past_the_end(tail, crc, at, length, self.offset)
                self.torn = self.damage is None
                if whole:
                    yield from self._unpacked(tail[FRAME.size :], at)
                return
            end = self.pos + FRAME.size + length
            payload = self.buffer[self.pos + FRAME.size : end]
            if zlib.crc32(payload) != crc:
                rest = self._rest()[FRAME.size :]
                if rest and zlib.crc32(rest) == crc:  # the last record, whole, with a wrong length
                    self.damage = (f"{at}: length {length} is wrong: the {len(rest)} bytes to the end of the file "
                                   f"are the whole record (they match its checksum)")
                    yield from self._unpacked(rest, at)
                else:
                    self.damage = f"{at}: checksum does not match"
                return
            record = self._unpack(payload, at)
            if self.damage is not None:
                return
            self.pos = end
            self.offset += FRAME.size + length
            self.good_end = self.offset
            self.index += 1
            yield record

    def _unpack(self, payload: bytes, at: str) -> Any:
        if len(payload) > MAX_UNPACKED:  # checked before unpacking: a crafted record costs nothing
            self.damage = f"{at}: {len(payload)} bytes, more than a dicehall record holds"
            return None
        import msgpack

        try:
            record = msgpack.unpackb(payload, raw=False, use_list=False, strict_map_key=True, ext_hook=refuse_ext,
                                     **UNPACK_LIMITS)
            check_nesting(record)  # a record nested 600 deep would make str() and the checks recurse until they fail
            return record
        except Exception:
            self.damage = f"{at}: not readable"
            return None

    def _unpacked(self, payload: bytes, at: str):
        """A record whose length alone is damaged: given once if it can be read at all."""
        damage = self.damage
        record = self._unpack(payload, at)
        if self.damage == damage:
            yield record


def _past_the_end(tail: bytes, crc: int, at: str, length: int, offset: int) -> tuple[str | None, bool]:
    """Why a frame whose length runs past the end of the file (`tail` is the file from the frame
    on) is damage, or None for a torn tail; and whether the rest of the file is that whole record.

    A torn write is shorter than its length says: the bytes that are there are a cut-off record.
    If they are a whole record (they match its checksum), or a whole record follows them, the
    length is what is damaged."""
    if zlib.crc32(memoryview(tail)[FRAME.size :]) == crc:
        return (f"{at}: length {length} runs past the end of the file, but the {len(tail) - FRAME.size} bytes there "
                f"are the whole record (they match its checksum)"), True
    later = _later_frame(tail, FRAME.size + 1)
    if later is None:
        return None, False
    if later < 0:
        return f"{at}: length {length} runs past the end of the file", False
    return f"{at}: length {length} runs past the end of the file, but a whole record follows at byte {offset + later}", False


def parse_save(data: bytes, label: str) -> ParsedSave:
    """Split a save held in memory into header and records, never raising for damage after the header."""
    scan = SaveScan(io.BytesIO(data), label, len(data))
    records = list(scan.records)
    assert scan.header is not None  # read when a scan is made from the start
    return ParsedSave(scan.header, records, scan.good_end, scan.torn, scan.damage, len(data))


# Where a later frame could start: a length under MAX_RECORD (so its first byte is 0 and its second at
# most 0x40), any CRC, then a payload that opens as every dicehall record does: a small map (fixmap)
# whose first key is short text (fixstr). A regular expression finds these in C, overlapping.
_FRAME_START = re.compile(rb"(?=\x00[\x00-\x40][\x00-\xff]{6}[\x81-\x8f][\xa0-\xbf])", re.DOTALL)
assert MAX_RECORD <= 0x40FFFFFF


def _later_frame(data: bytes, start: int) -> int | None:
    """The offset of a whole frame (a length of 2 to MAX_RECORD, a matching CRC32, a record's first
    bytes) at or after `start`; None if there is none, so the bytes before `start` are a torn tail;
    -1 if telling would cost more than TORN_SCAN_BUDGET bytes of checksumming (the caller then calls
    it damage: the file is kept, never cut on a guess)."""
    view = memoryview(data)
    budget = TORN_SCAN_BUDGET
    for match in _FRAME_START.finditer(data, start):
        offset = match.start()
        length, crc = FRAME.unpack_from(data, offset)
        end = offset + FRAME.size + length
        if length > MAX_RECORD or end > len(data):
            continue
        budget -= length
        if budget < 0:
            return -1
        if zlib.crc32(view[offset + FRAME.size : end]) == crc:
            return offset
    return None


def refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("msgpack extension types are not used by dicehall")


def _upcast_1(header: dict) -> dict:
    """Format 1 stored a player as [name, bot], read with bool(bot); format 2 as [name, bot, style].
    (Saves written between the style's arrival and format 2 already hold [name, bot, style].)"""
    players = header.get("players")
    if isinstance(players, (list, tuple)):
        players = [[entry[0], bool(entry[1]), ""] if isinstance(entry, (list, tuple)) and len(entry) == 2 else entry
                   for entry in players]
    return dict(header, format=2, players=players)


# Older save headers are upcast one step at a time: UPCASTS[n] turns a format-n header into format n+1.
UPCASTS: dict[int, Any] = {1: _upcast_1}


def upcast_header(header: dict, label: str) -> dict:
    """The header in the current format, or SaveError naming a format this dicehall cannot read."""
    version = header.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{label}: the header has no format version")
    if version > FORMAT:
        raise SaveError(f"{label}: made by a newer dicehall (save format {version}); this one reads format {FORMAT}")
    while version < FORMAT:
        if version not in UPCASTS:
            raise SaveError(f"{label}: save format {version} is too old to read")
        header = UPCASTS[version](dict(header))
        version = header["format"]
    return header
