"""The journal's commands (small values that print as words: parse_command(str(c)) == c) and its
events (named in the past tense). The pulls are the Dice Tower's own PullBlock, BlockPulled and
DiceRolled."""
from __future__ import annotations

import json
from dataclasses import dataclass

from dicehall.engine.games.dicetower import BlockPulled, DiceRolled  # the pulls' command and events

ENTRY_LIMIT = 1000  # characters of one journal entry (at most 4000 bytes: one save string)


# ----- commands: values that print as words (parse_command(str(c)) == c) -----

@dataclass(frozen=True)
class StartDay:
    def __str__(self) -> str:
        return "start day"


@dataclass(frozen=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class DrawCard:
    """A card drawn from a real deck, typed by the player."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True)
class RollSalvation:
    def __str__(self) -> str:
        return "roll for salvation"


@dataclass(frozen=True)
class WriteEntry:
    text: str

    def __str__(self) -> str:
        return "write " + json.dumps(self.text)


@dataclass(frozen=True)
class SkipEntry:
    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True)
class AmendEntry:
    """Rewrite the entry of an earlier card (page: its number from 1), kept as a new event."""

    page: int
    text: str

    def __str__(self) -> str:
        return f"amend {self.page} " + json.dumps(self.text)


# ----- events -----

@dataclass(frozen=True)
class DayStarted:
    day: int


@dataclass(frozen=True)
class DayRolled:
    face: int
    typed: bool = False


@dataclass(frozen=True)
class DrawBegan:
    """A card is to be drawn from the deck (the next event, CardDrawn, is the chance)."""


@dataclass(frozen=True)
class CardDrawn:
    card: str
    typed: bool = False


@dataclass(frozen=True)
class DayEnded:
    """The day's cards are done and salvation is out: its die is rolled next."""

    day: int


@dataclass(frozen=True)
class SalvationRolled:
    face: int
    typed: bool = False


@dataclass(frozen=True)
class EntryWritten:
    TEXT_LIMIT = ENTRY_LIMIT  # the codec reads this field up to this length
    page: int  # the card's page from 1; 0 for the last words after the cards
    text: str


@dataclass(frozen=True)
class EntrySkipped:
    page: int


@dataclass(frozen=True)
class EntryAmended:
    TEXT_LIMIT = ENTRY_LIMIT
    page: int
    text: str


EVENTS = {cls.__name__: cls for cls in (DayStarted, DayRolled, DrawBegan, CardDrawn, BlockPulled, DiceRolled,
                                        DayEnded, SalvationRolled, EntryWritten, EntrySkipped, EntryAmended)}
