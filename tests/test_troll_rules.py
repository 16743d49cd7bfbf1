"""Every Angry Troll ruling of ../shared/RULINGS.md, the playtesters' questions (Tests #4 to #7),
the variants and difficulties, and properties over random legal playouts and replays."""
import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.core import IllegalCommand, Player
from dicehall.engine.games import troll
from dicehall.engine.games.troll import (
    ActionsLost, AwakeningRolled, BridgeCollapsed, BridgeUnsettled, Card, CardLaidDown, CardPickedUp,
    CardStomped, ClubUsed, DeckShuffled, DiamondThrown, FlightPhase, FlightStack, LayDown, Move, PickUp,
    SpadeUsed, Stomp, ThrowDiamond, TrollMoved, TrollPlaced, TrollState, TrollWon, TurnBegan, UseClub,
    UseSpade, Wait,
)
from dicehall.engine.session import LogError, Session

STANDARD = (3, 2, 1, 1, 2, 3)
UPPER = ["2C", "3C", "4C", "5C", "6C", "7C"]  # the lower row is red below, so black cards wake these
LOWER = ["2D", "3D", "4D", "5D", "6D", "7D"]


# ----- helpers -----
def cards(cell: str) -> tuple[Card, ...]:
    """'4C 5C*' is a stack from the bottom up; a star marks an awake card."""
    return tuple(Card(c.rstrip("*"), c.endswith("*")) for c in cell.split())


def board(upper=UPPER, lower=LOWER, at=("lower", 3), carried="", deck=("9H", "9C"), set_aside=(), **more):
    """A state in the troll's action phase of turn 1 (lower row red), built directly."""
    state = TrollState(
        heights=STANDARD, upper=tuple(cards(c) for c in upper), lower=tuple(cards(c) for c in lower),
        troll=at, carried=cards(carried), lower_flight=FlightStack("red", ("KH",)),
        upper_flight=FlightStack("black"), deck=tuple(deck), set_aside=tuple(set_aside), turn=1,
        phase="actions", actions_left=2, stood=(at,),
    )
    return dataclasses.replace(state, **more)


def waking(*queue, **kw):
    """A state in the awakening phase that will play `queue`."""
    return board(phase="awakening", actions_left=0, awakening=tuple(queue), **kw)


def act(state, *commands):
    events = []
    for command in commands:
        decided = troll.decide(state, command)
        for event in decided:
            state = troll.evolve(state, event)
        events += decided
    return events, state


def roll(state, *faces):
    events = []
    for face in faces:
        event = troll.chance_event(state, (face - 1,), False)
        state = troll.evolve(state, event)
        events.append(event)
    return events, state


def codes(stack):
    return [("*" if c.awake else "") + c.code for c in stack]


def deck_order(upper=None, lower=None, awakening=(), heights=STANDARD):
    """52 codes dealing `upper`/`lower` (col -> stack bottom first; the rest of each stack is filled
    under it with spare cards), then the deck of awakening `awakening` (flight card first), then
    the spare cards. Aces are spared last, so fillers are never THE CLUB."""
    named = [c for row in (upper or {}, lower or {}) for stack in row.values() for c in stack] + list(awakening)
    spare = sorted((c for c in troll.FULL_DECK if c not in named), key=lambda c: c.startswith("A"))
    order = []
    for row in (upper or {}, lower or {}):
        for col, height in zip(range(1, 7), heights):
            stack = list(row.get(col, []))
            order += [spare.pop(0) for _ in range(height - len(stack))] + stack
    return order + list(awakening) + spare


def session(order, dice=(), **options):
    return engine.new_session("troll", seed=1, options={"deck": order, **options}, dice=list(dice))


def fold(s):
    state = troll.initial_state(s.options, s.players)
    for event in s.events:
        state = troll.evolve(state, event)
    return state


def playout(s, rng, limit=2000):
    """Random legal commands (and typed dice when a script runs out) until the game ends."""
    for _ in range(limit):
        if s.outcome is not None:
            return s
        if s.chance_needed is not None:
            s.roll([rng.randint(1, 6)])
            continue
        commands = s.commands()
        assert commands, "the troll always has a command, even if it is only wait"
        s.play(rng.choice(commands))
    raise AssertionError("the game did not end")


# ----- the module's protocol -----
def test_module_names_and_rules_text():
    assert troll.ID == "troll" and troll.TITLE == "Angry Troll versus Magic Bridge" and troll.RULES_VERSION == 1
    assert len(troll.BLURB) <= 35
    assert all(len(line) <= 90 for line in troll.RULES_TEXT.splitlines())
    assert "Questions from the playtesters" in troll.RULES_TEXT and "dicehall's decision" in troll.RULES_TEXT
    for test in ("#4", "#5", "#6", "#7"):
        assert f"Test {test}" in troll.RULES_TEXT or test in troll.RULES_TEXT
    assert engine.get_game("troll") is troll
    for name, cls in troll.EVENTS.items():
        assert cls.__name__ == name and dataclasses.is_dataclass(cls)
    for cls in troll.CHANCE_EVENTS:
        last = dataclasses.fields(cls)[-1]
        assert last.name == "typed" and last.default is False


def test_commands_print_readably_and_parse_back():
    printed = [str(c) for c in troll.CANDIDATES] + ["wait"]
    for text in ("move up", "stomp", "pick up left", "use club on right", "throw diamond up",
                 "use spade on down", "lay down left", "wait"):
        assert text in printed
    for command in [*troll.CANDIDATES, Wait()]:
        assert troll.parse_command(str(command)) == command
    with pytest.raises(IllegalCommand):
        troll.parse_command("jump")


def test_one_human_player_named_through_clean_text():
    assert troll.check_players(()) == (Player("Player"),)
    assert troll.check_players((Player("Ada\x1b[31m"),))[0].name == "Ada[31m"
    with pytest.raises(ValueError):
        troll.check_players((Player("A"), Player("B")))
    with pytest.raises(ValueError):
        troll.check_players((Player("Bot", bot=True),))


def test_evolve_refuses_unknown_events():
    with pytest.raises(TypeError):
        troll.evolve(board(), "a goat crossed")


def test_chance_protocol_shuffle_then_dice():
    state = troll.initial_state(troll.check_options({}), ())
    need = troll.chance_needed(state)
    assert need.spec == tuple(range(52, 1, -1)) and need.dice is False and need.prompt == "shuffle the deck"
    assert troll.to_act(state) is None
    draws = tuple(random.Random(3).randrange(n) for n in need.spec)
    event = troll.chance_event(state, draws, False)
    assert sorted(event.order) == sorted(troll.FULL_DECK) and troll.chance_draws(event) == draws
    assert troll.chance_event(state, (0,) * 51, False).order == troll.FULL_DECK  # index 0 each time
    state = troll.evolve(state, event)
    need = troll.chance_needed(state)
    assert need.spec == (6,) and need.dice is True
    placed = troll.chance_event(state, (2,), True)
    assert placed == TrollPlaced(face=3, typed=True) and troll.chance_draws(placed) == (2,)
    state = troll.evolve(state, placed)
    need = troll.chance_needed(state)
    assert need.spec == (6,) and need.dice and troll.to_act(state) is None  # turn 1's awakening


def test_describe_hides_the_deck_unless_revealed():
    s = engine.new_session("troll", seed=11)
    hidden, shown = s.describe(0, reveal=False), s.describe(0, reveal=True)
    dealt = s.state_at(1)
    secret = set(dealt.deck) | {c.code for row in (dealt.upper, dealt.lower) for stack in row for c in stack}
    assert "shuffled" in hidden and not secret & set(hidden.replace(";", " ").replace(",", " ").split())
    assert dealt.deck[0] in shown
    playout(s, random.Random(11))
    for n in range(len(s.events)):
        for reveal in (False, True):
            text = s.describe(n, reveal)
            assert text and "\n" not in text


def test_progress_and_outcome_summaries_name_the_cause():
    s = engine.new_session("troll", seed=5)
    assert troll.progress(s.state) == f"turn 1, deck {len(s.state.deck)}"
    assert troll.outcome(board()) is None
    flew = dataclasses.replace(board(at=("lower", 3)), set_aside=("7H",), end="flew", phase="over")
    assert troll.outcome(flew).summary == "lost: the troll flew away with the 7H at lower 3"
    fallen = board(upper=["2C", "3C", "", "5C", "6C", "7C"], lower=["2D", "3D", "", "5D", "6D", "7D"], turn=9)
    assert troll.outcome(dataclasses.replace(fallen, end="collapsed")).summary == "lost: the bridge collapsed"
    assert troll.end_words(dataclasses.replace(fallen, end="collapsed")) == (
        "lost: the bridge collapsed on turn 9: no path from bank to bank: "
        "the left bank's part ends at column 2 (upper 3 and lower 3 empty)")
    won = troll.outcome(dataclasses.replace(board(deck=()), end="won"))
    assert won.winners == (0,) and won.summary == "won"
    assert troll.outcome(dataclasses.replace(board(deck=()), end="perfect")).summary == "perfect win"
    assert "would not settle" in troll.outcome(dataclasses.replace(board(), end="unsettled")).summary


# ----- options: difficulties, custom heights, variants, deals -----
@pytest.mark.parametrize("difficulty, heights, deck", [
    ("standard", (3, 2, 1, 1, 2, 3), 28), ("sturdy", (4, 3, 2, 2, 3, 4), 16), ("tutorial", (5, 4, 3, 3, 4, 5), 4),
])
def test_difficulty_sets_stack_heights_and_deck_of_awakening(difficulty, heights, deck):
    s = engine.new_session("troll", seed=3, options={"difficulty": difficulty})
    dealt = s.state_at(1)  # after the shuffle and deal
    for row in (dealt.upper, dealt.lower):
        assert tuple(len(stack) for stack in row) == heights
    assert len(dealt.deck) + len(dealt.lower_flight.cards) == deck
    assert len(dealt.deck) == deck - 1  # the awakenings at least: 27, 15 and 3


def test_difficulty_default_is_standard():
    assert troll.check_options({})["heights"] == [3, 2, 1, 1, 2, 3]
    assert troll.check_options({})["difficulty"] == "standard"


def test_custom_heights_override_difficulty():
    options = troll.check_options({"difficulty": "tutorial", "heights": [1, 2, 3, 3, 2, 1]})
    assert options["difficulty"] == "custom" and options["heights"] == [1, 2, 3, 3, 2, 1]
    s = engine.new_session("troll", seed=3, options=options)
    assert tuple(len(stack) for stack in s.state_at(1).lower) == (1, 2, 3, 3, 2, 1)
    assert len(s.state_at(1).deck) == 52 - 24 - 1
    assert troll.check_options({"heights": [12, 5, 1, 1, 5, 1]})["heights"] == [12, 5, 1, 1, 5, 1]  # 50 cards


@pytest.mark.parametrize("options", [
    {"difficulty": "hard"}, {"difficulty": "custom"}, {"heights": [1, 1, 1]}, {"heights": [0, 1, 1, 1, 1, 1]},
    {"heights": [True, 1, 1, 1, 1, 1]}, {"heights": [5, 5, 5, 5, 5, 1]}, {"starting_card": "yes"},
    {"toys": 2}, {"colour": 1}, {"deck": ["AS"] * 52}, {"deck": list(troll.FULL_DECK[:51])},
    {"deck": list(troll.FULL_DECK[:51]) + ["1X"]}, {"starting_card": True, "club_at_start": True},
    {"starting_card": True, "toys": True}, {"club_at_start": True, "heights": [5, 5, 5, 5, 5, 0]},
    {"club_at_start": True, "heights": [6, 4, 4, 4, 4, 4]}, {"toys": True, "heights": [5, 5, 5, 5, 4, 1]},
])
def test_bad_options_are_refused_with_a_one_line_reason(options):
    with pytest.raises(ValueError) as caught:
        troll.check_options(options)
    assert str(caught.value) and "\n" not in str(caught.value)


def test_options_normalise_to_plain_data_idempotently():
    given_options = {"heights": (2, 2, 1, 1, 2, 2), "toys": 1, "deck": tuple(c.lower() for c in troll.FULL_DECK)}
    normal = troll.check_options(given_options)
    assert normal == troll.check_options(normal)
    assert normal["toys"] is True and normal["reusable_diamond_ace"] is True and normal["club_at_start"] is True
    assert normal["deck"] == list(troll.FULL_DECK) and normal["starting_card"] is False
    for value in normal.values():
        assert isinstance(value, (str, bool, int)) or all(isinstance(v, (str, int)) for v in value)
    assert engine.new_session("troll", seed=1, options={"club_at_start": 1}).options["club_at_start"] is True


def test_explicit_deck_is_dealt_without_a_shuffle():
    order = list(reversed(troll.FULL_DECK))
    s = engine.new_session("troll", seed=1, options={"deck": order}, dice=[2])
    assert not any(isinstance(e, DeckShuffled) for e in s.events)
    start = s.state_at(0)
    assert [c.code for c in start.upper[0]] == order[:3] and [c.code for c in start.lower[5]] == order[21:24]
    assert start.lower_flight.cards == (order[24],) and start.deck == tuple(order[25:])


def test_variant_starting_card_is_carried_awake_and_hearts_go_to_the_bottom():
    order = deck_order(awakening=["9C", "2H", "3H", "QS", "KD"])
    state = session(order, starting_card=True).state_at(0)
    assert state.carried == (Card("QS", True),)
    assert state.deck[0] == "KD" and state.deck[-2:] == ("2H", "3H") and len(state.deck) == 27 - 1
    plain = session(deck_order(awakening=["9C", "QS"]), starting_card=True).state_at(0)
    assert plain.carried == (Card("QS", True),)
    no_variant = session(order).state_at(0)
    assert no_variant.carried == () and no_variant.deck[:2] == ("2H", "3H")


def test_variant_reusable_diamond_ace_is_kept_after_a_throw():
    reusable = troll.initial_state(troll.check_options({"reusable_diamond_ace": True, "deck": list(troll.FULL_DECK)}), ())
    assert reusable.reusable == ("AC", "AD") and reusable.carried == ()
    state = board(carried="AD*", reusable=reusable.reusable, lower=["2D", "3D", "4D", "5D*", "6D", "7D"])
    events, after = act(state, ThrowDiamond("right"))
    assert events[0] == DiamondThrown("AD", "right", "5D", "lower", 4)
    assert after.carried == (Card("AD", True),) and "AD" not in after.set_aside
    with pytest.raises(IllegalCommand):
        troll.decide(after, PickUp("up"))
    _, plain = act(board(carried="AD*", lower=["2D", "3D", "4D", "5D*", "6D", "7D"]), ThrowDiamond("right"))
    assert plain.carried == () and plain.set_aside == ("AD",)


def test_variant_club_at_start_takes_the_ac_out_before_the_deal():
    s = session(list(troll.FULL_DECK), dice=[3, 1], club_at_start=True)
    start = s.state_at(0)
    assert start.carried == (Card("AC", True),) and start.club_held
    assert start.upper[0] == cards("2C 3C 4C")  # AC taken out: the deal starts at the 2C
    every = [c.code for row in (start.upper, start.lower) for stack in row for c in stack] + list(start.deck)
    assert "AC" not in every and len(start.deck) == 51 - 24 - 1
    assert not any(isinstance(c, PickUp) for c in s.commands())


def test_variant_toys_holds_both_aces_from_the_start():
    s = session(list(troll.FULL_DECK), dice=[3], toys=True)
    assert s.state_at(0).carried == (Card("AC", True), Card("AD", True)) and len(s.state_at(0).deck) == 50 - 24 - 1
    state = board(carried="AC* AD*", reusable=("AC", "AD"), upper=["2C", "3C", "4C*", "5C", "6C", "7C"],
                  lower=["2D", "3D", "4D", "5D", "6D*", "7D"])
    events, after = act(state, UseClub("up"), ThrowDiamond("right"))
    assert events[0] == ClubUsed("AC", "up", "4C", "upper", 3)
    assert events[1] == DiamondThrown("AD", "right", "6D", "lower", 5)
    assert after.carried == state.carried and not after.set_aside


# ----- RULINGS: cards and bridge -----
def test_cards_are_named_rank_and_suit_clubs_and_spades_black():
    assert len(set(troll.FULL_DECK)) == 52 and {"AC", "10H", "QS", "KD"} <= set(troll.FULL_DECK)
    assert [troll.colour_of(c) for c in ("AC", "QS", "10H", "7D")] == ["black", "black", "red", "red"]
    assert troll.THE_CLUB == "AC"


def test_bridge_two_rows_of_six_counted_from_the_left_bank():
    order = deck_order(upper={1: ["KC"]}, lower={6: ["KS"]}, awakening=["9H"])
    start = session(order).state_at(0)
    assert len(start.upper) == len(start.lower) == 6
    assert start.top(("upper", 1)) == Card("KC") and start.top(("lower", 6)) == Card("KS")
    assert troll.neighbour(("upper", 1), "left") is None and troll.neighbour(("upper", 1), "right") == ("upper", 2)
    assert troll.neighbour(("lower", 4), "up") == ("upper", 4) and troll.neighbour(("lower", 4), "down") is None


def test_bridge_only_the_top_card_is_in_play_a_covered_card_waits():
    # the covered awake 4C neither flees nor is woken; once its cover flies away it is on top again
    state = waking("9C", upper=["2C", "3C", "4C* 8C*", "5C", "6C", "7C"], at=("lower", 1))
    _, state = roll(state, 3)
    assert state.stack(("upper", 3)) == cards("4C*") and state.set_aside == ("8C",)
    assert troll.flight_moves(state) == (("4C", "upper", 3, 2),)
    covered = board(upper=["2C", "3C", "4C* 8C", "5C", "6C", "7C"])
    assert troll.flight_moves(covered) == ()


# ----- RULINGS: setup -----
def test_setup_first_card_sets_lower_row_colour_and_wakes_nothing():
    s = session(deck_order(awakening=["9C", "8H"]), dice=[2, 5])
    start = s.state_at(0)
    assert start.lower_flight == FlightStack("black", ("9C",)) and start.upper_flight == FlightStack("red", ())
    assert troll.calm(start)
    # turn 1 plays the next card: a red 8H wakes the upper row
    assert s.events[1] == AwakeningRolled("8H", "upper", 5, 5, "woke", typed=True)


def test_setup_die_puts_the_troll_on_the_lower_row():
    s = session(deck_order(awakening=["9C", "8H"]), dice=[4])
    assert s.events[0] == TrollPlaced(face=4, typed=True)
    assert s.state.troll == ("lower", 4) and s.state.stood == (("lower", 4),)


# ----- RULINGS: a turn -----
def test_turn_is_awakening_then_two_actions_then_flight_then_checks():
    s = session(deck_order(awakening=["9H", "KS", "QS"]), dice=[4, 2])
    assert [type(e) for e in s.events] == [TrollPlaced, AwakeningRolled]
    assert s.state.phase == "actions" and s.state.actions_left == 2 and s.state.turn == 1
    s.play(Move("left"))
    assert s.state.actions_left == 1 and s.state.turn == 1
    batch = s.play(Move("up"))
    assert [type(e) for e in batch] == [TrollMoved, FlightPhase, TurnBegan]
    assert batch[1] == FlightPhase((("6C", "upper", 2, 1),))  # the 6C woke at upper 2 and flees left
    assert batch[2] == TurnBegan(2, ("QS",), True)
    assert s.chance_needed is not None and s.to_act is None  # turn 2 waits for its awakening die
    s.roll([3])
    assert isinstance(s.events[-1], AwakeningRolled) and s.events[-1].typed and s.to_act == 0


# ----- RULINGS: awakening phase -----
def test_awakening_phase_plays_set_aside_cards_in_order_before_the_deck():
    state = board(set_aside=("9C", "9H"), deck=("KS",), at=("lower", 3))
    events, state = act(state, Move("left"), Move("up"))
    assert events[-1] == TurnBegan(2, ("9C", "9H"), False)
    assert state.deck == ("KS",) and state.set_aside == () and state.awakening == ("9C", "9H")
    events, state = roll(state, 1, 1)
    assert [e.card for e in events] == ["9C", "9H"] and [e.row for e in events] == ["upper", "lower"]
    assert state.upper_flight.cards == ("9C",) and state.lower_flight.cards == ("KH", "9H")


def test_awakening_phase_plays_the_deck_top_card_when_nothing_is_set_aside():
    events, state = act(board(deck=("KS", "QS")), Move("left"), Move("up"))
    assert events[-1] == TurnBegan(2, ("KS",), True) and state.deck == ("QS",)


def test_awakening_phase_with_deck_and_set_aside_empty_wakes_nothing():
    events, state = act(board(deck=(), lower=["2D", "3D", "4D", "5D", "6D", "7D* 8D"]), Move("left"), Move("up"))
    assert events[-1] == TurnBegan(2, (), False)
    assert state.phase == "actions" and state.actions_left == 2 and troll.chance_needed(state) is None
    assert state.quiet_turns == 1


def test_awakening_phase_cards_set_aside_during_it_wait_for_the_next_turn():
    state = waking("9C", "8C", upper=["2C", "3C", "4C 8S*", "5C", "6C", "7C"], deck=("KS",))
    _, state = roll(state, 3)
    assert state.set_aside == ("8S",) and state.awakening == ("8C",)
    _, state = roll(state, 4)
    assert state.phase == "actions" and state.set_aside == ("8S",)
    events, _ = act(state, Move("left"), Move("up"))
    assert events[-1] == TurnBegan(2, ("8S",), False)


# ----- RULINGS: one awakening -----
def test_awakening_row_is_picked_by_the_flight_stack_colour():
    (black,), state = roll(waking("9S"), 2)
    assert black.row == "upper" and state.top(("upper", 2)).awake and state.upper_flight.cards == ("9S",)
    (red,), state = roll(waking("9D"), 2)
    assert red.row == "lower" and state.top(("lower", 2)).awake and state.lower_flight.cards == ("KH", "9D")


def test_awakening_empty_position_looks_toward_nearer_bank():
    upper = ["2C", "3C", "", "", "6C", "7C"]
    (left,), state = roll(waking("9C", upper=upper), 3)
    assert left.col == 2 and state.top(("upper", 2)).awake
    (right,), state = roll(waking("9C", upper=upper), 4)
    assert right.col == 5 and state.top(("upper", 5)).awake


def test_awakening_looks_the_other_way_when_the_bank_side_is_empty():
    (event,), _ = roll(waking("9C", upper=["", "", "", "5C", "6C", "7C"]), 2)
    assert event.col == 4
    (event,), _ = roll(waking("9C", upper=["2C", "3C", "", "", "", ""]), 6)
    assert event.col == 2  # 6 looks toward 6 (nothing further), then the other way: 5, 4, 3, 2


def test_awakening_in_an_empty_row_wakes_nothing():
    (event,), state = roll(waking("9C", upper=[""] * 6), 4)
    assert event == AwakeningRolled("9C", "upper", 4, 0, "nothing")
    assert state.upper_flight.cards == ("9C",) and state.phase == "actions" and troll.calm(state)


def test_awakening_dormant_top_turns_awake_even_under_the_troll():
    (event,), state = roll(waking("9C", at=("upper", 3)), 3)
    assert event.result == "woke" and state.top(("upper", 3)) == Card("4C", True)
    assert state.troll == ("upper", 3) and state.end == ""


def test_awakening_awake_top_flies_away_and_is_set_aside():
    (event,), state = roll(waking("9C", upper=["2C", "3C", "4C 8C*", "5C", "6C", "7C"]), 3)
    assert event.result == "flew" and state.stack(("upper", 3)) == cards("4C") and state.set_aside == ("8C",)
    assert state.end == ""


def test_awakening_awake_card_under_the_troll_flies_away_with_it_and_the_game_is_lost():
    state = waking("9C", "8C", upper=["2C", "3C", "4C 8S*", "5C", "6C", "7C"], at=("upper", 3), deck=("KS",) * 4)
    (event,), state = roll(state, 3)
    assert event.result == "troll flew" and state.end == "flew" and state.phase == "over"
    assert troll.chance_needed(state) is None and troll.to_act(state) is None  # the 8C never plays
    result = troll.outcome(state)
    assert result.winners == () and result.summary == "lost: the troll flew away with the 8S at upper 3"
    assert troll.result(state, 0).value == 4 and not troll.result(state, 0).won


# ----- RULINGS: troll actions -----
def test_troll_takes_exactly_two_actions_each_turn():
    state = board()
    events, state = act(state, Move("up"))
    assert events == [TrollMoved("up", "upper", 3)] and state.actions_left == 1 and troll.to_act(state) == 0
    events, state = act(state, Move("left"))
    assert events[0] == TrollMoved("left", "upper", 2) and isinstance(events[1], FlightPhase)
    assert state.turn == 2 and state.stood == (("upper", 2),)


def test_remaining_action_is_lost_when_none_is_possible_and_the_log_says_so():
    state = board(lower=["", "3D", "", "5D", "6D", "7D"], at=("upper", 2))
    events, state = act(state, Move("down"))  # lower 2: upper 2 stood on, lower 1 and 3 empty
    assert events[:3] == [TrollMoved("down", "lower", 2), ActionsLost(1), FlightPhase(())]
    assert isinstance(events[3], TurnBegan) and troll.describe(board(), ActionsLost(1)).endswith("lost")


def test_wait_is_the_only_command_when_no_action_is_possible():
    state = board(upper=["", "3C", "4C", "5C", "6C", "7C"], lower=["2D", "", "4D", "5D", "6D", "7D"], at=("lower", 1))
    assert troll.legal_commands(state) == [Wait()]
    events, state = act(state, Wait())
    assert events == [ActionsLost(2), FlightPhase(()), BridgeCollapsed(1)]
    with pytest.raises(IllegalCommand, match="can still act"):
        troll.decide(board(), Wait())


def test_move_onto_an_occupied_position_not_stood_on_this_turn():
    state = board(lower=["2D", "3D", "4D", "", "6D", "7D"])
    assert [str(c) for c in troll.legal_commands(state) if isinstance(c, Move)] == ["move up", "move left"]
    with pytest.raises(IllegalCommand, match="empty"):
        troll.decide(state, Move("right"))
    with pytest.raises(IllegalCommand, match="no position down"):
        troll.decide(state, Move("down"))
    _, state = act(state, Move("up"))
    with pytest.raises(IllegalCommand, match="stood on lower 3"):  # the start position counts
        troll.decide(state, Move("down"))


def test_stomp_turns_the_awake_card_under_the_troll_dormant():
    state = board(lower=["2D", "3D", "4D*", "5D", "6D", "7D"])
    events, state = act(state, Stomp())
    assert events == [CardStomped("4D", "lower", 3)] and state.top(("lower", 3)) == Card("4D")
    with pytest.raises(IllegalCommand, match="dormant"):
        troll.decide(state, Stomp())


def test_pick_up_an_awake_card_next_to_the_troll_that_is_not_a_heart():
    state = board(upper=["2C", "3C", "9C 4C*", "5C", "6C", "7C"])
    assert PickUp("up") in troll.legal_commands(state)
    events, state = act(state, PickUp("up"))
    assert events == [CardPickedUp("4C", "up", "upper", 3)]
    assert state.carried == (Card("4C", True),) and state.stack(("upper", 3)) == cards("9C")


def test_pick_up_refuses_hearts_dormant_cards_and_full_hands():
    hearts = board(upper=["2C", "3C", "4H*", "5C", "6C", "7C"])
    assert not any(isinstance(c, PickUp) for c in troll.legal_commands(hearts))
    with pytest.raises(IllegalCommand, match="heart"):
        troll.decide(hearts, PickUp("up"))
    with pytest.raises(IllegalCommand, match="dormant"):
        troll.decide(board(), PickUp("up"))
    full = board(upper=["2C", "3C", "4C*", "5C", "6C", "7C"], carried="9S*")
    with pytest.raises(IllegalCommand, match="hands are not empty"):
        troll.decide(full, PickUp("up"))


def test_use_club_turns_an_awake_card_next_to_it_dormant_and_is_set_aside():
    state = board(lower=["2D", "3D", "4D", "5D*", "6D", "7D"], carried="9C*")
    assert [c for c in troll.legal_commands(state) if isinstance(c, UseClub)] == [UseClub("right")]
    events, state = act(state, UseClub("right"))
    assert events == [ClubUsed("9C", "right", "5D", "lower", 4)]
    assert state.top(("lower", 4)) == Card("5D") and state.carried == () and state.set_aside == ("9C",)


def test_use_diamond_hits_the_first_awake_card_past_dormant_cards_and_gaps():
    state = board(lower=["2D", "3D", "", "5D*", "6D*", "7D"], carried="9D*", at=("lower", 1))
    assert [c for c in troll.legal_commands(state) if isinstance(c, ThrowDiamond)] == [
        ThrowDiamond(d) for d in troll.DIRECTIONS]
    events, state = act(state, ThrowDiamond("right"))
    assert events == [DiamondThrown("9D", "right", "5D", "lower", 4)]
    assert state.top(("lower", 4)) == Card("5D") and state.top(("lower", 5)).awake and state.set_aside == ("9D",)


def test_use_diamond_thrown_off_the_bridge_hits_nothing():
    state = board(carried="9D*", at=("lower", 1), upper=["2C", "3C*", "4C", "5C", "6C", "7C"])
    events, state = act(state, ThrowDiamond("left"))
    assert events == [DiamondThrown("9D", "left", "", "", 0)] and state.set_aside == ("9D",)
    events, _ = act(board(carried="9D*", upper=["2C", "3C", "4C*", "5C", "6C", "7C"]), ThrowDiamond("down"))
    assert events[0].card == ""  # down from the lower row leaves the bridge at once


def test_use_spade_flips_an_awake_card_next_to_it_into_the_hands_dormant():
    state = board(upper=["2C", "3C", "4C*", "5C", "6C", "7C"], carried="9S*")
    events, state = act(state, UseSpade("up"))
    assert events == [SpadeUsed("9S", "up", "4C", "upper", 3)]
    assert state.carried == (Card("4C", False),) and state.stack(("upper", 3)) == () and state.set_aside == ("9S",)


def test_lay_down_the_dormant_card_onto_a_stack_or_into_a_gap():
    state = board(upper=["2C", "3C", "", "5C", "6C", "7C"], carried="4C")
    assert [c for c in troll.legal_commands(state) if isinstance(c, LayDown)] == [
        LayDown("up"), LayDown("left"), LayDown("right")]
    events, gap = act(state, LayDown("up"))
    assert events == [CardLaidDown("4C", "up", "upper", 3)] and gap.stack(("upper", 3)) == cards("4C")
    _, stack = act(state, LayDown("left"))
    assert stack.stack(("lower", 2)) == cards("3D 4C") and stack.carried == ()
    with pytest.raises(IllegalCommand, match="no dormant card"):
        troll.decide(board(carried="4C*"), LayDown("up"))


def test_the_club_works_as_a_club_is_not_set_aside_and_the_troll_picks_up_nothing_else():
    state = board(upper=["2C", "3C", "4C*", "5C", "6C", "7C"], lower=["2D", "3D*", "4D", "5D", "6D", "7D"], carried="AC*")
    assert state.club_held
    events, state = act(state, UseClub("up"))
    assert events == [ClubUsed("AC", "up", "4C", "upper", 3)]
    assert state.carried == (Card("AC", True),) and state.set_aside == ()
    with pytest.raises(IllegalCommand, match="THE CLUB"):
        troll.decide(state, PickUp("left"))
    _, state = act(state, UseClub("left"))  # and again: it is never used up
    assert state.carried == (Card("AC", True),) and state.set_aside == ()


def test_illegal_commands_are_refused_with_a_reason_and_change_nothing():
    s = session(deck_order(awakening=["9H", "KS"]), dice=[4, 2])
    before = s.events
    for command in ("jump", Stomp(), PickUp("up"), UseClub("up"), ThrowDiamond("up"), LayDown("up"), Move("down")):
        with pytest.raises(IllegalCommand) as caught:
            s.play(command)
        assert str(caught.value)
    assert s.events == before
    with pytest.raises(IllegalCommand, match="not a direction"):
        troll.decide(board(), Move("north"))


# ----- RULINGS: flight phase -----
def test_flight_awake_cards_move_toward_their_nearer_bank():
    state = board(upper=["2C", "3C 8C*", "4C", "5C 9C*", "6C", "7C"], at=("lower", 1))
    moves = troll.flight_moves(state)
    assert moves == (("8C", "upper", 2, 1), ("9C", "upper", 4, 5))
    after = troll.evolve(state, FlightPhase(moves))
    assert after.stack(("upper", 1)) == cards("2C 8C*") and after.stack(("upper", 5)) == cards("6C 9C*")
    assert after.stack(("upper", 2)) == cards("3C")


def test_flight_card_moves_toward_the_other_bank_when_the_troll_is_between():
    state = board(lower=["2D", "3D*", "4D", "5D", "6D", "7D"], at=("lower", 1))
    assert troll.flight_moves(state) == (("3D", "lower", 2, 3),)
    other_row = board(upper=["2C", "3C*", "4C", "5C", "6C", "7C"], at=("lower", 1))
    assert troll.flight_moves(other_row) == (("3C", "upper", 2, 1),)  # only the troll's own row


def test_flight_the_card_under_the_troll_and_the_carried_card_do_not_move():
    state = board(lower=["2D", "3D", "4D*", "5D", "6D", "7D"], carried="9C*")
    assert troll.flight_moves(state) == ()


def test_flight_all_cards_move_at_once_from_their_old_positions():
    state = board(upper=["2C", "3C 8C*", "4C 9C*", "5C", "6C", "7C"], at=("lower", 6))
    moves = troll.flight_moves(state)
    assert moves == (("8C", "upper", 2, 1), ("9C", "upper", 3, 2))
    after = troll.evolve(state, FlightPhase(moves))  # the 9C lands where the 8C was, not on it
    assert after.stack(("upper", 1)) == cards("2C 8C*") and after.stack(("upper", 2)) == cards("3C 9C*")
    assert after.stack(("upper", 3)) == cards("4C")


def test_flight_two_cards_landing_on_one_stack_land_left_first():
    # Within one row the flight rules never send two cards onto one stack (a card turned by the
    # troll and one heading the other way would need the troll on both sides), so this is the
    # fold's order for a flight phase listing two landings: left first, the right one on top.
    state = board(upper=["2C", "3C*", "9C", "8C*", "6C", "7C"], at=("upper", 1))
    after = troll.evolve(state, FlightPhase((("3C", "upper", 2, 3), ("8C", "upper", 4, 3))))
    assert after.stack(("upper", 3)) == cards("9C 3C* 8C*")
    assert troll.flight_moves(state) == (("3C", "upper", 2, 3), ("8C", "upper", 4, 5))


def test_flight_past_position_1_or_6_flees_to_the_bank_and_is_set_aside():
    state = board(upper=["2C 8C*", "3C", "4C", "5C", "6C", "7C"], lower=["2D", "3D", "4D", "5D", "6D", "7D 9D*"])
    moves = troll.flight_moves(state)
    assert moves == (("8C", "upper", 1, troll.LEFT_BANK), ("9D", "lower", 6, troll.RIGHT_BANK))
    after = troll.evolve(state, FlightPhase(moves))
    assert after.set_aside == ("8C", "9D") and after.stack(("upper", 1)) == cards("2C")


def test_flight_cards_move_into_gaps():
    state = board(upper=["2C", "", "4C*", "5C", "6C", "7C"], at=("lower", 6))
    after = troll.evolve(state, FlightPhase(troll.flight_moves(state)))
    assert after.stack(("upper", 2)) == cards("4C*") and after.stack(("upper", 3)) == ()


# ----- RULINGS: collapse, win, score -----
def test_collapse_when_no_path_of_occupied_positions_joins_position_1_to_position_6():
    state = board(upper=["2C", "3C", "4C*", "5C", "6C", "7C"], lower=["2D", "3D", "", "5D", "6D", "7D"],
                  at=("lower", 6), deck=("9H",) * 5)
    events, state = act(state, Move("up"), Move("left"))  # upper 3's 4C flees left: column 3 is empty
    assert events[-1] == BridgeCollapsed(1) and state.end == "collapsed"
    result = troll.outcome(state)
    assert result.summary == "lost: the bridge collapsed"  # as replays record it
    assert troll.end_words(state) == ("lost: the bridge collapsed on turn 1: no path from bank to bank: "
                              "the left bank's part ends at column 2 (upper 3 and lower 3 empty)")
    assert troll.result(state, 0).value == 5 and result.winners == ()
    assert troll.describe(state, events[-1]).endswith("the left bank's part ends at column 2 (upper 3 and lower 3 empty)")


def test_a_collapse_names_where_the_bridge_broke():
    gap_at_the_bank = board(upper=["", "3C", "4C", "5C", "6C", "7C"], lower=["", "3D", "4D", "5D", "6D", "7D"])
    assert troll.collapse_cause(gap_at_the_bank) == "no path from bank to bank: upper 1 and lower 1 are empty"
    # the lower row reaches column 4 through the upper row's steps; only lower 5 stops it
    zigzag = board(upper=["2C", "3C", "", "", "", "7C"], lower=["", "3D", "4D", "5D", "", "7D"])
    assert troll.collapse_cause(zigzag).endswith("ends at column 4 (lower 5 empty)")


def test_bridge_stands_through_steps_up_and_down():
    state = board(upper=["2C", "3C", "", "", "6C", "7C"], lower=["", "3D", "4D", "5D", "6D", ""])
    assert troll.bridge_stands(state)
    assert not troll.bridge_stands(board(upper=["2C", "3C", "", "", "6C", "7C"], lower=["", "3D", "4D", "", "6D", ""]))
    assert not troll.bridge_stands(board(upper=["", "3C", "4C", "5C", "6C", "7C"], lower=["", "3D", "4D", "5D", "6D", "7D"]))


def test_win_when_the_deck_is_empty_nothing_set_aside_and_no_card_awake():
    state = board(lower=["2D", "3D", "4D*", "", "6D", "7D"], deck=())
    events, state = act(state, Stomp(), Move("up"))
    assert events[-1] == TrollWon(perfect=False) and state.end == "won"
    assert troll.outcome(state) == engine.Outcome(winners=(0,), summary="won")


def test_perfect_win_when_every_position_is_occupied():
    events, state = act(board(lower=["2D", "3D", "4D*", "5D", "6D", "7D"], deck=()), Stomp(), Move("up"))
    assert events[-1] == TrollWon(perfect=True) and troll.outcome(state).summary == "perfect win"


def test_no_win_while_a_covered_card_is_awake():
    events, _ = act(board(lower=["2D", "3D* 9D", "4D", "5D", "6D", "7D"], deck=()), Move("up"), Move("left"))
    assert events[-1] == TurnBegan(2, (), False)


def test_no_win_while_cards_are_set_aside_or_in_the_deck():
    events, _ = act(board(deck=(), set_aside=("9C",)), Move("up"), Move("left"))
    assert events[-1] == TurnBegan(2, ("9C",), False)
    events, _ = act(board(deck=("9C",)), Move("up"), Move("left"))
    assert events[-1] == TurnBegan(2, ("9C",), True)


def test_a_carried_card_does_not_prevent_a_win():
    events, state = act(board(deck=(), carried="9S*"), Move("up"), Move("left"))
    assert events[-1] == TrollWon(perfect=True) and state.carried == (Card("9S", True),)


def test_score_is_the_cards_left_in_the_deck_of_awakening():
    s = engine.new_session("troll", seed=8)
    playout(s, random.Random(8))
    assert troll.result(s.state, 0).value == len(s.state.deck)


# ----- dicehall's decisions -----
def test_decision_fled_cards_are_set_aside_upper_row_first_left_to_right():
    state = board(upper=["2C", "3C", "4C", "5C", "6C", "7C 8C*"], lower=["2D 9D*", "3D", "4D", "5D", "6D", "7D"],
                  at=("lower", 3))
    _, after = act(state, Move("up"), Move("left"))
    assert after.awakening == ("8C", "9D")  # played next turn in that order


def test_decision_quiet_turns_in_a_row_end_the_game():
    stuck = board(lower=["2D", "3D* 9D", "4D", "5D", "6D", "7D"], deck=(), quiet_turns=troll.QUIET_LIMIT - 1)
    events, state = act(stuck, Move("up"), Move("left"))
    assert events[-1] == TurnBegan(2, (), False) and state.quiet_turns == troll.QUIET_LIMIT
    events, state = act(state, Move("right"), Move("down"))
    assert events[-1] == BridgeUnsettled(troll.QUIET_LIMIT) and state.end == "unsettled"
    assert troll.outcome(state).summary == "lost: the bridge would not settle (10 quiet turns)"
    _, busy = act(dataclasses.replace(stuck, set_aside=("9C",)), Move("up"), Move("left"))
    assert busy.quiet_turns == 0  # a card played ends the run of quiet turns


def test_decision_a_dormant_ac_in_the_hands_is_not_the_club():
    state = board(upper=["2C", "3C", "4C*", "5C", "6C", "7C"], carried="AC")
    assert not state.club_held and not any(isinstance(c, UseClub) for c in troll.legal_commands(state))
    assert LayDown("up") in troll.legal_commands(state)


# ----- the playtesters' questions (appendix, Tests #4 to #7) -----
def test_question_test4_an_empty_position_is_rolled():
    # "What to do if there are no more cards in a stack I'm supposed to take a card from?"
    (event,), state = roll(waking("9H", lower=["2D", "3D", "", "5D", "6D", "7D"]), 3)
    assert event.col == 2 and state.top(("lower", 2)).awake


def test_question_test6_the_top_row_is_empty_when_a_card_calls_it():
    # nothing awakens, and the troll's actions and the flight phase still happen
    (event,), state = roll(waking("9C", upper=[""] * 6, lower=["2D", "3D", "4D", "5D", "6D", "7D"]), 5)
    assert event.result == "nothing" and troll.to_act(state) == 0 and state.actions_left == 2


def test_question_test6_a_card_already_awake_flies_away_and_nothing_new_wakes():
    state = waking("9C", upper=["2C", "3C", "4C", "5C 8C*", "6C", "7C"])
    (event,), after = roll(state, 4)
    assert event.result == "flew" and after.set_aside == ("8C",)
    assert [c for row in (after.upper, after.lower) for s in row for c in s if c.awake] == []


def test_question_test6_what_happens_to_cards_that_fly():
    # flown, fled and used cards are set aside, then each causes an awakening next turn
    state = board(upper=["2C 8C*", "3C", "4C", "5C", "6C", "7C"], carried="9D*", deck=("KS",))
    events, state = act(state, ThrowDiamond("left"), Move("up"))
    assert events[-1] == TurnBegan(2, ("9D", "8C"), False) and state.deck == ("KS",)
    events, state = roll(state, 1, 1)
    assert [(e.card, e.row) for e in events] == [("9D", "lower"), ("8C", "upper")]


def test_question_test6_the_carried_card_is_not_part_of_the_bridge():
    state = board(carried="9S*", deck=())
    assert troll.flight_moves(state) == () and troll.calm(state)


def test_question_test7_a_stomped_brick_under_the_troll_awakens_again():
    state = board(lower=["2D", "3D", "4D*", "5D", "6D", "7D"], carried="9D*", deck=("8H",))
    events, state = act(state, Stomp(), ThrowDiamond("down"))  # the troll stays on its stomped brick
    assert events[-1] == TurnBegan(2, ("9D",), False) and state.troll == ("lower", 3)
    (event,), state = roll(state, 3)
    assert event.result == "woke" and state.top(("lower", 3)) == Card("4D", True) and state.end == ""
    again = board(lower=["2D", "3D", "4D*", "5D", "6D", "7D"], phase="awakening", actions_left=0, awakening=("8H",))
    (event,), again = roll(again, 3)  # rolled again while awake: it flies away with the troll
    assert event.result == "troll flew" and again.end == "flew"


def test_question_test7_bricks_flee_off_both_ends_and_into_gaps():
    state = board(upper=["2C*", "", "4C*", "5C", "6C", "7C*"], lower=["2D", "3D", "4D", "5D", "", "7D 9D*"],
                  at=("lower", 3))
    moves = troll.flight_moves(state)
    assert moves == (("2C", "upper", 1, 0), ("4C", "upper", 3, 2), ("7C", "upper", 6, 7), ("9D", "lower", 6, 7))
    after = troll.evolve(state, FlightPhase(moves))
    assert after.set_aside == ("2C", "7C", "9D") and after.stack(("upper", 2)) == cards("4C*")


# ----- sessions, replays and saves -----
def test_a_scripted_game_is_deterministic_and_folds_from_the_initial_state():
    order = deck_order(awakening=["9H", "KS", "QS", "JS", "10S"])
    first = session(order, dice=[4, 2, 3, 1, 6, 5, 2, 4, 1, 3] * 4)
    second = session(order, dice=[4, 2, 3, 1, 6, 5, 2, 4, 1, 3] * 4)
    for s in (first, second):
        playout(s, random.Random(7))
    assert first.events == second.events and fold(first) == first.state


def test_undo_then_redo_is_the_identity():
    s = engine.new_session("troll", seed=21)
    rng = random.Random(21)
    for _ in range(5):
        if s.outcome is None:
            s.play(rng.choice(s.commands()))
    state, events = s.state, s.events
    s.undo()
    s.redo()
    assert s.state == state and s.events == events


OPTION_CHOICES = [
    {}, {"difficulty": "sturdy"}, {"difficulty": "tutorial"}, {"heights": [2, 1, 1, 1, 1, 2]},
    {"starting_card": True}, {"reusable_diamond_ace": True}, {"club_at_start": True, "difficulty": "tutorial"},
    {"toys": True, "difficulty": "tutorial"},
]
TURN_BOUND = 52 * (troll.QUIET_LIMIT + 1)  # each loud turn plays a card for good; quiet runs are capped


@given(seed=st.integers(min_value=0, max_value=2**63 - 1), options=st.sampled_from(OPTION_CHOICES))
@settings(max_examples=150, deadline=None)
def test_random_legal_playouts_end_and_fold_to_the_live_state(seed, options):
    s = engine.new_session("troll", seed=seed, options=options)
    rng = random.Random(seed)
    while s.outcome is None:
        assert s.state.turn <= TURN_BOUND
        commands = s.commands()
        assert commands and s.to_act == 0
        s.play(rng.choice(commands))
    assert s.state.end and troll.result(s.state, 0).value == len(s.state.deck)
    assert fold(s) == s.state


@pytest.mark.parametrize("seed, options", [(1, {}), (2, {"difficulty": "tutorial"}), (3, {"toys": True, "difficulty": "sturdy"})])
def test_replay_files_refold_to_the_same_state(seed, options, tmp_path):
    s = engine.new_session("troll", seed=seed, options=options, players=["Troll"])
    playout(s, random.Random(seed))
    path = replays.write_replay(s, tmp_path / "game.dhr")
    loaded = replays.read_replay(path)
    assert loaded.state == s.state and loaded.events == s.events
    assert replays.verify(path).startswith("ok: Angry Troll versus Magic Bridge")


def test_replay_of_a_typed_dice_deal_refolds_and_a_forged_outcome_is_caught(tmp_path):
    order = deck_order(awakening=["9H", "KS", "QS", "JS"])
    s = session(order, dice=[4, 2, 5, 5, 1], starting_card=True)
    playout(s, random.Random(4))
    loaded = replays.read_replay(replays.write_replay(s, tmp_path / "typed.dhr"))
    assert loaded.state == s.state
    fresh = Session(troll, seed=1, options=s.options, players=s.players, dice=[])
    forged = dataclasses.replace(s.events[1], result="nothing", col=0)
    with pytest.raises(LogError):
        fresh.replay_batch([s.events[0], forged], None)


def test_save_then_open_folds_to_the_live_state():
    s = saves.new_save("troll", name="bridge", seed=13, options={"difficulty": "sturdy"})
    rng = random.Random(13)
    for _ in range(6):
        if s.outcome is None:
            s.play(rng.choice(s.commands()))
    saves.close_save(s)
    loaded = saves.open_save(s.labels.save_id)
    try:
        assert loaded.state == s.state and loaded.events == s.events
    finally:
        saves.close_save(loaded)


def test_branching_inside_an_action_keeps_its_consequences_and_future_dice():
    from dicehall import saves
    from dicehall.engine.bots.troll import choose

    session = engine.new_session("troll", seed=21, options={"difficulty": "tutorial"})
    while session.outcome is None:
        session.play(choose(session.state))
    for cut in range(1, len(session.events)):
        settled = session.settle(cut)
        assert settled >= cut
    flight = next(i for i, e in enumerate(session.events) if isinstance(e, troll.FlightPhase))
    branch = saves.branch_save(session, flight)  # inside the action's own events
    assert branch.events == session.events[: len(branch.events)] and len(branch.events) > flight
    saves.close_save(branch)


def allowed_by_trying(state):
    """possible_actions as the rules' own check defines it: every candidate action_event allows."""
    allowed = []
    for command in troll.CANDIDATES:
        try:
            troll.action_event(state, command)
        except IllegalCommand:
            continue
        allowed.append(command)
    return allowed


@pytest.mark.parametrize("options", [{}, {"difficulty": "sturdy"}, {"toys": True}, {"club_at_start": True},
                                     {"starting_card": True}, {"reusable_diamond_ace": True, "difficulty": "tutorial"}])
def test_possible_actions_and_their_events_are_exactly_what_action_event_gives_in_the_same_order(options):
    checked = 0
    for seed in range(40):
        session = engine.new_session("troll", seed=seed, options=options)
        chooser = random.Random(seed)
        while session.outcome is None:
            assert troll.possible_actions(session.state) == allowed_by_trying(session.state)
            if troll.to_act(session.state) == 0:  # each with the event the rules' own check gives it
                assert all(event == troll.action_event(session.state, command)
                           for command, event in troll.possible_moves(session.state))
            checked += 1
            session.play(chooser.choice(session.commands()))
    assert checked > 400
