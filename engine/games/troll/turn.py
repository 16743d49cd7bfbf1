"""A turn in order, as the session drives it: who acts, which dice are needed and what they do,
the legal commands, `decide` (an action and every automatic consequence after it) and `evolve`
(the fold), each handing the work to the module of its rules section.
"""
from __future__ import annotations

from typing import Any, Callable

from dicehall.engine.core import ChanceNeeded, IllegalCommand
from dicehall.engine.games.troll.actions import (ActionsLost, CardLaidDown, CardPickedUp, CardStomped, ClubUsed, DiamondThrown,
                                        SpadeUsed, TrollMoved, Wait, ACTION_FOLDS, action_event,
                                        possible_actions, possible_moves)
from dicehall.engine.games.troll.awakening import AwakeningRolled, TurnBegan, awaken, awakening_roll, begin_turn, next_turn
from dicehall.engine.games.troll.bridge import TrollState, row_of
from dicehall.engine.games.troll.checks import BridgeCollapsed, BridgeUnsettled, TrollWon, outcome, turn_end
from dicehall.engine.games.troll.flight import FlightPhase, fly
from dicehall.engine.games.troll.setup import SHUFFLE_SPEC, DeckShuffled, TrollPlaced, deal, shuffle_draws, shuffled
from dicehall.engine.session import replace

EVENTS = {
    cls.__name__: cls
    for cls in (
        DeckShuffled, TrollPlaced, AwakeningRolled, TrollMoved, CardStomped, CardPickedUp, ClubUsed,
        DiamondThrown, SpadeUsed, CardLaidDown, ActionsLost, FlightPhase, BridgeCollapsed, TrollWon,
        BridgeUnsettled, TurnBegan,
    )
}
CHANCE_EVENTS = (DeckShuffled, TrollPlaced, AwakeningRolled)


# ----- who acts, and the dice -----
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


def chance_event(state: TrollState, draws: tuple[int, ...], typed: bool) -> object:
    if state.phase == "shuffle":
        return DeckShuffled(order=shuffled(tuple(draws)), typed=typed)
    face = draws[0] + 1
    if state.phase == "placing":
        return TrollPlaced(face=face, typed=typed)
    return awakening_roll(state, face, typed)


def rolled(state: TrollState, dice: Callable[[int], int]) -> tuple[int, TrollState]:
    """For the bots' playouts: the dice chance_needed asks for drawn with `dice` (randrange), and
    the state their chance event leaves, with how many were drawn (0 and the state itself: none
    asked). An awakening is folded from its die alone, without the prompt's words or the event,
    whose other fields its fold finds again."""
    if state.phase == "awakening" and state.awakening and not state.end:
        return 1, awaken(state, dice(6) + 1)
    need = chance_needed(state)
    if need is None:
        return 0, state
    draws = tuple(dice(n) for n in need.spec)
    return len(draws), evolve(state, chance_event(state, draws, False))


def chance_draws(event: object) -> tuple[int, ...]:
    if isinstance(event, DeckShuffled):
        return shuffle_draws(event.order)
    if isinstance(event, (TrollPlaced, AwakeningRolled)):
        return (event.face - 1,)
    raise TypeError(f"not a troll chance event: {event!r}")


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: each turn's awakening phase (the troll's placing
    begins turn 1)."""
    return isinstance(event, (TurnBegan, TrollPlaced))


# ----- the troll's turn -----
def legal_commands(state: TrollState) -> list[object]:
    if to_act(state) is None:
        return []
    return possible_actions(state) or [Wait()]


def decide(state: TrollState, command: object) -> tuple[object, ...]:
    return decided(state, command)[0]


def decided(state: TrollState, command: object) -> tuple[tuple[object, ...], TrollState]:
    """decide's events and the state they leave (their fold), which deciding computes anyway: the
    bots' playouts need both, and folding the events again cost them a third of their time."""
    events, state, _ = _acted(state, command)
    return _on_to_turn_end(events, state)


def legal_moves(state: TrollState) -> list[tuple[object, object]]:
    """legal_commands, each with its event (decide's first): what the adviser's search walks, each
    move then played by decided_on and acted without checking it again."""
    if to_act(state) is None:
        return []
    return possible_moves(state) or [(Wait(), ActionsLost(state.actions_left))]


def decided_on(state: TrollState, move: tuple[object, object]) -> tuple[tuple[object, ...], TrollState, list]:
    """decided for a move of legal_moves, with the moves possible after it while the turn goes on ([]
    once it ended): its check for lost actions finds them, and the adviser searches them next."""
    events, state, possible = _moved(state, move[1])
    return (*_on_to_turn_end(events, state), possible)  # nothing possible once no action is left


def _on_to_turn_end(events: list[object], state: TrollState) -> tuple[tuple[object, ...], TrollState]:
    """An action's events and state, and the turn's end after them if no action is left."""
    if state.actions_left:
        return tuple(events), state
    ending, state = turn_ended(state)
    return tuple(events) + ending, state


def acted(state: TrollState, move: tuple[object, object]) -> tuple[list[object], TrollState]:
    """decided_on up to the turn's end: the move's event (and the actions lost after it), folded."""
    events, state, _ = _moved(state, move[1])
    return events, state


def _acted(state: TrollState, command: object) -> tuple[list[object], TrollState, list]:
    """A command checked and played, up to the turn's end: its events, the state, the moves still possible."""
    if state.end:
        result = outcome(state)
        assert result is not None  # an ended game has its outcome
        raise IllegalCommand(f"the game is over: {result.summary}")
    if state.phase != "actions":
        raise IllegalCommand("the troll waits for the awakening phase's dice")
    if isinstance(command, Wait):
        if possible_actions(state):
            raise IllegalCommand("the troll can still act: wait is only for when no action is possible")
        event: object = ActionsLost(state.actions_left)
    else:
        event = action_event(state, command)
    return _moved(state, event)


def _moved(state: TrollState, event: object) -> tuple[list[object], TrollState, list]:
    """A legal action's event folded, and the actions lost after it: the events, the state, the moves
    still possible ([] when none are left to take)."""
    events = [event]
    state = evolve(state, event)
    possible = possible_moves(state) if state.actions_left else []
    if state.actions_left and not possible:
        lost = ActionsLost(state.actions_left)
        events.append(lost)
        state = evolve(state, lost)
    return events, state, possible


def turn_ended(state: TrollState) -> tuple[tuple[object, object], TrollState]:
    """decided's rest once the turn's actions are done: the flight phase and the checks (or the next
    turn's start), folded. It reads neither the actions nor `stood`, which the next turn resets."""
    flight, last, flown = turn_end(state)
    return (flight, last), evolve(flown, last)


def evolve(state: TrollState, event: object) -> TrollState:
    fold = _FOLDS.get(type(event))  # by the event's class: every action of every playout folds here
    if fold is None:
        raise TypeError(f"not a troll event: {event!r}")
    return fold(state, event)


def _shuffled(state: TrollState, event: DeckShuffled) -> TrollState:
    return deal(state, tuple(event.order))


def _placed(state: TrollState, event: TrollPlaced) -> TrollState:
    state = replace(state, troll=("lower", event.face))
    return evolve(state, next_turn(state))


def _won(state: TrollState, event: TrollWon) -> TrollState:
    return replace(state, phase="over", end="perfect" if event.perfect else "won")


_FOLDS: dict[type, Callable[[TrollState, Any], TrollState]] = {
    DeckShuffled: _shuffled,
    TrollPlaced: _placed,
    TurnBegan: begin_turn,
    AwakeningRolled: lambda state, event: awaken(state, event.face),
    ActionsLost: lambda state, _: replace(state, actions_left=0),
    FlightPhase: lambda state, event: fly(state, event.moves),
    BridgeCollapsed: lambda state, _: replace(state, phase="over", end="collapsed"),
    TrollWon: _won,
    BridgeUnsettled: lambda state, _: replace(state, phase="over", end="unsettled"),
    **ACTION_FOLDS,  # the troll's actions
}
