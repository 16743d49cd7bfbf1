"""The Towers bot: legal, repeatable, exact at the end of the game, and stronger than chance."""
from __future__ import annotations

import random

import pytest

from dicehall import engine
from dicehall.engine.bots import towers as bot
from dicehall.engine.core import Player
from dicehall.engine.games import towers
from dicehall.engine.games.towers import BUILT, DARK, EMPTY, LIGHT, UNBUILT, Move, TowersState, parse_square
from tests.test_towers_rules import board, position


def bot_game(light: str, dark: str, seed: int, nodes: int | None = None) -> engine.Session:
    s = engine.new_session("towers", seed=seed, players=[Player("L", True, light if light != "random" else "easy"),
                                                          Player("D", True, dark if dark != "random" else "easy")])
    levels = (light, dark)
    while s.outcome is None:
        command = bot.choose(s.state, levels[s.state.turn], seed, len(s.events), nodes)
        assert command in s.commands()
        s.play(command)
    return s


@pytest.mark.parametrize("level", bot.LEVELS)
def test_every_level_plays_legal_commands_to_the_end(level):
    # hard's whole game at a fifth of its budget: its search is medium's with more nodes, and this game
    # traced at 8,000 and 40,000 nodes runs the same arcs of the bot's code; its own budget plays the endings below
    s = bot_game(level, "random", seed=5, nodes=bot.NODES["hard"] // 5 if level == "hard" else None)
    assert s.outcome is not None and len(s.state.results) == 1


def test_the_same_seed_gives_the_same_game():
    assert bot_game("easy", "medium", 9).events == bot_game("easy", "medium", 9).events
    assert bot_game("random", "random", 1).events != bot_game("random", "random", 2).events


def test_score_difference_is_the_rules_count_from_either_side():
    rng = random.Random(4)
    for _ in range(200):
        cells = [rng.choice([EMPTY] * 4 + list(UNBUILT) + list(BUILT)) for _ in range(64)]
        light, dark = towers.scores(cells)
        assert bot.score_difference(cells, LIGHT) == light - dark == -bot.score_difference(cells, DARK)
        assert bot.evaluate(cells, LIGHT) == pytest.approx(-bot.evaluate(cells, DARK))


def test_the_evaluation_values_towers_that_can_still_move():
    free = board("""
        L . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . D
    """)
    pinned = board("""
        L d . . . . . .
        d . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . D
    """)
    assert bot.evaluate(free, LIGHT) == 0
    assert bot.evaluate(pinned, LIGHT) < 0  # Light's tower cannot move; Dark's can (and d8-d7 pairs score 0)


ENDGAME = """
l . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. d . . . . . .
. L . . . . . l
"""


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_search_plays_the_end_exactly(level):
    # Light's last tower on b1: b1-a1 lines up a1 with a8 (6 empty squares between) and with h1
    # (6 more): 12. Any other move scores less.
    state = position(ENDGAME, turn=LIGHT)
    assert bot.choose(state, level) == Move(parse_square("b1"), parse_square("a1"))


TRAP = """
. . . . l . . .
. . . . . . . .
. . . . . . . .
. . . . . . l D
. . . . . . . .
. . . . . . . .
. . . . . . . .
d . . . L . . .
"""


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_search_sees_the_reply(level):
    # Light's last tower, e1, blocks row 1. e1-e2 scores 5 at once (e8 to e2), the most a greedy
    # look one move ahead sees; but it opens row 1 and Dark answers h5-h1 for 6 (a1 to h1): 5 to 6.
    # e1-g1 scores 3 (g5 to g1) and keeps row 1 blocked; Dark's tower, walled in by g5, can then
    # score nothing: 3 to 0.
    state = position(TRAP, turn=LIGHT)
    greedy = bot.Search(state, 0).ordered([(m.source, m.target) for m in towers.legal_commands(state)], LIGHT)[0]
    assert greedy == (parse_square("e1"), parse_square("e2"))  # the trap is real
    assert bot.choose(state, level) == Move(parse_square("e1"), parse_square("g1"))


def test_medium_beats_random_play_every_game_with_colours_alternated():
    wins = 0
    for game in range(6):
        light, dark = ("medium", "random") if game % 2 == 0 else ("random", "medium")
        s = bot_game(light, dark, seed=100 + game)
        wins += s.outcome.winners == ((LIGHT,) if game % 2 == 0 else (DARK,))
    assert wins == 6


def test_choose_refuses_a_finished_game_and_unknown_levels():
    over = TowersState(names=("a", "b"), board=(EMPTY,) * 64, first_placer=LIGHT, turn=LIGHT, phase="over", results=((0, 0),))
    with pytest.raises(ValueError, match="no one is to act"):
        bot.choose(over)
    with pytest.raises(ValueError, match="random, easy, medium, hard"):
        bot.choose(position(ENDGAME), "genius")


def test_the_searchs_running_tallies_match_a_full_count():
    rng = random.Random(8)
    s = engine.new_session("towers", seed=8)
    for _ in range(20):
        s.play(rng.choice(s.commands()))
    search = bot.Search(s.state, 0)
    played = []
    colour = s.state.turn
    for _ in range(8):  # play moves on the search's board, checking the tallies, then take them back
        move = rng.choice(search.options(colour, search.placed()))
        search.play(move, colour)
        played.append((move, colour))
        assert search.evaluate(LIGHT) == pytest.approx(bot.evaluate(search.board, LIGHT))
        colour = 1 - colour
        if not search.options(colour, search.placed()):
            break
    for move, who in reversed(played):
        search.unplay(move, who)
    assert search.board == list(s.state.board) and search.evaluate(DARK) == pytest.approx(bot.evaluate(s.state.board, DARK))
