"""No import circles among dicehall's own modules: each module can be read, and imported, after the
ones it builds on. The graph is read from the source with `ast`: every import counts, at the top of a
module, under `if TYPE_CHECKING:` and inside a function alike (an import put inside a function to get
round a circle still makes one)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

from tests.sourcetree import ROOT, SOURCE_FOLDERS, imports_of


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] != "dicehall":
        parts.insert(0, "dicehall")  # engine/core.py is dicehall.engine.core (pyproject's package-dir)
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    modules = {}
    for folder in SOURCE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ".venv" not in path.parts:
                modules[module_name(path)] = path
    return modules


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an import names (its deepest part that is a module), or None (not ours)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `module` imports, anywhere in it."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in imports_of(path):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:  # ast.ImportFrom
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import sub` imports the module pkg.sub when there is one, else a name of pkg
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                     for alias in node.names]
        for name in names:
            target = resolve(name, modules)
            if target is not None and target != module:
                found.add(target)
    return found


@functools.cache  # read once a process: its tests only read it
def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {module: imports(module, path, modules) for module, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of more than one module (Tarjan's algorithm),
    as the modules in the order they import each other, the first repeated at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    found = []
    for group in groups:  # walk the group from its first module back to it: one circle to name
        start = min(group)
        path, seen = [start], {start}
        while True:
            nexts = sorted(t for t in graph[path[-1]] if t in group)
            if start in nexts and len(path) > 1:
                break
            step = next((t for t in nexts if t not in seen), start)
            if step == start:
                break
            path.append(step)
            seen.add(step)
        found.append(path + [start])
    return found


def test_the_graph_is_read():
    """The graph sees real arrows (a test that reads nothing would pass on anything)."""
    graph = import_graph()
    assert "dicehall.engine.core" in graph["dicehall.engine.session"] or "dicehall.engine.core" in graph["dicehall.engine"]
    assert "dicehall.engine" in graph["dicehall.tui.app"]
    assert "dicehall.saves" in graph["dicehall.cli.files"]  # `from dicehall import saves`: the package, not the root
    assert "dicehall.tui.screens.viewer.line" in graph["dicehall.tui.app"]  # imported inside a method: counted too


def test_the_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(circle) for circle in found)
