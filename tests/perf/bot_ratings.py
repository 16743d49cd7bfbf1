"""How strong each bot style is, measured: the ratings' fixed bot values (saves/hall/ratings.py, `BOT_MU`).

    python tests/perf/bot_ratings.py [--scale 1.0] [--seed 1] [--workers 2]

Bots play bots through the public engine API (each pairing below, the seats rotated game by game, seeds
from --seed on, so a run is repeatable), and openskill's Plackett-Luce model, the one the ratings use, is
fitted to the results by maximum likelihood: a game's winners placed first, the rest second, every bot at
the ratings' BOT_SIGMA (so the model's c is the ratings' own), a draw half a win for each. Each game's
default style (its first BOT_STYLES) is anchored at the value it had by hand, so a player of the default
bot sees the least change; one virtual draw per pairing keeps a style that never lost finite. The noise is
two standard errors from the fit's curvature. Prints a table in the form docs/hall.md keeps (Ratings) and
the BOT_MU it gives. Takes minutes (a hard Towers game is seconds of CPU); not part of the suite.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from itertools import permutations

from dicehall import engine
from dicehall.engine.chance import seeded_draw
from dicehall.engine.core import Player
from dicehall.engine.games import entry_of
from dicehall.saves.hall.ratings import BOT_MU, BOT_SIGMA, SCALE, shown

# (game, the styles seated, games at --scale 1): what a run costs is mostly the hard Towers games.
PAIRINGS = [
    ("towers", ("easy", "medium"), 40), ("towers", ("medium", "hard"), 16), ("towers", ("easy", "hard"), 4),
    ("wager", ("cautious", "bold"), 100), ("wager", ("cautious", "best"), 100), ("wager", ("bold", "best"), 100),
    ("wager", ("cautious", "bold", "best"), 150),
    ("bones", ("general", "random"), 60),
]
BETA = 25.0 / 6  # openskill's default beta, as the ratings' PlackettLuce() has it


def play(job: tuple[str, tuple[str, ...], int]) -> tuple[str, tuple[str, ...], tuple[int, ...], float]:
    """One game: its seats' styles in seat order, the winning seats (none: a draw), its CPU seconds."""
    game, seating, seed = job
    began = time.process_time()
    bots = entry_of(game).bots
    session = engine.new_session(game, seed=seed, players=[Player(f"{style} {n + 1}", True, style)
                                                           for n, style in enumerate(seating)])
    while session.outcome is None:
        session.play(bots[seating[session.to_act]](session.state, seed, len(session.events)))
    return game, seating, tuple(session.outcome.winners), time.process_time() - began


def jobs(scale: float, seed: int) -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for number, (game, styles, games) in enumerate(PAIRINGS):
        orders = list(permutations(styles))  # every seating in turn: the first seat's edge cancels
        for n in range(max(len(orders), round(games * scale))):
            out.append((game, orders[n % len(orders)], seeded_draw(seed, number * 100_000 + n, 2**32)))
    return out


def fit(results: list[tuple[tuple[str, ...], tuple[int, ...]]], anchor: str, anchor_mu: float):
    """Maximum-likelihood mu per style under openskill's Plackett-Luce (a winner's chance of first place:
    exp(mu/c) over the table's sum, c = sqrt(sum of sigma^2 + beta^2)), `anchor` held at `anchor_mu`.
    Returns {style: (mu, standard error)}."""
    styles = sorted({style for seating, _ in results for style in seating} - {anchor})
    index = {style: n for n, style in enumerate(styles)}
    prior = {tuple(sorted(set(seating)))[:2] for seating, _ in results}
    games = list(results) + [(pair, ()) for pair in prior]  # one virtual draw per pairing
    mu = {style: anchor_mu for style in [anchor, *styles]}
    for _ in range(100):  # Newton's method: the log-likelihood is concave
        grad = [0.0] * len(styles)
        hess = [[0.0] * len(styles) for _ in styles]
        for seating, winners in games:
            c = math.sqrt(len(seating) * (BOT_SIGMA**2 + BETA**2))
            top = max(mu[s] for s in seating)
            weights = [math.exp((mu[s] - top) / c) for s in seating]
            p = [w / sum(weights) for w in weights]
            firsts = winners or tuple(range(len(seating)))
            a = [firsts.count(n) / len(firsts) for n in range(len(seating))]
            for i, si in enumerate(seating):
                if si in index:
                    grad[index[si]] += (a[i] - p[i]) / c
                    for j, sj in enumerate(seating):
                        if sj in index:
                            hess[index[si]][index[sj]] -= ((p[i] if i == j else 0.0) - p[i] * p[j]) / c**2
        step = solve([[-x for x in row] for row in hess], grad)
        for style, d in zip(styles, step):
            mu[style] += d
        if max(map(abs, step), default=0.0) < 1e-9:
            break
    covariance = inverse([[-x for x in row] for row in hess])
    return {anchor: (anchor_mu, 0.0), **{s: (mu[s], math.sqrt(covariance[index[s]][index[s]])) for s in styles}}


def inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting (a few styles: no numpy needed)."""
    n = len(matrix)
    rows = [list(row) + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[n:] for row in rows]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    return [sum(x * v for x, v in zip(row, vector)) for row in inverse(matrix)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="games per pairing, times the table's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    todo = jobs(args.scale, args.seed)
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        played = []
        for result in pool.imap(play, todo):  # in order: the same table every run
            played.append(result)
            print(f"\r{len(played)} of {len(todo)} games", end="", file=sys.stderr, flush=True)
    print(f"{len(played)} games, seed {args.seed}, {time.perf_counter() - started:.0f} s "
          f"({sum(p[3] for p in played):.0f} s CPU)\n")
    print("| game | style | measured | +-2 SE | games | in BOT_MU |")
    print("| --- | --- | --- | --- | --- | --- |")
    measured: dict[str, dict[str, float]] = {}
    for game in dict.fromkeys(p[0] for p in PAIRINGS):
        results = [(seating, winners) for g, seating, winners, _ in played if g == game]
        anchor = engine.get_game(game).BOT_STYLES[0]
        found = fit(results, anchor, BOT_MU[game][anchor])
        for style in engine.get_game(game).BOT_STYLES:
            mu, se = round(found[style][0], 1), found[style][1]  # BOT_MU keeps a tenth of a point: the table shows it
            count = sum(style in seating for seating, _ in results)
            noise = "anchor" if style == anchor else f"{2 * SCALE * se:.0f}"
            print(f"| {entry_of(game).title} | `{style}` | {shown(mu):,} | {noise} | {count} "
                  f"| {shown(BOT_MU[game][style]):,} |")
            measured.setdefault(game, {})[style] = mu
    print(f"\nBOT_MU = {measured}")
    for game, styles, _ in PAIRINGS:
        cpu = [p[3] for p in played if p[0] == game and sorted(p[1]) == sorted(styles)]
        print(f"{game} {','.join(styles)}: {len(cpu)} games, {sum(cpu) / len(cpu):.2f} s CPU a game")


if __name__ == "__main__":
    main()
