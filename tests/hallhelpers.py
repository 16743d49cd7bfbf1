"""Helpers for the hall's tests: child processes that hold a seat or watch, and whole games played
through HallGame objects."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHILD = """
import sys, time
from dicehall.saves.hall import Hall
folder, action, game_id, name, delay = sys.argv[1:6]
time.sleep(float(delay))
hall = Hall(folder)
game = hall.join(game_id, name=name) if action == "join" else hall.watch(game_id)
print(time.time(), flush=True)  # just after the seat's record (or the watcher's lock) is written
time.sleep(600)
"""


def start_child(tmp_path: Path, folder: Path, action: str, game_id: str, name: str, delay: float = 0.0) -> subprocess.Popen:
    """A dicehall process that joins (or watches) a hall game and holds on until it is killed.
    Its first line of output is the time just after it took the seat."""
    return subprocess.Popen([sys.executable, "-c", CHILD, str(folder), action, game_id, name, str(delay)],
                            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)


def fix_hall_seeds(monkeypatch, seed: int) -> None:
    """Every game hosted from now on in this test draws `seed` as its secret seed. A hall draws a
    random one, which decides a game's dice and so who wins: only a test whose meaning needs one
    result fixes it (any other asserts what holds whatever the seed)."""
    from dicehall.saves.hall import folder

    monkeypatch.setattr(folder.secret_source, "randbits", lambda bits: seed)


def step(games: dict) -> None:
    """Every game object reads what is new; then whoever may move plays its first legal command."""
    for game in games.values():
        game.follow()
    mover = next((game for game in games.values() if game.my_turn), None)
    if mover is not None:  # None: the game is over
        mover.play(mover.session.commands()[-1])  # roll, else end the turn: a wager game lasts


def play_last_commands(games: dict) -> None:
    """Play a hall game to its end through its seated game objects (seat -> HallGame), each playing
    its last legal command (Towers: the same moves every time, and Light wins 3 to 2), then close them."""
    first = games[0]
    while not first.finished:
        step(games)
    step(games)
    for game in games.values():
        game.close()


def play_until_over(games: dict, rng) -> None:
    """Play a hall game to its end through its seated game objects (seat -> HallGame), each
    choosing a random legal command on its turn (a bot's turn: the first seated object)."""
    while True:
        for game in games.values():
            game.follow()
        first = next(iter(games.values()))
        if first.finished:
            break
        mover = games.get(first.to_act, first)
        mover.play(rng.choice(mover.session.commands()))
    for game in games.values():
        game.follow()


PLAYER = """
import json, random, sys, time
from dicehall import engine
from dicehall.engine.core import IllegalCommand
from dicehall.saves.hall import Hall, StaleState
folder, game_id, name, seed, pause = sys.argv[1:6]
hall = Hall(folder)
game = hall.join(game_id, name=name) if name != "-" else hall.open(game_id, plays_bots=True)
rng = random.Random(int(seed))
played = stale = 0
deadline = time.monotonic() + 240
while time.monotonic() < deadline:
    game.follow()
    if game.finished:
        break
    if not game.my_turn:
        game.wait(0.5 if name != "-" else 0.01)
        continue
    try:
        game.play(rng.choice(game.session.commands()))
        played += 1
        time.sleep(float(pause))
    except StaleState:
        stale += 1
game.follow()
print(json.dumps({"played": played, "stale": stale, "finished": game.finished,
                  "digest": engine.digest(game.session.state), "events": len(game.session.events)}), flush=True)
"""


def start_player(folder: Path, game_id: str, name: str, seed: int, pause: float = 0.0) -> subprocess.Popen:
    """A process that takes seat `name` (or, with name "-", plays every bot's turn it can) and plays
    random legal moves (`pause` seconds after each) until the game is over; it prints a JSON summary
    of what it saw."""
    return subprocess.Popen([sys.executable, "-c", PLAYER, str(folder), game_id, name, str(seed), str(pause)],
                            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)
