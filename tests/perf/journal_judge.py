"""The journal's playout judged on random decks (#30): its shortcuts against the same playout card by
card, and both against whole games through the engine (the reference: the rules as rules.py plays
them, one command at a time), and the slowest decks a search finds for `sim journal`.

    python -m tests.perf.journal_judge [--decks 40] [--games 200] [--playouts 20000] [--seed 1]
    python -m tests.perf.journal_judge --slowest SECONDS [--seed 1]

Each deck is drawn at random over every action and setting a deck may have (the Kings' actions
included, cards left out of a listed deck), refused decks drawn again; every other deck one whose
games reshuffle and only the tower, the tokens or the deck can end (random_deck's long). Per deck: each ending's share
and the mean days and pulls of the playout (its shortcuts: passes at once, a tower far up) against
the card-by-card playout (--playouts each), and of both against --games engine games; a difference
counts only beyond 4 standard errors (a few of the hundreds of comparisons would pass 3 by chance).
It prints each deck that disagrees and the agreement in all.

--slowest: a hill climb for the deck whose `sim journal` costs the most CPU a game (each deck a few
hundred games, each change kept if it costs more), for SECONDS; the slowest found is written to
slowest.toml in a new temporary folder (its path printed) and its 10,000 games measured as the
command (bench.command_cpu).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dicehall import engine
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import journal
from dicehall.engine.games.journal import odds
from dicehall.engine.games.journal.deck import ACTIONS, KING_ACTIONS

CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
TOWERS = (1, 5, 20, 62, 100, 300, 1000, 10_000)


def random_deck(rng: random.Random, long: bool = False) -> dict:
    """A deck's record at random: its settings, and each card an action (a few kinds, each on many
    cards, as decks are written) or left out; most end at the fourth King, as the SRD's. long: games
    that reshuffle and that the Kings cannot end (at most three in the deck), where the playout's
    passes at once and far towers come in."""
    kinds = rng.sample(ACTIONS, rng.randint(2, 6))
    weights = [rng.random() for _ in kinds]
    settings = {"tokens": rng.randint(1, 20), "kings": rng.choice((1, 2, 3, 4, 4, 4)), "tower_start": rng.choice(TOWERS),
                "final_check": rng.choice(("none", "pull")), "deck_out": rng.choice(("end", "reshuffle", "reshuffle")),
                "reshuffles": rng.randint(0, 3)}
    cards = []
    for card in CARDS:
        if rng.random() < (0.4 if card[0] == "K" else 0.15) or long and card == "KS":
            continue  # left out of the listed deck (a King more often: games that reach the reshuffles)
        action = rng.choice(KING_ACTIONS) if card[0] == "K" else rng.choices(kinds, weights)[0]
        if card == "AH" and rng.random() < 0.7:
            action = "salvation"
        cards.append([card, action, ""])
    if long:
        settings.update(kings=4, deck_out="reshuffle", reshuffles=rng.randint(1, 3))
    return {"title": "Judged", "author": "", "licence": "", "intro": "", "deck": "listed", "cards": cards, **settings}


def valid_options(rng: random.Random, long: bool = False) -> dict:
    while True:
        try:
            return journal.check_options({"deck": random_deck(rng, long)})
        except DicehallError:
            continue  # (a deck no card can end, and the like: refused when a game starts)


# odds.py's ways into its shortcuts: each answering None, and each deck's passes worked out again
# (odds._ACTIONS emptied), the playout is card by card (tests/test_journal_long_games.card_by_card too)
SHORTCUTS = ("_tower_pulls", "_saving_pulls", "pass_cards")


def playouts(options: dict, games: int, seed: int, shortcuts: bool = True) -> list[odds.Playout]:
    state = journal.initial_state(options, ())
    rng = random.Random(seed)
    if shortcuts:
        return [odds.playout(state, rng) for _ in range(games)]
    kept = {name: getattr(odds, name) for name in (*SHORTCUTS, "_ACTIONS")}
    for name in SHORTCUTS:
        setattr(odds, name, lambda *_: None)
    odds._ACTIONS = {}
    try:
        return [odds.playout(state, rng) for _ in range(games)]
    finally:
        for name, value in kept.items():
            setattr(odds, name, value)


def engine_games(options: dict, games: int, first_seed: int) -> list[odds.Playout]:
    """Whole games through the engine's session, each command the first legal one (the playout's
    figures do not depend on the words written)."""
    results = []
    for seed in range(first_seed, first_seed + games):
        session = engine.new_session("journal", seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])
        state = session.state
        results.append(odds.Playout(state.ending, state.day, len(state.pages), state.tower.pulls))
    return results


BEYOND = 6.3e-5  # the chance of a difference beyond 4 standard errors by chance alone


def _poisson_tail(count: int, mean: float) -> float:
    """The chance of a count as far from `mean` as `count` is, on its side (Poisson)."""
    term = cumulative = math.exp(-mean)
    for k in range(1, count + 1):
        term *= mean / k
        cumulative += term
    return cumulative if count <= mean else 1 - cumulative + term


def differences(a: list[odds.Playout], b: list[odds.Playout]) -> list[str]:
    """What differs beyond 4 standard errors: each ending's share, and the mean days and pulls. `b`
    may be the few (engine games): a rare ending's count in it is judged by its exact chance at
    `a`'s share (one game in 300 with an ending `a` gives one in 10,000 is no difference)."""
    found = []
    for ending in odds.ENDINGS:
        p, q = (sum(play.ending == ending for play in side) / len(side) for side in (a, b))
        pooled = (p * len(a) + q * len(b)) / (len(a) + len(b))
        error = (pooled * (1 - pooled) * (1 / len(a) + 1 / len(b))) ** 0.5
        count = round(q * len(b))
        rare = len(b) < len(a) and min(count, len(b) - count) < 30
        if (_poisson_tail(min(count, len(b) - count), min(p, 1 - p) * len(b)) < BEYOND) if rare else abs(p - q) > 4 * error:
            found.append(f"{ending} {p:.3f} vs {q:.3f}")
    for measure in ("days", "pulls"):
        x, y = ([getattr(play, measure) for play in side] for side in (a, b))
        error = (statistics.pvariance(x + y) * (1 / len(x) + 1 / len(y))) ** 0.5  # (pooled: the few may all be alike)
        if abs(statistics.mean(x) - statistics.mean(y)) > 4 * error + 1e-9:
            found.append(f"{measure} {statistics.mean(x):.2f} vs {statistics.mean(y):.2f}")
    return found


def judge(decks: int, games: int, many: int, seed: int) -> None:
    rng = random.Random(seed)
    against_walk = against_engine = 0
    for number in range(decks):
        options = valid_options(rng, long=number % 2 == 1)
        fast = playouts(options, many, seed + number)
        walked = playouts(options, many, seed + number + 10_000, shortcuts=False)
        played = engine_games(options, games, 1 + number * games)
        walk, real = differences(fast, walked), differences(walked, played) + differences(fast, played)
        against_walk += not walk
        against_engine += not real
        if walk or real:
            settings = {key: value for key, value in options["deck"].items() if key not in ("cards", "title", "author", "licence", "intro")}
            print(f"deck {number}: {json.dumps(settings)} {[c[:2] for c in options['deck']['cards']]}")
            print(f"  shortcuts vs card by card: {walk or 'agree'}; vs the engine: {real or 'agree'}")
    print(f"{decks} random decks: the shortcuts agree with card by card on {against_walk}, "
          f"the playouts with {games} engine games on {against_engine} (4 standard errors)")


def toml(record: dict) -> str:
    settings = "".join(f"{key} = {json.dumps(record[key])}\n" for key in
                       ("tokens", "kings", "tower_start", "final_check", "deck_out", "reshuffles"))
    cards = "".join(f'\n[[card]]\ncard = "{card}"\naction = "{action}"\n' for card, action, _ in record["cards"])
    return f'[game]\ntitle = "Slowest"\ndeck = "listed"\n{settings}{cards}'


def cost(record: dict, path: Path, games: int = 400) -> float:
    from dicehall.sims.journal import sim_journal

    path.write_text(toml(record))
    try:
        started = time.process_time()
        sim_journal(games, 1, str(path))
        return (time.process_time() - started) / games
    except DicehallError:
        return -1.0


def slowest(seconds: float, seed: int) -> None:
    from tests.perf.bench import command_cpu

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="dicehall-slowest-"))  # this user's own (no fixed name in /tmp to be linked)
    path, found = folder / "slowest.toml", folder / "trial.toml"
    best, best_cost = None, -1.0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        record = random_deck(rng)
        spent = cost(record, found)
        for _ in range(120):  # changes kept while they cost more
            if time.monotonic() > deadline:
                break
            trial = json.loads(json.dumps(record))
            for _ in range(rng.randint(1, 4)):
                other = random_deck(rng)
                if rng.random() < 0.2:
                    key = rng.choice(("tokens", "kings", "tower_start", "final_check", "deck_out", "reshuffles"))
                    trial[key] = other[key]
                elif trial["cards"]:
                    index = rng.randrange(len(trial["cards"]))
                    card = trial["cards"][index][0]
                    trial["cards"][index][1] = rng.choice(KING_ACTIONS if card[0] == "K" else ACTIONS)
            trial_cost = cost(trial, found)
            if trial_cost >= spent:
                record, spent = trial, trial_cost
        if spent > best_cost:
            best, best_cost = record, spent
            path.write_text(toml(best))
            print(f"{best_cost * 1e6:.0f} us a game in the search: {path}", flush=True)
    if best is not None:
        print(f"the slowest found, 10,000 games as the command: {command_cpu(str(path), 10_000):.2f} s of CPU")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.journal_judge")
    parser.add_argument("--decks", type=int, default=40)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slowest", type=float, default=0.0, metavar="SECONDS")
    args = parser.parse_args(argv)
    if args.slowest:
        slowest(args.slowest, args.seed)
    else:
        judge(args.decks, args.games, args.playouts, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
