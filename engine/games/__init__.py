"""The games dicehall hosts: one engine module per game, plus the catalogue the launcher shows."""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from engine.games import dicetower, troll, wager


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    title: str
    blurb: str
    module: ModuleType | None  # None: not built yet


CATALOGUE = (
    CatalogueEntry("dicetower", dicetower.TITLE, dicetower.BLURB, dicetower),
    CatalogueEntry("wager", wager.TITLE, wager.BLURB, wager),
    CatalogueEntry("troll", troll.TITLE, troll.BLURB, troll),
    CatalogueEntry("towers", "Towers", "rooks on an 8x8 board", None),
    CatalogueEntry("bones", "War of Bones", "a dice wargame", None),
)

GAMES: dict[str, ModuleType] = {e.id: e.module for e in CATALOGUE if e.module is not None}


def get_game(game_id: str) -> ModuleType:
    """The engine module of a game; ValueError with the choices if there is none."""
    if game_id in GAMES:
        return GAMES[game_id]
    for entry in CATALOGUE:
        if entry.id == game_id:
            raise ValueError(f"{entry.title} is coming but not playable yet")
    raise ValueError(f"unknown game {str(game_id)[:30]!r} (games: {', '.join(e.id for e in CATALOGUE)})")
