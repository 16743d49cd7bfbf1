"""The TUI's arrows point one way: the app owns navigation, so no screen imports another screen
(only the shared base, stepping, dialogs, widgets, and the modules of its own package: a game's, the
viewer's, the hall's),
and only the app (and the command line) reaches the registry of every game's screens."""
from __future__ import annotations

import ast
from pathlib import Path

SCREENS = Path(__file__).parent.parent / "tui" / "screens"
SHARED = {"dicehall.tui.screens.base", "dicehall.tui.screens.stepping", "dicehall.tui.screens.dialogs",
          "dicehall.tui.screens.reading", "dicehall.tui.screens.journal_pages"}
# a screen that is another's mode, built on its class (as tui/screens/games.py's hall screens build on
# each game's): the watcher's live viewer is the replay viewer following a hall game
BUILT_ON = {"dicehall.tui.screens.hall.watch": {"dicehall.tui.screens.viewer.screen"}}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "dicehall":
            found.update(f"dicehall.{alias.name}" for alias in node.names)  # `from dicehall import saves`
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names if node.module == "dicehall.tui.screens")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def own_module(path: Path) -> str:
    return "dicehall.tui." + ".".join(path.relative_to(SCREENS.parent).with_suffix("").parts).removesuffix(".__init__")


def test_no_screen_imports_another_screen():
    crossings = []
    for path in sorted(SCREENS.rglob("*.py")):
        module = own_module(path)
        if module == "dicehall.tui.screens.games":
            continue  # the app's registry of every game's screens
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for name in imported_modules(path):
            if not name.startswith("dicehall.tui.screens.") or name in SHARED or name in BUILT_ON.get(module, ()):
                continue
            if package != "dicehall.tui.screens" and (name == package or name.startswith(package + ".")):
                continue  # a module of the same game's package
            crossings.append(f"{module} imports {name}")
    assert crossings == []


def test_screens_reach_the_app_only_through_self_app():
    users = [own_module(p) for p in SCREENS.rglob("*.py")
             if {"dicehall.tui.app", "dicehall.tui.screens.games"} & imported_modules(p) and p.name != "games.py"]
    assert users == []


def test_screens_never_import_the_command_line():
    # what a screen and the command line share (the daily deal's seed) lives below both
    users = [own_module(p) for p in SCREENS.rglob("*.py")
             if any(m == "dicehall" or m.split(".")[:2] in (["dicehall", "cli"], ["dicehall", "sims"]) for m in imported_modules(p))]
    assert users == []


def test_the_app_gives_everything_a_screen_may_ask_of_it():
    # tui/parlor.py declares what a screen may ask of the app (the type checker checks each ask
    # against it); a declaration the app does not give would fail only when a player reached it
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.parlor import ParlorApp

    asks = [name for name, value in vars(ParlorApp).items() if callable(value) and not name.startswith("_")]
    assert "open_game" in asks and "game_screens" in asks
    assert [name for name in asks if getattr(DicehallApp, name) is getattr(ParlorApp, name)] == []
