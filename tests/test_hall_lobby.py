"""The hall in the app, at 80x24: the lobby lists the hall's games (a hostile file as one line,
names as plain text), watching opens the live viewer, a move made by another HallGame shows
(how soon: bench.py's hall row), stepping back stays put and counts the new moves, End returns to live, and a
watcher is counted while it watches and not after it leaves."""
from __future__ import annotations

import random

import pytest

from dicehall.saves.hall import Hall
from tests.apphelpers import drive, screen_text, settled, until
from tests.hallhelpers import play_until_over
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.screens.hall.watch import HallViewer
from dicehall.tui.widgets import StatusLine

HOSTILE_NAME = "[bold red]Eve[/]\x1b[2J"


@pytest.fixture
def hall(tmp_path, monkeypatch):
    folder = tmp_path / "hall"
    monkeypatch.setenv("DICEHALL_HALL", str(folder))
    return Hall(folder)


@pytest.fixture
def wager(hall):
    """A wager in progress between Eve (a hostile name) and Bob, with a bot; both stay seated."""
    eve = hall.host("wager", ["player", "open", "bot:bold"], HOSTILE_NAME)
    bob = hall.join(eve.id, name="Bob")
    eve.follow()
    yield {0: eve, 1: bob}
    for game in (eve, bob):
        game.close()


def move(games: dict, rng: random.Random) -> int:
    """One decision by whoever is to act (a bot's turn by the first seat); the events then."""
    for game in games.values():
        game.follow()
    first = next(iter(games.values()))
    mover = games.get(first.to_act, first)
    mover.play(rng.choice(mover.session.commands()))
    return len(mover.session.events)


def status(app) -> str:
    return app.screen.query_one(StatusLine).message


def test_the_lobby_lists_games_names_as_plain_text_and_a_hostile_file_as_one_line(hall, wager):
    (hall.games / "evil.dhh").write_bytes(b"\x1b[31m not a game")
    (hall.games / "qqqqqq.dhh").write_bytes(b"DHSAV garbage")
    game_id = wager[0].id

    async def steps(pilot):
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HallScreen)
        text = screen_text(pilot.app)
        await pilot.press("q")
        await pilot.pause()
        return text, pilot.app.screen

    text, back = drive(DicehallApp(), steps)
    lines = text.splitlines()
    assert "The hall: 1 in progress, 0 finished" in lines[0]
    row = next(n for n, line in enumerate(lines) if game_id in line)
    assert "Dead Man's Wager" in lines[row] and "in progress" in lines[row]
    assert "1 [bold red]Eve[/][2J, 2 Bob, 3 Bot 3 (bot)" in lines[row + 1]  # as typed: never markup, no escape
    damaged = [line for line in lines if "DAMAGED" in line]
    assert len(damaged) == 2 and any("evil.dhh" in line for line in damaged) and any("qqqqqq" in line for line in damaged)
    assert "\x1b" not in text
    assert "Watch" in lines[-1] and "Join" not in lines[-1]  # every seat is taken
    assert type(back).__name__ == "LauncherScreen"


def test_keys_the_damaged_line_cannot_take_are_left_out_and_say_why(hall):
    (hall.games.mkdir(parents=True))
    (hall.games / "qqqqqq.dhh").write_bytes(b"DHSAV garbage")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        footer = (await settled(pilot)).splitlines()[-1]
        await pilot.press("enter")
        await pilot.pause()
        return footer, status(pilot.app), pilot.app.screen

    footer, said, screen = drive(DicehallApp(), steps)
    assert "Watch" not in footer and "Join" not in footer and "Refresh" in footer
    assert said.startswith("Not now: qqqqqq is not a good game")
    assert isinstance(screen, HallScreen)


def test_the_lobby_follows_the_hall_by_itself(hall, wager):
    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        assert "Towers" not in screen_text(pilot.app)
        later = hall.host("towers", ["player", "open"], "Cat")
        try:
            await until(pilot, lambda: "Towers" in screen_text(pilot.app))  # how soon: bench.py --only hall
            return screen_text(pilot.app)
        finally:
            later.close()

    assert "Towers" in drive(DicehallApp(), steps)


def test_watching_follows_new_moves_live_and_counts_the_watcher(hall, wager):
    rng = random.Random(5)
    move(wager, rng)
    game_id = wager[0].id

    async def steps(pilot):
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        viewer = pilot.app.screen
        assert isinstance(viewer, HallViewer)
        assert hall.entry(game_id).watchers == 1
        assert "LIVE" in screen_text(pilot.app) and f"Watching {game_id}" in screen_text(pilot.app)
        footer = screen_text(pilot.app).splitlines()[-1]
        for _ in range(3):
            before = len(viewer.session.events)
            total = move(wager, rng)
            await until(pilot, lambda: len(viewer.session.events) == total)  # how soon: bench.py --only hall
            assert viewer.position == total > before  # at the live end it follows
            assert f"event {total}/{total}" in screen_text(pilot.app)
        await pilot.press("q")  # back to the lobby: no longer watching
        await pilot.pause()
        assert isinstance(pilot.app.screen, HallScreen)
        await until(pilot, lambda: hall.entry(game_id).watchers == 0)
        return footer

    footer = drive(DicehallApp(), steps)
    # keys that would act in the game do not exist; those that would tell more than the players see wait
    for absent in ("Reveal", "Analyse", "Branch", "Live"):
        assert absent not in footer


def test_stepped_back_the_view_stays_put_counts_new_moves_and_end_returns_to_live(hall, wager):
    rng = random.Random(8)
    for _ in range(3):
        move(wager, rng)

    async def steps(pilot):
        pilot.app.watch_hall_game(wager[0].id)
        await pilot.pause()
        viewer = pilot.app.screen
        await pilot.press("left", "left")
        held = viewer.position
        assert "Follow live" in screen_text(pilot.app).splitlines()[-1]
        for _ in range(3):
            total = move(wager, rng)
        await until(pilot, lambda: len(viewer.session.events) == total)
        stayed = viewer.position
        said = status(pilot.app)
        await pilot.press("end")
        await pilot.pause()
        live = viewer.position, status(pilot.app)
        newest = move(wager, rng)
        await until(pilot, lambda: viewer.position == newest)
        await pilot.press("left")
        await pilot.press("f")
        await pilot.pause()
        return held, stayed, said, total, live, viewer.position, len(viewer.session.events)

    held, stayed, said, total, live, after_l, events = drive(DicehallApp(), steps)
    assert stayed == held
    assert said == "3 new moves: End to follow"
    assert live == (total, "live: each move shows as it is made")
    assert after_l == events


def test_a_move_refused_to_a_watcher_does_not_exist_and_the_end_of_the_game_is_said(hall):
    rng = random.Random(2)
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")

    async def steps(pilot):
        pilot.app.watch_hall_game(bots.id)
        await pilot.pause()
        viewer = pilot.app.screen
        play_until_over({0: bots}, rng)
        await until(pilot, lambda: viewer.replayed)
        await pilot.pause()
        return status(pilot.app), screen_text(pilot.app), viewer

    said, text, viewer = drive(DicehallApp(), steps)
    bots.close()
    assert said.startswith("the game is over: ")
    assert "; over)" in text.splitlines()[0]
    assert viewer.session.seed is not None  # reloaded with the revealed seed: c branches with the same dice
    assert "c Branch" in text.splitlines()[-1]


def test_a_finished_game_opens_as_a_replay(hall):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(3))
    bots.close()

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        return pilot.app.screen, screen_text(pilot.app)

    screen, text = drive(DicehallApp(), steps)
    assert type(screen) is ViewerScreen and text.splitlines()[0].strip().startswith("Replay: Dead Man's Wager")
    assert hall.entry(bots.id).watchers == 0


def test_dicehall_watch_off_a_terminal_still_prints_lines(hall, capsys):
    from dicehall.cli import main

    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    assert main(["watch", bots.id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"watching Dead Man's Wager {bots.id}") and "over: " in out


def test_a_watcher_of_a_live_troll_game_gets_no_spoilers_until_it_ends(hall):
    """A player could watch their own game from another terminal: the hidden cards (r) and the
    hindsight solver (H, l, j), which both look at them, wait for the end of the game."""
    game = hall.host("troll", ["player"], "x")

    async def steps(pilot):
        pilot.app.watch_hall_game(game.id)
        await pilot.pause()
        said = {}
        for key in ("r", "H", "l", "j"):
            await pilot.press(key)
            await pilot.pause()
            said[key] = status(pilot.app)
        return said, type(pilot.app.screen)

    said, screen = drive(DicehallApp(), steps)
    game.close()
    assert screen is HallViewer
    assert "the hidden cards stay hidden until the game is over" in said["r"]
    for key in ("H", "l", "j"):
        assert "the hindsight solver waits: it looks at the hidden cards" in said[key], said[key]


def test_j_in_the_lobby_takes_the_open_seat_and_opens_the_games_screen(hall):
    cat = hall.host("towers", ["player", "open"], "Cat")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        await pilot.press("j")
        await pilot.pause()
        for key in "Dan":
            await pilot.press(key)
        await pilot.press("enter")
        await until(pilot, lambda: hasattr(pilot.app.screen, "hall_refresh"))
        seated = [view.words() for view in pilot.app.hall_game.seats()]
        return seated, screen_text(pilot.app)

    try:
        seated, text = drive(DicehallApp(), steps)
    finally:
        cat.close()
    assert [words.split(" (")[0] for words in seated] == ["Cat", "Dan"], seated
    assert "Towers" in text
    assert hall.entry(cat.id).seats[1].name == "Dan"


def test_two_bots_are_told_apart_in_the_lobby_and_on_the_screen_that_watches_them(hall):
    bots = hall.host("towers", ["bot:easy", "bot:hard"], "")
    for _ in range(2):
        bots.play(bots.session.commands()[0])

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        lobby = screen_text(pilot.app)
        await pilot.press("enter")
        await pilot.pause()
        return lobby, screen_text(pilot.app)

    lobby, watched = drive(DicehallApp(), steps)
    bots.close()
    assert "seats: 1 Bot 1 (bot), 2 Bot 2 (bot)" in lobby
    assert "Bot 1 (Light) places tower 1 of 8" in watched and "Bot 2 (Dark) places tower 1 of 8" in watched


def test_the_game_under_the_cursor_is_named_by_who_plays_it_as_the_json_names_it(hall, wager):
    finished = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    play_until_over({0: finished}, random.Random(5))
    finished.close()

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await pilot.pause()
        said = {}
        for _ in range(2):
            said[pilot.app.screen.current().id] = status(pilot.app)
            await pilot.press("down")
            await pilot.pause()
        return said

    said = drive(DicehallApp(), steps)
    game_id = wager[0].id
    assert hall.entry(game_id).name == "[bold red]Eve[/][2J v Bob v Bot 3"
    assert said[game_id] == f"{game_id}: Dead Man's Wager, [bold red]Eve[/][2J v Bob v Bot 3, in progress; Enter watches"
    assert said[finished.id] == f"{finished.id}: Dead Man's Wager, Bot 1 v Bot 2, over; Enter opens it as a replay"


# ----- a look at a hall of finished games reads only what changed -----
def finished_wager(hall, name: str) -> str:
    """A wager of a person against a bot, played to its end; its id."""
    game = hall.host("wager", ["player", "bot:cautious"], name)
    play_until_over({0: game}, random.Random(len(name)))
    game.close()
    return game.id


def test_a_look_reads_no_unchanged_finished_log_twice_and_a_changed_one_again(hall, monkeypatch):
    import os

    from dicehall.saves.hall import log as hall_log

    finished = [finished_wager(hall, name) for name in ("Ann", "Bob", "Cy")]
    opened: list[str] = []
    real_open = hall_log.open_nofollow

    def counted_open(path, *args, **kwargs):
        opened.append(os.path.basename(str(path)))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(hall_log, "open_nofollow", counted_open)

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        lobby = pilot.app.screen
        await until(pilot, lambda: len(lobby.entries) == 3)
        first = list(opened)
        for _ in range(3):
            lobby.look()
        unchanged = list(opened)
        changed = hall.games / f"{finished[0]}.dhh"
        stamp = changed.stat().st_mtime_ns + 5_000_000_000
        os.utime(changed, ns=(stamp, stamp))  # the same bytes, another file's identity: read again
        lobby.look()
        return first, unchanged, list(opened), lobby.look()[3]

    first, unchanged, after_change, news = drive(DicehallApp(), steps)
    assert sorted(first) == sorted(f"{game_id}.dhh" for game_id in finished)  # each log read once to list it
    assert unchanged == first  # three more looks: no log opened
    assert after_change[len(first):] == [f"{finished[0]}.dhh"]  # only the touched log, once
    assert news.startswith("news: ")  # the news line still has the last result


def test_a_big_hall_opens_at_once_and_is_listed_by_the_thread(hall, monkeypatch):
    from dicehall.tui.screens.hall import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "FIRST_FRAME_LOGS", 0)  # this hall of one game counts as big
    finished = finished_wager(hall, "Ann")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        lobby = pilot.app.screen
        await until(pilot, lambda: [entry.id for entry in lobby.entries] == [finished])
        return lobby.small, screen_text(pilot.app)

    small, text = drive(DicehallApp(), steps)
    assert not small  # the first frame did not list it: the thread did
    news = next(line for line in text.splitlines() if line.strip().startswith("news: "))
    assert "1 finished" in text and "Ann" in news  # the hall's seed is secret: either side may have won
