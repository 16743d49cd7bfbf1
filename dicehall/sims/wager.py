"""`dicehall sim wager`: bots of given styles race, the seating rotated, win rates per style and seat."""
from __future__ import annotations

import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import entry_of, wager
from dicehall.engine.words import counted
from dicehall.sims import game_numbers


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_wager(options["players"], options["bots"] or ["best", "cautious"], games, seed)


def describe(report: dict) -> str:
    return format_wager(report)


def sim_wager(players: int, styles: list[str], games: int, seed: int) -> dict:
    """Bots of the given styles play whole games; the seating rotates every game, so each style
    sits in each seat equally often. Reports win rates per style and per seat (first-player advantage)."""
    from dicehall.engine.core import Player

    bots = entry_of(wager.ID).bots
    if not 2 <= players <= 6:
        raise ValueError("wager needs 2 to 6 players")
    unknown = [s for s in styles if s not in bots]
    if unknown or not styles:
        raise ValueError(f"unknown bot style {unknown[0] if unknown else ''!r} (styles: {', '.join(bots)})")
    if len(styles) > players:
        raise ValueError(f"{len(styles)} bot styles for {players} players: give --players {len(styles)} or fewer styles")
    lineup = [styles[i % len(styles)] for i in range(players)]
    style_wins = {style: 0 for style in lineup}
    style_seats = {style: 0 for style in lineup}
    seat_wins = [0] * players
    started = time.perf_counter()
    for game in game_numbers(games):
        shift = game % players
        seating = lineup[shift:] + lineup[:shift]
        game_seed = seeded_draw(seed, game, 2**32)
        session = engine.new_session(wager.ID, seed=game_seed,
                                     players=[Player(f"{style} {i + 1}", True, style) for i, style in enumerate(seating)])
        while session.outcome is None:
            seat = session.to_act
            assert seat is not None  # the session rolls the dice itself: a player acts until the end
            session.play(bots[seating[seat]](session.state, game_seed, len(session.events)))
        winner = session.outcome.winners[0]
        seat_wins[winner] += 1
        style_wins[seating[winner]] += 1
        for style in seating:
            style_seats[style] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": wager.ID, "games": games, "seed": seed, "players": players, "bots": lineup,
        # a style's wins per seat it took: an even share is 1/players
        "style_win_rate": {s: style_wins[s] / style_seats[s] for s in style_wins},
        "seat_win_rate": [w / games for w in seat_wins],
        "seconds": round(elapsed, 3),
    }


def format_wager(report: dict) -> str:
    lines = [f"wager: {counted(report['games'], 'game')}, seed {report['seed']}, {counted(report['players'], 'player')}: "
             f"{', '.join(report['bots'])} (seating rotated every game)"]
    lines.append("win rate per seat taken: " + ", ".join(f"{s} {r:.1%}" for s, r in report["style_win_rate"].items()))
    lines.append("win rate by seat: " + ", ".join(f"seat {i + 1} {r:.1%}" for i, r in enumerate(report["seat_win_rate"])))
    lines.append(f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second")
    return "\n".join(lines)
