"""Pebbles' bots, by name, in the one call shape of engine/contract.py's Bot."""
from __future__ import annotations

from dicehall.engine.chance import seeded_draw
from tests.toy_game import rules


def sharp(state: rules.PebblesState, seed: int | None, nonce: int) -> rules.Take:
    """Leaves a multiple of three when it can."""
    return rules.Take(state.pile % 3 or 1)


def random_player(state: rules.PebblesState, seed: int | None, nonce: int) -> rules.Take:
    commands = rules.legal_commands(state)
    return commands[seeded_draw(seed or 0, nonce, len(commands))]


BOTS = {"sharp": sharp, "random": random_player}
