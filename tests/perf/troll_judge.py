"""A slow, strong reference judge for the troll's analysis (issue #22), and how often it agrees.

    python tests/perf/troll_judge.py [--games 6] [--deals 200] [--contenders 600] [--samples N] [--first-seed 1]
                                     [--workers 2]

It plays games as a human-like player would (the adviser's pair three turns in four, a random legal
pair otherwise; standard deals, seeds from --first-seed on), analyses each with `dicehall analyse`'s
analyser (its default samples, or --samples), and judges every decision again on its own:

- every legal pair of the turn (pairs that leave the same position are the same move: judged once),
  each played on by the adviser to the end over --deals sampled deals, and the three best by equity
  over --contenders deals in all;
- only what the player saw (the analyser's own no-peeking deal: the unseen cards dealt anew, the
  dice rolled anew), from random streams of its own (not the analyser's samples);
- common random numbers: every pair sees the same deals and dice;
- judged by the figure the marks use (equity: half the win, half the share of the deck played).

It prints the share of the analyser's `?` and `??` marks the reference confirms (its best is at
least 5 points of equity better than the move played: the move was an error), the share of the
"best" moves the analyser names (where it names one other than the move played) that the reference
rates at least as good as the move played (its paired difference at least minus one standard
error), and the rank correlation (Spearman) of the analyser's drops with the reference's. Slow on
purpose: minutes per game.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time

from dicehall import engine
from dicehall.engine import analysis
from dicehall.engine.analysis import paired
from dicehall.engine.analysis import troll as judged
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll

CONFIRMS = 0.05  # a mark is confirmed when the reference's drop is at least an inaccuracy's size


def human_like_game(seed: int) -> engine.Session:
    """A standard game: the adviser's pair three turns in four, a random legal pair otherwise."""
    session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
    rng = random.Random(f"human-like {seed}")
    while session.outcome is None:
        state = session.state
        if troll.to_act(state) != 0 or state.actions_left != 2:
            session.play(adviser.choose(state))
            continue
        lines = adviser.scored_lines(state)
        pair = adviser.best_turn(state).commands if rng.random() < 0.75 else rng.choice(lines)[1]
        turn = state.turn
        for command in pair:
            if session.outcome is None and session.to_act == 0 and session.state.turn == turn:
                session.play(command)
    return session


def reference_values(state, commands: tuple, seed: int, event: int, deals: range, deck: int) -> list[float]:
    """The equity of playing `commands` on each of `deals` (their own random streams), the adviser on."""
    values = []
    for deal in deals:
        now = judged.sampled_deal(state, judged._rng(seed, event, deal, "reference deal"))
        end = judged.play_to_end(judged._after(now, commands), judged._rng(seed, event, deal, "reference dice"))
        values.append(judged.equity(end.end in ("won", "perfect"), len(end.deck), deck))
    return values


def reference_judgement(state, played: tuple, seed: int, event: int, deck: int, deals: int, contenders: int) -> dict:
    """Every pair (same positions once) over `deals`; the three best by equity over `contenders`."""
    options = judged.groups(state, played)
    values = {commands: reference_values(state, commands, seed, event, range(deals), deck) for commands in options}
    leaders = sorted(values, key=lambda c: -statistics.fmean(values[c]))[:3]
    for commands in set(leaders) | {played}:
        values[commands] += reference_values(state, commands, seed, event, range(deals, contenders), deck)
    return values


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    norm = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / norm if norm else 0.0


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--contenders", type=int, default=600)
    parser.add_argument("--samples", default=None, help="the analyser's samples, one or several (24,48): default its default")
    parser.add_argument("--workers", type=int, default=2, help="processes judging decisions at once")
    args = parser.parse_args(argv)
    settings = [int(n) for n in args.samples.split(",")] if args.samples else [judged.SAMPLES]
    started = time.perf_counter()
    positions, verdicts, analysed_in = [], {n: [] for n in settings}, {n: [] for n in settings}
    for seed in range(args.first_seed, args.first_seed + args.games):
        session = human_like_game(seed)
        turns = judged._turns(session)
        deck = judged.deck_at_start(session, turns)
        positions += [(seed, session.state_at(start), played, start + 1, deck) for start, played in turns]
        for n in settings:
            clock = time.perf_counter()
            verdicts[n] += analysis.analyse(session, samples=n).decisions
            analysed_in[n].append(time.perf_counter() - clock)
    jobs = [(state, played, seed, event, deck, args.deals, args.contenders) for seed, state, played, event, deck in positions]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:  # a script of its own: no threads to fork
        references = pool.starmap(reference_judgement, jobs)
    print(f"{args.games} human-like standard games (seeds {args.first_seed}..{args.first_seed + args.games - 1}), "
          f"{len(positions)} decisions; reference: every pair over {args.deals} deals, the three best over "
          f"{args.contenders}, in {time.perf_counter() - started:.0f} s")
    for n in settings:
        agreement(n, positions, verdicts[n], references, statistics.median(analysed_in[n]))


def agreement(samples: int, positions, decisions, references, seconds: float) -> None:
    """How often the analyser at `samples` agrees with the reference."""
    marks = confirmed = named = as_good = 0
    ours, theirs = [], []
    for (seed, _state, played, _event, _deck), decision, values in zip(positions, decisions, references):
        by_words = {judged.words(c): c for c in values}
        best_ref = max(values, key=lambda c: (statistics.fmean(values[c]), c == played))
        n = len(values[played])

        def gap(commands):  # reference: commands - played, paired on the deals both saw
            common = min(n, len(values[commands]))
            return paired.difference(values[commands][:common], values[played][:common])

        ref_drop = max(0.0, gap(best_ref).mean)
        ours.append(decision.drop)
        theirs.append(ref_drop)
        if decision.mark in ("?", "??"):
            marks += 1
            confirmed += ref_drop >= CONFIRMS
        if decision.best != decision.played and decision.best in by_words:
            named += 1
            difference = gap(by_words[decision.best])
            as_good += difference.mean >= -difference.se
        print(f"  {samples} samples, seed {seed} event {decision.event}: {decision.played} [{decision.mark or '-'}] "
              f"drop {decision.drop:.3f}; reference drop {ref_drop:.3f}, its best {judged.words(best_ref)}")
    share = (lambda a, b: f"{a}/{b} ({a / b:.0%})" if b else f"{a}/0")
    print(f"analyser at {samples} samples ({seconds:.1f} s median a game): ? and ?? marks the reference confirms "
          f"(its drop >= {CONFIRMS:.0%}): {share(confirmed, marks)}; best moves named that it rates at least as good "
          f"as the move played: {share(as_good, named)}; rank correlation of drops (Spearman): "
          f"{spearman(ours, theirs):.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
