"""Saves: durable append-only logs, torn tails, bit flips, locks, listing, export, recovery."""
import os
import stat
import subprocess
import sys
import textwrap

import pytest

import engine
import replays
import saves
from engine.games.dicetower import PullBlock


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
    loaded = saves.open_save(session.save_id)
    assert "cut off" in loaded.notice
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
        saves.open_save(session.save_id)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == bytes(data)  # untouched


def test_good_prefix_of_a_damaged_save_can_be_recovered():
    session = make_save(pulls=3)
    path = session.journal.path
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40
    path.write_bytes(bytes(data))
    new_id = saves.recover_save(session.save_id)
    recovered = saves.open_save(new_id)
    assert recovered.state == session.state_at(session.marks[2].start)
    assert "(recovered)" in recovered.save_name
    saves.close_save(recovered)
    assert path.exists()


def test_a_record_that_breaks_the_rules_is_named():
    session = make_save(pulls=1)
    with open(session.journal.path, "ab") as handle:
        handle.write(saves.frame({"op": "play", "by": 0, "events": [["DiceRolled", {"faces": [1, 1], "typed": False}]]}))
    with pytest.raises(saves.SaveDamaged, match="record 2: event 2: not a legal move here"):
        saves.open_save(session.save_id)


def test_newer_save_format_is_refused_with_its_version():
    session = make_save(pulls=1)
    path = session.journal.path
    data = path.read_bytes()[len(saves.MAGIC):]
    parsed = saves.parse_save(path.read_bytes(), "x")
    header = dict(parsed.header, format=9)
    rest = data[8 + int.from_bytes(data[:4], "big"):]
    path.write_bytes(saves.MAGIC + saves.frame(header) + rest)
    with pytest.raises(saves.SaveError, match="newer dicehall .save format 9"):
        saves.open_save(session.save_id)


def test_second_process_is_told_the_save_is_in_use(home):
    session = saves.new_save("dicetower", name="shared", seed=1)
    script = textwrap.dedent(f"""
        import saves
        try:
            saves.open_save({session.save_id!r})
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
    assert session.save_name == "evil[31mname"


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
