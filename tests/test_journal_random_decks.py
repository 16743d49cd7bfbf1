"""The journal's playout on decks drawn at random over every action and setting (#30): its shortcuts
(passes at once, a tower far up, skips' chains) agree with the same playout card by card, and the
card by card playout with whole games through the engine. tests/perf/journal_judge.py runs the same
on hundreds of decks with more games (200 decks: all agree, docs/performance.md)."""
from __future__ import annotations

import random

import pytest

from dicehall.engine.games import journal
from tests.perf.journal_judge import _poisson_tail, differences, engine_games, playouts, valid_options

DECKS = random.Random(30)
OPTIONS = [valid_options(DECKS, long=number % 3 != 0) for number in range(12)]  # two in three long games


@pytest.mark.parametrize("number", range(len(OPTIONS)))
def test_a_random_decks_shortcuts_agree_with_playing_every_card(number):
    options = OPTIONS[number]
    fast = playouts(options, 3000, number)
    walked = playouts(options, 3000, 100 + number, shortcuts=False)
    assert differences(fast, walked) == []


@pytest.mark.parametrize("number", range(3))
def test_a_random_decks_playouts_agree_with_the_engine(number):
    options = OPTIONS[number]
    assert differences(playouts(options, 3000, number, shortcuts=False), engine_games(options, 60, 1)) == []


def test_the_judge_sees_a_difference_and_not_a_fluke():
    """The judge itself: the sample deck under a tower of 40 and of 80 differ; one rare ending in a
    few hundred games where thousands show it about once in ten thousand is chance."""
    low, high = (journal.check_options({"deck": {**journal.sample_deck().record(), "tower_start": tower}}) for tower in (40, 80))
    assert differences(playouts(low, 3000, 1), playouts(low, 3000, 2)) == []
    assert any(found.startswith("tower") for found in differences(playouts(low, 3000, 1), playouts(high, 3000, 2)))
    assert _poisson_tail(1, 300 / 10_000) > 0.01 and _poisson_tail(0, 12.0) < 1e-5
