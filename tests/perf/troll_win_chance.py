"""Fits the deeper troll player's win chance (engine/bots/troll_search.py, WIN_CHANCE): a logistic
regression of "this game was won" on the adviser's features of the bridge (and the deck's size), over
the positions the adviser leaves after each of its turns in whole standard games it plays.

    python tests/perf/troll_win_chance.py [--games 4000] [--seed 7]

The games are `dicehall sim troll --seed 7`'s, not the 500 deals of `--seed 1` that docs/bots.md's
figures are measured on. Prints the weights in WIN_CHANCE's form, in full (the player's decisions are measured with them). Pure Python (no numpy): Newton's
method on standardised features with a tiny ridge, about a minute for 4,000 games.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

RIDGE = 1e-3


def positions(games: int, seed: int) -> tuple[list[dict[str, float]], list[int]]:
    """(features per position, won per position): the final state of the adviser's chosen line at
    the start of each of its turns, labelled with whether that game was won."""
    from dicehall import engine
    from dicehall.engine.bots import troll as adviser
    from dicehall.engine.bots import troll_search
    from dicehall.engine.chance import seeded_draw

    rows, labels = [], []
    for game in range(games):
        session = engine.new_session("troll", seed=seeded_draw(seed, game, 2**32), options={"difficulty": "standard"})
        mine = []
        while session.outcome is None:
            state = session.state
            plan = adviser.best_turn(state)
            if state.actions_left == 2:
                final, events = troll_search._play_line(state, plan.commands)
                if not final.end:
                    mine.append(troll_search.win_features(final, adviser.deck_plays_next(events)))
            session.play(plan.commands[0])
        rows += mine
        labels += [1 if session.outcome.winners else 0] * len(mine)
    return rows, labels


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and positive definite)."""
    n = len(vector)
    rows = [matrix[i][:] + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (rows[r][n] - sum(rows[r][c] * out[c] for c in range(r + 1, n))) / rows[r][r]
    return out


def fit(rows: list[list[float]], labels: list[int], rounds: int = 25) -> tuple[list[float], float]:
    """Logistic regression by Newton's method: (weights per feature, bias) on the raw features."""
    count, width = len(rows), len(rows[0])
    means = [sum(row[i] for row in rows) / count for i in range(width)]
    spreads = [math.sqrt(sum((row[i] - means[i]) ** 2 for row in rows) / count) or 1.0 for i in range(width)]
    data = [[(row[i] - means[i]) / spreads[i] for i in range(width)] + [1.0] for row in rows]
    weights = [0.0] * (width + 1)
    for _ in range(rounds):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE * (i == j) for j in range(width + 1)] for i in range(width + 1)]
        for x, y in zip(data, labels):
            z = sum(w * v for w, v in zip(weights, x))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            for i, xi in enumerate(x):
                gradient[i] += (y - p) * xi
                scaled = p * (1 - p) * xi
                row = hessian[i]
                for j in range(i + 1):
                    row[j] += scaled * x[j]
        for i in range(width + 1):
            for j in range(i):
                hessian[j][i] = hessian[i][j]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    raw = [weights[i] / spreads[i] for i in range(width)]
    bias = weights[width] - sum(weights[i] * means[i] / spreads[i] for i in range(width))
    return raw, bias


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows, labels = positions(args.games, args.seed)
    names = list(rows[0])
    weights, bias = fit([[features[name] for name in names] for features in rows], labels)
    print(f"{len(rows):,} positions of {args.games:,} games, {sum(labels) / len(labels):.1%} of them in won games")
    print("WIN_CHANCE = {" + ", ".join(f'"{name}": {weight!r}' for name, weight in zip(names, weights)) + "}")
    print(f"WIN_CHANCE_BIAS = {bias!r}")


if __name__ == "__main__":
    main()
