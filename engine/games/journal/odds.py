"""The odds of a journal game: the chance that the tower falls before the Kings, salvation or the
deck end the game, and fast whole games for `dicehall sim journal`.

The next pull's chance is the Dice Tower's exact figure (dicetower.topple_chance). The whole game's
is sampled, not exact: the countdown's chain times the deck's composition, the day's die and the
salvation tokens is millions of states (so the figure says "simulated"); where every pull to come
is a plain one, only the deck's part is sampled and the tower's is the exact chain (tower_odds). The sampler plays the same
rules as rules.py with every pull's outcome drawn from the Dice Tower's own chain (each
countdown's next countdown, enumerated through dicetower.evolve), and a fixed seed, so a figure
repeats; tests/test_journal_odds.py checks it against whole games played through the engine.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from math import floor
from typing import TYPE_CHECKING

from dicehall.engine.games import dicetower
from dicehall.engine.games.journal.cards import SALVATION_CARD, is_king
from dicehall.engine.games.journal.deck import Deck
from dicehall.engine.games.journal.passes import (
    Playout, far_drop, far_passes, far_up, pulled, saving_passes, skipped_to_the_cap, skipping_passes, token_passes, tower_alone,
    tower_falls,
)
from dicehall.engine.games.journal.pulls import NEGLIGIBLE, drop_runs, likely_drops, own_countdown, pull_tables, rolled
from dicehall.engine.games.journal.returns import kings_drawn, pass_cards, whole_pass
from dicehall.engine.games.journal.rules import JournalState
from dicehall.engine.games.journal.runs import days_to_draw, dice, successes
from dicehall.engine.games.journal.skips import skips_left

if TYPE_CHECKING:
    from fractions import Fraction  # imported where used: `sim journal` never needs it

ODDS_GAMES = 1000  # playouts behind the side panel's figure
ENDINGS = ("tower", "kings", "salvation", "deck")
# A deck reshuffles at most its `reshuffles` times (rules.may_reshuffle). A game saved before that bound
# reshuffles without end: there a deck whose cards can no longer end the game (no pull, no King to
# return, no salvation to come) would be played for ever: the playout calls it the deck's ending. So does a game past this
# many reshuffles (skip-pull cards outnumbering the pulls may skip them all): a deck that can end its
# game has long ended it (a pull a pass fells even a tower of 10,000 within about 4,000).
MAX_RESHUFFLES = 10_000
NEVER = 1 << 60  # the countdown of a tower no pull to come can fell (the pulls that would: never reached)


def _may_end(action: str, card: str, kings: list) -> bool:
    """Whether drawing `card` again may bring the game nearer an end (after a reshuffle)."""
    return action in ("pull", "remove") or card == SALVATION_CARD or (action == "return-king" and bool(kings))


_ACTIONS: dict[int, tuple[Deck, dict, dict]] = {}
# each action as a small int (the loop compares ints, the return-king cards of the longest passes first); a
# King or the Ace of hearts: _KING or _ACE more than its action's
_KINDS = {"pull": 0, "remove": 1, "no-pull": 2, "king": 2, "salvation": 2, "add-token": 3, "return-king": 4,
          "skip-pull": 5, "remove-token": 6, "salvation-5": 7, "salvation-4": 8}
_KING, _ACE = 16, 32


def _actions(deck: Deck) -> tuple[dict, dict]:
    """Each card's action, and the cards a reshuffle brings back (salvation out or not) with whether
    they may end the game and their pulls if only those can (_tower_pulls), without a King to return
    and with one: worked out once per deck (a sim
    plays thousands of games of one deck, some of thousands of passes)."""
    kept = _ACTIONS.get(id(deck))
    if kept is None or kept[0] is not deck:
        if len(_ACTIONS) >= 16:
            _ACTIONS.clear()
        actions = {card: deck.action(card) for card in deck.cards}
        # a King returned matters only if the deck has the Kings that end the game
        face_up = ["KS"] if sum(map(is_king, deck.cards)) >= deck.settings["kings"] else []
        passes: dict = {}  # by salvation (bool), and the tables by name
        for salvation in (False, True):
            cycle = tuple(c for c in deck.cards if not is_king(c) and not (c == SALVATION_CARD and salvation))
            passes[salvation] = (cycle, any(_may_end(actions[c], c, []) for c in cycle),
                                 any(_may_end(actions[c], c, face_up) for c in cycle),
                                 _tower_pulls(cycle, actions, []), _tower_pulls(cycle, actions, ["KS"]),
                                 _saving_pulls(cycle, actions))
        passes["first"] = _quiet(deck.cards, actions, [])  # a game's first pass
        # the card-by-card loop's cards: each its action's kind (_KINDS), a King's and the Ace's marked
        codes = {card: _KINDS[actions[card]] + (_KING if is_king(card) else _ACE if card == SALVATION_CARD else 0)
                 for card in deck.cards}
        passes["codes"] = codes
        # a reshuffled pass at once (returns.py), where a King returned cannot end the game and the Ace is out
        passes["whole"] = {salvation: None if face_up or SALVATION_CARD in passes[salvation][0] else
                           pass_cards([actions[card] for card in passes[salvation][0]],
                                      [actions[card] for card in deck.cards if is_king(card)]) for salvation in (False, True)}
        passes["tokens only"] = bool(passes["whole"][True]) and not any(passes["whole"][True][2:6])
        # a game's first pass at once too: too few Kings to end it, the Ace (if there) of no effect but salvation
        first = None if face_up or actions.get(SALVATION_CARD) not in (None, "salvation", "no-pull") else pass_cards(
            [actions[card] for card in deck.cards if not is_king(card)], [actions[card] for card in deck.cards if is_king(card)], True)
        passes["first whole"] = first and first.lowest == 7 and (
            first, tuple(codes[card] for card in deck.cards if is_king(card)), deck.settings["tokens"] if SALVATION_CARD in actions else 0)
        for salvation in (False, True):
            passes[salvation] = (tuple(codes[card] for card in passes[salvation][0]), *passes[salvation][1:])
        kept = _ACTIONS[id(deck)] = (deck, actions, passes)
    return kept[1], kept[2]


def playout(state: JournalState, rng: random.Random, tower: bool = True) -> Playout:
    """The rest of the game from `state`, sampled with `rng` (the same rules as rules.py).

    tower=False: the deck's part only, the tower never falls: `pulls` counts the plain pulls after
    the one in progress (tower_odds weighs them with the tower's exact chain)."""
    deck: Deck = state.deck
    settings = deck.settings
    advantage_from = state.tower.advantage_from
    countdown = state.tower.countdown
    remaining: list = list(state.remaining)  # names, then kinds (codes)
    uniform = rng.random  # a die is int(uniform() * 6) + 1: random.choices' own way, as fast as randint is slow
    kings: list = list(state.kings)
    salvation, tokens = state.salvation, state.tokens
    salvation_from, skips = state.salvation_from, state.skips
    to_draw, day, cards, pulls = state.to_draw, state.day, len(state.pages), state.tower.pulls
    reshuffles = state.reshuffles
    most = settings.get("reshuffles")  # the deck's bound (rules.may_reshuffle); None: saved before it
    cap = MAX_RESHUFFLES if most is None else most
    actions, passes = _actions(deck)
    codes = passes["codes"]
    kings_to_end = settings["kings"]
    pulls_from = pull_tables(advantage_from)  # [0] a pull's tables by countdown, [1] a pull and remove's
    phase = state.phase
    if state.ending:
        return Playout(state.ending, day, cards, pulls)
    if not tower:
        pulls = 0
    if phase in ("pull", "pulling", "final-pull", "final-pulling"):
        remove = state.tower.removing if phase.endswith("ing") else state.pull_due == "remove"
        if tower:
            countdown = pulled(countdown, advantage_from, remove, rng)
            pulls += phase in ("pull", "final-pull")
        if countdown == 0:
            return Playout("tower", day, cards, pulls)
        if phase.startswith("final"):
            return Playout("salvation", day, cards, pulls)
        phase = "entry"
    # a bounded deck's game under a tall tower: no pull it has left can fell it (each card, and a King
    # back for each, a pull at most), so its pulls are counted, never rolled: the deck's part alone
    standing = tower and most is not None and _out_of_reach(countdown, advantage_from, 2 * (
        len(remaining) + (cap - reshuffles) * len(actions)) + 1)
    if standing:
        tower, countdown = False, NEVER
    # the pass under way, once: no King, no Ace of hearts left in it, its pulls (and skips) are all it does
    quiet = standing and not salvation and (
        passes["first"] if len(remaining) == len(actions) else _quiet(remaining, actions, kings))
    first = passes["first whole"] if not quiet and len(remaining) == len(actions) and phase == "day" and not skips else None
    first = first if first and not (tower and first[0].mixed) else None  # (mixed pulls: counted only)
    remaining, kings = list(map(codes.__getitem__, remaining)), list(map(codes.__getitem__, kings))  # ints from here
    remaining = [] if first else remaining
    if phase in ("entry", "draw", "drawing"):
        phase = "cards"
    elif phase in ("day-end", "day-end-rolling"):
        phase = "salvation"
    else:
        phase = "day"
    counts: tuple | None  # skips_left's counts, then a pass's (tower_pulls' or saving's)
    faces, d = b"", 0  # dice rolled ahead for the card loop's days, and the next one
    while True:
        if phase == "day":
            day += 1
            to_draw = int(uniform() * 6) + 1
            phase = "cards"
        if phase == "cards":
            if quiet and to_draw > 0:  # the rest of this pass at once: its pulls counted, its days rolled
                net, skipping, quiet = quiet[0] + quiet[1] - quiet[2], quiet[2], None
                cumulative, counts = skips_left(net + skipping, skipping)  # the skips left, as skips.py's chain
                after = max(skips - net, counts[bisect_left(cumulative, uniform())])
                pulls, skips, cards = pulls + net + after - skips, after, cards + len(remaining)
                day, to_draw, _ = _days_drawing(len(remaining), day, to_draw, rng)
                remaining = []
            while True:
                if quiet and to_draw <= 0:  # (the pass at once comes with the next day's cards)
                    break
                # cards drawn at random from those left (a shuffled deck's next card, one float a card drawn), and
                # each day's end and the next day's die here (a day costs no turn of the phases), until the pass
                # ends: `stop` is how many cards are left when the day ends, `end` the cards drawn when none are
                # (a King returned adds one to each), so a card costs no count
                stop, end = len(remaining) - to_draw, cards + len(remaining)
                least = stop if stop > 0 else 0
                while True:
                    left = len(remaining)
                    if left <= least:
                        if left != stop:  # the pass ends within the day
                            break
                        try:  # a salvation die and the next day's, rolled ahead (a few bytecodes a die)
                            up, size = faces[d], faces[d + 1]
                        except IndexError:
                            faces, d = faces[d:] + dice(2 * len(remaining) + 16, rng), 0
                            up, size = faces[0], faces[1]
                        d += 2
                        if salvation and up >= salvation_from:
                            tokens -= 1
                            if tokens == 0:
                                return _saved(countdown, advantage_from, settings, tower, rng, day, end - left, pulls)
                        day += 1
                        stop -= size
                        least = stop if stop > 0 else 0
                        continue
                    kind = remaining.pop(floor(uniform() * left))  # (math.floor: a third of int's call)
                    if kind >= 16:  # _KING: a King (kept face up, whatever it says) or the Ace of hearts, then its action
                        if kind < 32:  # (_ACE)
                            kings.append(kind)
                            if len(kings) >= kings_to_end:
                                return Playout("kings", day, end - left + 1, pulls)
                            kind -= 16
                        else:
                            if not salvation:
                                salvation, tokens = True, settings["tokens"]
                            kind -= 32
                    if kind == 4:  # return-king: among those left (each draw is at random)
                        if kings:
                            remaining.append(kings.pop())
                            stop, end = stop + 1, end + 1
                            least = stop if stop > 0 else 0
                    elif kind <= 1:  # pull, or pull and remove
                        if skips:
                            skips -= 1
                            continue
                        pulls += 1
                        if tower:  # (passes.pulled, inline)
                            cumulative, drops = pulls_from[kind][countdown]
                            countdown -= drops[bisect_left(cumulative, uniform())]
                        elif pulls >= countdown:  # a pull that leaves it standing takes one or more: it has fallen
                            return Playout("tower", day, end - left + 1, pulls)
                        if countdown == 0:
                            return Playout("tower", day, end - left + 1, pulls)
                    elif kind == 2:  # no effect
                        continue
                    elif kind == 3:  # add-token: once salvation has come
                        if salvation:
                            tokens += 1
                    elif kind == 5:  # skip-pull
                        skips += 1
                    elif kind == 6:  # remove-token: once salvation has come
                        if salvation:
                            tokens -= 1
                            if tokens == 0:
                                return _saved(countdown, advantage_from, settings, tower, rng, day, end - left + 1, pulls)
                    else:  # salvation-5, salvation-4
                        salvation_from = min(salvation_from, 12 - kind)
                cards, to_draw = end, -stop  # the pass's cards all drawn (a first pass at once starts so too)
                at_once = None  # a pass at once (returns.py): its cards, the Kings in it, the tokens its Ace brings
                if first:  # a game's first pass
                    at_once, first = first, None
                else:
                    reshuffles += 1
                    if settings["deck_out"] != "reshuffle" or reshuffles > cap:
                        return Playout("deck", day, cards, pulls)
                    cycle, may_end, may_end_with_kings, tower_pulls, tower_pulls_with_kings, saving = passes[salvation]
                    remaining = list(cycle)
                    if most is None and not (salvation or (may_end_with_kings if kings else may_end)):
                        return Playout("deck", day, cards, pulls)  # nothing left can end it: the deck's ending
                    left = cap - reshuffles + 1  # passes to come before the cap, this one's included
                    whole = passes["whole"][salvation]  # this pass's cards (returns.py); token cards only: at once first
                    tokens_only = salvation and passes["tokens only"]
                    # the passes at once (a bounded deck's pulls only counted; tower_odds': the pass at once below)
                    if not tokens_only and (tower or standing or most is None):
                        if salvation and saving and saving[4]:  # skips: only once they carry every pull of a pass, for good
                            pulling = saving[0] + saving[1]
                            saving = (0, 0, *saving[2:4], saving[4] - pulling, *saving[5:]) if skips >= pulling <= saving[4] else None
                        walking = salvation and saving and not (saving[5] and kings) and saving[6] >= salvation_from
                        if walking and not any(saving[1:4]):
                            return saving_passes(len(remaining), saving[0], tokens, salvation_from, countdown, advantage_from,
                                                  settings["final_check"] == "pull", left, day, to_draw, cards, pulls,
                                                  tower, rng)
                        counts = None if salvation else tower_pulls_with_kings if kings else tower_pulls
                        # only the tower can end it now: the pulls the skips leave before the cap, at least
                        at_least = (counts[0] + counts[1] - counts[2]) * left - skips if counts else 0
                        if not tower and pulls + at_least >= countdown:  # they certainly fell it
                            return Playout("tower", day, cards, max(pulls, countdown))
                        if counts and skips >= counts[0] + counts[1] <= counts[2]:
                            return skipped_to_the_cap(len(remaining), left, day, to_draw, cards, pulls, rng)
                        if counts and counts[2] and not counts[1] and counts[0] > counts[2]:
                            return skipping_passes(len(remaining), counts[0], counts[2], skips, countdown, advantage_from,
                                                    left, day, to_draw, cards, pulls, tower, rng)
                        if counts and counts[2]:  # skips with removes, or as many as the pulls: card by card
                            counts = None
                        if counts and not counts[1]:
                            falls = NEVER if standing else tower_falls(countdown, advantage_from, rng)
                            return tower_alone(len(remaining), counts[0], falls, left, day, to_draw, cards, pulls, rng)
                        if walking:  # tokens added or removed by cards: passes at once while they are many
                            counts = saving
                            skipped, dropped = token_passes(saving, len(remaining), tokens, countdown, advantage_from,
                                                             left, pulls, tower, rng)
                            tokens, skips = tokens + skipped * (saving[2] - saving[3]), skips + skipped * saving[4]
                        else:
                            skipped, dropped = (0, 0) if not counts else (left, 0) if standing else far_passes(
                                counts, countdown, advantage_from, rng)
                        if skipped and skipped <= left:  # whole passes at once
                            assert counts is not None  # passes are skipped by a pass's counts only
                            countdown -= dropped
                            pulls += skipped * (counts[0] + counts[1])
                            cards += skipped * len(remaining)
                            reshuffles += skipped - 1
                            day, to_draw, more = _days_drawing(skipped * len(remaining), day, to_draw, rng)
                            tokens -= successes(more, (7 - salvation_from) / 6, rng) if walking and more else 0
                            remaining = []
                            continue
                    if tokens_only or whole and whole.lowest >= salvation_from and not (tower and whole.mixed):  # else card by card
                        at_once = whole, (), 0
                if at_once:
                    whole, in_it, ace = at_once
                    returned = kings_drawn(whole, len(kings), len(in_it), rng)  # so only the pulls it can make are rolled
                    kings_pulling = returned if whole.king_pulls else 0  # a pull each King drawn
                    plain, removes = (whole.plain + kings_pulling * (whole.king_pulls == 1),
                                      whole.removes + kings_pulling * (whole.king_pulls == 2))
                    far = tower and not removes and far_up(countdown, advantage_from, plain)  # the drop sampled after
                    countdowns = rolled(countdown, advantage_from, plain, removes, rng) if tower and not far else []
                    falls = len(countdowns) if countdowns[-1:] == [0] else NEVER if tower else countdown - pulls
                    ending, drawn, days, to_draw, left, made, skips = whole_pass(
                        whole, len(kings), tokens if salvation else 0, salvation_from, to_draw, skips, falls, rng, len(in_it), ace,
                        returned)
                    cards, day, pulls, tokens, remaining = cards + drawn, day + days, pulls + made, left or tokens, []
                    kings, salvation = kings + list(in_it), salvation or bool(ace)  # (a first pass's: all face up)
                    if tower and made:
                        countdown = countdown - far_drop(made, advantage_from, rng) if far else countdowns[made - 1]
                    if ending == "tower":
                        return Playout("tower", day, cards, pulls)
                    if ending:
                        return _saved(countdown, advantage_from, settings, tower, rng, day, cards, pulls)
                    continue
            phase = "salvation" if salvation else "day"
        if phase == "salvation":
            if int(uniform() * 6) + 1 >= salvation_from:
                tokens -= 1
                if tokens == 0:
                    return _saved(countdown, advantage_from, settings, tower, rng, day, cards, pulls)
            phase = "day"


def _quiet(cards, actions: dict, kings: list) -> tuple[int, int, int] | None:
    """The pulls, removes and skips of `cards` when they are all the cards do (no King, no Ace of hearts)."""
    return None if any(card[0] == "K" for card in cards) else _tower_pulls(tuple(cards), actions, kings)


def _out_of_reach(countdown: int, advantage_from: int, most: int) -> bool:
    """Whether `most` pulls (pulls and removes in any mix) leave a tower at `countdown` standing, but for a
    chance under 1e-19 (runs.PRUNE, twice). Each pull takes one at least: `most` or less is within reach."""
    return countdown > most and countdown >= _reach(most, advantage_from)


@lru_cache(maxsize=None)
def _reach(most: int, advantage_from: int) -> int:
    """The lowest countdown `most` pulls cannot fell: what `most` pulls and `most` removes drop, each
    passed with a chance under 1e-20 (Runs.beyond; a tower of 10,000 and 417 pulls: 5,184)."""
    plain, removing = drop_runs(advantage_from), drop_runs(advantage_from, True)
    reach = plain.beyond(most) + removing.beyond(most)
    return reach + max(advantage_from, 13) + max(max(plain.single), max(removing.single))


def _days_drawing(due: int, day: int, to_draw: int, rng: random.Random) -> tuple[int, int, int]:
    """After `due` more cards (today's dice leave `to_draw`): the day, the cards its dice leave, the days gone by."""
    if due < to_draw:
        return day, to_draw - due, 0
    more, drawn = days_to_draw(due - to_draw, rng)
    return day + more, drawn - (due - to_draw), more


def _saved(countdown: int, advantage_from: int, settings: dict, tower: bool, rng: random.Random, day: int,
           cards: int, pulls: int) -> Playout:
    """The last token gone: salvation, after the final pull where the deck asks for one."""
    if settings["final_check"] == "pull":
        pulls += 1
        if tower and pulled(countdown, advantage_from, False, rng) == 0:
            return Playout("tower", day, cards, pulls)
    return Playout("salvation", day, cards, pulls)


# what a card does once the deck has reshuffled without salvation: nothing but a plain pull changes the game
_QUIET = frozenset(("no-pull", "king", "salvation", "salvation-5", "salvation-4", "add-token", "remove-token"))


def _tower_pulls(cycle: tuple, actions: dict, kings: list) -> tuple[int, int, int] | None:
    """The plain pulls, the pulls and removes and the skips of each pass of a reshuffled deck, where
    nothing but its pulls can end the game: no salvation (the Ace of Hearts is not in the deck), no
    King to come (all are face up, too few: none goes back). None: not so."""
    counts = [0, 0, 0]
    for card in cycle:
        action = actions[card]
        if action in ("pull", "remove", "skip-pull"):
            counts[("pull", "remove", "skip-pull").index(action)] += 1
        elif card == SALVATION_CARD or not (action in _QUIET or (action == "return-king" and not kings)):
            return None
    return (counts[0], counts[1], counts[2]) if counts[0] or counts[1] else None


def _saving_pulls(cycle: tuple, actions: dict) -> tuple[int, int, int, int, int, bool, int] | None:
    """A reshuffled pass once salvation has come: its pulls, its pulls and removes, the tokens its
    cards add and those they remove, its skips, whether it has a card that returns a King (quiet
    while none is face up) and the lowest salvation die its cards allow (quiet if no lower than the
    game's)."""
    counts, returns, lowest = {"pull": 0, "remove": 0, "add-token": 0, "remove-token": 0, "skip-pull": 0}, False, 7
    for card in cycle:
        action = actions[card]
        if action in counts:
            counts[action] += 1
        elif action == "return-king":
            returns = True
        elif action in ("salvation-5", "salvation-4"):
            lowest = min(lowest, int(action[-1]))
    return counts["pull"], counts["remove"], counts["add-token"], counts["remove-token"], counts["skip-pull"], returns, lowest


def fallen_within(state: JournalState, most: int) -> list[float]:
    """fallen[j]: the chance that the tower has fallen once the pull in progress (if any) and then
    j plain pulls are made: the Dice Tower's chain from the countdown, exact but for chances under
    NEGLIGIBLE (a tower of 10,000 spreads over thousands of countdowns, nearly all of them never reached)."""
    tower = state.tower
    advantage_from = tower.advantage_from
    pending = state.phase in ("pull", "pulling", "final-pull", "final-pulling")
    remove = (tower.removing if state.phase.endswith("ing") else state.pull_due == "remove") if pending else False
    plain, removing = drop_runs(advantage_from), drop_runs(advantage_from, True)
    reach = max(removing.single) + plain.most_of(most)  # the most all the pulls drop it, but for chances under 1e-20
    if tower.countdown - reach >= max(advantage_from, 13) + max(removing.single):
        return [0.0] * (most + 1)  # so far up it cannot fall: a long reshuffled game's hundreds of pulls
    standing = {tower.countdown: 1.0}
    fallen = 0.0

    def pull(remove: bool) -> None:
        nonlocal standing, fallen
        after: dict[int, float] = {}
        for countdown, weight in standing.items():
            for drop, chance in likely_drops(own_countdown(countdown, advantage_from), advantage_from, remove):
                value = countdown - drop
                if value == 0:
                    fallen += weight * chance
                else:
                    after[value] = after.get(value, 0.0) + weight * chance
        standing = {countdown: weight for countdown, weight in after.items() if weight >= NEGLIGIBLE}

    if pending:
        pull(remove)
    table = [fallen]
    for _ in range(most):
        pull(False)
        table.append(fallen)
    return table


def tower_odds(state: JournalState, games: int = ODDS_GAMES, seed: int = 0) -> float:
    """The chance that the tower ends the game from `state`, by simulation (a fixed seed: it repeats).

    Where every pull to come is a plain pull (no card left says pull and remove: the SRD's default
    and the sample deck), only the deck's part is sampled (how many pulls the cards, days and tokens
    call for before they end the game) and each count is weighed with the tower's exact chance of
    falling within that many pulls: no tower is sampled, so the figure's noise is the deck's alone."""
    if state.ending:
        return 1.0 if state.ending == "tower" else 0.0
    rng = random.Random(seed)
    if any(state.deck.action(card) == "remove" for card in state.remaining):
        return sum(playout(state, rng).ending == "tower" for _ in range(games)) / games
    counts: dict[int, int] = {}
    for _ in range(games):
        pulls = playout(state, rng, tower=False).pulls
        counts[pulls] = counts.get(pulls, 0) + 1
    countdown = state.tower.countdown  # as many pulls as that: it has certainly fallen (each takes one or more)
    table = fallen_within(state, max((pulls for pulls in counts if pulls < countdown), default=0))
    return sum((table[pulls] if pulls < countdown else 1.0) * count for pulls, count in counts.items()) / games


def next_pull_chance(state: JournalState) -> Fraction:
    """The Dice Tower's exact chance that the next pull fells the tower (a remove if the card says so)."""
    remove = state.pull_due == "remove" or (state.tower.pulling and state.tower.removing)
    from fractions import Fraction

    chance = dicetower.topple_chance(state.tower.countdown, state.tower.advantage_from, remove)
    assert isinstance(chance, Fraction)  # exact, the default
    return chance
