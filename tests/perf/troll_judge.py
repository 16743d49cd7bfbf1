"""A slow, strong reference judge for the troll's analysis (issues #22, #33), and how the analysis
stands against it.

    python tests/perf/troll_judge.py [--games 6] [--deals 200] [--contenders 600] [--samples 24,48]
                                     [--first-seed N] [--workers 1] [--markdown] [--quick]

It plays standard games as a human-like player would (the adviser's pair three turns in four, a
random legal pair otherwise) on fresh seeds (tests/perf/judging.py: from 1001 on, never tuned on;
`--first-seed 1` for the tuning seeds), analyses each with `dicehall analyse`'s analyser (its
default samples, or each of --samples), and judges every decision again with a reference of its
own, built on the rules and the adviser only (not on the analyser's code, which may change):

- every legal pair of the turn (pairs that leave the same position are one move, judged once),
  each played on by the adviser to the end over --deals sampled deals, and the three best by equity
  and the pair played over --contenders deals in all;
- only what the player saw: the face-down cards and the deck dealt anew among the unseen cards, the
  later dice rolled anew, from random streams of the position's own (not the analyser's samples);
- common random numbers: every pair sees the same deals and dice;
- the figure the marks use: equity, half the win and half the share of the deck played.

The reference's figures are cached by position and settings (judging.CACHE), so judging again after
the analyser changes costs only the analyser's time. It prints, per analyser setting, the marks the
reference confirms, finds within its noise and refutes, the unmarked decisions it puts beyond noise
at a mark's level, the rank correlation of drops and the named best's standing (judging.Tally);
with --markdown, the README's table row. --quick: 2 games, 30 deals, 90 contenders (a few minutes).
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from hashlib import blake2b
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import judging  # noqa: E402  (a script beside its helper)

from dicehall import engine  # noqa: E402
from dicehall.engine import analysis  # noqa: E402
from dicehall.engine.bots import troll as adviser  # noqa: E402
from dicehall.engine.games import troll  # noqa: E402
from dicehall.engine.session import replace  # noqa: E402

VERSION = 2  # of the reference's figures: bump when how they are computed changes (the cache's key)
THRESHOLDS = (0.05, 0.10, 0.15)  # points of equity: ?!, ?, ??
MAX_TURNS = 400  # a playout not ended by then counts as lost with the deck it has left
QUICK = {"games": 2, "deals": 30, "contenders": 90}


def human_like_game(seed: int) -> tuple[engine.Session, list[tuple[int, tuple]]]:
    """A standard game (the adviser's pair three turns in four, a random legal pair otherwise) and
    its decisions: (where the turn's first action starts in the log, the commands played)."""
    session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
    rng = random.Random(f"human-like {seed}")
    turns: dict[int, tuple[int, list]] = {}

    def play(command) -> None:
        turns.setdefault(session.state.turn, (len(session.events), []))[1].append(command)
        session.play(command)

    while session.outcome is None:
        state = session.state
        if troll.to_act(state) != 0 or state.actions_left != 2:
            play(adviser.choose(state))
            continue
        lines = adviser.scored_lines(state)
        pair = adviser.best_turn(state).commands if rng.random() < 0.75 else rng.choice(lines)[1]
        for command in pair:
            if session.outcome is None and session.to_act == 0 and session.state.turn == state.turn:
                play(command)
    return session, [(start, tuple(commands)) for start, commands in turns.values()]


def words(commands: tuple) -> str:
    return " then ".join(str(c) for c in commands)


def _stream(state, deal: int, what: str) -> random.Random:
    key = blake2b(repr((repr(state), deal, what)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(key, "big"))


def sampled_deal(state, rng: random.Random):
    """`state` as the player saw it, the rest dealt anew: the face-down cards and the deck shuffled
    together among the unseen cards (sorted first: where they really lie is never read)."""
    hidden = sorted([card.code for row in (state.upper, state.lower) for stack in row for card in stack
                     if not card.awake] + list(state.deck))
    rng.shuffle(hidden)
    cards = iter(hidden)
    for pos in [(row, col) for row in troll.ROWS for col in troll.COLUMNS]:
        if any(not card.awake for card in state.stack(pos)):
            fresh = tuple(card if card.awake else troll.Card(next(cards)) for card in state.stack(pos))
            state = troll.with_stack(state, pos, fresh)
    return replace(state, deck=tuple(cards))


def after(state, commands: tuple):
    """The state after the player's `commands` this turn (the flight phase and checks played)."""
    for command in commands:
        if troll.to_act(state) != 0:
            break
        state = troll.decided(state, command)[1]
    return state


def equity(state, deck: int) -> float:
    """Half the win, half the share of the deck of awakening played before the end (1 on a win)."""
    if state.end in ("won", "perfect"):
        return 1.0
    return 0.5 * (1.0 - len(state.deck) / deck) if deck else 0.0


def played_out(state, dice: random.Random):
    """The adviser plays on to the end (or MAX_TURNS), the dice from `dice`: the last state."""
    turns = 0
    while not state.end and turns <= MAX_TURNS:
        need = troll.chance_needed(state)
        if need is not None:
            state = troll.evolve(state, troll.chance_event(state, tuple(dice.randrange(n) for n in need.spec), False))
        elif troll.to_act(state) is None:
            break
        else:
            turns += 1
            state = after(state, adviser.best_turn(state).commands)
    return state


def moves(state, played: tuple) -> list[tuple]:
    """Every legal pair, one for each position it leaves (the played pair for its own)."""
    chosen: dict = {}
    for _, commands, _, final in sorted(adviser.scored_lines(state), key=lambda line: -line[0]):
        if final not in chosen or commands == played:
            chosen[final] = commands
    if played not in chosen.values():  # not a pair the adviser lists: judged on its own
        chosen[after(state, played)] = played
    return list(chosen.values())


def values_over(state, pairs: list[tuple], deals: range, deck: int) -> dict[str, list[float]]:
    """Each pair's equity on each deal (the same deal and dice for every pair)."""
    out: dict[str, list[float]] = {words(p): [] for p in pairs}
    for deal in deals:
        dealt = sampled_deal(state, _stream(state, deal, "deal"))
        for pair in pairs:
            out[words(pair)].append(equity(played_out(after(dealt, pair), _stream(state, deal, "dice")), deck))
    return out


def reference(state, played: tuple, deck: int, deals: int, contenders: int) -> dict[str, list[float]]:
    """Every pair over `deals`; the three best by equity and the pair played over `contenders` (cached)."""
    def compute():
        pairs = moves(state, played)
        values = values_over(state, pairs, range(deals), deck)
        leaders = sorted(pairs, key=lambda p: -sum(values[words(p)]))[:3]
        more = values_over(state, list(dict.fromkeys(leaders + [played])), range(deals, contenders), deck)
        for name, extra in more.items():
            values[name] += extra
        return values

    return judging.cached("troll", ("troll", VERSION, repr(state), words(played), deck, deals, contenders), compute)


def _reference_task(task: tuple) -> dict[str, list[float]]:
    return reference(*task)


def verdict(decision, values: dict[str, list[float]], played: str, named) -> judging.Verdict:
    """The analyser's decision against the reference's figures (paired on the deals both saw)."""
    best = max(values, key=lambda name: (sum(values[name]) / len(values[name]), name == played))
    drop, se = judging.paired(values[best], values[played]) if best != played else (0.0, 0.0)
    gain = short = None
    if named is not None and named != played and named in values:
        gain = judging.paired(values[named], values[played])
        short = judging.paired(values[best], values[named]) if best != named else (0.0, 0.0)
    return judging.Verdict(decision.mark, decision.drop, max(0.0, drop), se, gain, short)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=None, help="default: the fresh seeds (judging.FRESH_FIRST)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--contenders", type=int, default=600)
    parser.add_argument("--samples", default=None, help="the analyser's samples, one or several (24,48): default its default")
    parser.add_argument("--workers", type=int, default=1, help="processes computing the reference at once")
    parser.add_argument("--quick", action="store_true", help=f"a few minutes: {QUICK}")
    parser.add_argument("--markdown", action="store_true", help="print the README's table rows")
    args = parser.parse_args(argv)
    if args.quick:
        vars(args).update(QUICK)
    chosen, kind = judging.seeds(args.first_seed, args.games)
    settings = [int(n) for n in args.samples.split(",")] if args.samples else [None]
    clock = judging.Clock()
    games = [human_like_game(seed) for seed in chosen]
    jobs = []
    for session, turns in games:
        deck = len(session.state_at(turns[0][0]).deck) if turns else 0
        jobs += [(session.state_at(start), played, deck, args.deals, args.contenders) for start, played in turns]
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:  # a script of its own: no threads to fork
            references = pool.map(_reference_task, jobs)
    else:
        references = [_reference_task(job) for job in jobs]
    print(f"{judging.games(len(games), 'human-like standard')} ({kind}), {len(jobs)} decisions; "
          f"reference: every pair over {args.deals} deals, the three best and the pair played over {args.contenders}, "
          f"{clock.text()} (cached figures cost nothing)", flush=True)
    rows = []
    for samples in settings:
        tally, timing = judging.Tally(THRESHOLDS, []), judging.Clock()
        index = 0
        for session, turns in games:
            result = analysis.analyse(session, samples=samples)
            by_event = {d.event: d for d in result.decisions}
            for start, played in turns:
                values, decision = references[index], by_event.get(start + 1)
                index += 1
                if decision is None:
                    continue  # not a decision the analyser judges
                named = judging.named_commands(session, decision, decision.best)
                tally.verdicts.append(verdict(decision, values, words(played), None if named is None else words(named)))
                v = tally.verdicts[-1]
                print(f"  seed {session.seed} event {decision.event}: {decision.played} [{decision.mark or '-'}] "
                      f"drop {decision.drop:.3f}; reference drop {v.ref_drop:.3f} (SE {v.ref_se:.3f})"
                      + (f"; named best {decision.best}: {v.named_gain[0]:+.3f} on the move played"
                         if v.named_gain else "") + (f"; {tally.disagreement(v)}" if tally.disagreement(v) else ""))
        label = f"{samples} samples" if samples else "its default samples"
        print(f"analyser at {label} ({timing.text()} for {judging.games(len(games))}): {tally.text()}", flush=True)
        command = (f"python tests/perf/troll_judge.py --games {len(games)} --first-seed {chosen.start} --deals {args.deals} "
                   f"--contenders {args.contenders}" + (f" --samples {samples}" if samples else ""))
        rows.append(tally.row(f"troll ({judging.games(len(games), 'human-like')}, {kind}, analyser at {samples or 'default'} samples)", command))
    if args.markdown:
        print("\n".join([judging.TABLE_HEAD, *rows]))
    print(f"in all: {clock.text()}")


if __name__ == "__main__":
    main(sys.argv[1:])
