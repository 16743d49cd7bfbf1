"""A reshuffled pass played at once, exactly as card by card (odds.py): its cards but its Kings are
pulls, skips, token cards, return-king cards in a deck of too few Kings to end the game, and cards
of no effect then (a salvation-5 or -4 is, once the first pass has drawn it).

Each card drawn is one at random of those left; seen only among the Kings and return-king cards (the
specials), the next special is one at random of the specials left, so the Kings returned (the pass's
length) follow from the specials alone. The day dice and the salvation dice do not depend on the
cards' order: a pass whose salvation dice come up, with its remove-token cards, fewer times than the
tokens cannot end the game, and only its count of token cards matters; nor do the pulls it makes,
which follow from the skips it starts with and the order of its pull and skip cards alone (the
skips' chain, skips.py). Otherwise the pass is walked card by card among the same specials, days and
dice: each card a special or not by the count of each left (which special it is: the sequence already
drawn), then which of the others, likewise. The pulls made are the first of the pass's pull cards in
a random order (any is as likely), so a pull and remove among them is drawn as such (pulls.rolled)."""
from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from typing import NamedTuple

from dicehall.engine.games.journal.runs import successes
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


def pass_cards(actions: list[str], kings: list[str]) -> PassCards | None:
    """A reshuffled pass's cards (their actions) counted, if PassCards says all they do and a King
    returned (its action among `kings`) does nothing when drawn again; None: not so."""
    if not set(actions) <= _NO_EFFECT | {"add-token", "remove-token", "pull", "remove", "skip-pull", "return-king"}:
        return None
    if "return-king" in actions and not set(kings) <= _NO_EFFECT:
        return None
    lowest = min([int(action[-1]) for action in actions if action.startswith("salvation-")] + [7])
    return PassCards(len(actions) - actions.count("return-king"), actions.count("add-token"),
                     actions.count("remove-token"), actions.count("pull"), actions.count("remove"),
                     actions.count("skip-pull"), actions.count("return-king"), lowest)


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
def _returned_table(returns: int, face_up: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """_returned from a reshuffle as cumulative chances and counts, rising."""
    items = sorted(_returned(returns, 0, face_up).items())
    cumulative, total = [], 0.0
    for _, chance in items:
        total += chance
        cumulative.append(total)
    cumulative[-1] = 1.0
    return tuple(cumulative), tuple(count for count, _ in items)


def _specials(returns: int, face_up: int, returned: int, rng: random.Random) -> list[int]:
    """The specials left before each special drawn, in a pass that draws `returned` Kings again: the
    chain played until it does, four times at most (quick where that count is likely), then each
    special a King or not with its chance given the Kings still to be drawn again (_returned's)."""
    uniform = rng.random
    for _ in range(4):
        specials = []
        left, kings, up = returns, 0, face_up
        while left + kings:
            specials.append(left + kings)
            if uniform() * (left + kings) < kings:  # a King: face up again
                kings, up = kings - 1, up + 1
            else:
                left -= 1
                if up:
                    up, kings = up - 1, kings + 1
        if len(specials) - returns == returned:
            return specials
    specials = []
    left, kings, up = returns, 0, face_up
    while left + kings:
        specials.append(left + kings)
        share = kings / (left + kings)
        king = share * _returned(left, kings - 1, up + 1).get(returned - 1, 0.0) if kings else 0.0
        after = (left - 1, kings + 1, up - 1) if up else (left - 1, kings, up)
        other = (1 - share) * _returned(*after).get(returned, 0.0) if left else 0.0
        if uniform() * (king + other) < king:
            kings, up, returned = kings - 1, up + 1, returned - 1
        else:
            left, kings, up = after
    return specials


def whole_pass(cards: PassCards, face_up: int, tokens: int, salvation_from: int, to_draw: int, skips: int,
               falls: int, rng: random.Random) -> Played:
    """A pass of `cards`, `face_up` Kings face up, from a reshuffle with `to_draw` cards of today's
    dice left (one at least) and `skips` carried. tokens: those left (0: salvation has not come);
    falls: the pull of this pass that fells the tower (pulls.rolled), if it makes that many. Walked
    card by card only while the tokens could still run out in it or that pull come, then the rest at once."""
    uniform = rng.random
    others, adds, removals, plain, removes, skip_cards, returns, _ = cards
    cumulative, counts = _returned_table(returns, face_up)
    returned = counts[bisect_left(cumulative, uniform())]
    length = others + returns + returned
    drawn, sizes = to_draw, []
    while drawn < length:  # the next day's dice, after each day's end within the pass
        sizes.append(int(uniform() * 6) + 1)
        drawn += sizes[-1]
    saved = successes(len(sizes), (7 - salvation_from) / 6, rng) if tokens else 0  # the days' ends' dice
    pulling = plain + removes
    card, made = 0, 0
    if tokens and tokens <= removals + saved or pulling >= falls:
        ends = set(rng.sample(range(len(sizes)), saved))  # which of them: any as likely
        specials = _specials(returns, face_up, returned, rng)
        special, day_left, end = 0, to_draw, 0
        while card < length and (tokens and tokens <= removals + saved or made + pulling >= falls):  # saved: those to come
            card += 1
            count = specials[special] if special < len(specials) else 0
            pick = uniform() * (count + others)
            if pick < count:
                special += 1
            else:
                pick -= count
                if pick < adds:
                    adds, tokens = adds - 1, tokens + 1
                elif pick < adds + removals:
                    removals, tokens = removals - 1, tokens - 1
                    if tokens == 0:
                        return "salvation", card, end, 0, 0, made, skips
                elif pick < adds + removals + pulling:
                    pulling -= 1
                    if skips:
                        skips -= 1
                    else:
                        made += 1
                        if made == falls:
                            return "tower", card, end, 0, 0, made, skips
                elif pick < adds + removals + pulling + skip_cards:
                    skip_cards, skips = skip_cards - 1, skips + 1
                others -= 1
            day_left -= 1
            if day_left == 0 and card < length:
                if end in ends:
                    saved, tokens = saved - 1, tokens - 1
                    if tokens == 0:
                        return "salvation", card, end, 0, 0, made, skips
                day_left, end = sizes[end], end + 1
    after = skips  # the rest of the pass at once: the skips left, as skips.py's chain
    if pulling + skip_cards:
        cumulative, counts = skips_left(pulling, skip_cards)
        after = max(skips - pulling + skip_cards, counts[bisect_left(cumulative, uniform())])
    tokens = tokens and tokens + adds - removals - saved
    return "", length, len(sizes), drawn - length, tokens, made + pulling - skip_cards + after - skips, after
