"""The hall with real processes at once: appends racing on one log, bots' turns raced for, and whole
games played by two processes with a third watching."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dicehall import engine
from dicehall import replays
from dicehall.saves import parse_save
from dicehall.saves.hall import Hall
from tests.apphelpers import eventually
from tests.hallhelpers import start_player

WRITERS, APPENDS = 8, 50

WRITER = """
import sys
from dicehall.saves.hall import Hall, HallLog, StaleState
folder, game_id, writer = sys.argv[1:4]
hall = Hall(folder)
log = HallLog(hall.games / f"{game_id}.dhh", hall.gid(), writable=True)
stale = 0
for n in range(%d):
    while True:
        log.read_new()
        try:
            log.append({"op": "race", "writer": int(writer), "n": n}, log.count)
            break
        except StaleState:
            stale += 1
print(stale, flush=True)
""" % APPENDS

READER = """
import os, sys
from dicehall.saves import SaveScan
path, rounds = sys.argv[1], int(sys.argv[2])
for _ in range(rounds):
    with open(path, "rb") as handle:
        scan = SaveScan(handle, "race", os.fstat(handle.fileno()).st_size)
        count = sum(1 for _ in scan.records)
        assert scan.damage is None, scan.damage  # a tail still being written is torn, never damage
print(count, flush=True)
"""

ROOT = Path(__file__).parent.parent


def test_many_processes_appending_at_once_lose_and_duplicate_nothing(tmp_path):
    hall = Hall(tmp_path / "hall")
    game = hall.host("wager", ["player", "open"], "Ann")
    game.close()
    path = hall.games / f"{game.id}.dhh"
    before = len(parse_save(path.read_bytes(), "x").records)
    reader = subprocess.Popen([sys.executable, "-c", READER, str(path), "400"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(hall.folder), game.id, str(w)], stdout=subprocess.PIPE,
                                text=True, cwd=ROOT) for w in range(WRITERS)]
    stale = [int(w.communicate(timeout=300)[0]) for w in writers]
    assert all(w.returncode == 0 for w in writers)
    reader.communicate(timeout=300)
    assert reader.returncode == 0  # every read during the race loaded
    parsed = parse_save(path.read_bytes(), "x")
    assert not parsed.torn and parsed.damage is None
    raced = [(r["writer"], r["n"]) for r in parsed.records[before:]]
    assert len(raced) == WRITERS * APPENDS and set(raced) == {(w, n) for w in range(WRITERS) for n in range(APPENDS)}
    for w in range(WRITERS):  # each writer's records in the order it wrote them
        assert [n for writer, n in raced if writer == w] == list(range(APPENDS))
    print("stale appends refused and retried:", sum(stale))


def test_processes_racing_for_the_bots_turns_fork_nothing(tmp_path):
    hall = Hall(tmp_path / "hall")
    host = hall.host("bones", ["bot:random", "bot:random"], "")
    assert host.seat is None and host.plays_bots
    host.close()
    racers = [start_player(hall.folder, host.id, "-", seed) for seed in range(6)]
    reports = [json.loads(r.communicate(timeout=300)[0]) for r in racers]
    assert all(report["finished"] for report in reports)
    records = parse_save((hall.games / f"{host.id}.dhh").read_bytes(), "x").records
    plays = sum(1 for r in records if r["op"] == "play")
    assert sum(report["played"] for report in reports) == plays  # each move written by exactly one racer
    print("stale moves refused:", sum(report["stale"] for report in reports))  # how hard they raced (load-dependent)
    follower = hall.open(host.id)
    assert {report["digest"] for report in reports} == {engine.digest(follower.session.state)}
    assert records[-1]["op"] == "reveal" and sum(r["op"] == "reveal" for r in records) == 1
    assert hall.verify(host.id).startswith(f"ok: hall game {host.id}, War of Bones")
    follower.close()


def play_whole_game(tmp_path, game: str, seats: list[str]):
    """Ann and Bob in two processes play a whole game; this process watches it live."""
    hall = Hall(tmp_path / "hall")
    hosted = hall.host(game, seats, "Ann")
    game_id = hosted.id
    hosted.close()  # Ann's own process takes her seat back
    watcher = hall.watch(game_id)
    players = [start_player(hall.folder, game_id, name, seed) for seed, name in enumerate(["Ann", "Bob"])]
    eventually(lambda: watcher.finished, "the game did not end", 240, lambda: watcher.wait(2) and watcher.follow())
    reports = [json.loads(p.communicate(timeout=240)[0]) for p in players]
    watcher.follow()
    assert watcher.finished and all(report["finished"] for report in reports)
    digest = engine.digest(watcher.session.state)
    assert [report["digest"] for report in reports] == [digest, digest]
    assert [report["events"] for report in reports] == [len(watcher.session.events)] * 2
    assert watcher.fold.revealed is not None
    assert hall.verify(game_id).startswith(f"ok: hall game {game_id}")
    exported = hall.export(game_id, tmp_path)
    assert replays.verify(exported).startswith("ok: ")
    assert engine.digest(replays.read_replay(exported).state) == digest
    watcher.close()
    return watcher


def test_a_whole_wager_game_between_two_processes_watched_by_a_third(tmp_path):
    watcher = play_whole_game(tmp_path, "wager", ["player", "open"])
    assert watcher.session.state.names == ("Ann", "Bob")


def test_a_whole_towers_game_between_two_processes_watched_by_a_third(tmp_path):
    watcher = play_whole_game(tmp_path, "towers", ["player", "open"])
    assert watcher.session.state.names == ("Ann", "Bob")


def test_a_player_hung_up_mid_game_is_shown_disconnected_takes_the_seat_back_and_finishes(tmp_path):
    import signal

    hall = Hall(tmp_path / "hall")
    hosted = hall.host("towers", ["player", "open"], "Ann")
    game_id = hosted.id
    hosted.close()
    watcher = hall.watch(game_id)
    ann = start_player(hall.folder, game_id, "Ann", 1, pause=0.1)
    bob = start_player(hall.folder, game_id, "Bob", 2, pause=0.1)
    eventually(lambda: watcher.session is not None and len(watcher.session.events) >= 6, "six moves were not played", 60,
               lambda: watcher.wait(2) and watcher.follow())
    assert not watcher.finished
    bob.send_signal(signal.SIGHUP)
    assert bob.wait(10) == -signal.SIGHUP  # it was still playing
    assert watcher.wait(5)  # the seat's holder left
    watcher.follow()
    assert [view.words() for view in watcher.seats()] == ["Ann", "Bob (disconnected)"]
    assert [view.status for view in hall.entry(game_id).seats] == ["player", "disconnected"]
    again = start_player(hall.folder, game_id, "Bob", 3)
    reports = [json.loads(p.communicate(timeout=240)[0]) for p in (ann, again)]
    watcher.follow()
    assert watcher.finished and {r["digest"] for r in reports} == {engine.digest(watcher.session.state)}
    assert reports[1]["played"] > 0  # Bob played on from where he was cut off
    assert hall.verify(game_id).startswith(f"ok: hall game {game_id}, Towers, Ann, Bob")
    watcher.close()
