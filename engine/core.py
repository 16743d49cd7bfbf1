"""What every game module shares: the error for illegal commands, players, outcomes, chance needs, and
the labels a host gives a session."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, Sequence

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text


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
    """How a game ended: the winners' seat numbers (empty for a solo loss or a draw) and a sentence.
    How it went for each seat, in the game's own measure, is the game's `result` (a Result)."""

    winners: tuple[int, ...]
    summary: str


HIGHER, LOWER = "higher", "lower"  # which way a measure's values are better


@dataclass(frozen=True)
class Measure:
    """What a game's results count (its catalogue entry's `measure`): its unit in words ("cards
    left"), which way is better, and the outcome summary of a perfect result where the game has one
    ("perfect win"; saved statistics recognise it by that summary)."""

    name: str
    better: str = HIGHER
    perfect: str = ""

    def result(self, value: int, words: str, won: bool = False, perfect: bool = False) -> Result:
        return Result(value, words, self.better, won, perfect)

    def best(self, values) -> int | None:
        """The best of some values (None among them skipped; None if none)."""
        known = [value for value in values if value is not None]
        return (max if self.better == HIGHER else min)(known) if known else None


@dataclass(frozen=True)
class Result:
    """How a finished game went for one seat, in the game's own measure (the game's `result` hook):
    the value (the troll's cards left, the tower's pulls), it in words ("won, 3 troops lost"), which
    way values are better, whether the seat won, and whether it was a perfect result."""

    value: int
    words: str
    better: str = HIGHER
    won: bool = False
    perfect: bool = False

    def rank(self) -> tuple[bool, bool, int]:
        """The order of results, greatest best: a perfect result, then a win, then the better value."""
        return self.perfect, self.won, self.value if self.better == HIGHER else -self.value


@dataclass(frozen=True)
class ChanceNeeded:
    """The state waits for chance: one draw per entry of `spec`, each in range(entry).

    `dice` is True when every draw is a d6 face, so a player may type physical dice instead.
    """

    spec: tuple[int, ...]
    prompt: str
    dice: bool = True


@dataclass(frozen=True)
class Handover:
    """A seat that changed hands during a game (a hall seat whose person was idle, given to a bot):
    `before` played `seat` for the first `at` events, the seat's player at the end from then on;
    `why` says so in words ("idle for 30 minutes"). A host's label (HostLabels.handovers): the
    game's state keeps the names it began with, so a replay starts from `before`."""

    at: int
    seat: int
    before: Player
    why: str = ""

    def words(self, now: str) -> str:
        """"seat 2 went to Bot for Bob after event 13 (idle for 30 minutes)": `now`, the seat's player now."""
        why = f" ({self.why})" if self.why else ""
        return (f"seat {self.seat + 1} went to {clean_text(now)} for {clean_text(self.before.name)} "
                f"after event {self.at}{why}")


@dataclass(slots=True)
class HostLabels:
    """What a host (a save, the hall, a replay) calls a session, for the screens to show: the
    session's `labels`. The rules and the session never read or set them; the host that made the
    session fills them in (the analysis and the summary read them)."""

    save_name: str = ""  # the name shown ("Ann v Bot"); "" when no host named it
    save_id: str = ""  # the host's id for it: a save's file id, a hall game's id
    notice: str | None = None  # one line for the player on opening (a cut-off record removed, a branch made)
    header_claimed: bool = False  # a replay's: its header (the undo count, the result) is the file's claim, not re-derived
    recorded_result: str = ""  # a replay's: the result its file claims
    # Kept by the host beside the game, never game events (undo and the fold never see them):
    comments: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))  # players' comments by event number (0: the whole game)
    assists: tuple[tuple[str, int], ...] = ()  # (kind, events so far) of each assist asked: "hint", "reveal", "hindsight"
    handovers: tuple[Handover, ...] = ()  # the seats that changed hands, in order (at most one each)
    abandoned: str = ""  # why the game was ended before its end (a hall game's idle seat), in words
    draft: str = ""  # a writer's draft kept with a save (saves/drafts.py)
    rewrite: tuple[int, str] = (0, "")  # the rewrite of an earlier entry being made: (its page, its words)
    # a text record's own lines, written back as they were read (replays/text_read.py): its analysis
    # notes and marks, tags dicehall does not know, and its Date and Dicehall tags
    record_notes: Mapping[int, list[str]] = field(default_factory=dict)
    record_marks: Mapping[int, str] = field(default_factory=dict)
    record_extra_tags: tuple[tuple[str, str], ...] = ()
    record_date: str = ""
    record_dicehall: str = ""

    # these take the session's players: a handover names who held a seat before its player now
    def holder(self, players: Sequence[Player], seat: int, position: int) -> Player:
        """Who played `seat` at event `position` (from 0): the person a handover later replaced,
        before it; else the seat's player now."""
        for handover in self.handovers:
            if handover.seat == seat and position < handover.at:
                return handover.before
        return players[seat]

    def seat_name(self, players: Sequence[Player], seat: int) -> str:
        """The seat's player now, with the person a handover replaced: "Bot for Bob"."""
        name = players[seat].name
        before = [h.before.name for h in self.handovers if h.seat == seat]
        return f"{name} for {before[0]}" if before else name

    def first_players(self, players: Sequence[Player]) -> tuple[Player, ...]:
        """The players the game began with (whose names its state keeps): before any handover."""
        first = list(players)
        for handover in reversed(self.handovers):
            first[handover.seat] = handover.before
        return tuple(first)
