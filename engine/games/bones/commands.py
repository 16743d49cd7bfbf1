"""The commands of War of Bones, each printing as a line a person can read and `parse_command` reads
back: "attack 3 at 2:2 5:4", "reinforce 3", "roll in both". Troops and dice are numbered from 1 in
the printed form, from 0 inside the engine."""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.core import IllegalCommand
from dicehall.engine.text import clean_text


@dataclass(frozen=True)
class Choose:
    """The roll-off winner chooses "reengage" or "first strike"."""

    option: str

    def __str__(self) -> str:
        return f"choose {self.option}"


@dataclass(frozen=True)
class Reengage:
    """The reengaging player's picks: own troops, and at most as many of the opponent's."""

    own: tuple[int, ...] = ()
    theirs: tuple[int, ...] = ()

    def __str__(self) -> str:
        return ("reengage " + " ".join(str(t + 1) for t in self.own) + " / "
                + " ".join(str(t + 1) for t in self.theirs)).replace("  ", " ").strip()


@dataclass(frozen=True)
class Attack:
    """Attack with `troop`: `attacks` is a tuple of (enemy troop, strength), strengths summing to
    the troop's firepower."""

    troop: int
    attacks: tuple[tuple[int, int], ...]

    def __str__(self) -> str:
        return f"attack {self.troop + 1} at " + " ".join(f"{t + 1}:{s}" for t, s in self.attacks)


@dataclass(frozen=True)
class Reroll:
    """Spend 1 supply to reroll die `index` (0-based) of the dice just rolled."""

    index: int

    def __str__(self) -> str:
        return f"reroll {self.index + 1}"


@dataclass(frozen=True)
class Keep:
    """Keep the dice just rolled (no reroll)."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Assign:
    """The defender's assignment: for each attack on the target, in order, the defence die (0-based)
    set against it."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "assign " + " ".join(str(d + 1) for d in self.dice)


@dataclass(frozen=True)
class Reinforce:
    troop: int

    def __str__(self) -> str:
        return f"reinforce {self.troop + 1}"


@dataclass(frozen=True)
class RollIn:
    """After a reinforce roll: roll the reinforcing troop back in (troop) and/or the extra troop
    out of play (extra, on a 6)."""

    troop: bool
    extra: bool

    def __str__(self) -> str:
        which = {(True, True): "both", (True, False): "troop", (False, True): "extra"}.get((self.troop, self.extra), "none")
        return f"roll in {which}"


@dataclass(frozen=True)
class Resupply:
    troop: int

    def __str__(self) -> str:
        return f"resupply {self.troop + 1}"


@dataclass(frozen=True)
class Converge:
    def __str__(self) -> str:
        return "converge"


COMMANDS = (Choose, Reengage, Attack, Reroll, Keep, Assign, Reinforce, RollIn, Resupply, Converge)


def _numbers(words: list[str]) -> tuple[int, ...]:
    try:
        return tuple(int(w) - 1 for w in words)
    except ValueError:
        raise IllegalCommand(f"not a number: {clean_text(' '.join(words), 20)!r}") from None


def parse_command(text: str) -> object:
    """A command from its printed form: "choose reengage", "choose first strike", "reengage 1 2 / 5",
    "attack 3 at 2:2 5:4", "reroll 2", "keep", "assign 2 1", "reinforce 3", "roll in both|troop|extra|none",
    "resupply 3", "converge". Troops and dice are numbered from 1."""
    words = " ".join(str(text).lower().split()).split(" ")
    head, rest = words[0], words[1:]
    if head == "choose" and " ".join(rest) in ("reengage", "first strike"):
        return Choose(" ".join(rest))
    if head == "reengage":
        joined = " ".join(rest).replace("/", " / ").split()
        if "/" in joined:
            cut = joined.index("/")
            return Reengage(_numbers(joined[:cut]), _numbers(joined[cut + 1:]))
        return Reengage(_numbers(joined), ())
    if head == "attack" and len(rest) >= 3 and rest[1] == "at":
        pairs = []
        for word in rest[2:]:
            target, _, strength = word.partition(":")
            if not strength:
                raise IllegalCommand("each attack is target:strength, like 2:3")
            pairs.append((_numbers([target])[0], _numbers([strength])[0] + 1))
        return Attack(_numbers(rest[:1])[0], tuple(pairs))
    if head == "reroll" and len(rest) == 1:
        return Reroll(_numbers(rest)[0])
    if head == "keep" and not rest:
        return Keep()
    if head == "assign" and rest:
        return Assign(_numbers(rest))
    if head == "reinforce" and len(rest) == 1:
        return Reinforce(_numbers(rest)[0])
    if head == "resupply" and len(rest) == 1:
        return Resupply(_numbers(rest)[0])
    if head == "roll" and len(rest) == 2 and rest[0] == "in" and rest[1] in ("both", "troop", "extra", "none"):
        return RollIn(rest[1] in ("both", "troop"), rest[1] in ("both", "extra"))
    if head == "converge" and not rest:
        return Converge()
    raise IllegalCommand(f"not a War of Bones command: {clean_text(text, 30)!r} (attack 3 at 2:4, reinforce 3, "
                         "resupply 3, converge)")

