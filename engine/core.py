"""What every game module shares: the error for illegal commands, players, outcomes, and chance needs."""
from __future__ import annotations

from dataclasses import dataclass


class IllegalCommand(ValueError):
    """A command that is not allowed now; the message tells the player why."""


@dataclass(frozen=True)
class Player:
    name: str
    bot: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winners' seat numbers (empty for a solo loss or a draw) and a sentence."""

    winners: tuple[int, ...]
    summary: str
    score: int | None = None


@dataclass(frozen=True)
class ChanceNeeded:
    """The state waits for chance: one draw per entry of `spec`, each in range(entry).

    `dice` is True when every draw is a d6 face, so a player may type physical dice instead.
    """

    spec: tuple[int, ...]
    prompt: str
    dice: bool = True
