"""docs/architecture.md's steps of adding a game are enough: Pebbles (tests/toy_game/), a game
written only inside the tests, is added the way the steps say (its engine module and bots, its
catalogue row, its screens and their line in the TUI's registry, its tests), and then the launcher
lists it and plays it, the hall plays it against a bot seat, `dicehall sim` plays it with its bots,
a save and a replay of it round-trip,
and the architecture tests that take every catalogued game accept it -- with no other source file
edited. It runs in a process of its own, where the row is in the catalogue before anything reads it."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from dicehall.engine.games import CATALOGUE

ROOT = Path(__file__).parent.parent
SOURCE = ("engine", "tui", "saves", "replays", "dicehall")
ARCHITECTURE_TESTS = ["tests/test_contract.py", "tests/test_catalogue.py"]


def test_a_game_added_by_the_documented_steps_is_listed_played_simulated_saved_and_accepted():
    # the written games' own cases of the architecture tests run in the suite itself (the same tests,
    # the same rows): here only Pebbles's cases run, and every test that is not per game
    others = " and ".join(f"not [{entry.id}]" for entry in CATALOGUE)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "tests.toy_game.plugin", "-k", others,
                          "tests/toy_game/checks.py", *ARCHITECTURE_TESTS],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    passed = [line for line in run.stdout.splitlines() if line.startswith("PASSED")]
    assert len([line for line in passed if "toy_game/checks.py" in line]) == 5
    # the architecture tests took it from the catalogue: the contract, its bots, its sim, its title
    assert {"test_every_game_keeps_the_contract[pebbles]", "test_the_catalogue_seats_are_what_the_game_accepts[pebbles]",
            "test_every_game_s_bots_keep_the_one_shape_and_play_its_bot_seats[pebbles]",
            "test_every_sim_is_found_through_the_catalogue_and_reports_its_game[pebbles]",
            "test_catalogue_titles_and_blurbs_are_the_modules_own[pebbles]"} <= {
        line.split("::")[-1].split(" ")[0] for line in passed}


def test_no_source_file_names_the_toy_game():
    named = [str(path.relative_to(ROOT)) for folder in SOURCE for path in (ROOT / folder).rglob("*.py")
             if re.search(r"\bpebbles\b", path.read_text(), re.IGNORECASE)]
    assert named == []


def test_the_documented_steps_are_the_ones_the_toy_game_took():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    steps = doc.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    for place in ("engine/games/GAME.py", "engine/bots/GAME.py", "`BOTS`", "`CatalogueEntry`", "`bot_module`",
                  "tui/screens/GAME.py", "tui/screens/games.py", "`GameScreens`", "tests/toy_game/"):
        assert place in steps, place
