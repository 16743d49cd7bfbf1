"""The troll's engine is a package with one module per section of the rules; `engine.games.troll`
still offers every name it offered as one module, so bots, screens, saves and tests need not know
where a name lives."""
from __future__ import annotations

from pathlib import Path

import dicehall.engine.games.troll as troll
from dicehall.engine.codec import field_types

# every public name of the former single module
NAMES = """
ActionsLost AwakeningRolled BLURB BridgeCollapsed BridgeUnsettled CANDIDATES CHANCE_EVENTS COLUMNS COMMANDS Card
CardLaidDown CardPickedUp CardStomped ClubUsed DIAMOND_ACE DIRECTIONS DeckShuffled DiamondThrown EVENTS FULL_DECK
FlightPhase FlightStack ID LEFT_BANK LayDown Move PRESETS PickUp Pos QUIET_LIMIT RANKS RIGHT_BANK ROWS RULES_TEXT
RULES_VERSION SHUFFLE_SPEC SUITS SpadeUsed Stomp THE_CLUB TITLE ThrowDiamond TrollMoved TrollPlaced TrollState
TrollWon TurnBegan UseClub UseSpade VARIANTS Wait action_event awake_top_at awakening_target bridge_stands calm
carried_awake chance_draws chance_event chance_needed check_options check_players collapse_cause colour_of deal
decide describe end_of_turn end_words evolve flight_moves game_label initial_state is_turn_start legal_commands
line neighbour next_turn occupied outcome parse_command place possible_actions progress row_of shuffled to_act
with_stack
""".split()


def test_the_package_offers_every_name_the_module_did():
    assert [name for name in NAMES if not hasattr(troll, name)] == []


def test_every_event_field_type_resolves_where_its_event_now_lives():
    # the codec reads the annotations (strings) in each event's own module: a name missing there
    # would make every save and replay of the troll unreadable
    for cls in troll.EVENTS.values():
        assert set(field_types(cls)) == set(cls.__dataclass_fields__)


def test_no_module_of_the_package_outgrows_a_newcomer():
    folder = Path(troll.__file__).parent
    sizes = {path.name: len(path.read_text().splitlines()) for path in folder.glob("*.py")}
    assert len(sizes) > 5
    assert {name: size for name, size in sizes.items() if size > 600} == {}
