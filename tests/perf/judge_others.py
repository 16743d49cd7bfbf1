"""A slower, stronger reference judge for the analysis of Towers and War of Bones, over games it
generates, and how `dicehall analyse` stands against it (issues #22, #33; docs/analysis.md).

    python tests/perf/judge_others.py towers [--games 8] [--first-seed N] [--nodes 80000] [--exact 7] [--markdown] [--quick]
    python tests/perf/judge_others.py towers --spread [--games 16]   # the analyser's SLOPE and SPREAD (tuning seeds)
    python tests/perf/judge_others.py bones [--games 3] [--first-seed N] [--playouts 24] [--decisions N] [--markdown] [--quick]

The games are on fresh seeds (tests/perf/judging.py: from 1001 on, never tuned on; `--first-seed 1`
for the tuning seeds): a human-like player (Towers: the easy bot, a random move two times in five;
War of Bones: the general's move three times in four, a random legal command otherwise) against
the strongest bot, and (Towers) bot against bot. The analyser is called through `analysis.analyse`;
the reference is the judge's own, on the rules and the bots, cached by position and settings
(judging.CACHE), and judges every decision of a person:

- Towers: the bot's alpha-beta (engine/bots/towers.py) over --nodes positions for the decision
  (to the end, however many, with --exact towers or fewer left to move), every legal move to the
  same depth, the move played (and, apart, the analyser's named best) searched with a full window:
  exact where every line reaches the end, else the mean of its two deepest depths, its noise half
  their difference. Points of margin. An independent check of the analyser's own exact endings.
- War of Bones: --playouts full games to the end (600 turns at most, then a draw) after the move
  played, the analyser's named best and the general's choice, the generals playing on, every move
  on the same dice (paired); its best is the best of these three. Points of win chance. Full games
  are slow: --decisions judges at most that many a game (the marked and named ones first).

It prints the marks the reference confirms, finds within its noise and refutes, the unmarked
decisions it puts beyond noise at a mark's level, the rank correlation of drops and the named
best's standing (judging.Tally); with --markdown, the README's table row. Not a test.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from hashlib import blake2b
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import judging  # noqa: E402  (a script beside its helper)

VERSION = 2  # of the reference's figures: bump when how they are computed changes (the cache's key)
TOWERS_NODES = 80_000  # the reference's positions a decision (10 times the analyser's of issue #22)
TOWERS_EXACT = 7  # with this many towers left to move or fewer, the reference searches to the end, however long
TOWERS_THRESHOLDS = (1.0, 2.0, 4.0)  # points of margin lost: ?!, ?, ??
BONES_THRESHOLDS = (0.05, 0.10, 0.15)  # points of win chance
BONES_PLAYOUTS = 24  # paired full games per move
MAX_TURNS = 600  # a full game's playout stops here if it has not ended, a draw (two generals can stall)
QUICK = {"towers": {"games": 2, "nodes": 20_000, "exact": 5}, "bones": {"games": 1, "playouts": 8, "decisions": 16}}


def played_command(session, start: int):
    """The command whose events begin the log at `start` (the log keeps events, not commands)."""
    state = session.state_at(start)
    return next(c for c in session.game.legal_commands(state)
                if tuple(session.events[start:start + len(session.game.decide(state, c))]) == session.game.decide(state, c))


def towers_games(seeds: range):
    """(session, kind): a person playing like the easy bot against the medium bot, and medium
    against medium (every seat a person, so both are judged), by turns."""
    from dicehall import engine
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.core import Player

    for number, game_seed in enumerate(seeds):
        human_like = number % 2 == 0
        players = [Player("Ann"), Player("Bot", True, "medium")] if human_like else [Player("Ann"), Player("Bob")]
        session = engine.new_session("towers", seed=game_seed, players=players)
        while session.outcome is None:
            level = "easy" if human_like and session.to_act == 0 else "medium"
            session.play(bot.choose(session.state, level, seed=game_seed, nonce=len(session.events)))
        yield session, "human-like" if human_like else "bot-vs-bot"


def _points(value: float) -> float:
    from dicehall.engine.bots import towers as bot

    return value / bot.TERMINAL if abs(value) >= bot.TERMINAL else value  # a finished line: its margin


def towers_search(state, first, nodes: int) -> dict:
    """Every legal move to the same depth, `first` with a full window (its value exact, the others'
    where they beat it): {"best", "drop" (best less first, points), "noise", "exact"} (cached)."""
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.games import towers

    def as_move(command):
        return (-1, command.square) if isinstance(command, towers.Place) else (command.source, command.target)

    def compute() -> dict:
        colour, search = state.turn, bot.Search(state, nodes)
        search.deadline = math.inf  # the node budget alone ends it: the same figures on a busy machine
        placed, mine = search.placed(), as_move(first)
        moves = {as_move(c): c for c in towers.legal_commands(state)}
        order = [mine] + [m for m in search.ordered(list(moves), colour) if m != mine]
        depths: list[tuple[dict, bool]] = []
        while len(depths) < 40:
            search.cut, values, alpha = False, {}, -math.inf
            try:
                for move in order:
                    search.play(move, colour)
                    following = search.follower(colour, placed + (move[0] < 0), move[0] < 0)
                    values[move] = (-search.negamax(following, len(depths), -math.inf, -alpha) if following != colour
                                    else search.negamax(following, len(depths), alpha, math.inf))
                    search.unplay(move, colour)
                    alpha = max(alpha, values[move])
            except bot.OutOfNodes:
                break
            depths.append((values, not search.cut))
            if not search.cut:
                break
            order = [mine] + sorted(order[1:], key=lambda m: -values[m])
        if not depths:  # not even depth 1 within the budget: nothing told apart
            return {"best": str(first), "drop": 0.0, "noise": 0.0, "exact": False}
        drops = [_points(max(values.values())) - _points(values[mine]) for values, _ in depths[-2:]]
        values, exact = depths[-1]
        best = max(order, key=lambda m: (values[m], m == mine))
        return {"best": str(moves[best]), "drop": drops[-1] if exact else statistics.fmean(drops),
                "noise": 0.0 if exact else abs(drops[0] - drops[-1]) / 2, "exact": exact}

    return judging.cached("towers", ("towers", VERSION, repr(state), repr(first), nodes), compute)


def towers_margins(result) -> dict[int, float]:
    """The analyser's margin lost by event, where its --json figures give it (extra["margins"])."""
    rows = result.extra.get("margins") or []
    return {row["event"]: max(0.0, row["margin_best"] - row["margin_played"]) for row in rows
            if isinstance(row, dict) and {"event", "margin_best", "margin_played"} <= set(row)}


def towers_left(state) -> int:
    """Towers left to move: every unbuilt tower once the placement is over (else more than all)."""
    from dicehall.engine.games import towers

    if state.phase == "placement":
        return 2 * towers.TOWERS_EACH + 1
    return sum(1 for cell in state.board if cell in towers.UNBUILT)


def towers_reference(seeds: range, kind: str, nodes: int, exact_below: int, markdown: bool) -> None:
    from dicehall.engine import analysis

    tally, clock, exact = judging.Tally(TOWERS_THRESHOLDS, []), judging.Clock(), 0
    analysed = 0.0
    for session, players in towers_games(seeds):
        timing = judging.Clock()
        result = analysis.analyse(session)
        analysed += timing.since()[1]
        margins = towers_margins(result)
        for decision in result.decisions:
            state = session.state_at(decision.event - 1)
            played = played_command(session, decision.event - 1)
            budget = 10**12 if towers_left(state) <= exact_below else nodes  # an ending: to the end
            mine = towers_search(state, played, budget)
            exact += mine["exact"]
            named = judging.named_commands(session, decision, decision.best)
            gain = short = None
            if named is not None and named[0] != played:
                theirs = towers_search(state, named[0], budget)
                short = (theirs["drop"], theirs["noise"])
                gain = (mine["drop"] - theirs["drop"], max(mine["noise"], theirs["noise"]))
            tally.verdicts.append(judging.Verdict(decision.mark, margins.get(decision.event, decision.drop),
                                                  mine["drop"], mine["noise"], gain, short))
            if tally.disagreement(tally.verdicts[-1]):
                print(f"  seed {session.seed} event {decision.event}: {decision.played} "
                      f"[{decision.mark or '-'}], {tally.disagreement(tally.verdicts[-1])}: the reference's loss "
                      f"{mine['drop']:.2f} points ({'exact' if mine['exact'] else 'estimate, noise %.2f' % mine['noise']}), "
                      f"its best {mine['best']}; " + (f"{towers_left(state)} towers left to move"
                                                         if state.phase != "placement" else "placing"))
        print(judging.game_line(session, result, f" ({players})"), flush=True)
    command = (f"python tests/perf/judge_others.py towers --games {len(seeds)} --first-seed {seeds.start} "
               f"--nodes {nodes} --exact {exact_below}")
    tally.report(f"Towers, {judging.games(len(seeds))} ({kind}), reference {nodes} positions a decision, to the end with "
                 f"{exact_below} towers or fewer left to move ({exact} of {len(tally.verdicts)} decisions exact), "
                 f"analyser {analysed:.0f} s CPU, in all {clock.text()}", f"Towers ({judging.games(len(seeds))}, {kind})",
                 command, markdown)


def towers_spread(games: int, seed: int) -> None:
    """How the search's estimate (the analyser's best, from the mover's side) relates to the final
    margin from the mover's side, by phase: the slope through the origin and the spread around it."""
    from dicehall.engine.analysis import towers as judge
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.games import towers

    buckets: dict[str, list[tuple[float, float]]] = {}
    for session, _ in towers_games(range(seed, seed + games)):
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


def bones_games(seeds: range):
    """A human-like person (the general's move three times in four, a random legal one otherwise)
    against the general."""
    from dicehall import engine
    from dicehall.engine.bots import bones as general
    from dicehall.engine.chance import seeded_draw
    from dicehall.engine.core import Player

    for game_seed in seeds:
        session = engine.new_session("bones", seed=game_seed, players=[Player("Ada"), Player("Gen", True, "general")])
        while session.outcome is None and session.state.turn < MAX_TURNS:  # two generals can stall
            nonce = len(session.events)
            human_slip = session.to_act == 0 and seeded_draw(game_seed, 10_000 + nonce, 4) == 0
            session.play(general.choose(session.state, "random" if human_slip else "general", game_seed, nonce))
        yield session


def bones_full_games(state, command, seat: int, playouts: int) -> list[float]:
    """`seat`'s result (1, 0.5, 0) of `playouts` full games after `command`, the generals on both
    sides, game k's dice the same for every command (common random numbers; cached)."""
    from dicehall.engine.bots import bones as general
    from dicehall.engine.games import bones

    def play(state, command):
        for event in bones.decide(state, command):
            state = bones.evolve(state, event)
        return state

    def full_game(k: int) -> float:
        dice = random.Random(int.from_bytes(blake2b(repr((repr(state), k)).encode(), digest_size=8).digest(), "big"))
        now = play(state, command)
        while now.stage != "over" and now.turn < state.turn + MAX_TURNS:
            need = bones.chance_needed(now)
            if need is None:
                now = play(now, general.choose(now, "general"))
            else:
                now = bones.evolve(now, bones.chance_event(now, tuple(int(dice.random() * n) for n in need.spec), False))
        if now.stage != "over" or not now.result:
            return 0.5  # a draw, or stalled: a draw
        return 1.0 if now.result[0] == seat else 0.0

    return judging.cached("bones", ("bones", VERSION, repr(state), repr(command), seat, playouts),
                          lambda: [full_game(k) for k in range(playouts)])


def some(decisions, most: int | None) -> list:
    """At most `most` decisions (None: all): the marked ones and those with a best named first, then
    others evenly spaced along the game, in the game's order."""
    if most is None or len(decisions) <= most:
        return list(decisions)
    first = [d for d in decisions if d.mark or d.best != d.played][:most]
    others = [d for d in decisions if d not in first]
    room = most - len(first)
    spaced = [others[i * len(others) // room] for i in range(room)] if room else []
    return sorted(first + spaced, key=lambda d: d.event)


def bones_reference(seeds: range, kind: str, playouts: int, most: int | None, markdown: bool) -> None:
    from dicehall.engine import analysis
    from dicehall.engine.bots import bones as general

    tally, clock, analysed, decisions = judging.Tally(BONES_THRESHOLDS, []), judging.Clock(), 0.0, 0
    for session in bones_games(seeds):
        timing = judging.Clock()
        result = analysis.analyse(session)
        analysed += timing.since()[1]
        decisions += len(result.decisions)
        for decision in some(result.decisions, most):
            state = session.state_at(decision.event - 1)
            played = played_command(session, decision.event - 1)
            named = judging.named_commands(session, decision, decision.best)
            candidates = {"played": played, "general": general.choose(state, "general")}
            if named is not None:
                candidates["named"] = named[0]
            figures = {name: bones_full_games(state, command, decision.seat, playouts)
                       for name, command in candidates.items()}
            best = max(figures, key=lambda name: (statistics.fmean(figures[name]), name == "played"))
            drop, se = judging.paired(figures[best], figures["played"])
            gain = short = None
            if named is not None and named[0] != played:
                gain = judging.paired(figures["named"], figures["played"])
                short = judging.paired(figures[best], figures["named"])
            tally.verdicts.append(judging.Verdict(decision.mark, decision.drop, max(0.0, drop), se, gain, short))
            if tally.disagreement(tally.verdicts[-1]):
                print(f"  seed {session.seed} event {decision.event}: {decision.played} [{decision.mark or '-'}], "
                      f"{tally.disagreement(tally.verdicts[-1])}: the reference's loss {drop:.3f} (SE {se:.3f}), "
                      f"its best: the {best} move")
        print(judging.game_line(session, result), flush=True)
    command = (f"python tests/perf/judge_others.py bones --games {len(seeds)} --first-seed {seeds.start} "
               f"--playouts {playouts}" + (f" --decisions {most}" if most else ""))
    tally.report(f"War of Bones, {judging.games(len(seeds))} ({kind}), {len(tally.verdicts)} of {decisions} decisions judged, "
                 f"reference {playouts} paired full games a move, analyser {analysed:.0f} s CPU, in all "
                 f"{clock.text()}", f"War of Bones ({judging.games(len(seeds))}, {kind})", command, markdown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("towers", "bones"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--first-seed", type=int, default=None, help="default: the fresh seeds (judging.FRESH_FIRST)")
    parser.add_argument("--nodes", type=int, default=TOWERS_NODES, help="Towers: the reference's positions a decision")
    parser.add_argument("--exact", type=int, default=TOWERS_EXACT,
                        help="Towers: searched to the end with this many towers left to move or fewer")
    parser.add_argument("--playouts", type=int, default=BONES_PLAYOUTS, help="War of Bones: full games a move")
    parser.add_argument("--decisions", type=int, default=None,
                        help="War of Bones: judge at most this many decisions a game (the marked and named first)")
    parser.add_argument("--spread", action="store_true")
    parser.add_argument("--quick", action="store_true", help=f"a few minutes: {QUICK}")
    parser.add_argument("--markdown", action="store_true", help="print the README's table row")
    args = parser.parse_args()
    if args.quick:
        vars(args).update(QUICK[args.game])
    if args.spread:
        towers_spread(args.games or 16, args.first_seed or judging.TUNING.start)
        return
    chosen, kind = judging.seeds(args.first_seed, args.games or (8 if args.game == "towers" else 3))
    if args.game == "towers":
        towers_reference(chosen, kind, args.nodes, args.exact, args.markdown)
    else:
        bones_reference(chosen, kind, args.playouts, args.decisions, args.markdown)


if __name__ == "__main__":
    main()
