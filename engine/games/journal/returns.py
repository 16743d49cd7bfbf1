"""A reshuffled pass played at once, exactly as card by card (odds.py): its cards but its Kings are
pulls, skips, token cards, return-king cards in a deck of too few Kings to end the game, and cards
of no effect then (a salvation-5 or -4 is, once the first pass has drawn it).

Each card drawn is one at random of those left; seen only among the Kings and return-king cards (the
specials), the next special is one at random of the specials left, so the Kings returned (the pass's
length) follow from the specials alone. The day dice and the salvation dice do not depend on the
cards' order: a pass whose salvation dice come up, with its remove-token cards, fewer times than the
tokens cannot end the game, and only its count of token cards matters; nor can one whose token
cards, in their order, never take the tokens as low as its up dice could take the rest (the chance of
that by the reflection principle: _reaching); nor do the pulls it makes,
which follow from the skips it starts with and the order of its pull and skip cards alone (the
skips' chain, skips.py). Otherwise the pass is walked card by card among the same specials, days and
dice: each card a special or not by the count of each left (which special it is: a King with its
chance given the Kings still to be drawn), then which of the others, likewise. The pulls made are the
first of the pass's pull cards in a random order (any is as likely), so a pull and remove among them
is drawn as such (pulls.rolled). A King drawn that pulls is one more pull of the pass's kind (with
no skip card to cancel it in some orders and not others). A game's first pass plays so too where
its Kings cannot end the game: walked until the Ace of Hearts comes (the salvation dice from its
day), the token cards before it doing nothing."""
from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate, compress
from math import comb
from typing import NamedTuple

from dicehall.engine.games.journal.runs import dice_covering, salvation_dice
from dicehall.engine.games.journal.skips import skips_left

# what a card does after the first pass, besides what PassCards counts: nothing (the Ace of Hearts'
# salvation and the Kings' are specials; a salvation-5 or -4 has lowered the salvation die already)
_NO_EFFECT = frozenset(("no-pull", "king", "salvation", "salvation-5", "salvation-4"))


class PassCards(NamedTuple):
    """A pass's cards that are no return-king (no King, no Ace of Hearts among them), by what they do."""

    others: int
    adds: int  # add-token
    removals: int  # remove-token
    plain: int  # pull
    removes: int  # pull and remove
    skips: int  # skip-pull
    returns: int  # return-king cards (besides the others)
    lowest: int  # the lowest salvation die a salvation-5 or -4 allows (7: none)
    king_pulls: int  # what a King drawn again does: 0 nothing, 1 a pull, 2 a pull and remove
    mixed: bool  # Kings that pull otherwise than a pull card: at once only where the pulls are counted, not rolled


def pass_cards(actions: list[str], kings: list[str], first: bool = False) -> PassCards | None:
    """A reshuffled pass's cards (their actions) counted, if PassCards says all they do and a King
    returned (its action among `kings`) does nothing when drawn again, or pulls, every King alike
    (which one goes back would matter otherwise) and no skip card there to cancel it (the pulls made
    then count alike in any order); None: not so. first: a game's first pass, whose Kings are drawn
    returned or not."""
    if not set(actions) <= _NO_EFFECT | {"add-token", "remove-token", "pull", "remove", "skip-pull", "return-king"}:
        return None
    king_pulls, mixed = 0, False
    if ("return-king" in actions or first) and not set(kings) <= _NO_EFFECT:
        if len(set(kings)) > 1 or "skip-pull" in actions:
            return None
        king_pulls = 1 if kings[0] == "pull" else 2
        mixed = ("remove" if king_pulls == 1 else "pull") in actions
    lowest = min([int(action[-1]) for action in actions if action.startswith("salvation-")] + [7])
    return PassCards(len(actions) - actions.count("return-king"), actions.count("add-token"),
                     actions.count("remove-token"), actions.count("pull"), actions.count("remove"),
                     actions.count("skip-pull"), actions.count("return-king"), lowest, king_pulls, mixed)


# A pass played at once (whole_pass), a plain tuple (a pass is a few microseconds: a NamedTuple's
# making is a sixth of them): how the game ended in it ("salvation": the last token went, "tower":
# the pull that fells it was made; then the cards and days are those up to that card and day; "" if
# not), the cards drawn, the days gone by, today's cards left, the tokens, the pulls made and the
# skips carried.
Played = tuple[str, int, int, int, int, int, int]


@lru_cache(maxsize=None)
def _returned(left: int, kings: int, face_up: int) -> dict[int, float]:
    """The Kings drawn again in the rest of a pass (each one returned) from `left` return-king cards
    and `kings` Kings in it, `face_up` face up: their chances."""
    if not left + kings:
        return {0: 1.0}
    chances: dict[int, float] = {}
    share = kings / (left + kings)
    if kings:
        for count, chance in _returned(left, kings - 1, face_up + 1).items():
            chances[count + 1] = chances.get(count + 1, 0.0) + share * chance
    after = (left - 1, kings + 1, face_up - 1) if face_up else (left - 1, kings, face_up)
    for count, chance in _returned(*after).items():
        chances[count] = chances.get(count, 0.0) + (1 - share) * chance
    return chances


@lru_cache(maxsize=None)
def _returned_table(returns: int, kings: int, face_up: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """_returned from a pass's start as cumulative chances and counts, rising."""
    items = sorted(_returned(returns, kings, face_up).items())
    cumulative, total = [], 0.0
    for _, chance in items:
        total += chance
        cumulative.append(total)
    cumulative[-1] = 1.0
    return tuple(cumulative), tuple(count for count, _ in items)


def _king_next(left: int, kings: int, up: int, returned: int) -> float:
    """The chance that the next special is a King, given that `returned` Kings are yet to be drawn
    again in the pass (_returned's state: `left` return-king cards, `kings` Kings in it, `up` face up)."""
    share = kings / (left + kings)
    king = share * _returned(left, kings - 1, up + 1).get(returned - 1, 0.0) if kings else 0.0
    after = (left - 1, kings + 1, up - 1) if up else (left - 1, kings, up)
    other = (1 - share) * _returned(*after).get(returned, 0.0) if left else 0.0
    return king / (king + other)


@lru_cache(maxsize=None)
def _king_chances(returns: int, kings: int) -> list[list[list[float | None]]]:
    """_king_next by [Kings in the pass][return-king cards left][Kings to come], for passes of `returns`
    return-king cards and `kings` Kings in them or face up (those face up: the rest), each filled the first
    time a walk needs it (_king_filled): three list lookups where an lru_cache's call took a third of a
    walk's special card."""
    return [[[None] * (returns + kings + 1) for _ in range(returns + 1)] for _ in range(kings + 1)]


def _king_filled(row: list[float | None], left: int, kings: int, up: int, returned: int) -> float:
    row[returned] = chance = _king_next(left, kings, up, returned)
    return chance


def only_tokens_end(specials: int, ace: int, pulls: int, falls: int) -> bool:
    """Whether only the tokens can end a pass (whole_pass's tighter walk): no King or return-king card
    in it, the Ace of Hearts not to come, fewer pull cards than the pull that fells the tower."""
    return not (specials or ace) and pulls < falls


@lru_cache(maxsize=None)
def _reaching(adds: int, removals: int, depth: int) -> float:
    """The chance that `adds` add-token and `removals` remove-token cards in a random order take the
    tokens `depth` below where they start at some card (depth above 0 and above removals - adds): by the
    reflection principle, the orders that do are as many as those of adds + depth and removals - depth
    cards (each reflected after it first gets there)."""
    return comb(adds + removals, adds + depth) / comb(adds + removals, adds)


def _lowering(adds: int, removals: int, depth: int, uniform) -> int:
    """Whether a pass's token cards take its tokens `depth` below where they start (so low the dice's up
    days may take the rest: only then can they run out in it), drawn at once: -1 if not; if so, how many
    more remove-token cards the walk counts (as many fewer adds) until they get there, the reflected
    orders' counts that make the order so conditioned (0: they surely get there)."""
    if depth <= max(0, removals - adds):
        return 0
    return adds - removals + depth if uniform() < _reaching(adds, removals, depth) else -1


def _taken(sizes: bytes, to_draw: int, wins: bytes, most: int) -> list[int]:
    """The cards of a pass after which the dice have taken so many tokens, by count (taken[0]: -1, none
    left from the start; past its up dice, a card past the pass): the cards its days end after whose
    salvation die is up, `most` tokens at the most."""
    return [-1, *compress(accumulate(sizes, initial=to_draw), wins), *[1 << 30] * most]


def _ended(ending: str, card: int, sizes: bytes, to_draw: int, made: int, skips: int) -> Played:
    """A pass ended at `card` (whole_pass's Played): the days that ended before it."""
    return ending, card, bisect_left(list(accumulate(sizes, initial=to_draw)), card), 0, 0, made, skips


def kings_drawn(cards: PassCards, face_up: int, kings: int, rng: random.Random) -> int:
    """How many Kings a pass of `cards` draws (each returned, and those in it: whole_pass's `kings`),
    drawn ahead of the pass: its Kings that pull are so many pulls at the most, all the tower need roll."""
    if not (cards.returns or kings):  # none to draw (most passes: no float spent)
        return 0
    cumulative, counts = _returned_table(cards.returns, kings, face_up)
    return counts[bisect_left(cumulative, rng.random())]


def whole_pass(cards: PassCards, face_up: int, tokens: int, salvation_from: int, to_draw: int, skips: int,
               falls: int, rng: random.Random, kings: int = 0, ace: int = 0, returned: int = -1) -> Played:
    """A pass of `cards`, `face_up` Kings face up, from a reshuffle with `to_draw` cards of today's
    dice left (one at least) and `skips` carried. tokens: those left (0: salvation has not come);
    falls: the pull of this pass that fells the tower (pulls.rolled), if it makes that many. Walked
    card by card only while the tokens could still run out in it or that pull come, then the rest at once.
    A game's first pass: `kings` Kings in it (too few to end the game), and the Ace of Hearts among
    its others if `ace` (the tokens it brings: walked until it comes, its day's die the first).
    returned: the Kings it draws if drawn already (kings_drawn), else drawn here."""
    uniform = rng.random
    others, adds, removals, plain, removes, skip_cards, returns, _, king_pulls, _ = cards
    if returned < 0:  # the Kings drawn (each of them, in a first pass)
        returned = kings_drawn(cards, face_up, kings, rng)
    length = others + returns + returned
    sizes, drawn = dice_covering(length - to_draw, rng) if length > to_draw else (b"", 0)  # the next days' dice
    drawn += to_draw  # (each day's end within the pass has its salvation die, once salvation has come)
    wins = salvation_dice(len(sizes), salvation_from, rng) if tokens or ace else b""
    # the walks count the tokens as if no die had taken one (the Ace's: as if from the pass's start): the dice
    # take those of the pass's `saved` up days ends, the last token at taken[tokens] (_taken), which only a
    # token card moves; the tokens left at a card are tokens less the dice up before it
    saved = wins.count(1)
    pulling = plain + removes  # the pull cards left; and the Kings drawn again that pull, with them
    kings_pulling = returned if king_pulls else 0
    card, made = 0, 0
    # where only the tokens keep a walk going, it goes only if the token cards reach the dice (_lowering), and
    # then counts `bias` more remove-token cards until they do
    bias = 0
    tokens_alone = only_tokens_end(returns + kings, ace, pulling, falls) and 0 < tokens <= removals + saved
    if tokens_alone and (bias := _lowering(adds, removals, tokens - saved, uniform)) >= 0:
        taken = _taken(sizes, to_draw, wins, tokens + adds)  # no special, no Ace, no fall within reach: the walk
        out = taken[tokens]  # follows the tokens alone
        while card < length:  # (the same draws as the walk below, bias 0: it would take its first branch never)
            card += 1
            pick = uniform() * others
            others -= 1
            if pick < adds - bias:
                adds, tokens = adds - 1, tokens + 1
                if tokens > removals + saved:
                    break
                out = taken[tokens]
            elif pick < adds + removals:
                removals, tokens = removals - 1, tokens - 1
                out = taken[tokens]
                if out < card:  # (the dice took the others)
                    return _ended("salvation", card, sizes, to_draw, made, skips)
                if tokens == saved:  # as low as the dice may take them: the order is free from here
                    bias = 0
            elif pick < adds + removals + pulling:
                pulling -= 1
                if skips:
                    skips -= 1
                else:
                    made += 1
            elif pick < adds + removals + pulling + skip_cards:
                skip_cards, skips = skip_cards - 1, skips + 1
            if card == out:  # the day ends after it and its die takes the last token
                return _ended("salvation", card, sizes, to_draw, made, skips)
    elif not tokens_alone and (ace or pulling + kings_pulling >= falls or tokens and tokens <= removals + saved
                               and (bias := _lowering(adds, removals, tokens - saved, uniform)) >= 0):
        left, in_it, up, to_come = returns, kings, face_up, returned  # the specials' chain (_returned's), drawn as they come
        chances = _king_chances(returns, kings + face_up)
        count = returns + kings  # the specials left
        taken = _taken(sizes, to_draw, wins, tokens + adds + ace)
        out = taken[tokens] if tokens else -1
        # the walk goes on while the Ace is to come, the tokens could run out or the felling pull come: only an
        # added token, the Ace and a pull skipped change that (a token taken, by a card or a die, takes one of each)
        while card < length:
            card += 1
            pulled = False  # a pull card, or a King that pulls
            pick = uniform() * (count + others)
            if pick < count:  # a special: a King or not with its chance given the Kings still to be drawn
                if to_come and in_it and uniform() < ((row := chances[in_it][left])[to_come]
                                                      or _king_filled(row, left, in_it, up, to_come)):
                    in_it, up, to_come, count = in_it - 1, up + 1, to_come - 1, count - 1
                    if king_pulls:
                        kings_pulling, pulled = kings_pulling - 1, True
                elif up:  # a return-king card: the last King face up back in the pass
                    left, in_it, up = left - 1, in_it + 1, up - 1
                else:
                    left, count = left - 1, count - 1
            else:
                pick -= count
                others -= 1
                if pick < adds - bias:  # (tokens 0: salvation has not come, a token card does nothing)
                    adds, tokens = adds - 1, tokens and tokens + 1
                    if not (ace or tokens and tokens <= removals + saved or made + pulling + kings_pulling >= falls):
                        break
                    out = taken[tokens] if tokens else -1
                elif pick < adds + removals:
                    removals -= 1
                    if tokens:
                        tokens -= 1
                        out = taken[tokens]
                        if out < card:  # (the dice took the others)
                            return _ended("salvation", card, sizes, to_draw, made, skips)
                        if tokens == saved:
                            bias = 0
                elif pick < adds + removals + pulling:
                    pulling, pulled = pulling - 1, True
                elif pick < adds + removals + pulling + skip_cards:
                    skip_cards, skips = skip_cards - 1, skips + 1
                elif ace and pick < adds + removals + pulling + skip_cards + 1:  # salvation: the dice from today's end
                    tokens, ace = ace + bisect_left(taken, card) - 1, 0  # (and the dice up before it: none of its)
                    out = taken[tokens]
                    if made + pulling + kings_pulling < falls and (
                            tokens > removals + saved or (bias := _lowering(adds, removals, tokens - saved, uniform)) < 0):
                        break
            if pulled:
                if not skips:
                    made += 1
                    if made == falls:
                        return _ended("tower", card, sizes, to_draw, made, skips)
                else:
                    skips -= 1
                    if not (ace or tokens and tokens <= removals + saved or made + pulling + kings_pulling >= falls):
                        break
            if card == out:  # the day ends after it and its die takes the last token
                return _ended("salvation", card, sizes, to_draw, made, skips)
    pulling += kings_pulling  # (no skip card with them: their order does not matter)
    after = skips  # the rest of the pass at once: the skips left, as skips.py's chain
    if pulling + skip_cards:
        cumulative, counts = skips_left(pulling, skip_cards)
        after = max(skips - pulling + skip_cards, counts[bisect_left(cumulative, uniform())])
    tokens = tokens and tokens + adds - removals - saved
    return "", length, len(sizes), drawn - length, tokens, made + pulling - skip_cards + after - skips, after
