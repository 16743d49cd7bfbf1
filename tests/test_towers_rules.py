"""Towers: every ruling, with hand-built positions whose scores are counted by hand here."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games import towers
from dicehall.engine.games.towers import (
    BUILT, DARK, EMPTY, LIGHT, UNBUILT, GameScored, Move, Place, TowerMoved, TowerPlaced, TowersState, TurnSkipped,
    parse_square, square_name,
)

# A diagram: rank 8 at the top, file a on the left; L and D unbuilt towers, l and d built ones.
CELLS = {".": EMPTY, "L": UNBUILT[LIGHT], "D": UNBUILT[DARK], "l": BUILT[LIGHT], "d": BUILT[DARK]}


def board(diagram: str) -> tuple[int, ...]:
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    return tuple(CELLS[c] for row in rows for c in row)


def position(diagram: str, turn: int = LIGHT, phase: str = "movement", first: int = LIGHT, match: bool = False) -> TowersState:
    return TowersState(names=("Light", "Dark"), board=board(diagram), first_placer=first, turn=turn, phase=phase,
                       match=match)


def sq(name: str) -> int:
    return parse_square(name)


def place_all(session, squares: list[str]) -> None:
    for name in squares:
        session.play(Place(sq(name)))


# 16 squares in two columns apart: Light on files a and c, Dark on files f and h, alternating
PLACEMENT = [f"{f}{r}" for r in range(1, 5) for f in "afch"]


# ----- squares and commands -----
def test_squares_are_named_like_a_chessboard():
    assert square_name(0) == "a8" and square_name(7) == "h8" and square_name(56) == "a1" and square_name(63) == "h1"
    assert all(parse_square(square_name(i)) == i for i in range(64))
    with pytest.raises(engine.IllegalCommand, match="not a square"):
        parse_square("i9")


def test_commands_print_readably_and_parse_back():
    assert str(Place(sq("c4"))) == "place c4" and str(Move(sq("c4"), sq("c7"))) == "move c4-c7"
    assert towers.parse_command("move c4-c7") == Move(sq("c4"), sq("c7"))
    assert towers.parse_command("c4") == Place(sq("c4"))
    with pytest.raises(engine.IllegalCommand, match="not a Towers command"):
        towers.parse_command("jump a1 b2 c3")


# ----- placement -----
def test_placement_players_alternate_placing_one_tower_on_an_empty_square():
    s = engine.new_session("towers", seed=1)
    assert s.state.turn == LIGHT and s.state.phase == "placement"
    s.play(Place(sq("d4")))
    assert s.state.turn == DARK and s.state.board[sq("d4")] == UNBUILT[LIGHT]
    with pytest.raises(engine.IllegalCommand, match="d4 is taken: place on an empty square"):
        s.play(Place(sq("d4")))
    s.play(Place(sq("e4")))
    assert s.state.turn == LIGHT and s.state.board[sq("e4")] == UNBUILT[DARK]


def test_placement_either_colour_may_place_first():
    s = engine.new_session("towers", seed=1, options={"first": "dark"})
    assert s.state.turn == DARK
    s.play(Place(sq("a1")))
    assert s.state.board[sq("a1")] == UNBUILT[DARK]


def test_placement_no_moves_until_all_sixteen_are_placed():
    s = engine.new_session("towers", seed=1)
    place_all(s, PLACEMENT[:15])
    assert s.state.phase == "placement"
    with pytest.raises(engine.IllegalCommand, match=r"towers move once all are placed \(1 still to place\)"):
        s.play(Move(sq("a1"), sq("b1")))
    assert all(isinstance(c, Place) for c in s.commands()) and len(s.commands()) == 64 - 15


def test_placement_eight_towers_each():
    s = engine.new_session("towers", seed=1)
    place_all(s, PLACEMENT)
    assert s.state.board.count(UNBUILT[LIGHT]) == 8 and s.state.board.count(UNBUILT[DARK]) == 8


@pytest.mark.parametrize("first, mover", [("light", DARK), ("dark", LIGHT)])
def test_movement_starts_with_the_player_who_placed_second(first, mover):
    s = engine.new_session("towers", seed=1, options={"first": first})
    place_all(s, PLACEMENT)
    assert s.state.phase == "movement" and s.state.turn == mover


def test_placement_cannot_happen_in_the_movement_phase():
    s = engine.new_session("towers", seed=1)
    place_all(s, PLACEMENT)
    with pytest.raises(engine.IllegalCommand, match="every tower is placed"):
        s.play(Place(sq("e5")))


# ----- movement -----
MOVES = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . D . L . . D
. . . . . . . .
. . . . d . . .
. . . . . . . .
"""


def test_movement_like_a_rook_through_empty_squares_only():
    state = position(MOVES)  # Light's unbuilt tower on e4
    targets = {square_name(m.target) for m in towers.legal_commands(state)}
    # left stops before the Dark tower on c4; down stops before the built tower on e2
    assert targets == {"d4", "f4", "g4", "e3", "e5", "e6", "e7", "e8"}


def test_movement_not_through_or_onto_towers_and_not_diagonally():
    state = position(MOVES)
    with pytest.raises(engine.IllegalCommand, match="b4 cannot be reached: towers do not move onto or through"):
        towers.decide(state, Move(sq("e4"), sq("b4")))
    with pytest.raises(engine.IllegalCommand, match="c4 cannot be reached"):
        towers.decide(state, Move(sq("e4"), sq("c4")))
    with pytest.raises(engine.IllegalCommand, match="along the row or the column, no diagonals"):
        towers.decide(state, Move(sq("e4"), sq("f5")))
    with pytest.raises(engine.IllegalCommand, match="passing is not allowed"):
        towers.decide(state, Move(sq("e4"), sq("e4")))


def test_movement_only_your_own_unbuilt_towers():
    state = position(MOVES)
    with pytest.raises(engine.IllegalCommand, match="the tower on c4 is Dark's: move one of yours"):
        towers.decide(state, Move(sq("c4"), sq("c5")))
    with pytest.raises(engine.IllegalCommand, match="there is no tower on a1"):
        towers.decide(state, Move(sq("a1"), sq("a2")))
    built = position(MOVES, turn=DARK)
    with pytest.raises(engine.IllegalCommand, match="the tower on e2 is built: a built tower never moves again"):
        towers.decide(built, Move(sq("e2"), sq("e1")))


def test_movement_a_moved_tower_is_built_and_never_moves_again():
    state = position(MOVES)
    events = towers.decide(state, Move(sq("e4"), sq("e7")))
    after = towers.evolve(state, events[0])
    assert after.board[sq("e7")] == BUILT[LIGHT] and after.board[sq("e4")] == EMPTY
    assert after.turn == DARK
    assert all(m.source != sq("e7") for m in towers.legal_commands(towers.evolve(after, TurnSkipped(DARK))))


def test_a_player_with_no_legal_move_is_skipped():
    # Dark's only unbuilt tower (a8) is boxed in; Light can still move
    state = position("""
        D L . . . . . .
        l . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        L . . . . . . d
    """, turn=LIGHT)
    events = towers.decide(state, Move(sq("a1"), sq("b1")))
    assert events == (TowerMoved(LIGHT, sq("a1"), sq("b1")), TurnSkipped(DARK))
    after = state
    for event in events:
        after = towers.evolve(after, event)
    assert after.turn == LIGHT and after.phase == "movement"
    assert towers.describe(towers.evolve(state, events[0]), events[1]) == "Dark has no legal move and is skipped"


def test_the_game_ends_when_neither_player_can_move():
    state = position("""
        L . . L . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        d . . . . . . d
    """, turn=LIGHT)
    # Dark's towers are all built; Light moves one of its two
    events = towers.decide(state, Move(sq("d8"), sq("d7")))
    after = towers.evolve(state, events[0])
    assert after.turn == DARK
    # Dark has no unbuilt towers: skipped straight back to Light
    assert events == (TowerMoved(LIGHT, sq("d8"), sq("d7")), TurnSkipped(DARK))
    after = towers.evolve(after, events[1])
    last = towers.decide(after, Move(sq("a8"), sq("a2")))
    assert isinstance(last[-1], GameScored)
    final = after
    for event in last:
        final = towers.evolve(final, event)
    assert final.phase == "over" and towers.to_act(final) is None and towers.legal_commands(final) == []
    # Light: a2-a1? no, a1 is Dark's. Rows: a2 alone; d7 alone. Columns: a: a2 then a1 (Dark). Light 0.
    # Dark: row 1: a1 . . . . . . h1 = 6 empty squares between.
    assert (last[-1].light, last[-1].dark) == (0, 6)
    assert towers.outcome(final).summary == "Dark wins 6 to 0"


def test_a_single_game_ends_as_the_game_and_only_a_match_numbers_its_games():
    single = engine.new_session("towers", seed=1)
    while single.outcome is None:
        single.play(single.commands()[0])
    assert single.describe(len(single.events) - 1).startswith("no one can move: the game ends, Light ")
    match = engine.new_session("towers", seed=1, options={"match": True})
    ends = []
    while match.outcome is None:
        before = len(match.events)
        match.play(match.commands()[0])
        ends += [match.describe(i) for i in range(before, len(match.events)) if isinstance(match.events[i], GameScored)]
    assert [line.split(",")[0] for line in ends] == ["no one can move: game 1 ends", "no one can move: game 2 ends"]


# ----- scoring, counted by hand -----
SCORED = """
L . . L . D . L
. . . . . . . .
D . . . . . . .
. . . . . . . .
L . l . . . . D
. . . . . . . .
. . . . . . . .
d . . . . . . d
"""


def test_scoring_by_hand():
    # Light: row 8: L(a8) ..(2).. L(d8) scores 2; then D(f8) breaks the rest: L(h8) has no Light neighbour.
    #        row 4: L(a4) . l(c4): 1 empty square = 1 (built counts the same).
    #        column a: L(a8), D(a6), L(a4), d(a1): no two neighbouring Lights. Column c: l(c4) alone.
    #        column d: L(d8) alone. column h: L(h8), D(h4), d(h1): nothing for Light.
    #        Light = 2 + 1 = 3.
    # Dark:  row 1: d(a1) ..6.. d(h1) = 6. Column h: D(h4) .. d(h1): 2 empty squares = 2.
    #        Column a: D(a6) then L(a4): broken. Row 6: D(a6) alone. Row 4: L a4, l c4, D h4: nothing.
    #        Column f: D(f8) alone. Dark = 6 + 2 = 8.
    assert towers.scores(board(SCORED)) == (3, 8)


def test_scoring_neighbouring_towers_score_nothing():
    assert towers.scores(board("""
        L L . . . . . .
        L . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)) == (0, 0)


def test_scoring_built_or_unbuilt_does_not_matter():
    unbuilt = board(SCORED.replace("l", "L").replace("d", "D"))
    built = board(SCORED.replace("L", "l").replace("D", "d"))
    assert towers.scores(unbuilt) == towers.scores(built) == towers.scores(board(SCORED))


def test_scoring_a_tower_between_blocks_the_line_of_sight():
    open_line = ". . . . . . . .\n" * 7 + "L . . . . . . L"
    blocked = ". . . . . . . .\n" * 7 + "L . . D . . . L"
    assert towers.scores(board(open_line)) == (6, 0)
    assert towers.scores(board(blocked)) == (0, 0)


def test_scoring_the_sight_lines_name_the_pairs():
    lines = towers.sight_lines(board(SCORED))
    named = sorted((towers.COLOURS[c], square_name(a), square_name(b), gap) for c, a, b, gap in lines)
    assert named == [("Dark", "a1", "h1", 6), ("Dark", "h4", "h1", 2), ("Light", "a4", "c4", 1), ("Light", "a8", "d8", 2)]


def finished(light: int, dark: int, match: bool = False, results=()) -> TowersState:
    return TowersState(names=("Ada", "Bo"), board=(EMPTY,) * 64, first_placer=LIGHT, turn=LIGHT, phase="over",
                       match=match, results=tuple(results) or ((light, dark),))


def test_higher_score_wins_equal_scores_draw():
    assert towers.outcome(finished(9, 4)) == engine.Outcome((LIGHT,), "Ada (Light) wins 9 to 4")
    assert towers.outcome(finished(2, 7)) == engine.Outcome((DARK,), "Bo (Dark) wins 7 to 2")
    assert towers.outcome(finished(5, 5)) == engine.Outcome((), "a draw, 5 to 5")


# ----- the match -----
def test_match_two_games_with_the_first_placer_switched():
    s = engine.new_session("towers", seed=1, options={"match": True})
    assert s.state.game == 1 and s.state.first_placer == LIGHT
    while s.state.game == 1:
        s.play(s.commands()[0])
    assert s.state.first_placer == DARK and s.state.turn == DARK and s.state.phase == "placement"
    assert s.state.placed == 0 and len(s.state.results) == 1 and s.outcome is None


def test_match_the_sum_of_the_margins_decides():
    # Light wins game 1 by 2, loses game 2 by 5: Dark wins the match by 3
    state = finished(0, 0, match=True, results=[(6, 4), (1, 6)])
    assert towers.outcome(state) == engine.Outcome((DARK,), "Bo (Dark) wins the match by 3 (game 1: 6-4, game 2: 1-6)")
    drawn = finished(0, 0, match=True, results=[(6, 4), (4, 6)])
    assert towers.outcome(drawn).winners == () and "drawn" in towers.outcome(drawn).summary


# ----- the module's contract -----
def test_options_and_players():
    assert towers.check_options({}) == {"first": "light", "match": False}
    with pytest.raises(ValueError, match="first must be light or dark"):
        towers.check_options({"first": "red"})
    with pytest.raises(ValueError, match="unknown option"):
        towers.check_options({"size": 9})
    assert [p.name for p in towers.check_players(())] == ["Light", "Dark"]
    with pytest.raises(ValueError, match="Towers is for two players"):
        towers.check_players((Player("a"),))
    with pytest.raises(ValueError, match="easy, medium or hard"):
        towers.check_players((Player("a"), Player("b", True, "genius")))
    assert towers.check_players((Player("[b]x[/b]\x1b[31m"), Player("", True)))[1] == Player("Dark", True, "medium")


def test_no_chance_in_towers():
    s = engine.new_session("towers", seed=1)
    assert s.chance_needed is None and towers.chance_needed(s.state) is None


def test_describe_and_progress_in_words():
    s = engine.new_session("towers", seed=1, players=[Player("Ada"), Player("Bo")])
    s.play(Place(sq("a1")))
    assert s.describe(0) == "Ada (Light) places tower 1 of 8 on a1"
    assert towers.progress(s.state) == "placement: Light 0, Dark 0"
    assert towers.is_turn_start(s.events[0])


# ----- properties over random playouts -----
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10_000), min_size=40, max_size=40),
       match=st.booleans())
@settings(max_examples=25, deadline=None)
def test_random_playouts_end_and_fold_to_the_state(seed, choices, match):
    s = engine.new_session("towers", seed=seed, options={"match": match})
    steps = 0
    while s.outcome is None:
        commands = s.commands()
        s.play(commands[choices[steps % len(choices)] % len(commands)])
        steps += 1
        assert steps <= 2 * 33  # each game: 16 placements and at most 16 moves
    state = towers.initial_state(s.options, s.players)
    for event in s.events:
        state = towers.evolve(state, event)
    assert state == s.state
    light, dark = towers.scores(s.state.board)
    assert s.state.results[-1] == (light, dark)
    assert sum(1 for e in s.events if isinstance(e, TowerPlaced)) == 16 * (2 if match else 1)
    games = 2 if match else 1
    assert sum(1 for e in s.events if isinstance(e, TowerMoved)) <= 16 * games  # each tower moves once at most
    assert sum(1 for e in s.events if isinstance(e, GameScored)) == games


def test_undo_redo_save_and_replay_round_trip(tmp_path):
    s = saves.new_save("towers", name="round trip", seed=3, options={"match": True})
    while s.outcome is None:
        s.play(s.commands()[len(s.events) % len(s.commands())])
    state = s.state
    s.undo()
    s.redo()
    assert s.state == state
    saves.close_save(s)
    loaded = saves.open_save(s.labels.save_id)
    assert loaded.state == state and loaded.undos == 1
    saves.close_save(loaded)
    path = replays.write_replay(s, tmp_path / "towers.dhr")
    assert replays.read_replay(path).state == state
    assert "ok: Towers" in replays.verify(path)
