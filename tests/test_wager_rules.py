"""Every Dead Man's Wager ruling of ../shared/RULINGS.md (one test per bullet, named after it), the
seed's sample game as the acceptance case, the module's protocol, and properties over random
legal playouts and replays."""
import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from dicehall import engine
from dicehall import replays
from dicehall.engine.bots import wager as bots
from dicehall.engine.core import IllegalCommand, Player
from dicehall.engine.games import wager
from dicehall.engine.games.wager import DieRolled, EndTurn, Roll, RollCalled, TurnEnded, Wager, WagerCalled

KEYS = {"r": Roll(), "w": Wager(), "e": EndTurn()}
SAMPLE_DICE = [3, 2, 6, 4, 6, 2, 2, 3, 1, 1, 2, 6, 1, 5, 4, 3, 1, 5]
# Round 1: Hunter rolls 3 and wagers (2: nothing); Garrett rolls 6 and stops ("X" on the sheet);
# Barry rolls 4 and wagers 6. Round 2: everyone rolls and wagers 1 or 2: nothing. Round 3: Hunter
# 6, wager 1; Garrett 5, wager 4 (-4, the bonus to Barry); Barry rolls 3 and 1, wagers 5: 20.
SAMPLE_KEYS = "rw re rw  rw rw rw  rw rw rrw"


# ----- helpers -----
def game(names=("Ann", "Bob"), dice=(), keys="", **options):
    """A session with scripted dice (consumed in order) after playing `keys` (r, w, e; spaces are
    ignored)."""
    players = [n if isinstance(n, Player) else Player(n) for n in names]
    session = engine.new_session("wager", seed=1, players=players, dice=list(dice), options=options)
    play(session, keys)
    return session


def play(session, keys):
    for key in keys.replace(" ", ""):
        session.play(KEYS[key])
    return session


def sheet(session):
    return wager.scoresheet([session.state_at(i) for i in range(len(session.events))], list(session.events))


def fold(session):
    state = wager.initial_state(session.options, session.players)
    for event in session.events:
        state = wager.evolve(state, event)
    return state


def playout(session, rng, limit=2000):
    """Random legal commands (from the test's own seeded rng) until the game ends."""
    for _ in range(limit):
        if session.outcome is not None:
            return session
        if session.chance_needed is not None:
            session.roll([rng.randint(1, 6)])
            continue
        session.play(rng.choice(session.commands()))
    raise AssertionError("the game did not end")


# ----- the acceptance case: the seed's sample game -----
def test_acceptance_the_seeds_sample_game_barry_wins_with_20():
    session = game(("Hunter", "Garrett", "Barry"), SAMPLE_DICE, SAMPLE_KEYS)
    assert session.state.scores == (11, 10, 20)
    assert session.outcome == engine.Outcome(winners=(2,), summary="Barry wins with 20")
    assert sheet(session) == [  # the seed's scoresheet, round by round
        ["3 W2:0", "6", "4 W6:+6"],
        ["2 W2:0", "3 W1:0", "1 W2:0"],
        ["6 W1:0", "5 W4:-4!", "3,1 W5:+5"],
    ]
    assert session.state.places == (2,) and session.state.round == 3
    rolls = [e for e in session.events if isinstance(e, DieRolled)]
    assert [e.face for e in rolls] == SAMPLE_DICE and all(e.typed for e in rolls)


def test_acceptance_garretts_lost_wager_gives_barry_two_rolls():
    session = game(("Hunter", "Garrett", "Barry"), SAMPLE_DICE, "rw re rw  rw rw rw  rw rw")
    state = session.state
    assert state.seat == 2 and state.bonus and state.normal_left == 2
    assert session.describe(len(session.events) - 1) == "Garrett's wager rolls 4 (typed): 14 -> 10; Barry gets the bonus"
    play(session, "r")
    assert session.commands() == [Roll()]  # the second bonus roll comes before any wager


# ----- Common to all games -----
def test_dice_every_roll_is_a_d6_chance_event_drawn_by_the_session():
    session = game(dice=[])
    assert session.chance_needed is None and session.commands() == [Roll()]
    state = wager.evolve(session.state, RollCalled(0, 1))
    need = wager.chance_needed(state)
    assert need.spec == (6,) and need.dice is True and "Ann" in need.prompt
    assert wager.to_act(state) is None and wager.legal_commands(state) == []
    event = wager.chance_event(state, (4,), False)
    assert event == DieRolled(seat=0, face=5, wager=False, typed=False) and wager.chance_draws(event) == (4,)
    last = dataclasses.fields(DieRolled)[-1]
    assert last.name == "typed" and last.default is False


def test_dice_seeded_games_replay_identically_from_the_seed():
    def seeded(seed):
        session = engine.new_session("wager", seed=seed, players=["A", "B", "C"])
        playout_fixed(session)
        return session.events

    assert seeded(42) == seeded(42) and seeded(42) != seeded(43)


def playout_fixed(session):
    rng = random.Random(0)
    while session.outcome is None:
        session.play(rng.choice(session.commands()))


def test_dice_the_scripted_source_stands_in_for_physical_dice_and_waits_when_it_runs_out():
    session = game(dice=[4])
    play(session, "r")
    assert session.state.scores == (4, 0)
    play(session, "w")
    assert session.chance_needed is not None and session.to_act is None  # waits for typed dice
    session.roll([5])
    assert session.state.scores == (9, 0) and session.state.seat == 1


def test_undo_takes_back_the_roll_with_its_die_and_cannot_reroll():
    session = engine.new_session("wager", seed=7, players=["Ann", "Bob"])
    session.play(Roll())
    first = session.state.scores[0]
    session.undo()
    assert session.state.scores == (0, 0) and session.undos == 1
    session.play(Roll())
    assert session.state.scores[0] == first


def test_players_names_are_free_text_data():
    players = wager.check_players((Player("Ada\x1b[31m\nX"), Player("  ")))
    assert players[0].name == "Ada[31m X" and players[1].name == "Player 2"
    session = game((Player("\u202eEve"), Player("Bob")), [3], "r")
    assert session.describe(1).startswith("Eve rolls 3")


# ----- Dead Man's Wager rulings, one test per bullet -----
def test_two_to_six_players_humans_and_bots_in_any_mix_in_seating_order():
    for count in range(2, 7):
        session = game([Player(f"P{i}", bot=i % 2 == 1) for i in range(count)])
        assert session.to_act == 0 and len(session.state.scores) == count
    for count in (0, 1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            wager.check_players(tuple(Player(f"P{i}") for i in range(count)))
    mixed = wager.check_players((Player("Bot", True), Player("Ann"), Player("B2", True, "bold")))
    assert [p.name for p in mixed] == ["Bot", "Ann", "B2"]  # the seating order is kept
    assert [(p.bot, p.style) for p in mixed] == [(True, "best"), (False, ""), (True, "bold")]
    with pytest.raises(ValueError, match="cautious, bold, best"):
        wager.check_players((Player("A"), Player("B", True, "reckless")))
    assert wager.check_players((Player("A", False, "bold"), Player("B")))[0].style == ""


def test_seating_order_the_first_seat_starts_and_turns_go_round():
    session = game(("A", "B", "C"), [1, 1, 1, 1], "re re re r")
    assert [e.seat for e in session.events if isinstance(e, RollCalled)] == [0, 1, 2, 0]
    assert session.state.round == 2


def test_scores_start_at_zero_and_may_go_negative():
    session = game(dice=[])
    assert session.state.scores == (0, 0)
    session = game(dice=[1, 4, 1, 1, 1, 4], keys="rw rre rw")
    assert session.state.scores == (-6, 2)


def test_a_turn_is_one_normal_roll_adding_the_face():
    for face in range(1, 7):
        session = game(dice=[face], keys="r")
        assert session.state.scores == (face, 0)
        assert session.state.normal_left == 0 and session.state.can_wager
        assert session.commands() == [Wager(), EndTurn()]


def test_bonus_gives_two_normal_rolls_instead_of_one():
    session = game(dice=[2, 4], keys="rw")
    state = session.state
    assert state.seat == 1 and state.bonus and state.normal_left == 2 and not state.can_wager
    session = play(game(dice=[2, 4, 5, 6], keys="rw"), "rr")
    assert session.state.scores == (-2, 11) and session.state.can_wager and session.state.bonus
    play(session, "e")
    assert not session.state.bonus and session.state.normal_left == 1  # Ann: one roll again


@pytest.mark.parametrize("face", [1, 2])
def test_wager_one_or_two_scores_nothing(face):
    session = game(dice=[5, face], keys="rw")
    assert session.state.scores == (5, 0) and not session.state.bonus and session.state.seat == 1


@pytest.mark.parametrize("face", [3, 5, 6])
def test_wager_three_five_or_six_add_their_face(face):
    session = game(dice=[1, face], keys="rw")
    assert session.state.scores == (1 + face, 0) and not session.state.bonus


def test_wager_four_subtracts_four_and_gives_the_bonus_to_the_next_player():
    session = game(("A", "B", "C"), [2, 4], "rw")
    assert session.state.scores == (-2, 0, 0)
    assert session.state.seat == 1 and session.state.bonus and session.state.normal_left == 2
    assert sheet(session)[0][0] == "2 W4:-4!"


def test_the_wager_is_optional_and_ends_the_turn_by_itself():
    session = game(dice=[6], keys="re")
    assert session.state.scores == (6, 0) and session.state.seat == 1
    assert isinstance(session.events[-1], TurnEnded)
    session = game(dice=[6, 1], keys="rw")
    assert session.state.seat == 1 and session.commands() == [Roll()]


def test_at_most_three_rolls_in_a_turn_two_bonus_rolls_and_a_wager():
    session = game(dice=[1, 4, 1, 2, 5], keys="rw rrw")
    bob = [e for e in session.events if isinstance(e, DieRolled) and e.seat == 1]
    assert len(bob) == 3 and session.state.seat == 0 and session.state.scores == (-3, 8)


def test_every_roll_counts_toward_the_streaks_across_turns():
    session = game(dice=[6, 6, 6], keys="re r")
    assert session.state.runs == ((6, 1), (6, 1))  # each player's streak is their own
    play(session, "e r")
    assert session.state.runs[0] == (6, 2) and not session.state.out[0]  # 6 last turn, 6 now


def test_every_roll_counts_toward_the_streaks_across_wagers():
    session = game(dice=[3, 3], keys="rw")
    assert session.state.runs[0] == (3, 2)
    session = game(dice=[6, 6, 1], keys="rw re")  # the wager's six, then a normal roll
    assert session.state.runs == ((6, 2), (1, 1))


def test_a_different_face_breaks_the_streak():
    session = game(dice=[6, 6, 1, 5, 6], keys="rw re rw")
    assert session.state.runs[0] == (6, 1) and not session.state.out[0]


def test_mark_of_the_beast_third_six_in_a_row_puts_the_player_out_at_once():
    session = game(("A", "B", "C"), [6, 6, 1, 1, 6], "rw re re r")
    state = session.state
    assert state.out == (True, False, False) and state.eliminated == (0,)
    assert state.seat == 1 and session.outcome is None  # play goes on without A
    assert "Mark of the Beast: A is out" in session.describe(len(session.events) - 1)
    assert sheet(session)[1][0] == "6 OUT"  # the round-2 roll stays on the sheet


def test_mark_of_the_beast_beats_a_roll_that_reached_20():
    session = game(("A", "B", "C"), [2, 6, 1, 1, 6, 6], "rw re re rw")
    assert session.state.scores[0] == 20 and session.state.out[0]
    assert session.outcome is None and 0 not in session.state.places


def test_mark_of_the_beast_is_checked_before_20_with_two_players_the_other_wins():
    session = game(dice=[2, 6, 1, 6, 6], keys="rw re rw")
    assert session.state.scores[0] == 20 and session.state.out[0]
    assert session.outcome.summary == "Bob wins by default" and session.outcome.winners == (1,)


def test_outrageous_fortune_third_three_in_a_row_wins_at_once():
    session = game(dice=[3, 3, 1, 3], keys="rw re r")
    assert session.outcome == engine.Outcome(winners=(0,), summary="Ann wins by Outrageous Fortune")
    assert session.state.scores[0] == 9 and session.state.places == (0,)
    assert "Outrageous Fortune: Ann wins" in session.describe(len(session.events) - 1)
    assert sheet(session)[1][0] == "3 FORTUNE"


def test_outrageous_fortune_on_the_first_bonus_roll_ends_the_turn_at_once():
    # Ann 1; Bob 3, wager 3; Ann 1, wager 4 (the bonus to Bob); Bob's first bonus roll: a third 3
    session = game(dice=[1, 3, 3, 1, 4, 3], keys="re rw rw r")
    assert session.outcome.summary == "Bob wins by Outrageous Fortune"
    last_turn = session.events[[n for n, e in enumerate(session.events) if wager.is_turn_start(e)][-1]:]
    assert session.state.bonus and len(last_turn) == 2  # one roll: the second is never made


def test_twenty_or_more_wins_at_once():
    session = game(dice=[5, 5, 1, 4, 5, 1, 1], keys="rw re rw re r")  # 10, 19, then a normal 1
    assert session.outcome.summary == "Ann wins with 20" and session.state.places == (0,)
    assert isinstance(session.events[-1], DieRolled) and not session.events[-1].wager
    session = game(dice=[6, 6, 1, 5, 6], keys="rw re rw")  # the wager's 6 reaches 23
    assert session.outcome.summary == "Ann wins with 23"


def test_twenty_on_the_first_bonus_roll_wins_before_the_second():
    # Ann 1; Bob 5, wager 5: 10; Ann 1; Bob 5: 15; Ann 1, wager 4: the bonus; Bob 5: 20
    session = game(dice=[1, 5, 5, 1, 5, 1, 4, 5], keys="re rw re re rw r")
    assert session.outcome.summary == "Bob wins with 20"
    assert session.state.bonus and [e for e in session.events if isinstance(e, RollCalled)][-1].number == 1


def test_a_player_who_is_out_is_skipped():
    session = game(("A", "B", "C"), [1, 6, 6, 1, 2, 6], "re rw re re r")  # B's third six
    assert session.state.out == (False, True, False)
    assert session.state.seat == 2 and session.state.scores[0] == 3
    play(session, "r")
    session.roll([1])
    play(session, "e")
    assert session.state.seat == 0 and session.state.round == 3  # after C, A: B is skipped
    play(session, "r")
    session.roll([2])
    play(session, "e")
    assert session.state.seat == 2


def test_the_bonus_passes_over_a_player_who_is_out():
    session = game(("A", "B", "C"), [1, 6, 6, 1, 2, 6, 1, 2, 4], "re rw re re r re rw")
    state = session.state
    assert state.out == (False, True, False) and state.scores[0] == 1
    assert state.seat == 2 and state.bonus and state.normal_left == 2
    assert "C gets the bonus" in session.describe(len(session.events) - 1)


def test_when_one_player_is_left_in_that_player_wins_by_default():
    session = game(("A", "B", "C"), [6, 6, 6, 6, 1, 6, 6], "rw rw re r r")
    assert session.state.out == (True, True, False)
    assert session.outcome == engine.Outcome(winners=(2,), summary="C wins by default")
    assert session.state.places == (2, 1, 0)  # the latest one out ranks above the earlier one
    assert "C wins by default" in session.describe(len(session.events) - 1)


def test_by_default_the_game_ends_with_the_first_winner():
    session = game(("A", "B", "C"), [5, 5, 1, 1, 5, 5], "rw re re rw")
    assert session.outcome.summary == "A wins with 20" and session.state.over
    assert session.state.places == (0,) and session.commands() == []
    with pytest.raises(IllegalCommand, match="the game is over: A wins with 20"):
        session.play(Roll())


def test_play_on_for_places_continues_until_every_place_is_decided():
    session = game(("A", "B", "C"), [5, 5, 1, 1, 5, 5, 5, 5, 1, 5, 5], "rw re re rw", play_on=True)
    assert session.outcome is None and session.state.places == (0,)
    assert session.state.seat == 1 and session.commands() == [Roll()]  # A is skipped from now on
    play(session, "rw re rw")  # B: 11, C: 2, B: 21; C, left alone, takes third place
    assert session.state.places == (0, 1, 2) and session.state.ways == ("score", "score", "default")
    assert session.outcome == engine.Outcome(winners=(0,), summary="A wins with 20; places: A, B, C")
    words = [session.describe(i) for i in range(len(session.events))]
    assert any("A wins with 20" in w for w in words)
    assert any(w.endswith("B takes place 2 with 21; C takes place 3 by default") for w in words)  # not "wins"


def test_play_on_eliminated_players_rank_last_latest_elimination_first():
    names = ("A", "B", "C", "D")
    #         A: 6 w6 | B: 6 w6 | C 1 e | D 1 e | A: 6 out | B: 6 out | C: 5 w5 | D 1 e | C 5 w5 wins
    dice = [6, 6, 6, 6, 1, 1, 6, 6, 5, 5, 1, 5, 5]
    session = game(names, dice, "rw rw re re r r rw re rw", play_on=True)
    assert session.state.eliminated == (0, 1)
    assert session.state.places == (2, 3, 1, 0)  # C won, D was left, then B (out last), then A
    assert session.outcome.summary == "C wins with 21; places: C, D, B, A"


def test_play_on_two_players_the_other_takes_second_place_at_once():
    session = game(dice=[5, 5, 1, 5, 5], keys="rw re rw", play_on=True)
    assert session.outcome.summary == "Ann wins with 20" and session.state.places == (0, 1)


# ----- illegal commands say why -----
def test_illegal_commands_have_reasons_a_player_understands():
    session = game(dice=[2, 4, 3, 3])
    for command in (Wager(), EndTurn()):
        with pytest.raises(IllegalCommand, match="a turn begins with a normal roll: roll first"):
            session.play(command)
    play(session, "r")
    with pytest.raises(IllegalCommand, match="you have made your normal roll: wager or end the turn"):
        session.play(Roll())
    play(session, "w")
    with pytest.raises(IllegalCommand, match="two normal rolls to make \\(the bonus\\)"):
        session.play(Wager())
    play(session, "r")
    with pytest.raises(IllegalCommand, match="you have one more roll \\(the bonus\\) before you can wager"):
        session.play(Wager())
    with pytest.raises(IllegalCommand, match="one more roll \\(the bonus\\) before you can end the turn"):
        session.play(EndTurn())
    with pytest.raises(IllegalCommand, match="roll, wager and end turn"):
        wager.decide(session.state, "jump")
    play(session, "r")
    with pytest.raises(IllegalCommand, match="made both normal rolls"):
        session.play(Roll())
    rolling = wager.evolve(session.state, WagerCalled(1))
    with pytest.raises(IllegalCommand, match="still to be rolled"):
        wager.decide(rolling, Roll())


# ----- the module's protocol -----
def test_module_names_rules_text_and_keys():
    assert (wager.ID, wager.TITLE, wager.BLURB, wager.RULES_VERSION) == (
        "wager", "Dead Man's Wager", "race to 20 with one die", 1)
    assert engine.get_game("wager") is wager
    assert all(len(line) <= 90 for line in wager.RULES_TEXT.splitlines())
    for words in ("dicehall's decision", "r roll", "w wager", "e end the turn", "h odds", "MARK OF THE BEAST",
                  "OUTRAGEOUS FORTUNE", "play_on"):
        assert words in wager.RULES_TEXT
    for name, cls in wager.EVENTS.items():
        assert cls.__name__ == name and dataclasses.is_dataclass(cls)
    assert set(wager.EVENTS) == {"RollCalled", "WagerCalled", "TurnEnded", "DieRolled"}


def test_commands_print_readably_and_parse_back():
    assert [str(c) for c in (Roll(), Wager(), EndTurn())] == ["roll", "wager", "end turn"]
    for command in (Roll(), Wager(), EndTurn()):
        assert wager.parse_command(str(command)) == command
    assert wager.parse_command("E") == EndTurn()
    with pytest.raises(IllegalCommand):
        wager.parse_command("fold")


@pytest.mark.parametrize("options, error", [
    ({"play_on": "yes"}, "play_on must be true or false"),
    ({"play_on": 1}, "play_on must be true or false"),
    ({"target": 30}, "unknown option 'target' \\(known: play_on\\)"),
])
def test_options_only_play_on_a_boolean(options, error):
    with pytest.raises(ValueError, match=error):
        wager.check_options(options)


def test_options_default_and_normalise():
    assert wager.check_options({}) == {"play_on": False}
    assert wager.check_options({"play_on": True}) == {"play_on": True}
    assert wager.check_options(wager.check_options({})) == {"play_on": False}


def test_evolve_refuses_unknown_events():
    with pytest.raises(TypeError):
        wager.evolve(game().state, "a raven croaked")


def test_describe_is_one_line_naming_the_player():
    session = game(("Hunter", "Garrett", "Barry"), SAMPLE_DICE, SAMPLE_KEYS)
    for n, event in enumerate(session.events):
        text = session.describe(n)
        assert text and "\n" not in text
        assert session.players[event.seat].name in text
    assert session.describe(0) == "round 1, Hunter's turn"
    assert session.describe(1) == "Hunter rolls 3 (typed): 0 -> 3"
    assert session.describe(3) == "Hunter's wager rolls 2 (typed): nothing, stays 3"
    assert session.describe(6) == "Garrett ends the turn at 6; Barry is next"
    assert session.describe(len(session.events) - 1) == "Barry's wager rolls 5 (typed): 15 -> 20; Barry wins with 20"


def test_progress_and_turn_starts():
    session = game(("Hunter", "Garrett", "Barry"), SAMPLE_DICE, "rw re")
    assert wager.progress(session.state) == "round 1: Hunter 3, Garrett 6, Barry 0"
    session = game(("Hunter", "Garrett", "Barry"), SAMPLE_DICE, SAMPLE_KEYS)
    assert wager.progress(session.state) == "Barry wins with 20"
    starts = [n for n, e in enumerate(session.events) if wager.is_turn_start(e)]
    assert len(starts) == 9 and starts[0] == 0
    assert all(isinstance(session.events[n], RollCalled) and session.events[n].number == 1 for n in starts)
    assert not wager.is_turn_start(RollCalled(2, 2))


def test_state_exposes_what_the_screen_reads():
    session = game(("A", "B", "C"), [6, 6, 6], "rw r")
    state = session.state
    assert state.names == ("A", "B", "C") and state.seat == 1 and state.round == 1
    assert state.runs == ((6, 2), (6, 1), (0, 0)) and state.out == (False,) * 3
    assert state.normal_left == 0 and state.can_wager and not state.bonus and state.places == ()


# ----- properties -----
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=6),
       play_on=st.booleans(), choices=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=60, deadline=None)
def test_random_legal_playouts_end_and_folding_the_events_gives_the_state(seed, players, play_on, choices):
    session = engine.new_session("wager", seed=seed, players=[f"P{i}" for i in range(players)],
                                 options={"play_on": play_on})
    rng = random.Random(choices)
    for _ in range(3000):
        if session.outcome is not None:
            break
        session.play(rng.choice(session.commands()))
    state = session.state
    assert session.outcome is not None and state.over
    assert fold(session) == state
    assert len(set(state.places)) == len(state.places)
    if play_on:
        assert sorted(state.places) == list(range(players))
    assert session.outcome.winners == (state.places[0],)
    rows = sheet(session)
    assert len(rows) == state.round and all(len(row) == players for row in rows)


@given(seed=st.integers(min_value=0, max_value=2**32), choices=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=30, deadline=None)
def test_typed_dice_playouts_end_too(seed, choices):
    session = engine.new_session("wager", seed=seed, players=["A", "B", "C"], dice=[])
    playout(session, random.Random(choices))
    assert fold(session) == session.state


def test_replay_round_trip_of_a_game_with_bots(tmp_path):
    players = [Player("Ann"), Player("Cautious", True, "cautious"), Player("Bold", True, "bold"),
               Player("Best", True, "best")]
    session = engine.new_session("wager", seed=2024, players=players, options={"play_on": True})
    while session.outcome is None:
        seat = session.to_act
        session.play(bots.choose(session.state, session.players[seat].style or "bold"))
    path = replays.write_replay(session, tmp_path / "wager.dhr")
    loaded = replays.read_replay(path)
    assert loaded.events == session.events and loaded.state == session.state
    assert loaded.players == session.players and loaded.outcome == session.outcome
    assert replays.verify(path).startswith("ok: Dead Man's Wager, seed 2024, Ann, Cautious, Bold, Best")
