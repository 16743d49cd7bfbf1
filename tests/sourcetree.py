"""The project's source parsed once a process for the architecture tests that read every import of
it (tests/test_layers.py, tests/test_import_circles.py): each file's syntax tree and its nodes are
read, never changed, so one walk of a file serves every test."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("engine", "tui", "saves", "replays", "dicehall")  # dicehall/: the package's root (cli, sim)


@functools.cache
def tree_of(path: Path) -> ast.Module:
    """A source file's syntax tree."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


@functools.cache
def nodes_of(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a source file's tree, in ast.walk's order."""
    return tuple(ast.walk(tree_of(path)))


@functools.cache
def imports_of(path: Path) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement of a source file, at its top or inside a function or a class."""
    return tuple(node for node in nodes_of(path) if isinstance(node, (ast.Import, ast.ImportFrom)))
