"""One writer's messages file in a hall game: games/ID.chat.UID (UID: the writer's Unix user) or, on
a box, games/ID.chat.UID.PLAYER (the name the admin's key line gives); its limits, a message as a
reader shows it, and the reading of a record's claims. The reading and writing of a
game's messages is HallChat's (saves/hall/chat.py)."""
from __future__ import annotations

import math
import os
import pwd
import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import msgpack

from dicehall.engine.text import NAME_LIMIT, clean_text

CHAT_INFIX = ".chat."  # games/ID.chat.UID[.PLAYER]
WRITER_NAME = re.compile(r"([0-9]{1,10})(?:\.([a-z][a-z0-9_-]{0,23}))?")  # what follows ID.chat.
TEXT_LIMIT = 200  # characters in one message
RATE = 5  # messages a writer may send ...
RATE_WINDOW = 10.0  # ... in this many seconds
MAX_CHAT = 1024 * 1024  # one writer's file: past this no more are sent, and a larger file is refused
MAX_FRAME = 4096  # one record's bytes: far above TEXT_LIMIT characters in UTF-8 with its fields
READ_LIMIT = 64 * 1024  # bytes read from one file in one look: a flood is read a slice at a time
KEEP = 200  # messages kept for the messages list
MAX_WRITERS = 64  # files read per game (this user's first): bounds what a crowd of files costs
RELIST_EVERY = 2.0  # seconds: the games folder is listed again when it changed, or this long after
RECORD_FRAME = struct.Struct(">II")
HEADER = {"chat": 1}
WATCHERS_OPEN = "open"


@dataclass(frozen=True)
class ChatMessage:
    name: str  # who wrote it, as its file tells (never the line's claim, but off a box for our own lines)
    seat: int | None  # the seat its writer holds in the game; None: a watcher's
    text: str
    at: float = 0.0  # the time the line claims: orders the lines of one look, nothing else
    forged: bool = False  # it claimed a name or a seat that is not its writer's
    mine: bool = False  # this terminal's writer's ("sent:" said it)
    live: bool = True  # arrived while this reader looked (False: said before it came)

    def words(self) -> str:
        """"Ann: hi", "Eve (watching): hi" for a watcher's line, "eve (watching) (forged): hi"."""
        who = self.name if self.seat is not None else f"{self.name} (watching)"
        return f"{who}{' (forged)' if self.forged else ''}: {self.text}"


@lru_cache(maxsize=256)
def account_name(uid: int) -> str:
    """A Unix user's login name, or "uid N" where the box has none for it."""
    try:
        return clean_text(pwd.getpwuid(uid).pw_name, NAME_LIMIT) or f"uid {uid}"
    except (KeyError, OverflowError):
        return f"uid {uid}"


def writer_file(game_id: str, uid: int, player: str | None) -> str:
    return f"{game_id}{CHAT_INFIX}{uid}" + (f".{player}" if player else "")


def unpack_record(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False, strict_map_key=True, max_str_len=MAX_FRAME, max_bin_len=0,
                           max_array_len=8, max_map_len=8, max_ext_len=0)


def claims_of(record: Any) -> tuple[float, str, int | None, str] | None:
    """A record's (at, name, seat, text), cleaned, or None if it is not a message."""
    if not isinstance(record, dict):
        return None
    at, name, seat, text = record.get("at"), record.get("name"), record.get("seat"), record.get("text")
    if not isinstance(at, (int, float)) or isinstance(at, bool) or not isinstance(name, str) or not isinstance(text, str):
        return None
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 100):
        return None
    name, text = clean_text(name, NAME_LIMIT), clean_text(text, TEXT_LIMIT)
    if not name or not text:
        return None
    return float(at), name, seat, text


def claimed_order(message: ChatMessage) -> tuple[bool, float]:
    """The lines of one look by the times they claim; NaN and infinities last."""
    finite = math.isfinite(message.at)
    return not finite, message.at if finite else 0.0


class WriterFile:
    """One writer's file as this reader reads it."""

    def __init__(self, name: str, uid: int, player: str | None, history: bool):
        self.name = name
        self.uid = uid
        self.player = player
        self.history = history  # found at this reader's first look: what it holds then is the history
        self.history_end = 0  # bytes before this were in the file when it was first opened
        self.fd = -1
        self.offset = 0  # 0: the magic is not read yet
        self.headed = False
        self.size = 0
        self.count = 0  # records read (for "damaged after N messages")
        self.problem = ""

    @property
    def behind(self) -> bool:
        return not self.problem and self.fd >= 0 and self.offset < self.size

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
