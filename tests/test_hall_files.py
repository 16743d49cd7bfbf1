"""The hall's and the saves' files against crafted input (issue #20): links never followed in the
hall, FIFOs never waited on, every record unpacked within limits and checked as it is read, and a
listing that reads again only what changed."""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import msgpack
import pytest

from dicehall import engine, replays, saves
from dicehall.saves import MAGIC, MAX_RECORD, READ_CHUNK, SaveScan, frame, parse_save
from dicehall.saves import hall as hallmod
from dicehall.saves.hall import Hall, HallError, HallLog
from tests.hallhelpers import start_child, step
from dicehall.cli import main

ROOT = Path(__file__).parent.parent


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    return Hall(tmp_path / "hall")


def hosted(hall, game="towers", seats=("player", "bot")):
    game = hall.host(game, list(seats), "Ann")
    game.close()
    return game.id


def empty_maps(count):
    """One frame whose payload is a msgpack array of `count` empty maps (a byte each)."""
    payload = b"\xdd" + struct.pack(">I", count) + b"\x80" * count
    return struct.pack(">II", len(payload), zlib.crc32(payload)) + payload


def run(args, timeout=30, **env):
    """dicehall in a child process, bounded in time: a hang fails the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "dicehall", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def one_line(text):
    return text.count("\n") == 1 and "Traceback" not in text


# ----- links: nothing in the hall follows one -----
def test_listing_the_hall_never_deletes_through_a_symlinked_watchers_folder(hall, tmp_path, capsys):
    game_id = hosted(hall)
    victim = tmp_path / "victim" / "dir"
    victim.mkdir(parents=True)
    for name in ("1", "2024", "notes"):
        (victim / name).write_text("")  # empty and digit-named, as a dead watcher's lock is
    os.symlink(victim, hall.games / f"{game_id}.watchers")
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    assert sorted(p.name for p in victim.iterdir()) == ["1", "2024", "notes"]  # every file survives
    assert f"{game_id}  towers" in capsys.readouterr().out  # the game is listed, with no one counted
    assert hall.entry(game_id).watchers == 0 and hall.entry(game_id).problem is None
    with pytest.raises(HallError) as refused:
        hall.watch(game_id)
    assert str(refused.value) == f"games/{game_id}.watchers: a symbolic link: refused"
    assert sorted(p.name for p in victim.iterdir()) == ["1", "2024", "notes"]  # nothing was made there either
    assert main(["--hall", str(hall.folder), "watch", game_id]) == 1
    err = capsys.readouterr().err
    assert err == f"dicehall: games/{game_id}.watchers: a symbolic link: refused\n"


def test_a_symlinked_games_or_secrets_folder_is_refused_and_nothing_is_written_through_it(hall, tmp_path, capsys):
    game_id = hosted(hall)
    elsewhere = tmp_path / "elsewhere"
    os.rename(hall.games, elsewhere)
    os.symlink(elsewhere, hall.games)
    before = sorted(p.name for p in elsewhere.iterdir())
    for action in (hall.listing, lambda: hall.host("towers", ["player", "bot"], "Ann"),
                   lambda: hall.join(game_id, name="Ann"), lambda: hall.watch(game_id)):
        with pytest.raises(HallError, match="^games: a symbolic link: refused$"):
            action()
    assert main(["--hall", str(hall.folder), "hall"]) == 1
    assert capsys.readouterr().err == "dicehall: games: a symbolic link: refused\n"
    assert sorted(p.name for p in elsewhere.iterdir()) == before  # no seat lock, no watcher, no game made there

    hall.games.unlink()
    os.rename(elsewhere, hall.games)  # the real games folder is back; now the secrets are a link
    secrets = tmp_path / "other-secrets"
    os.rename(hall.secrets, secrets)
    os.symlink(secrets, hall.secrets)
    assert hall.read_secret(game_id) is None  # the seed is not read through the link
    with pytest.raises(HallError, match="^secrets: a symbolic link: refused$"):
        hall.host("towers", ["player", "bot"], "Ann")
    hall.forget_secret(game_id)
    assert sorted(p.name for p in secrets.iterdir()) == [game_id]  # nor removed through it
    assert [p.name for p in hall.games.glob("*.dhh")] == [f"{game_id}.dhh"]  # no game without its secret


def test_a_games_folder_that_is_a_file_is_one_line(hall):
    hall.folder.mkdir()
    (hall.folder / "games").write_text("not a folder")
    with pytest.raises(HallError, match="^games: not a folder: refused$"):
        hall.listing()


def test_only_a_watchers_own_lock_is_counted_or_removed(hall, tmp_path):
    game_id = hosted(hall)
    child = start_child(tmp_path, hall.folder, "watch", game_id, "-")
    try:
        child.stdout.readline()  # it watches now
        folder = hall.games / f"{game_id}.watchers"
        precious = tmp_path / "precious"
        precious.write_text("")
        (folder / "7").write_text("data")  # not empty: no watcher wrote it
        os.mkfifo(folder / "8")
        os.symlink(precious, folder / "9")
        os.link(precious, folder / "10")  # a second name of another file
        os.symlink(tmp_path, folder / "11")  # a link to a folder
        (folder / "12").mkdir()
        (folder / "13").write_text("")  # a dead watcher's lock: the only one removed
        assert hall.entry(game_id).watchers == 1  # the live child only
        left = sorted(p.name for p in folder.iterdir())
        assert left == sorted(["7", "8", "9", "10", "11", "12", str(child.pid)])
        assert precious.exists() and precious.stat().st_nlink == 2 and any(tmp_path.iterdir())
    finally:
        child.kill()
        child.wait(10)
    assert hall.entry(game_id).watchers == 0
    assert str(child.pid) not in {p.name for p in (hall.games / f"{game_id}.watchers").iterdir()}


def test_a_watcher_removes_only_its_own_lock_when_it_leaves(hall):
    game_id = hosted(hall)
    watcher = hall.watch(game_id)
    folder = hall.games / f"{game_id}.watchers"
    mine = folder / str(os.getpid())
    assert mine.exists() and hall.entry(game_id).watchers == 1
    os.replace(mine, folder / "moved")
    mine.write_text("someone else's")  # the name now holds another file: not the watcher's to remove
    watcher.close()
    assert mine.read_text() == "someone else's"


# ----- FIFOs: never waited on -----
def test_a_fifo_in_the_saves_folder_is_refused_by_every_command_at_once(tmp_path, home):
    env = {"DICEHALL_HOME": str(home)}
    folder = home / "saves"
    good = saves.new_save("dicetower", name="Good")
    saves.close_save(good)
    os.mkfifo(folder / "x.dhs")
    for command in (["saves"], ["continue", "x"], ["analyse", "x"], ["export", "x", "-o", str(tmp_path / "x.dhr")],
                    ["recover", "x"]):
        result = run(command, **env)  # a hang is a TimeoutExpired: the test fails, the suite goes on
        assert "Traceback" not in result.stderr, command
        if command != ["saves"]:
            assert result.returncode == 1 and one_line(result.stderr), (command, result.stderr)
            assert "x: " in result.stderr and "not a regular file" in result.stderr
    listed = run(["saves"], **env)
    assert listed.returncode == 0 and "not a regular file" in listed.stdout and "Good" in listed.stdout
    os.unlink(folder / "x.dhs")
    index = folder / saves.INDEX_NAME
    index.unlink(missing_ok=True)
    os.mkfifo(index)
    for command in (["saves"], ["recover", "Good"], ["export", "Good", "-o", str(tmp_path / "good.dhr")]):
        result = run(command, **env)  # the index is passed over, never waited on
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr, (command, result.stderr)
    assert "Good" in run(["saves"], **env).stdout and (tmp_path / "good.dhr").is_file()


def test_a_fifo_given_as_a_replay_is_refused_at_once(tmp_path):
    fifo = tmp_path / "game.dhr"
    os.mkfifo(fifo)
    for command in (["verify", str(fifo)], ["analyse", str(fifo)]):  # both say what the file is, not "no save"
        result = run(command)
        assert result.returncode == 1 and one_line(result.stderr), (command, result.stderr)
        assert result.stderr.endswith("not a regular file\n"), (command, result.stderr)


HALL_FIFOS = """
import json, os, sys
from dicehall.saves.hall import Hall, HallError
hall = Hall(sys.argv[1])
game = hall.host("wager", ["player", "open", "open"], "Ann")
game.close()
os.mkfifo(hall.games / f"{game.id}.seat1")
os.mkfifo(hall.games / f"{game.id}.watchers")
os.unlink(hall.secrets / game.id)
os.mkfifo(hall.secrets / game.id)
out = {"secret": hall.read_secret(game.id), "held": hall.seat_held(game.id, 1)}
for name, action in (("join", lambda: hall.join(game.id, seat=1, name="Bob")), ("watch", lambda: hall.watch(game.id))):
    try:
        action()
        out[name] = "ok"
    except HallError as error:
        out[name] = str(error)
out["watchers"] = hall.entry(game.id).watchers
print(json.dumps(out))
"""


def test_fifos_in_the_hall_are_refused_at_once(hall):
    result = subprocess.run([sys.executable, "-c", HALL_FIFOS, str(hall.folder)], capture_output=True, text=True,
                            timeout=30, cwd=ROOT)
    out = json.loads(result.stdout)
    assert out["secret"] is None and out["held"] is False and out["watchers"] == 0
    assert out["join"].endswith(".seat1: not a regular file: refused")
    assert out["watch"].endswith(".watchers: not a folder: refused")


# ----- limits on every unpack, records checked as they are read -----
def scan_one(record_bytes):
    payload = record_bytes
    data = MAGIC + frame({"format": 2}) + struct.pack(">II", len(payload), zlib.crc32(payload)) + payload
    scan = SaveScan(__import__("io").BytesIO(data), "x", len(data))
    records = list(scan.records)
    return records, scan.damage


@pytest.mark.parametrize("value, refused", [
    ([0] * 1024, False), ([0] * 1025, True),
    ({str(n): 0 for n in range(64)}, False), ({str(n): 0 for n in range(65)}, True),
    ("x" * 4096, False), ("x" * 4097, True),
    (b"bytes", True),
])
def test_every_record_is_unpacked_within_limits(value, refused):
    records, damage = scan_one(msgpack.packb({"op": "play", "v": value}, use_bin_type=True))
    assert (damage is not None) == refused
    assert damage is None or damage.endswith(": not readable")


def test_a_record_larger_than_any_dicehall_record_is_refused_before_it_is_unpacked():
    records, damage = scan_one(msgpack.packb([[0] * 1000] * 70))  # 70,000 values in 70 KiB, each list allowed
    assert records == [] and damage.endswith("bytes, more than a dicehall record holds")


def big_hall_log(hall, records=3):
    """A hall log of a good header and `records` records of ~4 MiB of empty maps each (~12.6 MB for 3)."""
    game_id = hosted(hall, "wager", ["player", "open"])
    header = parse_save((hall.games / f"{game_id}.dhh").read_bytes(), "x").header
    path = hall.games / "bigmap.dhh"
    with open(path, "wb") as handle:
        handle.write(MAGIC + frame(header))
        for _ in range(records):
            handle.write(empty_maps(MAX_RECORD - 16))
    return path


# The peak is VmHWM, this process image's own high-water mark: ru_maxrss would carry over the peak
# of the (large) test process it was forked from, since Linux keeps it across execve.
MEASURE = """
import resource, sys
from dicehall.cli import main
code = main(sys.argv[1:])
try:
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(peak // 1024, code, file=sys.stderr)
"""


def peak_mb(args, **env):
    """The peak memory (MiB) of dicehall running `args` in a child process, its exit code and output."""
    result = subprocess.run([sys.executable, "-c", MEASURE, *args], capture_output=True, text=True, timeout=120,
                            cwd=ROOT, env={**os.environ, **env})
    *lines, last = result.stderr.strip().splitlines()
    peak, code = map(int, last.split())
    return peak, code, " ".join((result.stdout + "\n".join(lines)).split())  # a long line wraps in `saves`


def test_a_hostile_hall_log_and_save_cost_little_memory(hall, tmp_path, home):
    path = big_hall_log(hall)
    assert path.stat().st_size > 12_000_000
    peak, code, out = peak_mb(["--hall", str(hall.folder), "hall"])
    assert code == 0 and "bigmap DAMAGED: bigmap: record 1 at byte" in out and "more than a dicehall record" in out
    assert peak < 120, f"dicehall hall peaked at {peak} MiB"  # was 967 MB with every record unpacked
    session = saves.new_save("dicetower", name="Big")
    saves.close_save(session)
    with open(home / "saves" / f"{session.labels.save_id}.dhs", "ab") as handle:
        for _ in range(3):
            handle.write(empty_maps(MAX_RECORD - 16))
    for command in (["saves"], ["analyse", session.labels.save_id]):
        peak, code, out = peak_mb(command, DICEHALL_HOME=str(home))
        assert "record 1 at byte" in out and "more than a dicehall record holds" in out, out
        assert peak < 120, f"dicehall {command[0]} peaked at {peak} MiB"  # was 387 MB


def test_a_hall_log_is_checked_a_record_at_a_time(hall):
    game_id = hosted(hall, "wager", ["player", "open"])
    path = hall.games / f"{game_id}.dhh"
    with open(path, "ab") as handle:
        handle.write(frame({"op": "nonsense"}))  # bad at once; then 10 MB of well framed records
        for _ in range(10 * 1024):
            handle.write(frame({"op": "seat", "pad": "x" * 1000}))
    log = HallLog(path, hall.gid(), writable=False)
    try:
        records = log.records()
        assert next(records)["name"] == "Ann" and next(records) == {"op": "nonsense"}
        assert log.bytes_read[0] < 3 * READ_CHUNK < path.stat().st_size / 3  # not the rest of the file
    finally:
        log.close()
    problem = hall.entry(game_id).problem
    assert problem == f"{game_id}: record 2: unknown record 'nonsense'"


# ----- the listing reads only what changed -----
@pytest.fixture
def scans(monkeypatch):
    """Every SaveScan the hall makes: (label, where it resumes from, or None for the whole file)."""
    made = []
    real = hallmod.log.SaveScan

    def counting(handle, label, size, resume=None):
        made.append((label, resume))
        return real(handle, label, size, resume=resume)

    monkeypatch.setattr(hallmod.log, "SaveScan", counting)
    return made


def as_json(entries):
    return [entry.as_json() for entry in entries]


def test_a_second_listing_with_nothing_changed_reads_no_log(hall, tmp_path, scans):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    other = hosted(hall)
    (hall.games / "damage.dhh").write_bytes(b"not a log")
    first = hall.listing()
    assert {label for label, _ in scans} >= {ann.id, other, "damage"}
    scans.clear()
    assert as_json(hall.listing()) == as_json(first) and scans == []  # nothing changed: nothing read
    watcher = start_child(tmp_path, hall.folder, "watch", other, "-")
    watcher.stdout.readline()
    try:  # who watches and who is connected is looked at every time, the log or not
        assert {e.id: e.watchers for e in hall.listing()}[other] == 1 and scans == []
    finally:
        watcher.kill()
        watcher.wait(10)
    bob.close()
    assert [v.status for v in hall.entry(ann.id).seats] == ["player", "disconnected"] and scans == []
    ann.close()


def test_a_grown_log_is_read_from_where_the_listing_stopped(hall, scans):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    other = hosted(hall)
    hall.listing()
    offset = os.path.getsize(hall.games / f"{ann.id}.dhh")
    for _ in range(6):
        step({0: ann, 1: bob})
    scans.clear()  # the players' own reads
    entries = hall.listing()
    assert [label for label, _ in scans] == [ann.id]  # the other game was not read
    assert scans[0][1][0] == offset  # from the old end on
    assert as_json(entries) == as_json(Hall(hall.folder).listing())  # the same as a listing from scratch
    assert {e.id: e.moves for e in entries}[ann.id] == len(ann.session.marks) > 0
    assert other in {e.id for e in entries}
    ann.close(), bob.close()


def test_a_log_replaced_or_damaged_after_a_listing_is_read_again(hall):
    first, second = hosted(hall), hosted(hall, "wager", ["player", "open"])
    hall.listing()
    os.replace(hall.games / f"{second}.dhh", hall.games / f"{first}.dhh")  # another file under the name
    entry = hall.entry(first)
    assert entry.problem is None and entry.game == "wager"
    with open(hall.games / f"{first}.dhh", "ab") as handle:
        handle.write(frame({"op": "nonsense"}))
    assert hall.entry(first).problem == f"{first}: record 2: unknown record 'nonsense'"  # after Ann's seat
    os.unlink(hall.games / f"{first}.dhh")
    assert [e.id for e in hall.listing()] == [] and hall._listed == {}  # a game gone is forgotten


def packed_lists(lists: int, each: int, item: bytes) -> bytes:
    """`lists` lists of `each` times the packed `item`: an empty map (a byte in the file, some 64 bytes
    unpacked) or a two-letter text (3 bytes, some 50 unpacked)."""
    return b"\xdd" + struct.pack(">I", lists) + (b"\xdd" + struct.pack(">I", each) + item * each) * lists


def lists_of_empty_maps(lists: int, each: int) -> bytes:
    return packed_lists(lists, each, b"\x80")


@pytest.mark.parametrize("field, maps, refusal", [
    ("events", lists_of_empty_maps(80, 199_999), "event 1 is 200004 bytes: no game's event is over 16384"),  # measured unmade
    ("events", lists_of_empty_maps(16_000, 1_000), "more than 1600000 lists and maps: not a dicehall replay"),
    ("marks", lists_of_empty_maps(80, 199_999), "more than 1050000 values outside its events: not a dicehall replay"),
])
def test_a_replay_of_empty_maps_is_refused_within_bounded_memory(tmp_path, field, maps, refusal):
    path = tmp_path / "maps.dhr"  # 16 MB: every list within the per-list limit, 16 million maps in all
    path.write_bytes(b"\x82\xa6format\x03" + msgpack.packb(field) + maps)
    assert path.stat().st_size <= 16 * 1024 * 1024
    peak, code, out = peak_mb(["verify", str(path)])
    assert code == 1 and out.endswith(refusal), out
    assert peak < 250, f"verify peaked at {peak} MiB"  # was 1.4 GB and 22 s


def two_letter_texts(lists: int, each: int) -> bytes:
    return packed_lists(lists, each, b"\xa2ab")


def test_a_replay_of_two_letter_texts_in_its_events_costs_its_bytes_not_their_objects(tmp_path):
    """16 MiB of events, each a list of 1,000 two-letter texts (within an event's limits), with the
    file digest that fits them: 506 MB when the whole file was unpacked at once. Each event is
    unpacked, checked and dropped as the file is read, and again when the refold reaches it: the
    first is refused by the rules."""
    session = engine.new_session("dicetower", seed=7)
    while session.outcome is None:
        session.play(session.commands()[0])
    events = [["ab"] * 1000] * 5_500  # one text object here; 5.5 million in a reader that unpacks them all
    path = tmp_path / "texts.dhr"
    path.write_bytes(msgpack.packb(replays.seal(dict(replays.replay_document(session), events=events))))
    assert 16_000_000 < path.stat().st_size <= 16 * 1024 * 1024
    peak, code, out = peak_mb(["verify", str(path)])
    assert code == 1 and out.endswith("texts.dhr: event 1: not an event record"), out
    assert peak < 120, f"verify peaked at {peak} MiB"  # was 506 MB
    path.write_bytes(msgpack.packb(replays.seal(dict(replays.replay_document(session), events=[["ab"] * 6000]))))
    assert peak_mb(["verify", str(path)])[2].endswith("event 1 is 18003 bytes: no game's event is over 16384")


@pytest.mark.parametrize("field", ["marks", "comments", "name"])
def test_a_replay_of_two_letter_texts_outside_its_events_is_refused_within_bounded_memory(tmp_path, field):
    path = tmp_path / "texts.dhr"
    path.write_bytes(b"\x82\xa6format\x05" + msgpack.packb(field) + two_letter_texts(50, 110_000))
    assert path.stat().st_size <= 16 * 1024 * 1024
    peak, code, out = peak_mb(["verify", str(path)])
    assert code == 1 and "more than 1050000 values outside its events: not a dicehall replay" in out, out
    assert peak < 200, f"verify peaked at {peak} MiB"  # 148 MB on this machine; 483 MB before


def test_a_seat_lock_that_is_another_files_second_name_is_never_written(hall, tmp_path):
    game_id = hosted(hall, "wager", ["player", "open"])
    precious = tmp_path / "precious"
    precious.write_text("keep me")
    os.link(precious, hall.games / f"{game_id}.seat1")
    with pytest.raises(HallError, match=rf"^games/{game_id}.seat1: a file with another name too: refused$"):
        hall.join(game_id, seat=1, name="Bob")
    assert precious.read_text() == "keep me"
