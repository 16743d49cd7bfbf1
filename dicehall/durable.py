"""Durable writing: every file dicehall writes (saves, torn tails kept aside, recovered and renamed
saves, replays) is written here, all of it, and fsync'd where it must be on disk before the screen
moves on.

It lives below both file layers (tui -> saves -> replays -> engine), at the package's root beside
the command line but under it: saves and replays import it, and it imports nothing of dicehall,
so it can never make a circle. It needs nothing but the operating system (the engine, pure, never
imports it: tests/test_layers.py).
"""
from __future__ import annotations

import errno
import os
import stat


def write_all(fd: int, data: bytes | bytearray) -> None:
    """Write all of `data` to `fd`: a write may take only part of it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_durably(fd: int, data: bytes | bytearray) -> None:
    """Write all of `data` to `fd` and fsync: on disk when this returns. Saves, torn tails kept
    aside, recovered saves and replays all write this way."""
    write_all(fd, data)
    os.fsync(fd)


def open_regular(path, flags: int = os.O_RDONLY) -> int:
    """A descriptor on `path` that never waits: O_NONBLOCK, so a FIFO put where a save, an index or a
    replay should be cannot hang the open (or the reads after it), and anything that is not a
    regular file is refused as an OSError whose strerror is "not a regular file" (the callers'
    `except OSError` already turns that into their one line)."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_new_file(path, data: bytes, overwrite: bool = False) -> None:
    """Write `data` as the file `path` durably: a temporary file beside it, fsync'd, then moved into
    place (replays, text records, `export --markdown`). Without `overwrite` an existing file is
    never replaced: FileExistsError. On any failure the temporary file is removed."""
    folder = os.path.dirname(os.fspath(path)) or "."
    name = os.path.basename(os.fspath(path))
    for attempt in range(100):
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free name for a temporary file", folder)
    try:
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, path)
        else:
            _place_new(tmp, os.fspath(path))
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _place_new(tmp: str, path: str) -> None:
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
            os.unlink(path)
            raise
        return
    os.unlink(tmp)
