"""Angry Troll versus Magic Bridge (seed 002): a solitaire with 52 cards, one die and a troll.

Rules as ../shared/RULINGS.md decides (the seed's section 7.1, without the removed rule about
unsupported bricks). A turn is an awakening phase (one die roll per card played onto a flight
stack), two troll actions, the flight phase of every awake top card, then the end-of-turn checks
(collapse, win). `decide` returns the troll's action followed by every automatic consequence as
its own event (lost actions, the flight phase, the checks, the next turn's start), so a log shows
each step; die rolls and the shuffle are chance events that the session draws and records.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.core import ChanceNeeded, IllegalCommand, Outcome, Player
from engine.session import replace
from engine.text import clean_text

ID = "troll"
TITLE = "Angry Troll versus Magic Bridge"
BLURB = "calm a bridge of cards as a troll"
RULES_VERSION = 1

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
# The shuffle's starting order: clubs, diamonds, hearts, spades, each ace to king.
FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
ROWS = ("upper", "lower")
COLUMNS = (1, 2, 3, 4, 5, 6)
DIRECTIONS = ("up", "down", "left", "right")
PRESETS = {"standard": (3, 2, 1, 1, 2, 3), "sturdy": (4, 3, 2, 2, 3, 4), "tutorial": (5, 4, 3, 3, 4, 5)}
THE_CLUB = "AC"
DIAMOND_ACE = "AD"
LEFT_BANK, RIGHT_BANK = 0, 7  # flight destinations past position 1 or 6
QUIET_LIMIT = 10  # dicehall's decision: quiet turns in a row before the bridge wins
SHUFFLE_SPEC = tuple(range(52, 1, -1))  # (52, 51, ..., 2): draw i picks among 52 - i cards

RULES_TEXT = """\
ANGRY TROLL VERSUS MAGIC BRIDGE - a solitaire for one player, 52 cards and
one die.

The bridge: two rows (upper and lower) of six positions, numbered 1 to 6
from the left bank to the right bank. Each position holds a stack of cards
(bricks); only its top card is in play, dormant (face down) or awake (face
up). A card under another card waits until it is on top again. On the
screen a * after a stack's height marks a stack with an awake card buried
in it: it still counts as awake for the win.
Cards: A 2 ... 10 J Q K of clubs, diamonds, hearts and spades (AC, 10H,
QS). Clubs and spades are black, diamonds and hearts red. The ace of clubs
(AC) is THE CLUB.

Difficulty (stack heights from position 1 to 6, the same in both rows):
  standard  3 2 1 1 2 3  24 bricks, deck 28, 27 awakenings at least
  sturdy    4 3 2 2 3 4  36 bricks, deck 16, 15 awakenings at least
  tutorial  5 4 3 3 4 5  48 bricks, deck 4, 3 awakenings at least
  custom    option heights: six numbers of 1 or more, at most 25 per
            row (50 bricks: one card must be left to turn up first; 24
            per row with THE CLUB or both aces held from the start);
            preset heights keep the preset's name
(The deck is the deck of awakening.)

Setup: the deck is shuffled and the bridge dealt face down: upper 1 to 6,
then lower 1 to 6, each stack from its bottom card up. The rest is the
deck of awakening. Its top card goes face up onto the lower flight stack:
the lower row has that card's colour, the upper row the other colour. This
first card wakes nothing. Then a die roll puts the troll on that position
of the lower row.

A turn:
1. Awakening phase. If cards were set aside since the last awakening
   phase, each of them, in the order they were set aside, goes onto the
   flight stack of its colour and causes one awakening. Otherwise the
   deck's top card does (one awakening). If both are empty, nothing
   awakens. Cards set aside during this phase wait for the next turn.
   One awakening: the flight stack picks the row, a die roll the position.
   If that position is empty, look toward the nearer bank (1-3 toward 1,
   4-6 toward 6) for the first occupied position; if there is none, look
   the other way from the rolled position; if the row is empty, nothing
   awakens. A dormant top card turns awake (also under the troll). An
   awake top card flies away: it is set aside, and if the troll stands on
   it, the troll flies away too and the game is lost.
2. The troll takes exactly two actions. When no action is possible, the
   remaining ones are lost (the log says so; if none is possible at all,
   the only command is "wait").
   - move up, down, left or right onto an occupied position it has not
     stood on this turn (the position it started the turn on counts as
     stood on);
   - stomp the awake top card it stands on: it turns dormant;
   - pick up an awake top card next to it (up, down, left or right) that
     is not a heart, when its hands are empty: it carries the card awake;
   - use the awake card it carries, which is then set aside:
     club: turns an awake top card next to it dormant;
     diamond: thrown up, down, left or right, it turns dormant the first
       awake top card in that direction (dormant cards and gaps do not
       stop it; thrown off the bridge it hits nothing);
     spade: flips an awake top card next to it into the troll's hands,
     dormant;
   - lay down the dormant card it carries onto any position next to it (on
     top of a stack or into a gap).
   THE CLUB (AC) works as a club but is not set aside; while the troll
   holds it, it picks up nothing else, for the rest of the game.
3. Flight phase: every awake top card on the bridge, except the one the
   troll stands on, moves one position toward its nearer bank (1-3 left,
   4-6 right), unless the troll stands between it and that bank in the
   same row: then it moves toward the other bank. All move at once, from
   where they stood before the phase; two landing on one stack land in
   order of their old positions, left first. Cards move into gaps too. A
   card that moves past position 1 or 6 reaches the bank: it has fled and
   is set aside.
4. Checks. The bridge stands only if occupied positions connect a position
   1 to a position 6 through steps left, right, up or down; otherwise it
   collapses and the game is lost. The troll wins if the deck is empty,
   nothing is set aside, no card on the bridge is awake (covered cards
   included) and the bridge stands. A win with every position occupied is
   perfect. A carried card does not prevent a win.

Score: the cards left in the deck of awakening when the game ends (lower
is better; 0 on a win).

Variants (options, true or false):
- starting_card: the troll starts carrying the deck's top card after
  setup, awake; a heart goes to the bottom of the deck and the next card
  is taken.
- reusable_diamond_ace: the AD works like THE CLUB: it is kept after use,
  and while the troll holds it, it picks up nothing else.
- club_at_start: the troll holds THE CLUB from the start (taken out before
  the deal).
- toys: both aces reusable and both held from the start.
Option deck: the 52 card codes, top card first, dealt in that order
without a shuffle (puzzles, shared deals).

dicehall's decisions (where the seed and the rulings are silent):
- Cards fleeing in the same flight phase are set aside in bridge order:
  the upper row before the lower row, each from position 1 to 6.
- Quiet turns: a turn in which no card is played onto a flight stack (the
  deck is empty and nothing was set aside). After 10 quiet turns in a row
  without a win, the bridge wins: the game is lost ("the bridge would not
  settle"). Without this, an awake card covered by a dormant one could
  keep a game going forever.
- A dormant card in the troll's hands (after a spade) can only be laid
  down, even the AC: THE CLUB's powers come from holding it awake.
- starting_card cannot go with club_at_start or toys: the troll's hands
  are full. If the deck holds nothing but hearts, the troll starts
  empty-handed.
- The die is rolled for every awakening, even when the row is empty.
- The shuffle: draw i (0 to 50) picks one of the 52 - i cards not yet
  drawn, counted in the order clubs, diamonds, hearts, spades, each from
  ace to king; the drawn cards, in draw order, are the deck from its top;
  the last card left is its bottom card.

Questions from the playtesters:
- Test #4 and #5: the die points at an empty position. Look toward the
  nearer bank for the first card; if there is none that way, look the
  other way; an empty row wakes nothing (Test #6: the troll's actions and
  the flight phase still happen).
- Test #6: the die points at a card that is already awake. It flies away
  and is set aside; nothing else wakes. If the troll stands on it, the
  troll flies away too and the game is lost.
- Test #6 and #5: what happens to cards that fly (flew away, fled to a
  bank, or were used)? They are set aside. In the next awakening phase
  each one, in order, goes onto the flight stack of its colour and causes
  one awakening, instead of the deck's top card. Then the troll takes its
  two actions.
- Test #6: the card the troll carries is not part of the bridge: it does
  not count, does not flee and does not prevent a win.
- Test #7: a dormant card under the troll awakens as usual when its
  position is rolled, also one the troll stomped last turn. Rolled again
  while awake, it flies away and takes the troll with it.
- Test #7: yes, cards flee off both ends of the bridge: each flees toward
  its own nearer bank (the other one when the troll is in the way),
  several can flee in the same turn, and fleeing cards move into empty
  positions on their way.
- Test #5: a diamond flies any distance in a straight line and hits the
  first awake top card; the troll cannot pick up a heart (a spade can flip
  one into its hands).
"""


# ----- cards and positions -----
def colour_of(code: str) -> str:
    return "red" if code[-1] in "DH" else "black"


@dataclass(frozen=True)
class Card:
    """A card on the bridge or in the troll's hands; awake is face up."""

    code: str
    awake: bool = False

    @property
    def suit(self) -> str:
        return self.code[-1]

    @property
    def colour(self) -> str:
        return colour_of(self.code)


@dataclass(frozen=True)
class FlightStack:
    colour: str  # "red" or "black" ("" before the setup)
    cards: tuple[str, ...] = ()  # bottom first


Pos = tuple[str, int]  # ("upper" or "lower", 1..6)


def neighbour(pos: Pos, direction: str) -> Pos | None:
    """The position one step away on the bridge, or None past its edge."""
    row, col = pos
    if direction == "up":
        return ("upper", col) if row == "lower" else None
    if direction == "down":
        return ("lower", col) if row == "upper" else None
    col += -1 if direction == "left" else 1
    return (row, col) if 1 <= col <= 6 else None


def line(pos: Pos, direction: str) -> list[Pos]:
    """Every position from `pos` (excluded) in one direction to the edge of the bridge."""
    out = []
    step = neighbour(pos, direction)
    while step is not None:
        out.append(step)
        step = neighbour(step, direction)
    return out


def place(pos: Pos) -> str:
    return f"{pos[0]} {pos[1]}"


# ----- commands -----
@dataclass(frozen=True)
class Move:
    direction: str

    def __str__(self) -> str:
        return f"move {self.direction}"


@dataclass(frozen=True)
class Stomp:
    def __str__(self) -> str:
        return "stomp"


@dataclass(frozen=True)
class PickUp:
    direction: str

    def __str__(self) -> str:
        return f"pick up {self.direction}"


@dataclass(frozen=True)
class UseClub:
    direction: str

    def __str__(self) -> str:
        return f"use club on {self.direction}"


@dataclass(frozen=True)
class ThrowDiamond:
    direction: str

    def __str__(self) -> str:
        return f"throw diamond {self.direction}"


@dataclass(frozen=True)
class UseSpade:
    direction: str

    def __str__(self) -> str:
        return f"use spade on {self.direction}"


@dataclass(frozen=True)
class LayDown:
    direction: str

    def __str__(self) -> str:
        return f"lay down {self.direction}"


@dataclass(frozen=True)
class Wait:
    """Only when no action at all is possible: the turn's actions are lost."""

    def __str__(self) -> str:
        return "wait"


COMMANDS = (Move, Stomp, PickUp, UseClub, ThrowDiamond, UseSpade, LayDown, Wait)


def parse_command(text: str) -> object:
    """A command from its printed form ("move up", "use club on left", "stomp", ...)."""
    words = " ".join(str(text).lower().split())
    for direction in DIRECTIONS:
        for cls in (Move, PickUp, UseClub, ThrowDiamond, UseSpade, LayDown):
            if words == str(cls(direction)):
                return cls(direction)
    if words == "stomp":
        return Stomp()
    if words == "wait":
        return Wait()
    raise IllegalCommand(f"not a troll command: {clean_text(text, 30)!r} (e.g. move up, stomp, pick up left)")


# ----- events -----
@dataclass(frozen=True)
class DeckShuffled:
    """Chance: the deck's order, top card first; the bridge is dealt from it."""

    order: tuple[str, ...]
    typed: bool = False


@dataclass(frozen=True)
class TrollPlaced:
    """Chance: the die puts the troll on the lower row; turn 1 begins."""

    face: int
    typed: bool = False


@dataclass(frozen=True)
class AwakeningRolled:
    """Chance: `card` goes onto its flight stack and the die picks the position in `row`.

    col is where the awakening landed (0: the row is empty); result is "woke", "flew",
    "troll flew" or "nothing"."""

    card: str
    row: str
    face: int
    col: int
    result: str
    typed: bool = False


@dataclass(frozen=True)
class TrollMoved:
    direction: str
    row: str
    col: int


@dataclass(frozen=True)
class CardStomped:
    card: str
    row: str
    col: int


@dataclass(frozen=True)
class CardPickedUp:
    card: str
    direction: str
    row: str
    col: int


@dataclass(frozen=True)
class ClubUsed:
    club: str
    direction: str
    card: str
    row: str
    col: int


@dataclass(frozen=True)
class DiamondThrown:
    """card is "" and col 0 when the diamond hit nothing."""

    diamond: str
    direction: str
    card: str
    row: str
    col: int


@dataclass(frozen=True)
class SpadeUsed:
    spade: str
    direction: str
    card: str
    row: str
    col: int


@dataclass(frozen=True)
class CardLaidDown:
    card: str
    direction: str
    row: str
    col: int


@dataclass(frozen=True)
class ActionsLost:
    count: int


@dataclass(frozen=True)
class FlightPhase:
    """Each move is (card, row, from, to); to is 0 for the left bank, 7 for the right bank."""

    moves: tuple[tuple[str, str, int, int], ...]


@dataclass(frozen=True)
class BridgeCollapsed:
    turn: int


@dataclass(frozen=True)
class TrollWon:
    perfect: bool


@dataclass(frozen=True)
class BridgeUnsettled:
    quiet_turns: int


@dataclass(frozen=True)
class TurnBegan:
    """cards: what this awakening phase plays, in order; from_deck: the deck's top card."""

    turn: int
    cards: tuple[str, ...]
    from_deck: bool


EVENTS = {
    cls.__name__: cls
    for cls in (
        DeckShuffled, TrollPlaced, AwakeningRolled, TrollMoved, CardStomped, CardPickedUp, ClubUsed,
        DiamondThrown, SpadeUsed, CardLaidDown, ActionsLost, FlightPhase, BridgeCollapsed, TrollWon,
        BridgeUnsettled, TurnBegan,
    )
}
CHANCE_EVENTS = (DeckShuffled, TrollPlaced, AwakeningRolled)


# ----- state -----
@dataclass(frozen=True)
class TrollState:
    heights: tuple[int, ...]
    starting_card: bool = False
    held_at_start: tuple[str, ...] = ()  # aces taken out before the deal and given to the troll
    reusable: tuple[str, ...] = (THE_CLUB,)  # carried cards kept after use
    upper: tuple[tuple[Card, ...], ...] = ((),) * 6  # per position a stack, top card last
    lower: tuple[tuple[Card, ...], ...] = ((),) * 6
    troll: Pos | None = None
    carried: tuple[Card, ...] = ()
    upper_flight: FlightStack = FlightStack("")
    lower_flight: FlightStack = FlightStack("")
    deck: tuple[str, ...] = ()  # the deck of awakening, top card first
    set_aside: tuple[str, ...] = ()  # in the order they were set aside
    awakening: tuple[str, ...] = ()  # cards still to be played in this awakening phase
    turn: int = 0
    phase: str = "shuffle"  # shuffle, placing, awakening, actions, checks, over
    actions_left: int = 0
    stood: tuple[Pos, ...] = ()  # positions stood on this turn
    quiet_turns: int = 0  # quiet turns in a row
    end: str = ""  # "", "won", "perfect", "collapsed", "flew", "unsettled"

    def stack(self, pos: Pos) -> tuple[Card, ...]:
        return (self.upper if pos[0] == "upper" else self.lower)[pos[1] - 1]

    def top(self, pos: Pos) -> Card | None:
        stack = self.stack(pos)
        return stack[-1] if stack else None

    @property
    def deck_count(self) -> int:
        return len(self.deck)

    @property
    def club_held(self) -> bool:
        """THE CLUB in the troll's hands, awake: it picks up nothing else for the rest of the game."""
        return any(c.code == THE_CLUB and c.awake for c in self.carried)

    @property
    def lower_colour(self) -> str:
        return self.lower_flight.colour


def with_stack(state: TrollState, pos: Pos, stack: tuple[Card, ...]) -> TrollState:
    row, col = pos
    cells = list(state.upper if row == "upper" else state.lower)
    cells[col - 1] = stack
    return replace(state, **{row: tuple(cells)})


def row_of(state: TrollState, code: str) -> str:
    return "lower" if colour_of(code) == state.lower_flight.colour else "upper"


def occupied(state: TrollState) -> set[Pos]:
    return {(row, col) for row in ROWS for col in COLUMNS if state.stack((row, col))}


# ----- options and setup -----
def _flag(options: dict, key: str) -> bool:
    value = options.get(key, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):  # the command line passes whole numbers
        return bool(value)
    raise ValueError(f"{key} must be true or false")


def _card_code(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("deck: every card is a code such as AS or 10H")
    code = value.strip().upper()
    if code not in FULL_DECK:
        raise ValueError(f"deck: {clean_text(value, 10)!r} is not a card (A 2 ... 10 J Q K + C D H S)")
    return code


VARIANTS = ("starting_card", "reusable_diamond_ace", "club_at_start", "toys")


def game_label(options: dict) -> str:
    """The difficulty and variants of a game's checked options, in a few words: "sturdy, toys"."""
    difficulty = options.get("difficulty", "standard")
    if difficulty == "custom":
        difficulty = "custom " + "".join(str(h) for h in options.get("heights", ()))
    variants = [v.replace("_", " ") for v in VARIANTS if options.get(v)]
    if options.get("toys"):  # toys implies the two held aces: say it once
        variants = ["toys"]
    deal = ["dealt deck"] if options.get("deck") is not None else []
    return ", ".join([difficulty] + variants + deal)


def check_options(options: dict) -> dict:
    known = ("difficulty", "heights", "starting_card", "reusable_diamond_ace", "club_at_start", "toys", "deck")
    for key in options:
        if key not in known:
            raise ValueError(f"unknown option {clean_text(key, 20)!r} (known: {', '.join(known)})")
    difficulty = options.get("difficulty", "standard")
    if difficulty not in (*PRESETS, "custom"):
        raise ValueError("difficulty must be standard, sturdy, tutorial or custom")
    raw = options.get("heights")
    if raw is None:
        if difficulty == "custom":
            raise ValueError("custom difficulty needs heights (six numbers)")
        heights = PRESETS[difficulty]
    else:
        if not isinstance(raw, (list, tuple)) or len(raw) != 6 or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 1 for h in raw
        ):
            raise ValueError("heights must be six whole numbers of 1 or more")
        heights = tuple(raw)
        if PRESETS.get(difficulty) != heights:  # heights override the difficulty; a preset's keep its name
            difficulty = next((name for name, preset in PRESETS.items() if preset == heights), "custom")
    toys = _flag(options, "toys")
    # toys: both aces reusable and held from the start, so it implies the two other variants
    reusable_ad = _flag(options, "reusable_diamond_ace") or toys
    club_at_start = _flag(options, "club_at_start") or toys
    starting_card = _flag(options, "starting_card")
    if starting_card and club_at_start:
        raise ValueError("starting_card cannot go with club_at_start or toys: the troll's hands are full")
    held = 2 if toys else 1 if club_at_start else 0
    if 2 * sum(heights) > 51 - held:  # one card must be left to turn up first (it gives the rows' colours)
        most = (51 - held) // 2  # both rows have the same heights
        raise ValueError(f"the bridge would take {2 * sum(heights)} of the {52 - held} cards to deal; at most "
                         f"{2 * most} ({most} per row) can go in, so that one is left to turn up first")
    normal = {
        "difficulty": difficulty, "heights": list(heights), "starting_card": starting_card,
        "reusable_diamond_ace": reusable_ad, "club_at_start": club_at_start, "toys": toys,
    }
    if options.get("deck") is not None:
        deck = options["deck"]
        if not isinstance(deck, (list, tuple)) or len(deck) != 52:
            raise ValueError("deck must list the 52 cards, top card first")
        codes = [_card_code(c) for c in deck]
        if len(set(codes)) != 52:
            raise ValueError("deck: every card must appear once")
        normal["deck"] = codes
    return normal


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) > 1:
        raise ValueError("Angry Troll versus Magic Bridge is a solitaire: one player")
    if players and players[0].bot:
        raise ValueError("the troll is played by a person, not a bot")
    name = clean_text(players[0].name) if players else ""
    return (Player(name or "Player"),)


def initial_state(options: dict, players: tuple[Player, ...]) -> TrollState:
    held = (THE_CLUB, DIAMOND_ACE) if options["toys"] else (THE_CLUB,) if options["club_at_start"] else ()
    state = TrollState(
        heights=tuple(options["heights"]),
        starting_card=options["starting_card"],
        held_at_start=held,
        reusable=(THE_CLUB, DIAMOND_ACE) if options["reusable_diamond_ace"] else (THE_CLUB,),
    )
    if options.get("deck"):
        return deal(state, tuple(options["deck"]))  # an explicit deal: no shuffle
    return state


def deal(state: TrollState, order: tuple[str, ...]) -> TrollState:
    """Set up from a deck order (top first): held aces out, the bridge, the first flight card."""
    cards = [c for c in order if c not in state.held_at_start]
    rows: dict[str, list[tuple[Card, ...]]] = {}
    for row in ROWS:  # upper 1..6, then lower 1..6, each stack from its bottom card up
        rows[row] = []
        for height in state.heights:
            rows[row].append(tuple(Card(c) for c in cards[:height]))
            cards = cards[height:]
    first = cards.pop(0)
    lower_colour = colour_of(first)
    upper_colour = "black" if lower_colour == "red" else "red"
    carried = tuple(Card(c, True) for c in state.held_at_start)
    if state.starting_card:
        hearts = []
        while cards and cards[0][-1] == "H":  # a heart goes to the bottom, the next card is taken
            hearts.append(cards.pop(0))
        if cards:
            carried = (Card(cards.pop(0), True),)
        cards += hearts
    return replace(
        state, upper=tuple(rows["upper"]), lower=tuple(rows["lower"]), carried=carried,
        lower_flight=FlightStack(lower_colour, (first,)), upper_flight=FlightStack(upper_colour),
        deck=tuple(cards), phase="placing",
    )


def shuffled(draws: tuple[int, ...]) -> tuple[str, ...]:
    """The deck order (top first) of a shuffle: draw i picks one of the cards not yet drawn."""
    remaining = list(FULL_DECK)
    order = [remaining.pop(d) for d in draws]
    return tuple(order + remaining)


# ----- the protocol -----
def to_act(state: TrollState) -> int | None:
    return 0 if state.phase == "actions" and not state.end else None


def chance_needed(state: TrollState) -> ChanceNeeded | None:
    if state.end:
        return None
    if state.phase == "shuffle":
        return ChanceNeeded(spec=SHUFFLE_SPEC, prompt="shuffle the deck", dice=False)
    if state.phase == "placing":
        return ChanceNeeded(spec=(6,), prompt="roll for the troll's position on the lower row", dice=True)
    if state.phase == "awakening" and state.awakening:
        card = state.awakening[0]
        return ChanceNeeded(spec=(6,), prompt=f"roll to awaken a brick of the {row_of(state, card)} row ({card})")
    return None


def awakening_target(state: TrollState, row: str, face: int) -> int:
    """The column one awakening lands on: the rolled one, else toward the nearer bank, else the
    other way; 0 when the row is empty."""
    if state.stack((row, face)):
        return face
    toward = range(face - 1, 0, -1) if face <= 3 else range(face + 1, 7)
    away = range(face + 1, 7) if face <= 3 else range(face - 1, 0, -1)
    for col in (*toward, *away):
        if state.stack((row, col)):
            return col
    return 0


def chance_event(state: TrollState, draws: tuple[int, ...], typed: bool) -> object:
    if state.phase == "shuffle":
        return DeckShuffled(order=shuffled(tuple(draws)), typed=typed)
    face = draws[0] + 1
    if state.phase == "placing":
        return TrollPlaced(face=face, typed=typed)
    card = state.awakening[0]
    row = row_of(state, card)
    col = awakening_target(state, row, face)
    if col == 0:
        result = "nothing"
    elif not state.stack((row, col))[-1].awake:
        result = "woke"
    else:
        result = "troll flew" if state.troll == (row, col) else "flew"
    return AwakeningRolled(card=card, row=row, face=face, col=col, result=result, typed=typed)


def chance_draws(event: object) -> tuple[int, ...]:
    if isinstance(event, DeckShuffled):
        remaining = list(FULL_DECK)
        draws = []
        for code in event.order[:-1]:
            index = remaining.index(code)
            draws.append(index)
            remaining.pop(index)
        return tuple(draws)
    if isinstance(event, (TrollPlaced, AwakeningRolled)):
        return (event.face - 1,)
    raise TypeError(f"not a troll chance event: {event!r}")


def carried_awake(state: TrollState, suit: str) -> Card | None:
    return next((c for c in state.carried if c.awake and c.suit == suit), None)


def awake_top_at(state: TrollState, pos: Pos | None, what: str) -> Card:
    """The awake top card at a position next to the troll, or IllegalCommand saying why not."""
    if pos is None:
        raise IllegalCommand(f"there is no position {what} of {place(state.troll)}")
    top = state.top(pos)
    if top is None:
        raise IllegalCommand(f"{place(pos)} is empty")
    if not top.awake:
        raise IllegalCommand(f"the card at {place(pos)} is dormant")
    return top


def action_event(state: TrollState, command: object) -> object:
    """The event of one troll action, or IllegalCommand with the reason."""
    if not isinstance(command, COMMANDS) or isinstance(command, Wait):
        raise IllegalCommand("not a troll command (move, stomp, pick up, use, throw, lay down)")
    troll = state.troll
    if isinstance(command, Stomp):
        top = state.top(troll)
        if not top.awake:
            raise IllegalCommand("the card under the troll is dormant already")
        return CardStomped(top.code, *troll)
    direction = getattr(command, "direction", None)
    if direction not in DIRECTIONS:
        raise IllegalCommand(f"not a direction: {clean_text(direction, 10)!r} (up, down, left, right)")
    target = neighbour(troll, direction)
    if isinstance(command, Move):
        if target is None:
            raise IllegalCommand(f"there is no position {direction} of {place(troll)}")
        if not state.stack(target):
            raise IllegalCommand(f"{place(target)} is empty: the troll must stand on a brick")
        if target in state.stood:
            raise IllegalCommand(f"the troll has stood on {place(target)} this turn already")
        return TrollMoved(direction, *target)
    if isinstance(command, PickUp):
        if state.club_held:
            raise IllegalCommand("the troll holds THE CLUB: it picks up nothing else")
        if state.carried:
            raise IllegalCommand(f"the troll's hands are not empty (it carries the {state.carried[0].code})")
        top = awake_top_at(state, target, direction)
        if top.suit == "H":
            raise IllegalCommand("the troll cannot pick up a heart: a troll cannot have a heart")
        return CardPickedUp(top.code, direction, *target)
    if isinstance(command, UseClub):
        club = carried_awake(state, "C")
        if club is None:
            raise IllegalCommand("the troll carries no awake club")
        top = awake_top_at(state, target, direction)
        return ClubUsed(club.code, direction, top.code, *target)
    if isinstance(command, ThrowDiamond):
        diamond = carried_awake(state, "D")
        if diamond is None:
            raise IllegalCommand("the troll carries no awake diamond")
        for pos in line(troll, direction):
            top = state.top(pos)
            if top is not None and top.awake:
                return DiamondThrown(diamond.code, direction, top.code, *pos)
        return DiamondThrown(diamond.code, direction, "", "", 0)  # off the bridge: it hits nothing
    if isinstance(command, UseSpade):
        spade = carried_awake(state, "S")
        if spade is None:
            raise IllegalCommand("the troll carries no awake spade")
        top = awake_top_at(state, target, direction)
        return SpadeUsed(spade.code, direction, top.code, *target)
    if isinstance(command, LayDown):
        card = next((c for c in state.carried if not c.awake), None)
        if card is None:
            raise IllegalCommand("the troll carries no dormant card to lay down")
        if target is None:
            raise IllegalCommand(f"there is no position {direction} of {place(troll)}")
        return CardLaidDown(card.code, direction, *target)
    raise IllegalCommand("not a troll command")


def _candidates() -> list[object]:
    out: list[object] = [Move(d) for d in DIRECTIONS] + [Stomp()]
    for cls in (PickUp, UseClub, ThrowDiamond, UseSpade, LayDown):
        out += [cls(d) for d in DIRECTIONS]
    return out


CANDIDATES = _candidates()


_NEIGHBOURS = {(row, col): tuple((d, neighbour((row, col), d)) for d in DIRECTIONS) for row in ROWS for col in COLUMNS}
_BY_DIRECTION = {cls: {d: cls(d) for d in DIRECTIONS} for cls in (Move, PickUp, UseClub, ThrowDiamond, UseSpade, LayDown)}
_STOMP = Stomp()


def possible_actions(state: TrollState) -> list[object]:
    """Every action `action_event` allows now, in CANDIDATES' order, found directly (a playout asks
    this every action; trying each candidate and catching its refusal cost a third of a playout)."""
    troll_at = state.troll
    around = _NEIGHBOURS[troll_at]
    stood = state.stood
    out: list[object] = [_BY_DIRECTION[Move][d] for d, pos in around if pos is not None and state.stack(pos) and pos not in stood]
    if state.top(troll_at).awake:
        out.append(_STOMP)
    awake_next = []  # directions with an awake top card next to the troll, and that card
    for d, pos in around:
        if pos is not None:
            top = state.top(pos)
            if top is not None and top.awake:
                awake_next.append((d, top))
    carried = state.carried
    if not carried and not state.club_held:
        out += [_BY_DIRECTION[PickUp][d] for d, top in awake_next if top.suit != "H"]
    if carried:
        if carried_awake(state, "C") is not None:
            out += [_BY_DIRECTION[UseClub][d] for d, _ in awake_next]
        if carried_awake(state, "D") is not None:
            out += _BY_DIRECTION[ThrowDiamond].values()
        if carried_awake(state, "S") is not None:
            out += [_BY_DIRECTION[UseSpade][d] for d, _ in awake_next]
        if any(not c.awake for c in carried):
            out += [_BY_DIRECTION[LayDown][d] for d, pos in around if pos is not None]
    return out


def legal_commands(state: TrollState) -> list[object]:
    if to_act(state) is None:
        return []
    return possible_actions(state) or [Wait()]


def flight_moves(state: TrollState) -> tuple[tuple[str, str, int, int], ...]:
    """Every awake top card but the troll's, one step toward its nearer bank unless the troll is
    in the way; listed upper row first, left to right (landings and set-aside follow this order)."""
    moves = []
    for row in ROWS:
        for col in COLUMNS:
            top = state.top((row, col))
            if top is None or not top.awake or state.troll == (row, col):
                continue
            step = -1 if col <= 3 else 1
            if state.troll is not None and state.troll[0] == row and (state.troll[1] - col) * step > 0:
                step = -step  # the troll stands between it and that bank
            moves.append((top.code, row, col, col + step))
    return tuple(moves)


def bridge_stands(state: TrollState) -> bool:
    """Occupied positions connect a position 1 to a position 6 through orthogonal steps."""
    cells = occupied(state)
    todo = deque(p for p in cells if p[1] == 1)
    seen = set(todo)
    while todo:
        pos = todo.popleft()
        if pos[1] == 6:
            return True
        for direction in DIRECTIONS:
            step = neighbour(pos, direction)
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    return False


def collapse_cause(state: TrollState) -> str:
    """Where a fallen bridge is broken, in words: how far the occupied positions reach from the left
    bank and which empty positions stop them (derived from the bridge as it stands)."""
    cells = occupied(state)
    todo = deque(p for p in cells if p[1] == 1)
    seen = set(todo)
    while todo:
        pos = todo.popleft()
        for direction in DIRECTIONS:
            step = neighbour(pos, direction)
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    if not seen:
        return "no path from bank to bank: upper 1 and lower 1 are empty"
    far = max(col for _, col in seen)
    gaps = [place((row, far + 1)) for row in ROWS if (row, far) in seen]
    return f"no path from bank to bank: the left bank's part ends at column {far} ({' and '.join(gaps)} empty)"


def calm(state: TrollState) -> bool:
    """No card on the bridge is awake, covered ones included."""
    return not any(card.awake for row in (state.upper, state.lower) for stack in row for card in stack)


def next_turn(state: TrollState) -> TurnBegan:
    if state.set_aside:
        return TurnBegan(state.turn + 1, state.set_aside, False)
    if state.deck:
        return TurnBegan(state.turn + 1, state.deck[:1], True)
    return TurnBegan(state.turn + 1, (), False)  # a quiet turn: nothing awakens


def end_of_turn(state: TrollState) -> list[object]:
    """The flight phase, the checks and the next turn's start, as events."""
    flight = FlightPhase(flight_moves(state))
    state = evolve(state, flight)
    if not bridge_stands(state):
        return [flight, BridgeCollapsed(state.turn)]
    if not state.deck and not state.set_aside and calm(state):
        return [flight, TrollWon(perfect=len(occupied(state)) == 12)]
    if state.quiet_turns >= QUIET_LIMIT:
        return [flight, BridgeUnsettled(state.quiet_turns)]
    return [flight, next_turn(state)]


def decide(state: TrollState, command: object) -> tuple[object, ...]:
    if state.end:
        raise IllegalCommand(f"the game is over: {outcome(state).summary}")
    if state.phase != "actions":
        raise IllegalCommand("the troll waits for the awakening phase's dice")
    if isinstance(command, Wait):
        if possible_actions(state):
            raise IllegalCommand("the troll can still act: wait is only for when no action is possible")
        event: object = ActionsLost(state.actions_left)
    else:
        event = action_event(state, command)
    events = [event]
    state = evolve(state, event)
    if state.actions_left and not possible_actions(state):
        lost = ActionsLost(state.actions_left)
        events.append(lost)
        state = evolve(state, lost)
    if not state.actions_left:
        events += end_of_turn(state)
    return tuple(events)


def _take(carried: tuple[Card, ...], code: str) -> tuple[Card, ...]:
    index = next(i for i, c in enumerate(carried) if c.code == code)
    return carried[:index] + carried[index + 1:]


def _use_up(state: TrollState, code: str) -> TrollState:
    """A used card is set aside, unless it is a reusable ace (THE CLUB, the variant's AD)."""
    if code in state.reusable:
        return state
    return replace(state, carried=_take(state.carried, code), set_aside=state.set_aside + (code,))


def _turn_stack(state: TrollState, pos: Pos, awake: bool) -> TrollState:
    stack = state.stack(pos)
    return with_stack(state, pos, stack[:-1] + (Card(stack[-1].code, awake),))


def evolve(state: TrollState, event: object) -> TrollState:
    if isinstance(event, DeckShuffled):
        return deal(state, tuple(event.order))
    if isinstance(event, TrollPlaced):
        state = replace(state, troll=("lower", event.face))
        return evolve(state, next_turn(state))
    if isinstance(event, TurnBegan):
        if event.from_deck:
            state = replace(state, deck=state.deck[len(event.cards):])
        else:
            state = replace(state, set_aside=state.set_aside[len(event.cards):])
        return replace(
            state, turn=event.turn, awakening=event.cards, stood=(state.troll,),
            quiet_turns=0 if event.cards else state.quiet_turns + 1,
            phase="awakening" if event.cards else "actions", actions_left=0 if event.cards else 2,
        )
    if isinstance(event, AwakeningRolled):
        return _awaken(state, event.face)
    if isinstance(event, ActionsLost):
        return replace(state, actions_left=0)
    if isinstance(event, FlightPhase):
        return _fly(state, event.moves)
    if isinstance(event, BridgeCollapsed):
        return replace(state, phase="over", end="collapsed")
    if isinstance(event, TrollWon):
        return replace(state, phase="over", end="perfect" if event.perfect else "won")
    if isinstance(event, BridgeUnsettled):
        return replace(state, phase="over", end="unsettled")
    acted = _act(state, event)
    return replace(acted, actions_left=acted.actions_left - 1)


def _act(state: TrollState, event: object) -> TrollState:
    """A troll action's effect (evolve counts the action)."""
    if isinstance(event, TrollMoved):
        pos = (event.row, event.col)
        return replace(state, troll=pos, stood=state.stood + (pos,))
    if isinstance(event, CardStomped):
        return _turn_stack(state, (event.row, event.col), False)
    if isinstance(event, CardPickedUp):
        pos = (event.row, event.col)
        state = with_stack(state, pos, state.stack(pos)[:-1])
        return replace(state, carried=state.carried + (Card(event.card, True),))
    if isinstance(event, ClubUsed):
        return _use_up(_turn_stack(state, (event.row, event.col), False), event.club)
    if isinstance(event, DiamondThrown):
        if event.col:
            state = _turn_stack(state, (event.row, event.col), False)
        return _use_up(state, event.diamond)
    if isinstance(event, SpadeUsed):
        pos = (event.row, event.col)
        state = _use_up(with_stack(state, pos, state.stack(pos)[:-1]), event.spade)
        return replace(state, carried=state.carried + (Card(event.card, False),))
    if isinstance(event, CardLaidDown):
        pos = (event.row, event.col)
        state = with_stack(state, pos, state.stack(pos) + (Card(event.card, False),))
        return replace(state, carried=_take(state.carried, event.card))
    raise TypeError(f"not a troll event: {event!r}")


def _awaken(state: TrollState, face: int) -> TrollState:
    card, rest = state.awakening[0], state.awakening[1:]
    row = row_of(state, card)
    flight = "lower_flight" if row == "lower" else "upper_flight"
    stack_of_colour = getattr(state, flight)
    state = replace(state, awakening=rest, **{flight: replace(stack_of_colour, cards=stack_of_colour.cards + (card,))})
    col = awakening_target(state, row, face)
    if col:
        pos = (row, col)
        top = state.top(pos)
        if not top.awake:
            state = _turn_stack(state, pos, True)
        else:  # a second awakening: the card flies away, and the troll with it if it stands there
            state = with_stack(state, pos, state.stack(pos)[:-1])
            state = replace(state, set_aside=state.set_aside + (top.code,))
            if state.troll == pos:
                return replace(state, phase="over", end="flew")
    if not state.awakening:
        state = replace(state, phase="actions", actions_left=2)
    return state


def _fly(state: TrollState, moves: tuple[tuple[str, str, int, int], ...]) -> TrollState:
    """All move at once: lift every moving card first, then land them in order (left first)."""
    for _, row, start, _ in moves:
        state = with_stack(state, (row, start), state.stack((row, start))[:-1])
    fled = []
    for code, row, _, to in moves:
        if to in (LEFT_BANK, RIGHT_BANK):
            fled.append(code)
        else:
            state = with_stack(state, (row, to), state.stack((row, to)) + (Card(code, True),))
    return replace(state, set_aside=state.set_aside + tuple(fled), phase="checks")


def outcome(state: TrollState) -> Outcome | None:
    if not state.end:
        return None
    score = len(state.deck)
    if state.end in ("won", "perfect"):
        return Outcome(winners=(0,), summary="perfect win" if state.end == "perfect" else "won", score=score)
    if state.end == "collapsed":
        summary = "lost: the bridge collapsed"  # replays record this; end_words gives the cause
    elif state.end == "flew":
        summary = f"lost: the troll flew away with the {state.set_aside[-1]} at {place(state.troll)}"
    else:
        summary = f"lost: the bridge would not settle ({QUIET_LIMIT} quiet turns)"
    return Outcome(winners=(), summary=summary, score=score)


def end_words(state: TrollState) -> str:
    """The end with its cause, for the screen: which collapse, which double awakening. (The outcome's
    summary stays short and fixed: exported replays record it and `verify` compares it.)"""
    result = outcome(state)
    if result is None:
        return ""
    if state.end == "collapsed":
        return f"lost: the bridge collapsed on turn {state.turn}: {collapse_cause(state)}"
    return result.summary


def describe(state: TrollState, event: object, reveal: bool = True) -> str:
    typed = " (typed)" if getattr(event, "typed", False) else ""
    if isinstance(event, DeckShuffled):
        after = deal(state, tuple(event.order))
        text = f"shuffled and dealt: {2 * sum(after.heights)} bricks face down"
        if reveal:  # the deck of awakening is face down
            text += f" [deck: {' '.join(after.deck[:5])} ...]"
        return text
    if isinstance(event, TrollPlaced):
        # the first card and the roll are the setup's end whether the deck was shuffled or dealt as given
        first = state.lower_flight.cards[0]
        text = f"first card {first}: lower row {state.lower_colour}; "
        if state.carried and not state.held_at_start:
            text += f"troll carries {state.carried[0].code}; "
        begins = next_turn(replace(state, troll=("lower", event.face)))
        return text + f"rolled {event.face}{typed}: troll on lower {event.face}; " + _turn_words(begins)
    if isinstance(event, AwakeningRolled):
        text = f"{event.card} calls the {event.row} row, rolled {event.face}{typed}: "
        if event.col == 0:
            return text + "the row is empty, nothing wakes"
        if event.col != event.face:
            text += f"{event.face} empty, "
        card = state.top((event.row, event.col)).code
        where = f"{event.row} {event.col}"
        if event.result == "woke":
            return text + f"{card} at {where} wakes"
        if event.result == "troll flew":
            return text + f"awake {card} at {where} flies off with the troll"
        return text + f"awake {card} at {where} flies away"
    if isinstance(event, TrollMoved):
        return f"the troll moves {event.direction} to {event.row} {event.col}"
    if isinstance(event, CardStomped):
        return f"the troll stomps the {event.card} at {event.row} {event.col}: dormant"
    if isinstance(event, CardPickedUp):
        return f"the troll picks up the {event.card} from {event.row} {event.col}"
    if isinstance(event, ClubUsed):
        kept = "kept" if event.club in state.reusable else "set aside"
        return f"the troll clubs the {event.card} at {event.row} {event.col} ({event.club} {kept})"
    if isinstance(event, DiamondThrown):
        kept = "kept" if event.diamond in state.reusable else "set aside"
        hit = f"hits the {event.card} at {event.row} {event.col}" if event.col else "hits nothing"
        return f"the troll throws the {event.diamond} {event.direction}: {hit} ({kept})"
    if isinstance(event, SpadeUsed):
        return f"the {event.spade} flips the {event.card} at {event.row} {event.col} into the troll's hands"
    if isinstance(event, CardLaidDown):
        return f"the troll lays the {event.card} down at {event.row} {event.col}, dormant"
    if isinstance(event, ActionsLost):
        lost = "both actions are" if event.count == 2 else "the remaining action is"
        return f"no action is possible: {lost} lost"
    if isinstance(event, FlightPhase):
        if not event.moves:
            return "flight: no card flees"
        parts = []
        for row in ROWS:  # grouped by row to keep the line short; a bank is "bank"
            moves = [f"{code} {start}>{'bank' if to in (LEFT_BANK, RIGHT_BANK) else to}"
                     for code, moved_row, start, to in event.moves if moved_row == row]
            if moves:
                parts.append(f"{row} " + ", ".join(moves))
        return "flight: " + "; ".join(parts)
    if isinstance(event, BridgeCollapsed):
        return f"the bridge collapses: {collapse_cause(state)}"
    if isinstance(event, TrollWon):
        return "the bridge is calm and standing: " + ("a perfect win!" if event.perfect else "the troll wins")
    if isinstance(event, BridgeUnsettled):
        return f"{event.quiet_turns} quiet turns and the bridge is not calm: it wins"
    if isinstance(event, TurnBegan):
        return _turn_words(event)
    return str(event)


def _turn_words(event: TurnBegan) -> str:
    if not event.cards:
        return f"turn {event.turn}: nothing to play, nothing wakes"
    if event.from_deck:
        return f"turn {event.turn}: deck card {event.cards[0]} played"
    return f"turn {event.turn}: set-aside {' '.join(event.cards)} played"


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: each turn's awakening phase (the troll's placing
    begins turn 1)."""
    return isinstance(event, (TurnBegan, TrollPlaced))


def progress(state: TrollState) -> str:
    if state.end:
        short = {"won": "won", "perfect": "perfect win", "collapsed": "lost: collapsed",
                 "flew": "lost: troll flew away", "unsettled": "lost: unsettled"}[state.end]
        return f"{short}, turn {state.turn}, deck {len(state.deck)}"
    if state.troll is None:
        return "setting up"
    return f"turn {state.turn}, deck {len(state.deck)}"
