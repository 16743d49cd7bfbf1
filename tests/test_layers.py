"""The direction of the imports (README, "The engine and the layers"): the rules know nothing of
their bots, the engine nothing of saves, replays or the terminal."""
from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

from tests.sourcetree import ROOT, SOURCE_FOLDERS, imports_of, nodes_of, tree_of


FOLDERS = ("engine", "tui", "saves", "replays")  # installed as dicehall.engine, ... (pyproject's package-dir)


def folder_name(name: str) -> str:
    """An imported module named by its folder: dicehall.engine.core is engine.core, dicehall.cli stays."""
    rest = name.removeprefix("dicehall.")
    return rest if rest.split(".")[0] in FOLDERS else name


@functools.cache
def imported_modules(path: Path) -> frozenset[str]:
    """Every module a source file imports, at its top or inside a function, named by its folder."""
    found = set()
    for node in imports_of(path):
        if isinstance(node, ast.Import):
            found.update(folder_name(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "dicehall":
            found.update(folder_name(f"dicehall.{alias.name}") for alias in node.names)  # from dicehall import saves
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(folder_name(node.module))
            found.update(folder_name(f"{node.module}.{alias.name}") for alias in node.names)
    return frozenset(found)


def imports_under(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{path.relative_to(ROOT)} imports {name}"
                  for path in (ROOT / folder).rglob("*.py")
                  for name in imported_modules(path)
                  if name.split(".")[0] in forbidden or name.startswith(forbidden))


def test_the_imports_are_read():
    # the arrows the tests below forbid are found where they are allowed (a test that reads nothing
    # would pass on anything)
    assert any(line.endswith("imports engine") for line in imports_under("saves", ("engine",)))
    assert any(" imports engine.bots" in line for line in imports_under("engine/analysis", ("engine.bots",)))
    assert any(" imports tui" in line for line in imports_under("dicehall", ("tui",)))
    assert any(" imports saves" in line for line in imports_under("tui", ("saves",)))


def test_the_rules_of_a_game_never_import_its_bots():
    # a game names its bot seats' styles (wager.STYLES, bones.LEVELS); engine/bots/ plays them
    assert imports_under("engine/games", ("engine.bots",)) == []


def test_bot_seats_are_played_through_the_catalogue():
    # every bot is the catalogue's (entry_of(game).bots[name]): the sims import no bots module, and
    # a screen imports one only for its own game's advice (the troll's hints, the wager's odds)
    assert imports_under("dicehall/sims", ("engine.bots",)) == []
    advisers = {"tui/screens/troll/screen.py", "tui/screens/wager/screen.py"}
    assert {line.split(" imports ")[0] for line in imports_under("tui", ("engine.bots",))} <= advisers


def test_the_engine_imports_nothing_above_it():
    assert imports_under("engine", ("tui", "saves", "replays", "textual", "dicehall")) == []


def test_every_package_is_installed():
    # pyproject lists the packages one by one: a package left out (engine/games/bones/ when the
    # module became a package) would be missing from a non-editable install
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = {".".join(("dicehall",) * (top != "dicehall") + init.parent.relative_to(ROOT).parts)
             for top in SOURCE_FOLDERS for init in (ROOT / top).rglob("__init__.py")}
    assert len(found) > 10 and found - listed == set()
    # each folder is installed under the one name: engine/ is dicehall.engine, and so on
    assert setuptools["package-dir"] == {"dicehall": "dicehall", **{f"dicehall.{top}": top for top in FOLDERS}}


LONGEST = 600  # lines: what a newcomer can hold in mind at once; the same for every folder, not tuned to a file


def test_no_module_is_longer_than_a_newcomer_can_hold():
    """Every module of the source, in every folder (not only the engine's), is at most LONGEST lines."""
    paths = [path for top in SOURCE_FOLDERS for path in sorted((ROOT / top).rglob("*.py")) if ".venv" not in path.parts]
    assert len(paths) > 100  # the folders were found
    long = {str(path.relative_to(ROOT)): length for path in paths
            if (length := len(path.read_text().splitlines())) > LONGEST}
    assert long == {}, f"modules over {LONGEST} lines (split them by concern): {long}"


def test_war_of_bones_is_one_package_with_the_whole_game_interface():
    from dicehall.engine.games import bones
    from dicehall.engine.session import Session

    assert bones.__file__.endswith("bones/__init__.py")
    # what the session, the codec, saves and the viewer ask of a game, all from the package itself
    for name in ("ID", "TITLE", "RULES_VERSION", "RULES_TEXT", "EVENTS", "check_options", "check_players",
                 "initial_state", "to_act", "legal_commands", "decide", "evolve", "chance_needed", "chance_event",
                 "chance_draws", "command_of", "outcome", "describe", "progress", "is_turn_start"):
        assert hasattr(bones, name), name
    session = Session(bones, seed=1)
    assert session.state.stage == "choose" and session.describe(len(session.events) - 1).startswith("roll-off")


def top_level_imports(path: Path) -> set[str]:
    """The modules a source file imports at its top (not inside a function or a class)."""
    found = set()
    for node in tree_of(path).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "dicehall":
            found.update(f"dicehall.{alias.name}" for alias in node.names)  # from dicehall import tui
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_the_command_line_imports_the_screens_only_when_a_command_opens_one():
    # dicehall/ (the command line, sim) may import engine, saves and replays; tui and Textual only
    # inside the functions of the commands that open a screen, so the headless commands stay headless
    textual = sorted(f"{path.relative_to(ROOT)} imports {name}" for path in (ROOT / "dicehall").rglob("*.py")
                     for name in imported_modules(path) if name.split(".")[0] == "textual")
    assert textual == []  # the screens do that, in tui/
    eager = sorted(f"{path.relative_to(ROOT)} imports {name}" for path in (ROOT / "dicehall").rglob("*.py")
                   for name in top_level_imports(path) if folder_name(name).split(".")[0] in ("tui", "textual"))
    assert eager == []


# The layers, top down: dicehall.cli and dicehall.sims (the command line) -> tui -> saves -> replays
# -> engine, and beside the engine, below saves and replays, the package root's one module of
# infrastructure: dicehall.durable (every file written, all of it, then fsync; it needs only the os).
BELOW_THE_FILE_LAYERS = ("dicehall.durable",)


def test_nothing_below_the_command_line_imports_it():
    def of_the_command_line(name: str) -> bool:
        return name.split(".")[0] == "dicehall" and not any(
            name == module or name.startswith(f"{module}.") for module in BELOW_THE_FILE_LAYERS)

    for folder in ("engine", "saves", "replays", "tui"):
        assert [f"{path.relative_to(ROOT)} imports {name}" for path in (ROOT / folder).rglob("*.py")
                for name in imported_modules(path) if of_the_command_line(name)] == [], folder


def test_the_durable_writer_is_below_saves_and_replays_and_above_nothing():
    # saves and replays both write through it (the engine, pure, never: the test above forbids it),
    # and it imports nothing of dicehall, so it can sit under both without a circle
    assert any(line.endswith(" imports dicehall.durable") for line in imports_under("saves", BELOW_THE_FILE_LAYERS))
    assert any(line.endswith(" imports dicehall.durable") for line in imports_under("replays", BELOW_THE_FILE_LAYERS))
    for module in BELOW_THE_FILE_LAYERS:
        path = ROOT / (module.replace(".", "/") + ".py")
        assert [name for name in imported_modules(path) if name.split(".")[0] in (*FOLDERS, "dicehall")] == []


def test_no_module_reaches_another_modules_private_names():
    """Every folder, not only saves/ (tests/test_saves_rooms.py): what another module needs of one is
    public, so a private name can change without a reader elsewhere breaking."""
    found = []
    for top in SOURCE_FOLDERS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if ".venv" in path.parts:
                continue
            bound = set()  # local names bound to something of dicehall's
            for node in imports_of(path):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dicehall"):
                    for alias in node.names:
                        bound.add(alias.asname or alias.name)
                        if alias.name.startswith("_") and not alias.name.startswith("__"):
                            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {alias.name}")
                elif isinstance(node, ast.Import):
                    bound.update(alias.asname or alias.name.split(".")[0] for alias in node.names
                                 if alias.name.startswith("dicehall"))
            for node in nodes_of(path):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                        and isinstance(node.value, (ast.Name, ast.Attribute))):
                    root = node.value
                    while isinstance(root, ast.Attribute):
                        root = root.value
                    if isinstance(root, ast.Name) and root.id in bound:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
