"""The games dicehall hosts: one engine module (or package, for a long game) per game, plus the
catalogue the launcher shows.

The catalogue names each game without importing its module: a module is imported the first time
it is asked for, so the launcher's first frame does not wait for every game's rules to load
(tests/test_catalogue.py checks that the titles here match the modules' own).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from engine.errors import OptionError


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    title: str
    blurb: str
    playable: bool  # False: not built yet ("coming")

    @property
    def module(self) -> ModuleType | None:
        return importlib.import_module(f"engine.games.{self.id}") if self.playable else None


CATALOGUE = (
    CatalogueEntry("dicetower", "Dice Tower", "a 2d6 countdown for journaling games", True),
    CatalogueEntry("wager", "Dead Man's Wager", "race to 20 with one die", True),
    CatalogueEntry("troll", "Angry Troll versus Magic Bridge", "calm a bridge of cards as a troll", True),
    CatalogueEntry("towers", "Towers", "rooks on an 8x8 board", True),
    CatalogueEntry("bones", "War of Bones", "a dice wargame", True),
)


def get_game(game_id: str) -> ModuleType:
    """The engine module of a game; ValueError with the choices if there is none."""
    for entry in CATALOGUE:
        if entry.id == game_id:
            if not entry.playable:
                raise OptionError(f"{entry.title} is coming but not playable yet")
            return entry.module
    raise OptionError(f"unknown game {str(game_id)[:30]!r} (games: {', '.join(e.id for e in CATALOGUE)})")
