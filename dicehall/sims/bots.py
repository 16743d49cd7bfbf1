"""`dicehall sim GAME` for a game with bots and no sim of its own: its catalogue entry's bots play
every seat (`--bots`, one name a seat in turn; by default the first bot of each seat), the seating
rotated every game, so a game added with bots is simulated without a module here."""
from __future__ import annotations

import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.core import Player
from dicehall.engine.games import entry_of
from dicehall.engine.words import counted
from dicehall.sims import game_numbers

MAX_DECISIONS = 10_000  # a game still going after this many bot moves is counted unfinished


def simulate(game_id: str, games: int, seed: int, options: dict) -> dict:
    entry = entry_of(game_id)
    bots = entry.bots
    names = list(options.get("bots") or [next(iter(bots))])
    unknown = [name for name in names if name not in bots]
    if unknown:
        raise ValueError(f"unknown {entry.title} bot {unknown[0][:20]!r} (bots: {', '.join(bots)})")
    seats = entry.seats[1]
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots for {counted(seats, 'seat')}")
    lineup = [names[i % len(names)] for i in range(seats)]
    wins = dict.fromkeys(lineup, 0)
    draws = unfinished = decisions = 0
    started = time.perf_counter()
    for game in game_numbers(games):
        shift = game % seats
        seating = lineup[shift:] + lineup[:shift]
        game_seed = seeded_draw(seed, game, 2**32)
        session = engine.new_session(game_id, seed=game_seed,
                                     players=[Player(f"{name} {i + 1}", True, name) for i, name in enumerate(seating)])
        played = 0
        while session.outcome is None and played < MAX_DECISIONS:
            seat = session.to_act
            if seat is None:  # waiting on a chance no seed decides: left unfinished
                break
            session.play(bots[seating[seat]](session.state, game_seed, len(session.events)))
            played += 1
        decisions += played
        if session.outcome is None:
            unfinished += 1
        elif session.outcome.winners:
            for winner in session.outcome.winners:
                wins[seating[winner]] += 1
        else:
            draws += 1
    return {"game": game_id, "games": games, "seed": seed, "bots": lineup,
            "win_rate": {name: wins[name] / games / lineup.count(name) for name in wins},  # per seat taken
            "draw_rate": draws / games, "unfinished": unfinished, "mean_decisions": decisions / games,
            "seconds": round(time.perf_counter() - started, 3)}


def describe(report: dict) -> str:
    rates = ", ".join(f"{name} {rate:.1%}" for name, rate in report["win_rate"].items())
    unfinished = f"; {report['unfinished']} unfinished" if report["unfinished"] else ""
    return "\n".join([
        f"{report['game']}: {counted(report['games'], 'game')}, seed {report['seed']}, "
        f"{', '.join(report['bots'])} (seating rotated every game)",
        f"win rate per seat taken: {rates}; draws {report['draw_rate']:.1%}{unfinished}",
        f"mean moves {report['mean_decisions']:.1f}",
    ])
