"""`dicehall sim bones`: two War of Bones bot styles play, seats alternated; wins, draws, turns."""
from __future__ import annotations

import time

from dicehall.engine.chance import seeded_draw
from dicehall.engine.words import counted
from dicehall.sims import check_two_bots, game_numbers


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_bones(options["bots"] or ["general", "random"], games, seed)


def describe(report: dict) -> str:
    return format_bones(report)


def sim_bones(levels: list[str], games: int, seed: int, turn_limit: int = 2000) -> dict:
    """Two War of Bones bot styles play `games` games, seats alternated (the first style is A in the
    even games). Reports each style's win rate, the draws (a game past `turn_limit` turns counts as
    unfinished), the mean turns and the slowest answer."""
    from dicehall.engine.core import Player
    from dicehall.engine.games import bones, entry_of
    from dicehall.engine.session import Session

    bots = entry_of(bones.ID).bots
    check_two_bots(levels, tuple(bots), "bones: --bots takes two styles, like --bots general,random",
                   "War of Bones bot", "bots")
    wins = {0: 0, 1: 0}  # by the style's position in `levels`
    draws = unfinished = 0
    turns = []
    slowest = 0.0
    started = time.perf_counter()
    for game in game_numbers(games):
        seats = (0, 1) if game % 2 == 0 else (1, 0)  # seats[seat] = which style plays that seat
        game_seed = seeded_draw(seed, game, 2**32)
        session = Session(bones, seed=game_seed, players=[Player(levels[seats[s]], True, levels[seats[s]]) for s in (0, 1)])
        while session.outcome is None and session.state.turn <= turn_limit:
            began = time.perf_counter()
            seat = session.to_act
            assert seat is not None  # the session rolls the dice itself: a player acts until the end
            command = bots[levels[seats[seat]]](session.state, game_seed, len(session.events))
            slowest = max(slowest, time.perf_counter() - began)
            session.play(command)
        turns.append(session.state.turn)
        if session.outcome is None:
            unfinished += 1
        elif session.outcome.winners:
            wins[seats[session.outcome.winners[0]]] += 1
        else:
            draws += 1
    elapsed = time.perf_counter() - started
    return {
        "game": bones.ID, "games": games, "seed": seed, "bots": levels,
        "win_rate": {levels[0]: wins[0] / games, levels[1]: wins[1] / games} if levels[0] != levels[1]
        else {f"{levels[0]} (first)": wins[0] / games, f"{levels[1]} (second)": wins[1] / games},
        "draw_rate": draws / games,
        "unfinished": unfinished,
        "mean_turns": sum(turns) / games if games else 0.0,
        "slowest_answer_s": round(slowest, 3),
        "seconds": round(elapsed, 3),
    }


def format_bones(report: dict) -> str:
    first, second = report["bots"]
    rates = ", ".join(f"{level} {rate:.1%}" for level, rate in report["win_rate"].items())
    unfinished = f"; {report['unfinished']} unfinished" if report["unfinished"] else ""
    return "\n".join([
        f"bones: {counted(report['games'], 'game')}, seed {report['seed']}, {first} against {second} (seats alternated)",
        f"wins: {rates}; draws {report['draw_rate']:.1%}{unfinished}",
        f"mean turns {report['mean_turns']:.1f}",
        f"slowest answer {report['slowest_answer_s']:.2f} s; {report['seconds'] / max(report['games'], 1):.2f} s a game",
    ])
