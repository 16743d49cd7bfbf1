"""Angry Troll versus Magic Bridge (seed 002): a solitaire with 52 cards, one die and a troll.

Rules as docs/rules/troll.md states them (the seed's section 7.1, without the removed rule about
unsupported bricks). A turn is an awakening phase (one die roll per card played onto a flight
stack), two troll actions, the flight phase of every awake top card, then the end-of-turn checks
(collapse, win). `decide` returns the troll's action followed by every automatic consequence as
its own event (lost actions, the flight phase, the checks, the next turn's start), so a log shows
each step; die rolls and the shuffle are chance events that the session draws and records.

One module per section of the rules; this package gives every name as `engine.games.troll.NAME`:
  bridge      the cards, the twelve positions and their geometry, the state
  setup       options, the player, the shuffle and the deal (DeckShuffled, TrollPlaced)
  awakening   step 1: the turn's cards and each awakening (TurnBegan, AwakeningRolled)
  actions     step 2: the troll's commands, their checks, events and effects
  flight      step 3: the flight phase (FlightPhase)
  checks      step 4: collapse, win, unsettled; the outcome
  turn        the session's protocol: dice, legal commands, decide, evolve
  words       events and the end in words; a save's progress
  rules_text  the rules as dicehall plays them
"""
from __future__ import annotations

from dicehall.engine.games.troll.actions import (
    CANDIDATES, COMMANDS, ActionsLost, CardLaidDown, CardPickedUp, CardStomped, ClubUsed, DiamondThrown, LayDown,
    Move, PickUp, SpadeUsed, Stomp, ThrowDiamond, TrollMoved, UseClub, UseSpade, Wait, action_event, awake_top_at,
    carried_awake, parse_command, possible_actions, possible_moves,
)
from dicehall.engine.games.troll.awakening import AwakeningRolled, TurnBegan, awakening_target, next_turn, row_targets
from dicehall.engine.games.troll.bridge import (
    COLUMNS, DIAMOND_ACE, DIRECTIONS, FULL_DECK, LEFT_BANK, RANKS, RIGHT_BANK, ROWS, SUITS, THE_CLUB, Card,
    FlightStack, Pos, TrollState, colour_of, line, neighbour, occupied, place, row_of, with_stack,
)
from dicehall.engine.games.troll.checks import (
    MEASURE, QUIET_LIMIT, BridgeCollapsed, BridgeUnsettled, TrollWon, bridge_stands, calm, collapse_cause,
    end_of_turn, outcome, result,
)
from dicehall.engine.games.troll.flight import FlightPhase, flight_moves
from dicehall.engine.games.troll.rules_text import RULES_TEXT
from dicehall.engine.games.troll.setup import (
    PRESETS, SHUFFLE_SPEC, VARIANTS, DeckShuffled, TrollPlaced, check_options, check_players, deal, game_label,
    initial_state, shuffled,
)
from dicehall.engine.games.troll.turn import (
    CHANCE_EVENTS, EVENTS, acted, chance_draws, chance_event, chance_needed, decide, decided, decided_on, evolve,
    is_turn_start, legal_commands, legal_moves, rolled, to_act, turn_ended,
)
from dicehall.engine.games.troll.words import describe, end_words, progress

HOST_CHOICES = (("difficulty", "Difficulty", ("standard", "sturdy", "tutorial"), ("standard", "sturdy", "tutorial")),
                ("variant", "Variant", ("none",) + VARIANTS, ("none",) + tuple(v.replace("_", " ") for v in VARIANTS)))

ID = "troll"
TITLE = "Angry Troll versus Magic Bridge"
BLURB = "calm a bridge of cards as a troll"
RULES_VERSION = 1

# the game's API: every name above, as the catalogue, the screens and the tests use it
__all__ = [
    "CANDIDATES", "COMMANDS", "ActionsLost", "CardLaidDown", "CardPickedUp", "CardStomped", "ClubUsed",
    "DiamondThrown", "LayDown", "Move", "PickUp", "SpadeUsed", "Stomp", "ThrowDiamond", "TrollMoved",
    "UseClub", "UseSpade", "Wait", "action_event", "awake_top_at", "carried_awake", "parse_command",
    "possible_actions", "possible_moves",
    "AwakeningRolled", "TurnBegan", "awakening_target", "next_turn", "row_targets",
    "COLUMNS", "DIAMOND_ACE", "DIRECTIONS", "FULL_DECK", "LEFT_BANK", "RANKS", "RIGHT_BANK", "ROWS", "SUITS",
    "THE_CLUB", "Card", "FlightStack", "Pos", "TrollState", "colour_of", "line", "neighbour", "occupied",
    "place", "row_of", "with_stack",
    "QUIET_LIMIT", "BridgeCollapsed", "BridgeUnsettled", "TrollWon", "MEASURE", "bridge_stands", "calm",
    "collapse_cause", "end_of_turn", "outcome", "result",
    "FlightPhase", "flight_moves",
    "RULES_TEXT",
    "PRESETS", "SHUFFLE_SPEC", "VARIANTS", "DeckShuffled", "TrollPlaced", "check_options", "check_players",
    "deal", "game_label", "initial_state", "shuffled",
    "CHANCE_EVENTS", "EVENTS", "acted", "chance_draws", "chance_event", "chance_needed", "decide", "decided", "decided_on",
    "evolve",
    "is_turn_start", "legal_commands", "legal_moves", "rolled", "to_act", "turn_ended",
    "describe", "end_words", "progress",
    "HOST_CHOICES", "ID", "TITLE", "BLURB", "RULES_VERSION",
]
