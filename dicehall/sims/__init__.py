"""`dicehall sim`: whole games sampled through the engine, summarised. Headless: no Textual here.

Each game's sim is its own module here, named by the game's catalogue entry (`simulator`), with
`simulate(games, seed, options) -> report` (a dict, printed as JSON by --json) and
`describe(report) -> str`; the options are the entry's `sim_options`, defaults filled in. A game
with bots (its entry's `bot_module`) and no sim of its own is played by them (dicehall/sims/bots.py).
"""
from __future__ import annotations

import json
import math
import sys
import time
from importlib import import_module

from dicehall import engine
from dicehall.engine.games import entry_of


PROGRESS_SECONDS = 1.0  # how often a long run says how far it has got


def game_numbers(games: int):
    """range(games); on a terminal, stderr says how far a long run has got, once a second, on one
    line that is cleared at the end (stdout keeps only the report, for pipes and --json)."""
    show = sys.stderr.isatty()
    said = ""
    last = time.monotonic()
    for game in range(games):
        if show and time.monotonic() - last >= PROGRESS_SECONDS:
            last = time.monotonic()
            said = f"sim: {game:,} of {games:,} games"
            print(f"\r{said}", end="", file=sys.stderr, flush=True)
        yield game
    if said:
        print("\r" + " " * len(said) + "\r", end="", file=sys.stderr, flush=True)


def percentile(sorted_values: list[int], p: float) -> int:
    """Nearest-rank percentile of an already sorted list."""
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def check_two_bots(levels: list[str], known: tuple[str, ...], usage: str, what: str, plural: str) -> None:
    """A two-player sim's --bots: exactly two names, each one the game's bot knows."""
    if len(levels) != 2:
        raise ValueError(usage)
    unknown = [level for level in levels if level not in known]
    if unknown:
        raise ValueError(f"unknown {what} {unknown[0]!r} ({plural}: {', '.join(known)})")


def run(game: str, games: int, seed: int, options: dict, as_json: bool) -> str:
    """A game's sim, its report as text or JSON; ValueError (one line) for what it cannot do."""
    entry = entry_of(game)
    engine.get_game(game)  # names the problem: unknown, or not built yet
    options = dict(entry.sim_defaults, **options)
    if entry.simulator:
        sim = import_module(entry.simulator)
        report = sim.simulate(games, seed, options)
    elif entry.bot_module:  # its catalogue's bots play every seat
        sim = import_module("dicehall.sims.bots")
        report = sim.simulate(game, games, seed, options)
    else:
        raise ValueError(f"sim does not know how to play {game} yet")
    return json.dumps(report) if as_json else sim.describe(report)
