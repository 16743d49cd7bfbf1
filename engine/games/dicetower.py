"""The Dice Tower (seed 000): a 2d6 countdown that stands in for the block tower of solo journaling games.

Rules as docs/rules/dicetower.md states them: each pull rolls 2d6; double threes subtract 6 and roll again
(for both commands); then pull-and-remove subtracts both dice, a plain pull the lower die while the
countdown is at the advantage threshold or above (51 by default), else the higher. At 0 the tower falls.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dicehall.engine.core import ChanceNeeded, IllegalCommand, Outcome, Player, Result
from dicehall.engine.games import entry_of
from dicehall.engine.errors import OptionError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

if TYPE_CHECKING:
    from fractions import Fraction

ID = "dicetower"
TITLE = "Dice Tower"
BLURB = "a 2d6 countdown for journaling games"
RULES_VERSION = 1
MEASURE = entry_of(ID).measure  # the catalogue's: what its results count, which way is better
MAX_START = 10000
HOST_CHOICES = (("start", "Countdown from", (100, 60, 30), ("100", "60", "30")),)
EXACT_UP_TO = 1000  # beyond this, the screen's figures use floats (exact fractions get slow)

RULES_TEXT = """\
DICE TOWER - a countdown that replaces the block tower of Wretched & Alone
games.

The countdown starts at 100. Whenever your game tells you to pull a block,
press p (pull). When it tells you to pull the block and remove it, press r
(pull and remove).

Each pull rolls two dice:
- Double threes: subtract 6 and roll again, as often as it happens (for
  both kinds of pull).
- Pull and remove: subtract both dice.
- Pull, countdown 51 or more: subtract the lower die (advantage).
- Pull, countdown 50 or less: subtract the higher die (disadvantage).
  Advantage or disadvantage is judged on the countdown as it stands after
  any double threes.

The countdown never goes below 0. Reaching 0 knocks the tower over and
ends the game at once, also in the middle of a chain of double threes.

Physical dice: press t and type the two faces you rolled instead of
letting dicehall roll. Undo (u) takes back the last pull with its dice;
pulling again gives the same dice, because the dice come from the
tracker's seed: undo cannot reroll. The save counts the undos.

The figures: "pulls left" is the exact expected number of pulls until the
tower falls (all plain pulls), and "falls next pull" the exact chance that
the next plain pull knocks it over. Both are computed from these rules,
not sampled. From 100 a tower lasts 29.95 pulls on average (the seed's
"about thirty").

Other starts: dicehall play dicetower --option start=N starts at N, and
--option advantage_from=N moves the threshold (it stays 51 unless you set
it).

Worked examples (from the rules' author): 92, roll 3 and 5: 89. 62,
remove, roll 1 and 4: 57. 75, double threes: 69, then 2 and 5: 67. 14,
double threes: 8, double threes: 2, then 1 and 5: 0."""


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

# Events are immutable values, so the few there are can be shared: a long tower's log holds
# references, not a new object per event.
_PULLED = {remove: (BlockPulled(remove),) for remove in (False, True)}
# the 36 rolls, indexed by the draws (6 * first + second), drawn from the seed and typed
_ROLLED = {typed: [DiceRolled((a, b), typed) for a in range(1, 7) for b in range(1, 7)] for typed in (False, True)}
_PULL_DICE = ChanceNeeded(spec=(6, 6), prompt="the two dice of this pull")


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
            raise OptionError(f"unknown option {clean_text(key, 20)!r} (known: start, advantage_from)")
    start = options.get("start", 100)
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= MAX_START:
        raise OptionError(f"start must be a whole number from 1 to {MAX_START}")
    advantage_from = options.get("advantage_from")
    if advantage_from is None:
        advantage_from = 51  # the ruling's default, whatever the start
    if not isinstance(advantage_from, int) or isinstance(advantage_from, bool) or not 1 <= advantage_from <= MAX_START + 1:
        raise OptionError(f"advantage_from must be a whole number from 1 to {MAX_START + 1}")
    return {"start": start, "advantage_from": advantage_from}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) > 1:
        raise OptionError("the Dice Tower is for one player")
    name = clean_text(players[0].name) if players else ""
    return (Player(name),) if name else _UNNAMED


_UNNAMED = (Player("Player"),)  # made once: every sim's tower has this player


def initial_state(options: dict, players: tuple[Player, ...]) -> TowerState:
    # built like evolve's states (a sim starts a new tower for every game)
    fields = _UNPLAYED_FIELDS.copy()
    fields["countdown"] = fields["start"] = options["start"]
    fields["advantage_from"] = options["advantage_from"]
    state = _bare_state(TowerState)
    _give_fields(state, fields)
    return state


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
    if command.remove is True or command.remove is False:
        return _PULLED[command.remove]
    return (BlockPulled(remove=command.remove),)


def chance_needed(state: TowerState) -> ChanceNeeded | None:
    if state.pulling and not state.fell:
        return _PULL_DICE
    return None


def chance_event(state: TowerState, draws: tuple[int, ...], typed: bool) -> DiceRolled:
    return _ROLLED[typed][6 * draws[0] + draws[1]]


def chance_draws(event: DiceRolled) -> tuple[int, ...]:
    return tuple(face - 1 for face in event.faces)


DOUBLE_THREES = (3, 3)  # the roll that takes DOUBLE_THREES_TAKE under any rule, and the same pull rolls again
DOUBLE_THREES_TAKE = 6
RULE_WORDS = {"both": "removed, both", "lower": "advantage, lower", "higher": "disadvantage, higher"}


def rolls_again(faces: tuple[int, int]) -> bool:
    """Whether the same pull rolls again after these dice (double threes), if the tower still stands."""
    return faces == DOUBLE_THREES


def rule_of(countdown: int, removing: bool, advantage_from: int) -> str:
    """Which die counts: "both" (pull and remove), "lower" (a pull at the threshold or above), "higher"."""
    return "both" if removing else ("lower" if countdown >= advantage_from else "higher")


def taken(faces: tuple[int, int], rule: str) -> int:
    """How much a roll takes from the countdown under `rule` (rule_of); the one place that says the
    rolls' rules: evolve, the screen's words and the exact figures below all ask it."""
    if rolls_again(faces):
        return DOUBLE_THREES_TAKE
    a, b = faces
    if rule == "both":
        return a + b
    return (a if a < b else b) if rule == "lower" else (a if a > b else b)


def subtraction(state: TowerState, faces: tuple[int, int]) -> tuple[int, str]:
    """How much these dice take from the countdown, and why, in a few words."""
    rule = rule_of(state.countdown, state.removing, state.advantage_from)
    return taken(faces, rule), ("double threes, again" if rolls_again(faces) else RULE_WORDS[rule])


def evolve(state: TowerState, event: object) -> TowerState:
    # the fold is the simulator's inner loop: each new state is a copy of the old one's fields with
    # a few changed, given to a bare instance (a fifth of the cost of dataclasses.replace; the result
    # is the same frozen TowerState, equal and hashed as one built by its constructor)
    fields = state.__dict__.copy()
    if type(event) is BlockPulled:
        fields["pulls"] += 1
        fields["pulling"] = True
        fields["removing"] = event.remove
    elif type(event) is DiceRolled:
        countdown = fields["countdown"]
        countdown -= taken(event.faces, rule_of(countdown, fields["removing"], fields["advantage_from"]))
        if countdown < 0:
            countdown = 0
        again = countdown > 0 and rolls_again(event.faces)
        fields["countdown"] = countdown
        fields["pulling"] = again
        fields["removing"] = fields["removing"] and again
        fields["fell"] = countdown == 0
    else:
        raise TypeError(f"not a Dice Tower event: {event!r}")
    new = _bare_state(TowerState)
    _give_fields(new, fields)
    return new


_bare_state = object.__new__
_give_fields = TowerState.__dict__["__dict__"].__set__  # sets a frozen instance's __dict__, as __init__ would fill it
_UNPLAYED_FIELDS = vars(TowerState(countdown=100, start=100, advantage_from=51))  # a new tower's fields, the defaults filled in


def outcome(state: TowerState) -> Outcome | None:
    if state.fell:
        return Outcome(winners=(), summary=f"the tower fell on pull {state.pulls}")
    return None


def result(state: TowerState, seat: int) -> Result | None:
    """The pulls the tower stood, once it fell (the contract's result)."""
    return MEASURE.result(state.pulls, counted(state.pulls, "pull")) if state.fell else None


def describe(state: TowerState, event: object, reveal: bool = True) -> str:
    if isinstance(event, BlockPulled):
        return f"pull {state.pulls + 1}: " + ("pull and remove a block" if event.remove else "pull a block")
    if isinstance(event, DiceRolled):
        amount, why = subtraction(state, event.faces)
        after = max(0, state.countdown - amount)
        typed = " typed" if event.typed else ""
        end = ", FALLS" if after == 0 else ""
        return f"{event.faces[0]} {event.faces[1]}{typed}: {why} -{amount}: {state.countdown} -> {after}{end}"
    return str(event)


def game_label(options: dict) -> str:
    """A tower's options in a few words, for a save's default name: "tower from 100"."""
    label = f"tower from {options.get('start', 100)}"
    advantage_from = options.get("advantage_from", 51)
    return label if advantage_from in (None, 51) else f"{label}, advantage from {advantage_from}"


def progress(state: TowerState) -> str:
    if state.fell:
        return f"fell on pull {state.pulls}"
    return f"countdown {state.countdown}, {counted(state.pulls, 'pull')}"


# ----- exact figures: the countdown is a small Markov chain -----
_PAIRS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _amount_counts(rule: str, again: bool) -> dict[int, int]:
    """How many of the 36 rolls that end the pull (again=False) or roll again subtract each amount."""
    counts: dict[int, int] = {}
    for faces in _PAIRS:
        if rolls_again(faces) == again:
            amount = taken(faces, rule)
            counts[amount] = counts.get(amount, 0) + 1
    return counts


_COUNTS = {rule: _amount_counts(rule, False) for rule in RULE_WORDS}
_AGAIN = {rule: _amount_counts(rule, True) for rule in RULE_WORDS}


class _Chain:
    """Bottom-up tables for one threshold, in exact fractions (or floats, for quick sampling checks).

    later[r][c]: expected plain pulls still to come after a pull in progress at c (r: removing);
    falls[r][c]: the chance that this pull in progress knocks the tower over.
    """

    def __init__(self, advantage_from: int, one):
        self.advantage_from = advantage_from
        self.one = one
        self.expected = [one * 0]
        self.later = {False: [one * 0], True: [one * 0]}
        self.falls = {False: [one], True: [one]}

    def extend(self, upto: int) -> None:
        one = self.one
        for c in range(len(self.expected), upto + 1):
            for removing in (False, True):
                rule = rule_of(c, removing, self.advantage_from)
                later = one * 0
                fall_count = 0
                for amount, count in _COUNTS[rule].items():
                    if c - amount > 0:
                        later += count * self.expected[c - amount]
                    else:
                        fall_count += count
                falls = one * fall_count
                for amount, count in _AGAIN[rule].items():  # the same pull rolls again, from what is left
                    if c - amount > 0:
                        later += count * self.later[removing][c - amount]
                        falls += count * self.falls[removing][c - amount]
                    else:
                        falls += one * count
                self.later[removing].append(later / 36)
                self.falls[removing].append(falls / 36)
            self.expected.append(one + self.later[False][c])


_CHAINS: dict[tuple[int, type], _Chain] = {}


def _chain(countdown: int, advantage_from: int, one) -> _Chain:
    key = (advantage_from, type(one))
    chain = _CHAINS.setdefault(key, _Chain(advantage_from, one))
    chain.extend(countdown)
    return chain


def expected_pulls(countdown: int, advantage_from: int = 51, exact: bool = True) -> Fraction | float:
    """The expected number of plain pulls until the tower falls (0 once it has fallen).

    Exact (a Fraction) by default; exact=False computes the same chain in floats."""
    from fractions import Fraction  # imported here: the app's first frame does not need it

    if countdown <= 0:
        return Fraction(0)
    return _chain(countdown, advantage_from, Fraction(1) if exact else 1.0).expected[countdown]


def topple_chance(countdown: int, advantage_from: int = 51, remove: bool = False, exact: bool = True) -> Fraction | float:
    """The chance that the next pull (or pull and remove) knocks the tower over; exact by default."""
    from fractions import Fraction

    if countdown <= 0:
        return Fraction(1)
    return _chain(countdown, advantage_from, Fraction(1) if exact else 1.0).falls[remove][countdown]


def pulls_to_come(state: TowerState, exact: bool = True) -> Fraction | float:
    """The expected plain pulls still to come from `state`: from a pull waiting for its dice, the
    pulls after it (so each roll's luck is the change in this figure; its expectation is no change)."""
    from fractions import Fraction

    if state.fell:
        return Fraction(0) if exact else 0.0
    chain = _chain(state.countdown, state.advantage_from, Fraction(1) if exact else 1.0)
    if state.pulling:
        return chain.later[state.removing][state.countdown]
    return chain.expected[state.countdown]


def pull_topple_chance(state: TowerState, exact: bool = True) -> Fraction | float:
    """The chance that the pull in progress (or, between pulls, the next plain pull) knocks the tower over."""
    from fractions import Fraction

    if state.fell:
        return Fraction(1) if exact else 1.0
    chain = _chain(state.countdown, state.advantage_from, Fraction(1) if exact else 1.0)
    return chain.falls[state.removing and state.pulling][state.countdown]
