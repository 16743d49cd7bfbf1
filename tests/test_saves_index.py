"""The saves list's index (saves/index.dhi): a cache of each save's summary, used only while the file
is exactly as it was when the summary was made, and read as hostile input like any other file."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import msgpack
import pytest

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games.dicetower import PullBlock


@pytest.fixture(autouse=True)
def settled(monkeypatch):
    """Files written by a test are milliseconds old: let the index trust them at once (the racy window
    has its own test)."""
    monkeypatch.setattr(saves.index, "RACY_NS", 0)


def tower(name, pulls, seed=7):
    session = saves.new_save("dicetower", name=name, seed=seed)
    for _ in range(pulls):
        if session.outcome is None:
            session.play(PullBlock())
    saves.close_save(session)
    return session


def varied_saves(home: Path) -> dict[str, Path]:
    """Saves of every kind the list shows: playing, finished, several players, a branch, damaged,
    torn, not a save at all, and made by a newer dicehall."""
    paths = {}
    playing = tower("Night 1", 3)
    paths["playing"] = playing.journal.path
    paths["finished"] = tower("Night 2", 200, seed=3).journal.path
    wager = saves.new_save("wager", seed=4, players=[Player("Ada"), Player("Bot", True, "bold")])
    saves.close_save(wager)
    paths["wager"] = wager.journal.path
    branch = saves.branch_save(saves.load_readonly(playing.labels.save_id), 3)
    saves.close_save(branch)
    paths["branch"] = branch.journal.path
    damaged = tower("Night 3", 4).journal.path
    data = bytearray(damaged.read_bytes())
    data[-3] ^= 0x40
    damaged.write_bytes(bytes(data))
    paths["damaged"] = damaged
    torn = tower("Night 4", 4).journal.path
    with open(torn, "ab") as handle:
        handle.write(saves.frame({"op": "undo"})[:5])
    paths["torn"] = torn
    folder = home / "saves"
    (folder / "not-a-save.dhs").write_bytes(b"hello")
    paths["not a save"] = folder / "not-a-save.dhs"
    newer = folder / "newer.dhs"
    newer.write_bytes(saves.MAGIC + saves.frame({"format": 99, "game": "dicetower"}))
    paths["newer"] = newer
    return paths


def rebuilt_list() -> list:
    """The list as it is without any index: every save rebuilt from its records."""
    index = saves.saves_dir() / saves.INDEX_NAME
    kept = index.read_bytes() if index.exists() else None
    index.unlink(missing_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(saves.index, "_write_index", lambda folder, entries: None)
        infos = saves.list_saves()
    if kept is not None:
        index.write_bytes(kept)
    return infos


def rebuilds(monkeypatch) -> list[str]:
    """The ids of the saves rebuilt from their records from now on (the others came from the index)."""
    built = []
    real = saves.index._summary

    def counting(path, mtime):
        built.append(path.stem)
        return real(path, mtime)

    monkeypatch.setattr(saves.index, "_summary", counting)
    return built


def info_of(path: Path):
    return next(info for info in saves.list_saves() if info.path == path)


def keep_times(path: Path):
    """Put the file's access and modification times back after a change (ctime cannot be put back)."""
    stat = path.stat()
    return lambda: os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_the_list_is_the_same_with_and_without_the_index_and_a_valid_index_rebuilds_nothing(home, monkeypatch):
    paths = varied_saves(home)
    truth = rebuilt_list()
    assert len(truth) == len(paths) and {info.path for info in truth} == set(paths.values())
    assert {info.id: bool(info.problem) for info in truth}[paths["damaged"].stem]
    first = saves.list_saves()  # builds the index
    assert (home / "saves" / saves.INDEX_NAME).exists()
    built = rebuilds(monkeypatch)
    second = saves.list_saves()  # from the index
    assert first == truth and second == truth
    assert built == []  # no save was read record by record: the cost no longer follows the games' lengths
    assert oct((home / "saves" / saves.INDEX_NAME).stat().st_mode & 0o777) == "0o600"
    assert [path.name for path in (home / "saves").iterdir() if ".tmp" in path.name] == []


def test_an_append_makes_the_save_be_read_again(monkeypatch):
    path = tower("Night 1", 2).journal.path
    assert info_of(path).progress.endswith("2 pulls")
    session = saves.open_save(path.stem)
    restore = keep_times(path)
    session.play(PullBlock())
    saves.close_save(session)
    restore()  # same modification time: the size and the change time still tell
    built = rebuilds(monkeypatch)
    assert info_of(path).progress.endswith("3 pulls") and built == [path.stem]


def test_a_save_played_by_another_process_is_read_again(home):
    path = tower("Night 1", 2).journal.path
    assert info_of(path).progress.endswith("2 pulls")
    child = textwrap.dedent(f"""
        from dicehall import saves
        from dicehall.engine.games.dicetower import PullBlock
        session = saves.open_save({path.stem!r})
        session.play(PullBlock())
        session.play(PullBlock(True))
    """)
    subprocess.run([sys.executable, "-c", child], check=True, env=dict(os.environ, DICEHALL_HOME=str(home)),
                   cwd=Path(__file__).resolve().parents[1])
    assert info_of(path).progress.endswith("4 pulls")


def test_a_rewrite_of_the_same_size_makes_the_save_be_read_again(monkeypatch):
    path = tower("Night 1", 3).journal.path
    size = path.stat().st_size
    assert info_of(path).name == "Night 1"
    restore = keep_times(path)
    saves.rename_save(path.stem, "Night 9")  # the same length: a new file of the same size, renamed over it
    restore()
    assert path.stat().st_size == size
    built = rebuilds(monkeypatch)
    assert info_of(path).name == "Night 9" and built == [path.stem]


def test_damage_makes_the_save_be_read_again(monkeypatch):
    path = tower("Night 1", 3).journal.path
    assert info_of(path).problem is None
    restore = keep_times(path)
    with open(path, "r+b") as handle:  # one bit flipped in place: same file, same size, same mtime
        handle.seek(path.stat().st_size - 2)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 1]))
    restore()
    built = rebuilds(monkeypatch)
    problem = info_of(path).problem
    assert problem and "record 3" in problem and built == [path.stem]


def test_a_deleted_save_leaves_the_index():
    keep, gone = tower("Keep", 1), tower("Gone", 1)
    saves.list_saves()
    saves.delete_save(gone.labels.save_id)
    assert [info.name for info in saves.list_saves()] == ["Keep"]
    index = msgpack.unpackb((saves.saves_dir() / saves.INDEX_NAME).read_bytes())
    assert list(index["saves"]) == [keep.journal.path.name]


def crafted_entries(path: Path) -> list:
    """Index entries for `path` that the list must not believe: each lies about the save while its
    fingerprint fits the file, or has the fingerprint wrong, or holds what the list never writes."""
    saves.list_saves()
    index = msgpack.unpackb((path.parent / saves.INDEX_NAME).read_bytes())
    real = index["saves"][path.name]
    key = real["file"]
    lie = dict(real, progress="countdown 1, 99 pulls", finished=True)
    return [
        dict(lie, file=key[:5] + [key[5] ^ 1, key[6]]),  # the start of the file is not what it was
        dict(lie, file=key[:6] + [key[6] ^ 1]),  # nor its end
        dict(lie, file=[key[0] + 1, *key[1:]]),  # nor its size
        dict(real, name="\x1b[31mred\x1b[0m"),  # control characters the list strips
        dict(real, name="x" * 500),
        dict(real, finished="yes"),
        dict(real, game="chess"),
        dict(real, problem=["not", "text"]),
        dict(real, progress=None),
        dict(real, file="everything"),
        "not an entry",
        {},
    ]


def test_a_crafted_index_entry_is_never_believed(monkeypatch):
    path = tower("Night 1", 3).journal.path
    truth = rebuilt_list()
    for entry in crafted_entries(path):
        index = {"format": saves.INDEX_FORMAT, "saves": {path.name: entry}}
        (path.parent / saves.INDEX_NAME).write_bytes(msgpack.packb(index))
        assert saves.list_saves() == truth, entry
        assert saves.list_saves() == truth  # and the index written over it is the true one


@pytest.mark.parametrize("content", [
    b"",
    b"not msgpack at all \xff\xfe",
    msgpack.packb([1, 2, 3]),
    msgpack.packb({"format": 99, "saves": {}}),  # a newer dicehall's index: rebuilt, not read
    msgpack.packb({"format": 1, "saves": [1, 2]}),
    msgpack.packb({"format": 1, "saves": {1: {}}}),
    msgpack.packb({"format": 1, "saves": {"x.dhs": {"file": b"\x00" * 10}}}),
    b"\x91" * 100_000 + b"\xc0",  # nested 100,000 deep
    msgpack.packb({"format": 1, "saves": msgpack.ExtType(5, b"x")}),
    b"\xdd\xff\xff\xff\xff",  # an array that says it holds four billion items
])
def test_a_damaged_or_crafted_index_is_ignored_and_rebuilt(content):
    path = tower("Night 1", 3).journal.path
    truth = rebuilt_list()
    index = path.parent / saves.INDEX_NAME
    index.write_bytes(content)
    assert saves.list_saves() == truth
    assert msgpack.unpackb(index.read_bytes())["saves"][path.name]["progress"] == truth[0].progress


def test_an_index_too_large_to_be_one_is_not_read(monkeypatch):
    path = tower("Night 1", 3).journal.path
    truth = rebuilt_list()
    index = path.parent / saves.INDEX_NAME
    monkeypatch.setattr(saves.index, "MAX_INDEX", 1000)
    index.write_bytes(msgpack.packb({"format": 1, "saves": {"pad": "x" * 2000}}))
    built = rebuilds(monkeypatch)
    assert saves.list_saves() == truth and built == [path.stem]


def test_an_index_that_cannot_be_read_or_written_changes_nothing(home):
    path = tower("Night 1", 3).journal.path
    truth = rebuilt_list()
    (home / "saves" / saves.INDEX_NAME).mkdir()  # a folder where the index belongs: neither read nor replaced
    assert saves.list_saves() == truth
    assert saves.list_saves() == truth
    assert {p.name for p in (home / "saves").iterdir()} == {path.name, saves.INDEX_NAME}


def test_a_save_changed_within_the_clock_s_last_tick_is_not_cached(monkeypatch):
    monkeypatch.setattr(saves.index, "RACY_NS", 10 * 1_000_000_000)  # the file is younger than this
    path = tower("Night 1", 3).journal.path
    saves.list_saves()
    built = rebuilds(monkeypatch)
    saves.list_saves()
    assert built == [path.stem]  # a change in the same tick would not show in its times: read it again
    index = path.parent / saves.INDEX_NAME
    assert not index.exists() or path.name not in msgpack.unpackb(index.read_bytes())["saves"]


def test_a_save_that_cannot_be_read_now_is_not_cached(monkeypatch):
    import errno

    path = tower("Night 1", 3).journal.path

    def failing_disk(*args, **kwargs):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    working = saves.open_regular
    for room in (saves.files, saves.index):  # how the modules open a save to read: it fails
        monkeypatch.setattr(room, "open_regular", failing_disk)
    assert info_of(path).problem == f"{path.stem}: cannot read it (Input/output error)"
    for room in (saves.files, saves.index):  # the disk is fine again: a fault of the moment, not of the file
        monkeypatch.setattr(room, "open_regular", working)
    assert info_of(path).problem is None


class FrozenTimes:
    """The os module as the saves module sees it, on a file system whose stat of the saves never
    changes (timestamps too coarse to tell two writes apart): only the bytes can tell then."""

    def __init__(self, frozen):
        self.frozen = frozen

    def __getattr__(self, name):
        return getattr(os, name)

    def stat(self, path, *args, **kwargs):
        return self.frozen

    def fstat(self, fd):
        return self.frozen


@pytest.mark.parametrize("where", ["header", "last record"])
def test_a_change_the_times_cannot_show_is_told_by_the_bytes(where, monkeypatch):
    session = saves.new_save("dicetower", name="Night 1", seed=7, options={"start": 1000})
    for _ in range(60):
        session.play(PullBlock())
    saves.close_save(session)
    path = session.journal.path
    monkeypatch.setattr(saves.index, "FINGERPRINT_BYTES", 1024)  # the header and the last record: each in one CRC only
    assert path.stat().st_size > 3 * 1024
    for room in (saves.files, saves.index):
        monkeypatch.setattr(room, "os", FrozenTimes(path.stat()))
    saves.list_saves()
    data = bytearray(path.read_bytes())
    at = data.index(b"Night 1") + 6 if where == "header" else len(data) - 2
    data[at] ^= 1  # "Night 0" in the header, or a bit of the last record: same size, same times
    path.write_bytes(bytes(data))
    built = rebuilds(monkeypatch)
    info = info_of(path)
    assert built == [path.stem]
    assert "header" in info.problem if where == "header" else "record 60" in info.problem


def test_a_file_name_that_is_not_utf8_is_listed_and_the_others_are_still_cached(home, monkeypatch):
    keep = tower("Keep", 2).journal.path
    odd = tower("Odd", 2).journal.path
    folder = os.fsencode(home / "saves")
    os.rename(os.fsencode(odd), folder + b"/odd-\xff.dhs")  # bytes no UTF-8 name has
    truth = rebuilt_list()
    assert saves.list_saves() == truth and len(truth) == 2
    built = rebuilds(monkeypatch)
    assert saves.list_saves() == truth
    assert built == ["odd-\udcff"]  # only the save whose name the index cannot hold is read again
    assert list(msgpack.unpackb((home / "saves" / saves.INDEX_NAME).read_bytes())["saves"]) == [keep.name]
