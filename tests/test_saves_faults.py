"""Saves tested the way an attacker or an unlucky machine would: a file with a wrongly typed field
among good ones, a disk that fills up in the middle of a write, and a huge file of tiny records."""
from __future__ import annotations

import errno
import os
import tracemalloc

import msgpack
import pytest

from dicehall import engine
from dicehall import saves
from dicehall.engine.bots import bones as bones_bot
from dicehall.engine.core import Player
from dicehall.engine.games.dicetower import PullBlock
from dicehall import durable
from tests.apphelpers import drive, screen_text
from dicehall.tui.app import DicehallApp
from dicehall.cli import main
from dicehall.tui.screens.dicetower import DiceTowerScreen


def records_of(path):
    """Every record of a save file, unpacked (the file is assumed whole)."""
    data = path.read_bytes()
    offset, records = len(saves.MAGIC), []
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        records.append(msgpack.unpackb(data[offset + 8:offset + 8 + length], raw=False))
        offset += 8 + length
    return records


def good_tower(name="good tower", pulls=2):
    session = saves.new_save("dicetower", name=name, seed=3)
    for _ in range(pulls):
        session.play(PullBlock())
    saves.close_save(session)
    return session


def bones_with_a_wrongly_typed_attack():
    """A War of Bones save whose AttackDeclared has `attacks: 5`: valid framing and CRC, wrong type."""
    session = saves.new_save("bones", name="bad bones", seed=5,
                             players=[Player("Ada"), Player("Bot", True, "general")])
    while not any(type(event).__name__ == "AttackDeclared" for event in session.events):
        session.play(bones_bot.choose(session.state, "general", session.seed, len(session.events)))
    saves.close_save(session)
    records = records_of(session.journal.path)
    for record in records[1:]:
        for event in record.get("events", ()):
            if event[0] == "AttackDeclared":
                event[1]["attacks"] = 5
    session.journal.path.write_bytes(saves.MAGIC + b"".join(saves.frame(r) for r in records))
    return session


@pytest.fixture
def crafted():
    """One crafted bad file among two good saves; returns (bad save id, good ids)."""
    good = [good_tower("first good"), good_tower("second good", pulls=3)]
    bad = bones_with_a_wrongly_typed_attack()
    return bad.labels.save_id, [g.labels.save_id for g in good]


def test_a_wrongly_typed_field_is_one_line_in_the_list_and_the_others_stay_usable(crafted):
    bad, good = crafted
    infos = {info.id: info for info in saves.list_saves()}
    assert set(infos) == {bad, *good}
    assert infos[bad].problem.startswith(f"{bad}: record ") and "\n" not in infos[bad].problem
    for save_id in good:
        assert infos[save_id].problem is None and infos[save_id].progress.startswith("countdown")
        saves.close_save(saves.open_save(save_id))


def test_dicehall_saves_continue_and_recover_with_a_bad_file(crafted, capsys):
    bad, good = crafted
    assert main(["saves"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("3 saves in ")  # the bad file is listed, and so are both good ones
    assert any(line.strip().startswith(f"DAMAGED: {bad}: record 5:") for line in out)
    assert {line.strip() for line in out} >= {f"id {save_id}" for save_id in (bad, *good)}
    assert main(["continue", bad]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"dicehall: {bad}: record ") and "recover" in err[0]
    assert main(["export", bad]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["recover", bad]) == 0
    assert "recovered into save" in capsys.readouterr().out


def test_plain_continue_skips_a_bad_file_and_opens_the_latest_good_save(crafted, monkeypatch):
    bad, good = crafted
    os.utime(saves.saves_dir() / f"{bad}.dhs")  # the bad file is the latest played
    os.utime(saves.saves_dir() / f"{good[0]}.dhs", (1, 1))
    opened = []
    monkeypatch.setattr(DicehallApp, "run", lambda app: opened.append(app))  # no terminal in a test
    monkeypatch.setattr("dicehall.cli.terminal.missing_terminal", lambda: None)  # as if on one
    assert main(["continue"]) == 0
    session = opened[0].start_session
    assert session.labels.save_id == good[1]
    saves.close_save(session)


@pytest.mark.parametrize("fault", [TypeError("x"), KeyError("x"), RecursionError("deep"), AttributeError("x"),
                                   ZeroDivisionError("x"), MemoryError()])
def test_no_exception_from_one_file_takes_down_the_list_or_the_commands(fault, monkeypatch, capsys):
    """Whatever a record makes the engine raise, it is that file's one line."""
    good = good_tower("fine")
    cursed = good_tower("cursed", pulls=1)
    real = saves.rebuild._replay_record

    def replay(session, record, module):
        if session.labels.save_name == "cursed":
            raise fault
        return real(session, record, module)

    monkeypatch.setattr(saves.rebuild, "_replay_record", replay)
    infos = {info.id: info for info in saves.list_saves()}
    assert infos[good.labels.save_id].problem is None
    assert infos[cursed.labels.save_id].problem == f"{cursed.labels.save_id}: record 1: not a valid record ({type(fault).__name__})"
    for command in (["continue", cursed.labels.save_id], ["export", cursed.labels.save_id, "-o", os.devnull + ".dhr"]):
        assert main(command) == 1
        assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_launchers_save_list_shows_a_bad_file_and_continues_a_good_one(crafted):
    bad, good = crafted

    async def steps(pilot):
        await pilot.press("c")
        await pilot.pause()
        listing = screen_text(pilot.app)
        infos = pilot.app.screen.infos
        await pilot.press(*["down"] * [i.id for i in infos].index(bad), "enter")
        refused = screen_text(pilot.app)
        await pilot.press("home")
        await pilot.press(*["down"] * [i.id for i in infos].index(good[0]), "enter")
        return listing, refused, pilot.app.screen

    listing, refused, screen = drive(DicehallApp(), steps)
    assert "first good" in listing and "second good" in listing and "damaged" in listing.lower()
    assert f"Not now: {bad}: record " in refused
    assert isinstance(screen, DiceTowerScreen) and screen.session.labels.save_id == good[0]


# --- a disk that fills up -----------------------------------------------------------------------

class FullDisk:
    """The os module as saves and durable writing see it, on a disk with `room` bytes left: a write
    takes what fits, and a write with no room raises ENOSPC, as a real full disk does."""

    def __init__(self, room: int):
        self.room = room

    def __getattr__(self, name):
        return getattr(os, name)

    def write(self, fd, data):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        taken = min(len(data), self.room)
        self.room -= taken
        return os.write(fd, bytes(data[:taken]))


def on_disk(monkeypatch, disk):
    """Saves write through dicehall.durable and cut back, lock and rename through their own os."""
    for room in (saves.files, saves.index, saves.store, saves.manage):
        monkeypatch.setattr(room, "os", disk)
    monkeypatch.setattr(durable, "os", disk)


def test_a_failed_append_is_cut_back_the_session_is_unchanged_and_play_goes_on(monkeypatch):
    session = saves.new_save("dicetower", name="full", seed=9)
    session.play(PullBlock())
    path = session.journal.path
    before, state, events = path.read_bytes(), session.state, session.events
    disk = FullDisk(room=20)  # half a record fits, then the disk is full
    on_disk(monkeypatch, disk)
    for command in (lambda: session.play(PullBlock()), session.undo):
        with pytest.raises(saves.SaveWriteFailed) as caught:
            command()
        assert str(caught.value) == "disk full: nothing was saved or changed; make room and try again"
        assert path.read_bytes() == before  # no fragment left for later records to land after
        assert session.state == state and session.events == events and session.undos == 0
    disk.room = 1 << 20  # space is back
    session.play(PullBlock(remove=True))
    session.undo()
    session.play(PullBlock())
    saves.close_save(session)
    on_disk(monkeypatch, os)  # the disk is fine again
    reopened = saves.open_save(session.labels.save_id)
    assert reopened.labels.notice is None and reopened.events == session.events and reopened.undos == 1
    saves.close_save(reopened)


def test_a_failed_append_that_cannot_be_cut_back_closes_the_save_and_reopening_repairs_it(monkeypatch):
    session = saves.new_save("dicetower", name="stuck", seed=9)
    session.play(PullBlock())
    events = session.events
    disk = FullDisk(room=20)

    def no_truncate(fd, size):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    disk.ftruncate = no_truncate
    on_disk(monkeypatch, disk)
    with pytest.raises(saves.SaveWriteFailed, match="leave, make room, continue"):
        session.play(PullBlock())
    with pytest.raises(saves.SaveError, match="is closed"):  # never a record after the fragment
        session.play(PullBlock())
    on_disk(monkeypatch, os)  # the disk is fine again
    reopened = saves.open_save(session.labels.save_id)
    assert "cut off" in reopened.labels.notice and reopened.events == events
    saves.close_save(reopened)


@pytest.mark.parametrize("game, room", [("dicetower", 0), ("dicetower", 9), ("troll", 0), ("troll", 300)])
def test_play_on_a_full_disk_leaves_no_file(game, room, monkeypatch, capsys, home):
    """room 300 lets the troll's header in, then its shuffle (a chance event before the first move) fails."""
    on_disk(monkeypatch, FullDisk(room))
    monkeypatch.setattr("dicehall.cli.terminal.missing_terminal", lambda: None)  # on a terminal: the save is made, and fails
    assert main(["play", game]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["dicehall: could not create the save (disk full); no file was left behind"]
    assert list((home / "saves").iterdir()) == []


def test_the_game_screen_says_the_disk_is_full_keeps_the_game_open_and_goes_on(monkeypatch):
    session = saves.new_save("dicetower", name="screen full", seed=9)
    disk = FullDisk(room=0)

    async def steps(pilot):
        on_disk(monkeypatch, disk)
        await pilot.press("p")
        refused = screen_text(pilot.app)
        assert session.events == () and isinstance(pilot.app.screen, DiceTowerScreen)
        disk.room = 1 << 20
        await pilot.press("p")
        return refused, len(session.events)

    refused, played = drive(DicehallApp(session=session), steps)
    assert "Not now: disk full: nothing was saved or changed; make room and try again" in refused
    assert played == 2  # the pull and its dice
    on_disk(monkeypatch, os)  # the disk is fine again
    assert saves.load_readonly(session.labels.save_id).events == session.events


def test_wager_bots_on_a_full_disk_wait_instead_of_looping(monkeypatch):
    from dicehall.tui.screens.wager import WagerScreen

    # the bot moves on space only: its own pace would let it move while the keys are typed (on a busy machine)
    monkeypatch.setattr("dicehall.tui.screens.wager.screen.BOT_PACE", 60)
    session = saves.new_save("wager", name="bots", seed=4, players=[Player("Ada"), Player("Bot", True, "bold")])
    disk = FullDisk(room=1 << 20)

    async def steps(pilot):
        on_disk(monkeypatch, disk)
        await pilot.press("r", "e")  # Ada rolls and ends her turn: the bot is to play
        screen = pilot.app.screen
        assert isinstance(screen, WagerScreen) and screen.is_bot_turn()
        disk.room = 0
        before = len(session.events)
        await pilot.press("space")  # would loop forever if a failed move counted as played
        stuck = screen_text(pilot.app)
        assert len(session.events) == before
        disk.room = 1 << 20
        await pilot.press("space")
        return stuck, screen.is_bot_turn()

    stuck, bot_still_to_play = drive(DicehallApp(session=session), steps)
    assert "Not now: disk full" in stuck and not bot_still_to_play


# --- a huge file of tiny records ----------------------------------------------------------------

def peak_reading(pairs: int) -> tuple[int, int, int]:
    """A tower save (one pull) with `pairs` undo-redo pairs after it, in a home of its own, loaded and
    listed under tracemalloc: the traced peak, the file's size and the undos the load counted."""
    session = good_tower("big", pulls=1)
    pair = saves.frame({"op": "undo"}) + saves.frame({"op": "redo"})
    with open(session.journal.path, "ab") as handle:
        handle.write(pair * pairs)
    import threading

    from tests.apphelpers import eventually
    # tracemalloc counts every thread's allocations: an earlier test's background work (the wager
    # screen's odds, the journal's figures, made in threads that outlive their app) is let finish
    eventually(lambda: threading.active_count() == 1,
               lambda: f"threads still running: {[thread.name for thread in threading.enumerate()]}", 60)
    tracemalloc.start()
    try:
        loaded = saves.load_readonly(session.labels.save_id)
        [info] = saves.list_saves()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert loaded.state == session.state and info.problem is None
    return peak, session.journal.path.stat().st_size, loaded.undos


def test_a_big_save_of_tiny_records_is_read_in_memory_far_below_its_size(monkeypatch, tmp_path):
    """A save is read a record at a time: the peak is a read buffer and the game, not the file. The
    peak of a save of one pair is the game's; a 128 KiB save of the same records may add only a small
    part of its size to it (before: the whole file, then a tuple per record, about 12 times the size)."""
    monkeypatch.setattr(saves.framing, "READ_CHUNK", 4 * 1024)
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "small"))
    game_peak, _, undos = peak_reading(1)
    assert undos == 1
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "big"))
    pairs = 128 * 1024 // len(saves.frame({"op": "undo"}) + saves.frame({"op": "redo"}))
    peak, size, undos = peak_reading(pairs)
    assert undos == pairs
    assert peak - game_peak < size / 4


def test_a_save_over_the_size_cap_is_one_line(home):
    good = good_tower("fine")
    with open(saves.saves_dir() / "huge.dhs", "wb") as handle:
        handle.truncate(saves.MAX_FILE + 1)  # sparse: takes no room
    infos = {info.id: info for info in saves.list_saves()}
    assert infos["huge"].problem == f"huge: the file is too large to be a save ({saves.MAX_FILE + 1} bytes)"
    assert infos[good.labels.save_id].problem is None


def test_a_towers_bot_answer_that_cannot_be_saved_waits_for_enter(monkeypatch):
    from dicehall.engine.games.towers import Place, parse_square
    from dicehall.tui.screens.towers import TowersScreen

    players = [Player("You"), Player("Bot", True, "easy")]
    session = saves.new_save("towers", name="bot full", seed=2, players=players)
    probe = engine.new_session("towers", seed=2, players=players)
    mine = list(probe.play(Place(parse_square("d5"))))
    disk = FullDisk(room=len(saves.frame(saves.encode_record({"op": "play", "by": 0, "events": mine}))))

    async def steps(pilot):
        on_disk(monkeypatch, disk)
        screen = pilot.app.screen
        assert isinstance(screen, TowersScreen)
        await pilot.press("enter")  # the cursor starts on d5: that move fits, the bot's answer does not
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        stalled = screen_text(pilot.app)
        assert session.state.placed == 1 and screen.bot_to_act()
        disk.room = 1 << 20
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        return stalled

    stalled = drive(DicehallApp(session=session), steps)
    assert "Not now: disk full: the bot's move was not saved; make room, then press Enter" in stalled
    assert session.state.placed == 2
    on_disk(monkeypatch, os)
    assert saves.load_readonly(session.labels.save_id).events == session.events


def test_a_branch_on_a_full_disk_leaves_no_file(monkeypatch, home):
    session = good_tower("trunk", pulls=4)
    on_disk(monkeypatch, FullDisk(room=40))  # the branch is written at once: 40 bytes of it fit
    with pytest.raises(saves.SaveError, match=r"could not make the branch \(disk full\); no file was left behind"):
        saves.branch_save(saves.load_readonly(session.labels.save_id), 6)
    on_disk(monkeypatch, os)
    assert [path.name for path in (home / "saves").iterdir()] == [session.journal.path.name]
