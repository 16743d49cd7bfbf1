"""What a hall on a shared box also needs: messages (saves/hall/chat.py), idle seats (the "idle"
record, the admin's hall.toml) and a line of progress per game in the listing."""
from __future__ import annotations

import json
import os
import subprocess
import sys
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
from dicehall.saves.hall.chat import ChatRefused, HallChat
from dicehall.cli import main


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    return Hall(tmp_path / "hall")


def chat_path(hall, game_id):
    return hall.games / f"{game_id}.chat"


# ----- messages -----
CHILD = """
import sys, time
from dicehall.saves.hall import Hall
from dicehall.saves.hall.chat import HallChat
folder, game_id = sys.argv[1:3]
chat = HallChat(Hall(folder), game_id, "Bob", 1)
chat.send("hello from Bob")
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    for message in chat.follow():
        if message.name == "Ann":
            print(message.words(), flush=True)
            sys.exit(0)
    time.sleep(0.05)
sys.exit(1)
"""


def test_two_processes_exchange_lines_and_a_watchers_line_is_marked(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    ann = HallChat(hall, game.id, "Ann", 0)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(hall.folder), game.id], stdout=subprocess.PIPE,
                             text=True, cwd=Path(__file__).parent.parent)
    deadline = time.monotonic() + 20
    heard = []
    while not heard and time.monotonic() < deadline:
        heard = ann.follow()
        time.sleep(0.05)
    assert [m.words() for m in heard] == ["Bob: hello from Bob"]
    ann.send("hi Bob")
    out, _ = child.communicate(timeout=20)
    assert child.returncode == 0 and out.strip() == "Ann: hi Bob"
    eve = HallChat(hall, game.id, "Eve", None)
    eve.send("nice move")
    assert [m.words() for m in ann.follow()] == ["Eve (watching): nice move"]
    assert [m.words() for m in eve.messages] == ["Bob: hello from Bob", "Ann: hi Bob", "Eve (watching): nice move"]
    # beside the log, never in it: the game's record is the game, and the listing shows no stray file
    assert b"hello" not in (hall.games / f"{game.id}.dhh").read_bytes()
    assert oct(os.stat(chat_path(hall, game.id)).st_mode & 0o777) == "0o660"
    assert [entry.problem for entry in hall.listing()] == [None]
    game.close()


def test_messages_are_never_read_or_written_through_a_linked_games_folder(hall, tmp_path):
    game = hall.host("towers", ["player", "open"], "Ann")
    HallChat(hall, game.id, "Ann", 0).send("before the swap")
    game.close()
    elsewhere = tmp_path / "elsewhere"
    hall.games.rename(elsewhere)
    hall.games.symlink_to(elsewhere)
    reader = HallChat(hall, game.id, "Bob", 1)
    assert reader.follow() == [] and "games: a symbolic link: refused" in reader.problem
    with pytest.raises(ChatRefused, match="symbolic link"):
        HallChat(hall, game.id, "Ann", 0).send("through the link")
    assert b"through the link" not in (elsewhere / f"{game.id}.chat").read_bytes()


def test_hostile_text_is_cleaned_capped_and_never_markup(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    ann, bob = HallChat(hall, game.id, "Ann", 0), HallChat(hall, game.id, "Bob", 1)
    ann.send("[/bold][@click=app.quit]x[/] \x1b[2J\x1b]0;pwned\x07 \u202eend")
    ann.send("y" * 10 * 1024)
    with pytest.raises(ChatRefused, match="nothing to send"):
        ann.send("\x1b\x07\n  ")
    first, second = bob.follow()
    assert first.text == "[/bold][@click=app.quit]x[/] [2J]0;pwned end"
    assert "\x1b" not in first.text and "\u202e" not in first.text
    assert second.text == "y" * hall_chat.TEXT_LIMIT
    game.close()


def test_a_flood_is_refused_when_sent_and_dropped_when_read(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    ann, bob = HallChat(hall, game.id, "Ann", 0), HallChat(hall, game.id, "Bob", 1)
    start = 1_000_000.0
    for n in range(hall_chat.RATE):
        ann.send(f"line {n}", now=start + n * 0.01)
    with pytest.raises(ChatRefused, match="slow down: at most 5 messages in 10 seconds; try again in 10 s"):
        ann.send("one too many", now=start + 0.1)
    ann.send("later", now=start + 10.5)  # the window has moved on
    assert [m.text for m in bob.follow()][-1] == "later"
    # a writer that bypasses HallChat: 100 lines a second for 3 seconds, and 10 KiB records
    with open(chat_path(hall, game.id), "ab") as handle:
        for n in range(300):
            handle.write(frame({"at": start + 100 + n / 100, "name": "Mallory", "seat": 1, "uid": 0, "text": f"spam {n}"}))
        handle.write(frame({"at": start + 200, "name": "Mallory", "seat": 1, "uid": 0, "text": "z" * 10 * 1024}))
        handle.write(frame({"at": start + 201, "name": "Mallory", "seat": 1, "uid": 0, "text": "after the big one"}))
    shown = []
    for _ in range(20):
        shown += bob.follow()
    spam = [m for m in shown if m.text.startswith("spam")]
    assert len(spam) == hall_chat.RATE  # 3 seconds of flood: one window's worth
    assert shown[-1].text == "after the big one"  # the 10 KiB record is skipped whole
    assert len(bob.messages) <= hall_chat.KEEP and not bob.problem
    game.close()


def test_the_messages_list_keeps_only_the_latest(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    with open(chat_path(hall, game.id), "wb") as handle:
        handle.write(MAGIC + frame(hall_chat.HEADER))
        for n in range(hall_chat.KEEP * 3):
            handle.write(frame({"at": n * 10.0, "name": f"p{n % 7}", "seat": None, "uid": 0, "text": f"m{n}"}))
    reader = HallChat(hall, game.id, "Ann", 0)
    while reader.follow():
        pass
    assert len(reader.messages) == hall_chat.KEEP and reader.messages[-1].text == f"m{hall_chat.KEEP * 3 - 1}"
    game.close()


def hostile_chat(hall, game_id, kind):
    path = chat_path(hall, game_id)
    good = MAGIC + frame(hall_chat.HEADER) + frame({"at": 1.0, "name": "Ann", "seat": 0, "uid": 0, "text": "ok"})
    if kind == "link":
        target = hall.folder / "elsewhere"
        target.write_bytes(good)
        os.symlink(target, path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        with open(path, "wb") as handle:
            handle.truncate(hall_chat.MAX_CHAT + hall_chat.MAX_FRAME + 1)
    elif kind == "magic":
        path.write_bytes(b"#!/bin/sh\nrm -rf /\n")
    elif kind == "header":
        path.write_bytes(MAGIC + frame({"chat": 2}))
    elif kind == "crc":
        data = bytearray(good + frame({"at": 2.0, "name": "Ann", "seat": 0, "uid": 0, "text": "bad"}))
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
                         + frame({"at": 4.0, "name": "Bob", "seat": 1, "uid": 0, "text": "still here"}))
    return path


def _raw(payload: bytes) -> bytes:
    import zlib

    return hall_chat._FRAME.pack(len(payload), zlib.crc32(payload)) + payload


@pytest.mark.parametrize("kind, shown, problem", [
    ("link", [], "a symbolic link: refused"),
    ("fifo", [], "not a regular file: refused"),
    ("huge", [], "too large for a game's messages"),
    ("magic", [], "not a game's messages"),
    ("header", [], "not a game's messages"),
    ("crc", ["ok"], "damaged after 1 messages"),
    ("length", ["ok"], "damaged after 1 messages"),
    ("bombs", ["ok", "still here"], ""),
])
def test_hostile_message_files_are_one_line_and_bounded(hall, kind, shown, problem):
    game = hall.host("towers", ["player", "open"], "Ann")
    hostile_chat(hall, game.id, kind)
    reader = HallChat(hall, game.id, "Bob", 1)
    started = time.monotonic()
    got = []
    for _ in range(3):
        got += [m.text for m in reader.follow()]
    assert time.monotonic() - started < 2  # a FIFO never blocks
    assert got == shown
    assert problem in reader.problem and "\n" not in reader.problem
    if problem:
        with pytest.raises(ChatRefused) as refused:
            reader.send("hello")
        assert problem in str(refused.value)
    if kind == "link":
        assert (hall.folder / "elsewhere").read_bytes().count(b"hello") == 0
    assert [entry.problem for entry in hall.listing()] == [None]  # the listing never trips on it
    game.close()


def test_a_full_messages_file_refuses_more(hall, monkeypatch):
    game = hall.host("towers", ["player", "open"], "Ann")
    monkeypatch.setattr(hall_chat, "MAX_CHAT", 200)
    chat = HallChat(hall, game.id, "Ann", 0)
    chat.send("short")
    with pytest.raises(ChatRefused, match="this game's messages are full"):
        chat.send("x" * 150)
    game.close()


# ----- idle seats -----
def set_idle(hall, minutes):
    hall.folder.mkdir(parents=True, exist_ok=True)
    (hall.folder / "hall.toml").write_text(f"idle_minutes = {minutes}\n")
    os.chmod(hall.folder / "hall.toml", 0o644)  # the admin's: writable by its owner alone, whatever the umask


class Clock:
    """saves.hall's clock (its `time` module only), moved on by hand: `now` is its time.time()."""

    def __init__(self, monkeypatch):
        self.now = time.time()
        for room in (hallmod.follow, hallmod.game, hallmod.log, hallmod.seats):  # each hall module with a clock
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
