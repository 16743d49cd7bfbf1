"""The troll's game in words: each event as a log line (`describe`), the end with its cause for
the screen (`end_words`), and a save's progress in a few words for the saves list.
"""
from __future__ import annotations

from dicehall.engine.games.troll.actions import (ActionsLost, CardLaidDown, CardPickedUp, CardStomped, ClubUsed, DiamondThrown,
                                        SpadeUsed, TrollMoved)
from dicehall.engine.games.troll.awakening import AwakeningRolled, TurnBegan, next_turn
from dicehall.engine.games.troll.bridge import LEFT_BANK, RIGHT_BANK, ROWS, TrollState
from dicehall.engine.games.troll.checks import BridgeCollapsed, BridgeUnsettled, TrollWon, collapse_cause, outcome
from dicehall.engine.games.troll.flight import FlightPhase
from dicehall.engine.games.troll.setup import DeckShuffled, TrollPlaced, deal
from dicehall.engine.session import replace


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
        top = state.top((event.row, event.col))
        assert top is not None  # a column the awakening found a card in
        card = top.code
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


def progress(state: TrollState) -> str:
    if state.end:
        short = {"won": "won", "perfect": "perfect win", "collapsed": "lost: collapsed",
                 "flew": "lost: troll flew away", "unsettled": "lost: unsettled"}[state.end]
        return f"{short}, turn {state.turn}, deck {len(state.deck)}"
    if state.troll is None:
        return "setting up"
    return f"turn {state.turn}, deck {len(state.deck)}"
