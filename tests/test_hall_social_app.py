"""Messages, idle seats and progress on the hall's screens at 80x24: the table, the live viewer,
the lobby, and `dicehall watch` off a terminal."""
from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

from dicehall.saves import hall as hallmod
from dicehall.saves.hall import Hall
from dicehall.saves.hall.chat import ChatRefused, HallChat, account_name
from tests.apphelpers import drive_hall as run, footer, screen_text, status, until
from tests.hallhelpers import play_until_over
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from dicehall.tui.screens.hall.talk import IdleScreen, MessagesScreen, chat_of
from dicehall.tui.screens.hall.watch import HallViewer


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


class Clock:
    """dicehall.saves.hall's clock (its `time` module only), moved on by hand; Textual's stays real."""

    def __init__(self, monkeypatch):
        self.offset = 0.0
        for room in (hallmod.follow, hallmod.idle, hallmod.log, hallmod.seats):  # each hall module with a clock
            monkeypatch.setattr(room, "time", self)

    def time(self) -> float:
        return time.time() + self.offset

    def __getattr__(self, name):
        return getattr(time, name)










async def type_text(pilot, text):
    for ch in text:
        await pilot.press({" ": "space", "[": "left_square_bracket", "]": "right_square_bracket", "/": "slash"}.get(ch, ch))


def bobs_turn(hall):
    """A Towers game between Ann and Bob where Bob is to move."""
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    games = {ann.seat: ann, bob.seat: bob}
    while True:
        ann.follow(), bob.follow()
        if ann.to_act == bob.seat:
            return ann, bob
        games[ann.to_act].play(games[ann.to_act].session.commands()[0])


class Stopped:
    """saves.hall.chat's clock stopped at one moment: the rate's ten seconds never pass, however slowly
    a busy machine types a line (the sixth line came after them under load, and was sent)."""

    at = time.time()

    def time(self) -> float:
        return self.at

    def __getattr__(self, name):
        return getattr(time, name)


def test_at_the_table_m_sends_a_line_lines_arrive_in_the_status_line_and_x_mutes_them(hall, monkeypatch):
    monkeypatch.setattr(hallmod.chat, "time", Stopped())
    ann, bob = bobs_turn(hall)
    heard = bob.chat()
    heard.send("said before you came")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await until(pilot, lambda: "m Message" in footer(pilot.app))  # the footer fills in after the screen
        await until(pilot, lambda: chat_of(ann).looked)  # the screen's first look at the messages
        await pilot.pause(0.6)  # and another: what was said before is listed by M, not announced
        assert "said before you came" not in status(pilot.app)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(pilot.app.screen, AskScreen)
        await type_text(pilot, "gl [b]hf[/b]")
        await pilot.press("enter")
        await pilot.pause()
        assert status(pilot.app) == "sent: gl [b]hf[/b]"
        assert [m.words() for m in heard.follow()][-1:] == ["Ann: gl [b]hf[/b]"]
        heard.send("thanks \x1b[31m[@click=app.quit]")
        await until(pilot, lambda: "Bob: thanks [31m[@click=app.quit]" in status(pilot.app))
        assert pilot.app.is_running
        await pilot.press("M")
        await pilot.pause()
        listing = screen_text(pilot.app)
        assert isinstance(pilot.app.screen, MessagesScreen)
        assert "Ann: gl [b]hf[/b]" in listing and "Bob: thanks" in listing and "x mutes" in listing
        assert "Bob: said before you came" in listing
        await pilot.press("x")
        await pilot.pause()
        assert "muted: they do not show as they come" in screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.pause()
        heard.send("you will not see this")
        await pilot.pause(1.5)
        assert "you will not see this" not in status(pilot.app)
        await pilot.press("M")
        await pilot.pause()
        assert "Bob: you will not see this" in screen_text(pilot.app)
        await pilot.press("escape")
        # the rate: a sixth line within ten seconds is refused with one line
        with pytest.raises(ChatRefused):  # Ann's own lines, straight to the file, until the rate refuses one
            for n in range(6):
                chat_of(ann).send(f"n{n}")
        await pilot.press("m")
        await pilot.pause()
        await type_text(pilot, "one more")
        await pilot.press("enter")
        await pilot.pause()
        return status(pilot.app)

    last = run(app, steps)
    assert last.startswith("Not now: slow down: at most 5 messages in 10 seconds")
    bob.close()


def test_a_watcher_sends_a_line_marked_as_a_watchers_and_sees_the_players_lines(hall):
    ann, bob = bobs_turn(hall)
    said = ann.chat()
    me = account_name(os.getuid())  # a watcher off a box writes as their Unix user
    app = DicehallApp(watch=hall.watch(ann.id))

    async def steps(pilot):
        assert isinstance(pilot.app.screen, HallViewer)
        await until(pilot, lambda: "m Message" in footer(pilot.app))  # the footer fills in after the screen
        await pilot.press("m")
        await pilot.pause()
        await type_text(pilot, "nice")
        await pilot.press("enter")
        await pilot.pause()
        assert [m.words() for m in said.follow()] == [f"{me} (watching): nice"]
        said.send("thank you")
        await until(pilot, lambda: "Ann: thank you" in status(pilot.app))
        await pilot.press("question_mark")
        await pilot.pause()
        return screen_text(pilot.app)

    help_text = run(app, steps)
    assert "send a line to everyone in this game" in help_text
    ann.close(), bob.close()


def test_an_idle_seat_is_offered_to_a_bot_at_the_table_once_it_is_idle(hall, monkeypatch):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text("idle_minutes = 3\n")
    os.chmod(hall.folder / "hall.toml", 0o644)  # the admin's file, whatever the umask
    clock = Clock(monkeypatch)
    ann, bob = bobs_turn(hall)
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        assert "Idle seat" not in footer(pilot.app)
        await pilot.press("I")
        await pilot.pause()
        early = status(pilot.app)
        clock.offset = 3 * 60 + 1
        await until(pilot, lambda: "has not moved" in status(pilot.app))  # how soon is not this test's
        told = status(pilot.app)
        await until(pilot, lambda: "I Idle seat" in footer(pilot.app))
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(pilot.app.screen, IdleScreen)
        before = len(ann.session.events)
        said = []
        screen = pilot.app.screen_stack[-2]
        real_status = screen.status
        monkeypatch.setattr(screen, "status", lambda message, error=False: (said.append(message), real_status(message, error)))
        await pilot.press("b")
        await until(pilot, lambda: ann.to_act == ann.seat and len(ann.session.events) > before)  # the bot moved
        return early, told, said

    early, told, said = run(app, steps)
    assert early.startswith("Not now: no seat is idle")
    assert told == "Bob has not moved for 3 minutes: I hands the seat to a bot or ends the game"
    assert "Bob's seat is played by Bot from here" in said
    bob.follow()
    assert bob.fold.seats[bob.seat].kind == "bot"
    bob.close()


async def abandon_the_idle_seat(pilot) -> None:
    """At the table, once the seat to move is idle: I, then e (end the game as abandoned)."""
    await until(pilot, lambda: "I Idle seat" in footer(pilot.app))
    await pilot.press("I")
    await pilot.pause()
    await pilot.press("e")
    await pilot.pause()


def test_an_idle_seat_ends_the_game_as_abandoned_from_the_table(hall, monkeypatch):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text("idle_minutes = 1\n")
    os.chmod(hall.folder / "hall.toml", 0o644)  # the admin's file, whatever the umask
    clock = Clock(monkeypatch)
    ann, bob = bobs_turn(hall)
    clock.offset = 61
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await abandon_the_idle_seat(pilot)
        return status(pilot.app)

    done = run(app, steps)
    assert done == f"the game is over: abandoned: Bob (seat {bob.seat + 1}) did not move for 1 minute"
    assert hall.entry(ann.id).finished
    bob.close()


def test_the_lobby_shows_each_games_progress_and_an_idle_seat(hall, monkeypatch):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text("idle_minutes = 5\n")
    os.chmod(hall.folder / "hall.toml", 0o644)  # the admin's file, whatever the umask
    clock = Clock(monkeypatch)
    ann, bob = bobs_turn(hall)
    tower = hall.host("dicetower", ["player"], "Cat")
    tower.play(tower.session.commands()[0])
    clock.offset = 6 * 60
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HallScreen)
        return screen_text(pilot.app)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot)

    text = asyncio.run(main())
    assert f"now: {ann.module.progress(ann.session.state)}" in text
    assert f"now: {tower.module.progress(tower.session.state)}" in text
    assert "Bob (idle)" in text
    for game in (ann, bob, tower):
        game.close()


def test_dicehall_watch_off_a_terminal_prints_the_games_messages(hall, capsys):
    from dicehall.cli import main

    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x")
    HallChat(bots, name="Ann").send("go \x1b[2J[bold]bots[/]")
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    assert main(["watch", bots.id]) == 0
    out = capsys.readouterr().out
    assert "say: Ann (watching): go [2J[bold]bots[/]\n" in out and "\x1b" not in out


OTHER = 4321  # a second member's Unix user (tests run as root: their files are made theirs with chown)


def members_file(hall, game_id, records, uid=OTHER):
    """A second member's messages file, written around dicehall."""
    from dicehall.saves import MAGIC, frame
    from dicehall.saves.hall.chat import HEADER, writer_file

    path = hall.games / writer_file(game_id, uid, None)
    fresh = not path.exists()
    with open(path, "ab") as handle:
        handle.write((MAGIC + frame(HEADER) if fresh else b"") + b"".join(frame(r) for r in records))
    os.chown(path, uid, os.stat(hall.folder).st_gid)


def said(text, name, seat=None, at=1.0):
    return {"at": at, "name": name, "seat": seat, "uid": OTHER, "text": text}


class Arrivals:
    """The reader's own clock for the rate (HallChat.clock), standing still: no test waits on time."""

    def __call__(self):
        return 1000.0


def test_the_status_line_and_the_messages_list_name_each_lines_writer(hall, monkeypatch):
    ann = hall.host("towers", ["player", "open"], "Ann")
    with monkeypatch.context() as other_user:  # Bob plays from his own Unix account
        other_user.setattr(os, "getuid", lambda: OTHER)
        bob = hall.join(ann.id, name="Bob")
    ann.follow()
    chat = chat_of(ann)
    chat.clock = Arrivals()
    members_file(hall, ann.id, [said("said before you came", "Bob", seat=1)])
    os.mkfifo(hall.games / f"{ann.id}.chat.99")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await until(pilot, lambda: chat.looked)
        members_file(hall, ann.id, [said("I am Ann", "Ann", seat=0, at=float("nan"))])
        await until(pilot, lambda: "(forged): I am Ann" in status(pilot.app))
        told = status(pilot.app)
        members_file(hall, ann.id, [said(f"spam {n}", f"name{n}", at=2.0 * n) for n in range(20)])
        await until(pilot, lambda: "spam 3" in status(pilot.app))
        flood = status(pilot.app)
        await pilot.press("M")
        await pilot.pause()
        return told, flood, screen_text(pilot.app)

    told, flood, listing = run(app, steps)
    assert told == "uid 4321 (watching) (forged): I am Ann"
    assert flood == "uid 4321 (watching) (forged): spam 3 (and 3 more: M lists them)"  # a writer's 5 a window
    assert "Bob (uid 4321): said before you came" in listing
    assert "16 lines not shown: sent faster than 5 in 10 seconds" in listing
    assert f"games/{ann.id}.chat.99: not a regular file: refused" in listing
    assert "spam 4" not in listing
    bob.close()


def test_a_watcher_at_a_quiet_table_reads_the_messages_and_cannot_send(hall):
    ann = hall.host("towers", ["player", "open"], "Ann", watchers="quiet")
    members_file(hall, ann.id, [said("a watcher, around dicehall", "Eve")])
    app = DicehallApp(watch=hall.watch(ann.id))

    async def steps(pilot):
        assert isinstance(pilot.app.screen, HallViewer)
        await until(pilot, lambda: "Help" in footer(pilot.app))  # the footer's keys are drawn: m is not among them
        assert "m Message" not in footer(pilot.app)
        await pilot.press("m")
        await pilot.pause()
        refused = status(pilot.app)
        assert not isinstance(pilot.app.screen, AskScreen)
        ann.chat().send("players only")
        await until(pilot, lambda: "Ann: players only" in status(pilot.app))
        await pilot.press("M")
        await pilot.pause()
        return refused, screen_text(pilot.app)

    refused, listing = run(app, steps)
    assert refused == f"Not now: the players of game {ann.id} keep its messages to themselves: watchers read them"
    assert "Ann: players only" in listing and "around dicehall" not in listing
    assert "watchers read them" in listing
    ann.close()


def test_the_lobby_says_a_table_has_no_watchers_and_enter_is_refused_in_one_line(hall):
    ann = hall.host("towers", ["player", "open"], "Ann", watchers="none")
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "no watchers" in screen_text(pilot.app))
        lobby = screen_text(pilot.app)
        await pilot.press("enter")
        await pilot.pause()
        return lobby, status(pilot.app), pilot.app.screen

    lobby, refused, screen = run(app, steps)
    assert "  no watchers; seats: 1 Ann, 2 open" in lobby
    assert refused.endswith(f"game {ann.id}: its players keep watchers off their table until it is over")
    assert isinstance(screen, HallScreen) and hall.watchers(ann.id) == 0
    ann.close()


def test_the_new_games_watchers_line_goes_into_its_log(hall):
    from tests.test_hall_screens import open_host_screen, to_line

    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        await to_line(pilot, "watchers")
        await pilot.press("enter")  # welcome -> reading messages only
        setup = screen_text(pilot.app)
        await pilot.press("s")
        await until(pilot, lambda: pilot.app.hall_game is not None)
        return setup

    setup = run(app, steps)
    assert "Watchers:       welcome, reading messages only" in setup
    (entry,) = hall.listing()
    assert entry.watching == "quiet"
