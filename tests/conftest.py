"""Shared fixtures: every test gets its own DICEHALL_HOME, so no test touches a real save; and every
test is marked with its module's lane (tests/lanes.py), so `pytest -m rules` runs one lane."""
from __future__ import annotations

import pytest

from tests.lanes import lane_of, lanes_in


def pytest_collection_modifyitems(items):
    for item in items:
        lane = lane_of(item.path.stem, getattr(item, "originalname", item.name))
        if lane:  # a module in no lane runs in every run but no lane's: tests/test_tooling.py names it
            item.add_marker(lane)


def pytest_ignore_collect(collection_path, config):
    """Under `-m`, a module whose lane the expression leaves out is not even imported: importing every
    module costs more than the rules lane takes to run. A test's one mark is its lane: none marks itself."""
    lanes = lanes_in(collection_path.stem)
    markexpr = config.getoption("markexpr")
    if not lanes or not markexpr:
        return None
    try:  # pytest's own reading of -m, so the lanes select what its deselection would
        from _pytest.mark.expression import Expression
        selects = Expression.compile(markexpr).evaluate
        return not any(selects(lambda name, lane=lane, **kwargs: name == lane) for lane in lanes) or None
    except Exception:  # another pytest, or an expression with arguments: collect it, -m deselects
        return None


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    folder = tmp_path / "dicehall-home"
    monkeypatch.setenv("DICEHALL_HOME", str(folder))
    monkeypatch.setenv("DICEHALL_PLAYER", "")  # no box unless a test says so; --player's setting is undone after it
    return folder
