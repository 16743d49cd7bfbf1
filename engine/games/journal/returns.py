"""A reshuffled pass after salvation whose cards only add tokens, return Kings or do nothing, in a deck
of too few Kings to end the game (odds.py): the pass played at once, exactly as card by card.

Each card drawn is one at random of those left; seen only among the Kings and return-king cards (the
specials), the next special is one at random of the specials left, so the Kings returned (the pass's
length) follow from the specials alone. The day dice and the salvation dice do not depend on the
cards' order: a pass whose salvation dice come up fewer times than the tokens cannot end the game
(a token card only adds), and only its count of token cards matters. Otherwise the pass is walked
card by card among the same specials, days and dice: each card a special or not by the count of
each left (which special it is: the sequence already drawn), a token card or not likewise."""
from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache

from dicehall.engine.games.journal.runs import successes


def token_cards(actions: list[str]) -> tuple[int, int, int] | None:
    """A pass's cards that are no return-king, those of them that add a token, and its return-king
    cards, if those and cards of no effect are all it has (token_pass); None: not so."""
    if not set(actions) <= {"add-token", "return-king", "no-pull", "king", "salvation"}:
        return None
    return len(actions) - actions.count("return-king"), actions.count("add-token"), actions.count("return-king")


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
    chain played until it does (so each order comes with its own chance, given that count)."""
    uniform = rng.random
    while True:
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


def token_pass(others: int, adds: int, returns: int, face_up: int, tokens: int, salvation_from: int,
               to_draw: int, rng: random.Random) -> tuple[int, int, int, int] | tuple[int, int]:
    """A pass of `others` cards that are no King and no return-king (`adds` of them add a token) and
    `returns` return-king cards, `face_up` Kings face up, from a reshuffle with `to_draw` cards of
    today's dice left (one at least). (cards drawn, days gone by, today's cards left, tokens), or
    (days gone by, cards drawn) when the last token goes at a day's end."""
    uniform = rng.random
    cumulative, counts = _returned_table(returns, face_up)
    returned = counts[bisect_left(cumulative, uniform())]
    length = others + returns + returned
    drawn, sizes = to_draw, []
    while drawn < length:  # the next day's dice, after each day's end within the pass
        sizes.append(int(uniform() * 6) + 1)
        drawn += sizes[-1]
    saved = successes(len(sizes), (7 - salvation_from) / 6, rng)  # the salvation dice of those days' ends
    if saved < tokens:
        return length, len(sizes), drawn - length, tokens + adds - saved
    ends = set(rng.sample(range(len(sizes)), saved))  # which of them: any as likely
    specials = _specials(returns, face_up, returned, rng)
    special, day_left, end = 0, to_draw, 0
    for card in range(1, length + 1):
        count = specials[special] if special < len(specials) else 0
        pick = uniform() * (count + others)
        if pick < count:
            special += 1
        else:
            if pick - count < adds:
                adds, tokens = adds - 1, tokens + 1
            others -= 1
        day_left -= 1
        if day_left == 0 and card < length:
            if end in ends:
                tokens -= 1
                if tokens == 0:
                    return end, card
            day_left, end = sizes[end], end + 1
    return length, len(sizes), drawn - length, tokens
