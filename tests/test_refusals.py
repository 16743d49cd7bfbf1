"""Refusals in words (issue #20, items 7, 9, 10): one root for dicehall's errors, the app surviving
every hall fault with one line, a full disk and a folder it may not write worded as the saves word
them, never a raw errno or a whole path, and the hall ids taken wherever a finished game is read."""
from __future__ import annotations

import asyncio
import errno
import importlib
import inspect
import os
import pkgutil
import random
from pathlib import Path

import pytest

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.codec import encode_event
from dicehall.engine.errors import DicehallError
from dicehall import durable
from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves import hall as hallmod
from dicehall.saves.hall import Hall, HallError, SeatHeld
from tests.apphelpers import drive, screen_text, until
from tests.hallhelpers import play_until_over
from dicehall.tui.app import DicehallApp
from dicehall.cli import main
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.hall.watch import HallViewer
from dicehall.tui.widgets import StatusLine

ROOT = Path(__file__).parent.parent
# exceptions that never reach a player: each is caught where it is raised, to stop a search
CONTROL_FLOW = {"dicehall.engine.bots.towers.OutOfNodes", "dicehall.engine.codec._WrongType",
                "dicehall.engine.analysis.troll_solver._OutOfBudget", "dicehall.tui.screens.viewer.analysis.AnalysisStopped",
                "dicehall.saves.hall.archive.ArchiveStopped",  # the archive screen left: its worker ends quietly
                "dicehall.engine.analysis.pool._Broken"}  # the pool lost: caught at once, the rest on one core


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


def status(app) -> str:
    return app.screen.query_one(StatusLine).message


def one_line(text: str) -> str:
    assert text and "\n" not in text.strip() and "Errno" not in text and "Traceback" not in text, text
    return text


# ----- one root -----
def every_error_class() -> dict[str, type]:
    """Every exception class defined in dicehall's packages, by its dotted name."""
    found = {}
    for top in ("engine", "saves", "replays", "tui", "dicehall"):
        top = top if top == "dicehall" else f"dicehall.{top}"
        package = importlib.import_module(top)
        names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".")]
        for name in names:
            module = importlib.import_module(name)
            for value in vars(module).values():
                if (inspect.isclass(value) and issubclass(value, BaseException)
                        and value.__module__ == name):
                    found[f"{name}.{value.__qualname__}"] = value
    return found


def test_every_error_dicehall_raises_to_a_player_derives_from_dicehall_error():
    classes = every_error_class()
    assert {"dicehall.saves.hall.errors.SeatHeld", "dicehall.saves.hall.errors.StaleState", "dicehall.engine.core.IllegalCommand", "dicehall.replays.ReplayError",
            "dicehall.saves.errors.SaveError", "dicehall.engine.log.LogError", "dicehall.cli.args.UsageError"} <= set(classes)
    assert CONTROL_FLOW <= set(classes)  # a name here that no longer exists is a stale exemption
    outside = sorted(name for name, cls in classes.items()
                     if name not in CONTROL_FLOW and not issubclass(cls, DicehallError))
    assert outside == []
    # the ValueError base is kept where callers catch ValueError
    for cls in (engine.IllegalCommand, engine.LogError, replays.ReplayError, hallmod.HallRecordError):
        assert issubclass(cls, ValueError)
    assert issubclass(SeatHeld, HallError) and issubclass(HallError, saves.SaveError)


@pytest.mark.parametrize("refuse", [lambda: engine.get_game("chess"),
                                    lambda: engine.new_session("towers", options={"colour": "red"}),
                                    lambda: engine.new_session("wager", players=["Ann"]),
                                    lambda: engine.new_session("troll", options={"difficulty": "hard"}),
                                    lambda: engine.new_session("bones", players=["Ann", "Bob", "Cat"]),
                                    lambda: engine.new_session("dicetower", options={"start": 0})])
def test_an_option_seat_or_game_dicehall_does_not_have_is_a_dicehall_error_and_still_a_value_error(refuse):
    with pytest.raises(DicehallError) as refused:
        refuse()
    assert isinstance(refused.value, ValueError) and one_line(str(refused.value))


def test_watching_a_game_an_empty_hall_does_not_have_is_one_line(hall):
    async def steps(pilot):
        said = pilot.app.watch_hall_game("abcdef")
        await pilot.pause()
        return said, pilot.app.is_running

    said, running = drive(DicehallApp(), steps)
    assert one_line(said) == "no hall game abcdef (dicehall hall lists them)" and running


def test_a_watchers_folder_that_is_a_symbolic_link_is_refused_in_one_line_from_the_lobby(hall, tmp_path):
    ann = hall.host("towers", ["player", "open"], "Ann")
    ann.close()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, hall.games / f"{ann.id}.watchers")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen(hall))
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        return pilot.app.screen, status(pilot.app)

    screen, said = drive(DicehallApp(), steps)
    assert isinstance(screen, HallScreen)
    assert one_line(said) == f"Not now: games/{ann.id}.watchers: a symbolic link: refused"
    assert list(elsewhere.iterdir()) == []  # no watcher's file made through the link


# ----- the app survives every hall fault with one line -----
def append_record(hall, game_id: str, record: dict) -> None:
    """A record written straight into the log, as another (hostile or broken) process would."""
    with open(hall.games / f"{game_id}.dhh", "ab") as log:
        log.write(frame(record))


def test_a_move_by_a_seat_not_to_act_appended_while_watching_says_damaged_and_keeps_what_was_good(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    rng = random.Random(5)
    for _ in range(3):
        for game in (ann, bob):
            game.follow()
        mover = ann if ann.my_turn else bob
        mover.play(rng.choice(mover.session.commands()))
    for game in (ann, bob):
        game.follow()
    waiting = 1 - ann.to_act  # the seat that is not to act
    last = ann.session.events[-1]
    good = len(ann.session.events)

    async def steps(pilot):
        assert pilot.app.watch_hall_game(ann.id) is None
        await pilot.pause()
        viewer = pilot.app.screen
        assert isinstance(viewer, HallViewer)
        append_record(hall, ann.id, {"op": "play", "by": waiting, "events": [encode_event(last)]})
        await until(pilot, lambda: not viewer.following)
        return viewer, status(pilot.app), pilot.app.screen, screen_text(pilot.app)

    try:
        viewer, said, screen, text = drive(DicehallApp(), steps)
    finally:
        ann.close(), bob.close()
    assert screen is viewer and not viewer.following
    assert one_line(said).startswith("Not now: the game's log is damaged from here: ")
    assert "a move by a player whose turn it is not" in said and "what came before stays" in said
    assert len(viewer.session.events) == good and viewer.position == good  # what was good stays shown
    assert "Towers" in text


def drop_reveal(path: Path) -> None:
    """The log rewritten without its reveal record: a game that ended and was never revealed."""
    parsed = parse_save(path.read_bytes(), "x")
    kept = [r for r in parsed.records if r.get("op") != "reveal"]
    assert len(kept) == len(parsed.records) - 1
    path.write_bytes(MAGIC + frame(parsed.header) + b"".join(frame(r) for r in kept))


def test_enter_on_a_finished_game_whose_seed_was_never_revealed_is_one_line(hall):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(3))
    bots.close()
    drop_reveal(hall.games / f"{bots.id}.dhh")
    assert not (hall.secrets / bots.id).exists()

    async def steps(pilot):
        pilot.app.push_screen(HallScreen(hall))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        return pilot.app.screen, status(pilot.app)

    screen, said = drive(DicehallApp(), steps)
    assert isinstance(screen, HallScreen)
    assert one_line(said) == f"Not now: {bots.id}: the game is over but its seed was never revealed"


def test_the_lobby_opens_on_a_hall_whose_games_is_not_a_folder_and_says_so(hall):
    hall.folder.mkdir(parents=True)
    hall.games.write_text("not a folder")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen(hall))
        await pilot.pause()
        first = status(pilot.app)
        await pilot.press("r")
        await pilot.pause()
        return pilot.app.screen, first, status(pilot.app)

    screen, first, again = drive(DicehallApp(), steps)
    assert isinstance(screen, HallScreen)
    assert one_line(first) == again == "Not now: games: not a folder: refused"


def test_j_when_only_other_peoples_disconnected_seats_are_left_is_one_line(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.close(), bob.close()  # both disconnected: their seats are theirs to take back, not Cat's

    async def steps(pilot):
        pilot.app.push_screen(HallScreen(hall))
        await pilot.pause()
        await pilot.press("j")
        await pilot.pause()
        for key in "Cat":
            await pilot.press(key)
        await pilot.press("enter")
        await pilot.pause()
        return pilot.app.screen, status(pilot.app), pilot.app.hall_game

    screen, said, seated = drive(DicehallApp(), steps)
    assert isinstance(screen, HallScreen) and seated is None
    assert one_line(said) == f"Not now: {ann.id} has no open seat: watch it with dicehall watch {ann.id}"


# ----- a full disk, a folder that cannot be written -----
class FullDisk:
    """The os module as the hall and durable writing see it: `writes` writes (write or pwrite) go
    through, then every one raises ENOSPC; `refuse` (bytes) makes only writes holding it fail."""

    def __init__(self, writes: int = 0, refuse: bytes | None = None):
        self.writes = writes
        self.refuse = refuse

    def __getattr__(self, name):
        return getattr(os, name)

    def _room(self, data) -> None:
        if self.refuse is not None:
            if self.refuse in bytes(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return
        if self.writes <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.writes -= 1

    def write(self, fd, data):
        self._room(data)
        return os.write(fd, data)

    def pwrite(self, fd, data, offset):
        self._room(data)
        return os.pwrite(fd, data, offset)


def on_disk(monkeypatch, disk) -> None:
    for module in (saves.files, saves.index, saves.store, saves.manage, hallmod.files, hallmod.folder, hallmod.game,
                   hallmod.log, hallmod.seats, durable):
        monkeypatch.setattr(module, "os", disk)


def test_a_failed_join_on_a_full_disk_never_keeps_the_seat_locked(hall, monkeypatch):
    ann = hall.host("towers", ["player", "open"], "Ann")
    on_disk(monkeypatch, FullDisk())
    for _ in range(2):  # the same process tries again: the disk is still full, not "held by"
        with pytest.raises(HallError) as refused:
            hall.join(ann.id, name="Bob")
        assert str(refused.value) == "disk full: no seat was taken; make room and try again"
    assert not hall.seat_held(ann.id, 1)
    on_disk(monkeypatch, os)  # space is back
    bob = hall.join(ann.id, name="Bob")
    assert bob.seat == 1 and hall.seat_held(ann.id, 1)
    ann.close(), bob.close()


@pytest.mark.parametrize("writes", [0, 1, 2, 3])
def test_a_failed_host_on_a_full_disk_leaves_nothing_behind(hall, monkeypatch, writes):
    """writes 0: the secret fails; 1: the log; 2: the seat's holder line (not needed), then the
    seat's record; 3: the seat's record."""
    on_disk(monkeypatch, FullDisk(writes))
    with pytest.raises(HallError) as refused:
        hall.host("towers", ["player", "open"], "Ann")
    assert str(refused.value) == "disk full: the game was not opened; make room and try again"
    assert list(hall.secrets.iterdir()) == [] and list(hall.games.iterdir()) == []
    on_disk(monkeypatch, os)
    ann = hall.host("towers", ["player", "open"], "Ann")
    assert [e.id for e in hall.listing()] == [ann.id]
    ann.close()


def test_a_full_disk_at_the_reveal_keeps_the_last_move_says_so_and_the_next_reader_reveals(hall, monkeypatch):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    on_disk(monkeypatch, FullDisk(refuse=b"reveal"))  # every write goes through but the reveal's
    play_until_over({0: ann, 1: bob}, random.Random(6))  # the last move raises nothing
    assert ann.finished and ann.fold.revealed is None and (hall.secrets / ann.id).exists()
    assert ann.held_back == ("the game is over and every move is in its log, but its seed is not revealed yet "
                             "(disk full): the next look at the game does it")
    moves = len(ann.session.events)
    with pytest.raises(HallError, match="the game is over but its seed was never revealed"):
        hall.finished_session(ann.id)  # still full: nothing to reveal with
    on_disk(monkeypatch, os)  # space is back: the next reader reveals it
    assert hall.verify(ann.id).startswith(f"ok: hall game {ann.id}")
    assert not (hall.secrets / ann.id).exists()
    ann.follow()
    assert ann.fold.revealed is not None and len(ann.session.events) == moves and ann.held_back == ""
    ann.close(), bob.close()


def test_a_full_disk_at_the_reveal_is_said_on_the_game_screen(hall, monkeypatch):
    """The last move made on the game's screen: the game is over, and the status line says why the
    seed waits (not "nothing was written")."""
    ann = hall.host("dicetower", ["player"], "Ann")
    rng = random.Random(1)
    history = []  # (records before the move, the move)
    while not ann.finished:
        command = rng.choice(ann.session.commands())
        history.append((ann.fold.count, command))
        ann.play(command)
    seed = ann.fold.revealed
    ann.close()
    before, last = history[-1]
    log = hall.games / f"{ann.id}.dhh"  # the log again as it stood before the last move, the secret back
    parsed = parse_save(log.read_bytes(), "x")
    log.write_bytes(MAGIC + frame(parsed.header) + b"".join(frame(r) for r in parsed.records[:before]))
    (hall.secrets / ann.id).write_text(str(seed))
    game = hall.join(ann.id, name="Ann")
    app = DicehallApp(hall_game=game)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            try:
                on_disk(monkeypatch, FullDisk(refuse=b"reveal"))
                assert pilot.app.screen.attempt(lambda: pilot.app.screen.session.play(last))
                await until(pilot, lambda: "not revealed yet" in status(pilot.app))
                return status(pilot.app), screen_text(pilot.app)
            finally:
                app.close_hall()

    said, text = asyncio.run(run())
    assert game.finished and one_line(said).startswith("Not now: the game is over and every move is in its log, but")
    assert "nothing was written" not in text
    on_disk(monkeypatch, os)
    assert hall.verify(ann.id).startswith(f"ok: hall game {ann.id}")


@pytest.mark.parametrize("torn", [False, True])
def test_a_play_on_a_full_disk_is_refused_in_words_and_the_game_goes_on(hall, monkeypatch, torn):
    """torn: the log ends in a cut-off append, which the writer keeps aside first (a write too)."""
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    mover = ann if ann.my_turn else bob
    if torn:
        with open(hall.games / f"{ann.id}.dhh", "ab") as log:
            log.write(frame({"op": "answer"})[:-3])
    events = mover.session.events
    command = mover.session.commands()[0]
    on_disk(monkeypatch, FullDisk())
    with pytest.raises(HallError) as refused:
        mover.play(command)
    assert str(refused.value) == "disk full: nothing was written; try again"
    assert mover.session.events == events
    on_disk(monkeypatch, os)
    mover.play(command)
    assert len(mover.session.events) > len(events)
    ann.close(), bob.close()


def test_host_on_a_full_disk_or_a_folder_it_may_not_write_is_one_worded_line(hall, monkeypatch, capsys):
    on_disk(monkeypatch, FullDisk())
    assert main(["--hall", str(hall.folder), "host", "towers"]) == 1
    assert capsys.readouterr().err == "dicehall: disk full: the game was not opened; make room and try again\n"
    on_disk(monkeypatch, os)
    hall.games.rmdir(), hall.secrets.rmdir()  # left empty by the failed host: made again below
    real_mkdir = os.mkdir

    def refused(path, *args, **kwargs):  # root is never refused by chmod: the kernel's answer, faked
        if Path(path).name in ("games", "secrets"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", refused)
    assert main(["--hall", str(hall.folder), "host", "towers"]) == 1
    err = capsys.readouterr().err
    assert err == ("dicehall: cannot write in the hall: permission denied on games (ask the box's admin); "
                   "the game was not opened\n")


def test_joining_a_game_whose_log_this_user_may_not_write_asks_for_the_admin(hall, monkeypatch, capsys):
    ann = hall.host("towers", ["player", "open"], "Ann")
    real_open = os.open

    def refused(path, flags, *args, **kwargs):  # root is never refused by chmod: the kernel's answer, faked
        if str(path).endswith(".dhh") and flags & os.O_RDWR:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    assert main(["--hall", str(hall.folder), "join", ann.id, "--name", "Bob"]) == 1
    assert capsys.readouterr().err == (f"dicehall: cannot write in the hall: permission denied on games/{ann.id}.dhh "
                                       f"(ask the box's admin)\n")
    assert main(["--hall", str(hall.folder), "hall"]) == 0  # reading is still allowed
    assert ann.id in capsys.readouterr().out
    ann.close()


def test_a_file_where_the_secrets_folder_should_be_is_named_relative_to_the_hall(hall, capsys):
    hall.folder.mkdir(parents=True)
    hall.secrets.write_text("in the way")
    assert main(["--hall", str(hall.folder), "host", "towers"]) == 1
    err = one_line(capsys.readouterr().err)
    assert err == "dicehall: secrets: not a folder: refused\n"
    assert str(hall.folder) not in err


def test_the_cli_words_a_raw_system_error_without_errno_or_path(monkeypatch, capsys):
    import dicehall.cli as cli

    def broken(args):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/some/where/deep/file.dhr")

    monkeypatch.setattr(cli, "_dispatch", broken)
    assert main(["saves"]) == 1
    assert capsys.readouterr().err == "dicehall: file.dhr: permission denied\n"


# ----- the hall's header -----
@pytest.mark.parametrize("field, value, words", [("hall", True, "not a hall game's log"),
                                                  ("rules", -1, "the header's rules version is not readable"),
                                                  ("rules", 0, "the header's rules version is not readable"),
                                                  ("rules", True, "the header's rules version is not readable")])
def test_a_header_with_a_bool_for_hall_or_a_rules_version_below_1_is_damaged(hall, field, value, words):
    ann = hall.host("towers", ["player", "open"], "Ann")
    ann.close()
    log = hall.games / f"{ann.id}.dhh"
    parsed = parse_save(log.read_bytes(), "x")
    log.write_bytes(MAGIC + frame(dict(parsed.header, **{field: value})) + b"".join(frame(r) for r in parsed.records))
    with pytest.raises(HallError, match=words):
        hall.open(ann.id)
    [entry] = hall.listing()
    assert entry.problem == f"{ann.id}: {words}"


@pytest.mark.parametrize("value", [-1, 0, True])
def test_a_save_or_a_replay_whose_rules_version_is_below_1_or_a_bool_is_refused(value, tmp_path):
    import msgpack

    session = saves.new_save("dicetower", name="crafted", seed=3)
    path = session.journal.path
    saves.close_save(session)
    parsed = parse_save(path.read_bytes(), "x")
    path.write_bytes(MAGIC + frame(dict(parsed.header, rules=value)) + b"".join(frame(r) for r in parsed.records))
    with pytest.raises(saves.SaveError, match="the header's rules version is not readable"):
        saves.load_readonly(session.labels.save_id)
    document = replays.seal(dict(replays.replay_document(engine.new_session("dicetower", seed=3)), rules=value))
    crafted = tmp_path / "crafted.dhr"
    crafted.write_bytes(msgpack.packb(document, use_bin_type=True))
    with pytest.raises(replays.ReplayError, match="rules"):
        replays.read_replay(crafted)


# ----- a finished hall game's id wherever a finished game is read -----
@pytest.fixture
def finished(hall):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(8))
    bots.close()
    return bots.id


def test_analyse_takes_a_finished_hall_games_id(hall, capsys):
    # the wager: the hall's record is the point, and its analysis is exact tables, not a search
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    play_until_over({0: ann, 1: bob}, random.Random(8))
    ann.close(), bob.close()
    assert main(["--hall", str(hall.folder), "analyse", ann.id]) == 0
    out = capsys.readouterr().out
    assert "Ann played" in out and "Bob played" in out


def test_analyse_and_replay_take_a_file_then_a_save_of_that_name_first(hall, finished, tmp_path, monkeypatch, capsys):
    session = saves.new_save("dicetower", name=finished, seed=3)  # a save named like the hall game
    saves.close_save(session)
    assert main(["--hall", str(hall.folder), "analyse", finished, "--json"]) == 0
    assert '"game": "dicetower"' in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    dicetower = engine.new_session("dicetower", seed=4)
    replays.write_replay(dicetower, tmp_path / finished)  # a replay file of that name, in the folder
    opened = []
    monkeypatch.setattr(DicehallApp, "run", lambda app: opened.append(app))  # no terminal in a test
    monkeypatch.setattr("dicehall.cli.terminal.missing_terminal", lambda: None, raising=False)  # as if on one
    assert main(["--hall", str(hall.folder), "replay", finished]) == 0
    assert opened[-1].start_replay.game.ID == "dicetower"
    (tmp_path / finished).unlink()
    assert main(["--hall", str(hall.folder), "replay", finished]) == 0
    assert opened[-1].start_replay.game.ID == "wager" and opened[-1].start_replay.labels.save_id == finished


def test_replay_and_analyse_of_an_unfinished_hall_game_are_one_line(hall, capsys):
    ann = hall.host("towers", ["player", "open"], "Ann")
    for command in ("replay", "analyse"):
        assert main(["--hall", str(hall.folder), command, ann.id]) == 1
        err = one_line(capsys.readouterr().err)
        assert err == f"dicehall: {ann.id}: the game is not over yet (its dice stay secret until it is)\n"
    ann.close()
