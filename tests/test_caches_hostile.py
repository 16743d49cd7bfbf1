"""The caches beside the saves (index.dhi for the list, stats.dhi for the counts) crafted to cost
(issue #31): megabytes of empty arrays or maps within the readers' caps cost a pass over their
bytes, never their unpacked size. Memory is measured with tracemalloc; the work by the entries
unpacked (only those of saves in the folder are); the time is tests/perf/bench.py's `caches` row."""
from __future__ import annotations

import tracemalloc

import msgpack
import pytest

from dicehall import saves
from dicehall.saves import caches
from dicehall.saves import results as results_module
from dicehall.saves.stats import collect
from dicehall.engine.games.dicetower import PullBlock

MIB = 1024 * 1024


@pytest.fixture(autouse=True)
def settled(monkeypatch):
    monkeypatch.setattr(saves.index, "RACY_NS", 0)  # files milliseconds old may be cached at once
    monkeypatch.setattr(results_module, "RACY_NS", 0)


def a_save():
    session = saves.new_save("dicetower", name="Night", seed=7)
    for _ in range(3):
        session.play(PullBlock())
    saves.close_save(session)
    return session.journal.path


def peak_of(work):
    """What `work` returns and the peak of the memory it took."""
    tracemalloc.start()
    try:
        return work(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def crafted(size: int, name_of, entry: bytes, count: list | None = None) -> bytes:
    """A cache of format 1 whose saves map holds entries `entry` under the names `name_of(i)`, about
    `size` bytes (their number appended to `count`)."""
    count = count if count is not None else []
    count.append(size // (len(entry) + len(msgpack.packb(name_of(0)))))
    count = count[-1]
    head = b"\x82" + msgpack.packb("format") + msgpack.packb(1) + msgpack.packb("saves") + b"\xdf" + count.to_bytes(4, "big")
    return head + b"".join(msgpack.packb(name_of(n)) + entry for n in range(count))


EMPTY_ARRAYS = b"\xdc\x00\x40" + b"\x90" * 64  # an array of 64 empty arrays: 67 bytes, 65 lists unpacked
EMPTY_MAPS = b"\x8f" + b"".join(msgpack.packb(f"{n:x}") + b"\x80" for n in range(15))  # a map of 15 empty maps
CRAFTED = {  # (the cache's name, what lists it, an entry): counted, listed
    "stats": (results_module.RESULTS_NAME, lambda: collect().as_dict(), EMPTY_ARRAYS),
    "index": (saves.INDEX_NAME, saves.list_saves, EMPTY_MAPS),
}


@pytest.mark.parametrize("cache", sorted(CRAFTED))
@pytest.mark.parametrize("names", ["other saves", "this save, again and again"])
def test_a_crafted_cache_costs_a_pass_over_its_bytes_not_its_unpacked_size(cache, names, home, monkeypatch):
    path = a_save()
    name, listed, entry = CRAFTED[cache]
    truth, rebuilt = peak_of(listed)  # without a cache: every save read, its cost the baseline
    file = path.parent / name
    count: list = []
    file.write_bytes(crafted(4 * MIB, (lambda n: f"{n:07d}.dhs") if names == "other saves" else (lambda n: path.name),
                             entry, count))
    size = file.stat().st_size
    unpacked = []
    sound_of = {"stats": (results_module, "_sound"), "index": (saves.index, "_sound_entry")}[cache]
    real_sound = getattr(*sound_of)
    monkeypatch.setattr(*sound_of, lambda e: unpacked.append(1) or real_sound(e))
    listing, peak = peak_of(listed)
    assert listing == truth
    assert peak < rebuilt + size // 8, f"{peak / MIB:.1f} MiB for a {size / MIB:.1f} MiB cache"  # was ~60 times its bytes
    assert len(unpacked) == (0 if names == "other saves" else count[0])  # only entries of a save that is there
    again = msgpack.unpackb(file.read_bytes())  # written anew: this save's one sound entry
    assert list(again["saves"]) == [path.name]


def test_an_entry_larger_than_any_the_cache_writes_is_a_cache_rebuilt(home):
    path = a_save()
    truth = saves.list_saves()
    file = path.parent / saves.INDEX_NAME
    file.write_bytes(msgpack.packb({"format": saves.INDEX_FORMAT,
                                    "saves": {path.name: ["x" * 1000] * 40}}))  # 40 KB > MAX_ENTRY
    assert saves.list_saves() == truth
    assert msgpack.unpackb(file.read_bytes())["saves"][path.name]["name"] == "Night"


def test_a_cache_read_back_is_the_one_written(home, tmp_path):
    entries = {"a.dhs": {"x": 1}, "b.dhs": {"x": 2}}
    caches.write_cache(tmp_path / "c.dhi", 3, entries)
    read = caches.read_cache
    assert read(tmp_path / "c.dhi", 3, MIB, 10, {"a.dhs"}, lambda e: True) == ({"a.dhs": {"x": 1}}, True, "")  # b: gone since
    assert read(tmp_path / "c.dhi", 3, MIB, 10, set(entries), lambda e: True) == (entries, False, "")
    assert read(tmp_path / "c.dhi", 4, MIB, 10, set(entries), lambda e: True) == ({}, True, "is of another format")
    assert read(tmp_path / "c.dhi", 3, MIB, 1, set(entries), lambda e: True) == ({}, True, "holds more than 1 entries")
    assert read(tmp_path / "c.dhi", 3, MIB, 10, set(entries), lambda e: e["x"] == 1) == (
        {"a.dhs": {"x": 1}}, True, "held 1 entry of the wrong shape")
    assert read(tmp_path / "none.dhi", 3, MIB, 10, set(entries), lambda e: True) == ({}, True, "")  # not made yet


@pytest.mark.parametrize("cache", sorted(CRAFTED))
def test_a_damaged_cache_is_said_in_one_line_by_the_command_and_the_screen_and_rebuilt(cache, home, capsys):
    """Anything off in a cache (#31): dropped, rebuilt from the saves and said in one line, by
    `dicehall saves` / `dicehall stats` on stderr and by the saves / statistics screen's status line;
    a cache that is only behind (a save deleted since) is rebuilt without a word."""
    from dicehall.cli import main
    from dicehall.tui.app import DicehallApp
    from tests.apphelpers import drive, screen_text, until

    path = a_save()
    name, listed, _ = CRAFTED[cache]
    command, key = {"stats": ("stats", "s"), "index": ("saves", "c")}[cache]
    whose = "the statistics'" if cache == "stats" else "the saves list's"
    truth = listed()
    file = path.parent / name
    file.write_bytes(b"\x00 not a cache")
    assert main([command]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said == [f"dicehall: {whose} index ({name}) could not be "
                    "read as one: rebuilt from the saves"]
    assert listed() == truth and msgpack.unpackb(file.read_bytes())["saves"].keys() == {path.name}
    assert main([command]) == 0 and capsys.readouterr().err == ""  # sound again
    other = saves.new_save("dicetower", name="Gone", seed=8)
    saves.close_save(other)
    listed()
    other.journal.path.unlink()
    assert main([command]) == 0 and capsys.readouterr().err == ""  # only behind: not a word

    file.write_bytes(msgpack.packb({"format": 99, "saves": {}}))

    async def steps(pilot):
        await pilot.press(key)
        await until(pilot, lambda: "is of another format" in screen_text(pilot.app))
        return " ".join(line.strip() for line in screen_text(pilot.app).splitlines()[-4:])  # the status line may wrap

    shown = drive(DicehallApp(), steps)
    assert f"{whose} index ({name}) is of another format: rebuilt from the saves" in shown
