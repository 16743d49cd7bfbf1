"""The hall's archive in the app, at 80x24, by keys only: the lobby's news line says the last result
(names as text, never markup), `a` opens the archive, p/g/d/o filter it and c clears, Enter opens a
game in the viewer with its analysis started, x and t write it by name into the replays folder
(on a box the player's own), and an index that was off is said once in the status line."""
from __future__ import annotations

import os
import threading

from dicehall.saves.hall.archive_index import index_path, read_index
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.hall.archive import HallArchiveScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.viewer import ViewerScreen
from tests.apphelpers import drive, screen_text, until
from tests.test_hall_lobby import hall, status  # noqa: F401  (hall: the fixture, a hall in DICEHALL_HALL)
from tests.test_hall_scores import towers

HOSTILE = "[bold red]Eve[/]\x1b[2J"


async def archive_open(pilot):
    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "news:" in screen_text(pilot.app))
    news = screen_text(pilot.app).splitlines()[1]
    await pilot.press("a")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallArchiveScreen) and pilot.app.screen.archive is not None)
    await pilot.pause()  # the footer follows the keys now possible
    return news


def test_the_news_line_then_the_archive_browsed_and_filtered_by_keys(hall):
    first = towers(hall, "Ann", "Bob")
    last = towers(hall, HOSTILE, "Ann")

    async def steps(pilot):
        news = await archive_open(pilot)
        seen = {"all": screen_text(pilot.app)}
        for keys, name in (("p", "first player"), ("p", "second player"), ("oo", "lost"), ("c", "cleared"),
                           ("g", "towers"), ("d", "a day"), ("D", "any day")):
            for key in keys:
                await pilot.press(key)
            seen[name] = screen_text(pilot.app)
        return news, seen

    news, seen = drive(DicehallApp(), steps)
    assert news.startswith(" news: [bold red]Eve[/][2J beat Ann at Towers, 3 to 2 (")  # plain text, no escape
    lines = seen["all"].splitlines()
    assert lines[0].strip() == "The hall's archive: 2 finished games"
    assert lines[1].strip() == "player: all (p)  game: all (g)  days: any day (d)  result: any (o)  c clears"
    rows = [line for line in lines if first in line or last in line]
    assert last in rows[0] and "[bold red]Eve[/][2J beat Ann at Towers, 3 to 2" in rows[0]  # the latest first
    assert first in rows[1] and "Ann beat Bob at Towers, 3 to 2" in rows[1]
    assert "\x1b" not in seen["all"] and "Open" in lines[-1] and "Export" in lines[-1] and "Help" in lines[-1]
    # p steps through the players in alphabetical order, whatever their case ("[" sorts before "a")
    assert "player: [bold red]Eve[/][2J (p)" in seen["first player"] and first not in seen["first player"]
    assert "player: Ann (p)" in seen["second player"] and "The hall's archive: 2 finished games" in seen["second player"]
    assert "result: lost (o)" in seen["lost"] and "1 of 2 finished games" in seen["lost"]  # Ann lost to Eve
    assert last in seen["lost"] and first not in seen["lost"] and "result: lost (Ann's): 1 game listed" in seen["lost"]
    assert "player: all (p)" in seen["cleared"] and first in seen["cleared"] and last in seen["cleared"]
    assert "game: Towers (g)" in seen["towers"] and "days: the last 24 hours (d)" in seen["a day"]
    assert "days: any day (d)" in seen["any day"] and first in seen["any day"]


def test_enter_opens_the_viewer_with_its_analysis_and_q_comes_back(hall):
    tower = hall.host("dicetower", ["player"], "Ann")  # a game quick to play and to analyse
    while not tower.finished:
        tower.play(tower.session.commands()[0])
    tower.close()
    game = tower.id

    async def steps(pilot):
        await archive_open(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ViewerScreen))
        viewer = pilot.app.screen
        await until(pilot, lambda: viewer.analysis is not None and not viewer.analysis_running)  # as if a were pressed
        opened = viewer.session.labels.save_id, viewer.session.outcome is not None, viewer.analysis_shown
        await pilot.press("q")
        await pilot.pause()
        return opened, pilot.app.screen

    (save_id, over, shown), back = drive(DicehallApp(), steps)
    assert save_id == game and over and shown and isinstance(back, HallArchiveScreen)


def test_on_a_box_x_and_t_write_by_name_into_the_players_replays_folder(hall, monkeypatch, tmp_path):
    game = towers(hall, "Ann", "Bob")
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    replays = tmp_path / "dicehall-home" / "players" / "ann" / "replays"

    async def steps(pilot):
        await archive_open(pilot)
        said = []
        for key in ("x", "t"):
            await pilot.press(key)
            await until(pilot, lambda: status(pilot.app).startswith("wrote"))
            said.append(status(pilot.app))
        await pilot.press("x")  # again: the file is there, and is never replaced unasked
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.pause()
        said.append(status(pilot.app))
        return said

    said = drive(DicehallApp(), steps)
    assert said == [f"wrote hall-{game}.dhr into your replays folder", f"wrote hall-{game}.dht into your replays folder",
                    "not written: the file is kept"]
    assert sorted(os.listdir(replays)) == [f"hall-{game}.dhr", f"hall-{game}.dht"]
    assert (replays / f"hall-{game}.dht").read_text().startswith("[Game \"towers\"]")


def test_an_index_that_was_off_is_said_once_in_the_status_line(hall):
    towers(hall, "Ann", "Bob")
    from dicehall.saves.hall.archive import hall_archive

    hall_archive(hall)
    info = os.stat(hall.games)
    index_path((info.st_dev, info.st_ino)).write_bytes(b"\xc1 not an index")

    async def steps(pilot):
        await archive_open(pilot)
        return status(pilot.app)

    said = drive(DicehallApp(), steps)
    assert said.startswith("the archive's index could not be read as one (damaged, or not dicehall's): rebuilt")



def test_the_reading_thread_keeps_the_folders_of_the_screen_that_started_it(hall, tmp_path, monkeypatch):
    """The reading runs in a thread that can outlive its screen (and a test's environment): the hall
    and the data folder it writes the index under are the ones resolved when the screen started it."""
    import dicehall.tui.screens.hall.archive as screen_module
    from dicehall.saves.files import home

    towers(hall, "Ann", "Bob")
    elsewhere = tmp_path / "elsewhere"
    started_home, real = home(), screen_module.hall_archive

    def read_after_the_environment_moved(*args, **kwargs):
        os.environ["DICEHALL_HOME"] = str(elsewhere / "home")  # as when a test's monkeypatch is undone
        os.environ["DICEHALL_HALL"] = str(elsewhere / "hall")
        return real(*args, **kwargs)

    monkeypatch.setattr(screen_module, "hall_archive", read_after_the_environment_moved)  # (both variables are
    # the fixtures' monkeypatched ones: restored after the test)

    async def steps(pilot):
        await archive_open(pilot)
        return len(pilot.app.screen.archive.games)

    assert drive(DicehallApp(), steps) == 1  # the game of the hall the screen was opened on
    info = os.stat(hall.games)
    assert index_path((info.st_dev, info.st_ino), started_home).exists()
    assert not elsewhere.exists()  # nothing written where the environment pointed later

# ----- a large hall's first reading: its progress, and leaving it -----
def large_hall(hall, monkeypatch, logs: int = 40):
    """A hall of many logs, cheaply: one finished game and `logs` damaged files (each read as a log,
    in well under a millisecond), with the archive's reading of a log counted and held, at the
    `hold_at`-th log, until the test lets it go: (the ids read in order, the gate's events)."""
    from dicehall.saves.hall import archive

    towers(hall, "Ann", "Bob")
    for n in range(logs):
        (hall.games / f"bulk{n:02d}.dhh").write_bytes(b"DHSAV not a log")
    read, held, go = [], threading.Event(), threading.Event()
    real = archive._read_game

    def counted_read(hall, game_id, key, owner):
        read.append(game_id)
        if len(read) == gate["hold_at"]:
            held.set()
            assert go.wait(60)  # a guard: the test lets it go at once
        return real(hall, game_id, key, owner)

    gate = {"hold_at": 1, "held": held, "go": go}
    monkeypatch.setattr(archive, "_read_game", counted_read)
    return read, gate


def test_the_first_reading_says_how_far_it_is(hall, monkeypatch):
    read, gate = large_hall(hall, monkeypatch)
    gate["hold_at"] = 2  # the first log is read and told

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "news:" in screen_text(pilot.app))
        await pilot.press("a")
        await until(pilot, lambda: "reading 1 of 41 games..." in screen_text(pilot.app))  # held at the second log
        reading = status(pilot.app)
        gate["go"].set()
        await until(pilot, lambda: pilot.app.screen.archive is not None)
        return reading, pilot.app.screen.archive, status(pilot.app)

    reading, archive, after = drive(DicehallApp(), steps)
    assert reading == "reading 1 of 41 games..." and len(read) == 41
    assert (len(archive.games), archive.damaged) == (1, 40) and after == "not listed: 40 damaged"


def test_progress_is_told_at_most_four_times_a_second():
    from dicehall.tui.screens.hall.archive import Throttled

    now, posted = [0.0], []
    told = Throttled(posted.append, every=0.25, clock=lambda: now[0])
    for done, moment in enumerate((0.0, 0.1, 0.2, 0.3, 0.5, 0.55, 0.56), start=1):
        now[0] = moment
        told(done, 10_000)
    assert [(message.done, message.total) for message in posted] == [(1, 10_000), (4, 10_000), (6, 10_000)]


def test_leaving_the_archive_stops_its_reading_and_the_next_goes_on_from_there(hall, monkeypatch):
    read, gate = large_hall(hall, monkeypatch)
    gate["hold_at"] = 5
    info = os.stat(hall.games)
    index = index_path((info.st_dev, info.st_ino))

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "news:" in screen_text(pilot.app))
        await pilot.press("a")
        await until(pilot, gate["held"].is_set)  # the fifth log is being read
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        gate["go"].set()
        await until(pilot, index.exists)  # the reading stopped: the index of what was read is written
        first = list(read)
        kept = read_index((info.st_dev, info.st_ino), set(first)).rows
        await archive_open(pilot)
        return first, kept, read[len(first):], pilot.app.screen.archive

    first, kept, then, archive = drive(DicehallApp(), steps)
    assert len(first) == 5 and set(kept) == set(first)  # stopped before the sixth log; the five kept
    assert len(then) == 36 and not set(then) & set(first)  # the next reading went on with the others only
    assert (len(archive.games), archive.damaged) == (1, 40)
