"""Attack and defence: what is in range, how firepower splits into attacks, and the arithmetic.

An attack is resolved target by target, in the order of the target's number: the attacker rolls a
roller per attack on that target (attack value = roll + strength), the defender rolls a die per
attack and assigns them, and each pair is judged: margin = attack value - (defence die + the
defender's firepower); a margin at or above that firepower slays, above 0 does 1 damage. All pairs
on a troop are judged against the firepower it had when attacked. The rerolls in between are
supply.py's.
"""
from __future__ import annotations

import itertools

from dicehall.engine.core import IllegalCommand
from dicehall.engine.games.bones.area import TROOPS, in_range, troop_name
from dicehall.engine.games.bones.commands import Assign, Attack
from dicehall.engine.games.bones.events import AttackDeclared, DefenceAssigned
from dicehall.engine.games.bones.state import AttackInProgress, BonesState, PairResult, end_turn, set_troop, troop_in_play
from dicehall.engine.session import replace


def targets_of(state: BonesState, seat: int, troop: int) -> tuple[int, ...]:
    """The enemy troops in range of `seat`'s `troop` (all enemy troops with no_premeasure)."""
    mine = state.troops[seat][troop]
    if mine is None:
        return ()
    enemy = state.troops[1 - seat]
    return tuple(t for t, other in enumerate(enemy) if other is not None
                 and (state.no_premeasure or in_range(mine, other, mine.face)))


def partitions(total: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """The partitions of `total` into positive parts, largest first (6 -> (6,), (5, 1), ...)."""
    largest = total if largest is None else largest
    if total == 0:
        return [()]
    found = []
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, first):
            found.append((first,) + rest)
    return found


def compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Ordered ways to write `total` as `parts` positive numbers."""
    return [tuple(b - a for a, b in zip((0,) + cut, cut + (total,)))
            for cut in itertools.combinations(range(1, total), parts - 1)]


def attack_splits(firepower: int, targets: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """The practical set of splits legal_commands offers: F split among distinct targets (one
    attack on each), and F split into several attacks on a single target. decide() accepts any
    other legal split too (several attacks on a target alongside others)."""
    found = []
    for count in range(1, min(firepower, len(targets)) + 1):
        for chosen in itertools.combinations(targets, count):
            for strengths in compositions(firepower, count):
                found.append(canonical(tuple(zip(chosen, strengths))))
    for target in targets:
        for parts in partitions(firepower)[1:]:
            found.append(tuple((target, s) for s in parts))
    return found


def canonical(attacks: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Attacks sorted by target, the stronger first on each: the order they are resolved in."""
    return tuple(sorted(attacks, key=lambda a: (a[0], -a[1])))


def assignments(state: BonesState) -> list[Assign]:
    """Every way to set the defence dice against the attacks on the current target."""
    attack = state.attack
    assert attack is not None  # the defence dice of the attack under way
    return [Assign(p) for p in itertools.permutations(range(len(attack.defence)))]


# ----- deciding -----
def declare(state: BonesState, seat: int, command: Attack) -> tuple[object, ...]:
    mine = troop_in_play(state, seat, command.troop, "attack with")
    attacks = tuple(command.attacks)
    if not attacks:
        raise IllegalCommand("an attack needs at least one target")
    enemy = state.troops[1 - seat]
    for pair in attacks:
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)):
            raise IllegalCommand("each attack is a target and a strength")
        target, strength = pair
        if strength < 1:
            raise IllegalCommand("every attack has a strength of at least 1")
        if not 0 <= target < TROOPS or enemy[target] is None:
            raise IllegalCommand(f"there is no enemy troop {target + 1} in the area")
        if not state.no_premeasure and not in_range(mine, state.troop(1 - seat, target), mine.face):
            raise IllegalCommand(f"{troop_name(1 - seat, target)} is out of range of "
                                 f"{troop_name(seat, command.troop)} (range {mine.face})")
    total = sum(s for _, s in attacks)
    if total != mine.face:
        raise IllegalCommand(f"the strengths must add up to the firepower, {mine.face} (they add up to {total})")
    return (AttackDeclared(seat, command.troop, canonical(attacks)),)


def assign(state: BonesState, seat: int, command: Assign) -> tuple[object, ...]:
    if state.stage != "assign":
        raise IllegalCommand("defence dice are assigned by the defender, after they are rolled")
    attack = state.attack
    assert attack is not None  # the assign stage is within an attack
    count = len(attack.defence)
    if sorted(command.dice) != list(range(count)):
        raise IllegalCommand(f"assign each of the {count} defence dice to one attack")
    return (DefenceAssigned(seat, attack.target, tuple(command.dice)),)


# ----- the fold -----
def attack_declared(state: BonesState, event: AttackDeclared) -> BonesState:
    """The attacks grouped by target; an attack on a target out of range (only with no_premeasure)
    is in no group: it misses."""
    mine = state.troop(event.seat, event.troop)
    groups: list[list[int]] = []
    for index, (target, _) in enumerate(event.attacks):
        if not in_range(mine, state.troop(1 - event.seat, target), mine.face):
            continue  # only with no_premeasure: the attack misses
        if groups and event.attacks[groups[-1][0]][0] == target:
            groups[-1].append(index)
        else:
            groups.append([index])
    attack = AttackInProgress(event.troop, mine.face, event.attacks, tuple(tuple(g) for g in groups))
    state = replace(state, attack=attack, converge_by=None)
    return replace(state, stage="attack_roll") if groups else end_turn(state)


def attack_dice_kept(state: BonesState) -> BonesState:
    return replace(state, stage="defence_roll")


def defence_dice_kept(state: BonesState) -> BonesState:
    """The defender assigns the dice, unless every assignment gives the same result (one attack,
    equal defence dice or equal attack values): then they are assigned in order without asking."""
    attack = state.attack
    assert attack is not None  # the defence dice of the attack under way
    if len(set(attack.defence)) == 1 or len({r + s for r, s in zip(attack.rolls, attack.strengths)}) == 1:
        return resolve(state, tuple(range(len(attack.defence))))
    return replace(state, stage="assign")


def judge(strength: int, roll: int, defence: int, firepower: int) -> PairResult:
    margin = roll + strength - (defence + firepower)
    effect = "slain" if margin >= firepower else "damage" if margin > 0 else "held"
    return PairResult(strength, roll, defence, firepower, margin, effect)


def resolve(state: BonesState, dice: tuple[int, ...]) -> BonesState:
    """Judge every pair on the current target, apply the damage, and go on to the next target."""
    attack = state.attack
    assert attack is not None  # resolving is within an attack
    seat = 1 - state.player
    target = attack.target
    troop = state.troop(seat, target)
    pairs = tuple(judge(s, r, attack.defence[d], troop.face) for s, r, d in zip(attack.strengths, attack.rolls, dice))
    damage = sum(1 for p in pairs if p.effect == "damage")
    slain = any(p.effect == "slain" for p in pairs) or troop.face - damage <= 0
    state = set_troop(state, seat, target, None if slain else replace(troop, face=troop.face - damage))
    state = replace(state, last=(seat, target, pairs), resolved=state.resolved + 1)
    if attack.group + 1 < len(attack.groups):
        return replace(state, stage="attack_roll", attack=replace(attack, group=attack.group + 1, rolls=(), defence=()))
    return end_turn(state)


def defence_assigned(state: BonesState, event: DefenceAssigned) -> BonesState:
    return resolve(state, event.dice)

