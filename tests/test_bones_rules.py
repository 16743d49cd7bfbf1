"""War of Bones: one test per ruling, on hand-built battlefields with scripted dice and landings.

Positions are in hundredths of an inch from the top-left corner of the 9" area. The session cannot
take scripted dice for landings (a position is not a die face), so most tests drive the rules
through `play` below: decide, evolve, then resolve each chance the state waits for from a list
(a tuple of faces for dice, (x, y, face) for a landing)."""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from dicehall import replays
from dicehall.engine.codec import decode_event, digest, encode_event
from dicehall.engine.core import IllegalCommand, Player
from dicehall.engine.games import bones
from dicehall.engine.games.bones import (
    Assign, Attack, BonesState, Choose, Converge, Keep, Reengage, Reinforce, Reroll, Resupply, RollIn, Troop,
)
from dicehall.engine.session import Session

A, B = 0, 1


def battlefield(a: dict, b: dict, *, player: int = A, supply=(0, 0), side: int = 900, turn: int = 1,
                no_premeasure: bool = False, **more) -> BonesState:
    """A position in play: a and b map troop number (0-based) to (x, y, face)."""
    troops = tuple(tuple(Troop(*side_[t]) if t in side_ else None for t in range(8)) for side_ in (a, b))
    return BonesState(names=("Ann", "Bob"), no_premeasure=no_premeasure, troops=troops, supply=tuple(supply),
                      side=side, stage="action", player=player, first_strike=A, landing=(), after="", turn=turn, **more)


def resolve(state: BonesState, chance: list) -> tuple[BonesState, list]:
    """Draw every pending chance from `chance` (consumed from the front) while any is left."""
    events = []
    while state.stage != "over" and (need := bones.chance_needed(state)) is not None and chance:
        item = chance.pop(0)
        if need.dice:
            assert len(item) == len(need.spec), (need.prompt, item)
            draws = tuple(f - 1 for f in item)
        else:
            low, _ = bones.area_bounds(state)
            draws = (item[0] - low, item[1] - low, item[2] - 1 if len(item) > 2 else 0)
        event = bones.chance_event(state, draws, False)
        events.append(event)
        state = bones.evolve(state, event)
    return state, events


def play(state: BonesState, command: object, *chance) -> tuple[BonesState, list]:
    """One decision and the chance it causes."""
    events = list(bones.decide(state, command))
    for event in events:
        state = bones.evolve(state, event)
    state, drawn = resolve(state, list(chance))
    return state, events + drawn


def face(state: BonesState, seat: int, troop: int) -> int | None:
    t = state.troops[seat][troop]
    return None if t is None else t.face


# ----- dice and space -----
def test_dice_and_space_eight_troops_three_rollers_supply_from_zero_in_a_nine_inch_area():
    s = Session(bones, seed=3, players=[Player("Ann"), Player("Bob")])
    state = s.state
    assert (bones.TROOPS, bones.ROLLERS, bones.MAX_SUPPLY) == (8, 3, 6)
    assert state.supply == (0, 0) and state.side == 900 and bones.area_bounds(state) == (0, 900)
    dice = state.dice_in_area()
    assert len(dice) == 16 and all(0 <= d.x <= 900 and 0 <= d.y <= 900 and 1 <= d.face <= 6 for d in dice)
    for i, d in enumerate(dice):
        for e in dice[i + 1:]:
            assert bones.distance(d, e) >= 62.5


def test_dice_and_space_every_landing_is_an_event_drawn_uniformly_inside_the_area_not_typed():
    state = BonesState(names=("Ann", "Bob"))
    need = bones.chance_needed(state)
    assert need.spec == (901, 901, 6) and need.dice is False
    shrunk = dataclasses.replace(battlefield({0: (450, 450, 3)}, {0: (500, 500, 3)}, side=700), stage="landing",
                                 landing=((A, 1),), after="end")
    need = bones.chance_needed(shrunk)
    assert need.spec == (701, 701, 6) and bones.area_bounds(shrunk) == (100, 800)
    assert bones.chance_event(shrunk, (0, 700, 5), False) == bones.TroopLanded(A, 1, 100, 800, 6)


def test_dice_and_space_landing_on_a_die_is_rerolled_and_recorded():
    state = dataclasses.replace(battlefield({0: (450, 450, 3)}, {0: (100, 100, 2)}), stage="landing",
                                landing=((A, 1),), after="end")
    # 62 away is closer than one die width (62.5): rerolled; 63 away lands
    state, events = resolve(state, [(512, 450, 4), (513, 450, 4)])
    assert events == [bones.LandingMissed(A, 1, 512, 450), bones.TroopLanded(A, 1, 513, 450, 4)]
    assert state.troops[A][1] == Troop(513, 450, 4)


def test_dice_and_space_seeded_setup_records_missed_landings_and_the_fold_reproduces_them():
    s = Session(bones, seed=0)
    assert sum(isinstance(e, bones.LandingMissed) for e in s.events) == 4  # seed 0 misses four times in setup
    assert sum(isinstance(e, bones.TroopLanded) for e in s.events) == 16 and isinstance(s.events[-1], bones.RolledOff)
    state = bones.initial_state(s.options, s.players)
    for e in s.events:
        state = bones.evolve(state, e)
    assert state == s.state


# ----- range -----
@pytest.mark.parametrize("firepower", [1, 3, 6])
def test_range_gap_at_most_firepower_die_widths(firepower):
    reach = (firepower + 1) * 62.5  # centre distance: the gap plus one die width
    assert bones.in_range(Troop(0, 0, firepower), Troop(int(reach), 0, 1), firepower)
    assert not bones.in_range(Troop(0, 0, firepower), Troop(int(reach) + 1, 0, 1), firepower)
    # on a diagonal: 3-4-5 triangle scaled, distance 125 for F=1
    assert bones.in_range(Troop(0, 0, 1), Troop(75, 100, 1), 1)
    assert not bones.in_range(Troop(0, 0, 1), Troop(76, 100, 1), 1)


def test_range_targets_out_of_range_are_refused_with_the_reason():
    state = battlefield({0: (100, 100, 2)}, {0: (100, 288, 3), 1: (100, 287, 3)})
    assert bones.targets_of(state, A, 0) == (1,)
    with pytest.raises(IllegalCommand, match="B#1 is out of range of A#1"):
        bones.decide(state, Attack(0, ((0, 2),)))


# ----- setup -----
def test_setup_all_sixteen_roll_in_then_the_roll_off_ties_roll_again():
    state = BonesState(names=("Ann", "Bob"))
    landings = [(50 + 100 * (i % 8), 100 + 300 * (i // 8), 1 + i % 6) for i in range(16)]
    state, events = resolve(state, landings + [(4, 4), (2, 5)])
    assert len(state.dice_in_area()) == 16 and state.troops[B][7] == Troop(750, 400, 4)
    assert [e for e in events if isinstance(e, bones.RolledOff)] == [bones.RolledOff(4, 4), bones.RolledOff(2, 5)]
    assert state.stage == "choose" and bones.to_act(state) == B
    assert bones.legal_commands(state) == [Choose("reengage"), Choose("first strike")]


def setup_position(winner: int = B) -> BonesState:
    state = BonesState(names=("Ann", "Bob"))
    landings = [(50 + 100 * (i % 8), 100 + 300 * (i // 8), 3) for i in range(16)]
    state, _ = resolve(state, landings + [(2, 5) if winner == B else (5, 2)])
    return state


def test_setup_the_winner_chooses_reengage_and_the_other_gets_first_strike():
    state, _ = play(setup_position(B), Choose("reengage"))
    assert state.stage == "reengage" and bones.to_act(state) == B and state.first_strike == A
    state, _ = play(setup_position(B), Choose("first strike"))
    assert state.stage == "reengage" and bones.to_act(state) == A and state.first_strike == B


def test_setup_reengage_picks_own_troops_and_up_to_as_many_of_the_opponents_then_first_strike_plays():
    state, _ = play(setup_position(A), Choose("first strike"))  # B reengages, A strikes first
    with pytest.raises(IllegalCommand, match="at most as many of the opponent's"):
        bones.decide(state, Reengage((0,), (0, 1)))
    state, events = play(state, Reengage((2, 0), (5,)), (450, 800, 6), (450, 850, 2), (600, 850, 1), (880, 880, 5))
    assert events[0] == bones.Reengaged(B, (0, 2), (5,))
    # the reengaging player's troops first, lower numbers first; (450, 850) was on B1's new place
    assert state.troops[B][0] == Troop(450, 800, 6) and state.troops[B][2] == Troop(600, 850, 1)
    assert state.troops[A][5] == Troop(880, 880, 5)
    assert state.stage == "action" and bones.to_act(state) == A and state.turn == 1


def test_setup_reengage_may_pick_nothing():
    state, _ = play(setup_position(A), Choose("reengage"))
    state, _ = play(state, Reengage((), ()))
    assert state.stage == "action" and state.player == B and state.turn == 1


# ----- a turn -----
def test_turn_is_exactly_one_action_then_the_other_player_acts():
    state = battlefield({0: (100, 100, 2), 1: (300, 300, 4)}, {0: (800, 800, 3)})
    kinds = {type(c) for c in bones.legal_commands(state)}
    assert kinds == {Reinforce, Resupply, Converge}  # nothing in range: no attack
    state, _ = play(state, Resupply(0))
    assert state.player == B and state.turn == 2 and state.stage == "action"


# ----- attack -----
def duel(a_face=4, b_face=2, supply=(0, 0), **more):
    return battlefield({0: (400, 400, a_face), 1: (100, 100, 1)}, {0: (500, 400, b_face), 1: (400, 500, 3), 2: (850, 850, 6)},
                       supply=supply, **more)


def test_attack_strengths_add_up_to_the_firepower_each_against_an_enemy_in_range():
    state = duel()
    with pytest.raises(IllegalCommand, match="add up to the firepower, 4"):
        bones.decide(state, Attack(0, ((0, 2), (1, 1))))
    with pytest.raises(IllegalCommand, match="at least 1"):
        bones.decide(state, Attack(0, ((0, 5), (1, -1))))
    with pytest.raises(IllegalCommand, match="out of range"):
        bones.decide(state, Attack(0, ((2, 4),)))
    with pytest.raises(IllegalCommand, match="out of play"):
        bones.decide(state, Attack(5, ((0, 4),)))
    # several attacks on one troop together with another target: legal, sorted by target
    assert bones.decide(state, Attack(0, ((1, 1), (0, 1), (0, 2)))) == (bones.AttackDeclared(A, 0, ((0, 2), (0, 1), (1, 1))),)
    offered = {c.attacks for c in bones.legal_commands(state) if isinstance(c, Attack) and c.troop == 0}
    assert ((0, 4),) in offered and ((0, 3), (1, 1)) in offered and ((0, 2), (0, 1), (0, 1)) in offered


def test_attack_value_is_roll_plus_strength_and_a_margin_at_or_above_firepower_slays():
    # 5 + 4 = 9 against 1 + 2 = 3: margin 6 >= 2
    state, events = play(duel(), Attack(0, ((0, 4),)), (5,), (1,))
    assert face(state, B, 0) is None and state.last[2][0] == bones.PairResult(4, 5, 1, 2, 6, "slain")
    assert state.player == B and state.turn == 2


def test_attack_a_margin_above_zero_below_firepower_does_one_damage_and_zero_or_less_holds():
    # 1 + 4 = 5 against 2 + 2 = 4: margin 1 < 2: one damage
    state, _ = play(duel(), Attack(0, ((0, 4),)), (1,), (2,))
    assert face(state, B, 0) == 1 and state.troops[B][0].x == 500  # a damaged die keeps its place
    # 1 + 4 = 5 against 3 + 2 = 5: margin 0: held
    state, _ = play(duel(), Attack(0, ((0, 4),)), (1,), (3,))
    assert face(state, B, 0) == 2 and state.last[2][0].effect == "held"


def test_attack_pairs_are_judged_against_the_firepower_when_attacked_then_damage_is_applied():
    # B1 has firepower 3; two attacks of 2: each 2 + 2 = 4 against 1 + 3 = 4 ... use rolls 3 and 4
    state = duel(a_face=4, b_face=3)
    state, _ = play(state, Attack(0, ((0, 2), (0, 2))), (3, 4), (1, 1))
    # margins 5-4=1 and 6-4=2, both below 3 (the firepower when attacked): two damage, 3 -> 1
    assert [p.effect for p in state.last[2]] == ["damage", "damage"] and face(state, B, 0) == 1


def test_attack_a_troop_reduced_to_zero_is_removed():
    state = duel(a_face=4, b_face=2)
    state, _ = play(state, Attack(0, ((0, 2), (0, 2))), (2, 2), (1, 1))
    # margins 4-3=1 and 1: one damage each, 2 -> 0: removed
    assert [p.effect for p in state.last[2]] == ["damage", "damage"] and face(state, B, 0) is None


def test_attack_the_defender_assigns_the_defence_dice_during_the_attackers_turn():
    state, events = play(duel(a_face=4, b_face=2), Attack(0, ((0, 3), (0, 1))), (6, 2), (6, 1))
    assert state.stage == "assign" and bones.to_act(state) == B and state.player == A
    assert bones.legal_commands(state) == [Assign((0, 1)), Assign((1, 0))]
    with pytest.raises(IllegalCommand, match="assign each of the 2"):
        bones.decide(state, Assign((0, 0)))
    # attacks 9 and 3; the 6 against the 9: 9-8=1 damage, the 1 against the 3: 3-3=0 held
    good, _ = play(state, Assign((0, 1)))
    assert face(good, B, 0) == 1
    # the other way round: 9-3=6 slays
    bad, _ = play(state, Assign((1, 0)))
    assert face(bad, B, 0) is None


def test_attack_dice_are_assigned_without_asking_when_it_cannot_matter():
    state, _ = play(duel(a_face=4, b_face=2), Attack(0, ((0, 2), (0, 2))), (3, 3), (5, 1))  # equal attack values
    assert state.stage == "action" and state.player == B
    state, _ = play(duel(a_face=4, b_face=2), Attack(0, ((0, 3), (0, 1))), (3, 5), (4, 4))  # equal defence dice
    assert state.stage == "action" and state.player == B


def test_attack_is_resolved_target_by_target_in_order():
    state, events = play(duel(a_face=4, b_face=2), Attack(0, ((1, 1), (0, 3))), (6,), (1,), (6,), (6,))
    rolled = [e for e in events if isinstance(e, (bones.AttackRolled, bones.DefenceRolled))]
    assert [(type(e).__name__, e.target) for e in rolled] == [
        ("AttackRolled", 0), ("DefenceRolled", 0), ("AttackRolled", 1), ("DefenceRolled", 1)]
    # B1: 6+3 vs 1+2: slain. B2 (firepower 3): 6+1 vs 6+3: held
    assert face(state, B, 0) is None and face(state, B, 1) == 3


# ----- supply -----
def test_supply_the_attacker_may_reroll_an_attack_die_before_the_defender_rolls():
    state, _ = play(duel(supply=(2, 0)), Attack(0, ((0, 4),)), (1,))
    assert state.stage == "attack_reroll" and bones.to_act(state) == A
    assert bones.legal_commands(state) == [Keep(), Reroll(0)]
    state, events = play(state, Reroll(0), (2,))
    assert state.supply == (1, 0) and state.attack.rolls == (2,) and state.stage == "attack_reroll"
    state, events = play(state, Reroll(0), (6,))  # the same die again, while supply lasts
    assert state.supply == (0, 0) and state.attack.rolls == (6,) and state.stage == "defence_roll"


def test_supply_without_supply_there_is_no_offer():
    state, _ = play(duel(), Attack(0, ((0, 4),)), (1,))
    assert state.stage == "defence_roll"
    state, _ = play(duel(supply=(0, 1)), Reinforce(1), (1,))  # B's supply does not help A
    assert state.stage == "action" and state.player == B


def test_supply_the_defender_may_reroll_defence_dice_then_assigns():
    state, _ = play(duel(supply=(0, 1)), Attack(0, ((0, 3), (0, 1))), (6, 2), (1, 6))
    assert state.stage == "defence_reroll" and bones.to_act(state) == B
    with pytest.raises(IllegalCommand, match="there are 2 dice"):
        bones.decide(state, Reroll(2))
    state, events = play(state, Reroll(0), (6,))
    assert state.supply == (0, 0) and events[1] == bones.DieRerolled(B, "defence", 0, 6)
    # equal defence dice: assigned at once: 9-8=1 damage, 3-8 held
    assert face(state, B, 0) == 1 and state.stage == "action"


def test_supply_keep_ends_the_offer():
    state, _ = play(duel(supply=(3, 0)), Attack(0, ((0, 4),)), (4,))
    state, _ = play(state, Keep(), (1,))
    assert state.supply == (3, 0) and face(state, B, 0) is None


# ----- reinforce -----
def reinforcing(a_face=2, count=3, supply=(0, 0)):
    a = {0: (400, 400, a_face)}
    a.update({t: (100 + 80 * t, 100, 1) for t in range(1, count)})
    return battlefield(a, {0: (800, 800, 3)}, supply=supply)


def test_reinforce_a_higher_roll_may_roll_the_troop_back_in_with_a_new_face_and_place():
    state, _ = play(reinforcing(a_face=2), Reinforce(0), (3,))
    assert state.stage == "reinforce_choice" and bones.legal_commands(state) == [RollIn(False, False), RollIn(True, False)]
    moved, _ = play(state, RollIn(True, False), (600, 600, 5))
    assert moved.troops[A][0] == Troop(600, 600, 5) and moved.player == B
    kept, _ = play(state, RollIn(False, False))
    assert kept.troops[A][0] == Troop(400, 400, 2) and kept.player == B


def test_reinforce_higher_means_strictly_higher():
    state, _ = play(reinforcing(a_face=3), Reinforce(0), (3,))
    assert state.stage == "action" and state.player == B  # nothing to choose: the turn is over
    state, _ = play(reinforcing(a_face=6, count=8), Reinforce(0), (6,))
    assert state.stage == "action" and state.player == B  # a 6 is not higher than 6, and 8 are in play


def test_reinforce_on_a_six_an_extra_troop_out_of_play_may_roll_in_if_fewer_than_eight_are_in_play():
    state, _ = play(reinforcing(a_face=2, count=3), Reinforce(0), (6,))
    assert len(bones.legal_commands(state)) == 4
    state, events = play(state, RollIn(True, True), (600, 600, 5), (700, 300, 2))
    # the troop first, then the lowest-numbered troop out of play (A4)
    assert events[0] == bones.ReinforcementsTaken(A, 0, 3)
    assert state.troops[A][0] == Troop(600, 600, 5) and state.troops[A][3] == Troop(700, 300, 2)
    state, _ = play(reinforcing(a_face=6, count=3), Reinforce(0), (6,))
    assert bones.legal_commands(state) == [RollIn(False, False), RollIn(False, True)]
    with pytest.raises(IllegalCommand, match="not higher"):
        bones.decide(state, RollIn(True, True))


def test_reinforce_roll_may_be_rerolled_with_supply():
    state, _ = play(reinforcing(a_face=4, supply=(1, 0)), Reinforce(0), (2,))
    assert state.stage == "reinforce_reroll"
    state, _ = play(state, Reroll(0), (5,))
    assert state.supply == (0, 0) and state.reinforce_face == 5 and state.stage == "reinforce_choice"


# ----- resupply -----
def test_resupply_takes_a_troop_out_and_adds_its_face_to_supply_at_most_six():
    state = battlefield({0: (100, 100, 5), 1: (300, 300, 4)}, {0: (800, 800, 3)}, supply=(3, 0))
    state, events = play(state, Resupply(1))
    assert events == [bones.Resupplied(A, 1, 4)] and state.supply == (6, 0) and state.troops[A][1] is None


# ----- converge -----
def converging(side=900):
    return battlefield({0: (50, 450, 3), 1: (450, 450, 2)}, {0: (450, 860, 4), 1: (600, 600, 1)}, side=side)


def test_converge_the_first_does_nothing_the_answer_shrinks_the_area_and_rolls_outside_troops_back_in():
    state, _ = play(converging(), Converge())
    assert state.converge_by == A and state.side == 900 and state.player == B
    state, events = play(state, Converge(), (300, 300, 6), (700, 700, 1))
    assert state.side == 700 and bones.area_bounds(state) == (100, 800) and state.converge_by is None
    assert events[1:] == [bones.TroopLanded(A, 0, 300, 300, 6), bones.TroopLanded(B, 0, 700, 700, 1)]
    assert state.troops[A][1] == Troop(450, 450, 2) and state.player == A and state.turn == 3


def test_converge_the_answer_does_not_start_a_new_converge():
    state, _ = play(converging(), Converge())
    state, _ = play(state, Converge(), (300, 300, 6), (700, 700, 1))
    state, _ = play(state, Converge())
    assert state.side == 700 and state.converge_by == A


def test_converge_any_other_answer_wastes_it():
    state, _ = play(converging(), Converge())
    state, _ = play(state, Resupply(1))
    assert state.converge_by is None
    state, _ = play(state, Converge())
    assert state.converge_by == A and state.side == 900


def test_converge_nine_seven_five_three_and_no_smaller_edge_is_inside():
    state = converging(side=500)
    state, _ = play(state, Converge())
    # area 3": 300..600; A2 at (450, 450) and B2 at (600, 600) (on the edge) stay
    state, events = play(state, Converge(), (400, 400, 2), (500, 500, 2))
    assert state.side == 300 and state.troops[B][1] == Troop(600, 600, 1)
    assert [e for e in events if isinstance(e, bones.TroopLanded)] == [
        bones.TroopLanded(A, 0, 400, 400, 2), bones.TroopLanded(B, 0, 500, 500, 2)]
    state, _ = play(state, Converge())
    state, events = play(state, Converge())
    assert state.side == 300 and events == [bones.Converged(B)]


# ----- victory -----
def test_victory_a_player_with_no_troops_in_the_area_at_the_end_of_a_turn_loses():
    state = battlefield({0: (400, 400, 4)}, {0: (500, 400, 1)})
    state, events = play(state, Attack(0, ((0, 4),)), (6,), (1,))
    assert state.stage == "over" and bones.outcome(state).winners == (A,)
    assert bones.to_act(state) is None and bones.legal_commands(state) == []
    with pytest.raises(IllegalCommand, match="over"):
        bones.decide(state, Converge())


def test_victory_resupplying_the_last_troop_loses():
    state = battlefield({0: (400, 400, 4)}, {0: (800, 800, 1)})
    state, _ = play(state, Resupply(0))
    assert bones.outcome(state).winners == (B,)


def test_victory_both_without_troops_is_a_draw():
    state = battlefield({0: (400, 400, 4)}, {})  # not reachable in play; the rule still holds
    state, _ = play(state, Resupply(0))
    result = bones.outcome(state)
    assert result.winners == () and "draw" in result.summary


# ----- no pre-measuring -----
def test_no_premeasure_an_attack_on_a_target_out_of_range_is_allowed_but_misses():
    state = duel(no_premeasure=True)
    assert 2 in bones.targets_of(state, A, 0)
    state, events = play(state, Attack(0, ((0, 2), (2, 2))), (6,), (1,))
    assert "out of range, missed: B#3" in bones.describe(duel(no_premeasure=True), events[0])
    assert face(state, B, 2) == 6 and face(state, B, 0) is None and state.player == B
    alone, events = play(duel(no_premeasure=True), Attack(0, ((2, 4),)))
    assert len(events) == 1 and alone.player == B


def test_options_are_checked():
    assert bones.check_options({}) == {"no_premeasure": False}
    with pytest.raises(ValueError, match="unknown option"):
        bones.check_options({"fog": True})
    with pytest.raises(ValueError, match="two players"):
        bones.check_players((Player("a"),))
    with pytest.raises(ValueError, match="the bot plays"):
        bones.check_players((Player("a"), Player("b", True, "genius")))
    assert bones.check_players((Player("a"), Player("b", True)))[1].style == "general"


# ----- text -----
def test_rules_text_fits_74_columns_and_names_dicehalls_decisions():
    assert all(len(line) <= 74 for line in bones.RULES_TEXT.splitlines())
    assert "dicehall's decisions" in bones.RULES_TEXT and "strictly higher" in bones.RULES_TEXT


def test_commands_print_and_parse_back():
    for command in (Choose("first strike"), Reengage((0, 2), (5,)), Attack(2, ((1, 2), (4, 4))), Reroll(1), Keep(),
                    Assign((1, 0, 2)), Reinforce(3), RollIn(True, False), RollIn(False, False), Resupply(7), Converge()):
        assert bones.parse_command(str(command)) == command
    with pytest.raises(IllegalCommand, match="not a War of Bones command"):
        bones.parse_command("charge!")


# ----- whole games -----
def random_game(seed: int, no_premeasure: bool = False) -> Session:
    s = Session(bones, seed=seed, options={"no_premeasure": no_premeasure}, players=[Player("Ann"), Player("Bob")])
    rng = random.Random(seed)
    for _ in range(5000):
        if s.outcome is not None:
            break
        s.play(rng.choice(s.commands()))
    return s


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_random_legal_playouts_end_and_the_fold_of_the_events_is_the_state(seed, no_premeasure):
    s = random_game(seed, no_premeasure)
    assert s.outcome is not None
    state = bones.initial_state(s.options, s.players)
    for event in s.events:
        assert bones.describe(state, event)
        state = bones.evolve(state, event)
        assert decode_event(encode_event(event), bones.EVENTS) == event
    assert state == s.state and digest(state) == digest(s.state)
    for dice in state.dice_in_area():
        low, high = bones.area_bounds(state)
        assert low <= dice.x <= high and low <= dice.y <= high


def test_every_decision_event_is_the_command_it_came_from():
    s = random_game(11)
    for mark in s.marks:
        event = s.events[mark.start]
        assert bones.decide(s.state_at(mark.start), bones.command_of(event))[0] == event


def test_undo_takes_back_a_decision_and_its_dice_and_replays_the_same_dice():
    s2 = Session(bones, seed=5, players=[Player("Ann"), Player("Bob")])
    rng = random.Random(1)
    for _ in range(10):
        s2.play(rng.choice(s2.commands()))
    before = s2.events
    s2.undo()
    assert len(s2.events) < len(before)
    s2.redo()
    assert s2.events == before


def test_replays_round_trip(tmp_path):
    s = random_game(21)
    path = replays.write_replay(s, tmp_path / "bones.dhr")
    back = replays.read_replay(path)
    assert back.events == s.events and back.state == s.state and back.outcome == s.outcome
