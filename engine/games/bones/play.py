"""The game as the session drives it: the legal commands, `decide` (a command checked and turned
into events), `evolve` (the fold: one event applied), and the chance the dice and landings bring.

Each is a short dispatch to the module of the rules' section it belongs to: setup.py, attack.py,
supply.py (rerolls and resupply), actions.py (reinforce and converge), landings.py.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from dicehall.engine.core import ChanceNeeded, IllegalCommand
from dicehall.engine.games.bones import actions, attack, landings, setup, supply
from dicehall.engine.games.bones.area import troop_name
from dicehall.engine.games.bones.commands import (Assign, Attack, Choose, Converge, Keep, Reengage, Reinforce, Reroll, Resupply,
                                         RollIn)
from dicehall.engine.games.bones.events import (AttackDeclared, AttackRolled, Converged, DefenceAssigned, DefenceRolled,
                                       DiceKept, DieRerolled, LandingMissed, OptionChosen, Reengaged,
                                       ReinforceCalled, ReinforcementsTaken, ReinforceRolled, RerollCalled,
                                       Resupplied, RolledOff, TroopLanded)
from dicehall.engine.games.bones.state import BonesState, to_act

# what a decision stage waits for, said to a command that does not answer it
WAITING_FOR = {
    "attack_reroll": "reroll an attack die or keep them",
    "defence_reroll": "the defender decides on rerolls now",
    "assign": "the defender assigns the defence dice now",
    "reinforce_reroll": "reroll the reinforce die or keep it",
    "reinforce_choice": "choose which troops roll in",
    "choose": "the roll-off winner chooses Reengage or First Strike",
    "reengage": "the reengaging player picks troops to roll back in",
}


def legal_commands(state: BonesState) -> list[object]:
    stage = state.stage
    seat = to_act(state)
    if seat is None:
        return []
    if stage == "choose":
        return [Choose("reengage"), Choose("first strike")]
    if stage == "reengage":
        return list(setup.reengage_choices(state, seat))  # a list of commands (a bot shuffles it)
    if stage in supply.REROLL_STAGES:
        return supply.reroll_choices(state)
    if stage == "assign":
        return list(attack.assignments(state))
    if stage == "reinforce_choice":
        return list(actions.roll_in_choices(state))
    # an action
    commands: list[object] = []
    for troop in state.in_play(seat):
        commands.extend(_attacks(troop, state.troop(seat, troop).face, attack.targets_of(state, seat, troop)))
    commands.extend(Reinforce(t) for t in state.in_play(seat))
    commands.extend(Resupply(t) for t in state.in_play(seat))
    commands.append(Converge())
    return commands


# the same few (troop, firepower, targets) come up all game, and without premeasuring every living
# enemy is a target, so a six against eight troops has 1,796 splits: kept, not worked out each turn
# (256 of the longest lists are about 20 MB)
@lru_cache(maxsize=256)
def _attacks(troop: int, firepower: int, targets: tuple[int, ...]) -> tuple[Attack, ...]:
    """The Attack commands a troop of this firepower is offered against these targets."""
    return tuple(Attack(troop, split) for split in attack.attack_splits(firepower, targets))


def decide(state: BonesState, command: object) -> tuple[object, ...]:
    if state.stage == "over":
        raise IllegalCommand("the game is over")
    seat = to_act(state)
    if seat is None:
        raise IllegalCommand("the dice are still rolling")
    # the answers to a setup choice or to dice just rolled: each checks it is asked for now
    if isinstance(command, Choose):
        return setup.choose(state, seat, command)
    if isinstance(command, Reengage):
        return setup.reengage(state, seat, command)
    if isinstance(command, (Reroll, Keep)):
        return supply.reroll_or_keep(state, seat, command)
    if isinstance(command, Assign):
        return attack.assign(state, seat, command)
    if isinstance(command, RollIn):
        return actions.take_reinforcements(state, seat, command)
    # the actions: one a turn
    if state.stage != "action":
        raise IllegalCommand(WAITING_FOR.get(state.stage, "not now"))
    if isinstance(command, Attack):
        return attack.declare(state, seat, command)
    if isinstance(command, Reinforce):
        return actions.reinforce(state, seat, command)
    if isinstance(command, Resupply):
        return supply.resupply(state, seat, command)
    if isinstance(command, Converge):
        return actions.converge(state, seat, command)
    raise IllegalCommand("War of Bones commands: attack, reinforce, resupply, converge")


def command_of(event: object) -> object | None:
    """The command a decision event records (the inverse of decide), None for chance events: lets
    a replay match a recorded decision without listing every legal split."""
    if isinstance(event, OptionChosen):
        return Choose("reengage" if event.reengage else "first strike")
    if isinstance(event, Reengaged):
        return Reengage(event.own, event.theirs)
    if isinstance(event, AttackDeclared):
        return Attack(event.troop, event.attacks)
    if isinstance(event, RerollCalled):
        return Reroll(event.index)
    if isinstance(event, DiceKept):
        return Keep()
    if isinstance(event, DefenceAssigned):
        return Assign(event.dice)
    if isinstance(event, ReinforceCalled):
        return Reinforce(event.troop)
    if isinstance(event, ReinforcementsTaken):
        return RollIn(event.troop is not None, event.extra is not None)
    if isinstance(event, Resupplied):
        return Resupply(event.troop)
    if isinstance(event, Converged):
        return Converge()
    return None


# ----- the fold -----
def _missed(state: BonesState, event: LandingMissed) -> BonesState:
    return state  # the landing is drawn again


FOLD: dict[type, Callable[[BonesState, Any], BonesState]] = {  # each takes its own kind of event
    TroopLanded: landings.landed,
    LandingMissed: _missed,
    RolledOff: setup.rolled_off,
    OptionChosen: setup.option_chosen,
    Reengaged: setup.reengaged,
    AttackDeclared: attack.attack_declared,
    AttackRolled: supply.attack_rolled,
    DefenceRolled: supply.defence_rolled,
    RerollCalled: supply.reroll_called,
    DieRerolled: supply.die_rerolled,
    DiceKept: supply.kept,
    DefenceAssigned: attack.defence_assigned,
    ReinforceCalled: actions.reinforce_called,
    ReinforceRolled: supply.reinforce_rolled,
    ReinforcementsTaken: actions.reinforcements_taken,
    Resupplied: supply.resupplied,
    Converged: actions.converged,
}


def evolve(state: BonesState, event: object) -> BonesState:
    apply = FOLD.get(type(event))
    if apply is None:
        raise TypeError(f"not a War of Bones event: {event!r}")
    return apply(state, event)


# ----- chance -----
def chance_needed(state: BonesState) -> ChanceNeeded | None:
    stage = state.stage
    if stage == "landing":
        return landings.landing_needed(state)
    if stage == "rolloff":
        return ChanceNeeded(spec=(6, 6), prompt="the roll-off: A's die, then B's")
    if stage == "attack_roll":
        assert state.attack is not None  # the dice of the attack under way
        count = len(state.attack.groups[state.attack.group])
        return ChanceNeeded(spec=(6,) * count, prompt=f"{count} attack dice on "
                            f"{troop_name(1 - state.player, state.attack.target)}")
    if stage == "defence_roll":
        assert state.attack is not None  # the dice of the attack under way
        count = len(state.attack.rolls)
        return ChanceNeeded(spec=(6,) * count, prompt=f"{count} defence dice for "
                            f"{troop_name(1 - state.player, state.attack.target)}")
    if stage == "reinforce_roll":
        return ChanceNeeded(spec=(6,), prompt="the reinforce roll")
    if stage == "reroll":
        return ChanceNeeded(spec=(6,), prompt=f"the rerolled {state.reroll[0]} die")
    return None


def chance_event(state: BonesState, draws: tuple[int, ...], typed: bool) -> object:
    stage = state.stage
    if stage == "landing":
        return landings.landing_event(state, draws)
    faces = tuple(d + 1 for d in draws)
    if stage == "rolloff":
        return RolledOff(faces[0], faces[1], typed)
    if stage == "attack_roll":
        assert state.attack is not None  # the dice of the attack under way
        return AttackRolled(state.player, state.attack.target, faces, typed)
    if stage == "defence_roll":
        assert state.attack is not None  # the dice of the attack under way
        return DefenceRolled(1 - state.player, state.attack.target, faces, typed)
    if stage == "reinforce_roll":
        return ReinforceRolled(state.player, faces[0], typed)
    if stage == "reroll":
        kind, index = state.reroll
        seat = 1 - state.player if kind == "defence" else state.player
        return DieRerolled(seat, kind, index, faces[0], typed)
    raise ValueError("no chance is pending")


def recorded_draws(state: BonesState, event: object) -> tuple[int, ...]:
    """The draws a recorded outcome stands for, read with the state it happened in: a landing's
    spot is counted from the area's edge (a missed landing had some face: any one gives it)."""
    if isinstance(event, (TroopLanded, LandingMissed)):
        low = landings.area_bounds(state)[0]
        return (event.x - low, event.y - low, event.face - 1 if isinstance(event, TroopLanded) else 0)
    return chance_draws(event)


def chance_draws(event: object) -> tuple[int, ...]:
    if isinstance(event, RolledOff):
        return (event.a - 1, event.b - 1)
    if isinstance(event, (AttackRolled, DefenceRolled)):
        return tuple(f - 1 for f in event.faces)
    if isinstance(event, (ReinforceRolled, DieRerolled)):
        return (event.face - 1,)
    raise TypeError(f"not a typed War of Bones die: {type(event).__name__}")
