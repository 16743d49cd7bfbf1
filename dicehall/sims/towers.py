"""`dicehall sim towers`: two bot levels play, colours alternated; wins, draws, margins, slowest answer."""
from __future__ import annotations

import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import entry_of, towers
from dicehall.engine.words import counted
from dicehall.sims import check_two_bots, game_numbers


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_towers(options["bots"] or ["hard", "easy"], games, seed)


def describe(report: dict) -> str:
    return format_towers(report)


def sim_towers(levels: list[str], games: int, seed: int) -> dict:
    """Two bot levels play `games` games, colours alternated (the first level is Light in the even
    games), Light placing first. Reports each level's wins, the draws, and the slowest answer."""
    from dicehall.engine.core import Player

    bots = entry_of(towers.ID).bots
    check_two_bots(levels, tuple(bots), "towers: --bots takes two levels, like --bots hard,easy", "Towers level", "levels")
    wins = {0: 0, 1: 0}  # by the level's position in `levels`
    draws = 0
    slowest = 0.0
    margins = []
    started = time.perf_counter()
    for game in game_numbers(games):
        seats = (0, 1) if game % 2 == 0 else (1, 0)  # seats[colour] = which level plays that colour
        game_seed = seeded_draw(seed, game, 2**32)
        session = engine.new_session(towers.ID, seed=game_seed, players=[
            Player(levels[seats[c]], True, "easy" if levels[seats[c]] == "random" else levels[seats[c]]) for c in (0, 1)])
        while session.outcome is None:
            began = time.perf_counter()
            command = bots[levels[seats[session.state.turn]]](session.state, game_seed, len(session.events))
            slowest = max(slowest, time.perf_counter() - began)
            session.play(command)
        light, dark = session.state.results[-1]
        margins.append((light - dark) if seats[0] == 0 else (dark - light))
        if light == dark:
            draws += 1
        else:
            wins[seats[0] if light > dark else seats[1]] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": towers.ID, "games": games, "seed": seed, "bots": levels,
        "win_rate": {levels[0]: wins[0] / games, levels[1]: wins[1] / games} if levels[0] != levels[1]
        else {f"{levels[0]} (first)": wins[0] / games, f"{levels[1]} (second)": wins[1] / games},
        "draw_rate": draws / games,
        "mean_margin": sum(margins) / games,  # for the first level
        "slowest_answer_s": round(slowest, 3),
        "seconds": round(elapsed, 3),
    }


def format_towers(report: dict) -> str:
    first, second = report["bots"]
    rates = ", ".join(f"{level} {rate:.1%}" for level, rate in report["win_rate"].items())
    return "\n".join([
        f"towers: {counted(report['games'], 'game')}, seed {report['seed']}, {first} against {second} (colours alternated)",
        f"wins: {rates}; draws {report['draw_rate']:.1%}",
        f"mean margin for {first}: {report['mean_margin']:+.2f}",
        f"slowest answer {report['slowest_answer_s']:.2f} s; {report['seconds'] / report['games']:.2f} s a game",
    ])
