"""`dicehall sim journal --deck FILE|sample`: whole journal games from a deck, the endings summarised."""
from __future__ import annotations

import time

from dicehall.engine.games import journal
from dicehall.engine.words import counted
from dicehall.sims import game_numbers, percentile


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_journal(games, seed, options["deck"])


def describe(report: dict) -> str:
    return format_journal(report)


def sim_journal(games: int, seed: int, deck_name: str) -> dict:
    """Whole journal games from a deck, sampled by the game's own playout (engine/games/journal/odds.py:
    the engine's rules at a thousand games a second; the session takes 30 ms a game)."""
    import random

    from dicehall.saves.decks import named_deck  # a path off a box; on one, the hall's decks by name

    deck = named_deck(deck_name)
    state = journal.initial_state(journal.check_options({"deck": deck.record()}), ())
    started = time.perf_counter()
    rng = random.Random(seed)  # a sim's figures, never a game's events: nothing of it is saved
    endings = dict.fromkeys(journal.odds.ENDINGS, 0)
    days, pulls = [], []
    for _ in game_numbers(games):
        result = journal.playout(state, rng)
        endings[result.ending] += 1
        days.append(result.days)
        pulls.append(result.pulls)
    elapsed = time.perf_counter() - started
    days.sort()
    return {"game": journal.ID, "deck": deck.title, "games": games, "seed": seed,
            "endings": {name: count / games for name, count in endings.items()},
            "mean_days": sum(days) / games, "days_percentiles": {f"p{p}": percentile(days, p) for p in (5, 50, 95)},
            "mean_pulls": sum(pulls) / games, "seconds": round(elapsed, 3)}


def format_journal(report: dict) -> str:
    endings = report["endings"]
    return "\n".join([
        f"journal: {report['deck']}: {counted(report['games'], 'game')}, seed {report['seed']} (simulated, not exact)",
        f"the tower ends it {endings['tower']:.2%}; the Kings {endings['kings']:.2%}; "
        f"salvation {endings['salvation']:.2%}; the deck {endings['deck']:.2%}",
        f"days: mean {report['mean_days']:.2f}, " + ", ".join(f"{k} {v}" for k, v in report["days_percentiles"].items())
        + f"; pulls: mean {report['mean_pulls']:.2f}",
        f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second",
    ])
