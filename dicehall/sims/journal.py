"""`dicehall sim journal --deck FILE|sample [--option KEY=VALUE]`: whole journal games from a deck under
the player's rulings, the endings summarised."""
from __future__ import annotations

import time

from dicehall.engine.errors import RulingError
from dicehall.engine.games import journal
from dicehall.engine.words import counted
from dicehall.sims import game_numbers, percentile


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_journal(games, seed, options["deck"], dict(options["option"]))


def describe(report: dict) -> str:
    return format_journal(report)


def sim_journal(games: int, seed: int, deck_name: str, rulings: dict | None = None) -> dict:
    """Whole journal games from a deck, under the player's rulings (--option KEY=VALUE, checked before
    the deck is read), sampled by the game's own playout (engine/games/journal/odds.py: the engine's
    rules at a thousand games a second; the session takes 30 ms a game)."""
    import random

    from dicehall.saves.decks import deck_options  # a path off a box; on one, the hall's decks by name

    if "deck" in (rulings or {}):
        raise RulingError("sim journal takes its deck as --deck FILE|sample, not as --option deck")
    options = journal.check_options(deck_options(journal.ID, {**(rulings or {}), "deck": deck_name}))
    state = journal.initial_state(options, ())
    rulings = {key: options[key] for key in journal.RULINGS if key in options}
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
    return {"game": journal.ID, "deck": state.deck.title, "rulings": rulings, "games": games, "seed": seed,
            "summary": journal.deck_summary(state.deck),  # the deck's actions and settings, printed first
            "endings": {name: count / games for name, count in endings.items()},
            "mean_days": sum(days) / games, "days_percentiles": {f"p{p}": percentile(days, p) for p in (5, 50, 95)},
            "mean_pulls": sum(pulls) / games, "seconds": round(elapsed, 3)}


def format_journal(report: dict) -> str:
    endings = report["endings"]
    return "\n".join([
        f"journal: {report['deck']}: {counted(report['games'], 'game')}, seed {report['seed']} (simulated, not exact)",
        *(f"  {line}" for line in report.get("summary", ())),  # the deck's actions and settings
        *([f"rulings: {', '.join(f'{key}={value}' for key, value in report['rulings'].items())} (over the deck's settings)"]
          if report["rulings"] else []),
        f"the tower ends it {endings['tower']:.2%}; the Kings {endings['kings']:.2%}; "
        f"salvation {endings['salvation']:.2%}; the deck {endings['deck']:.2%}",
        f"days: mean {report['mean_days']:.2f}, " + ", ".join(f"{k} {v}" for k, v in report["days_percentiles"].items())
        + f"; pulls: mean {report['mean_pulls']:.2f}",
        f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second",
    ])
