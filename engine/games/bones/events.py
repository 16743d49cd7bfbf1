"""The events of War of Bones: what was decided (in the past tense) and what the dice did.

Every random outcome is a chance event drawn by the session: a troop rolled into the area is one
`TroopLanded`, preceded by one `LandingMissed` for every point too close to another die; the
roll-off, attack, defence, reinforce and reroll dice are d6 chance events, which physical dice can
be typed for. The codec checks every field of a loaded event against the annotations here, and
finds the classes by name in EVENTS.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TroopLanded:
    """Chance: troop `troop` of `seat` lands at (x, y) with `face` up."""

    seat: int
    troop: int
    x: int
    y: int
    face: int


@dataclass(frozen=True)
class LandingMissed:
    """Chance: the troop's landing point (x, y) is closer than one die width to another die: rerolled."""

    seat: int
    troop: int
    x: int
    y: int


@dataclass(frozen=True)
class RolledOff:
    """Chance: the roll-off, A's face and B's face (a tie rolls again)."""

    a: int
    b: int
    typed: bool = False


@dataclass(frozen=True)
class OptionChosen:
    """Decision: the roll-off winner chose Reengage (reengage=True) or First Strike."""

    seat: int
    reengage: bool


@dataclass(frozen=True)
class Reengaged:
    """Decision: `seat` picks its own troops `own` and the opponent's `theirs` to roll back in."""

    seat: int
    own: tuple[int, ...]
    theirs: tuple[int, ...]


@dataclass(frozen=True)
class AttackDeclared:
    """Decision: `seat` attacks with `troop`; `attacks` are (target, strength), sorted by target."""

    seat: int
    troop: int
    attacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class AttackRolled:
    """Chance: the attack dice aimed at `target`, one per attack on it, in order."""

    seat: int
    target: int
    faces: tuple[int, ...]
    typed: bool = False


@dataclass(frozen=True)
class DefenceRolled:
    """Chance: the defence dice of troop `target` of `seat` (the defender)."""

    seat: int
    target: int
    faces: tuple[int, ...]
    typed: bool = False


@dataclass(frozen=True)
class RerollCalled:
    """Decision: `seat` spends 1 supply to reroll die `index` of its `kind` dice ("attack",
    "defence" or "reinforce")."""

    seat: int
    kind: str
    index: int


@dataclass(frozen=True)
class DieRerolled:
    """Chance: the rerolled die's new face."""

    seat: int
    kind: str
    index: int
    face: int
    typed: bool = False


@dataclass(frozen=True)
class DiceKept:
    """Decision: `seat` keeps its `kind` dice as they are."""

    seat: int
    kind: str


@dataclass(frozen=True)
class DefenceAssigned:
    """Decision: the defender `seat` sets defence die dice[i] against the i-th attack on `target`."""

    seat: int
    target: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class ReinforceCalled:
    seat: int
    troop: int


@dataclass(frozen=True)
class ReinforceRolled:
    """Chance: the reinforce roll."""

    seat: int
    face: int
    typed: bool = False


@dataclass(frozen=True)
class ReinforcementsTaken:
    """Decision after a reinforce roll: `troop` rolls back in (None: kept where it is), and `extra`,
    a troop out of play, rolls in too (None: no extra troop)."""

    seat: int
    troop: int | None
    extra: int | None


@dataclass(frozen=True)
class Resupplied:
    """Decision: `seat` takes `troop` (face `face`) out of play into its supply."""

    seat: int
    troop: int
    face: int


@dataclass(frozen=True)
class Converged:
    seat: int


EVENTS = {cls.__name__: cls for cls in (
    TroopLanded, LandingMissed, RolledOff, OptionChosen, Reengaged, AttackDeclared, AttackRolled, DefenceRolled,
    RerollCalled, DieRerolled, DiceKept, DefenceAssigned, ReinforceCalled, ReinforceRolled, ReinforcementsTaken,
    Resupplied, Converged,
)}
CHANCE_EVENTS = (TroopLanded, LandingMissed, RolledOff, AttackRolled, DefenceRolled, DieRerolled, ReinforceRolled)
ACTION_EVENTS = (AttackDeclared, ReinforceCalled, Resupplied, Converged)
