"""Saves: durable append-only logs, torn tails, bit flips, locks, listing, export, recovery."""
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock


def make_save(name="Night 1", pulls=4, seed=7):
    session = saves.new_save("dicetower", name=name, seed=seed)
    for i in range(pulls):
        session.play(PullBlock(i == 1))
    saves.close_save(session)
    return session


def test_saves_live_in_dicehall_home_with_private_folders(home):
    session = make_save()
    assert session.journal.path.parent == home / "saves"
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(home / "saves").st_mode) == 0o700


def test_every_event_is_on_disk_when_play_returns():
    session = saves.new_save("dicetower", name="durable", seed=3)
    session.play(PullBlock())
    # read the file from outside, while the session is still open
    parsed = saves.parse_save(session.journal.path.read_bytes(), "x")
    rebuilt = saves.build_session(parsed, "x")
    assert rebuilt.events == session.events
    saves.close_save(session)


def test_open_save_resumes_identical_state():
    session = make_save()
    loaded = saves.open_save("Night 1")
    assert engine.digest(loaded.state) == engine.digest(session.state)
    loaded.play(PullBlock())  # and play goes on from there, with the seed's next dice
    saves.close_save(loaded)
    fresh = engine.new_session("dicetower", seed=7)
    for i in range(5):
        fresh.play(PullBlock(i == 1))
    assert saves.load_readonly("Night 1").state == fresh.state


def test_torn_last_record_is_cut_off_with_a_notice():
    session = make_save(pulls=3)
    path = session.journal.path
    good = path.read_bytes()
    path.write_bytes(good + saves.frame({"op": "play", "by": 0, "events": []})[:7])
    loaded = saves.open_save(session.labels.save_id)
    assert "cut off" in loaded.labels.notice
    assert loaded.state == session.state
    saves.close_save(loaded)
    assert path.read_bytes() == good


def test_bit_flip_stops_the_load_names_the_record_and_keeps_the_file():
    session = make_save(pulls=3)
    path = session.journal.path
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40  # inside the last record's payload
    path.write_bytes(bytes(data))
    with pytest.raises(saves.SaveDamaged, match="record 3 at byte .*: checksum does not match") as caught:
        saves.open_save(session.labels.save_id)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == bytes(data)  # untouched


def test_good_prefix_of_a_damaged_save_can_be_recovered():
    session = make_save(pulls=3)
    path = session.journal.path
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40
    path.write_bytes(bytes(data))
    new_id = saves.recover_save(session.labels.save_id)
    recovered = saves.open_save(new_id)
    assert recovered.state == session.state_at(session.marks[2].start)
    assert "(recovered)" in recovered.labels.save_name
    saves.close_save(recovered)
    assert path.exists()


def test_a_record_that_breaks_the_rules_is_named():
    session = make_save(pulls=1)
    with open(session.journal.path, "ab") as handle:
        handle.write(saves.frame({"op": "play", "by": 0, "events": [["DiceRolled", {"faces": [1, 1], "typed": False}]]}))
    with pytest.raises(saves.SaveDamaged, match="record 2: event 3: not a legal move here"):
        saves.open_save(session.labels.save_id)


def test_newer_save_format_is_refused_with_its_version():
    session = make_save(pulls=1)
    path = session.journal.path
    data = path.read_bytes()[len(saves.MAGIC):]
    parsed = saves.parse_save(path.read_bytes(), "x")
    header = dict(parsed.header, format=9)
    rest = data[8 + int.from_bytes(data[:4], "big"):]
    path.write_bytes(saves.MAGIC + saves.frame(header) + rest)
    with pytest.raises(saves.SaveError, match="newer dicehall .save format 9"):
        saves.open_save(session.labels.save_id)


def test_second_process_is_told_the_save_is_in_use(home):
    session = saves.new_save("dicetower", name="shared", seed=1)
    script = textwrap.dedent(f"""
        from dicehall import saves
        try:
            saves.open_save({session.labels.save_id!r})
        except saves.SaveInUse as error:
            print("IN USE:", error)
    """)
    env = dict(os.environ, DICEHALL_HOME=str(home))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert "IN USE:" in result.stdout and "in use by another dicehall" in result.stdout
    saves.close_save(session)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert "IN USE" not in result.stdout and result.returncode == 0


def test_list_saves_shows_game_name_progress_and_last_played():
    make_save(name="The Wretched, night 3", pulls=2)
    [info] = saves.list_saves()
    assert (info.game, info.name) == ("dicetower", "The Wretched, night 3")
    assert info.progress.startswith("countdown ") and info.progress.endswith("2 pulls")
    assert info.last_played > 0 and not info.finished


def test_several_trackers_at_once():
    make_save(name="A")
    make_save(name="B")
    assert sorted(i.name for i in saves.list_saves()) == ["A", "B"]


def test_delete_and_export(tmp_path):
    session = make_save(name="gone")
    out = saves.export_save("gone", tmp_path / "gone.dhr")
    assert replays.read_replay(out).state == session.state
    saves.delete_save("gone")
    assert saves.list_saves() == []
    with pytest.raises(saves.SaveError, match="no save named"):
        saves.open_save("gone")


def test_deleting_a_save_in_use_is_refused():
    session = saves.new_save("dicetower", name="busy", seed=1)
    with pytest.raises(saves.SaveInUse):
        saves.delete_save("busy")
    saves.close_save(session)


def test_control_characters_are_stripped_from_save_names():
    session = make_save(name="evil\x1b[31m\x07name\n")
    assert session.labels.save_name == "evil[31mname"


def test_not_a_save_is_named():
    path = saves.saves_dir() / "junk.dhs"
    path.write_bytes(b"hello")
    [info] = saves.list_saves()
    assert info.problem == "junk: not a dicehall save"


def test_list_marks_damaged_saves_and_keeps_torn_ones_playable():
    torn = make_save(name="torn", pulls=2)
    with open(torn.journal.path, "ab") as handle:
        handle.write(b"\x00\x00\x01")
    flipped = make_save(name="flipped", pulls=2)
    data = bytearray(flipped.journal.path.read_bytes())
    data[-2] ^= 8
    flipped.journal.path.write_bytes(bytes(data))
    infos = {info.name: info for info in saves.list_saves()}
    assert infos["torn"].problem is None and infos["torn"].progress.endswith("(cut-off tail)")
    assert "checksum does not match" in infos["flipped"].problem


def test_a_save_waiting_for_typed_dice_still_waits_when_reopened():
    session = saves.new_save("dicetower", name="table dice", seed=7)
    session.play(PullBlock(), faces=[3, 3])  # double threes typed: the next two faces are owed
    saves.close_save(session)
    loaded = saves.open_save("table dice")
    assert loaded.chance_needed is not None and loaded.state.countdown == 94
    loaded.roll([2, 5])
    assert loaded.state.countdown == 92
    saves.close_save(loaded)
    assert saves.load_readonly("table dice").state.countdown == 92


# --- a damaged length field is damage, not a torn tail ---------------------------------------------

def frame_offsets(data):
    """The byte offset of every frame in a save file."""
    offsets, offset = [], len(saves.MAGIC)
    while offset < len(data):
        offsets.append(offset)
        offset += 8 + int.from_bytes(data[offset:offset + 4], "big")
    return offsets


def flip_length(path, record, bit=20):
    data = bytearray(path.read_bytes())
    offset = frame_offsets(bytes(data))[record]
    data[offset:offset + 4] = (int.from_bytes(data[offset:offset + 4], "big") | 1 << bit).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    return offset, bytes(data)


def test_a_flipped_length_that_runs_past_the_end_is_damage_when_records_follow():
    session = make_save(name="lengthy", pulls=4)
    path = session.journal.path
    offset, data = flip_length(path, 2)  # 1 MiB: past the end of the file, under the record limit
    assert offset + 8 + (1 << 20) > len(data)
    with pytest.raises(saves.SaveDamaged, match=f"record 2 at byte {offset}: length .* runs past the end of the file, "
                                                f"but a whole record follows at byte "):
        saves.open_save(session.labels.save_id)
    assert path.read_bytes() == data  # nothing cut: the later, fsync'd records are still there
    assert not path.with_name(path.name + ".torn").exists()
    [info] = saves.list_saves()
    assert "runs past the end of the file" in info.problem and "cut-off tail" not in info.progress
    new_id = saves.recover_save(session.labels.save_id)  # recover works as for a checksum failure
    assert saves.load_readonly(new_id).state == session.state_at(session.marks[1].start)
    assert path.read_bytes() == data


def test_every_cut_of_the_last_record_is_a_torn_tail_and_every_length_flip_before_it_is_damage():
    session = make_save(name="cuts", pulls=5)
    data = session.journal.path.read_bytes()
    offsets = frame_offsets(data)
    for cut in range(offsets[-1] + 1, len(data)):
        parsed = saves.parse_save(data[:cut], "x")
        assert parsed.torn and parsed.damage is None and parsed.good_end == offsets[-1], cut
    for record in range(1, len(offsets) - 1):
        for bit in range(32):
            flipped = bytearray(data)
            flipped[offsets[record] + 3 - bit // 8] ^= 1 << bit % 8
            parsed = saves.parse_save(bytes(flipped), "x")
            assert parsed.damage and f"record {record} at byte {offsets[record]}" in parsed.damage and not parsed.torn, (record, bit)


def test_a_length_over_the_record_limit_is_damage_even_on_the_last_record():
    session = make_save(name="huge", pulls=2)
    path = session.journal.path
    offset, data = flip_length(path, 2, bit=30)
    with pytest.raises(saves.SaveDamaged, match=f"record 2 at byte {offset}: impossible length"):
        saves.open_save(session.labels.save_id)
    assert path.read_bytes() == data


def test_when_telling_a_torn_tail_costs_too_much_it_is_called_damage(monkeypatch):
    session = make_save(name="costly", pulls=4)
    path = session.journal.path
    offset, data = flip_length(path, 2)
    monkeypatch.setattr(saves.framing, "TORN_SCAN_BUDGET", 0)
    with pytest.raises(saves.SaveDamaged, match=f"record 2 at byte {offset}: length .* runs past the end of the file$"):
        saves.load_readonly(session.labels.save_id)
    with pytest.raises(saves.SaveDamaged):
        saves.open_save(session.labels.save_id)
    assert path.read_bytes() == data


def test_a_torn_tail_is_copied_aside_before_it_is_cut():
    session = make_save(name="aside", pulls=3)
    path = session.journal.path
    good = path.read_bytes()
    tail = saves.frame({"op": "play", "by": 0, "events": []})[:11]
    path.write_bytes(good + tail)
    loaded = saves.open_save(session.labels.save_id)
    aside = path.with_name(path.name + ".torn")
    assert f"kept in {aside.name}" in loaded.labels.notice
    saves.close_save(loaded)
    assert path.read_bytes() == good and aside.read_bytes() == tail
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    path.write_bytes(good + tail[:5])  # torn again: the first copy is never overwritten
    loaded = saves.open_save(session.labels.save_id)
    assert "kept in " + aside.name + ".2" in loaded.labels.notice
    saves.close_save(loaded)
    assert aside.read_bytes() == tail and path.with_name(aside.name + ".2").read_bytes() == tail[:5]


def test_a_flipped_length_on_the_last_record_is_damage_and_the_move_is_kept():
    """A torn write is shorter than its length says; a last record whose bytes are all there (they
    match its checksum) has a damaged length: the file is kept, and recover keeps that move."""
    session = make_save(name="last", pulls=3)
    path = session.journal.path
    offset, data = flip_length(path, 3)
    with pytest.raises(saves.SaveDamaged, match=f"record 3 at byte {offset}: length .* runs past the end of the file, "
                                                f"but the .* bytes there are the whole record"):
        saves.open_save(session.labels.save_id)
    assert path.read_bytes() == data and not path.with_name(path.name + ".torn").exists()
    [info] = saves.list_saves()
    assert "whole record" in info.problem and info.progress == session.game.progress(session.state)
    recovered = saves.load_readonly(saves.recover_save(session.labels.save_id))
    assert recovered.state == session.state  # the last, acknowledged move is there


def test_every_length_flip_of_the_last_record_is_damage_never_a_torn_tail():
    session = make_save(name="flips", pulls=5)
    data = session.journal.path.read_bytes()
    last = frame_offsets(data)[-1]
    for bit in range(32):
        flipped = bytearray(data)
        flipped[last + 3 - bit // 8] ^= 1 << bit % 8
        parsed = saves.parse_save(bytes(flipped), "x")
        assert not parsed.torn and f"record 5 at byte {last}" in parsed.damage, bit
        if "impossible length" not in parsed.damage:  # under the record limit: the move itself is kept
            assert len(parsed.records) == 5 and "whole record" in parsed.damage, bit


# --- file names are data ------------------------------------------------------------------------

EVIL_STEM = "x\x1b[31mRED\x1b]0;pwned\x07"


def test_file_names_with_control_characters_are_cleaned_everywhere():
    session = make_save(name="evil file", pulls=2)
    evil = session.journal.path.with_name(EVIL_STEM + ".dhs")
    session.journal.path.rename(evil)
    (evil.parent / "y\x1b[2J\x07.dhs").write_bytes(b"junk")
    infos = {info.game: info for info in saves.list_saves()}
    for info in infos.values():
        for text in (info.id, info.name, info.progress, info.problem or ""):
            assert not any(ord(ch) < 32 or ch == "\x7f" for ch in text), repr(text)
    assert infos["dicetower"].id == "x[31mRED]0;pwned"
    assert (infos["?"].id, infos["?"].name, infos["?"].problem) == ("y[2J", "y[2J", "y[2J: not a dicehall save")
    loaded = saves.open_save(infos["dicetower"].id)  # the listed id still opens the file
    assert loaded.state == session.state and loaded.labels.save_id == "x[31mRED]0;pwned"
    with pytest.raises(saves.SaveInUse) as caught:
        saves.delete_save(infos["dicetower"].id)
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)
    saves.close_save(loaded)
    with pytest.raises(saves.SaveError) as caught:
        saves.open_save("y[2J")
    assert str(caught.value) == "y[2J: not a dicehall save"
    evil.write_bytes(evil.read_bytes()[:-1])  # damaged, so there is something to recover
    new_id = saves.recover_save(infos["dicetower"].id)
    assert new_id == "x-31mred-0-pwned-recovered"  # the new file's name has no control characters


def test_dicehall_saves_prints_no_control_characters(home):
    session = make_save(name="evil\x1b[31m name", pulls=2)
    session.journal.path.rename(session.journal.path.with_name(EVIL_STEM + ".dhs"))
    (home / "saves" / "y\x1b[2J\x07.dhs").write_bytes(b"junk")
    damaged = make_save(name="z", pulls=2)
    damaged.journal.path.rename(damaged.journal.path.with_name("z\x1b[5m\x9b.dhs"))
    path = damaged.journal.path.with_name("z\x1b[5m\x9b.dhs")
    data = bytearray(path.read_bytes())
    data[-2] ^= 1
    path.write_bytes(bytes(data))
    result = subprocess.run([sys.executable, "-m", "dicehall", "saves"], capture_output=True, timeout=60,
                            env=dict(os.environ, DICEHALL_HOME=str(home)))
    assert result.returncode == 0 and sum(line.strip().startswith(b"id ") for line in result.stdout.splitlines()) == 3
    assert b"\x1b" not in result.stdout + result.stderr and b"\x07" not in result.stdout + result.stderr
    text = result.stdout.decode()
    assert not any(ord(ch) < 32 and ch != "\n" or 0x7f <= ord(ch) < 0xa0 for ch in text), repr(text)
    assert "x[31mRED]0;pwned" in text and "checksum does not match" in " ".join(text.split())


# --- folders: only those dicehall makes are made private ---------------------------------------

def test_an_existing_home_keeps_its_mode(tmp_path, monkeypatch):
    mine = tmp_path / "mine"
    mine.mkdir()
    os.chmod(mine, 0o755)
    monkeypatch.setenv("DICEHALL_HOME", str(mine))
    folder = saves.saves_dir()
    assert stat.S_IMODE(mine.stat().st_mode) == 0o755  # the user's folder, not dicehall's
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    os.chmod(folder, 0o750)
    saves.saves_dir()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o750  # once made, the user may loosen it


def test_missing_parents_of_home_are_made_private(tmp_path, monkeypatch):
    os.chmod(tmp_path, 0o755)
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "a" / "b"))
    old = os.umask(0o022)
    try:
        saves.saves_dir()
    finally:
        os.umask(old)
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755
    for part in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "saves"):
        assert stat.S_IMODE(part.stat().st_mode) == 0o700, part


# --- export never overwrites unless asked --------------------------------------------------------

def test_export_refuses_to_replace_a_file_unless_asked(tmp_path):
    session = make_save(name="shared")
    target = tmp_path / "mine.dhr"
    target.write_bytes(b"my precious file")
    with pytest.raises(saves.ExportExists, match="mine.dhr already exists") as caught:
        saves.export_save("shared", target)
    assert caught.value.path == target and target.read_bytes() == b"my precious file"
    assert saves.export_save("shared", target, overwrite=True) == target
    assert replays.read_replay(target).state == session.state
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dicehall-home", "mine.dhr"]


def test_export_into_a_folder_names_the_file_after_the_save(tmp_path):
    session = make_save(name="foldered")
    out = tmp_path / "out"
    out.mkdir()
    written = saves.export_save("foldered", out)
    assert written == out / f"{session.labels.save_id}.dhr"
    assert replays.read_replay(written).events == session.events
    with pytest.raises(saves.ExportExists):
        saves.export_save("foldered", out)
    assert os.listdir(out) == [written.name]


def test_a_failed_export_leaves_no_temporary_file(tmp_path, monkeypatch):
    make_save(name="failing")
    out = tmp_path / "out"
    out.mkdir()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(replays.os, "fsync", broken_fsync)
        with pytest.raises(saves.SaveError, match="cannot write .*failing.dhr: No space left on device"):
            saves.export_save("failing", out / "failing.dhr")
    assert os.listdir(out) == []
    with pytest.raises(saves.SaveError, match="No such file or directory"):
        saves.export_save("failing", out / "missing" / "x.dhr")
    session = saves.load_readonly("failing")
    with pytest.raises(IsADirectoryError):  # the old bug: a folder as the target left .out.NNN.tmp behind
        replays.write_replay(session, out)
    assert sorted(os.listdir(tmp_path)) == ["dicehall-home", "out"] and os.listdir(out) == []  # a folder lists in no set order
