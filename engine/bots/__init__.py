"""Bots: players and advisers that choose commands through the same engine API as the TUI.

Each game's module here that plays seats has `BOTS`, its bots by name in the one call shape of
engine/contract.py's `Bot`; the game's catalogue entry names the module (`bot_module`), and every
caller (screens, sims) reaches them through the entry (`entry_of(game).bots`).
"""
from __future__ import annotations

from typing import Any, Callable

from dicehall.engine.contract import Bot


def levelled_bots(choose: Callable[[Any, str, Any, int], object], levels: tuple[str, ...]) -> dict[str, Bot]:
    """A Bot for each level of a `choose(state, level, seed, nonce)` (its state its game's own, its seed
    that of a seeded game)."""

    def bot_of(level: str) -> Bot:
        return lambda state, seed, nonce: choose(state, level, seed, nonce)

    return {level: bot_of(level) for level in levels}
