"""The hall (saves/hall/): shared game logs, seats, stale moves, followers, hostile files, fair dice.

Processes that hold seats are real child processes (tests/hallhelpers.py), killed for real."""
from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time

import msgpack
import pytest

from dicehall import engine
from dicehall import replays
from dicehall.engine.codec import decode_event, encode_event
from dicehall.engine.session import LogError, Session
from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves import hall as hallmod
from dicehall.saves.hall import Hall, HallError, SeatHeld, StaleState
from tests.hallhelpers import play_until_over, start_child, step
from dicehall.cli import main


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    return Hall(tmp_path / "hall")


def cmd(game, text):
    """The legal command that reads as `text` ("roll", "end turn")."""
    return next(c for c in game.session.commands() if str(c) == text)


def log_path(hall, game):
    return hall.games / f"{game.id}.dhh"


# ----- the engine: a follower's session has no seed -----
def test_a_session_without_a_seed_takes_each_outcome_from_the_log_checked_against_the_rules():
    for game, players in (("bones", []), ("troll", []), ("wager", ["a", "b"])):
        played = engine.new_session(game, seed=4, players=players)
        rng = random.Random(4)
        for _ in range(80):
            if played.outcome:
                break
            played.play(rng.choice(played.commands()))
        follower = Session(played.game, seed=None, options=played.options, players=played.players)
        marks, events = list(played.marks), played.events
        follower.replay_batch(events[: marks[0].start], None)
        for mark, end in zip(marks, [m.start for m in marks[1:]] + [len(events)]):
            follower.replay_batch(events[mark.start : end], mark.player)
        assert engine.digest(follower.state) == engine.digest(played.state)
        with pytest.raises(engine.IllegalCommand):  # it never draws dice of its own
            follower.resume_seeded()


def test_a_session_without_a_seed_refuses_an_outcome_the_rules_cannot_give():
    from dicehall.engine.games.wager import DieRolled

    session = Session(engine.get_game("wager"), seed=None, players=engine.as_players(["a", "b"]))
    roll = session.game.decide(session.state, session.commands()[0])
    with pytest.raises(LogError, match="out of range|does not fit"):
        session.replay_batch(list(roll) + [DieRolled(0, 7, False)], 0)


# ----- hosting, joining, the listing -----
def test_a_hosted_game_waits_for_its_open_seats_and_starts_named_after_its_players(hall):
    ann = hall.host("wager", ["player", "open", "bot:bold"], "Ann")
    assert ann.session is None and [v.words() for v in ann.seats()] == ["Ann", "open", "Bot 3 (bot)"]
    with pytest.raises(engine.IllegalCommand, match="every seat is taken"):
        ann.play("roll")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    assert ann.session.state.names == ("Ann", "Bob", "Bot 3") == bob.session.state.names
    assert bob.seat == 1 and ann.to_act == 0 and ann.my_turn and not bob.my_turn
    with pytest.raises(engine.IllegalCommand, match="Ann's turn, not yours"):
        bob.play(bob.session.commands()[0])
    ann.close(), bob.close()


def test_every_bot_seat_has_a_name_of_its_own_in_the_log_the_game_and_the_listing(hall):
    """Two bots are told apart everywhere: "Bot N" by seat number, as the wager's setup names its
    bots; a lone bot of a two-seat game stays "Bot", as Towers and War of Bones name it."""
    towers = hall.host("towers", ["bot:easy", "bot:hard"], "")
    assert list(towers.log.header["seats"]) == [
        {"kind": "bot", "name": "Bot 1", "style": "easy"}, {"kind": "bot", "name": "Bot 2", "style": "hard"}]
    assert [p.name for p in towers.session.players] == ["Bot 1", "Bot 2"]
    assert [v.words() for v in hall.entry(towers.id).seats] == ["Bot 1 (bot)", "Bot 2 (bot)"]
    bones = hall.host("bones", ["bot:random", "bot:general"], "")
    assert [p.name for p in bones.session.players] == ["Bot 1", "Bot 2"]
    alone = hall.host("towers", ["player", "bot:easy"], "Ann")
    assert [p.name for p in alone.session.players] == ["Ann", "Bot"]
    wager = hall.host("wager", ["player", "open", "open", "open"], "Ann")
    wager.seat_bot(1, "bold"), wager.seat_bot(2, "best")  # seated at the table, before the game starts
    assert [v.words() for v in wager.seats()] == ["Ann", "Bot 2 (bot)", "Bot 3 (bot)", "open"]
    for game in (towers, bones, alone, wager):
        game.close()


def test_a_header_bot_without_a_name_is_named_by_its_seat(hall):
    header = {"format": 2, "hall": 1, "game": "wager", "rules": 1, "options": {}, "commitment": "0" * 64,
              "seats": [{"kind": "bot", "style": "bold"}, {"kind": "bot", "style": "best"}]}
    assert [s.name for s in hallmod.HallFold(header, "x").seats] == ["Bot 1", "Bot 2"]


def test_hall_files_are_the_hall_groups_only(hall):
    game = hall.host("towers", ["player", "open"], "Ann")
    hall.join(game.id, name="Bob").close()
    watcher = hall.watch(game.id)
    for folder in (hall.folder, hall.games, hall.secrets):  # sticky: a member renames or removes only their own
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o3770
    assert stat.S_IMODE(os.stat(hall.games / f"{game.id}.watchers").st_mode) == 0o2770  # a dead watcher's lock goes
    for path in [*hall.games.glob(f"{game.id}.*"), *hall.secrets.iterdir(), *(hall.games / f"{game.id}.watchers").iterdir()]:
        if path.is_file():
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o660, path
    watcher.close(), game.close()


def test_a_held_seat_is_refused_with_its_holders_name_and_freed_when_its_process_dies(hall, tmp_path):
    game = hall.host("wager", ["player", "open"], "Ann")
    for sig in (signal.SIGKILL, signal.SIGHUP):
        child = start_child(tmp_path, hall.folder, "join", game.id, "Bob")
        child.stdout.readline()  # it holds the seat
        with pytest.raises(SeatHeld, match="seat 2 is held by Bob"):
            hall.join(game.id, seat=1, name="Bob")
        assert [v.status for v in hall.entry(game.id).seats] == ["player", "player"]
        child.send_signal(sig)
        child.wait(10)
        assert [v.words() for v in hall.entry(game.id).seats] == ["Ann", "Bob (disconnected)"]
        with pytest.raises(SeatHeld, match="Bob's: only they can take it back"):
            hall.join(game.id, seat=1, name="Mallory")
    again = hall.join(game.id, name="Bob")  # no seat given: his own disconnected seat
    assert again.seat == 1 and [v.status for v in hall.entry(game.id).seats] == ["player", "player"]
    assert sum(1 for r in parse_save(log_path(hall, game).read_bytes(), "x").records if r["op"] == "seat") == 2
    again.close(), game.close()


def test_a_full_game_is_offered_to_watch(hall):
    game = hall.host("towers", ["player", "bot:easy"], "Ann")
    with pytest.raises(SeatHeld, match=f"no open seat: watch it with dicehall watch {game.id}"):
        hall.join(game.id, name="Bob")
    with pytest.raises(SeatHeld, match="seat 2 is a bot's"):
        hall.join(game.id, seat=1, name="Bob")
    game.close()


def test_watchers_are_counted_while_they_live(hall, tmp_path):
    game = hall.host("wager", ["player", "open"], "Ann")
    mine = hall.watch(game.id)
    child = start_child(tmp_path, hall.folder, "watch", game.id, "")
    child.stdout.readline()
    assert hall.watchers(game.id) == 2
    child.kill()
    child.wait(10)
    assert hall.watchers(game.id) == 1  # the dead one's file is cleared
    assert len(list((hall.games / f"{game.id}.watchers").iterdir())) == 1
    mine.close()
    assert hall.watchers(game.id) == 0
    game.close()


# ----- stale decisions -----
def test_a_decision_made_on_an_old_position_is_refused_and_nothing_is_written(hall):
    ann = hall.host("wager", ["player", "open", "bot:cautious"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    ann.play(cmd(ann, "roll")), ann.play(cmd(ann, "end turn"))
    bob.follow()
    bob.play(cmd(bob, "roll")), bob.play(cmd(bob, "end turn"))
    ann.follow()
    roll = cmd(ann, "roll")
    bob.play(cmd(bob, "roll"))  # the bot's turn: any seated terminal may play it; Bob did first
    size = log_path(hall, ann).stat().st_size
    with pytest.raises(StaleState) as refused:
        ann.play(roll)  # Ann has not seen it: she plays on an old position
    assert str(refused.value) == "Bot 3 moved first: your move was made on an old position; the board is refreshed"
    assert log_path(hall, ann).stat().st_size == size
    assert engine.digest(ann.session.state) == engine.digest(bob.session.state)  # refreshed
    stale = ann.fold.count
    bob.play(bob.session.commands()[0])
    size = log_path(hall, ann).stat().st_size
    with pytest.raises(StaleState):  # the log itself: an append on an old count is refused whatever it holds
        ann.log.append({"op": "answer", "by": 0, "yes": True}, stale)
    assert log_path(hall, ann).stat().st_size == size
    ann.close(), bob.close()


def test_the_bot_fold_names_the_bot_when_it_moved_first(hall):
    ann = hall.host("wager", ["player", "bot:cautious"], "Ann")
    other = hall.open(ann.id, plays_bots=True)
    ann.play(cmd(ann, "roll")), ann.play(cmd(ann, "end turn"))
    other.follow()
    other.play(cmd(other, "roll"))
    with pytest.raises(StaleState, match="^Bot moved first"):
        ann.play(cmd(ann, "roll"))
    ann.close(), other.close()


def test_a_torn_tail_is_left_to_the_writer_under_the_lock_which_keeps_it_aside(hall):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    path = log_path(hall, ann)
    whole = path.stat().st_size
    cut = frame({"op": "answer", "by": 1, "yes": True})[:-4]
    with open(path, "ab") as handle:  # a writer killed in the middle of its append
        handle.write(cut)
    assert bob.follow() == [] and bob.log.offset == whole  # a follower waits: it may still be being written
    ann.play(cmd(ann, "roll"))
    kept = hall.games / f"{ann.id}.dhh.torn"
    assert kept.read_bytes() == cut and stat.S_IMODE(kept.stat().st_mode) == 0o660
    parsed = parse_save(path.read_bytes(), "x")
    assert not parsed.torn and parsed.damage is None and parsed.records[-1]["op"] == "play"
    bob.follow()
    assert engine.digest(bob.session.state) == engine.digest(ann.session.state)
    ann.close(), bob.close()


# ----- takebacks -----
def test_a_takeback_asks_the_others_and_one_no_refuses_it(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    first = ann.to_act
    mover, other = (ann, bob) if first == 0 else (bob, ann)
    mover.play(mover.session.commands()[0])
    other.follow()
    other.play(other.session.commands()[0])
    mover.follow()
    with pytest.raises(engine.IllegalCommand, match="no takeback is waiting"):
        other.answer_takeback(True)
    mover.ask_takeback()
    other.follow()
    assert other.fold.takeback.by == mover.seat
    with pytest.raises(engine.IllegalCommand, match="waiting for answers already"):
        other.ask_takeback()
    other.answer_takeback(False)
    mover.follow()
    assert mover.fold.takeback is None and "refused" in mover.fold.note and len(mover.session.events) == 2
    mover.ask_takeback()
    other.follow()
    other.answer_takeback(True)
    mover.follow()  # the asker's terminal takes it back once everyone said yes
    other.follow()
    assert len(mover.session.events) == len(other.session.events) == 0
    assert mover.to_act == first and mover.fold.note.endswith("took back a move")
    ops = [r["op"] for r in parse_save(log_path(hall, ann).read_bytes(), "x").records]
    assert ops[-5:] == ["takeback", "answer", "takeback", "answer", "undo"]
    ann.close(), bob.close()


def test_against_bots_a_takeback_is_taken_at_once(hall):
    ann = hall.host("wager", ["player", "bot:cautious"], "Ann")
    ann.play(cmd(ann, "roll"))
    before = len(ann.session.events)
    ann.play(cmd(ann, "end turn"))
    while ann.to_act == 1:
        ann.play(ann.session.commands()[-1])  # roll, then end the turn
    ann.ask_takeback()
    assert len(ann.session.events) == before and ann.fold.takeback is None
    ann.close()


def test_a_hostile_takeback_or_answer_is_the_logs_damage(hall):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    for record, reason in (({"op": "takeback", "by": 1, "to": 0}, "not the asker's own move"),
                           ({"op": "answer", "by": 0, "yes": True}, "no takeback waiting"),
                           ({"op": "undo", "by": 0}, "no takeback accepted"),
                           ({"op": "redo"}, "unknown record"),
                           ({"op": "reveal", "seed": 1}, "before the game is over")):
        fold = hallmod.HallFold(parse_save(log_path(hall, ann).read_bytes(), "x").header, "x")
        for old in parse_save(log_path(hall, ann).read_bytes(), "x").records:
            fold.apply(old)
        with pytest.raises(hallmod.HallRecordError, match=reason):
            fold.apply(record)
    ann.close(), bob.close()


# ----- followers -----
def test_a_follower_reads_only_what_is_new(hall):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    watcher = hall.watch(ann.id)
    for _ in range(10):
        step({0: ann, 1: bob})
    size = log_path(hall, ann).stat().st_size
    read_before, offset = watcher.log.bytes_read[0], watcher.log.offset
    watcher.follow()
    assert watcher.log.bytes_read[0] - read_before == size - offset  # from its offset only
    assert watcher.log.offset == size
    read_before = watcher.log.bytes_read[0]
    assert watcher.follow() == [] and watcher.log.bytes_read[0] == read_before  # nothing new: nothing read
    assert engine.digest(watcher.session.state) == engine.digest(ann.session.state)
    with pytest.raises(engine.IllegalCommand, match="watching"):
        watcher.play("roll")  # refused before the command is even read
    for game in (ann, bob, watcher):
        game.close()


@pytest.mark.parametrize("inotify", [True, False], ids=["inotify", "polling"])
def test_wait_wakes_when_another_process_appends(hall, tmp_path, monkeypatch, inotify):
    if not inotify:
        def unavailable(*args):
            raise OSError("no inotify here")

        monkeypatch.setattr(hallmod.follow, "Inotify", unavailable)
    game = hall.host("wager", ["player", "open"], "Ann")
    watcher = hall.watch(game.id)
    started = time.monotonic()
    assert watcher.wait(0.3) is False and time.monotonic() - started >= 0.3  # nothing happened
    child = start_child(tmp_path, hall.folder, "join", game.id, "Bob", delay=0.5)
    while watcher.session is None:  # its seat's lock file may wake the watcher before its record is written
        assert watcher.wait(10)
        watcher.follow()
    woke = time.time()
    appended = float(child.stdout.readline())  # the child's clock, just after its append returned
    assert woke - appended < 5.0  # woken by the append, not by wait(10)'s end (the latency: bench.py's hall row)
    assert watcher.session.state.names == ("Ann", "Bob")
    child.kill()
    child.wait(10)
    assert watcher.wait(10)  # the seat's holder leaving is a change too
    assert [v.status for v in watcher.seats()] == ["player", "disconnected"]
    watcher.close(), game.close()


# ----- hostile hall files -----
def hostile_hall(hall, tmp_path):
    """A hall holding one good game and one of each kind of bad entry; returns the good game's id."""
    good = hall.host("wager", ["player", "open"], "Ann")
    good.close()
    games = hall.games
    (games / "BADNAME.dhh").write_bytes(b"x")
    (games / "\x1b[31mred.dhh").write_bytes(b"x")
    (games / "notes.txt").write_text("hello")
    data = bytearray(log_path(hall, good).read_bytes())
    data[-3] ^= 0xFF  # inside the last record
    (games / "damage.dhh").write_bytes(bytes(data))
    secret = tmp_path / "elsewhere"
    secret.write_bytes(log_path(hall, good).read_bytes())
    os.symlink(secret, games / "symlnk.dhh")
    with open(games / "huge00.dhh", "wb") as handle:
        handle.truncate(hallmod.MAX_LOG + 1)
    header = parse_save(log_path(hall, good).read_bytes(), "x").header
    towers_move = encode_event(engine.new_session("towers", seed=1).play(engine.new_session("towers", seed=1).commands()[0])[0])
    (games / "othgam.dhh").write_bytes(MAGIC + frame(header) + frame(
        {"op": "seat", "seat": 1, "kind": "player", "name": "Bob", "uid": 0}) + frame({"op": "play", "by": 0, "events": [towers_move]}))
    (games / "group0.dhh").write_bytes(log_path(hall, good).read_bytes())
    os.chown(games / "group0.dhh", -1, os.stat(games).st_gid + 4242)
    os.mkfifo(games / "fifo00.dhh")
    evil = "\x1b[2J\x1b]0;pwned\x07[bold red]Eve[/]" + "\u202e" + "x" * 500
    own = {**header, "commitment": "e" * 64}  # a game of its own, not a copy of the good one (listed once)
    (games / "evilnm.dhh").write_bytes(MAGIC + frame(own) + frame(
        {"op": "seat", "seat": 1, "kind": "player", "name": evil, "uid": 0}))
    return good.id


def test_hostile_hall_files_are_one_line_each_and_never_stop_the_listing(hall, tmp_path):
    good = hostile_hall(hall, tmp_path)
    entries = {entry.id: entry for entry in hall.listing()}
    problems = {key: entry.problem for key, entry in entries.items()}
    assert problems[good] is None
    assert "not a hall game's name" in problems["BADNAME.dhh"] and "not a hall game's name" in problems["notes.txt"]
    assert "[31mred.dhh" in "".join(problems) and all("\x1b" not in key for key in problems)
    assert "checksum" in problems["damage"]
    assert problems["symlnk"] == "games/symlnk.dhh: a symbolic link: refused"
    assert "too large" in problems["huge00"]
    assert "record 2" in problems["othgam"]
    assert problems["group0"] == "games/group0.dhh: not owned by the hall's group: refused"
    assert problems["fifo00"] == "games/fifo00.dhh: not a regular file: refused"
    assert problems["evilnm"] is None
    shown = entries["evilnm"].seats[1].name
    assert shown.startswith("[2J]0;pwned[bold red]Eve[/]") and shown.endswith("...") and len(shown) == 40
    assert not any(ch < " " or ch == "\u202e" for ch in shown)
    for problem in problems.values():
        assert problem is None or "\n" not in problem and "\x1b" not in problem


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_dicehall_hall_lists_hostile_files_without_a_crash_or_an_escape(hall, tmp_path, capsys, as_json):
    good = hostile_hall(hall, tmp_path)
    assert main(["--hall", str(hall.folder), "hall", *(["--json"] if as_json else [])]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err == "" and "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    if as_json:
        listed = {game["id"]: game for game in json.loads(out)["games"]}
        assert listed[good]["seats"] == [{"seat": 1, "status": "disconnected", "name": "Ann"},
                                         {"seat": 2, "status": "open", "name": ""}]
        assert listed["symlnk"]["problem"] == "games/symlnk.dhh: a symbolic link: refused"
    else:
        lines = out.splitlines()
        assert any(line.startswith(f"{good}  wager") and "Ann (disconnected), open; in progress" in line for line in lines)
        assert sum("DAMAGED:" in line for line in lines) == 9
        assert any(line.startswith("symlnk  DAMAGED: games/symlnk.dhh: a symbolic link: refused") for line in lines)


def test_a_bad_id_on_the_command_line_is_one_line(hall, capsys):
    for command in (["join", "../../etc"], ["watch", "ABCDEF"], ["join", "abc"]):
        assert main(["--hall", str(hall.folder), *command]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a hall game id" in err


# ----- fair dice -----
def finished_wager(hall, seed=1):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    play_until_over({0: ann, 1: bob}, random.Random(seed))
    return ann, bob


def test_verify_words_what_the_seed_decided_in_each_game(hall, capsys):
    # Towers has no dice: its verify must not claim that any die was re-derived
    ann = hall.host("towers", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    play_until_over({0: ann, 1: bob}, random.Random(3))
    assert main(["--hall", str(hall.folder), "verify", ann.id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: hall game {ann.id}, Towers, Ann, Bob")
    assert "die" not in out and "every move was checked against the rules (Towers has no dice" in out
    ann.close(), bob.close()
    # every game words what its seed decided (the catalogue's default claims no die)
    assert all(entry.re_derived for entry in engine.games.CATALOGUE)


def test_nothing_a_player_can_read_holds_the_secret_before_the_end(hall, capsys):
    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    secret = hall.read_secret(ann.id)
    secret_bytes = [str(secret).encode(), msgpack.packb(secret)]
    for _ in range(6):
        step({0: ann, 1: bob})
    watcher = hall.watch(ann.id)
    assert watcher.session.seed is None and watcher.fold.seed is None
    main(["--hall", str(hall.folder), "hall", "--json"])
    listed = capsys.readouterr().out.encode()
    for path in hall.games.rglob("*"):
        if path.is_file():
            assert not any(s in path.read_bytes() for s in secret_bytes), path
    assert not any(s in listed for s in secret_bytes)
    assert stat.S_IMODE(os.stat(hall.secrets / ann.id).st_mode) == 0o660
    with pytest.raises(HallError, match="not over yet"):
        hall.verify(ann.id)
    for game in (ann, bob, watcher):
        game.close()


def test_a_finished_hall_game_reveals_its_seed_and_verifies_every_die(hall, tmp_path, capsys):
    ann, bob = finished_wager(hall)
    assert ann.fold.revealed is not None and not (hall.secrets / ann.id).exists()
    assert main(["--hall", str(hall.folder), "verify", ann.id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: hall game {ann.id}, Dead Man's Wager, Ann, Bob") and "every die was re-derived" in out
    assert main(["--hall", str(hall.folder), "export", ann.id, "-o", str(tmp_path)]) == 0
    exported = tmp_path / f"hall-{ann.id}.dhr"
    assert replays.verify(exported).startswith("ok: Dead Man's Wager, seed ")
    assert replays.read_replay(exported).seed == ann.fold.revealed
    assert replays.read_replay(exported).labels.save_name == "Ann v Bob"  # named after its players, as in the lobby
    ann.close(), bob.close()


def rewrite(path, change):
    """The log rewritten with `change(records)` applied, every frame made whole again (an attacker's edit)."""
    parsed = parse_save(path.read_bytes(), "x")
    records = [dict(r) for r in parsed.records]
    change(records)
    path.write_bytes(MAGIC + frame(parsed.header) + b"".join(frame(r) for r in records))


def test_a_changed_die_or_a_wrong_revealed_seed_fails_verify_with_one_line(hall, capsys):
    from dicehall.engine.games import wager

    ann, bob = finished_wager(hall, seed=2)
    path = log_path(hall, ann)
    original = path.read_bytes()

    def change_first_die(records):
        for record in records:
            for n, raw in enumerate(record.get("events", ())):
                event = decode_event(raw, wager.EVENTS)
                if isinstance(event, wager.DieRolled):
                    other = 5 if event.face == 6 else 6
                    record["events"] = list(record["events"])
                    record["events"][n] = encode_event(type(event)(event.seat, other, event.typed))
                    return

    rewrite(path, change_first_die)
    assert main(["--hall", str(hall.folder), "verify", ann.id]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"dicehall: {ann.id}: record ")
    path.write_bytes(original)
    rewrite(path, lambda records: records[-1].update(seed=records[-1]["seed"] + 1))
    assert main(["--hall", str(hall.folder), "verify", ann.id]) == 1
    assert capsys.readouterr().err == (f"dicehall: {ann.id}: record {len(parse_save(original, 'x').records)}: "
                                       "the revealed seed does not match the commitment in the header\n")
    ann.close(), bob.close()


def test_a_seated_player_catches_a_die_that_is_not_the_seeds(hall):
    from dicehall.engine.games.wager import DieRolled

    ann = hall.host("wager", ["player", "open"], "Ann")
    bob = hall.join(ann.id, name="Bob")
    ann.follow()
    probe = Session(ann.module, seed=hall.read_secret(ann.id), players=ann.session.players)
    honest = probe.play(cmd(ann, "roll"))
    forged = [*honest[:-1], DieRolled(0, 6 if honest[-1].face != 6 else 5, False)]
    ann.log.append({"op": "play", "by": 0, "events": forged}, ann.fold.count)
    with pytest.raises(HallError, match="event 2: the dice do not match the seed"):
        bob.follow()  # a seated terminal checks every die against the seed
    watcher = hall.open(ann.id)  # a follower has no seed: it takes the legal die as given
    assert watcher.session.events[-1] == forged[-1]
    ann.close(), bob.close(), watcher.close()


def test_cli_host_join_and_listing(hall, capsys):
    folder = str(hall.folder)
    assert main(["--hall", folder, "host", "wager", "--players", "3", "--seat", "3=bot:bold", "--name", "Ann"]) == 0
    out = capsys.readouterr().out
    game_id = out.split(" as ")[1].split()[0]
    assert "you hold seat 1 as Ann" in out and "seats: Ann, open, Bot 3 (bot)" in out
    assert main(["join", game_id, "--hall", folder, "--name", "Bob"]) == 0
    assert "you hold seat 2 as Bob" in capsys.readouterr().out
    assert main(["--hall", folder, "hall"]) == 0
    listed = capsys.readouterr().out
    assert f"{game_id}  wager" in listed and "Ann (disconnected), Bob (disconnected), Bot 3 (bot); in progress" in listed
    with pytest.raises(SystemExit):
        main(["--hall", folder, "host", "towers", "--seat", "1=open", "--seat", "2=bot"])
    assert "leave one for yourself" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--hall", folder, "host", "towers", "--players", "3"])
    assert "--players is for Dead Man's Wager" in capsys.readouterr().err


def test_hall_json_names_each_game_by_who_plays_it_and_keeps_its_title(hall, capsys):
    folder = str(hall.folder)
    main(["--hall", folder, "host", "wager", "--players", "4", "--seat", "3=bot:bold", "--name", "Ann"])
    game_id = capsys.readouterr().out.split(" as ")[1].split()[0]
    main(["--hall", folder, "host", "towers", "--name", "Cat"])
    main(["--hall", folder, "join", game_id, "--name", "Bob"])
    capsys.readouterr()
    assert main(["--hall", folder, "hall", "--json"]) == 0
    listed = {(game["title"], game["name"]) for game in json.loads(capsys.readouterr().out)["games"]}
    assert listed == {("Dead Man's Wager", "Ann v Bob v Bot 3 v open"), ("Towers", "Cat v open")}


def test_the_hall_commands_never_import_textual(hall):
    code = ("import sys; from dicehall.cli import main; main(['--hall', sys.argv[1], 'host', 'towers', '--name', 'Ann']); "
            "main(['--hall', sys.argv[1], 'hall', '--json']); assert 'textual' not in sys.modules")
    assert subprocess.run([sys.executable, "-c", code, str(hall.folder)], capture_output=True, timeout=60).returncode == 0


def test_the_default_hall_is_the_admins_folder_else_the_users_data_folder(monkeypatch, tmp_path, home):
    monkeypatch.delenv("DICEHALL_HALL", raising=False)
    monkeypatch.setattr(hallmod.files, "ADMIN_HALL", tmp_path / "missing")
    assert hallmod.hall_dir() == home / "hall"
    admin = tmp_path / "var-games-dicehall"
    admin.mkdir()
    monkeypatch.setattr(hallmod.files, "ADMIN_HALL", admin)
    assert hallmod.hall_dir() == admin
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "env"))
    assert hallmod.hall_dir() == tmp_path / "env" and hallmod.hall_dir(tmp_path / "arg") == tmp_path / "arg"
