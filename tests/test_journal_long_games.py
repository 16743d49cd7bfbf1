"""The journal's sim on the decks at the edges of the settings (issue #30: `sim journal` of 10,000
games of any valid deck within about a second): a tower of 10,000, and a reshuffled deck that only
the tower can end (thousands of pulls a game). The shortcuts that make them fast play the same
rules: a pull's shared table is the countdown's own enumeration through the Dice Tower's rules,
the pulls until the tower falls average the Dice Tower's exact figure, and the rest of a game
played at once agrees with the same game played card by card and with games through the engine."""
from __future__ import annotations

import itertools
import math
import random
import statistics
from bisect import bisect_left

import pytest

from dicehall import engine
from dicehall.engine.errors import RulingError
from dicehall.engine.games import dicetower, journal
from dicehall.engine.games.dicetower import TowerState
from dicehall.engine.games.journal import odds, passes, returns
from dicehall.engine.games.journal import pulls as pull_tables
from dicehall.engine.games.journal import runs
from dicehall.engine.games.journal.runs import days_to_draw, dice_covering, salvation_dice, successes
from dicehall.engine.games.journal.skips import skip_steps, skips_left
from dicehall.sims.journal import sim_journal
from tests.perf.journal_judge import SHORTCUTS

FULL_CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")]


def deck(tower_start: int, actions: dict[str, str], **settings) -> dict:
    """Game options for a listed deck of these cards and actions (no King unless named)."""
    record = {"title": "Edge", "author": "", "licence": "", "intro": "", "deck": "listed", "tower_start": tower_start,
              "cards": [[card, action, ""] for card, action in actions.items()], **settings}
    return journal.check_options({"deck": record})


def full_deck(tower_start: int, **settings) -> dict:
    record = journal.sample_deck().record()
    record.update(tower_start=tower_start, **settings)
    return journal.check_options({"deck": record})


EVERY_CARD_PULLS = {"3S": "pull"}
ONE_PULL_A_PASS = {card: "pull" if card == "3S" else "no-pull" for card in FULL_CARDS if card != "AH"}
PULLS_AND_REMOVES = {card: "remove" if card[0] in "35" else "pull" if card[0] == "7" else "no-pull"
                     for card in FULL_CARDS if card != "AH"}
SKIPS_A_PASS = {card: "skip-pull" if card[0] == "9" else "pull" if card[0] in "357" else "no-pull"
                for card in FULL_CARDS if card != "AH"}  # 12 pulls, 4 skips
NEARLY_ALL_SKIPPED = {card: "skip-pull" if card[0] == "9" or card in ("3S", "5S", "7S") else action
                      for card, action in SKIPS_A_PASS.items()}  # 9 pulls, 7 skips: 2 pulls a pass
AS_MANY_SKIPS = {"3S": "pull", "5S": "pull", "9S": "skip-pull", "9H": "skip-pull", "2S": "no-pull"}
ODD_PULLS_SAVED = {card: "pull" if card[0] in "3579" else "salvation" if card == "AH" else "no-pull" for card in FULL_CARDS}
FEW_PULLS_SAVED = {"AH": "salvation", "3S": "pull", "AD": "salvation-4", "2S": "return-king",
                   **{rank + "C": "no-pull" for rank in "2345678"}}  # the tower or the tokens, and the final pull
TOKENS_ADDED = {"AH": "salvation", "AD": "salvation-4", "3S": "pull", "5S": "remove", "2S": "add-token",
                "4S": "add-token", "6S": "add-token", "8S": "add-token", "10S": "remove-token", "QS": "no-pull"}
SKIPS_SAVED = {"AH": "salvation", "3S": "pull", "9S": "skip-pull", "9H": "skip-pull", "2S": "add-token", "4S": "no-pull"}
TOKENS_LEVEL = {**TOKENS_ADDED, "6S": "remove-token", "8S": "no-pull"}  # a token about as often taken as added
FOUR_PULLS_A_PASS = {card: "pull" if card[0] == "3" else "no-pull" for card in FULL_CARDS if card != "AH"}
# two Kings of the four that end the game, returned by nine cards: passes of varying length; few tokens added
KINGS_RETURNED = {"AH": "salvation", "2H": "add-token", "3H": "add-token", **{rank + "C": "return-king" for rank in "A23456789"},
                  **{rank + "D": "no-pull" for rank in "A2345678"}, "KS": "king", "KH": "king"}


def test_a_pull_table_shared_by_far_countdowns_is_each_countdowns_own_enumeration():
    """Far from 0 and from the advantage threshold the dice subtract alike, so one table serves:
    moved to each countdown it is exactly that countdown's own table (its rolls through dicetower.evolve)."""
    for countdown in (291, 300, 777, 5000, 10_000):
        for remove in (False, True):
            shared = pull_tables.drop_table(pull_tables.own_countdown(countdown, 51), 51, remove)
            own = pull_tables.after_pull(countdown, 51, remove, pull_tables.DEPTH)
            assert [(countdown - drop, chance) for drop, chance in shared] == list(own)
    # each countdown's 36 rolls as the tables take them (_rolls: rolled once a side of the threshold above
    # 12, moved) are its own through dicetower.evolve
    for advantage_from in (1, 13, 51, 300):
        for countdown in {*range(1, 30), *range(max(advantage_from - 3, 1), advantage_from + 3), 299, 10_000}:
            for remove in (False, True):
                tower = TowerState(countdown=countdown, start=countdown, advantage_from=advantage_from, pulling=True,
                                   removing=remove)
                rolls = [dicetower.evolve(tower, dicetower.DiceRolled((a, b))) for a in range(1, 7) for b in range(1, 7)]
                assert [(after.countdown, after.pulling) for after in rolls] == pull_tables._rolls(
                    countdown, advantage_from, remove), (countdown, advantage_from, remove)
    # and sampled with the same floats, the shared table picks what the whole enumeration picks
    countdown = 400
    whole = pull_tables.after_pull(countdown, 51, False)
    cumulative, total = [], 0.0
    for _, chance in whole:
        total += chance
        cumulative.append(total)
    shared, drops = pull_tables.pull_outcomes(countdown, 51, False)
    rng = random.Random(2)
    for u in [rng.random() for _ in range(5000)]:
        assert whole[bisect_left(cumulative, u)][0] == countdown - drops[bisect_left(shared, u)]


def test_the_pulls_until_a_tower_of_10000_falls_average_the_dice_towers_exact_figure():
    expected = float(dicetower.pulls_to_come(TowerState(countdown=10_000, start=10_000, advantage_from=51), exact=False))
    rng = random.Random(1)
    falls = [passes.tower_falls(10_000, 51, rng) for _ in range(3000)]
    error = statistics.stdev(falls) / len(falls) ** 0.5
    assert abs(statistics.mean(falls) - expected) < 4 * error, (statistics.mean(falls), expected)
    small = [passes.tower_falls(60, 51, rng) for _ in range(3000)]  # below the runs: one pull at a time
    expected = float(dicetower.pulls_to_come(TowerState(countdown=60, start=60, advantage_from=51), exact=False))
    assert abs(statistics.mean(small) - expected) < 4 * statistics.stdev(small) / 3000 ** 0.5


def days_rolled(cards: int, rng: random.Random) -> int:
    """The days to draw `cards`, a die rolled each day: the dice rolled one by one (drawn 512 at a time
    by random.choices, a fifth of randint's cost), the day the running total reaches the cards."""
    days = drawn = 0
    while True:
        totals = list(itertools.accumulate(rng.choices(range(1, 7), k=512), initial=drawn))
        if totals[-1] >= cards:
            return days + bisect_left(totals, cards)
        days, drawn = days + 512, totals[-1]


def test_the_days_to_draw_many_cards_are_the_day_dice_rolled_one_by_one():
    rng = random.Random(3)
    fast = [days_to_draw(5000, rng)[0] for _ in range(2000)]
    slow = [days_rolled(5000, rng) for _ in range(2000)]
    spread = 4 * (statistics.variance(fast) / 2000 + statistics.variance(slow) / 2000) ** 0.5
    assert abs(statistics.mean(fast) - statistics.mean(slow)) < spread
    assert abs(statistics.stdev(fast) - statistics.stdev(slow)) < 0.15 * statistics.stdev(slow)


def playouts(options: dict, games: int, seed: int) -> list[odds.Playout]:
    state = journal.initial_state(options, ())
    rng = random.Random(seed)
    return [odds.playout(state, rng) for _ in range(games)]


def assert_alike(fast: list[odds.Playout], slow: list[odds.Playout], pass_cards: int) -> None:
    """The same endings, and days, cards, pulls and the last card's place in its pass whose means
    agree within noise (4 standard errors)."""
    assert {play.ending for play in fast} == {play.ending for play in slow}
    for measure in ("days", "cards", "pulls", "place"):
        a = [play.cards % pass_cards if measure == "place" else getattr(play, measure) for play in fast]
        b = [play.cards % pass_cards if measure == "place" else getattr(play, measure) for play in slow]
        spread = 4 * (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5 + 1e-9
        assert abs(statistics.mean(a) - statistics.mean(b)) < spread, (measure, statistics.mean(a), statistics.mean(b))


def card_by_card(monkeypatch) -> None:
    """The playout as before its shortcuts: no game is ever one only the tower can end."""
    for name in SHORTCUTS:
        monkeypatch.setattr(odds, name, lambda *_: None)
    monkeypatch.setattr(odds, "_ACTIONS", {})  # each deck's passes worked out again, without them


@pytest.mark.parametrize("actions,tower_start,games", [(EVERY_CARD_PULLS, 1000, 400), (ONE_PULL_A_PASS, 150, 300),
                                                       (FOUR_PULLS_A_PASS, 200, 800), (PULLS_AND_REMOVES, 2000, 300),
                                                       (SKIPS_A_PASS, 300, 400), (NEARLY_ALL_SKIPPED, 100, 400)])
def test_a_game_only_the_tower_can_end_played_at_once_agrees_with_playing_every_card(monkeypatch, actions, tower_start, games):
    options = deck(tower_start, actions, deck_out="reshuffle")
    fast = playouts(options, games, 5)
    assert {play.ending for play in fast} == {"tower"}
    card_by_card(monkeypatch)
    assert_alike(fast, playouts(options, games, 6), len(actions))


def test_the_reshuffle_cap_ends_a_game_played_at_once_where_it_ends_one_played_card_by_card(monkeypatch):
    monkeypatch.setattr(odds, "MAX_RESHUFFLES", 20)  # far fewer passes than the pulls a tower of 150 takes
    options = deck(150, ONE_PULL_A_PASS, deck_out="reshuffle")
    fast = playouts(options, 200, 7)
    assert {(play.ending, play.cards, play.pulls) for play in fast} == {("deck", 21 * 47, 21)}
    card_by_card(monkeypatch)
    assert_alike(fast, playouts(options, 200, 8), len(ONE_PULL_A_PASS))


@pytest.mark.parametrize("actions,tower_start,settings,games,cap", [
    (FEW_PULLS_SAVED, 62, {"tokens": 20, "final_check": "pull"}, 2000, None),
    (ODD_PULLS_SAVED, 1200, {"tokens": 20}, 400, None),
    (ODD_PULLS_SAVED, 1200, {"tokens": 20, "final_check": "pull"}, 400, 6),
    (TOKENS_ADDED, 600, {"tokens": 20}, 300, None), (TOKENS_ADDED, 2000, {"tokens": 20}, 300, 40),
    (TOKENS_LEVEL, 400, {"tokens": 20, "final_check": "pull"}, 1000, None),
    (SKIPS_SAVED, 4, {"tokens": 20}, 1000, 100),
    ({**SKIPS_SAVED, "2S": "no-pull"}, 4, {"tokens": 3, "final_check": "pull"}, 1000, 20),
    (KINGS_RETURNED, 10000, {"tokens": 3}, 2000, 100), (KINGS_RETURNED, 5, {"tokens": 2, "final_check": "pull"}, 2000, 8)])
def test_a_game_after_salvation_played_at_once_agrees_with_playing_every_card(monkeypatch, actions, tower_start,
                                                                              settings, games, cap):
    """Salvation out and the deck reshuffled: the tower, the salvation die (and the final pull) or the cap.
    (The Kings' tower of 10,000 is capped at 100 passes: card by card, its uncapped games took minutes.)"""
    if cap:
        monkeypatch.setattr(odds, "MAX_RESHUFFLES", cap)
    options = deck(tower_start, actions, deck_out="reshuffle", **settings)
    fast = playouts(options, games, 5)
    card_by_card(monkeypatch)
    assert_alike(fast, playouts(options, games, 6), len(actions))


def of_47(*kinds: tuple[str, int], **extra: str) -> dict[str, str]:
    """The 47 cards but the Ace of Hearts and the Kings, the first so many of each action, the rest of
    no effect; then `extra` (the Ace, Kings)."""
    actions = [action for action, count in kinds for _ in range(count)]
    cards = [card for card in FULL_CARDS if card != "AH"]
    return {**{card: actions[index] if index < len(actions) else "no-pull" for index, card in enumerate(cards)}, **extra}


# after salvation, skips outnumbering the pulls and tokens added: the cap ends it (the bench's slowest row at #30)
SKIPS_AND_TOKENS = of_47(("pull", 3), ("skip-pull", 8), ("add-token", 18), AH="salvation")
# tokens taken by cards and added, pulls and removes, skips: the tower, the last token, the final pull or the cap
TOKENS_TAKEN = of_47(("pull", 5), ("remove", 2), ("skip-pull", 3), ("add-token", 6), ("remove-token", 6),
                     ("salvation-5", 1), AH="salvation")
# the bench's tokens row: a token taken as often as added (its passes walked only where their token cards
# reach the dice's reach: #30, the reflection principle)
TOKENS_LEVEL_47 = of_47(("pull", 1), ("add-token", 22), ("remove-token", 22), AH="salvation")
# no salvation, three Kings of the four that end it returned by ten cards: passes of varying length
FEW_KINGS_SKIPS = {**of_47(("pull", 5), ("remove", 2), ("skip-pull", 3), ("return-king", 10)),
                   "KS": "king", "KH": "king", "KD": "king"}
# three Kings that pull, of the four that end it, returned by twenty cards: each drawn again pulls (#30: at once)
KINGS_PULL_AGAIN = {**of_47(("pull", 5), ("return-king", 20), ("add-token", 3), ("remove-token", 3)),
                    "AH": "salvation", "KS": "pull", "KH": "pull", "KD": "pull"}


def assert_the_same_endings(fast: list[odds.Playout], slow: list[odds.Playout]) -> None:
    """Each ending's share alike within noise (4 standard errors)."""
    for ending in odds.ENDINGS:
        a = sum(play.ending == ending for play in fast) / len(fast)
        b = sum(play.ending == ending for play in slow) / len(slow)
        share = (a + b) / 2
        assert abs(a - b) <= 4 * (share * (1 - share) * (1 / len(fast) + 1 / len(slow))) ** 0.5, (ending, a, b)


@pytest.mark.parametrize("actions,tower_start,settings,tower", [
    (SKIPS_AND_TOKENS, 10_000, {"tokens": 10}, True), (SKIPS_AND_TOKENS, 300, {"tokens": 2}, True),
    (TOKENS_TAKEN, 40, {"tokens": 6, "final_check": "pull"}, True), (TOKENS_TAKEN, 12, {"tokens": 10}, False),
    (FEW_KINGS_SKIPS, 90, {}, True), (FEW_KINGS_SKIPS, 17, {}, False),
    ({**FEW_KINGS_SKIPS, "KS": "pull"}, 17, {}, False),  # a King returned pulls again, skips: card by card
    (KINGS_PULL_AGAIN, 100, {"tokens": 8}, True),
    (TOKENS_LEVEL_47, 300, {"tokens": 20}, True), (TOKENS_LEVEL_47, 300, {"tokens": 7}, False),
    ({**KINGS_PULL_AGAIN, "QS": "remove"}, 10_000, {"tokens": 6}, True)])  # removes too: counted, a tower that stands
def test_a_whole_pass_played_at_once_agrees_with_playing_every_card(monkeypatch, actions, tower_start, settings, tower):
    """A reshuffled pass of pulls, removes, skips, token cards and Kings returned to a deck of too few
    at once (returns.py), the tower rolled or the pulls counted (tower=False: the side panel's): the
    same endings, days, cards and pulls as card by card, in a deck's three reshuffles."""
    state = journal.initial_state(deck(tower_start, actions, deck_out="reshuffle", reshuffles=3, **settings), ())
    rng = random.Random(5)
    fast = [odds.playout(state, rng, tower) for _ in range(3000)]
    card_by_card(monkeypatch)
    slow = [odds.playout(state, rng, tower) for _ in range(3000)]
    assert_the_same_endings(fast, slow)
    assert_alike(fast, slow, len(actions))


# a first pass of everything returns.py plays at once: the Ace, token cards before and after it, Kings that pull returned
FIRST_PASS = {**of_47(("pull", 4), ("return-king", 12), ("add-token", 4), ("remove-token", 6)),
              "AH": "salvation", "KS": "pull", "KH": "pull", "KD": "pull"}


@pytest.mark.parametrize("actions,tower_start,tokens", [
    (FIRST_PASS, 25, 2), (FIRST_PASS, 10_000, 3), ({**of_47(("pull", 1)), "AH": "salvation"}, 10_000, 2)])
def test_a_games_first_pass_played_at_once_agrees_with_playing_every_card(monkeypatch, actions, tower_start, tokens):
    """A deck of too few Kings to end the game, its first pass at once (#30: the Ace walked to, its
    day's die the first, then the rest at once while the tokens cannot run out): the same endings,
    days, cards and pulls as card by card, the tower, the tokens and the deck's end each likely."""
    state = journal.initial_state(deck(tower_start, actions, tokens=tokens), ())
    rng = random.Random(3)
    fast = [odds.playout(state, rng) for _ in range(4000)]
    card_by_card(monkeypatch)
    slow = [odds.playout(state, rng) for _ in range(4000)]
    assert_the_same_endings(fast, slow)
    assert_alike(fast, slow, len(actions))


def test_a_token_card_before_salvation_does_nothing_in_a_pass_at_once():
    """A deck without the Ace of Hearts never ends in salvation: its pass at once walked near the
    felling pull (a King returned keeps it from the tower-only shortcut) once took a token added
    then taken for the last one (#30: 16% of these games)."""
    cards = {"3S": "pull", "2S": "add-token", "4S": "remove-token", "5S": "no-pull", "6S": "return-king", "KS": "king"}
    state = journal.initial_state(deck(30, cards, deck_out="reshuffle"), ())
    rng = random.Random(1)
    assert {odds.playout(state, rng).ending for _ in range(3000)} == {"tower"}


def test_the_salvation_dice_taken_in_runs_are_the_dice_rolled_one_by_one():
    rng = random.Random(4)
    for trials, chance in ((1, 1 / 6), (1000, 1 / 3), (3333, 1 / 2)):
        fast = [successes(trials, chance, rng) for _ in range(3000)]
        mean, variance = trials * chance, trials * chance * (1 - chance)
        assert abs(statistics.mean(fast) - mean) < 4 * (variance / 3000) ** 0.5
        assert abs(statistics.variance(fast) - variance) < 0.1 * variance


def test_a_pass_days_dice_from_bytes_are_the_dice_rolled_one_by_one():
    """A whole pass's day dice and salvation dice (returns.whole_pass, #30) come from random bytes: each
    face from exactly 42 byte values (the other four drawn again), each die until the cards are covered,
    and as many days and successes, on average and in spread, as dice rolled one by one."""
    assert sorted(runs._FACES) == [0] * 4 + [face for face in range(1, 7) for _ in range(42)]
    for lowest in range(1, 8):
        assert sorted(runs._WINS[lowest]) == [0] * 42 * (lowest - 1) + [1] * 42 * (7 - lowest) + [2] * 4
    rng, slow_rng = random.Random(6), random.Random(7)
    for cards in (1, 5, 52, 90):
        fast, slow = [], []
        for _ in range(3000):
            faces, drawn = dice_covering(cards, rng)
            assert all(1 <= face <= 6 for face in faces) and drawn == sum(faces) >= cards > drawn - faces[-1]
            fast.append(len(faces))
            days = rolled = 0
            while rolled < cards:
                rolled += slow_rng.randint(1, 6)
                days += 1
            slow.append(days)
        spread = 4 * (statistics.variance(fast) / 3000 + statistics.variance(slow) / 3000) ** 0.5 + 1e-9
        assert abs(statistics.mean(fast) - statistics.mean(slow)) < spread, cards
    for days, lowest in ((1, 6), (17, 6), (40, 4)):
        wins = [salvation_dice(days, lowest, rng) for _ in range(3000)]
        assert {len(won) for won in wins} == {days} and set(b"".join(wins)) <= {0, 1}
        chance = (7 - lowest) / 6
        counts = [won.count(1) for won in wins]
        assert abs(statistics.mean(counts) - days * chance) < 4 * (days * chance * (1 - chance) / 3000) ** 0.5
        at_first = [won[0] for won in wins]  # the first day's die as likely as any: no place favoured
        assert abs(statistics.mean(at_first) - chance) < 4 * (chance * (1 - chance) / 3000) ** 0.5
    for count in (2, 16, 6000):  # the card loop's dice rolled ahead (odds.playout's days): each face a sixth
        faces = b"".join(runs.dice(count, rng) for _ in range(36000 // count))
        assert len(faces) >= 36000 and set(faces) <= set(range(1, 7))
        assert all(abs(faces.count(face) / len(faces) - 1 / 6) < 4 * (5 / 36 / len(faces)) ** 0.5 for face in range(1, 7))


def test_a_pass_pulls_far_up_drop_together_as_rolled_one_by_one():
    """A pass at once whose plain pulls leave the tower far up whatever they drop (#30: its pulls not
    rolled one by one, only the drop of those it makes sampled after): that drop agrees with the pulls
    rolled through their countdowns' tables, and a tower near the threshold or 0 is never far up."""
    for advantage_from in (6, 51):
        assert passes.far_up(10_000, advantage_from, 3) and not passes.far_up(120, advantage_from, 3)
        assert not passes.far_up(passes._far_from(4, advantage_from) - 1, advantage_from, 4)
        rng = random.Random(advantage_from)
        for count in (1, 3, 5):
            fast = [passes.far_drop(count, advantage_from, rng) for _ in range(3000)]
            slow = [10_000 - pull_tables.rolled(10_000, advantage_from, count, 0, rng)[-1] for _ in range(3000)]
            spread = 4 * (statistics.variance(fast) / 3000 + statistics.variance(slow) / 3000) ** 0.5
            assert abs(statistics.mean(fast) - statistics.mean(slow)) < spread, (advantage_from, count)
            assert abs(statistics.stdev(fast) - statistics.stdev(slow)) < 0.1 * statistics.stdev(slow)


def rising_to_chances(cumulative) -> dict[int, float]:
    return {count: high - low for count, (high, low) in enumerate(zip(cumulative, (0.0,) + tuple(cumulative)))}


def test_the_skips_a_pass_leaves_are_every_order_of_its_cards_counted():
    """The skips carried out of a pass: exactly each order's count (all orders alike), from none
    carried in (skips_left) and from each count carried in (the chain), and many passes at once
    are the one-pass chain repeated."""
    for pulls, skip_cards in ((4, 3), (5, 1), (3, 3), (2, 5), (6, 2)):
        orders = set(itertools.permutations("p" * pulls + "s" * skip_cards))
        most = skip_cards + 2
        one = skip_steps(pulls, skip_cards, most, 1) if pulls > skip_cards else None  # (the chain serves those)
        for start in range(most + 1 if one else 1):
            left: dict[int, float] = {}
            for order in orders:
                carried = start
                for card in order:
                    carried = carried + 1 if card == "s" else max(carried - 1, 0)
                left[carried] = left.get(carried, 0.0) + 1 / len(orders)
            cumulative, counts = skips_left(pulls, skip_cards)
            chances = rising_to_chances(one[start]) if one else dict(zip(counts, rising_to_chances(cumulative).values()))
            assert all(abs(chances.get(count, 0.0) - chance) < 1e-12 for count, chance in left.items()), (pulls, start)
            assert abs(sum(chances.get(count, 0.0) for count in left) - 1.0) < 1e-12
        if one:
            many = skip_steps(pulls, skip_cards, most, 4)
            for start in range(most + 1):
                spread = {start: 1.0}
                for _ in range(4):
                    after: dict[int, float] = {}
                    for count, weight in spread.items():
                        for end, chance in rising_to_chances(one[count]).items():
                            after[end] = after.get(end, 0.0) + weight * chance
                    spread = after
                assert all(abs(chance - spread.get(end, 0.0)) < 1e-12 for end, chance in rising_to_chances(many[start]).items())


@pytest.mark.parametrize("actions,cap", [(SKIPS_A_PASS, 8), (AS_MANY_SKIPS, 40)])
def test_the_reshuffle_cap_ends_a_game_of_skips_where_it_ends_one_played_card_by_card(monkeypatch, actions, cap):
    """Passes the cap cuts short, and skips as many as the pulls: once they carry a pass's pulls no card pulls again."""
    monkeypatch.setattr(odds, "MAX_RESHUFFLES", cap)
    options = deck(300, actions, deck_out="reshuffle")
    fast = playouts(options, 400, 7)
    assert "deck" in {play.ending for play in fast}
    card_by_card(monkeypatch)
    assert_alike(fast, playouts(options, 400, 8), len(actions))


def engine_games(options: dict, games: int) -> list[tuple[str, int]]:
    """Whole games through the engine's session (its first legal command each time): ending and day."""
    results = []
    for seed in range(games):
        session = engine.new_session("journal", seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])
        results.append((session.state.ending, session.state.day))
    return results


def assert_the_engine_agrees(options: dict, games: int) -> None:
    played = engine_games(options, games)
    sampled = playouts(options, 4000, 9)
    assert {ending for ending, _ in played} == {play.ending for play in sampled}
    days = [day for _, day in played]
    sampled_days = [play.days for play in sampled]
    spread = 4 * (statistics.variance(days) / games + statistics.variance(sampled_days) / 4000) ** 0.5
    assert abs(statistics.mean(days) - statistics.mean(sampled_days)) < spread, (statistics.mean(days), statistics.mean(sampled_days))


@pytest.mark.parametrize("deck_out", ["end", "reshuffle"])
def test_a_tower_of_10000_plays_as_in_the_engine(deck_out):
    assert_the_engine_agrees(full_deck(10_000, deck_out=deck_out), 80)


def test_a_reshuffled_deck_of_pulls_only_plays_as_in_the_engine():
    assert_the_engine_agrees(deck(300, EVERY_CARD_PULLS, deck_out="reshuffle"), 40)


def test_a_reshuffled_deck_saved_or_felled_plays_as_in_the_engine():
    assert_the_engine_agrees(deck(62, FEW_PULLS_SAVED, deck_out="reshuffle", tokens=20, final_check="pull"), 40)


def test_a_reshuffled_deck_of_pulls_and_skips_plays_as_in_the_engine():
    assert_the_engine_agrees(deck(100, NEARLY_ALL_SKIPPED, deck_out="reshuffle"), 30)


def test_the_sim_and_the_side_panel_on_the_edge_decks(tmp_path):
    tall = full_deck(10_000, deck_out="reshuffle")
    assert odds.tower_odds(journal.initial_state(tall, ())) < 1e-9  # the Kings come long before
    pulls = deck(10_000, EVERY_CARD_PULLS, deck_out="reshuffle")
    assert odds.tower_odds(journal.initial_state(pulls, ())) == 1.0  # nothing else can end it
    skips = deck(10_000, {"3S": "pull", "5S": "pull", "2S": "skip-pull"}, deck_out="reshuffle")
    assert odds.tower_odds(journal.initial_state(skips, ())) == 1.0  # the skips leave a pull a pass at least
    tokens = deck(10_000, {"AH": "salvation", "3S": "pull", "2S": "no-pull"}, deck_out="reshuffle", tokens=20)
    assert odds.tower_odds(journal.initial_state(tokens, ())) == 0.0  # twenty tokens go long before
    path = tmp_path / "pulls.toml"
    path.write_text('[game]\ntitle = "Pulls"\ndeck = "listed"\ntower_start = 10000\ndeck_out = "reshuffle"\n\n'
                    '[[card]]\ncard = "3S"\naction = "pull"\n')
    report = sim_journal(2000, 1, str(path))  # a deck file reshuffles 3 times at most (#30): 4 pulls, the deck's end
    assert report["endings"]["deck"] == 1.0 and report["mean_pulls"] == 4.0
    played = playouts(pulls, 2000, 1)  # a game saved before the bound (no bound in its record): the tower's
    expected = float(dicetower.pulls_to_come(TowerState(countdown=10_000, start=10_000, advantage_from=51), exact=False))
    mean_pulls = statistics.mean(play.pulls for play in played)
    assert {play.ending for play in played} == {"tower"} and abs(mean_pulls - expected) < 4 * 40 / 2000 ** 0.5
    assert abs(statistics.mean(play.days for play in played) - expected / 3.5) < 10  # three and a half cards a day


def test_a_reshuffled_deck_without_the_kings_that_end_it_is_over_when_nothing_else_can_end_it():
    """Kings returned to a deck of fewer Kings than end the game can never end it: with nothing else
    that could (no pull, no salvation) the game is the deck's at its first reshuffle, not the cap's."""
    with pytest.raises(RulingError, match="no card ends"):  # refused when a game starts (rulings.endless)
        deck(100, {"2S": "return-king", "3S": "return-king", "KS": "king"}, deck_out="reshuffle", kings=2)
    record = {"title": "Edge", "author": "", "licence": "", "intro": "", "deck": "listed", "tower_start": 100,
              "cards": [["2S", "return-king", ""], ["3S", "return-king", ""], ["KS", "king", ""]],
              "deck_out": "reshuffle", "kings": 2}
    options = {"deck": journal.deck_from_record(record).record()}  # as a forged save's: the sim still ends it
    assert {(play.ending, play.cards <= 5) for play in playouts(options, 200, 3)} == {("deck", True)}
    assert odds.tower_odds(journal.initial_state(options, ())) == 0.0
    # with the Kings that end it, returning one keeps the game going until they do
    options = deck(100, {"2S": "return-king", "3S": "no-pull", "KS": "king", "KH": "king"}, deck_out="reshuffle", kings=2)
    assert {play.ending for play in playouts(options, 200, 3)} == {"kings"}


def token_pass(kinds) -> returns.PassCards:
    """A reshuffled pass of these cards and five of no effect."""
    cards = returns.pass_cards([action for action, count in kinds for _ in range(count)] + ["no-pull"] * 5, [])
    assert cards is not None
    return cards


def assert_the_same_counts(fast: list, slow: list) -> None:
    """Two samples of one distribution over values: each value as often in both (chi-square, the values seen
    20 times or more; the threshold far in its tail: these seeds are fixed, the margin is for a change's)."""
    counts = {value: [fast.count(value), slow.count(value)] for value in set(fast) | set(slow)}
    kept = [pair for pair in counts.values() if sum(pair) >= 20]
    chi = sum((a - b) ** 2 / (a + b) for a, b in kept)  # (equal sample sizes)
    assert chi <= len(kept) + 5 * (2 * len(kept)) ** 0.5, (chi, len(kept))


@pytest.mark.parametrize("kinds", [(("pull", 1), ("add-token", 22), ("remove-token", 22)),
                                   (("pull", 3), ("remove", 2), ("skip-pull", 2), ("add-token", 6), ("remove-token", 8)),
                                   (("pull", 1), ("add-token", 3), ("remove-token", 12))])
def test_a_pass_only_the_tokens_can_end_plays_as_the_whole_walk_does(monkeypatch, kinds):
    """A pass only its tokens can end (no King or return-king card, no Ace to come, no fall within
    reach) is walked only where its token cards take the tokens as low as its up salvation dice could
    take the rest (#30: the chance of that exact, by the reflection principle, and the walk then
    drawing the token cards so conditioned), else played at once: the same endings, cards, days,
    tokens, pulls and skips, each alike, as the whole walk of every such pass."""
    cards = token_pass(kinds)

    def passes(seed: int) -> list[returns.Played]:
        rng = random.Random(seed)
        return [returns.whole_pass(cards, 0, tokens, 4, to_draw, skips, 300, rng)
                for tokens in (1, 3, 8, 14) for to_draw in (1, 6) for skips in (0, 2) for _ in range(600)]

    fast = passes(9)
    assert {played[0] for played in fast} == {"salvation", ""}
    monkeypatch.setattr(returns, "only_tokens_end", lambda *_: False)
    slow = passes(10)
    for field in range(7):
        assert_the_same_counts([played[field] for played in fast], [played[field] for played in slow])


def last_token_in_every_order(adds: int, removals: int, tokens: int, size: int) -> dict[int, int]:
    """Over every order of a pass of `size` cards, `adds` of them adding a token and `removals` taking
    one: how many orders the last token goes with each card (its place from 1; 0: it never goes)."""
    counts: dict[int, int] = {}
    for added in itertools.combinations(range(size), adds):
        rest = [place for place in range(size) if place not in added]
        for removed in itertools.combinations(rest, removals):
            left, out = tokens, 0
            for place in range(size):
                left += (place in added) - (place in removed)
                if left == 0:
                    out = place + 1
                    break
            counts[out] = counts.get(out, 0) + 1
    return counts


def last_token_counts(adds: int, removals: int, tokens: int, size: int) -> dict[int, int]:
    """The same counts, card by card: the orders of the cards so far with the tokens never out, by the
    token cards they hold; where the last token goes, the rest of the pass in any of its orders."""
    counts: dict[int, int] = {}
    ways = {(0, 0): 1}  # (added, taken) so far -> orders
    for place in range(size):
        after: dict[tuple[int, int], int] = {}
        for (added, taken), orders in ways.items():
            for more, fewer in ((1, 0), (0, 1), (0, 0)):
                a, t = added + more, taken + fewer
                if a > adds or t > removals or place + 1 - a - t > size - adds - removals:
                    continue
                if tokens + a - t == 0:
                    rest = size - place - 1
                    gone = orders * math.comb(rest, adds - a) * math.comb(rest - adds + a, removals - t)
                    counts[place + 1] = counts.get(place + 1, 0) + gone
                else:
                    after[(a, t)] = after.get((a, t), 0) + orders
        ways = after
    if ways:
        counts[0] = sum(ways.values())
    return counts


def test_the_token_cards_reach_a_depth_as_every_order_of_them_does():
    """_reaching (the reflection principle) against every order of the token cards counted, and a pass of
    token cards and cards of no effect (no salvation die up: 7 or more) walked where they reach the
    tokens' depth, at once where not: where the last token goes, each card as often as in every order."""
    for adds, removals in ((4, 6), (6, 4), (3, 3), (0, 5), (7, 1)):
        orders = [set(taken) for taken in itertools.combinations(range(adds + removals), removals)]
        for depth in range(max(0, removals - adds) + 1, removals + 1):
            def reaches(removed: set) -> bool:
                low = 0
                for place in range(adds + removals):
                    low += 1 if place in removed else -1
                    if low >= depth:
                        return True
                return False
            assert returns._reaching(adds, removals, depth) == pytest.approx(sum(map(reaches, orders)) / len(orders))
    # the recurrence counts exactly what listing every order counts (here on the smallest pass: listing
    # the larger ones' 630,630 orders each took 4 s of the suite's CPU)
    assert last_token_counts(2, 6, 5, 13) == last_token_in_every_order(2, 6, 5, 13)
    for adds, removals, tokens in ((4, 6, 3), (4, 6, 1), (6, 4, 2), (2, 6, 5)):
        cards = token_pass((("add-token", adds), ("remove-token", removals)))
        exact = last_token_counts(adds, removals, tokens, adds + removals + 5)
        orders = sum(exact.values())
        rng = random.Random(adds * 100 + removals * 10 + tokens)
        games = 20_000
        sampled = [played[1] if played[0] else 0 for played in
                   (returns.whole_pass(cards, 0, tokens, 7, 3, 0, 300, rng) for _ in range(games))]
        kept = [(sampled.count(out), count * games / orders) for out, count in exact.items() if count * games / orders >= 10]
        chi = sum((seen - expected) ** 2 / expected for seen, expected in kept)
        assert set(sampled) <= set(exact) and chi <= len(kept) + 5 * (2 * len(kept)) ** 0.5, (adds, removals, tokens, chi)
