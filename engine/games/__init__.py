"""The games dicehall hosts: one engine module (or package, for a long game) per game, plus the
catalogue: one entry per game with every fact about it that other layers need.

The catalogue names each game without importing its module: a module is imported the first time
it is asked for, so the launcher's first frame does not wait for every game's rules to load
(tests/test_catalogue.py checks that the titles here match the modules' own). What a game module
itself must have is its contract, engine/contract.py; what the terminal shows of it (its screen,
setup screen, board and the viewer's facts: what is hidden, how wide the board) is
tui/screens/games.py, keyed by the same id.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Mapping

from dicehall.engine.contract import Bot
from dicehall.engine.core import HIGHER, LOWER, Measure
from dicehall.engine.errors import OptionError


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    title: str
    blurb: str
    playable: bool  # False: not built yet ("coming")
    seats: tuple[int, int] = (1, 1)  # the fewest and the most players (the game's check_players agrees)
    # the game-specific options `dicehall sim` takes, and their defaults (name, default); any other is refused
    sim_options: tuple[tuple[str, object], ...] = ()
    simulator: str = ""  # the module of its `dicehall sim` (dicehall/sims/), imported only when asked for; "" none
    analyser: str = ""  # the module that analyses it (engine/analysis/), imported only when asked for; "" none
    marks_by_margin: bool = False  # its analysis marks points of final margin lost, not win chance lost
    # the module of its hindsight solver (engine/analysis/), imported only when asked for: `analyse
    # --hindsight`, the viewer's H and winnable deals use it; "" none
    solver: str = ""
    # the module of its bots (engine/bots/), imported only when asked for: its `BOTS` names each bot
    # (engine/contract.py's Bot), the styles a bot seat plays among them; "" none
    bot_module: str = ""
    # what `verify` re-derives from a revealed hall seed, in the game's words
    re_derived: str = "every chance outcome was re-derived from it"
    deal_lead: str = ""  # the option a deal code (engine/deals.py) writes first, bare ("troll:standard:SEED")
    deal_seeded: bool = True  # False: the seed decides nothing, so a deal code has none ("towers:match")
    # what its results count and which way is better: the game's `result` hook gives values in it, and
    # the statistics word and order them without importing the game
    measure: Measure = Measure("")
    # the options whose values are text: the command line's --option gives them as typed (never read
    # as a number, a list, true or false: a title "1984" or "Alone, Again", a deck's path)
    text_options: tuple[str, ...] = ()

    @property
    def module(self) -> ModuleType | None:
        return importlib.import_module(f"dicehall.engine.games.{self.id}") if self.playable else None

    @property
    def bots(self) -> Mapping[str, Bot]:
        """Its bots by name (each game's styles or levels, and any a sim plays besides); empty: none."""
        return MappingProxyType(importlib.import_module(self.bot_module).BOTS if self.bot_module else {})

    @property
    def several_players(self) -> bool:
        """Whether more than one person may play it: its setup asks who plays each seat."""
        return self.seats[1] > 1

    @property
    def sim_defaults(self) -> dict:
        return dict(self.sim_options)


_DICE = "every die was re-derived from it"

CATALOGUE = (
    CatalogueEntry("dicetower", "Dice Tower", "a 2d6 countdown for journaling games", True,
                   seats=(1, 1), sim_options=(("remove_rate", 0.0),), analyser="dicehall.engine.analysis.dicetower",
                   simulator="dicehall.sims.dicetower",
                   re_derived=_DICE, measure=Measure("pulls", HIGHER)),
    CatalogueEntry("wager", "Dead Man's Wager", "race to 20 with one die", True,
                   seats=(2, 6), sim_options=(("players", 2), ("bots", None)), analyser="dicehall.engine.analysis.wager",
                   bot_module="dicehall.engine.bots.wager",
                   simulator="dicehall.sims.wager",
                   re_derived=_DICE, measure=Measure("winning total", HIGHER)),
    CatalogueEntry("troll", "Angry Troll versus Magic Bridge", "calm a bridge of cards as a troll", True,
                   seats=(1, 1), sim_options=(("difficulty", "standard"), ("variant", None), ("bot", "hint")),
                   analyser="dicehall.engine.analysis.troll", simulator="dicehall.sims.troll",
                   solver="dicehall.engine.analysis.troll_solver",
                   bot_module="dicehall.engine.bots.troll_search",  # the adviser ("hint"), its search, at random
                   re_derived="the deck's order and every die were re-derived from it", deal_lead="difficulty",
                   measure=Measure("cards left", LOWER, perfect="perfect win")),
    CatalogueEntry("towers", "Towers", "rooks on an 8x8 board", True,
                   seats=(2, 2), sim_options=(("bots", None),), analyser="dicehall.engine.analysis.towers",
                   bot_module="dicehall.engine.bots.towers",
                   simulator="dicehall.sims.towers",
                   marks_by_margin=True, deal_seeded=False,
                   re_derived="every move was checked against the rules (Towers has no dice: the seed decides nothing)",
                   measure=Measure("winning margin", HIGHER)),
    CatalogueEntry("bones", "War of Bones", "a dice wargame", True,
                   seats=(2, 2), sim_options=(("bots", None),), analyser="dicehall.engine.analysis.bones",
                   bot_module="dicehall.engine.bots.bones",
                   simulator="dicehall.sims.bones",
                   re_derived="every die and every landing was re-derived from it",
                   measure=Measure("troops lost in a win", LOWER)),
    CatalogueEntry("journal", "Journal", "a journaling game from a deck of prompts", True,
                   seats=(1, 1), sim_options=(("deck", "sample"), ("option", ())), simulator="dicehall.sims.journal",
                   # each card is drawn when drawn: nothing hidden
                   re_derived="every die and every card drawn was re-derived from it",
                   measure=Measure("days lasted", HIGHER), text_options=("title", "deck")),
)


def entry_of(game_id: str) -> CatalogueEntry:
    """The catalogue entry of a game id; for an id the catalogue lacks, a bare entry (not playable,
    no analyser, nothing hidden) so that a reader of the facts need not ask first."""
    found = next((entry for entry in CATALOGUE if entry.id == game_id), None)
    return found or CatalogueEntry(game_id, game_id, "", False)


def get_game(game_id: str) -> ModuleType:
    """The engine module of a game; ValueError with the choices if there is none."""
    for entry in CATALOGUE:
        if entry.id == game_id:
            if not entry.playable:
                raise OptionError(f"{entry.title} is coming but not playable yet")
            module = entry.module
            assert module is not None  # a playable entry has its module
            return module
    raise OptionError(f"unknown game {str(game_id)[:30]!r} (games: {', '.join(e.id for e in CATALOGUE)})")
