"""`dicehall sim dicetower`: whole towers pulled through the engine, the pulls summarised."""
from __future__ import annotations

import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import dicetower
from dicehall.engine.words import counted
from dicehall.sims import game_numbers, percentile


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_dicetower(games, seed, options["remove_rate"])


def describe(report: dict) -> str:
    return format_report(report)


def play_dicetower(seed: int, remove_rate: float) -> int:
    """One whole tower through the engine; the prompt's "remove" comes from a second seeded stream."""
    session = engine.Session(dicetower, seed=seed)  # the module itself: no look-up by name per game
    pulls = 0
    threshold = round(remove_rate * 1_000_000)
    commands = (dicetower.PullBlock(False), dicetower.PullBlock(True))
    while session.outcome is None:
        remove = threshold > 0 and seeded_draw(seed ^ 0x52454D4F5645, pulls, 1_000_000) < threshold  # rate 0: no draw
        session.play(commands[remove])
        pulls += 1
    return session.state.pulls


def sim_dicetower(games: int, seed: int, remove_rate: float) -> dict:
    started = time.perf_counter()
    pulls = sorted(play_dicetower(seeded_draw(seed, i, 2**32), remove_rate) for i in game_numbers(games))
    elapsed = time.perf_counter() - started
    report = {
        "game": dicetower.ID,
        "games": games,
        "seed": seed,
        "remove_rate": remove_rate,
        "mean": sum(pulls) / games,
        "min": pulls[0],
        "max": pulls[-1],
        "percentiles": {f"p{p}": percentile(pulls, p) for p in (5, 25, 50, 75, 95)},
        "seconds": round(elapsed, 3),
    }
    if remove_rate == 0:
        report["exact_mean"] = float(dicetower.expected_pulls(100))
    return report


def format_report(report: dict) -> str:
    lines = [f"{report['game']}: {counted(report['games'], 'game')}, seed {report['seed']}, remove rate {report['remove_rate']}"]
    exact = f" (exact {report['exact_mean']:.2f})" if "exact_mean" in report else ""
    lines.append(f"pulls: mean {report['mean']:.2f}{exact}, min {report['min']}, max {report['max']}")
    lines.append("percentiles: " + ", ".join(f"{k} {v}" for k, v in report["percentiles"].items()))
    lines.append(f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second")
    return "\n".join(lines)
