"""The Dice Tower (seed 000): a 2d6 countdown that stands in for the block tower of solo journaling games.

Rules as ../shared/RULINGS.md decides: each pull rolls 2d6; double threes subtract 6 and roll again
(for both commands); then pull-and-remove subtracts both dice, a plain pull the lower die while the
countdown is at the advantage threshold or above (51 by default), else the higher. At 0 the tower falls.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.core import ChanceNeeded, IllegalCommand, Outcome, Player
from engine.session import replace
from engine.text import clean_text

ID = "dicetower"
TITLE = "Dice Tower"
BLURB = "a 2d6 countdown for solo journaling games"
RULES_VERSION = 1
MAX_START = 1000

RULES_TEXT = """\
DICE TOWER - a countdown that replaces the block tower of Wretched & Alone games.

The countdown starts at 100 (dicehall play dicetower --option start=N changes it, and
--option advantage_from=N the threshold; the threshold stays 51 unless you set it). Whenever your game tells you to pull a block, press p
(pull). When it tells you to pull the block and remove it, press r (pull and remove).

Each pull rolls two dice:
- Double threes: subtract 6 and roll again, as often as it happens (for both kinds of pull).
- Pull and remove: subtract both dice.
- Pull, countdown 51 or more: subtract the lower die (advantage).
- Pull, countdown 50 or less: subtract the higher die (disadvantage).
  Advantage or disadvantage is judged on the countdown as it stands after any double threes.

The countdown never goes below 0. Reaching 0 knocks the tower over and ends the game at once,
also in the middle of a chain of double threes.

Physical dice: press t and type the two faces you rolled instead of letting dicehall roll.
Undo (u) takes back the last pull with its dice; pulling again gives the same dice, because
the dice come from the tracker's seed: undo cannot reroll. The save counts the undos.

The figures: "pulls left" is the exact expected number of pulls until the tower falls (all plain
pulls), and "falls next pull" the exact chance that the next plain pull knocks it over. Both are
computed from these rules, not sampled. From 100 a tower lasts about 31 pulls on average.

Worked examples (from the rules' author): 92, roll 3 and 5: 89. 62, remove, roll 1 and 4: 57.
75, double threes: 69, then 2 and 5: 67. 14, double threes: 8, double threes: 2, then 1 and 5: 0.
"""


@dataclass(frozen=True)
class PullBlock:
    """A command: pull a block (remove=True: the prompt also says to remove it)."""

    remove: bool = False

    def __str__(self) -> str:
        return "pull and remove" if self.remove else "pull"


@dataclass(frozen=True)
class BlockPulled:
    remove: bool


@dataclass(frozen=True)
class DiceRolled:
    faces: tuple[int, int]
    typed: bool = False


EVENTS = {cls.__name__: cls for cls in (BlockPulled, DiceRolled)}


@dataclass(frozen=True)
class TowerState:
    countdown: int
    start: int
    advantage_from: int
    pulls: int = 0
    pulling: bool = False  # a pull waits for its dice
    removing: bool = False
    fell: bool = False


def check_options(options: dict) -> dict:
    known = {"start": 100, "advantage_from": None}
    for key in options:
        if key not in known:
            raise ValueError(f"unknown option {clean_text(key, 20)!r} (known: start, advantage_from)")
    start = options.get("start", 100)
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= MAX_START:
        raise ValueError(f"start must be a whole number from 1 to {MAX_START}")
    advantage_from = options.get("advantage_from")
    if advantage_from is None:
        advantage_from = 51  # the ruling's default, whatever the start
    if not isinstance(advantage_from, int) or isinstance(advantage_from, bool) or not 1 <= advantage_from <= MAX_START + 1:
        raise ValueError(f"advantage_from must be a whole number from 1 to {MAX_START + 1}")
    return {"start": start, "advantage_from": advantage_from}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) > 1:
        raise ValueError("the Dice Tower is for one player")
    name = clean_text(players[0].name) if players else ""
    return (Player(name or "Player"),)


def initial_state(options: dict, players: tuple[Player, ...]) -> TowerState:
    return TowerState(countdown=options["start"], start=options["start"], advantage_from=options["advantage_from"])


def to_act(state: TowerState) -> int | None:
    return None if state.fell or state.pulling else 0


def legal_commands(state: TowerState) -> list[PullBlock]:
    return [] if to_act(state) is None else [PullBlock(False), PullBlock(True)]


def parse_command(text: str) -> PullBlock:
    words = " ".join(text.lower().split())
    if words in ("pull", "p"):
        return PullBlock(False)
    if words in ("pull and remove", "remove", "r"):
        return PullBlock(True)
    raise IllegalCommand(f"not a Dice Tower command: {clean_text(text, 30)!r} (pull, pull and remove)")


def decide(state: TowerState, command: object) -> tuple[BlockPulled]:
    if state.fell:
        raise IllegalCommand("the tower has fallen: start a new tracker")
    if state.pulling:
        raise IllegalCommand("this pull is still waiting for its dice")
    if not isinstance(command, PullBlock):
        raise IllegalCommand("the Dice Tower only knows pull and pull and remove")
    return (BlockPulled(remove=command.remove),)


def chance_needed(state: TowerState) -> ChanceNeeded | None:
    if state.pulling and not state.fell:
        return ChanceNeeded(spec=(6, 6), prompt="the two dice of this pull")
    return None


def chance_event(state: TowerState, draws: tuple[int, ...], typed: bool) -> DiceRolled:
    return DiceRolled(faces=(draws[0] + 1, draws[1] + 1), typed=typed)


def chance_draws(event: DiceRolled) -> tuple[int, ...]:
    return tuple(face - 1 for face in event.faces)


def subtraction(state: TowerState, faces: tuple[int, int]) -> tuple[int, str]:
    """How much these dice take from the countdown, and why, in words."""
    low, high = sorted(faces)
    if faces == (3, 3):
        return 6, "double threes: subtract 6 and roll again"
    if state.removing:
        return low + high, f"removed: subtract both dice, {low + high}"
    if state.countdown >= state.advantage_from:
        return low, f"advantage ({state.countdown} is {state.advantage_from} or more): subtract the lower, {low}"
    return high, f"disadvantage ({state.countdown} is under {state.advantage_from}): subtract the higher, {high}"


def evolve(state: TowerState, event: object) -> TowerState:
    if isinstance(event, BlockPulled):
        return replace(state, pulls=state.pulls + 1, pulling=True, removing=event.remove)
    if isinstance(event, DiceRolled):
        amount, _ = subtraction(state, event.faces)
        countdown = max(0, state.countdown - amount)
        again = event.faces == (3, 3) and countdown > 0
        return replace(
            state,
            countdown=countdown,
            pulling=again,
            removing=state.removing and again,
            fell=countdown == 0,
        )
    raise TypeError(f"not a Dice Tower event: {event!r}")


def outcome(state: TowerState) -> Outcome | None:
    if state.fell:
        return Outcome(winners=(), summary=f"the tower fell on pull {state.pulls}", score=state.pulls)
    return None


def describe(state: TowerState, event: object, reveal: bool = True) -> str:
    if isinstance(event, BlockPulled):
        return f"pull {state.pulls + 1}: " + ("pull and remove a block" if event.remove else "pull a block")
    if isinstance(event, DiceRolled):
        amount, _ = subtraction(state, event.faces)
        low, high = sorted(event.faces)
        if event.faces == (3, 3):
            why = "double threes -6, again"
        elif state.removing:
            why = f"removed, both -{amount}"
        elif state.countdown >= state.advantage_from:
            why = f"advantage, lower -{amount}"
        else:
            why = f"disadvantage, higher -{amount}"
        after = max(0, state.countdown - amount)
        typed = " typed" if event.typed else ""
        end = ", FALLS" if after == 0 else ""
        return f"{event.faces[0]} {event.faces[1]}{typed}: {why}: {state.countdown} -> {after}{end}"
    return str(event)


def progress(state: TowerState) -> str:
    if state.fell:
        return f"fell on pull {state.pulls}"
    return f"countdown {state.countdown}, {state.pulls} pulls"


# ----- exact figures: the countdown is a small Markov chain -----
_FACES = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@lru_cache(maxsize=None)
def _finish_pull(countdown: int, removing: bool, advantage_from: int) -> tuple[Fraction, Fraction]:
    """From a pull in progress at `countdown`: (chance it topples, expected plain pulls after it)."""
    topple = Fraction(0)
    later = Fraction(0)
    p = Fraction(1, 36)
    for faces in _FACES:
        if faces == (3, 3):
            after = countdown - 6
            if after <= 0:
                topple += p
            else:
                t, rest = _finish_pull(after, removing, advantage_from)
                topple += p * t
                later += p * rest
            continue
        low, high = sorted(faces)
        amount = low + high if removing else (low if countdown >= advantage_from else high)
        after = countdown - amount
        if after <= 0:
            topple += p
        else:
            later += p * expected_pulls(after, advantage_from)
    return topple, later


@lru_cache(maxsize=None)
def expected_pulls(countdown: int, advantage_from: int = 51) -> Fraction:
    """The exact expected number of plain pulls until the tower falls (0 once it has fallen)."""
    if countdown <= 0:
        return Fraction(0)
    for c in range(1, countdown):  # fill the cache bottom-up so recursion stays shallow
        _finish_pull(c, False, advantage_from)
    return 1 + _finish_pull(countdown, False, advantage_from)[1]


def topple_chance(countdown: int, advantage_from: int = 51, remove: bool = False) -> Fraction:
    """The exact chance that the next pull (or pull and remove) knocks the tower over."""
    if countdown <= 0:
        return Fraction(1)
    expected_pulls(countdown, advantage_from)
    return _finish_pull(countdown, remove, advantage_from)[0]
