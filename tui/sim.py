"""`dicehall sim`: whole games sampled through the engine, summarised. Headless: no Textual here."""
from __future__ import annotations

import json
import math
import time

import engine
from engine.chance import seeded_draw
from engine.games import dicetower


def percentile(sorted_values: list[int], p: float) -> int:
    """Nearest-rank percentile of an already sorted list."""
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def play_dicetower(seed: int, remove_rate: float) -> int:
    """One whole tower through the engine; the prompt's "remove" comes from a second seeded stream."""
    session = engine.new_session("dicetower", seed=seed)
    pulls = 0
    threshold = round(remove_rate * 1_000_000)
    while session.outcome is None:
        remove = seeded_draw(seed ^ 0x52454D4F5645, pulls, 1_000_000) < threshold
        session.play(dicetower.PullBlock(remove))
        pulls += 1
    return session.state.pulls


def sim_dicetower(games: int, seed: int, remove_rate: float) -> dict:
    started = time.perf_counter()
    pulls = sorted(play_dicetower(seeded_draw(seed, i, 2**32), remove_rate) for i in range(games))
    elapsed = time.perf_counter() - started
    report = {
        "game": "dicetower",
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
    lines = [f"{report['game']}: {report['games']} games, seed {report['seed']}, remove rate {report['remove_rate']}"]
    exact = f" (exact {report['exact_mean']:.2f})" if "exact_mean" in report else ""
    lines.append(f"pulls: mean {report['mean']:.2f}{exact}, min {report['min']}, max {report['max']}")
    lines.append("percentiles: " + ", ".join(f"{k} {v}" for k, v in report["percentiles"].items()))
    lines.append(f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second")
    return "\n".join(lines)


def run(game: str, games: int, seed: int, remove_rate: float, as_json: bool) -> str:
    if game != "dicetower":
        engine.get_game(game)  # names the problem: unknown, or not built yet
        raise ValueError(f"sim does not know how to play {game} yet")
    report = sim_dicetower(games, seed, remove_rate)
    return json.dumps(report) if as_json else format_report(report)
