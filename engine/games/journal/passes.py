"""The rest of a reshuffled journal game at once, for odds.playout: whole passes while the tower
stays far up, a game only the tower (or the salvation die, or the reshuffle cap) can end, and the
skips a deck's passes carry, each sampled from its exact distribution (runs.py, skips.py), not
card by card. A game's course is a Playout."""
from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from math import log

from dicehall.engine.games.journal.pulls import drop_runs, pull_outcomes, pull_tables
from dicehall.engine.games.journal.runs import LARGEST, Runs, convolve, day_runs, days_to_draw
from dicehall.engine.games.journal.skips import skip_steps, skips_left


def shuffle(cards: list, uniform) -> None:
    """Fisher-Yates with one float a card (random.shuffle's integers cost five times as much: a
    reshuffling deck's long game spends most of its time here)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(uniform() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@dataclass
class Playout:
    """One game's course from a state: how it ended, on which day, after how many cards and pulls."""

    ending: str
    days: int
    cards: int
    pulls: int


def pulled(countdown: int, advantage_from: int, remove: bool, rng: random.Random) -> int:
    cumulative, drops = pull_outcomes(countdown, advantage_from, remove)
    return countdown - drops[bisect_left(cumulative, rng.random())]


@lru_cache(maxsize=None)
def _pass_runs(plain: int, removes: int, advantage_from: int) -> tuple[Runs, int]:
    """A whole pass's drop (its plain pulls and its pulls and removes, in any order), for runs of
    passes, and the countdown from which every pull of them drops the same as from any higher."""
    pulls, removing = drop_runs(advantage_from), drop_runs(advantage_from, True)  # (skips: none)
    passes = Runs(convolve(pulls.sum_of(plain), removing.sum_of(removes)))
    return passes, max(advantage_from, 13) + max(max(pulls.single), max(removing.single))


def far_passes(counts: tuple[int, int, int], countdown: int, advantage_from: int, rng: random.Random) -> tuple[int, int]:
    """Whole passes drawn at once while the tower stays far above the threshold: (passes, the drop)."""
    runs, far = _pass_runs(counts[0], counts[1], advantage_from)
    return runs.run_under(countdown - far + 1, rng, smallest=1)


@lru_cache(maxsize=None)
def _far_from(pulls: int, advantage_from: int) -> int:
    """The lowest countdown from which `pulls` plain pulls each start far up, the last after the most
    the others drop (each then drops as from any higher, none felling it)."""
    runs = drop_runs(advantage_from)
    return max((runs.most_of(count) for count in range(pulls)), default=0) + max(advantage_from, 13) + max(runs.single)


def far_up(countdown: int, advantage_from: int, pulls: int) -> bool:
    """Whether a pass's `pulls` plain pulls leave the tower far up whatever they drop: then only the
    drop of those it makes is sampled (far_drop), once they are known, not each pull's countdown."""
    return countdown >= _far_from(pulls, advantage_from)


@lru_cache(maxsize=None)
def _far_drops(pulls: int, advantage_from: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    return Runs(drop_runs(advantage_from).sum_of(pulls)).table(1)


def far_drop(pulls: int, advantage_from: int, rng: random.Random) -> int:
    """What `pulls` plain pulls far up drop together (one float: their sum's exact distribution)."""
    cumulative, drops = _far_drops(pulls, advantage_from)
    return drops[bisect_left(cumulative, rng.random())]


def tower_falls(countdown: int, advantage_from: int, rng: random.Random) -> int:
    """How many plain pulls fell a tower standing at `countdown`: runs of pulls sampled at once while
    every countdown they pass lies so far above the threshold that each pull drops the same, then
    one pull at a time (as playout's)."""
    runs = drop_runs(advantage_from)
    far = max(advantage_from, 13) + max(runs.single)  # from here, a pull's drops are the same as from any higher
    pulls, dropped = runs.run_under(countdown - far + 1, rng)
    countdown -= dropped
    uniform = rng.random
    plain = pull_tables(advantage_from)[False]
    while countdown > 0:  # pull, inline: a tower of 10,000 leaves some eighty of these a game
        cumulative, drops = plain[countdown]
        countdown -= drops[bisect_left(cumulative, uniform())]
        pulls += 1
    return pulls


def tower_alone(pass_cards: int, pass_pulls: int, falls: int, passes: int, day: int, to_draw: int, cards: int,
                 pulls: int, rng: random.Random) -> Playout:
    """The rest of a game that only the tower can end (_plain_pulls), from a reshuffle: given the pulls
    until it falls (tower_falls; NEVER: none to come can), the pass and the place in it of that
    pull's card, or the cap's, and the days to draw them."""
    if falls > passes * pass_pulls:  # the cap comes first: the deck's ending, when one more card is due
        drawn = passes * pass_cards
        ending, falls, due = "deck", passes * pass_pulls, drawn + 1
    else:
        full, nth = divmod(falls - 1, pass_pulls)
        drawn = full * pass_cards + sorted(rng.sample(range(pass_cards), pass_pulls))[nth] + 1
        ending, due = "tower", drawn
    return _drawn(ending, drawn, due, day, to_draw, cards, pulls + falls, rng)


def token_passes(saving: tuple, pass_cards: int, tokens: int, countdown: int, advantage_from: int, passes: int,
                  pulls: int, tower: bool, rng: random.Random) -> tuple[int, int]:
    """Whole passes at once after salvation (_saving_pulls) while nothing can end the game in them:
    more tokens than their token cards and days could take, the tower far up (tower=False: fewer
    pulls than fell it) and the cap not reached. (passes, the drop); (0, 0): not so."""
    plain, removes, _, removals = saving[:4]
    runs, far = _pass_runs(plain, removes, advantage_from)
    for size in (64, 16, 4, 1):
        if tokens - size * (removals + pass_cards) > 1 and size <= passes and (
                countdown - runs.table(size)[1][-1] >= far if tower else pulls + size * (plain + removes) < countdown):
            cumulative, drops = runs.table(size)
            return size, drops[bisect_left(cumulative, rng.random())] if tower else 0
    return 0, 0


def saving_passes(pass_cards: int, pass_pulls: int, tokens: int, salvation_from: int, countdown: int,
                   advantage_from: int, final_pull: bool, passes: int, day: int, to_draw: int, cards: int,
                   pulls: int, tower: bool, rng: random.Random) -> Playout:
    """The rest of a reshuffled game after salvation has come, from a reshuffle, where only the tower,
    the salvation die and the cap can end it (_saving_pulls): the day the last token goes (each day's
    die apart from the cards: the days of failures before each success), the card of the pull that
    fells the tower (sampled first, tower_falls; tower=False: the pulls that certainly fell it) or of
    the cap, then the days' cards rolled until one of them comes first."""
    falls = tower_falls(countdown, advantage_from, rng) if tower else countdown - pulls
    failing = log(1 - (7 - salvation_from) / 6)
    saved_on = sum(int(log(1.0 - rng.random()) / failing) + 1 for _ in range(tokens)) - 1  # days after today
    places = None
    if pass_pulls and falls <= passes * pass_pulls:  # the felling pull's card, in the pass it falls in
        full, nth = divmod(falls - 1, pass_pulls)
        places = full, sorted(rng.sample(range(pass_cards), pass_pulls))
        ending, event = "tower", full * pass_cards + places[1][nth] + 1
    else:  # the cap comes first: the deck's ending, when one more card is due
        ending, event = "deck", passes * pass_cards + 1
    done, drawn = 0, to_draw  # the days after today rolled, the cards drawn by the end of the last
    if drawn < event:
        runs = day_runs()
        size = LARGEST
        while size >= 4:
            if done + size <= saved_on and drawn + 6 * size < event:
                cumulative, values = runs.table(size)
                while done + size <= saved_on and drawn + values[-1] < event:
                    drawn += values[bisect_left(cumulative, rng.random())]
                    done += size
            size //= 4
        while done < saved_on and drawn < event:
            drawn += int(rng.random() * 6) + 1
            done += 1
    if drawn >= event:
        made = falls if ending == "tower" else passes * pass_pulls
        return Playout(ending, day + done, cards + event - (ending == "deck"), pulls + made)
    full, part = divmod(drawn, pass_cards)  # saved: the pulls among the cards drawn
    if places and full == places[0]:
        made = full * pass_pulls + sum(place < part for place in places[1])
    else:
        made = full * pass_pulls + sum(place < part for place in rng.sample(range(pass_cards), pass_pulls))
    if final_pull:
        made += 1
        if tower and made == falls:
            return Playout("tower", day + done, cards + drawn, pulls + made)
    return Playout("salvation", day + done, cards + drawn, pulls + made)


def skipped_to_the_cap(pass_cards: int, passes: int, day: int, to_draw: int, cards: int, pulls: int,
                        rng: random.Random) -> Playout:
    """A reshuffled game whose skips to come are at least the pulls of every pass, with at least as
    many skip cards as pulls in a pass: no card pulls again (each pass adds as many skips as it
    spends, or more), so the reshuffle cap ends it, one card after the last pass."""
    drawn = passes * pass_cards
    return _drawn("deck", drawn, drawn + 1, day, to_draw, cards, pulls, rng)


def _drawn(ending: str, drawn: int, due: int, day: int, to_draw: int, cards: int, pulls: int,
           rng: random.Random) -> Playout:
    """The game's end after `drawn` more cards, on the day the `due`th card is drawn (today's dice
    leave `to_draw`)."""
    if due > to_draw:
        day += days_to_draw(due - to_draw, rng)[0]
    return Playout(ending, day, cards + drawn, pulls)


def skipping_passes(pass_cards: int, pass_pulls: int, pass_skips: int, skips: int, countdown: int,
                     advantage_from: int, passes: int, day: int, to_draw: int, cards: int, pulls: int,
                     tower: bool, rng: random.Random) -> Playout:
    """The rest of a reshuffled game that only the tower can end, whose passes have more pull cards
    than skip cards, from a reshuffle. After k passes from s skips carried, the passes have pulled
    (pulls - skip cards) * k + s_k - s (every skip card spends one pull, but those carried on), so
    only the skips carried (a chain: skips_left) are sampled, many passes at once while the pulls
    cannot reach the pulls that fell the tower (sampled first, tower_falls; tower=False: the pulls
    that certainly fell it), one pass at a time near it, and the pass that reaches it card by card."""
    falls = tower_falls(countdown, advantage_from, rng) if tower else countdown - pulls
    net, most = pass_pulls - pass_skips, max(skips, pass_skips)
    made, carried = 0, skips  # pulls made, skips carried (passes: those left before the cap, this one's included)
    done = 0
    size = 256
    while size > 1:  # many passes at once, while even the most they may pull falls short
        while done + size <= passes and made + net * size + most - carried < falls:
            table = skip_steps(pass_pulls, pass_skips, most, size)
            after = bisect_left(table[carried], rng.random())
            made, carried, done = made + net * size + after - carried, after, done + size
        size //= 4
    cumulative, counts = skips_left(pass_pulls, pass_skips)
    while done < passes:
        if made + max(pass_pulls - carried, 0) < falls:  # this pass cannot reach it: its skips carried, sampled
            after = max(carried - net, counts[bisect_left(cumulative, rng.random())])
            made, carried, done = made + net + after - carried, after, done + 1
            continue
        order = ["skip"] * pass_skips + ["pull"] * pass_pulls
        shuffle(order, rng.random)
        for index, card in enumerate(order):
            if card == "skip":
                carried += 1
            elif carried:
                carried -= 1
            else:
                made += 1
                if made == falls:  # the felling pull's place among the pass's cards
                    drawn = done * pass_cards + sorted(rng.sample(range(pass_cards), len(order)))[index] + 1
                    return _drawn("tower", drawn, drawn, day, to_draw, cards, pulls + made, rng)
        done += 1
    drawn = passes * pass_cards  # the cap comes first: the deck's ending, when one more card is due
    return _drawn("deck", drawn, drawn + 1, day, to_draw, cards, pulls + made, rng)
