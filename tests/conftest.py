"""Shared fixtures: every test gets its own DICEHALL_HOME, so no test touches a real save."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    folder = tmp_path / "dicehall-home"
    monkeypatch.setenv("DICEHALL_HOME", str(folder))
    monkeypatch.setenv("DICEHALL_PLAYER", "")  # no box unless a test says so; --player's setting is undone after it
    return folder
