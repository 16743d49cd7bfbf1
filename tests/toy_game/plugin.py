"""Pebbles added as docs/architecture.md's "Adding a game" says, loaded as a pytest plugin
(`-p tests.toy_game.plugin`) before any test module is collected, so every module that reads the
catalogue reads it with the new row, as if it had been written into the source:

- step 1: its engine module is importable where the catalogue looks for it (engine/games/pebbles.py);
- step 2: its row joins engine/games/__init__.py's CATALOGUE;
- step 3: its line joins tui/screens/games.py's SCREENS.
"""
from __future__ import annotations

import sys

from dicehall.engine import games
from tests.toy_game import rules

sys.modules[f"dicehall.engine.games.{rules.ID}"] = rules  # the file engine/games/pebbles.py

ROW = games.CatalogueEntry(rules.ID, rules.TITLE, rules.BLURB, True, seats=(2, 2), sim_options=(("bots", None),),
                           bot_module="tests.toy_game.bots", measure=rules.MEASURE)
_WRITTEN = games.CATALOGUE
for module in list(sys.modules.values()):  # the modules already imported hold the tuple as it was
    if getattr(module, "CATALOGUE", None) is _WRITTEN:
        module.CATALOGUE = _WRITTEN + (ROW,)

from dicehall.tui.screens import games as screens  # noqa: E402  (after the catalogue, as the app reads it)
from tests.toy_game import screen  # noqa: E402

screens.SCREENS[rules.ID] = screens.GameScreens(screen.PebblesScreen, screens.hall_screen(screen.PebblesScreen),
                                                screen.draw_board, screen.PebblesSetupScreen)
