"""The troll's actions (the rules' turn, step 2): the commands and how they print and parse, the
events they become, why one is not allowed now, which ones are possible, and what each does to
the bridge and the troll's hands.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from dicehall.engine.core import IllegalCommand
from dicehall.engine.games.troll.bridge import (COLUMNS, DIRECTIONS, ROWS, Card, Pos, TrollState, card, line, neighbour,
                                       place, stack_change, top_change)
from dicehall.engine.replace import replaced
from dicehall.engine.text import clean_text


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


# ----- checking an action -----
def carried_awake(state: TrollState, suit: str) -> Card | None:
    return next((c for c in state.carried if c.awake and c.suit == suit), None)


def awake_top_at(state: TrollState, pos: Pos | None, what: str) -> Card:
    """The awake top card at a position next to the troll, or IllegalCommand saying why not."""
    if pos is None:
        assert state.troll is not None  # the troll stands on the bridge while it acts
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
    assert troll is not None  # the troll stands on the bridge while it acts
    if isinstance(command, Stomp):
        top = state.top(troll)
        assert top is not None  # it stands on a brick
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
        assert target is not None  # awake_top_at refuses a position off the bridge
        if top.suit == "H":
            raise IllegalCommand("the troll cannot pick up a heart: a troll cannot have a heart")
        return CardPickedUp(top.code, direction, *target)
    if isinstance(command, UseClub):
        club = carried_awake(state, "C")
        if club is None:
            raise IllegalCommand("the troll carries no awake club")
        top = awake_top_at(state, target, direction)
        assert target is not None  # awake_top_at refuses a position off the bridge
        return ClubUsed(club.code, direction, top.code, *target)
    if isinstance(command, ThrowDiamond):
        diamond = carried_awake(state, "D")
        if diamond is None:
            raise IllegalCommand("the troll carries no awake diamond")
        return DiamondThrown(*_thrown_at(state, diamond.code, direction))
    if isinstance(command, UseSpade):
        spade = carried_awake(state, "S")
        if spade is None:
            raise IllegalCommand("the troll carries no awake spade")
        top = awake_top_at(state, target, direction)
        assert target is not None  # awake_top_at refuses a position off the bridge
        return SpadeUsed(spade.code, direction, top.code, *target)
    if isinstance(command, LayDown):
        card = next((c for c in state.carried if not c.awake), None)
        if card is None:
            raise IllegalCommand("the troll carries no dormant card to lay down")
        if target is None:
            raise IllegalCommand(f"there is no position {direction} of {place(troll)}")
        return CardLaidDown(card.code, direction, *target)
    raise IllegalCommand("not a troll command")


def _thrown_at(state: TrollState, diamond: str, direction: str) -> tuple[str, str, str, str, int]:
    """The diamond thrown, as DiamondThrown's fields: at the first awake top card in line, or off the
    bridge at nothing."""
    assert state.troll is not None  # the troll stands on the bridge while it acts
    for pos in _LINES[state.troll, direction]:
        top = state.top(pos)
        if top is not None and top.awake:
            return (diamond, direction, top.code, *pos)
    return (diamond, direction, "", "", 0)  # off the bridge: it hits nothing


_LINES = {(pos, d): tuple(line(pos, d)) for pos in ((row, col) for row in ROWS for col in COLUMNS) for d in DIRECTIONS}


# ----- the possible actions -----
def _candidates() -> list[object]:
    out: list[object] = [Move(d) for d in DIRECTIONS] + [Stomp()]
    for cls in (PickUp, UseClub, ThrowDiamond, UseSpade, LayDown):
        out += [cls(d) for d in DIRECTIONS]
    return out


CANDIDATES = _candidates()


_BY_DIRECTION = {cls: {d: cls(d) for d in DIRECTIONS} for cls in (Move, PickUp, UseClub, ThrowDiamond, UseSpade, LayDown)}
_STOMP = Stomp()
# each position's neighbours on the bridge: the direction, the neighbour, the move there and its event
_ON_BRIDGE = {(row, col): tuple((d, step, (_BY_DIRECTION[Move][d], TrollMoved(d, *step))) for d in DIRECTIONS
                                if (step := neighbour((row, col), d)) is not None)
              for row in ROWS for col in COLUMNS}


def possible_actions(state: TrollState) -> list[object]:
    """Every action `action_event` allows now, in CANDIDATES' order, found directly (a playout asks
    this every action; trying each candidate and catching its refusal cost a third of a playout)."""
    return [command for command, _ in possible_moves(state)]


def possible_moves(state: TrollState) -> list[tuple[object, object]]:
    """possible_actions, each with its event (action_event's): found together, as the adviser's
    search needs both (checking each action again in action_event was a tenth of a playout)."""
    troll_at = state.troll
    assert troll_at is not None  # the troll stands on the bridge while it acts
    around = _ON_BRIDGE[troll_at]
    upper, lower, stood = state.upper, state.lower, state.stood  # state.stack(pos), inlined below
    out: list[tuple[object, object]] = []
    awake_next = []  # directions with an awake top card next to the troll, where, and that card
    for d, pos, moved in around:
        stack = (upper if pos[0] == "upper" else lower)[pos[1] - 1]
        if stack:
            if pos not in stood:
                out.append(moved)
            if stack[-1].awake:
                awake_next.append((d, pos, stack[-1].code))
    under = state.top(troll_at)
    assert under is not None  # it stands on a brick
    if under.awake:
        out.append(_move(_STOMP, CardStomped, under.code, *troll_at))
    carried = state.carried
    if not carried and not state.club_held:
        out += [_move(_BY_DIRECTION[PickUp][d], CardPickedUp, code, d, *pos) for d, pos, code in awake_next
                if code[-1] != "H"]
    if carried:
        tools = {c.code[-1]: c.code for c in reversed(carried) if c.awake}  # carried_awake's: the first of each suit
        club, diamond, spade = tools.get("C"), tools.get("D"), tools.get("S")
        if club:
            out += [_move(_BY_DIRECTION[UseClub][d], ClubUsed, club, d, code, *pos) for d, pos, code in awake_next]
        if diamond:
            out += [_move(_BY_DIRECTION[ThrowDiamond][d], DiamondThrown, *_thrown_at(state, diamond, d)) for d in DIRECTIONS]
        if spade:
            out += [_move(_BY_DIRECTION[UseSpade][d], SpadeUsed, spade, d, code, *pos) for d, pos, code in awake_next]
        dormant = next((c for c in carried if not c.awake), None)
        if dormant:
            out += [_move(_BY_DIRECTION[LayDown][d], CardLaidDown, dormant.code, d, *pos) for d, pos, _ in around]
    return out


def _move(command: object, event_class: type, *fields) -> tuple[object, object]:
    """(command, its event of these fields), one pair for each (both are values): making the event
    anew at every action of every playout was a twentieth of its time."""
    key = (event_class, *fields)  # the event's class and fields tell the command too
    made = _MOVES.get(key)
    if made is None:
        made = _MOVES[key] = (command, event_class(*fields))
    return made


_MOVES: dict[tuple, tuple[object, object]] = {}  # bounded: the events the cards, positions and directions allow


# ----- what an action does -----
def _take(carried: tuple[Card, ...], code: str) -> tuple[Card, ...]:
    index = next(i for i, c in enumerate(carried) if c.code == code)
    return carried[:index] + carried[index + 1:]


def _used_up(state: TrollState, code: str) -> dict[str, tuple]:
    """A used card is set aside, unless it is a reusable ace (THE CLUB, the variant's AD): the
    change as `replace` takes it."""
    if code in state.reusable:
        return {}
    return {"carried": _take(state.carried, code), "set_aside": state.set_aside + (code,)}


def _troll_moved(state: TrollState, event: TrollMoved) -> TrollState:
    pos = (event.row, event.col)
    return replaced(state, {"troll": pos, "stood": state.stood + (pos,), "actions_left": state.actions_left - 1})


def _stomped(state: TrollState, event: CardStomped) -> TrollState:
    changes: dict[str, Any] = top_change(state, (event.row, event.col), False)
    changes["actions_left"] = state.actions_left - 1
    return replaced(state, changes)


def _picked_up(state: TrollState, event: CardPickedUp) -> TrollState:
    pos = (event.row, event.col)
    changes: dict[str, Any] = stack_change(state, pos, state.stack(pos)[:-1])
    changes.update(carried=state.carried + (card(event.card, True),), actions_left=state.actions_left - 1)
    return replaced(state, changes)


def _clubbed(state: TrollState, event: ClubUsed) -> TrollState:
    changes: dict[str, Any] = top_change(state, (event.row, event.col), False)
    changes.update(_used_up(state, event.club), actions_left=state.actions_left - 1)
    return replaced(state, changes)


def _diamond_thrown(state: TrollState, event: DiamondThrown) -> TrollState:
    changes: dict[str, Any] = top_change(state, (event.row, event.col), False) if event.col else {}
    changes.update(_used_up(state, event.diamond), actions_left=state.actions_left - 1)
    return replaced(state, changes)


def _dug_up(state: TrollState, event: SpadeUsed) -> TrollState:
    pos = (event.row, event.col)
    changes: dict[str, Any] = stack_change(state, pos, state.stack(pos)[:-1])
    changes.update(_used_up(state, event.spade), actions_left=state.actions_left - 1)
    changes["carried"] = changes.get("carried", state.carried) + (card(event.card, False),)
    return replaced(state, changes)


def _laid_down(state: TrollState, event: CardLaidDown) -> TrollState:
    pos = (event.row, event.col)
    changes: dict[str, Any] = stack_change(state, pos, state.stack(pos) + (card(event.card, False),))
    changes.update(carried=_take(state.carried, event.card), actions_left=state.actions_left - 1)
    return replaced(state, changes)


# each action's effect, the action counted, by its event's class (the rules' evolve folds them): one new
# state per action (a playout makes one for every action of every pair it judges)
ACTION_FOLDS: dict[type, Callable[[TrollState, Any], TrollState]] = {
    TrollMoved: _troll_moved, CardStomped: _stomped, CardPickedUp: _picked_up, ClubUsed: _clubbed,
    DiamondThrown: _diamond_thrown, SpadeUsed: _dug_up, CardLaidDown: _laid_down,
}
