"""War of Bones (seed 004): a two-player wargame played only with dice rolled into a square area.

Rules as docs/rules/bones.md states them. Each player has 8 troops (dice in the area: the face is the
troop's firepower and its range), 3 rollers and a supply of rerolls. A turn is one action: attack,
reinforce, resupply or converge. A player with no troops in the area at the end of a turn loses.
Seat 0 is side A, seat 1 side B; troops are numbered 0..7 inside the engine and named A#1..A#8,
B#1..B#8 in words.

The package follows the rules' own sections; everything is imported from here, as
`engine.games.bones`:
- rules_text.py  the rules as dicehall plays them, with its decisions where they are silent
- area.py        the area's measures, a troop's place and face, range and overlap
- landings.py    troops rolled into the area one at a time, and a landing too close rolled again
- setup.py       seats and options, the roll-off, Reengage or First Strike
- attack.py      ranges, splitting firepower into attacks, the attack and defence arithmetic
- supply.py      rerolls after each roll, and resupply
- actions.py     reinforce and converge (the area shrinking)
- state.py       the state, whose decision it is, the end of a turn (victory)
- commands.py, events.py   what players say and what happened
- play.py        legal commands, decide, evolve and chance, dispatching to the sections above
- reading.py     the outcome, the log's line for every event, progress
"""
from __future__ import annotations

from dicehall.engine.games.bones.actions import SHRINK, SMALLEST, reinforce_options
from dicehall.engine.games.bones.area import (DIE, FULL, ROLLERS, SIDES, TROOPS, Troop, area_bounds, distance, gap, in_range,
                                     overlaps, troop_name)
from dicehall.engine.games.bones.attack import attack_splits, canonical, compositions, judge, partitions, targets_of
from dicehall.engine.games.bones.commands import (COMMANDS, Assign, Attack, Choose, Converge, Keep, Reengage, Reinforce, Reroll,
                                         Resupply, RollIn, parse_command)
from dicehall.engine.games.bones.events import (ACTION_EVENTS, CHANCE_EVENTS, EVENTS, AttackDeclared, AttackRolled, Converged,
                                       DefenceAssigned, DefenceRolled, DiceKept, DieRerolled, LandingMissed,
                                       OptionChosen, Reengaged, ReinforceCalled, ReinforcementsTaken, ReinforceRolled,
                                       RerollCalled, Resupplied, RolledOff, TroopLanded)
from dicehall.engine.games.bones.play import (chance_draws, chance_event, chance_needed, command_of, decide, evolve,
                                     legal_commands, recorded_draws)
from dicehall.engine.games.bones.reading import (MEASURE, describe, final_score, is_turn_start, label, outcome, progress,
                                                  result)
from dicehall.engine.games.bones.rules_text import RULES_TEXT
from dicehall.engine.games.bones.setup import LEVELS, check_options, check_players, initial_state, reengage_choices

BOT_STYLES = LEVELS
HOST_CHOICES = (("no_premeasure", "Premeasuring", (False, True), ("allowed", "not allowed")),)
from dicehall.engine.games.bones.state import DECISIONS, AttackInProgress, BonesState, PairResult, to_act
from dicehall.engine.games.bones.supply import MAX_SUPPLY, current_dice

ID = "bones"
TITLE = "War of Bones"
BLURB = "a dice wargame"
RULES_VERSION = 1

# the game's API: every name above, as the catalogue, the screens and the tests use it
__all__ = [
    "SHRINK", "SMALLEST", "reinforce_options",
    "DIE", "FULL", "ROLLERS", "SIDES", "TROOPS", "Troop", "area_bounds", "distance", "gap", "in_range",
    "overlaps", "troop_name",
    "attack_splits", "canonical", "compositions", "judge", "partitions", "targets_of",
    "COMMANDS", "Assign", "Attack", "Choose", "Converge", "Keep", "Reengage", "Reinforce", "Reroll",
    "Resupply", "RollIn", "parse_command",
    "ACTION_EVENTS", "CHANCE_EVENTS", "EVENTS", "AttackDeclared", "AttackRolled", "Converged",
    "DefenceAssigned", "DefenceRolled", "DiceKept", "DieRerolled", "LandingMissed", "OptionChosen",
    "Reengaged", "ReinforceCalled", "ReinforcementsTaken", "ReinforceRolled", "RerollCalled", "Resupplied",
    "RolledOff", "TroopLanded",
    "chance_draws", "chance_event", "chance_needed", "command_of", "decide", "evolve", "legal_commands",
    "recorded_draws",
    "MEASURE", "describe", "final_score", "is_turn_start", "label", "outcome", "progress", "result",
    "RULES_TEXT",
    "LEVELS", "check_options", "check_players", "initial_state", "reengage_choices",
    "DECISIONS", "AttackInProgress", "BonesState", "PairResult", "to_act",
    "MAX_SUPPLY", "current_dice",
    "BOT_STYLES", "HOST_CHOICES", "ID", "TITLE", "BLURB", "RULES_VERSION",
]
