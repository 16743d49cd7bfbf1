"""The War of Bones bot: a "general" for both roles, and a random legal player.

- random: a uniformly random legal command (the baseline for `dicehall sim bones`).
- general: weighs every decision in one currency, troop value: a troop with face f is worth
  2 + f (being in the area at all is what wins), a removed troop 0, and one point of supply
  SUPPLY_VALUE.
  * Acting, it scores each legal command. An attack scores the enemy's expected loss: for every
    target, the chance of each result (slain, 1, 2, ... damage) of the attacks aimed at it, computed
    exactly over every attack and defence roll with the defender assigning its dice as well as it
    can (for one or two attacks on a target; three or more are sampled, 400 fixed draws, which is
    rare and cheap). From that it subtracts the risk it leaves: the best expected loss any enemy
    troop can inflict on one of ours next turn, weighted by the chance that troop survives this
    attack. Reinforce scores the expected gain of rolling a weak or idle (nothing in range) troop
    back in and of the extra troop on a 6 (a 6 with no extra troop to hope for is a wasted turn);
    resupply the supply gained (each point worth the rerolls it buys: more with an attack in range,
    less for every point already held) against the troop lost (its life worth less while many
    are in play, its firepower half while nothing is in its range); converge the expected change
    of every troop that would be rolled back in plus a bonus for every idle troop the smaller area
    brings closer to the fight (a first converge scores half that: it needs an answer).
  * Defending, it assigns the defence dice exactly: every permutation, the least loss.
  * Rerolls: after each of its rolls (attack, defence or reinforce) it compares the expected
    result of keeping the dice with that of rerolling each die (exact over the die's six faces and
    the opponent's dice still to come) and spends 1 supply when the best gain is worth more than
    SUPPLY_VALUE.
The bot reads positions exactly (it measures ranges even with no_premeasure).
`choose(state, level, seed, nonce)`: `seed` and `nonce` decide the random player's picks and the
general's choice among equal commands, so a game replays identically.
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache
from hashlib import blake2b

from dicehall.engine.bots import levelled_bots
from dicehall.engine.chance import seeded_draw
from dicehall.engine.contract import Bot
from dicehall.engine.games import bones
from dicehall.engine.games.bones import (
    LEVELS, Assign, Attack, BonesState, Choose, Converge, Keep, Reengage, Reinforce, Reroll, Resupply, RollIn, in_range,
)  # the game names the levels (LEVELS); they are played here

SUPPLY_VALUE = 0.35
NEW_TROOP = 2 + 3.5  # the value of a troop rolled in with a random face
IDLE_BONUS = 1.0  # a troop with nothing in range gains this much by being rolled in elsewhere
SAMPLES = 400
WASTED = 0.05  # a turn that changes nothing
POINT_BASE = 1.0  # a supply point's worth for the rerolls it buys later in the game
POINT_DECAY = 0.8  # each point held makes the next worth less
ENGAGE = 0.4  # an idle troop brought closer to the fight by a converge
FACES = range(1, 7)


def worth(face: int) -> float:
    return 0.0 if face <= 0 else 2.0 + face


def loss_of(firepower: int, effects: tuple[str, ...]) -> float:
    """The defender's loss in troop value when these pair effects hit a troop of this firepower."""
    damage = sum(1 for e in effects if e == "damage")
    if "slain" in effects or firepower - damage <= 0:
        return worth(firepower)
    return worth(firepower) - worth(firepower - damage)


def effect(strength: int, roll: int, defence: int, firepower: int) -> str:
    margin = roll + strength - (defence + firepower)
    return "slain" if margin >= firepower else "damage" if margin > 0 else "held"


PAIR_COST = {"slain": 100, "damage": 1, "held": 0}


def best_assignment(strengths: tuple[int, ...], rolls: tuple[int, ...], defence: tuple[int, ...],
                    firepower: int) -> tuple[float, tuple[int, ...]]:
    """The defender's least loss and the assignment (defence die per attack) that gives it.

    The loss only grows with (any pair slays, number of damaging pairs), so it is enough to
    minimise the sum of pair costs (100 a slay, 1 a damage): a dynamic programme over the
    subsets of defence dice used, exact and fast for six dice."""
    count = len(strengths)
    cost = [[PAIR_COST[effect(strengths[a], rolls[a], defence[d], firepower)] for d in range(count)]
            for a in range(count)]
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for a in range(count):
        step: dict[int, tuple[int, tuple[int, ...]]] = {}
        for mask, (total, order) in best.items():
            for d in range(count):
                if not mask >> d & 1:
                    candidate = (total + cost[a][d], order + (d,))
                    key = mask | 1 << d
                    if key not in step or candidate < step[key]:
                        step[key] = candidate
        best = step
    total, order = best[(1 << count) - 1]
    effects = tuple(effect(strengths[a], rolls[a], defence[order[a]], firepower) for a in range(count))
    return loss_of(firepower, effects), order


@lru_cache(maxsize=None)
def _defended_loss(strengths: tuple[int, ...], rolls: tuple[int, ...], firepower: int) -> tuple[float, float]:
    """(expected loss, chance slain or removed) once the attack dice are known, over the defence roll."""
    count = len(strengths)
    if count <= 3:
        total = killed = 0.0
        for defence in itertools.product(FACES, repeat=count):
            loss, _ = best_assignment(strengths, rolls, defence, firepower)
            total += loss
            killed += loss == worth(firepower)
        n = 6 ** count
        return total / n, killed / n
    rng = random.Random(_stable_seed((strengths, rolls, firepower)))
    total = killed = 0.0
    for _ in range(SAMPLES // 4):
        defence = tuple(_die(rng) for _ in range(count))
        loss, _ = best_assignment(strengths, rolls, defence, firepower)
        total += loss
        killed += loss == worth(firepower)
    return total / (SAMPLES // 4), killed / (SAMPLES // 4)


@lru_cache(maxsize=None)
def attack_value(strengths: tuple[int, ...], firepower: int) -> tuple[float, float]:
    """(expected loss, chance removed) of a troop with this firepower facing attacks of these
    strengths: exact for one or two attacks, sampled for more."""
    strengths = tuple(sorted(strengths, reverse=True))
    count = len(strengths)
    if count <= 2:
        total = killed = 0.0
        for rolls in itertools.product(FACES, repeat=count):
            loss, kill = _defended_loss(strengths, rolls, firepower)
            total += loss
            killed += kill
        n = 6 ** count
        return total / n, killed / n
    rng = random.Random(_stable_seed((strengths, firepower)))
    total = killed = 0.0
    for _ in range(SAMPLES):
        rolls = tuple(_die(rng) for _ in range(count))
        defence = tuple(_die(rng) for _ in range(count))
        loss, _ = best_assignment(strengths, rolls, defence, firepower)
        total += loss
        killed += loss == worth(firepower)
    return total / SAMPLES, killed / SAMPLES


def _stable_seed(key: tuple) -> int:
    """A seed from a tuple of ints that is the same on every Python version (hash() need not be)."""
    return int.from_bytes(blake2b(repr(key).encode(), digest_size=8).digest(), "big")


def _die(rng: random.Random) -> int:
    """A sampled d6 face from random(), the one method Python promises to keep the same."""
    return 1 + int(rng.random() * 6)


# ----- reading the battlefield -----
def threats(state: BonesState, attacker: int) -> dict[int, float]:
    """For each troop of `attacker`: the best expected loss its full-strength attack on one troop in
    range can inflict (0 if nothing is in range)."""
    found = {}
    enemy = state.troops[1 - attacker]
    for t in state.in_play(attacker):
        mine = state.troop(attacker, t)
        best = 0.0
        for other in enemy:
            if other is not None and in_range(mine, other, mine.face):
                best = max(best, attack_value((mine.face,), other.face)[0])
        found[t] = best
    return found


def idle(state: BonesState, seat: int, troop: int) -> bool:
    mine = state.troop(seat, troop)
    return not any(o is not None and in_range(mine, o, mine.face) for o in state.troops[1 - seat])


@lru_cache(maxsize=4096)  # the general scores every attack of every turn: the same few splits of dice over and over
def _groups(attacks: tuple[tuple[int, int], ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each target of an attack (in the order first attacked) with its attack dice, strongest first."""
    groups: dict[int, list[int]] = {}
    for target, strength in attacks:
        groups.setdefault(target, []).append(strength)
    return tuple((t, tuple(sorted(s, reverse=True))) for t, s in groups.items())


def score_attack(state: BonesState, seat: int, command: Attack, danger: dict[int, float]) -> float:
    enemy = state.troops[1 - seat]
    gained = 0.0
    survive = dict.fromkeys(danger, 1.0)
    mine = state.troop(seat, command.troop)
    for target, strengths in _groups(command.attacks):
        other = enemy[target]
        assert other is not None  # an attack's targets are in the area
        if not in_range(mine, other, mine.face):
            continue  # no_premeasure: a miss
        loss, kill = attack_value(strengths, other.face)
        gained += loss
        survive[target] = 1.0 - kill
    risk = max((survive[t] * d for t, d in danger.items()), default=0.0)
    return gained - risk


def score_reinforce(state: BonesState, seat: int, troop: int) -> float:
    face = state.troop(seat, troop).face
    bonus = IDLE_BONUS if idle(state, seat, troop) else 0.0
    back = max(0.0, NEW_TROOP - worth(face) + bonus)
    extra = NEW_TROOP if len(state.in_play(seat)) < bones.TROOPS else 0.0
    value = sum((back if roll > face else 0.0) + (extra if roll == 6 else 0.0) for roll in FACES) / 6
    # a 6 never rolls back in: with no extra troop to hope for, reinforcing it is a wasted turn
    return value if value > 0 else -WASTED


@lru_cache(maxsize=None)  # 6 x 6 pairs
def _attack_reroll_gain(strength: int, firepower: int) -> float:
    """The expected gain of one attack-die reroll offer (taken only when worth it)."""
    total = 0.0
    mean = sum(_defended_loss((strength,), (f,), firepower)[0] for f in FACES) / 6
    for roll in FACES:
        gain = mean - _defended_loss((strength,), (roll,), firepower)[0]
        total += gain if gain > SUPPLY_VALUE else 0.0
    return total / 6


def point_value(state: BonesState, seat: int) -> float:
    """What one more point of supply is worth here: the rerolls it makes possible. A base for the
    rerolls it buys over the game, plus the best gain one reroll brings to an attack now in range."""
    best = 0.0
    enemy = state.troops[1 - seat]
    for t in state.in_play(seat):
        mine = state.troop(seat, t)
        for other in enemy:
            if other is not None and in_range(mine, other, mine.face):
                best = max(best, _attack_reroll_gain(mine.face, other.face))
    return POINT_BASE + best


def supply_value(state: BonesState, seat: int, gained: int) -> float:
    """The value of `gained` more supply points: each point worth less than the one before."""
    per = point_value(state, seat)
    have = state.supply[seat]
    return sum(per * POINT_DECAY ** (have + k) for k in range(gained))


def score_resupply(state: BonesState, seat: int, troop: int) -> float:
    face = state.troop(seat, troop).face
    count = len(state.in_play(seat))
    if count == 1:
        return -1000.0  # the last troop: resupplying it loses the game
    gained = min(bones.MAX_SUPPLY, state.supply[seat] + face) - state.supply[seat]
    # the troop's cost: a life (worth less while many are in play) and its firepower (worth half
    # while nothing is in its range)
    life = (worth(face) - face) * min(1.0, 3 / count)
    firepower = face * (0.5 if idle(state, seat, troop) else 1.0)
    return supply_value(state, seat, gained) - life - firepower


def shrink_value(state: BonesState, seat: int) -> float:
    """The expected change for `seat` if the area shrank now: every troop outside the smaller area is
    rolled back in (ours gain or lose, theirs the opposite), and every idle troop comes closer to
    the fight (good for both sides: a stalled game moves on)."""
    if state.side <= bones.SMALLEST:
        return 0.0
    low = (bones.FULL - state.side + bones.SHRINK) // 2
    high = low + state.side - bones.SHRINK
    total = 0.0
    for side in (0, 1):
        for t, troop in enumerate(state.troops[side]):
            if troop is None:
                continue
            lazy = idle(state, side, t)
            total += ENGAGE if lazy else 0.0
            if not (low <= troop.x <= high and low <= troop.y <= high):
                change = NEW_TROOP - worth(troop.face) + (IDLE_BONUS if lazy else 0.0)
                total += change if side == seat else -change
    return total


def score_converge(state: BonesState, seat: int) -> float:
    if state.side <= bones.SMALLEST:
        return -WASTED  # nothing can happen
    if state.converge_by == 1 - seat:
        return shrink_value(state, seat)
    # a first converge: worth what the shrink would bring, if the opponent answers (half the time)
    return 0.5 * shrink_value(state, seat) - WASTED


def act(state: BonesState, seat: int, commands: list) -> object:
    danger = threats(state, 1 - seat)
    base_risk = max(danger.values(), default=0.0)
    best, best_score = None, None
    for command in commands:
        if isinstance(command, Attack):
            value = score_attack(state, seat, command, danger)
        elif isinstance(command, Reinforce):
            value = score_reinforce(state, seat, command.troop) - base_risk
        elif isinstance(command, Resupply):
            value = score_resupply(state, seat, command.troop) - base_risk
        elif isinstance(command, Converge):
            value = score_converge(state, seat) - base_risk
        else:
            value = 0.0
        if best_score is None or value > best_score + 1e-9:
            best, best_score = command, value
    return best


# ----- rerolls -----
def _attack_expectation(attack, firepower: int, rolls: tuple[int, ...]) -> float:
    return _defended_loss(attack.strengths, rolls, firepower)[0]


def reroll_attack(state: BonesState) -> object:
    attack = state.attack
    assert attack is not None  # the dice of the attack under way
    firepower = state.troop(1 - state.player, attack.target).face
    now = _attack_expectation(attack, firepower, attack.rolls)
    best: Keep | Reroll
    best_gain, best = 0.0, Keep()
    for i in range(len(attack.rolls)):
        mean = sum(_attack_expectation(attack, firepower, attack.rolls[:i] + (f,) + attack.rolls[i + 1:])
                   for f in FACES) / 6
        if mean - now > best_gain:
            best_gain, best = mean - now, Reroll(i)
    return best if best_gain > SUPPLY_VALUE else Keep()


def reroll_defence(state: BonesState) -> object:
    attack = state.attack
    assert attack is not None  # the dice of the attack under way
    firepower = state.troop(1 - state.player, attack.target).face

    def loss(defence):
        return best_assignment(attack.strengths, attack.rolls, defence, firepower)[0]

    now = loss(attack.defence)
    best: Keep | Reroll
    best_gain, best = 0.0, Keep()
    for i in range(len(attack.defence)):
        mean = sum(loss(attack.defence[:i] + (f,) + attack.defence[i + 1:]) for f in FACES) / 6
        if now - mean > best_gain:
            best_gain, best = now - mean, Reroll(i)
    return best if best_gain > SUPPLY_VALUE else Keep()


def _reinforce_outcome(state: BonesState, roll: int) -> float:
    seat, troop = state.player, state.reinforce_troop
    assert troop is not None  # set by the reinforce call
    face = state.troop(seat, troop).face
    bonus = IDLE_BONUS if idle(state, seat, troop) else 0.0
    value = max(0.0, NEW_TROOP - worth(face) + bonus) if roll > face else 0.0
    if roll == 6 and len(state.in_play(seat)) < bones.TROOPS:
        value += NEW_TROOP
    return value


def reroll_reinforce(state: BonesState) -> object:
    now = _reinforce_outcome(state, state.reinforce_face)
    mean = sum(_reinforce_outcome(state, f) for f in FACES) / 6
    return Reroll(0) if mean - now > SUPPLY_VALUE else Keep()


def reinforce_choice(state: BonesState) -> object:
    back, extra = bones.reinforce_options(state)
    seat, troop = state.player, state.reinforce_troop
    assert troop is not None  # set by the reinforce call
    face = state.troop(seat, troop).face
    bonus = IDLE_BONUS if idle(state, seat, troop) else 0.0
    return RollIn(back and NEW_TROOP + bonus > worth(face), extra)


# ----- setup -----
def reengage_gain(state: BonesState, seat: int, choice: Reengage) -> float:
    own = sum(NEW_TROOP - worth(state.troop(seat, t).face) for t in choice.own)
    theirs = sum(worth(state.troop(1 - seat, t).face) - NEW_TROOP for t in choice.theirs)
    return own + theirs


def reengage(state: BonesState, seat: int) -> Reengage:
    return max(bones.reengage_choices(state, seat), key=lambda c: (reengage_gain(state, seat, c), -len(c.own)))


def choose_option(state: BonesState, seat: int) -> Choose:
    best = max(reengage_gain(state, seat, c) for c in bones.reengage_choices(state, seat))
    return Choose("reengage" if best >= 6 else "first strike")


# ----- the entry point -----
def choose(state: BonesState, level: str = "general", seed: int = 0, nonce: int = 0) -> object:
    """The bot's command for the seat to act (the defender during an attack's defence)."""
    seat = bones.to_act(state)
    if seat is None:
        raise ValueError("no one is to act now")
    if level not in LEVELS:
        raise ValueError(f"a War of Bones bot plays {', '.join(LEVELS)}, not {str(level)[:20]!r}")
    commands = bones.legal_commands(state)
    if level == "random":
        return commands[seeded_draw(seed, nonce, len(commands))]
    stage = state.stage
    if stage == "choose":
        return choose_option(state, seat)
    if stage == "reengage":
        return reengage(state, seat)
    if stage == "attack_reroll":
        return reroll_attack(state)
    if stage == "defence_reroll":
        return reroll_defence(state)
    if stage == "assign":
        attack = state.attack
        assert attack is not None  # the defence dice of the attack under way
        firepower = state.troop(seat, attack.target).face
        return Assign(best_assignment(attack.strengths, attack.rolls, attack.defence, firepower)[1])
    if stage == "reinforce_reroll":
        return reroll_reinforce(state)
    if stage == "reinforce_choice":
        return reinforce_choice(state)
    # an action: shuffle first (seeded), so equal scores do not always pick the same command
    for i in range(len(commands) - 1, 0, -1):
        j = seeded_draw(seed, nonce * 1_000 + i, i + 1)
        commands[i], commands[j] = commands[j], commands[i]
    return act(state, seat, commands)


BOTS: dict[str, Bot] = levelled_bots(choose, LEVELS)
