"""What a hall on a shared box also needs: messages (saves/hall/chat.py), idle seats (the "idle"
record, the admin's hall.toml) and a line of progress per game in the listing."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import msgpack
import pytest

from dicehall import engine
from dicehall.engine.games import CATALOGUE
from dicehall.saves import MAGIC, frame
from dicehall.saves import hall as hallmod
from dicehall.saves.hall import chat as hall_chat
from dicehall.saves.hall import Hall, HallError
from tests.apphelpers import eventually
from dicehall.saves.hall.chat import ChatRefused, HallChat
from dicehall.cli import main


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    return Hall(tmp_path / "hall")


OTHER = 4321  # a second member's Unix user (no account of that number on the box: shown as "uid 4321")


def chat_path(hall, game_id, uid=0, player=None):
    return hall.games / hall_chat.writer_file(game_id, uid, player)


def write_chat(hall, game_id, records, uid=OTHER, player=None, header=True, mode="ab"):
    """A second member's messages file, written around dicehall: theirs by its owner (tests run as root)."""
    path = chat_path(hall, game_id, uid, player)
    fresh = not path.exists()
    with open(path, mode) as handle:
        if header and (fresh or mode == "wb"):
            handle.write(MAGIC + frame(hall_chat.HEADER))
        for record in records:
            handle.write(frame(record))
    os.chown(path, uid, os.stat(hall.folder).st_gid)
    return path


def line(text, name="Mallory", seat=None, at=1.0):
    return {"at": at, "name": name, "seat": seat, "uid": OTHER, "text": text}


def read_all(chat):
    got = chat.follow()
    while chat.behind:
        got += chat.follow()
    return got


class Arrivals:
    """A reader's own clock for the rate, moved on by hand (HallChat.clock)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


# ----- messages -----
CHILD = """
import sys, time
from dicehall.saves.hall import Hall
folder, game_id = sys.argv[1:3]
game = Hall(folder).join(game_id, name="Bob")
chat = game.chat()
chat.send("hello from Bob")
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    game.follow()
    for message in chat.follow():
        if message.name == "Ann":
            print(message.words(), flush=True)
            sys.exit(0)
    time.sleep(0.05)
sys.exit(1)
"""


def test_two_processes_exchange_lines_and_a_watchers_line_is_marked(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    ann = game.chat()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(hall.folder), game.id], stdout=subprocess.PIPE,
                             text=True, cwd=Path(__file__).parent.parent)
    heard = []

    def bob_heard() -> bool:
        game.follow()
        heard.extend(ann.follow())
        return bool(heard)

    eventually(bob_heard, "Bob's line came")
    assert [m.words() for m in heard] == ["Bob: hello from Bob"]
    ann.send("hi Bob")
    out, _ = child.communicate(timeout=20)
    assert child.returncode == 0 and out.strip() == "Ann: hi Bob"
    watcher = hall.watch(game.id)
    eve = hall_chat.HallChat(watcher, name="Eve")  # off a box, our own user's lines carry their own names
    eve.send("nice move")
    assert [m.words() for m in ann.follow()] == ["Eve (watching): nice move"]
    read_all(eve)
    assert [m.words() for m in eve.messages] == ["Bob: hello from Bob", "Ann: hi Bob", "Eve (watching): nice move"]
    # one file per writer (here one user), beside the log, never in it; the listing shows no stray file
    assert b"hello" not in (hall.games / f"{game.id}.dhh").read_bytes()
    assert oct(os.stat(chat_path(hall, game.id)).st_mode & 0o777) == "0o660"
    assert [entry.problem for entry in hall.listing()] == [None]
    eve.close(), watcher.close(), game.close()


def test_messages_are_never_read_or_written_through_a_linked_games_folder(hall, tmp_path):
    game = hall.host("towers", ["player", "open"], "Ann")
    game.chat().send("before the swap")
    game.close_chat()  # the game stays open: its chat opens the games folder again at its next look
    elsewhere = tmp_path / "elsewhere"
    hall.games.rename(elsewhere)
    hall.games.symlink_to(elsewhere)
    reader = game.chat()
    assert reader.follow() == [] and "games: a symbolic link: refused" in reader.problem
    with pytest.raises(ChatRefused, match="symbolic link"):
        reader.send("through the link")
    assert b"through the link" not in (elsewhere / hall_chat.writer_file(game.id, 0, None)).read_bytes()
    game.close()


def test_hostile_text_is_cleaned_capped_and_never_markup(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(game.id, name="Bob")
    ann = game.chat()
    ann.send("[/bold][@click=app.quit]x[/] \x1b[2J\x1b]0;pwned\x07 \u202eend")
    ann.send("y" * 10 * 1024)
    with pytest.raises(ChatRefused, match="nothing to send"):
        ann.send("\x1b\x07\n  ")
    first, second = bob.chat().follow()
    assert first.text == "[/bold][@click=app.quit]x[/] [2J]0;pwned end"
    assert "\x1b" not in first.text and "\u202e" not in first.text
    assert second.text == "y" * hall_chat.TEXT_LIMIT
    game.close(), bob.close()


def test_a_second_members_lines_are_theirs_whatever_name_or_seat_they_claim(hall, monkeypatch):
    game = hall.host("towers", ["player", "open"], "Ann")
    with monkeypatch.context() as other_user:  # Bob joins from his own Unix account
        other_user.setattr(os, "getuid", lambda: OTHER)
        bob = hall.join(game.id, name="Bob")
    reader = game.chat()
    game.follow()
    write_chat(hall, game.id, [line("gl", name="Bob", seat=1), line("I am Ann", name="Ann", seat=0),
                               line("I am Ann", name="Ann"), line("seat 1, as Ann", name="Ann", seat=1),
                               line("late seat", name="Bob", seat=5)])
    assert [m.words() for m in reader.follow()] == [
        "Bob (uid 4321): gl", "uid 4321 (watching) (forged): I am Ann", "uid 4321 (watching) (forged): I am Ann",
        "Bob (uid 4321) (forged): seat 1, as Ann", "uid 4321 (watching) (forged): late seat"]
    # a file named for a user it does not belong to is refused in one line; the others are read on
    other = write_chat(hall, game.id, [line("as uid 99")], uid=99)
    os.chown(other, OTHER, -1)
    write_chat(hall, game.id, [line("still here", name="Bob", seat=1)])
    assert [m.text for m in reader.follow()] == ["still here"]
    assert reader.problem == f"games/{game.id}.chat.99: not made by uid 99: refused"
    game.close(), bob.close()


def test_on_a_box_a_line_is_the_players_whose_key_wrote_it(hall, monkeypatch, tmp_path):
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    game = hall.host("towers", ["player", "open"], "ann")
    ann = game.chat()
    ann.send("hello")
    assert chat_path(hall, game.id, 0, "ann").exists()  # games/ID.chat.UID.PLAYER, the key's name
    # bob behind the same account: his dicehall writes his file; a line there naming anyone else is forged
    write_chat(hall, game.id, [line("hi ann", name="bob"), line("this is ann", name="ann", seat=0),
                               line("[bold]x[/]", name="\x1b[31mann")], uid=0, player="bob")
    assert [m.words() for m in ann.follow()] == ["bob (watching): hi ann", "bob (watching) (forged): this is ann",
                                                 "bob (watching) (forged): [bold]x[/]"]
    game.close()


def test_the_rate_counts_lines_as_they_arrive_never_the_times_they_claim(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    reader = game.chat()
    reader.clock = clock = Arrivals()
    write_chat(hall, game.id, [line("said before", at=float(n)) for n in range(20)])
    history = read_all(reader)
    assert len(history) == 20 and reader.take_unseen() == []  # the history: listed by M, never announced
    # then a flood: 2 s apart, NaN, infinite, huge, negative times, a new name per line, 10 KiB records
    times = [2.0 * n for n in range(100)] + [float("nan"), float("inf"), -float("inf"), 1e308, -5.0] * 20
    write_chat(hall, game.id, [line(f"spam {n}", name=f"name{n}", at=at) for n, at in enumerate(times)]
               + [line("z" * 10 * 1024, at=3.0)])
    shown = read_all(reader)
    assert len(shown) == hall_chat.RATE and reader.dropped == len(times) - hall_chat.RATE
    assert len(reader.take_unseen()) == hall_chat.RATE
    clock.now += hall_chat.RATE_WINDOW - 0.1  # not yet
    write_chat(hall, game.id, [line("too soon")])
    assert read_all(reader) == []
    clock.now += 0.2
    write_chat(hall, game.id, [line(f"later {n}", at=float("nan")) for n in range(10)])
    assert [m.text for m in read_all(reader)] == [f"later {n}" for n in range(hall_chat.RATE)]
    assert len(reader.messages) <= hall_chat.KEEP and not reader.problem
    game.close()


def test_the_writer_refuses_a_sixth_line_in_ten_seconds(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    ann = game.chat()
    start = 1_000_000.0
    for n in range(hall_chat.RATE):
        ann.send(f"line {n}", now=start + n * 0.01)
    with pytest.raises(ChatRefused, match="slow down: at most 5 messages in 10 seconds; try again in 10 s"):
        ann.send("one too many", now=start + 0.1)
    again = HallChat(game)  # another terminal of the same writer counts the same file
    with pytest.raises(ChatRefused, match="slow down"):
        again.send("from the other terminal", now=start + 0.2)
    ann.send("later", now=start + 10.5)  # the window has moved on
    game.close()


def test_ten_thousand_lines_are_read_a_slice_at_a_time_and_kept_to_the_latest(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    write_chat(hall, game.id, [line(f"m{n}", at=n * 10.0) for n in range(10_000)])
    reader = game.chat()
    looks, total = 0, 0
    while True:
        got = reader.follow()
        total += len(got)
        looks += 1
        assert len(got) < 2000  # one look reads a slice of the file, never all of it
        if not reader.behind:
            break
    assert total == 10_000 and looks > 5
    assert len(reader.messages) == hall_chat.KEEP and reader.messages[-1].text == "m9999"
    game.close()


def test_watch_off_a_terminal_prints_every_message_not_the_first_64_kib(hall, capsys, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(hall.folder))
    game = hall.host("towers", ["player", "open"], "Ann")
    honest = hall_chat.account_name(OTHER)  # the name their own dicehall writes: their login's
    write_chat(hall, game.id, [line(f"line {n} " + "x" * 40, name=honest, at=float(n)) for n in range(3000)])  # ~200 KiB
    game.chat().send("the last word")
    assert main(["watch", game.id]) == 0
    said = [text for text in capsys.readouterr().out.splitlines() if text.startswith("say: ")]
    assert len(said) == 3001 and said[0].startswith("say: uid 4321 (watching): line 0 ")
    assert "say: Ann: the last word" in said  # lines of one look in the order of their times; looks in turn
    game.close()


def hostile_chat(hall, game_id, kind):
    path = chat_path(hall, game_id, OTHER)
    good = MAGIC + frame(hall_chat.HEADER) + frame(line("ok"))
    if kind == "link":
        target = hall.folder / "elsewhere"
        target.write_bytes(good)
        os.symlink(target, path)
        return path
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        with open(path, "wb") as handle:
            handle.truncate(hall_chat.MAX_CHAT + hall_chat.MAX_FRAME + 1)
    elif kind == "magic":
        path.write_bytes(b"#!/bin/sh\nrm -rf /\n")
    elif kind == "header":
        path.write_bytes(MAGIC + frame({"chat": 2}))
    elif kind == "crc":
        data = bytearray(good + frame(line("bad")))
        data[-2] ^= 0xFF
        path.write_bytes(bytes(data))
    elif kind == "length":
        path.write_bytes(good + b"\x7f\xff\xff\xff\x00\x00\x00\x00")
    elif kind == "bombs":  # msgpack claiming huge containers, a nested map, wrong types: each skipped
        path.write_bytes(good + _raw(b"\xdd\xff\xff\xff\xff") + _raw(b"\xdf\xff\xff\xff\xff")
                         + frame({"at": "now", "name": "x", "seat": 0, "text": "t"})
                         + frame({"at": 3.0, "name": ["x"], "seat": 0, "text": "t"})
                         + frame({"at": 3.0, "name": "x", "seat": True, "text": "t"})
                         + frame([1, 2, 3])
                         + frame(line("still here", at=4.0)))
    os.chown(path, OTHER, os.stat(hall.folder).st_gid)
    return path


def _raw(payload: bytes) -> bytes:
    import zlib

    return hall_chat.RECORD_FRAME.pack(len(payload), zlib.crc32(payload)) + payload


@pytest.mark.parametrize("kind, shown, problem", [
    ("link", [], "a symbolic link: refused"),
    ("fifo", [], "not a regular file: refused"),
    ("huge", [], "too large for a writer's messages"),
    ("magic", [], "not a game's messages"),
    ("header", [], "not a game's messages"),
    ("crc", ["ok"], "damaged after 1 messages"),
    ("length", ["ok"], "damaged after 1 messages"),
    ("bombs", ["ok", "still here"], ""),
])
def test_a_second_members_hostile_message_file_is_one_line_and_stops_only_itself(hall, kind, shown, problem):
    game = hall.host("towers", ["player", "open"], "Ann")
    game.chat().send("mine")
    hostile_chat(hall, game.id, kind)
    reader = hall.join(game.id, name="Bob").chat()
    got: list[str] = []

    def follow_three_times() -> None:
        for _ in range(3):
            got.extend(m.text for m in reader.follow())

    following = threading.Thread(target=follow_three_times, daemon=True)
    following.start()
    following.join(30)  # a guard, not a measure: a read blocked on a FIFO would wait for ever
    assert not following.is_alive()  # a FIFO never blocks
    assert sorted(got) == sorted(["mine"] + shown)
    assert problem in reader.problem and "\n" not in reader.problem
    reader.send("hello")  # another member's file never stops ours
    assert game.chat().follow()[-1].text == "hello"
    if kind == "link":
        assert (hall.folder / "elsewhere").read_bytes().count(b"hello") == 0
    assert [entry.problem for entry in hall.listing()] == [None]  # the listing never trips on it
    game.close(), reader.game.close()


@pytest.mark.parametrize("kind", ["link", "fifo", "theirs"])
def test_our_own_files_name_taken_by_a_link_a_fifo_or_another_user_refuses_in_one_line(hall, kind):
    game = hall.host("towers", ["player", "open"], "Ann")
    path = chat_path(hall, game.id)
    if kind == "link":
        os.symlink(hall.folder / "elsewhere", path)
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        write_chat(hall, game.id, [line("squatting")], uid=0)
        os.chown(path, OTHER, -1)
    with pytest.raises(ChatRefused, match="symbolic link: refused|not a regular file: refused|not made by you: refused"):
        game.chat().send("hello")
    assert not (hall.folder / "elsewhere").exists()
    game.close()


def test_a_first_line_on_a_full_disk_leaves_no_file(hall, monkeypatch):
    game = hall.host("towers", ["player", "open"], "Ann")
    chat = game.chat()

    def full(fd, data):
        os.write(fd, data[:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(hall_chat, "write_durably", full)
        with pytest.raises(ChatRefused, match="disk full: the message was not sent; try again"):
            chat.send("first")
    assert not list(hall.games.glob(f"{game.id}.chat*"))
    chat.send("second")
    with monkeypatch.context() as patch:
        patch.setattr(hall_chat, "write_durably", full)
        with pytest.raises(ChatRefused, match="disk full"):
            chat.send("third")
    assert [m.text for m in HallChat(game).follow()] == ["second"]  # cut back: the file is whole
    game.close()


def test_a_full_messages_file_refuses_more(hall, monkeypatch):
    game = hall.host("towers", ["player", "open"], "Ann")
    monkeypatch.setattr(hall_chat, "MAX_CHAT", 200)
    chat = game.chat()
    chat.send("short")
    with pytest.raises(ChatRefused, match="your messages in this game are full"):
        chat.send("x" * 150)
    game.close()


def test_the_old_shared_messages_file_is_never_read(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    (hall.games / f"{game.id}.chat").write_bytes(MAGIC + frame(hall_chat.HEADER) + frame(line("as Ann", name="Ann", seat=0)))
    assert read_all(game.chat()) == []
    assert [entry.problem for entry in hall.listing()] == [None]
    game.close()


# ----- the table's watchers -----
def test_a_quiet_table_refuses_a_watchers_line_and_readers_drop_one(hall, capsys):
    game = hall.host("towers", ["player", "open"], "Ann", watchers="quiet")
    watcher = hall.watch(game.id)
    with pytest.raises(ChatRefused, match="keep its messages to themselves: watchers read them"):
        watcher.chat().send("hi")
    game.chat().send("players only")
    write_chat(hall, game.id, [line("a watcher around dicehall")])
    assert [m.words() for m in read_all(watcher.chat())] == ["Ann: players only"]
    entry = hall.entry(game.id)
    assert entry.watching == "quiet" and entry.as_json()["watching"] == "quiet"
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    assert "; watchers read only" in capsys.readouterr().out
    watcher.close(), game.close()


def test_a_table_without_watchers_refuses_watch_in_one_line_until_it_is_over(hall, capsys):
    bots = hall.host("wager", ["bot:bold", "bot:cautious"], "x", watchers="none")
    with pytest.raises(HallError, match=f"game {bots.id}: its players keep watchers off their table until it is over"):
        hall.watch(bots.id)
    assert main(["--hall", str(hall.folder), "watch", bots.id]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip().count("\n") == 0 and "keep watchers off their table" in captured.err
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    assert "; no watchers" in capsys.readouterr().out
    assert not (hall.games / f"{bots.id}.watchers").exists() or not os.listdir(hall.games / f"{bots.id}.watchers")
    from tests.hallhelpers import play_until_over
    import random
    play_until_over({0: bots}, random.Random(4))
    bots.close()
    assert main(["--hall", str(hall.folder), "watch", bots.id]) == 0  # over: a replay, as any finished game


def test_the_host_command_records_the_watchers_and_a_bad_header_value_is_one_line(hall, capsys):
    assert main(["--hall", str(hall.folder), "host", "towers", "--watchers", "quiet"]) == 0
    game_id = capsys.readouterr().out.split(" as ")[1].split()[0]
    assert hall.open(game_id).fold.watchers == "quiet"
    log = hall.games / f"{game_id}.dhh"
    length = int.from_bytes(log.read_bytes()[len(MAGIC):len(MAGIC) + 4], "big")
    header = msgpack.unpackb(log.read_bytes()[len(MAGIC) + 8:len(MAGIC) + 8 + length], raw=False)
    assert header["watchers"] == "quiet"
    with pytest.raises(SystemExit):
        main(["--hall", str(hall.folder), "host", "towers", "--watchers", "everyone"])
    bad = dict(header, watchers=["open"])
    log.write_bytes(MAGIC + frame(bad))
    with pytest.raises(HallError, match="the header's watchers are not one of open, quiet, none"):
        hall.open(game_id)


# ----- idle seats -----
def set_idle(hall, minutes):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text(f"idle_minutes = {minutes}\n")
    os.chmod(hall.folder / "hall.toml", 0o644)  # the admin's: writable by its owner alone, whatever the umask


class Clock:
    """saves.hall's clock (its `time` module only), moved on by hand: `now` is its time.time()."""

    def __init__(self, monkeypatch):
        self.now = time.time()
        for room in (hallmod.follow, hallmod.idle, hallmod.log, hallmod.seats):  # each hall module with a clock
            monkeypatch.setattr(room, "time", self)

    def time(self) -> float:
        return self.now

    def __getattr__(self, name):  # sleep, monotonic: the real ones
        return getattr(time, name)


def towers_pair(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    mover, other = (ann, bob) if ann.to_act == ann.seat else (bob, ann)
    mover.play(mover.session.commands()[0])
    other.follow()
    return mover, other  # it is `other`'s turn now


def test_an_idle_seat_is_handed_to_a_bot_only_once_it_is_idle(hall, monkeypatch, capsys):
    set_idle(hall, 5)
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    assert other.idle_seat() is None
    with pytest.raises(engine.IllegalCommand, match="Bob is not idle yet: 5 minutes to go|Ann is not idle yet: 5 minutes to go"):
        mover.claim_idle("bot")
    clock.now += 4 * 60
    with pytest.raises(engine.IllegalCommand, match="not idle yet: 1 minute to go"):
        mover.claim_idle("bot")
    with pytest.raises(engine.IllegalCommand, match="no other player's turn"):
        other.claim_idle("bot")  # your own turn is not idle to you
    clock.now += 61
    idle = other.seat
    assert [v.status for v in mover.seats()][idle] == "idle"
    listed = {entry.id: entry for entry in hall.listing()}[mover.id]
    assert listed.seats[idle].status == "idle" and "(idle)" in listed.seats[idle].words()
    mover.claim_idle("bot")
    assert mover.fold.seats[idle].kind == "bot" and mover.session.players[idle].bot
    other.follow()
    assert other.fold.seats[idle].kind == "bot"
    # the bot plays the seat's turns from here: the mover's process plays it
    assert mover.my_turn
    mover.play(mover.session.commands()[0])
    assert mover.to_act == mover.seat
    with pytest.raises(hallmod.SeatHeld, match="a bot's"):
        hall.join(mover.id, seat=idle, name=other.fold.seats[idle].name)
    # played to the end, the hand-over is in verify
    rng = __import__("random").Random(1)
    other.close()
    while not mover.finished:
        mover.play(rng.choice(mover.session.commands()))
    assert main(["--hall", str(hall.folder), "verify", mover.id]) == 0
    out = capsys.readouterr().out
    assert "did not move for 5 minutes: seat" in out and "handed to Bot" in out
    mover.close()


def test_an_idle_game_ends_abandoned_with_the_reason_in_verify_and_the_listing(hall, monkeypatch, capsys):
    set_idle(hall, 2)
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    clock.now += 121
    mover.claim_idle("abandon")
    name = other.fold.seats[other.seat].name
    reason = f"abandoned: {name} (seat {other.seat + 1}) did not move for 2 minutes"
    assert mover.finished and mover.fold.result == reason and mover.fold.revealed is not None
    with pytest.raises(engine.IllegalCommand, match="the game is over: abandoned"):
        mover.play(mover.session.commands()[0])
    other.follow()
    assert other.finished and other.to_act is None
    entry = {e.id: e for e in hall.listing()}[mover.id]
    assert entry.finished and entry.result == reason and entry.progress == reason
    assert main(["--hall", str(hall.folder), "verify", mover.id]) == 0
    assert reason in capsys.readouterr().out
    mover.close(), other.close()


def test_idle_seats_are_off_unless_the_admin_sets_them(hall, monkeypatch):
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    clock.now += 10 * 24 * 3600
    with pytest.raises(engine.IllegalCommand, match="idle seats are off in this hall"):
        mover.claim_idle("bot")
    assert "idle" not in [v.status for v in mover.seats()]
    for text in ("idle_minutes = 'ten'", "idle_minutes = -3", "idle_minutes = 99999999", "[[[", "idle_minutes = true"):
        (hall.folder / "hall.toml").write_text(text)
        assert hall.idle_minutes() is None
    (hall.folder / "hall.toml").unlink()
    os.mkfifo(hall.folder / "hall.toml")  # never blocks
    assert hall.idle_minutes() is None
    mover.close(), other.close()


def test_a_forged_idle_record_is_the_logs_damage(hall, monkeypatch):
    set_idle(hall, 5)
    Clock(monkeypatch)
    mover, other = towers_pair(hall)
    last = mover.fold.last_at
    log = hall.games / f"{mover.id}.dhh"
    base = {"op": "idle", "by": mover.seat, "seat": other.seat, "then": "bot", "after": 5}
    for record, why in ((dict(base, at=last + 60), "was not idle for 5 minutes"),
                        (dict(base, at=last + 600, seat=mover.seat), "not another player's"),
                        (dict(base, at=last + 600, after=0), "no time to tell it by"),
                        (dict(base, at=last + 600, then="eat"), "for nothing"),
                        ({k: v for k, v in base.items()}, "no time to tell it by"),
                        (dict(base, at="soon"), "whose time is not a time"),
                        (dict(base, at=float("nan")), "whose time is not a time"),
                        (dict(base, at=True), "whose time is not a time"),
                        (dict(base, at=last + 600, seat="1"), "not another player's"),
                        (dict(base, at=last + 600, by=True), "no seat named as its author"),
                        (dict(base, at=last + 600, after=5.0), "no time to tell it by"),
                        (dict(base, at=last + 600, after=10 ** 9), "no time to tell it by"),
                        (dict(base, at=last + 600, then=["bot"]), "for nothing"),
                        ({"op": "play", "by": mover.seat, "events": [], "at": {"t": 1}}, "whose time is not a time")):
        data = log.read_bytes()
        with open(log, "ab") as handle:
            handle.write(frame(record))
        with pytest.raises(HallError, match=why):
            hall.open(mover.id).close()
        log.write_bytes(data)
    mover.close(), other.close()


def test_an_idle_record_before_the_game_starts_or_after_it_ends_is_damage(hall, monkeypatch):
    set_idle(hall, 1)
    waiting = hall.host("towers", ["player", "open"], "Ann")
    log = hall.games / f"{waiting.id}.dhh"
    with open(log, "ab") as handle:
        handle.write(frame({"op": "idle", "by": 0, "seat": 1, "then": "bot", "after": 1, "at": time.time() + 999}))
    with pytest.raises(HallError, match="record 2: an idle seat outside a game in progress"):
        hall.open(waiting.id).close()
    waiting.close()
    clock = Clock(monkeypatch)
    mover, other = towers_pair(hall)
    clock.now += 61
    mover.claim_idle("abandon")
    log = hall.games / f"{mover.id}.dhh"
    data = log.read_bytes()
    for record in ({"op": "idle", "by": mover.seat, "seat": other.seat, "then": "bot", "after": 1, "at": clock.now + 999},
                   {"op": "takeback", "by": mover.seat, "to": 0, "at": clock.now}):
        log.write_bytes(data)
        with open(log, "ab") as handle:
            handle.write(frame(record))
        with pytest.raises(HallError, match="a record after the seed was revealed"):
            hall.open(mover.id).close()
    mover.close(), other.close()


# ----- progress -----
def test_each_game_has_a_line_of_progress_in_its_own_words(hall, capsys):
    hosted = {"wager": hall.host("wager", ["player", "bot", "open"], "Ann")}  # a seat left open for Bob
    others = [entry for entry in CATALOGUE if entry.playable and entry.id != "wager"]
    for entry in others:  # every other game with its fewest seats: Ann and bots
        hosted[entry.id] = hall.host(entry.id, ["player"] + ["bot"] * (entry.seats[0] - 1), "Ann")
    for name in (entry.id for entry in others):
        game = hosted[name]
        game.follow()
        if game.my_turn:
            game.play(game.session.commands()[0])
    assert main(["--hall", str(hall.folder), "hall", "--json"]) == 0
    listed = {g["game"]: g["progress"] for g in json.loads(capsys.readouterr().out)["games"]}
    assert listed["wager"] == "waiting for 1 open seat"
    for name in (entry.id for entry in others):
        assert listed[name] == hosted[name].module.progress(hosted[name].session.state)
    assert listed["towers"].startswith("placing: Light") or "Light" in listed["towers"]
    assert listed["dicetower"].startswith("countdown")
    assert listed["troll"].startswith("turn") or listed["troll"] == "setting up"
    assert "troop" in listed["bones"] or listed["bones"] == "setup"
    bob = hall.join(hosted["wager"].id, name="Bob")
    assert main(["--hall", str(hall.folder), "hall"]) == 0
    assert "in progress: round 1: Ann 0, Bot 2 0, Bob 0" in capsys.readouterr().out
    bob.close()
    for game in hosted.values():
        game.close()


def test_a_crowd_of_files_not_their_writers_takes_no_readers_place(hall, monkeypatch):
    """On a box, a second member makes 70 empty files named as the box account's ("ID.chat.0.a1"...,
    sorted before bob's) before anyone speaks: each is refused as not made by the user it names, and
    takes none of the places real writers need, so bob's line still reaches ann."""
    import os

    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    ann = hall.host("towers", ["player", "open"], "")
    for n in range(70):
        junk = hall.games / f"{ann.id}.chat.{os.getuid()}.a{n}"
        junk.write_bytes(b"")
        os.chown(junk, 4321, -1)  # the member's: not the user its name says
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    bob = hall.join(ann.id)
    bob.chat().send("hello from bob")
    ann.follow()  # ann's table knows bob's seat
    reader = ann.chat()
    said = [message.words() for message in reader.follow()]
    assert said == ["bob: hello from bob"]
    assert f"not made by uid {os.getuid()}: refused" in reader.problem and "more than" not in reader.problem
    ann.close(), bob.close()
