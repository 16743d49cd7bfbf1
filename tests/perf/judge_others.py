"""A slower, stronger reference judge for the analysis of Towers and War of Bones, over games it
generates, reporting how often it agrees with `dicehall analyse` (docs/analysis.md has the figures).

    python tests/perf/judge_others.py towers [--games 8] [--seed 1]
    python tests/perf/judge_others.py towers --spread [--games 16]   # the analyser's SLOPE and SPREAD
    python tests/perf/judge_others.py bones [--games 3] [--seed 1]

Towers: the reference searches 10 times as many positions (every legal move, the same depth for
all, exact to the end where that is reached). War of Bones: full games to the end played by the
generals (not the analyser's two turns and a material curve), 24 of them per move judged on fresh
dice, the move played and the analyser's best on the same dice (paired); it judges every `?` and
`??` and three other decisions where a better move was named, per game (full games are slow).
For each game it reports:

- confirmed: the share of the analyser's `?` and `??` marks whose move the reference also finds
  worse than its best by at least the `?!` size (1 point of margin; 5 points of win chance);
- best: the share of the decisions where the analyser named a better move than the one played in
  which the reference rates that move at least as good as the one played.

The games: a human-like player (Towers: the easy bot, a random move two times in five; War of
Bones: the general's move three times in four, a random legal command otherwise) against the
strongest bot, and (Towers) bot against bot. Not a test: nothing here fails a build.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

REFERENCE_TIMES = 10  # Towers: the reference searches this many times the analyser's positions


def towers_games(games: int, seed: int):
    """(session, kind) pairs: a person playing like the easy bot against the medium bot, and
    medium against medium (every seat a person, so both are judged)."""
    from dicehall import engine
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.core import Player

    for number in range(games):
        game_seed = seed + number
        human_like = number % 2 == 0
        players = [Player("Ann"), Player("Bot", True, "medium")] if human_like else [Player("Ann"), Player("Bob")]
        session = engine.new_session("towers", seed=game_seed, players=players)
        while session.outcome is None:
            level = "easy" if human_like and session.to_act == 0 else "medium"
            session.play(bot.choose(session.state, level, seed=game_seed, nonce=len(session.events)))
        yield session, "human-like" if human_like else "bot-vs-bot"


def towers_reference(games: int, seed: int) -> None:
    from dicehall.engine import analysis
    from dicehall.engine.analysis import towers as judge
    from dicehall.engine.games import towers

    nodes = judge.NODES * REFERENCE_TIMES
    marked = confirmed = named = named_good = decisions = 0
    counts = {"?!": 0, "?": 0, "??": 0}
    started = time.perf_counter()
    for session, kind in towers_games(games, seed):
        result = analysis.analyse(session)
        game_marked = 0
        for decision in result.decisions:
            decisions += 1
            if decision.mark:
                counts[decision.mark] += 1
                game_marked += 1
            if decision.best == decision.played and decision.mark not in ("?", "??"):
                continue
            state = session.state_at(decision.event - 1)
            played = towers.parse_command(decision.played)
            reference = judge.expected(judge.judge(state, played, nodes), state)
            if decision.mark in ("?", "??"):
                marked += 1
                confirmed += reference.lost >= judge.THRESHOLDS[0]
            if decision.best != decision.played:
                named += 1
                best = judge.judge(state, towers.parse_command(decision.best), nodes)
                named_good += best.played_points >= reference.played_points - 1e-9
        print(f"seed {session.seed} ({kind}): {len(result.decisions)} decisions, {game_marked} marked; "
              f"{session.outcome.summary}", flush=True)
    print(f"Towers, {games} games, {decisions} decisions: marks ?? {counts['??']}, ? {counts['?']}, ?! {counts['?!']}; "
          f"? and ?? confirmed {confirmed} of {marked} ({share(confirmed, marked)}); the named best at least as good "
          f"as the move played {named_good} of {named} ({share(named_good, named)}); {time.perf_counter() - started:.0f} s")


def towers_spread(games: int, seed: int) -> None:
    """How the search's estimate (the analyser's best, from the mover's side) relates to the final
    margin from the mover's side, by phase: the slope through the origin and the spread around it."""
    from dicehall.engine.analysis import towers as judge
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.games import towers

    buckets: dict[str, list[tuple[float, float]]] = {}
    for session, _ in towers_games(games, seed):
        final = session.state.results[-1]
        for mark in session.marks:
            state = session.state_at(mark.start)
            played = bot.choose(state, "medium", seed=session.seed, nonce=mark.start)
            judged = judge.judge(state, played)
            if judged.exact:
                continue
            margin = final[0] - final[1] if state.turn == towers.LIGHT else final[1] - final[0]
            key = f"placed {state.placed // 4 * 4:>2}+" if state.phase == "placement" else "movement"
            buckets.setdefault(key, []).append((judged.best_points, margin))
    for key in sorted(buckets):
        pairs = buckets[key]
        sxx = sum(x * x for x, _ in pairs) or 1.0
        slope = sum(x * y for x, y in pairs) / sxx
        spread_points = math.sqrt(sum((y - slope * x) ** 2 for x, y in pairs) / len(pairs))
        mean = statistics.mean(y for _, y in pairs)
        print(f"{key}: {len(pairs)} positions, slope {slope:.2f}, spread {spread_points:.2f} points, "
              f"mean final margin {mean:+.2f}, mean estimate {statistics.mean(x for x, _ in pairs):+.2f}")


def share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "none to judge"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("towers", "bones"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", action="store_true")
    args = parser.parse_args()
    if args.game == "towers":
        if args.spread:
            towers_spread(args.games or 16, args.seed)
        else:
            towers_reference(args.games or 8, args.seed)
    else:
        bones_reference(args.games or 3, args.seed)


MAX_TURNS = 600  # a full game's playout stops here if it has not ended (the longest of sim's games: 364 turns)
BONES_PLAYOUTS = 24  # paired full games per move the reference judges
BONES_NAMED = 3  # besides every ? and ??, the reference judges this many other decisions a game (full games are slow)


def bones_games(games: int, seed: int):
    """A human-like person (the general's move three times in four, a random legal one otherwise)
    against the general."""
    from dicehall import engine
    from dicehall.engine.bots import bones as general
    from dicehall.engine.chance import seeded_draw
    from dicehall.engine.core import Player

    for number in range(games):
        game_seed = seed + number
        session = engine.new_session("bones", seed=game_seed, players=[Player("Ada"), Player("Gen", True, "general")])
        while session.outcome is None:
            nonce = len(session.events)
            human_slip = session.to_act == 0 and seeded_draw(game_seed, 10_000 + nonce, 4) == 0
            session.play(general.choose(session.state, "random" if human_slip else "general", game_seed, nonce))
        yield session


def bones_full_games(state, command, seat: int, seed: int, event: int, playouts: int) -> list[float]:
    """`seat`'s result (1, 0.5, 0) of `playouts` full games after `command`, the generals on both
    sides, the dice of game k the same for every command judged (common random numbers)."""
    from dicehall.engine.analysis import bones as judge
    from dicehall.engine.games import bones

    after = judge._fold(state, bones.decide(state, command))
    # to the end, or (two generals can stall) 600 turns on, scored by material there
    return [judge.win_chance(judge.roll_out(after, state.turn + MAX_TURNS, judge._rng(seed, event, k, "reference")), seat)
            for k in range(playouts)]


def bones_reference(games: int, seed: int) -> None:
    from dicehall.engine import analysis
    from dicehall.engine.analysis import bones as judge
    from dicehall.engine.analysis import paired
    from dicehall.engine.games import bones

    marked = confirmed = named = named_good = decisions = judged = 0
    counts = {"?!": 0, "?": 0, "??": 0}
    started = time.perf_counter()
    for session in bones_games(games, seed):
        result = analysis.analyse(session)
        decisions += len(result.decisions)
        for decision in result.decisions:
            counts[decision.mark] = counts.get(decision.mark, 0) + 1
        wanted = [d for d in result.decisions if d.mark in ("?", "??") or d.best != d.played]
        wanted = ([d for d in wanted if d.mark in ("?", "??")]
                  + [d for d in wanted if d.mark not in ("?", "??")][:BONES_NAMED])
        for decision in wanted:
            start = decision.event - 1
            state = session.state_at(start)
            commands = {judge.words(state, c): c for c in bones.legal_commands(state)}
            played, best = commands[decision.played], commands[decision.best]
            figures = {c: bones_full_games(state, c, decision.seat, session.seed, decision.event, BONES_PLAYOUTS)
                       for c in {played, best}}
            gain = paired.difference(figures[best], figures[played]).mean
            judged += 1
            if decision.mark in ("?", "??"):
                marked += 1
                confirmed += gain >= judge.THRESHOLDS[0]
            if best != played:
                named += 1
                named_good += gain >= 0
            print(f"  event {decision.event} {decision.mark or '-'}: {decision.played} / best {decision.best}: "
                  f"the reference's gain {gain:+.2f}", flush=True)
        print(f"seed {session.seed}: {len(result.decisions)} decisions, {len(wanted)} judged by the reference; "
              f"{session.outcome.summary}", flush=True)
    print(f"War of Bones, {games} games, {decisions} decisions: marks ?? {counts['??']}, ? {counts['?']}, "
          f"?! {counts['?!']}; ? and ?? confirmed {confirmed} of {marked} ({share(confirmed, marked)}); the named best "
          f"at least as good as the move played {named_good} of {named} ({share(named_good, named)}); "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
