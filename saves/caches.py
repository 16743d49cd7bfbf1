"""The caches beside the saves (the saves list's `index.dhi`, the statistics' `stats.dhi`): a map
{"format": N, "saves": {save file name: entry}}, written whole in one step and read as hostile.

Reading costs what the file's bytes allow, whatever they hold: the entries are streamed one at a
time, each within MAX_ENTRY bytes; an entry for a file that is not in the folder is skipped unread
(msgpack's skip, in C), and one for a file that is, is unpacked and checked by its owner's `sound`
before it is kept. So a crafted cache costs a pass over its bytes and, in memory, one entry at a
time plus the sound entries of the saves there are. A cache that is not one is rebuilt from the
saves, and the reader says so in one line where it has one to say (`dicehall saves`, `stats` and
their screens): nothing in it is lost (each save is read again), but a cache that was not what we
write was damaged or crafted. Entries of saves deleted since are dropped without a word."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Container

from dicehall.durable import open_regular, write_durably
from dicehall.saves.framing import refuse_ext

if TYPE_CHECKING:
    import msgpack

MAX_ENTRY = 32 * 1024  # bytes of one entry: the longest the list or the stats write (16 players' names) is below 10 KiB


def read_cache(path: Path, format_: int, max_bytes: int, max_entries: int, wanted: Container[str],
               sound: Callable[[Any], bool]) -> tuple[dict[str, Any], bool, str]:
    """The entries of the saves named in `wanted` that are `sound`, whether the file held anything
    else (an entry dropped: the caller writes the cache anew), and what was off in it, in a few
    words ("" when nothing was: missing, or only entries of saves gone since). ({}, True, words) if
    the file is too large, damaged, crafted or of another format: the caller reads the saves again."""
    import msgpack  # here and in write_cache, not above: commands that list no saves (`sim journal`) start without it

    try:
        with os.fdopen(open_regular(path), "rb", buffering=0) as handle:
            if os.fstat(handle.fileno()).st_size > max_bytes:
                return {}, True, f"is larger than {max_bytes // (1024 * 1024)} MiB"
            # streamed from the file, MAX_ENTRY at a time: never the whole file in memory
            unpacker = msgpack.Unpacker(handle, raw=False, strict_map_key=True, ext_hook=refuse_ext,
                                        max_bin_len=0, max_ext_len=0, max_str_len=4096, max_array_len=64,
                                        max_map_len=64, read_size=MAX_ENTRY, max_buffer_size=MAX_ENTRY)
            return _entries(unpacker, format_, max_bytes, max_entries, wanted, sound)
    except FileNotFoundError:
        return {}, True, ""  # not made yet
    except Exception:  # unreadable, damaged or crafted (an entry over MAX_ENTRY: BufferFull)
        return {}, True, "could not be read as one"


def _entries(unpacker: msgpack.Unpacker, format_: int, max_bytes: int, max_entries: int, wanted: Container[str],
             sound: Callable[[Any], bool]) -> tuple[dict[str, Any], bool, str]:
    # the writer's order: "format" first, so a cache of another format is never walked
    if unpacker.read_map_header() != 2 or unpacker.unpack() != "format":
        return {}, True, "is not one"
    if unpacker.unpack() != format_:
        return {}, True, "is of another format"
    if unpacker.unpack() != "saves":
        return {}, True, "is not one"
    count = unpacker.read_map_header()
    if count > max_entries:
        return {}, True, f"holds more than {max_entries:,} entries"
    kept: dict[str, Any] = {}
    unsound = 0
    for _ in range(count):
        name = unpacker.unpack()
        if type(name) is str and name in wanted:
            entry = unpacker.unpack()
            if sound(entry):
                kept[name] = entry
            else:
                unsound += 1
        else:
            unpacker.skip()
        if unpacker.tell() > max_bytes:  # a file that grew while it was read
            return {}, True, f"is larger than {max_bytes // (1024 * 1024)} MiB"
    fault = f"held {unsound:,} {'entry' if unsound == 1 else 'entries'} of the wrong shape" if unsound else ""
    return kept, len(kept) != count, fault


def write_cache(path: Path, format_: int, entries: dict[str, Any]) -> None:
    """Replace a cache file in one step (a new file renamed over it); a failure leaves it as it was:
    nobody needs a cache, they go on without it."""
    import msgpack

    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # one per process: two lists at once never share one
    try:
        # packb would start from a 256 KiB buffer: a list's memory follows its saves, not msgpack's defaults
        data = msgpack.Packer(buf_size=16 * 1024, use_bin_type=True).pack({"format": format_, "saves": entries})
        temporary.unlink(missing_ok=True)  # left by a process of this id that was killed while writing
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except (OSError, ValueError, TypeError):
        return
    try:
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


__all__ = ["MAX_ENTRY", "read_cache", "write_cache"]
