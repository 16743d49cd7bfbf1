"""The catalogue names the games without importing them (a faster first frame); its titles and
blurbs must still be the modules' own."""
from __future__ import annotations

import subprocess
import sys

import pytest

from dicehall.engine import games as engine_games
from dicehall.engine.games import CATALOGUE, get_game


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.playable], ids=lambda e: e.id)
def test_catalogue_titles_and_blurbs_are_the_modules_own(entry):
    module = get_game(entry.id)
    assert (module.ID, module.TITLE, module.BLURB) == (entry.id, entry.title, entry.blurb)


def test_every_game_is_playable_and_a_coming_one_would_say_so(monkeypatch):
    from dicehall import engine

    assert [e.id for e in CATALOGUE if not e.playable] == []
    coming = engine.games.CatalogueEntry("chess", "Chess", "a board game", False)
    monkeypatch.setattr(engine.games, "CATALOGUE", CATALOGUE + (coming,))
    assert coming.module is None
    with pytest.raises(ValueError, match="Chess is coming but not playable yet"):
        engine.games.get_game("chess")


def test_opening_the_app_imports_no_game_until_one_is_asked_for():
    code = ("import sys, dicehall.tui.app, dicehall.engine; "
            "print(sorted(m for m in sys.modules if m.startswith('dicehall.engine.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.playable], ids=lambda e: e.id)
def test_rules_texts_fit_the_rules_screen_at_80_columns(entry):
    # the rules screen shows 74 columns at 80x24: a longer line would wrap and leave orphan words
    long = [line for line in get_game(entry.id).RULES_TEXT.splitlines() if len(line) > 74]
    assert long == []


def test_what_the_terminal_shows_of_a_game_is_the_tui_s_not_the_catalogue_s():
    import dataclasses

    from dicehall.tui.screens.games import GameScreens

    screen_facts = {"wide_board", "hidden", "board"}  # tui/screens/games.py's
    assert screen_facts <= {field.name for field in dataclasses.fields(GameScreens)}
    assert screen_facts.isdisjoint(field.name for field in dataclasses.fields(engine_games.CatalogueEntry))


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.solver], ids=lambda e: e.id)
def test_a_solver_is_the_module_the_catalogue_names(entry):
    import importlib

    solver = importlib.import_module(entry.solver)
    assert callable(solver.solve) and solver.DEFAULT_BUDGET > 0
