"""Winnable deals (`--option winnable=true`): a deal the game's hindsight solver proves winnable.

Given a seed S (the one asked for, the day's, or a fresh one), the seeds S, S+1, S+2, ... (modulo
2**63) are tried in order; the first whose deal the game's solver (its catalogue entry's `solver`) proves
winnable from the start, within SEED_BUDGET positions, is played. The solver counts positions, not
seconds, so the same S always picks the same seed on every machine. After MAX_SEEDS seeds without
a proof, the search gives up with one line (NoWinnableDeal) and no game is made.

The chosen seed is the game's seed, and its options keep `winnable: True` and `winnable_from: S`:
a save or replay deals from the recorded seed and never searches again (a later, stronger solver
cannot change an old game's deal). `verify` checks the seed is one the search could have chosen
from S and that the solver still proves its deal winnable (`claim_line`).

"Winnable" is with hindsight: the solver knows the deck order and the seed's dice, so a line
exists; finding it while playing with the cards face down is the game.

    deal = choose("troll", seed, options)   # a WinnableDeal: .seed, .options, .tried, .searched
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from dicehall import engine
from dicehall.engine.errors import OptionError
from dicehall.engine.games import entry_of

SEED_BUDGET = 20_000  # positions the solver may search per seed (under a second here; see docs/performance.md)
MAX_SEEDS = 5  # seeds tried before giving up (about 5 s of search at worst here, 15 s on a busy machine)
SEED_RANGE = 2**63  # seeds are whole numbers 0 .. 2**63-1 (the command line's --seed)
KEYS = ("winnable", "winnable_from")


class NoWinnableDeal(OptionError):
    """No seed of the search was proved winnable within the bound."""


@dataclass(frozen=True)
class WinnableDeal:
    seed: int  # the seed to play: candidate(start, tried - 1)
    start: int  # the seed the search began at
    tried: int  # seeds searched, the chosen one included
    searched: int  # positions searched in all
    options: dict  # the options to play with: winnable and winnable_from included

    def notice(self) -> str:
        """The line the game opens with: which seed was chosen, and that the proof used hindsight."""
        tried = "the first seed tried" if self.tried == 1 else f"{self.tried - 1} before it not proved"
        return f"a winnable deal: seed {self.seed} ({tried} from {self.start}); the solver proved a win with hindsight"


def wanted(options: dict) -> bool:
    """Whether the options ask for a winnable deal (the command line gives true or 1)."""
    value = options.get("winnable")
    return value is True or (type(value) is int and value == 1)


def candidate(start: int, k: int) -> int:
    """The k-th seed tried (from 0) when the search begins at `start`."""
    return (start + k) % SEED_RANGE


def _solver(game_id: str):
    entry = entry_of(game_id)
    if not entry.solver:
        raise OptionError(f"winnable deals need a hindsight solver, and {entry.title} has none")
    return import_module(entry.solver)


_PROVED: dict[str, object] = {}  # the solver's whole answers in this process, by deal and budget (prove)
PROVED_KEPT = 64  # answers kept: a launcher re-opened, `verify` after `play`, today's deal asked again


def prove(game_id: str, seed: int, options: dict, nodes: int = SEED_BUDGET, should_stop=None):
    """The solver's answer (a Solution) for the deal of `seed` from its start, within `nodes` positions.
    The solver counts positions, so the answer for one deal and budget never changes: an answer not
    cancelled is kept (the last PROVED_KEPT of them) and asking again costs nothing (forget() drops them)."""
    plain = {key: value for key, value in options.items() if key not in KEYS}  # the deal does not depend on them
    key = repr((game_id, seed, sorted(plain.items()), nodes))
    known = _PROVED.get(key)
    if known is not None:
        return known
    session = engine.new_session(game_id, seed=seed, options=plain, players=None)
    solution = _solver(game_id).solve(session, nodes=nodes, should_stop=should_stop)
    if not solution.cancelled:
        if len(_PROVED) >= PROVED_KEPT:
            del _PROVED[next(iter(_PROVED))]  # the oldest
        _PROVED[key] = solution
    return solution


def forget() -> None:
    """Drop the kept answers: the next prove searches again (a test of repeatability, a benchmark)."""
    _PROVED.clear()


def choose(game_id: str, start: int, options: dict, max_seeds: int | None = None, should_stop=None) -> WinnableDeal:
    """The first seed from `start` on whose deal the solver proves winnable (see the module's doc).
    Raises OptionError for options the game refuses, NoWinnableDeal when the bound is reached;
    `should_stop()` (a screen's worker being cancelled) is asked every few hundred positions."""
    if options.get("winnable_from") is not None:
        raise OptionError("winnable_from is where the search began: give the seed (--seed) instead")
    if not 0 <= start < SEED_RANGE:
        raise OptionError("the seed must be from 0 to 2**63-1")
    module = engine.get_game(game_id)
    _solver(game_id)
    chosen = module.check_options({**options, "winnable": True, "winnable_from": start})  # refused before searching
    searched = 0
    max_seeds = MAX_SEEDS if max_seeds is None else max_seeds
    for k in range(max_seeds):
        seed = candidate(start, k)
        solution = prove(game_id, seed, chosen, should_stop=should_stop)
        searched += solution.searched
        if solution.cancelled:
            raise OptionError("the search for a winnable deal was stopped")
        if solution.winnable:
            return WinnableDeal(seed, start, k + 1, searched, chosen)
    raise NoWinnableDeal(
        f"no winnable deal found: the solver proved none of the {max_seeds} seeds from {start} winnable within "
        f"{SEED_BUDGET:,} positions each; play without winnable=true or choose an easier difficulty")


def claim_line(session) -> str:
    """`verify`'s line on a winnable deal: "" for any other game. Raises OptionError when the seed is
    not one the search could have chosen from its recorded start."""
    options = session.options
    if not options.get("winnable") or session.seed is None:
        return ""
    start = options["winnable_from"]
    k = (session.seed - start) % SEED_RANGE
    if k >= MAX_SEEDS:
        raise OptionError(f"the winnable deal's seed {session.seed} is not one of the {MAX_SEEDS} seeds "
                          f"a search from seed {start} tries")
    solution = prove(session.game.ID, session.seed, options)
    where = f"winnable deal: seed {session.seed} is seed {start} + {k}"
    if solution.winnable:
        return (f"{where}; the solver proves it winnable ({solution.searched:,} positions, with hindsight; "
                f"the seeds before it are not searched again)")
    return f"{where}; the solver does NOT prove it winnable now within {SEED_BUDGET:,} positions"
