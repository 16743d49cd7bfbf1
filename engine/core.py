"""What every game module shares: the error for illegal commands, players, outcomes, chance needs, and
the labels a host gives a session."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from dicehall.engine.errors import DicehallError


class IllegalCommand(DicehallError, ValueError):
    """A command that is not allowed now; the message tells the player why."""


@dataclass(frozen=True)
class Player:
    name: str
    bot: bool = False
    style: str = ""  # a bot's playing style, where the game has several ("cautious", "bold", "best")

    def record(self) -> list:
        """The player as saves and replays store it: [name, bot, style]."""
        return [self.name, self.bot, self.style]


def player_from_record(entry: object, clean) -> Player:
    """A player from a stored [name, bot] or [name, bot, style]; ValueError if it is neither."""
    if not isinstance(entry, (list, tuple)) or len(entry) not in (2, 3):
        raise ValueError("a player entry is not readable")
    style = entry[2] if len(entry) == 3 else ""
    if not isinstance(style, str):
        raise ValueError("a player's style is not text")
    return Player(clean(entry[0]), entry[1] is True, clean(style, 20))


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


class HostLabels:
    """What a host (a save, the hall, a replay) calls a session, for the screens to show: a base of
    Session. The engine never reads or sets them; the host that made the session fills them in."""

    save_name: str = ""  # the name shown ("Ann v Bot"); "" when no host named it
    save_id: str = ""  # the host's id for it: a save's file id, a hall game's id
    notice: str | None = None  # one line for the player on opening (a cut-off record removed, a branch made)
    header_claimed: bool = False  # a replay's: its header (the undo count, the result) is the file's claim, not re-derived
    recorded_result: str = ""  # a replay's: the result its file claims
    # Kept by the host beside the game, never game events (undo and the fold never see them):
    comments: Mapping[int, str] = MappingProxyType({})  # players' comments by event number (0: the whole game)
    assists: tuple[tuple[str, int], ...] = ()  # (kind, events so far) of each assist asked: "hint", "reveal", "hindsight"
