"""The hall's scores (`dicehall hall --scores`, the Hall screen's `s`): per player name and game,
from the hall's finished games: games, wins, win %, and the best result in the game's own measure
(the game's `result(state, seat)` hook; the best is the greatest `Result.rank()`: a perfect result,
then a win, then the better value).

What counts, and what does not (each log is another player's file, so every rule is about not
being fooled or counting twice):
- A game counts once it is finished with a result; one in progress or abandoned (an idle seat's
  game ended by another player) does not, nor a file the listing calls DAMAGED.
- A game counts once: two logs with the same commitment to their dice (a copied file) are one game,
  and a name seated twice in one game (one person at two seats) counts that game once for it, won
  if either seat won.
- People's seats only: a bot's seat is not a player. A person whose seat was handed to a bot for
  being idle keeps the game as played and not won.
- The best result is credited to the winners (in a game for one, to its player, win or loss).
- Names are the hall's. On a shared box each is the name the admin gave a player's key (a `key`
  seat record): nobody else can sit as it. A name typed at a seat (off a box) is unchecked; where the
  hall has both, a typed name is counted apart from the key's and shown as "NAME (typed)".
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from dicehall.engine.core import Result
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.saves.hall.fold import HallFold
from dicehall.saves.hall.seats import seat_label

UNAUTHENTICATED = "names are as typed at each seat: the hall does not check who typed them (unauthenticated)"
FROM_KEYS = "names are the admin's, one per player's key: no one else can sit as them"
TYPED = " (typed)"  # a typed name in a hall where names also come from keys
_ORDER = {entry.id: n for n, entry in enumerate(CATALOGUE)}


@dataclass
class Score:
    """One player's record in one game."""

    game: str  # the game's id
    title: str
    player: str
    games: int = 0
    wins: int = 0
    best: Result | None = None  # the best of the game's results credited to the player

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0

    def as_json(self) -> dict:
        best = self.best and {"value": self.best.value, "words": self.best.words, "better": self.best.better}
        return {"game": self.game, "title": self.title, "player": self.player, "games": self.games,
                "wins": self.wins, "win_percent": self.win_percent, "best": best}


@dataclass
class HallScores:
    """Every player's record, and what was left out and why."""

    scores: list[Score] = field(default_factory=list)
    counted: int = 0  # finished games counted
    in_progress: int = 0
    abandoned: int = 0
    copies: int = 0  # logs of a game already counted (the same commitment)
    damaged: int = 0  # files that are not a good game
    typed_names: bool = False  # some counted seat's name was typed, not a key's

    @property
    def names_note(self) -> str:
        """What the names are worth: a key's each (a shared box), or as typed (unauthenticated)."""
        return UNAUTHENTICATED if self.typed_names or not self.scores else FROM_KEYS

    def left_out(self) -> str:
        """What was not counted, in words ("" when nothing was)."""
        parts = [(self.in_progress, "in progress"), (self.abandoned, "abandoned"),
                 (self.copies, "copy" if self.copies == 1 else "copies"),  # of a game counted already
                 (self.damaged, "damaged")]
        return ", ".join(f"{count} {words}" for count, words in parts if count)

    def as_json(self) -> dict:
        return {"unauthenticated": UNAUTHENTICATED if self.names_note == UNAUTHENTICATED else "",
                "names": self.names_note, "counted": self.counted, "in_progress": self.in_progress,
                "abandoned": self.abandoned, "copies": self.copies, "damaged": self.damaged,
                "scores": [score.as_json() for score in self.scores]}


def _credit(fold) -> dict[tuple[str, bool], tuple[bool, Result | None]]:
    """The people of a finished game by (name, whether it is a key's), each with whether they won
    and their best result (credited to the winners; in a game for one, to its player)."""
    winners = set(fold.session.outcome.winners)
    solo = len(fold.seats) == 1
    names: dict[tuple[str, bool], tuple[bool, Result | None]] = {}
    seated = [(seat, held, seat in winners) for seat, held in enumerate(fold.seats)]
    for seat, held, won in seated + [(seat, held, False) for seat, held in fold.handed.items()]:  # left idle: played, not won
        if held.kind == "player" and held.name:
            who = seat_label(held)  # a key's name only from the box's own account
            was_won, best = names.get(who, (False, None))
            names[who] = was_won or won, better(best, _result(fold, seat) if won or solo else None)
    return names


credit = _credit  # the archive's name for it too (saves/hall/archive.py: who played a game, and who won)


def _result(fold, seat: int) -> Result | None:
    result = fold.module.result(fold.session.state, seat)
    return result and replace(result, words=clean_text(result.words, 60))


def better(a: Result | None, b: Result | None) -> Result | None:
    """The better of two results (either may be None); a tie keeps the first."""
    return a if b is None or (a is not None and a.rank() >= b.rank()) else b


def scores_of(folds: Iterable[tuple[str, HallFold]], damaged: int = 0) -> HallScores:
    """The scores of the games `folds` gives ((id, HallFold) pairs)."""
    found = HallScores(damaged=damaged)
    table: dict[tuple[str, str, bool], Score] = {}
    seen: set[str] = set()
    for _, fold in folds:
        if fold.abandoned:
            found.abandoned += 1
            continue
        if fold.session is None or fold.session.outcome is None:
            found.in_progress += 1
            continue
        if fold.commitment in seen:
            found.copies += 1
            continue
        try:  # the per-game boundary: a log that folds but cannot be credited is left out as damaged
            credit = _credit(fold)
        except Exception:
            found.damaged += 1
            continue
        seen.add(fold.commitment)
        found.counted += 1
        for (name, keyed), (won, best) in credit.items():
            score = table.setdefault((fold.module.ID, name, keyed), Score(fold.module.ID, fold.module.TITLE, name))
            score.games += 1
            score.wins += won
            score.best = better(score.best, best)
    kinds = {key[2] for key in table}  # whether each name is a key's
    found.typed_names = False in kinds
    if kinds == {False, True}:  # a typed name never passes for the key's of the same name
        for (_, _, is_key), score in table.items():
            if not is_key:
                score.player += TYPED
    found.scores = sorted(table.values(), key=lambda s: (_ORDER.get(s.game, len(_ORDER)), -s.wins, -s.win_percent,
                                                        s.player.casefold(), s.player))
    return found


def hall_scores(hall) -> HallScores:
    """The scores of a Hall's games, as its listing reads them (a damaged file is counted as such)."""
    entries = hall.listing()
    return scores_of(hall.listed_folds(), damaged=sum(1 for entry in entries if entry.problem))
