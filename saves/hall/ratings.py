"""The hall's ratings (`dicehall ratings`, the scores screen's `t`, the change a hall game's end
shows): per game and per player identity, with openskill's Plackett-Luce model, from the rated
hall games' results. This module is pure: the results (RatedGame) in, the ratings out; the files
that keep the results and the rules of which games are rated are saves/hall/rating_files.py.

The numbers:
- Every person starts at openskill's default (mu 25, sigma 25/3). Shown as 1500 + 30 * (mu - 25),
  so a new player shows 1,500 and a point of mu is worth about 30 Elo points at a settled sigma.
- A bot is a fixed player at its style: BOT_MU below, sigma BOT_SIGMA, set by hand from the styles'
  order of strength and never moved by a game (a player alone on the box is rated against them).
  They are constants so every reader and every rebuild give the same numbers; changing one is a
  change of every rating (RATINGS_MODEL says which model a file was written for).
- A rating is provisional ("1,538?", as lichess's "?") until PROVISIONAL_GAMES rated games.
- The games are rated in the order they ended (by their logs' last record, then their commitment),
  whatever order their results were written in, so a rebuild from the logs gives the same numbers.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from dicehall.engine.errors import DicehallError
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.saves.hall.files import MAX_SEATS, is_id

RATINGS_MODEL = "openskill PlackettLuce defaults; bots measured 2"  # a file written for another model is rebuilt
BASE, SCALE = 1500, 30  # shown: BASE + SCALE * (mu - MU)
MU, SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player
PROVISIONAL_GAMES = 10  # rated games before a rating loses its "?"
BOT_SIGMA = 1.0  # a bot's rating is known, not estimated: it barely widens a game's uncertainty
# A bot's fixed mu by game and style (each game's BOT_STYLES; "" is the game's default, its first style).
# Measured by tests/perf/bot_ratings.py (its table is docs/hall.md's, Ratings): bots played each other,
# openskill's model fitted to the results, each game's first style anchored at its earlier value.
BOT_MU = {"towers": {"easy": 20.0, "medium": 34.5, "hard": 45.4},
          "bones": {"general": 25.0, "random": -4.1},
          "wager": {"cautious": 22.0, "bold": 27.5, "best": 27.6}}
MAX_RATED = 100_000  # results read from the ratings files at most: bounds what a crafted file costs
_TITLES = {entry.id: entry.title for entry in CATALOGUE}
_ORDER = {entry.id: n for n, entry in enumerate(CATALOGUE)}


class NotRated(DicehallError, ValueError):
    """Why a game or a result is not rated, in one line."""


def shown(mu: float) -> int:
    return round(BASE + SCALE * (mu - MU))


def bot_mu(game: str, style: str) -> float:
    """A bot's fixed mu: its style's, the game's default style's for "", else the default player's."""
    if not style:
        from dicehall import engine

        styles = getattr(engine.get_game(game), "BOT_STYLES", ())
        style = styles[0] if styles else ""
    return BOT_MU.get(game, {}).get(style, MU)


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated game: a person's identity, or a bot (`bot`: its style) at its name."""

    who: str
    place: int  # 0 is first; equal places are a tie
    bot: str | None = None


@dataclass(frozen=True)
class RatedGame:
    """A rated game's result: what the ratings files keep, one record each."""

    id: str  # the hall game's id
    commitment: str  # to its dice: copies of one game share it, so a game is rated once
    game: str  # the game's id ("towers")
    ended: float  # the time of its log's last record: the order games are rated in
    seats: tuple[RatedSeat, ...]
    log: str = ""  # BLAKE2b of the log's bytes when it was rated: a rebuild leaves out a log edited since

    def people(self) -> list[str]:
        return [seat.who for seat in self.seats if seat.bot is None]

    def as_record(self) -> dict:
        return {"op": "rated", "id": self.id, "commitment": self.commitment, "game": self.game, "ended": self.ended,
                "seats": [{"who": s.who, "place": s.place, **({"bot": s.bot} if s.bot is not None else {})}
                          for s in self.seats], "log": self.log}


def rated_from_record(record: Any) -> RatedGame:
    """A result as a ratings file holds it, every field checked (another account may have written the
    file: NotRated says what is wrong)."""
    if not isinstance(record, dict) or record.get("op") != "rated":
        raise NotRated("not a rated game's record")
    game_id, pledge, game, ended, seats, log = (record.get(key) for key in ("id", "commitment", "game", "ended", "seats", "log"))
    if not is_id(game_id) or not _hex(pledge) or not (log in (None, "") or _hex(log)):
        raise NotRated("a record with no game id, commitment or log digest")
    if game not in _TITLES:
        raise NotRated(f"a record of no game dicehall has ({clean_text(game, 20)!r})")
    if not isinstance(ended, (int, float)) or isinstance(ended, bool) or not 0 <= ended < 1e11:
        raise NotRated("a record whose time is not a time")
    if not isinstance(seats, (list, tuple)) or not 2 <= len(seats) <= MAX_SEATS:
        raise NotRated("a record whose seats are not readable")
    parsed = []
    for seat in seats:
        who, place, bot = (seat.get(key) for key in ("who", "place", "bot")) if isinstance(seat, dict) else (None,) * 3
        if not isinstance(who, str) or not who or clean_text(who, NAME_LIMIT) != who:
            raise NotRated("a seat with no readable name")
        if not isinstance(place, int) or isinstance(place, bool) or not 0 <= place < MAX_SEATS:
            raise NotRated("a seat with no readable place")
        if bot is not None and (not isinstance(bot, str) or clean_text(bot, 20) != bot):
            raise NotRated("a bot's seat with no readable style")
        parsed.append(RatedSeat(who, place, bot))
    rated = RatedGame(str(game_id), str(pledge), game, float(ended), tuple(parsed), str(log or ""))
    people = rated.people()
    if not people or len(set(people)) != len(people):
        raise NotRated("a record with no person, or one person at two seats")
    return rated


def _hex(text: Any) -> bool:
    return isinstance(text, str) and re.fullmatch(r"[0-9a-f]{64}", text) is not None


@dataclass
class Rating:
    """One player's rating in one game."""

    game: str
    player: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def title(self) -> str:
        return _TITLES.get(self.game, self.game)

    @property
    def value(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def words(self) -> str:
        """"1,538", or "1,538?" while provisional."""
        return f"{self.value:,}" + ("?" if self.provisional else "")

    def as_json(self) -> dict:
        return {"game": self.game, "title": self.title, "player": self.player, "rating": self.value,
                "provisional": self.provisional, "games": self.games, "mu": self.mu, "sigma": self.sigma}


@dataclass(frozen=True)
class Change:
    """What one rated game did to one person's rating."""

    player: str
    before: Rating
    after: Rating

    def words(self) -> str:
        """"Ann 1,512 -> 1,538"."""
        return f"{self.player} {self.before.words()} -> {self.after.words()}"

    def as_json(self) -> dict:
        return {"player": self.player, "before": self.before.value, "after": self.after.value,
                "provisional": self.after.provisional}


@dataclass
class HallRatings:
    """Every player's rating per game, the change each rated game made, and what was left out."""

    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)  # (game, player)
    changes: dict[str, list[Change]] = field(default_factory=dict)  # by the game's commitment
    history: list[RatedGame] = field(default_factory=list)  # in the order they were rated
    problems: list[str] = field(default_factory=list)  # one line per damaged or untrusted file
    copies: int = 0  # results of a game rated already (the same commitment), left out

    def table(self, game: str | None = None) -> list[Rating]:
        """The ratings by game (the catalogue's order), then the best first."""
        rows = [r for r in self.ratings.values() if game is None or r.game == game]
        return sorted(rows, key=lambda r: (_ORDER.get(r.game, len(_ORDER)), -r.mu, r.player.casefold(), r.player))

    def change_words(self, commitment: str) -> str:
        """A game's changes in words ("Towers ratings: Ann 1,512 -> 1,538, Bob 1,488 -> 1,462"), "" if unrated."""
        changes = self.changes.get(commitment)
        if not changes:
            return ""
        return f"{changes[0].after.title} ratings: " + ", ".join(change.words() for change in changes)

    def as_json(self, game: str | None = None) -> dict:
        return {"model": RATINGS_MODEL, "provisional_games": PROVISIONAL_GAMES, "rated_games": len(self.history),
                "copies": self.copies, "problems": list(self.problems),
                "ratings": [rating.as_json() for rating in self.table(game)],
                "games": [{"id": rated.id, "game": rated.game, "ended": rated.ended,
                           "changes": [change.as_json() for change in self.changes.get(rated.commitment, [])]}
                          for rated in self.history if game is None or rated.game == game]}


def rate_all(results: Iterable[RatedGame], problems: Iterable[str] = ()) -> HallRatings:
    """The ratings from these results: each game once (the first result of a commitment), in the
    order the games ended, each updated from the ratings before it."""
    from openskill.models import PlackettLuce  # here: a listing that rates nothing never imports it

    model = PlackettLuce()
    found = HallRatings(problems=list(problems))
    unique: dict[str, RatedGame] = {}
    for rated in results:
        if rated.commitment in unique:
            found.copies += 1
        else:
            unique[rated.commitment] = rated
    bots: dict[tuple[str, str], Any] = {}  # each bot's fixed rating, made once (rate() copies what it is given)
    for rated in sorted(unique.values(), key=lambda r: (r.ended, r.commitment)):
        teams = []
        for seat in rated.seats:
            if seat.bot is not None:
                key = (rated.game, seat.bot)
                if key not in bots:
                    bots[key] = model.rating(mu=bot_mu(*key), sigma=BOT_SIGMA)
                teams.append([bots[key]])
            else:
                held = found.ratings.get((rated.game, seat.who)) or Rating(rated.game, seat.who)
                teams.append([model.rating(mu=held.mu, sigma=held.sigma)])
        new = model.rate(teams, ranks=[seat.place for seat in rated.seats])
        changes = []
        for seat, team in zip(rated.seats, new):
            if seat.bot is not None:
                continue  # a bot's rating is fixed
            before = found.ratings.get((rated.game, seat.who)) or Rating(rated.game, seat.who)
            mu, sigma = team[0].mu, team[0].sigma
            if not (math.isfinite(mu) and math.isfinite(sigma)):
                continue  # never a rating that is not a number
            after = found.ratings[(rated.game, seat.who)] = Rating(rated.game, seat.who, mu, sigma, before.games + 1)
            changes.append(Change(seat.who, before, after))
        found.changes[rated.commitment] = changes
        found.history.append(rated)
    return found
