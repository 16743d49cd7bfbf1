"""The journaling game (issue #24): a Wretched & Alone game played from a deck of prompts, the Dice
Tower for every pull, the Kings, salvation, and a journal kept as events.

One module per concern; this package gives every name as `engine.games.journal.NAME`:
  cards       the 52 cards: codes, spellings, names
  deck        a deck of prompts from a CSV or TOML file or a game's options (hostile input)
  gamefile    dc-solo-rpg's game file (.game.md) as a deck
  caps        the caps on a deck's file and texts
  moves       the commands and the events
  rules       the state, decide and evolve (the pulls are the Dice Tower's), chance, words
  export      the journal as Markdown and as a web page (dicehall export --markdown, --html)
  odds        the chance that the tower falls before the game ends otherwise
  rules_text  the rules as dicehall plays them, with the SRD's attribution
  rulings     the rulings a player chooses when a game starts, over the deck's settings
"""
from __future__ import annotations

from dicehall.engine.games.journal.cards import FULL_DECK, SALVATION_CARD, card_name, parse_card
from dicehall.engine.games.journal.deck import (
    ACTION_WORDS, ACTIONS, MAX_FILE, MAX_PROMPT, MAX_TITLE, SETTINGS, Deck, DeckError, deck_from_record, deck_summary, load_deck, parse_deck, read_deck_file,
    sample_deck,
    sample_path,
    title_value,
)
from dicehall.engine.games.journal.moves import (
    ENTRY_LIMIT, EVENTS, AmendEntry, BlockPulled, CardDrawn, DayEnded, DayRolled, DayStarted, DiceRolled, Draw,
    DrawBegan, DrawCard, EntryAmended, EntrySkipped, EntryWritten, RollSalvation, SalvationRolled, SkipEntry,
    StartDay, WriteEntry,
)
from dicehall.engine.games.journal.rules import (
    MEASURE, JournalState, Page, PullBlock, card_words, chance_draws, chance_event, chance_needed,
    check_options, check_players, clean_entry, command_of, decide, describe, evolve, game_label, initial_state,
    is_turn_start, legal_commands, outcome, parse_command, progress, recorded_draws, result, to_act,
)
from dicehall.engine.games.journal.export import html_page, markdown
from dicehall.engine.games.journal.odds import ODDS_GAMES, Playout, next_pull_chance, playout, tower_odds
from dicehall.engine.games.journal.rules_text import RULES_TEXT, RULING_WORDS
from dicehall.engine.games.journal.rulings import RULINGS, check_rulings, endless, next_rulings, ruled_deck, ruling_lines

ID = "journal"
TITLE = "Journal"
BLURB = "a journaling game from a deck of prompts"
RULES_VERSION = 1
# the hall's new-game screen: the sample deck (the screen adds the admin's decks in the hall by name)
HOST_CHOICES = (("deck", "Deck", ("sample",), ("the sample deck",)),)

# the game's API: every name above, as the catalogue, the screens and the tests use it
__all__ = [
    "FULL_DECK", "SALVATION_CARD", "card_name", "parse_card",
    "ACTION_WORDS", "ACTIONS", "MAX_FILE", "MAX_PROMPT", "MAX_TITLE", "SETTINGS", "Deck", "DeckError",
    "deck_from_record", "deck_summary", "load_deck", "parse_deck", "read_deck_file", "sample_deck",
    "sample_path", "title_value",
    "ENTRY_LIMIT", "EVENTS", "AmendEntry", "BlockPulled", "CardDrawn", "DayEnded", "DayRolled", "DayStarted",
    "DiceRolled", "Draw", "DrawBegan", "DrawCard", "EntryAmended", "EntrySkipped", "EntryWritten",
    "RollSalvation", "SalvationRolled", "SkipEntry", "StartDay", "WriteEntry",
    "JournalState", "Page", "PullBlock", "card_words", "chance_draws", "chance_event", "chance_needed",
    "check_options", "check_players", "clean_entry", "command_of", "decide", "describe", "evolve",
    "game_label", "initial_state", "is_turn_start", "legal_commands", "outcome", "parse_command", "progress",
    "recorded_draws", "to_act", "MEASURE", "result",
    "html_page", "markdown",
    "ODDS_GAMES", "Playout", "next_pull_chance", "playout", "tower_odds",
    "RULES_TEXT", "RULING_WORDS",
    "RULINGS", "check_rulings", "endless", "next_rulings", "ruled_deck", "ruling_lines",
    "ID", "TITLE", "BLURB", "RULES_VERSION", "HOST_CHOICES",
]
