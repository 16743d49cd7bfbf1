"""Supply: rerolls bought with it, right after each roll, and resupply, the action that fills it.

After attack, defence or reinforce dice are rolled (or rerolled), the player who rolled them is
offered a reroll while they have supply: 1 supply rerolls one of those dice, the same one again if
they like, before anything is resolved. Keeping the dice goes on to what they were rolled for
(`dice_kept`). Resupply takes a troop out of play and adds its face to the supply, up to 6.
"""
from __future__ import annotations

from dicehall.engine.core import IllegalCommand
from dicehall.engine.games.bones.actions import reinforce_die_kept
from dicehall.engine.games.bones.attack import attack_dice_kept, defence_dice_kept
from dicehall.engine.games.bones.commands import Keep, Reroll, Resupply
from dicehall.engine.games.bones.events import (AttackRolled, DefenceRolled, DiceKept, DieRerolled, ReinforceRolled,
                                       RerollCalled, Resupplied)
from dicehall.engine.games.bones.state import BonesState, end_turn, set_troop, troop_in_play
from dicehall.engine.session import replace

MAX_SUPPLY = 6
REROLL_STAGES = ("attack_reroll", "defence_reroll", "reinforce_reroll")


def current_dice(state: BonesState, kind: str) -> tuple[int, ...]:
    if kind == "attack":
        assert state.attack is not None  # the dice of the attack under way
        return state.attack.rolls
    if kind == "defence":
        assert state.attack is not None
        return state.attack.defence
    return (state.reinforce_face,)


def reroll_choices(state: BonesState) -> list[object]:
    kind = state.stage.split("_")[0]
    return [Keep()] + [Reroll(i) for i in range(len(current_dice(state, kind)))]


# ----- deciding -----
def reroll_or_keep(state: BonesState, seat: int, command: Reroll | Keep) -> tuple[object, ...]:
    if state.stage not in REROLL_STAGES:
        raise IllegalCommand("a reroll is offered only right after you roll, while you have supply")
    kind = state.stage.split("_")[0]
    if isinstance(command, Keep):
        return (DiceKept(seat, kind),)
    dice = current_dice(state, kind)
    if not isinstance(command.index, int) or not 0 <= command.index < len(dice):
        raise IllegalCommand(f"there are {len(dice)} dice to reroll: pick 1 to {len(dice)}")
    return (RerollCalled(seat, kind, command.index),)


def resupply(state: BonesState, seat: int, command: Resupply) -> tuple[object, ...]:
    troop = troop_in_play(state, seat, command.troop, "resupply with")
    return (Resupplied(seat, command.troop, troop.face),)


# ----- the fold -----
def offer(state: BonesState, kind: str) -> BonesState:
    """After `kind` dice are rolled (or rerolled): a reroll offer while the roller has supply."""
    seat = 1 - state.player if kind == "defence" else state.player
    if state.supply[seat] > 0:
        return replace(state, stage=f"{kind}_reroll")
    return dice_kept(state, kind)


def dice_kept(state: BonesState, kind: str) -> BonesState:
    """The `kind` dice are final: on to what they were rolled for."""
    if kind == "attack":
        return attack_dice_kept(state)
    if kind == "defence":
        return defence_dice_kept(state)
    return reinforce_die_kept(state)


def spend(state: BonesState, seat: int) -> BonesState:
    supply = list(state.supply)
    supply[seat] -= 1
    return replace(state, supply=tuple(supply))


def attack_rolled(state: BonesState, event: AttackRolled) -> BonesState:
    return offer(replace(state, attack=replace(state.attack, rolls=event.faces)), "attack")


def defence_rolled(state: BonesState, event: DefenceRolled) -> BonesState:
    return offer(replace(state, attack=replace(state.attack, defence=event.faces)), "defence")


def reinforce_rolled(state: BonesState, event: ReinforceRolled) -> BonesState:
    return offer(replace(state, reinforce_face=event.face), "reinforce")


def reroll_called(state: BonesState, event: RerollCalled) -> BonesState:
    return replace(spend(state, event.seat), stage="reroll", reroll=(event.kind, event.index))


def die_rerolled(state: BonesState, event: DieRerolled) -> BonesState:
    state = replace(state, reroll=("", 0))
    if event.kind == "reinforce":
        state = replace(state, reinforce_face=event.face)
    else:
        field = "rolls" if event.kind == "attack" else "defence"
        dice = list(getattr(state.attack, field))
        dice[event.index] = event.face
        state = replace(state, attack=replace(state.attack, **{field: tuple(dice)}))
    return offer(state, event.kind)


def kept(state: BonesState, event: DiceKept) -> BonesState:
    return dice_kept(state, event.kind)


def resupplied(state: BonesState, event: Resupplied) -> BonesState:
    supply = list(state.supply)
    supply[event.seat] = min(MAX_SUPPLY, supply[event.seat] + event.face)
    state = replace(set_troop(state, event.seat, event.troop, None), supply=tuple(supply), converge_by=None)
    return end_turn(state)
