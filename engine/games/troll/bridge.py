"""The troll's cards and bridge: card codes and colours, the twelve positions and their geometry
(neighbours, lines, the banks), the flight stacks, and the game's state with its small readers.

Every other module of the game builds on this one; it imports none of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.session import replace

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
# The shuffle's starting order: clubs, diamonds, hearts, spades, each ace to king.
FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
ROWS = ("upper", "lower")
COLUMNS = (1, 2, 3, 4, 5, 6)
DIRECTIONS = ("up", "down", "left", "right")
THE_CLUB = "AC"
DIAMOND_ACE = "AD"
LEFT_BANK, RIGHT_BANK = 0, 7  # flight destinations past position 1 or 6


# ----- cards -----
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


def card(code: str, awake: bool) -> Card:
    """Card(code, awake), one object for each (a card is a value): making a new one each time a card
    was turned, moved or taken was a twentieth of a playout."""
    made = _CARDS.get((code, awake))
    return Card(code, awake) if made is None else made


_CARDS = {(code, awake): Card(code, awake) for code in FULL_DECK for awake in (False, True)}


@dataclass(frozen=True)
class FlightStack:
    colour: str  # "red" or "black" ("" before the setup)
    cards: tuple[str, ...] = ()  # bottom first


# ----- positions -----
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
        stack = (self.upper if pos[0] == "upper" else self.lower)[pos[1] - 1]  # stack(), inlined: the rules' hottest read
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
    return replace(state, **stack_change(state, pos, stack))


def stack_change(state: TrollState, pos: Pos, stack: tuple[Card, ...]) -> dict[str, tuple]:
    """with_stack's change as `replace` takes it: a caller changing more fields makes one state."""
    row, col = pos
    cells = list(state.upper if row == "upper" else state.lower)
    cells[col - 1] = stack
    return {row: tuple(cells)}


def top_change(state: TrollState, pos: Pos, awake: bool) -> dict[str, tuple]:
    """The top card at `pos` turned awake or dormant (an awakening, a stomp, a club, a diamond), as
    the change `replace` takes."""
    stack = state.stack(pos)
    return stack_change(state, pos, stack[:-1] + (card(stack[-1].code, awake),))


def row_of(state: TrollState, code: str) -> str:
    return "lower" if colour_of(code) == state.lower_flight.colour else "upper"


def occupied(state: TrollState) -> frozenset[Pos]:
    """The positions with a card. The last answer is kept for the same rows (the same tuples): the
    turn's checks and then the adviser's judgement of the turn it leaves ask it of one bridge."""
    global _last_occupied
    upper, lower, cells = _last_occupied
    if state.upper is upper and state.lower is lower:
        return cells
    filled = tuple(map(bool, state.upper + state.lower))
    cells = _CELLS.get(filled)
    if cells is None:
        cells = _CELLS[filled] = frozenset([pos for pos, full in zip(_POSITIONS, filled) if full])
    _last_occupied = (state.upper, state.lower, cells)  # one tuple, set at once: a thread reads all of it or none
    return cells


_last_occupied: tuple = (None, None, frozenset())
_POSITIONS = tuple((row, col) for row in ROWS for col in COLUMNS)  # upper then lower, as the rows are read
# the one set of positions for each way the bridge is filled (at most 4,096): making the set anew, and
# hashing it anew for the caches keyed by it (checks.bridge_stands, the adviser's bridge_holders), was
# a twentieth of a playout
_CELLS: dict[tuple[bool, ...], frozenset[Pos]] = {}
