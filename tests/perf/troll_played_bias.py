"""Whether the troll analysis judges the pair played without bias (issue #33), against a long reference.

    python tests/perf/troll_played_bias.py [--games 6] [--first-seed 1] [--reference 200] [--samples 24]

Plays troll_judge.py's human-like games, and at every decision where the analysis names another
best than the pair played (the decisions a mark can fall on), compares the figure of the pair played
with a long reference: its equity over --reference sampled deals of their own (the reference judge's
streams), the adviser playing on. Two figures of the analysis: the one it shows (on the verifying
samples, apart from the choice of the best) and the one on the samples that chose the best (what
the figures were before). Prints each decision and the mean error of both with its standard error
(a bias is a mean error beyond about two of them), and how much larger the drop was on the
choosing samples than on the fresh ones (the winner's curse the verification takes out). Slow on purpose: minutes a game.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from troll_judge import human_like_game, reference_values  # noqa: E402

from dicehall.engine.analysis import paired  # noqa: E402
from dicehall.engine.analysis import troll as judged  # noqa: E402


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--reference", type=int, default=200)
    parser.add_argument("--samples", type=int, default=judged.SAMPLES)
    args = parser.parse_args(argv)
    shown, choosing, flattered = [], [], []
    for seed in range(args.first_seed, args.first_seed + args.games):
        session = human_like_game(seed)
        turns = judged._turns(session)
        deck = judged.deck_at_start(session, turns)
        for start, played in turns:
            state, event = session.state_at(start), start + 1
            found = judged.judged_turn(state, played, session.seed, event, args.samples, deck)[3]
            if played in found.exact or not found.verified:
                continue  # the pair played needs no sampling, or no other best was named
            reference = statistics.fmean(reference_values(state, played, session.seed, event, range(args.reference), deck))
            shown.append(found.mean(played) - reference)
            choosing.append(paired.mean(found.confirmed[played]) - reference)
            named = found.best if found.best != played else max(
                (c for c in found.confirmed if c != played), key=lambda c: paired.mean(found.confirmed[c]))
            if named in found.verified:  # the drop on the choosing samples less the drop on fresh ones
                flattered.append(paired.difference(found.confirmed[named], found.confirmed[played]).mean
                                 - paired.difference(found.verified[named], found.verified[played]).mean)
            print(f"seed {seed} event {event}: {judged.words(played)}: shown {found.mean(played):.3f}, on the "
                  f"choosing samples {paired.mean(found.confirmed[played]):.3f}, reference {reference:.3f}", flush=True)
    for name, errors in (("the pair played as shown (verified), less the reference", shown),
                         ("the pair played on the choosing samples, less the reference", choosing),
                         ("the drop on the choosing samples, less the drop shown", flattered)):
        spread = statistics.stdev(errors) / len(errors) ** 0.5 if len(errors) > 1 else float("nan")
        print(f"{name}: mean {statistics.fmean(errors):+.3f} (standard error {spread:.3f}) over {len(errors)} decisions")


if __name__ == "__main__":
    main(sys.argv[1:])
