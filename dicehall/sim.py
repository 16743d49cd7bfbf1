"""`dicehall sim`: whole games sampled through the engine, summarised. Headless: no Textual here."""
from __future__ import annotations

import json
import math
import sys
import time

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import dicetower
from dicehall.engine.words import counted


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


def play_troll(seed: int, options: dict, bot: str) -> tuple[str, int, int]:
    """One whole troll game: (result, score, turns). bot is "hint" (the adviser), "search" (the
    adviser's best lines played on over sampled deals) or "random"."""
    from dicehall.engine.bots import troll as adviser
    from dicehall.engine.bots import troll_search

    session = engine.new_session("troll", seed=seed, options=options)
    step = 0
    while session.outcome is None:
        if bot == "random":
            commands = session.commands()
            command = commands[seeded_draw(seed ^ 0x52414E44, step, len(commands))]
        elif bot == "search":
            command = troll_search.choose(session.state, seed)
        else:
            command = adviser.choose(session.state)
        session.play(command)
        step += 1
    outcome = session.outcome
    result = "perfect" if outcome.summary == "perfect win" else "won" if outcome.winners else "lost"
    return result, outcome.score or 0, session.state.turn


def sim_troll(games: int, seed: int, difficulty: str, variant: str | None, bot: str) -> dict:
    options: dict = {"difficulty": difficulty}
    if variant:
        options[variant] = True
    engine.new_session("troll", seed=0, options=options)  # bad options fail here, in one line
    started = time.perf_counter()
    results = [play_troll(seeded_draw(seed, i, 2**32), options, bot) for i in game_numbers(games)]
    elapsed = time.perf_counter() - started
    wins = sum(1 for r in results if r[0] != "lost")
    return {
        "game": "troll", "games": games, "seed": seed, "difficulty": difficulty, "variant": variant, "bot": bot,
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


def sim_wager(players: int, styles: list[str], games: int, seed: int) -> dict:
    """Bots of the given styles play whole games; the seating rotates every game, so each style
    sits in each seat equally often. Reports win rates per style and per seat (first-player advantage)."""
    from dicehall.engine.bots import wager as bots
    from dicehall.engine.core import Player

    if not 2 <= players <= 6:
        raise ValueError("wager needs 2 to 6 players")
    unknown = [s for s in styles if s not in bots.STYLES]
    if unknown or not styles:
        raise ValueError(f"unknown bot style {unknown[0] if unknown else ''!r} (styles: {', '.join(bots.STYLES)})")
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
        session = engine.new_session("wager", seed=seeded_draw(seed, game, 2**32),
                                     players=[Player(f"{style} {i + 1}", True, style) for i, style in enumerate(seating)])
        while session.outcome is None:
            session.play(bots.choose(session.state, seating[session.to_act]))
        winner = session.outcome.winners[0]
        seat_wins[winner] += 1
        style_wins[seating[winner]] += 1
        for style in seating:
            style_seats[style] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": "wager", "games": games, "seed": seed, "players": players, "bots": lineup,
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


def check_two_bots(levels: list[str], known: tuple[str, ...], usage: str, what: str, plural: str) -> None:
    """A two-player sim's --bots: exactly two names, each one the game's bot knows."""
    if len(levels) != 2:
        raise ValueError(usage)
    unknown = [level for level in levels if level not in known]
    if unknown:
        raise ValueError(f"unknown {what} {unknown[0]!r} ({plural}: {', '.join(known)})")


def sim_towers(levels: list[str], games: int, seed: int) -> dict:
    """Two bot levels play `games` games, colours alternated (the first level is Light in the even
    games), Light placing first. Reports each level's wins, the draws, and the slowest answer."""
    from dicehall.engine.bots import towers as bots
    from dicehall.engine.core import Player

    check_two_bots(levels, bots.LEVELS, "towers: --bots takes two levels, like --bots hard,easy", "Towers level", "levels")
    wins = {0: 0, 1: 0}  # by the level's position in `levels`
    draws = 0
    slowest = 0.0
    margins = []
    started = time.perf_counter()
    for game in game_numbers(games):
        seats = (0, 1) if game % 2 == 0 else (1, 0)  # seats[colour] = which level plays that colour
        game_seed = seeded_draw(seed, game, 2**32)
        session = engine.new_session("towers", seed=game_seed, players=[
            Player(levels[seats[c]], True, "easy" if levels[seats[c]] == "random" else levels[seats[c]]) for c in (0, 1)])
        while session.outcome is None:
            began = time.perf_counter()
            command = bots.choose(session.state, levels[seats[session.state.turn]], game_seed, len(session.events))
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
        "game": "towers", "games": games, "seed": seed, "bots": levels,
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


def sim_bones(levels: list[str], games: int, seed: int, turn_limit: int = 2000) -> dict:
    """Two War of Bones bot styles play `games` games, seats alternated (the first style is A in the
    even games). Reports each style's win rate, the draws (a game past `turn_limit` turns counts as
    unfinished), the mean turns and the slowest answer."""
    from dicehall.engine.bots import bones as bots
    from dicehall.engine.core import Player
    from dicehall.engine.games import bones
    from dicehall.engine.session import Session

    check_two_bots(levels, bots.LEVELS, "bones: --bots takes two styles, like --bots general,random",
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
            command = bots.choose(session.state, levels[seats[session.to_act]], game_seed, len(session.events))
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
        "game": "bones", "games": games, "seed": seed, "bots": levels,
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


def sim_journal(games: int, seed: int, deck_name: str) -> dict:
    """Whole journal games from a deck, sampled by the game's own playout (engine/games/journal/odds.py:
    the engine's rules at a thousand games a second; the session takes 30 ms a game)."""
    import random

    from dicehall.engine.games import journal

    deck = journal.sample_deck() if deck_name == "sample" else journal.load_deck(deck_name)
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
    return {"game": "journal", "deck": deck.title, "games": games, "seed": seed,
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


def format_report(report: dict) -> str:
    lines = [f"{report['game']}: {counted(report['games'], 'game')}, seed {report['seed']}, remove rate {report['remove_rate']}"]
    exact = f" (exact {report['exact_mean']:.2f})" if "exact_mean" in report else ""
    lines.append(f"pulls: mean {report['mean']:.2f}{exact}, min {report['min']}, max {report['max']}")
    lines.append("percentiles: " + ", ".join(f"{k} {v}" for k, v in report["percentiles"].items()))
    lines.append(f"{report['games'] / max(report['seconds'], 1e-9):.0f} games per second")
    return "\n".join(lines)


def run(game: str, games: int, seed: int, remove_rate: float, as_json: bool,
        difficulty: str = "standard", variant: str | None = None, bot: str = "hint",
        players: int = 2, styles: list[str] | None = None, deck: str = "sample") -> str:
    if game == "troll":
        report = sim_troll(games, seed, difficulty, variant, bot)
        return json.dumps(report) if as_json else format_troll(report)
    if game == "wager":
        report = sim_wager(players, styles or ["best", "cautious"], games, seed)
        return json.dumps(report) if as_json else format_wager(report)
    if game == "towers":
        report = sim_towers(styles or ["hard", "easy"], games, seed)
        return json.dumps(report) if as_json else format_towers(report)
    if game == "bones":
        report = sim_bones(styles or ["general", "random"], games, seed)
        return json.dumps(report) if as_json else format_bones(report)
    if game == "journal":
        report = sim_journal(games, seed, deck)
        return json.dumps(report) if as_json else format_journal(report)
    if game != "dicetower":
        engine.get_game(game)  # names the problem: unknown, or not built yet
        raise ValueError(f"sim does not know how to play {game} yet")
    report = sim_dicetower(games, seed, remove_rate)
    return json.dumps(report) if as_json else format_report(report)
