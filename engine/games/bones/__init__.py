"""War of Bones (seed 004): a two-player wargame played only with dice rolled into a square area.

Rules as ../shared/RULINGS.md decides. Each player has 8 troops (dice in the area: the face is the
troop's firepower and its range), 3 rollers and a supply of rerolls. A turn is one action: attack,
reinforce, resupply or converge. A player with no troops in the area at the end of a turn loses.

Seat 0 is side A, seat 1 side B; troops are numbered 0..7 inside the engine and named A#1..A#8,
B#1..B#8 in words (the # keeps a troop's number apart from a face: the map draws a troop of B
showing 5 as B5). Positions are the troop's centre in hundredths of an inch, x from the left and y
from the top edge of the original 9" area (0..900); the area is always centred, so its edges are
`area_bounds(state)`.

Every random outcome is a chance event drawn by the session: a troop rolled into the area is one
`TroopLanded` (x, y and a face; ChanceNeeded with dice=False, a person cannot type a position),
preceded by one `LandingMissed` for every candidate point closer than one die width to another die
(rerolled, as the rules say). Roll-off, attack, defence, reinforce and reroll dice are d6 chance
events (dice=True), so physical dice can be typed for them. During an attack the defender decides
twice per target (reroll a defence die, assign the dice): `to_act` names the defender then.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from engine.core import ChanceNeeded, IllegalCommand, Outcome, Player
from engine.session import replace
from engine.text import clean_text
from engine.words import counted

ID = "bones"
TITLE = "War of Bones"
BLURB = "a dice wargame"
RULES_VERSION = 1
TROOPS = 8
ROLLERS = 3
MAX_SUPPLY = 6
FULL = 900  # the starting area's side, in hundredths of an inch
SMALLEST = 300  # converging stops at 3"
SHRINK = 200  # each completed converge takes 2" off the side
DIE = 62.5  # one die width in hundredths of an inch
SIDES = ("A", "B")
LEVELS = ("general", "random")  # the bot's styles (engine/bots/bones.py); the first is the default

RULES_TEXT = """\
WAR OF BONES - a wargame for two, played only with dice rolled into a
square area 9 inches on a side. A die is 5/8 inch wide.

Each player has 8 troops, 3 rollers and a supply (0 to 6, starting at 0).
A troop is a die in the area: its face is its firepower. Positions are
the die's centre, recorded to 1/100 inch. A troop rolled into the area
lands at a random point inside it, never closer than one die width to
another die (such a landing is rerolled), with a random face.

Range: a target is in range of a troop with firepower F when the gap
between the two dice (centre distance minus one die width) is at most F
die widths.

Setup: all 16 troops are rolled into the area. The players roll off (ties
roll again); the winner chooses Reengage or First Strike, the other gets
the other. Reengage: pick any number of your own troops and up to the
same number of the opponent's; all picked troops are rolled back in (new
face, new place). Then the First Strike player takes the first turn.

A turn is exactly one action:

Attack: pick one of your troops with firepower F and split F into one or
more attacks whose strengths add up to F, each against an enemy troop in
range (several may aim at the same troop). Each attack rolls a roller:
attack value = roll + strength. For each target troop the defender rolls
one die per attack aimed at it and assigns each die to one of those
attacks. For each pair: margin = attack value - (defence die + the
defender's firepower). A margin at or above the defender's firepower
slays it; above 0 but below it does 1 damage (the face goes down by 1).
All pairs on a troop are judged against the firepower it had when
attacked, then the damage is applied; a troop slain or reduced to 0 is
removed from play. Damaged dice keep their place.

Supply buys rerolls: 1 supply rerolls one of your own attack, defence or
reinforce dice right after it was rolled, before anything is resolved
(the attacker rerolls before the defender rolls).

Reinforce: pick one of your troops in play and roll a roller. If the roll
is higher than the troop's face you may roll that troop back in (new
face, new place). On a 6 you may also roll one of your troops that are
out of play back in, if fewer than 8 are in play.

Resupply: take one of your troops out of play and add its face to your
supply (at most 6; the rest is lost).

Converge: the first converge does nothing by itself. If the opponent's
very next action is also converge, the area shrinks by 2 inches on each
side (9, 7, 5, 3, always centred; at 3 it shrinks no more) and every
troop whose centre is now outside is rolled back in. Any other answer
wastes the first converge.

Victory: at the end of any turn, a player with no troops in the area
loses; if both have none, the game is drawn.

Option no_premeasure (off by default): ranges are not shown and an
attack may aim at any enemy troop; an attack on a target out of range
misses (no dice are rolled for it).

Keys: see ? on the game screen.

dicehall's decisions (where the seed and the rulings are silent):
- Troops are named by side and number, A#1..A#8 (first player) and
  B#1..B#8; the number never changes, the face does. On the map a troop
  is drawn as its side and its face (a5: an A troop showing 5; B5: a B
  troop showing 5), so "B#5" is troop number 5 and "B5" a face.
- A landing point is uniform over the area's 1/100 inch grid, edges
  included; only the centre must be inside. "Closer than one die width"
  means a centre distance under 0.625 inch; exactly 0.625 is allowed.
  Rollers are rolled outside the area and are not obstacles.
- Dice rolled in together (setup, Reengage, a converge, a reinforcement
  with its extra troop) land one at a time, each avoiding all dice
  already in the area: A's troops before B's, lower numbers first (in
  Reengage, the reengaging player's troops first). A troop being rolled
  back in is picked up first, so it never blocks itself.
- The 3 rollers do not limit the number of attacks: a split into more
  than 3 attacks rolls rollers again.
- An attack is resolved target by target, in the order of the target's
  number: the attacker rolls the attacks on that troop together (and may
  reroll), then the defender rolls and may reroll, then assigns. When
  every assignment gives the same result (one attack, equal dice or
  equal attack values) the dice are assigned without asking.
- Each reroll costs 1 supply; after a reroll you may reroll again while
  supply lasts, the same die too. With no supply there is no offer.
  Either player rerolls only their own dice; the defender may reroll
  defence dice.
- Reinforce: "higher" is strictly higher: a 6 never rolls a 6 back in.
  Both parts are choices: roll the troop back in, take the extra troop
  (the lowest-numbered troop out of play), both or neither. The troop
  lands first, then the extra one. "Fewer than 8 in play" counts before
  anything is rolled in.
- Resupply may take your last troop: you then lose at the end of the
  turn. Out of play means slain, reduced to 0 or resupplied.
- A converge that answers one completes it and does not start a new
  one. At 3 inches the answer is still a converge, and nothing happens.
  A troop exactly on the new edge is inside.
"""


# ----- geometry -----
@dataclass(frozen=True)
class Troop:
    """A troop in the area: its centre (hundredths of an inch) and its face (firepower)."""

    x: int
    y: int
    face: int


def area_bounds(state: "BonesState") -> tuple[int, int]:
    """The area's low and high edge (the same for x and y), in hundredths of an inch."""
    low = (FULL - state.side) // 2
    return low, low + state.side


def distance(a: Troop, b: Troop) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def gap(a: Troop, b: Troop) -> float:
    """The gap between two dice, in hundredths of an inch (centre distance minus one die width)."""
    return distance(a, b) - DIE


def in_range(a: Troop, b: Troop, firepower: int) -> bool:
    """Exact: gap <= firepower die widths, i.e. centre distance <= (firepower + 1) * 62.5."""
    dx, dy = a.x - b.x, a.y - b.y
    return 4 * (dx * dx + dy * dy) <= (125 * (firepower + 1)) ** 2


def overlaps(x: int, y: int, other: Troop) -> bool:
    """Closer than one die width (a centre distance under 62.5 hundredths)."""
    dx, dy = x - other.x, y - other.y
    return 4 * (dx * dx + dy * dy) < 125 * 125


def troop_name(seat: int, troop: int) -> str:
    return f"{SIDES[seat]}#{troop + 1}"


# ----- commands -----
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


# ----- events -----
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


# ----- state -----
@dataclass(frozen=True)
class AttackInProgress:
    """An attack being resolved, target by target (`groups` lists, per target in range, the indexes
    of its attacks in `attacks`; `group` is the one being resolved)."""

    troop: int
    firepower: int
    attacks: tuple[tuple[int, int], ...]
    groups: tuple[tuple[int, ...], ...]
    group: int = 0
    rolls: tuple[int, ...] = ()  # attack dice of the current group
    defence: tuple[int, ...] = ()  # defence dice of the current group

    @property
    def target(self) -> int:
        return self.attacks[self.groups[self.group][0]][0]

    @property
    def strengths(self) -> tuple[int, ...]:
        return tuple(self.attacks[i][1] for i in self.groups[self.group])

    @property
    def missed(self) -> tuple[tuple[int, int], ...]:
        """Attacks on targets out of range (only with no_premeasure): they miss."""
        used = {i for g in self.groups for i in g}
        return tuple(a for i, a in enumerate(self.attacks) if i not in used)


@dataclass(frozen=True)
class PairResult:
    """One attack/defence pair as it was judged."""

    strength: int
    roll: int
    defence: int
    firepower: int  # the defender's, when attacked
    margin: int
    effect: str  # "slain", "damage" or "held"


@dataclass(frozen=True)
class BonesState:
    names: tuple[str, str]
    no_premeasure: bool = False
    troops: tuple[tuple[Troop | None, ...], tuple[Troop | None, ...]] = ((None,) * TROOPS, (None,) * TROOPS)
    supply: tuple[int, int] = (0, 0)
    side: int = FULL  # the area's side now, hundredths of an inch
    # what the game waits for: "landing", "rolloff" (chance); "choose", "reengage", "action",
    # "attack_reroll", "defence_reroll", "assign", "reinforce_reroll", "reinforce_choice" (decisions);
    # "attack_roll", "defence_roll", "reinforce_roll", "reroll" (chance); "over"
    stage: str = "landing"
    player: int = 0  # whose turn it is (in setup: the roll-off winner, then the reengaging player)
    first_strike: int | None = None
    landing: tuple[tuple[int, int], ...] = tuple((s, t) for s in (0, 1) for t in range(TROOPS))  # (seat, troop) to roll in
    after: str = "rolloff"  # what follows the landings: "rolloff", "play" or "end" (of the turn)
    rolloffs: tuple[tuple[int, int], ...] = ()
    attack: AttackInProgress | None = None
    reinforce_troop: int | None = None
    reinforce_face: int = 0
    reroll: tuple[str, int] = ("", 0)  # the die a "reroll" chance stage rolls: (kind, index)
    converge_by: int | None = None  # a converge waiting for the other player's answer
    turn: int = 0  # 1 for the first turn of play
    last: tuple[int, int, tuple[PairResult, ...]] | None = None  # (seat hit, troop, pairs) of the latest target resolved
    resolved: int = 0  # targets resolved so far (the screen can tell when `last` is new)
    result: tuple[int, ...] | None = None  # at the end: the winner's seat, or () for a draw

    def in_play(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t, troop in enumerate(self.troops[seat]) if troop is not None)

    def dice_in_area(self) -> list[Troop]:
        return [troop for side in self.troops for troop in side if troop is not None]


def check_options(options: dict) -> dict:
    for key in options:
        if key != "no_premeasure":
            raise ValueError(f"unknown option {clean_text(key, 20)!r} (known: no_premeasure)")
    value = options.get("no_premeasure", False)
    if not isinstance(value, bool):
        raise ValueError("no_premeasure must be true or false")
    return {"no_premeasure": value}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) not in (0, 2):
        raise ValueError(f"War of Bones is for two players, not {len(players)}")
    players = players or (Player("Player A"), Player("Player B"))
    checked = []
    for seat, player in enumerate(players):
        name = clean_text(player.name) or f"Player {SIDES[seat]}"
        style = ""
        if player.bot:
            style = player.style or LEVELS[0]
            if style not in LEVELS:
                raise ValueError(f"{name}: the bot plays {', '.join(LEVELS)}, not {clean_text(style, 20)!r}")
        checked.append(Player(name, bool(player.bot), style))
    return tuple(checked)


def initial_state(options: dict, players: tuple[Player, ...]) -> BonesState:
    return BonesState(names=(players[0].name, players[1].name), no_premeasure=bool(options.get("no_premeasure")))


# ----- who acts -----
DECISIONS = ("choose", "reengage", "action", "attack_reroll", "defence_reroll", "assign", "reinforce_reroll",
             "reinforce_choice")


def to_act(state: BonesState) -> int | None:
    if state.stage not in DECISIONS:
        return None
    if state.stage in ("defence_reroll", "assign"):
        return 1 - state.player
    return state.player


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


def reengage_choices(state: BonesState, seat: int) -> list[Reengage]:
    """A practical set: nothing; one of yours with none or one of theirs; and "all of yours at or
    below a face" with "that many or fewer of their strongest"."""
    own = state.in_play(seat)
    theirs = state.in_play(1 - seat)
    strongest = sorted(theirs, key=lambda t: (-state.troops[1 - seat][t].face, t))
    found = [Reengage((), ())]
    for mine in own:
        found.append(Reengage((mine,), ()))
        found.extend(Reengage((mine,), (other,)) for other in theirs)
    for face in range(1, 6):
        weak = tuple(t for t in own if state.troops[seat][t].face <= face)
        if len(weak) < 2:
            continue
        for count in range(len(weak) + 1):
            found.append(Reengage(weak, tuple(sorted(strongest[:count]))))
    unique = []
    for choice in found:
        if choice not in unique:
            unique.append(choice)
    return unique


def reinforce_options(state: BonesState) -> tuple[bool, bool]:
    """(the troop may roll back in, an extra troop may roll in) after the reinforce roll."""
    troop = state.troops[state.player][state.reinforce_troop]
    back = troop is not None and state.reinforce_face > troop.face
    extra = state.reinforce_face == 6 and len(state.in_play(state.player)) < TROOPS
    return back, extra


def current_dice(state: BonesState, kind: str) -> tuple[int, ...]:
    if kind == "attack":
        return state.attack.rolls
    if kind == "defence":
        return state.attack.defence
    return (state.reinforce_face,)


def legal_commands(state: BonesState) -> list[object]:
    stage = state.stage
    seat = to_act(state)
    if seat is None:
        return []
    if stage == "choose":
        return [Choose("reengage"), Choose("first strike")]
    if stage == "reengage":
        return reengage_choices(state, seat)
    if stage in ("attack_reroll", "defence_reroll", "reinforce_reroll"):
        kind = stage.split("_")[0]
        return [Keep()] + [Reroll(i) for i in range(len(current_dice(state, kind)))]
    if stage == "assign":
        count = len(state.attack.defence)
        return [Assign(p) for p in itertools.permutations(range(count))]
    if stage == "reinforce_choice":
        back, extra = reinforce_options(state)
        return [RollIn(t, e) for t in ((False, True) if back else (False,)) for e in ((False, True) if extra else (False,))]
    # an action
    commands: list[object] = []
    for troop in state.in_play(seat):
        targets = targets_of(state, seat, troop)
        for split in attack_splits(state.troops[seat][troop].face, targets):
            commands.append(Attack(troop, split))
    commands.extend(Reinforce(t) for t in state.in_play(seat))
    commands.extend(Resupply(t) for t in state.in_play(seat))
    commands.append(Converge())
    return commands


# ----- deciding -----
def _own_troop(state: BonesState, seat: int, troop: object, what: str) -> Troop:
    if not isinstance(troop, int) or isinstance(troop, bool) or not 0 <= troop < TROOPS:
        raise IllegalCommand(f"there is no troop {str(troop)[:10]} (troops are 1 to {TROOPS})")
    found = state.troops[seat][troop]
    if found is None:
        raise IllegalCommand(f"{troop_name(seat, troop)} is out of play: {what} a troop in the area")
    return found


def decide(state: BonesState, command: object) -> tuple[object, ...]:
    if state.stage == "over":
        raise IllegalCommand("the game is over")
    seat = to_act(state)
    if seat is None:
        raise IllegalCommand("the dice are still rolling")
    stage = state.stage
    if isinstance(command, Choose):
        if stage != "choose":
            raise IllegalCommand("Reengage or First Strike is chosen once, by the roll-off winner")
        if command.option not in ("reengage", "first strike"):
            raise IllegalCommand("choose reengage or first strike")
        return (OptionChosen(seat, command.option == "reengage"),)
    if isinstance(command, Reengage):
        if stage != "reengage":
            raise IllegalCommand("Reengage happens once, in the setup")
        own, theirs = tuple(command.own), tuple(command.theirs)
        for group, owner in ((own, seat), (theirs, 1 - seat)):
            if len(set(group)) != len(group):
                raise IllegalCommand("pick each troop once")
            for troop in group:
                _own_troop(state, owner, troop, "pick")
        if len(theirs) > len(own):
            raise IllegalCommand(f"pick at most as many of the opponent's troops as of your own ({len(own)})")
        return (Reengaged(seat, tuple(sorted(own)), tuple(sorted(theirs))),)
    if isinstance(command, (Reroll, Keep)):
        if stage not in ("attack_reroll", "defence_reroll", "reinforce_reroll"):
            raise IllegalCommand("a reroll is offered only right after you roll, while you have supply")
        kind = stage.split("_")[0]
        if isinstance(command, Keep):
            return (DiceKept(seat, kind),)
        dice = current_dice(state, kind)
        if not isinstance(command.index, int) or not 0 <= command.index < len(dice):
            raise IllegalCommand(f"there are {len(dice)} dice to reroll: pick 1 to {len(dice)}")
        return (RerollCalled(seat, kind, command.index),)
    if isinstance(command, Assign):
        if stage != "assign":
            raise IllegalCommand("defence dice are assigned by the defender, after they are rolled")
        count = len(state.attack.defence)
        if sorted(command.dice) != list(range(count)):
            raise IllegalCommand(f"assign each of the {count} defence dice to one attack")
        return (DefenceAssigned(seat, state.attack.target, tuple(command.dice)),)
    if isinstance(command, RollIn):
        if stage != "reinforce_choice":
            raise IllegalCommand("troops roll back in only after a reinforce roll")
        back, extra = reinforce_options(state)
        if command.troop and not back:
            raise IllegalCommand(f"the roll ({state.reinforce_face}) is not higher than the troop's face")
        if command.extra and not extra:
            raise IllegalCommand("an extra troop needs a 6 and fewer than 8 troops in play")
        spare = next(t for t, troop in enumerate(state.troops[seat]) if troop is None) if command.extra else None
        return (ReinforcementsTaken(seat, state.reinforce_troop if command.troop else None, spare),)
    if stage != "action":
        raise IllegalCommand({"attack_reroll": "reroll an attack die or keep them",
                              "defence_reroll": "the defender decides on rerolls now",
                              "assign": "the defender assigns the defence dice now",
                              "reinforce_reroll": "reroll the reinforce die or keep it",
                              "reinforce_choice": "choose which troops roll in",
                              "choose": "the roll-off winner chooses Reengage or First Strike",
                              "reengage": "the reengaging player picks troops to roll back in"}.get(stage, "not now"))
    if isinstance(command, Attack):
        mine = _own_troop(state, seat, command.troop, "attack with")
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
            if not state.no_premeasure and not in_range(mine, enemy[target], mine.face):
                raise IllegalCommand(f"{troop_name(1 - seat, target)} is out of range of "
                                     f"{troop_name(seat, command.troop)} (range {mine.face})")
        total = sum(s for _, s in attacks)
        if total != mine.face:
            raise IllegalCommand(f"the strengths must add up to the firepower, {mine.face} (they add up to {total})")
        return (AttackDeclared(seat, command.troop, canonical(attacks)),)
    if isinstance(command, Reinforce):
        _own_troop(state, seat, command.troop, "reinforce")
        return (ReinforceCalled(seat, command.troop),)
    if isinstance(command, Resupply):
        troop = _own_troop(state, seat, command.troop, "resupply with")
        return (Resupplied(seat, command.troop, troop.face),)
    if isinstance(command, Converge):
        return (Converged(seat),)
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


# ----- chance -----
def chance_needed(state: BonesState) -> ChanceNeeded | None:
    stage = state.stage
    if stage == "landing":
        seat, troop = state.landing[0]
        return ChanceNeeded(spec=(state.side + 1, state.side + 1, 6),
                            prompt=f"roll {troop_name(seat, troop)} into the area", dice=False)
    if stage == "rolloff":
        return ChanceNeeded(spec=(6, 6), prompt="the roll-off: A's die, then B's")
    if stage == "attack_roll":
        count = len(state.attack.groups[state.attack.group])
        return ChanceNeeded(spec=(6,) * count, prompt=f"{count} attack dice on "
                            f"{troop_name(1 - state.player, state.attack.target)}")
    if stage == "defence_roll":
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
        seat, troop = state.landing[0]
        low, _ = area_bounds(state)
        x, y = low + draws[0], low + draws[1]
        if any(overlaps(x, y, other) for other in state.dice_in_area()):
            return LandingMissed(seat, troop, x, y)
        return TroopLanded(seat, troop, x, y, draws[2] + 1)
    faces = tuple(d + 1 for d in draws)
    if stage == "rolloff":
        return RolledOff(faces[0], faces[1], typed)
    if stage == "attack_roll":
        return AttackRolled(state.player, state.attack.target, faces, typed)
    if stage == "defence_roll":
        return DefenceRolled(1 - state.player, state.attack.target, faces, typed)
    if stage == "reinforce_roll":
        return ReinforceRolled(state.player, faces[0], typed)
    if stage == "reroll":
        kind, index = state.reroll
        seat = 1 - state.player if kind == "defence" else state.player
        return DieRerolled(seat, kind, index, faces[0], typed)
    raise ValueError("no chance is pending")


def chance_draws(event: object) -> tuple[int, ...]:
    if isinstance(event, RolledOff):
        return (event.a - 1, event.b - 1)
    if isinstance(event, (AttackRolled, DefenceRolled)):
        return tuple(f - 1 for f in event.faces)
    if isinstance(event, (ReinforceRolled, DieRerolled)):
        return (event.face - 1,)
    raise TypeError(f"not a typed War of Bones die: {type(event).__name__}")


# ----- the fold -----
def _set_troop(state: BonesState, seat: int, troop: int, value: Troop | None) -> BonesState:
    side = list(state.troops[seat])
    side[troop] = value
    troops = (tuple(side), state.troops[1]) if seat == 0 else (state.troops[0], tuple(side))
    return replace(state, troops=troops)


def _spend(state: BonesState, seat: int) -> BonesState:
    supply = list(state.supply)
    supply[seat] -= 1
    return replace(state, supply=tuple(supply))


def _end_turn(state: BonesState) -> BonesState:
    state = replace(state, attack=None, reinforce_troop=None, reinforce_face=0, landing=(), after="")
    counts = [len(state.in_play(s)) for s in (0, 1)]
    if counts[0] == 0 or counts[1] == 0:
        result = () if counts[0] == counts[1] else ((0,) if counts[0] else (1,))
        return replace(state, stage="over", result=result)
    return replace(state, stage="action", player=1 - state.player, turn=state.turn + 1)


def _after_landings(state: BonesState) -> BonesState:
    if state.landing:
        return replace(state, stage="landing")
    if state.after == "rolloff":
        return replace(state, stage="rolloff", after="")
    if state.after == "play":
        return replace(state, stage="action", player=state.first_strike, turn=1, after="")
    return _end_turn(state)


def _roll_in(state: BonesState, picks: tuple[tuple[int, int], ...], after: str) -> BonesState:
    """Pick these troops up and queue them to be rolled in, one at a time."""
    for seat, troop in picks:
        state = _set_troop(state, seat, troop, None)
    return _after_landings(replace(state, landing=picks, after=after))


def _offer(state: BonesState, kind: str) -> BonesState:
    """After `kind` dice are rolled (or rerolled): a reroll offer while the roller has supply."""
    seat = 1 - state.player if kind == "defence" else state.player
    if state.supply[seat] > 0:
        return replace(state, stage=f"{kind}_reroll")
    return _dice_final(state, kind)


def _dice_final(state: BonesState, kind: str) -> BonesState:
    if kind == "attack":
        return replace(state, stage="defence_roll")
    if kind == "defence":
        attack = state.attack
        if len(set(attack.defence)) == 1 or len({r + s for r, s in zip(attack.rolls, attack.strengths)}) == 1:
            return _resolve(state, tuple(range(len(attack.defence))))
        return replace(state, stage="assign")
    back, extra = reinforce_options(state)
    if back or extra:
        return replace(state, stage="reinforce_choice")
    return _end_turn(state)


def judge(strength: int, roll: int, defence: int, firepower: int) -> PairResult:
    margin = roll + strength - (defence + firepower)
    effect = "slain" if margin >= firepower else "damage" if margin > 0 else "held"
    return PairResult(strength, roll, defence, firepower, margin, effect)


def _resolve(state: BonesState, dice: tuple[int, ...]) -> BonesState:
    attack = state.attack
    seat = 1 - state.player
    target = attack.target
    troop = state.troops[seat][target]
    pairs = tuple(judge(s, r, attack.defence[d], troop.face) for s, r, d in zip(attack.strengths, attack.rolls, dice))
    damage = sum(1 for p in pairs if p.effect == "damage")
    slain = any(p.effect == "slain" for p in pairs) or troop.face - damage <= 0
    state = _set_troop(state, seat, target, None if slain else replace(troop, face=troop.face - damage))
    state = replace(state, last=(seat, target, pairs), resolved=state.resolved + 1)
    if attack.group + 1 < len(attack.groups):
        return replace(state, stage="attack_roll", attack=replace(attack, group=attack.group + 1, rolls=(), defence=()))
    return _end_turn(state)


def _shrink(state: BonesState) -> BonesState:
    if state.side <= SMALLEST:
        return _end_turn(state)
    state = replace(state, side=state.side - SHRINK)
    low, high = area_bounds(state)
    outside = tuple((s, t) for s in (0, 1) for t, troop in enumerate(state.troops[s])
                    if troop is not None and not (low <= troop.x <= high and low <= troop.y <= high))
    return _roll_in(state, outside, "end")


def evolve(state: BonesState, event: object) -> BonesState:
    if isinstance(event, TroopLanded):
        state = _set_troop(state, event.seat, event.troop, Troop(event.x, event.y, event.face))
        return _after_landings(replace(state, landing=state.landing[1:]))
    if isinstance(event, LandingMissed):
        return state
    if isinstance(event, RolledOff):
        state = replace(state, rolloffs=state.rolloffs + ((event.a, event.b),))
        if event.a == event.b:
            return state
        return replace(state, stage="choose", player=0 if event.a > event.b else 1)
    if isinstance(event, OptionChosen):
        reengager = event.seat if event.reengage else 1 - event.seat
        return replace(state, stage="reengage", player=reengager, first_strike=1 - reengager)
    if isinstance(event, Reengaged):
        picks = tuple((event.seat, t) for t in event.own) + tuple((1 - event.seat, t) for t in event.theirs)
        return _roll_in(state, picks, "play")
    if isinstance(event, AttackDeclared):
        mine = state.troops[event.seat][event.troop]
        enemy = state.troops[1 - event.seat]
        groups: list[list[int]] = []
        for index, (target, _) in enumerate(event.attacks):
            if not in_range(mine, enemy[target], mine.face):
                continue  # only with no_premeasure: the attack misses
            if groups and event.attacks[groups[-1][0]][0] == target:
                groups[-1].append(index)
            else:
                groups.append([index])
        attack = AttackInProgress(event.troop, mine.face, event.attacks, tuple(tuple(g) for g in groups))
        state = replace(state, attack=attack, converge_by=None)
        return replace(state, stage="attack_roll") if groups else _end_turn(state)
    if isinstance(event, AttackRolled):
        return _offer(replace(state, attack=replace(state.attack, rolls=event.faces)), "attack")
    if isinstance(event, DefenceRolled):
        return _offer(replace(state, attack=replace(state.attack, defence=event.faces)), "defence")
    if isinstance(event, RerollCalled):
        return replace(_spend(state, event.seat), stage="reroll", reroll=(event.kind, event.index))
    if isinstance(event, DieRerolled):
        state = replace(state, reroll=("", 0))
        if event.kind == "reinforce":
            state = replace(state, reinforce_face=event.face)
        else:
            field = "rolls" if event.kind == "attack" else "defence"
            dice = list(getattr(state.attack, field))
            dice[event.index] = event.face
            state = replace(state, attack=replace(state.attack, **{field: tuple(dice)}))
        return _offer(state, event.kind)
    if isinstance(event, DiceKept):
        return _dice_final(state, event.kind)
    if isinstance(event, DefenceAssigned):
        return _resolve(state, event.dice)
    if isinstance(event, ReinforceCalled):
        return replace(state, stage="reinforce_roll", reinforce_troop=event.troop, converge_by=None)
    if isinstance(event, ReinforceRolled):
        return _offer(replace(state, reinforce_face=event.face), "reinforce")
    if isinstance(event, ReinforcementsTaken):
        picks = tuple((event.seat, t) for t in (event.troop, event.extra) if t is not None)
        return _roll_in(state, picks, "end")
    if isinstance(event, Resupplied):
        supply = list(state.supply)
        supply[event.seat] = min(MAX_SUPPLY, supply[event.seat] + event.face)
        state = replace(_set_troop(state, event.seat, event.troop, None), supply=tuple(supply), converge_by=None)
        return _end_turn(state)
    if isinstance(event, Converged):
        if state.converge_by == 1 - event.seat:
            return _shrink(replace(state, converge_by=None))
        return _end_turn(replace(state, converge_by=event.seat))
    raise TypeError(f"not a War of Bones event: {event!r}")


# ----- reading the game -----
def outcome(state: BonesState) -> Outcome | None:
    if state.stage != "over":
        return None
    if not state.result:
        return Outcome((), f"a draw: neither side has a troop left after turn {state.turn}")
    winner = state.result[0]
    left = len(state.in_play(winner))
    return Outcome((winner,), f"{label(state, winner)} wins on turn {state.turn} with {counted(left, 'troop')} left", left)


def label(state: BonesState, seat: int) -> str:
    return f"{state.names[seat]} ({SIDES[seat]})"


def _inches(hundredths: int) -> str:
    return f"{hundredths / 100:.2f}"


def _pairs_text(state: BonesState, after: BonesState) -> str:
    seat, target, pairs = after.last
    name = troop_name(seat, target)
    parts = [f"{p.roll}+{p.strength} vs {p.defence}+{p.firepower}: {p.effect}" for p in pairs]
    now = after.troops[seat][target]
    fate = "slain" if now is None else f"now {now.face}" if now.face != state.troops[seat][target].face else "unhurt"
    return f"; {name}: " + ", ".join(parts) + f" ({fate})"


def describe(state: BonesState, event: object, reveal: bool = True) -> str:
    after = evolve(state, event)
    typed = " (typed)" if getattr(event, "typed", False) else ""
    if isinstance(event, TroopLanded):
        text = (f"{troop_name(event.seat, event.troop)} lands at ({_inches(event.x)}, {_inches(event.y)}) "
                f"showing {event.face}")
    elif isinstance(event, LandingMissed):
        text = (f"{troop_name(event.seat, event.troop)} lands on another die at ({_inches(event.x)}, "
                f"{_inches(event.y)}) and is rolled again")
    elif isinstance(event, RolledOff):
        text = f"roll-off: A {event.a}, B {event.b}{typed}: " + (
            "a tie, roll again" if event.a == event.b else f"{label(state, after.player)} chooses")
    elif isinstance(event, OptionChosen):
        text = f"{label(state, event.seat)} chooses {'Reengage' if event.reengage else 'First Strike'}"
    elif isinstance(event, Reengaged):
        picks = [troop_name(event.seat, t) for t in event.own] + [troop_name(1 - event.seat, t) for t in event.theirs]
        text = f"{label(state, event.seat)} reengages " + (", ".join(picks) if picks else "nothing")
    elif isinstance(event, AttackDeclared):
        attacks = ", ".join(f"{troop_name(1 - event.seat, t)} at {s}" for t, s in event.attacks)
        text = f"{label(state, event.seat)} attacks with {troop_name(event.seat, event.troop)}: {attacks}"
        if after.attack and after.attack.missed:
            text += "; out of range, missed: " + ", ".join(troop_name(1 - event.seat, t) for t, _ in after.attack.missed)
    elif isinstance(event, AttackRolled):
        text = f"attack dice on {troop_name(1 - event.seat, event.target)}: {' '.join(map(str, event.faces))}{typed}"
    elif isinstance(event, DefenceRolled):
        text = f"defence dice of {troop_name(event.seat, event.target)}: {' '.join(map(str, event.faces))}{typed}"
    elif isinstance(event, RerollCalled):
        text = f"{label(state, event.seat)} spends 1 supply to reroll {event.kind} die {event.index + 1}"
    elif isinstance(event, DieRerolled):
        text = f"the rerolled {event.kind} die shows {event.face}{typed}"
    elif isinstance(event, DiceKept):
        text = f"{label(state, event.seat)} keeps the {event.kind} dice"
    elif isinstance(event, DefenceAssigned):
        text = f"{label(state, event.seat)} assigns the defence dice " + " ".join(
            str(state.attack.defence[d]) for d in event.dice)
    elif isinstance(event, ReinforceCalled):
        face = state.troops[event.seat][event.troop].face
        text = f"{label(state, event.seat)} reinforces {troop_name(event.seat, event.troop)} (showing {face})"
    elif isinstance(event, ReinforceRolled):
        text = f"the reinforce roll is {event.face}{typed}"
    elif isinstance(event, ReinforcementsTaken):
        parts = []
        if event.troop is not None:
            parts.append(f"{troop_name(event.seat, event.troop)} rolls back in")
        if event.extra is not None:
            parts.append(f"{troop_name(event.seat, event.extra)} joins")
        text = f"{label(state, event.seat)}: " + (" and ".join(parts) if parts else "no troop rolls in")
    elif isinstance(event, Resupplied):
        text = (f"{label(state, event.seat)} resupplies with {troop_name(event.seat, event.troop)} "
                f"({event.face}): supply {after.supply[event.seat]}")
    elif isinstance(event, Converged):
        if state.converge_by == 1 - event.seat:
            text = f"{label(state, event.seat)} answers the converge: " + (
                f"the area shrinks to {after.side // 100} inches" if after.side < state.side else "the area is at its smallest")
        else:
            text = f"{label(state, event.seat)} converges (the area shrinks if the opponent converges next)"
    else:
        return str(event)
    if after.resolved != state.resolved:
        text += _pairs_text(state, after)
    if after.stage == "over":
        result = outcome(after)
        text += f"; {result.summary}"
    return text


def progress(state: BonesState) -> str:
    result = outcome(state)
    if result is not None:
        return result.summary
    if state.turn == 0:
        return "setup"
    counts = " ".join(f"{SIDES[s]} {counted(len(state.in_play(s)), 'troop')}, supply {state.supply[s]};" for s in (0, 1))
    return f"turn {state.turn}: {counts} area {state.side // 100} in"


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: the setup choices and every action."""
    return isinstance(event, (OptionChosen, Reengaged) + ACTION_EVENTS)
