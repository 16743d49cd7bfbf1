"""`dicehall sim troll`: whole troll games played by a bot (the adviser, its search, or at random)."""
from __future__ import annotations

import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import entry_of, troll
from dicehall.engine.words import counted
from dicehall.sims import game_numbers


def simulate(games: int, seed: int, options: dict) -> dict:
    return sim_troll(games, seed, options["difficulty"], options["variant"], options["bot"])


def describe(report: dict) -> str:
    return format_troll(report)


def play_troll(seed: int, options: dict, bot: str) -> tuple[str, int, int]:
    """One whole troll game: (result, score, turns). bot is "hint" (the adviser), "search" (the
    adviser's best lines played on over sampled deals) or "random"."""
    session = engine.new_session(troll.ID, seed=seed, options=options)
    play = entry_of(troll.ID).bots[bot]
    step = 0
    while session.outcome is None:
        session.play(play(session.state, seed, step))  # the nonce counts its moves, not the events
        step += 1
    result = troll.result(session.state, 0)  # the rules' score: the cards left
    assert result is not None  # the game is over: it has a result
    return "perfect" if result.perfect else "won" if result.won else "lost", result.value, session.state.turn


def sim_troll(games: int, seed: int, difficulty: str, variant: str | None, bot: str) -> dict:
    options: dict = {"difficulty": difficulty}
    if variant:
        options[variant] = True
    engine.new_session(troll.ID, seed=0, options=options)  # bad options fail here, in one line
    if bot not in entry_of(troll.ID).bots:
        raise ValueError(f"unknown troll bot {str(bot)[:20]!r} (bots: {', '.join(entry_of(troll.ID).bots)})")
    started = time.perf_counter()
    results = [play_troll(seeded_draw(seed, i, 2**32), options, bot) for i in game_numbers(games)]
    elapsed = time.perf_counter() - started
    wins = sum(1 for r in results if r[0] != "lost")
    return {
        "game": troll.ID, "games": games, "seed": seed, "difficulty": difficulty, "variant": variant, "bot": bot,
        "win_rate": wins / games,
        "perfect_rate": sum(1 for r in results if r[0] == "perfect") / games,
        "mean_score": sum(r[1] for r in results) / games,
        "mean_turns": sum(r[2] for r in results) / games,
        "seconds": round(elapsed, 3),
    }


def format_troll(report: dict) -> str:
    variant = f", variant {report['variant']}" if report["variant"] else ""
    return "\n".join([
        f"troll: {counted(report['games'], 'game')}, seed {report['seed']}, {report['difficulty']}{variant}, bot {report['bot']}",
        f"win rate {report['win_rate']:.1%}, perfect wins {report['perfect_rate']:.1%}",
        f"mean score {report['mean_score']:.2f} (cards left; lower is better), mean turns {report['mean_turns']:.1f}",
        f"{report['games'] / max(report['seconds'], 1e-9):.1f} games per second",
    ])
