"""Matches in the hall, folded (pure, every record checked): a match of N games between two places,
or a round-robin among invited players, and the score each gives.

A match is its own log, `matches/ID.dhm` (the hall log's framing and locked append: HallLog), whose
header says the game, its options, the games per pairing and who is invited, and whose records
say who accepted, which hall game is which game of the match, and who withdrew:
    header {"hall": 1, "match": 1, "kind": "match"|"round", "game": G, "options": {...}, "games": N,
            "invited": [NAME or "" (anyone: the one who takes the seat in game 1)], "nonce": HEX,
            "name": NAME, "created": ISO}
    {"op": "accept", "place": p, "name": NAME, "uid": UID, "key": bool}   a round-robin's invitee
    {"op": "game", "id": GAME_ID, "pair": [a, b], "by": p}   the next game of places a and b (a < b),
                                                             hosted as hall game GAME_ID
    {"op": "resign", "place": p}                             p withdraws: their unplayed games are lost
A match's places are its invited players: in a two-place match (`kind` "match") the people seated in
its first game, in a round-robin those who accepted. Each game of a match is an ordinary hall game
whose header names the match (`match_tag`): its id and nonce, the game's number in its pairing and
the names its seats are kept for. The seats alternate: game k of places (a, b) puts a in seat 1 when
k is even, b when it is odd, so who moves first (and Towers' colour) changes every game.

The score is never taken from the match log: a game counts only once it is over and verifies (its
seed revealed and every die re-derived), names this match in its header with the number and seats
the match log gives it, and is played by the match's own places in the order the alternation says
(saves/hall/match_book.py checks each). A crafted match record can name a game; it cannot make one
count. A win is 1 point, a draw 1/2 each; a game ended by a seat idle on its turn (abandoned, or
handed to a bot) is lost by that seat; a withdrawn place's unplayed games are lost (forfeits).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dicehall.engine.games import entry_of
from dicehall.engine.text import clean_text
from dicehall.saves import short_name
from dicehall.saves.hall.errors import HallError, HallRecordError
from dicehall.saves.hall.files import HALL_FORMAT, is_id
from dicehall.saves.hall.fold import header_time, is_int

MATCH_FORMAT = 1
MATCH_SUFFIX = ".dhm"
KINDS = ("match", "round")
MATCH_LENGTHS = (3, 5, 7)  # best of N, as the host screen offers them
ROUND_LENGTHS = (1, 2)  # games per pairing in a round-robin (2: each plays each in both seats)
MOST_GAMES = 9  # per pairing: bounds what a crafted header can ask
MOST_PLACES = 8  # a round-robin's players: 28 pairings, within one screen's table
MOST_RECORDS = 600  # far above a round-robin of 8 playing twice (56 games): bounds a crafted log


def match_games(game: str) -> bool:
    """Whether `game` is played as a match: a game of the hall for two (the wager with two, too)."""
    try:
        fewest, most = entry_of(game).seats
    except (KeyError, ValueError):
        return False
    return fewest <= 2 <= most


@dataclass
class Place:
    """One player of a match: who was invited ("" anyone), and who took the place (None: not yet)."""

    invited: str
    name: str = ""
    uid: int | None = None
    keyed: bool = False
    taken: bool = False
    resigned: bool = False
    bot: str | None = None  # a bot's place (a match against a bot): its style

    @property
    def shown(self) -> str:
        return self.name or self.invited or "open"


@dataclass
class MatchGame:
    """One game of a match, as its log names it: the hall game, the places playing it (seat 1 first)
    and its number in their pairing (from 0)."""

    id: str
    pair: tuple[int, int]  # (a, b), a < b: the pairing
    number: int

    @property
    def seats(self) -> tuple[int, int]:
        """The places in seat 1 and seat 2: they alternate every game."""
        a, b = self.pair
        return (a, b) if self.number % 2 == 0 else (b, a)


def seats_for(pair: tuple[int, int], number: int) -> tuple[int, int]:
    return MatchGame("", pair, number).seats


def round_robin(places: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round-robin (the circle method): every pairing once, each round a set of
    games that can be played at once. A bye (an odd number of places) is left out."""
    order = list(range(places)) + ([None] if places % 2 else [])
    rounds = []
    for _ in range(len(order) - 1):
        pairs = [(order[n], order[-1 - n]) for n in range(len(order) // 2)]
        rounds.append([(min(a, b), max(a, b)) for a, b in pairs if a is not None and b is not None])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


class MatchFold:
    """A match's log folded: its header checked, then each record applied by `apply` (pure)."""

    def __init__(self, header: Any, label: str):
        self.label = label
        if not isinstance(header, dict) or header.get("hall") != HALL_FORMAT or header.get("match") != MATCH_FORMAT:
            version = header.get("match") if isinstance(header, dict) else None
            if is_int(version) and version > MATCH_FORMAT:
                raise HallError(f"{label}: made by a newer dicehall (match format {version})")
            raise HallError(f"{label}: not a match's log")
        kind, game, games, invited = header.get("kind"), header.get("game"), header.get("games"), header.get("invited")
        if kind not in KINDS:
            raise HallError(f"{label}: a match that is neither a match nor a round-robin")
        if not isinstance(game, str) or not match_games(game):
            raise HallError(f"{label}: {clean_text(game, 20)!r} is not a game of the hall for two")
        if not is_int(games) or not 1 <= games <= MOST_GAMES:
            raise HallError(f"{label}: the games per pairing are not 1 to {MOST_GAMES}")
        fewest = 2 if kind == "match" else 3
        most = 2 if kind == "match" else MOST_PLACES
        if not isinstance(invited, (list, tuple)) or not fewest <= len(invited) <= most \
                or not all(isinstance(name, str) for name in invited):
            raise HallError(f"{label}: its invited players are not readable")
        options, nonce = header.get("options", {}), header.get("nonce")
        if not isinstance(options, dict) or not isinstance(nonce, str) or not re.fullmatch(r"[0-9a-f]{16}", nonce):
            raise HallError(f"{label}: the header is not readable")
        self.kind: str = kind
        self.game: str = game
        self.games_each: int = games
        self.options = options
        self.nonce = nonce
        self.title = entry_of(game).title
        self.name = clean_text(header.get("name", ""), 60)
        self.created_at = header_time(header.get("created"))
        self.places = [Place(short_name(name)) for name in invited]
        names = [place.invited for place in self.places if place.invited]
        if len(set(names)) != len(names):
            raise HallError(f"{label}: a player invited twice")
        self.games: list[MatchGame] = []
        self.count = 0

    # ----- what the log says -----
    def pairings(self) -> list[tuple[int, int]]:
        """Every pairing, in the order of the rounds they are played in."""
        return [pair for rounds in round_robin(len(self.places)) for pair in rounds]

    def of_pair(self, pair: tuple[int, int]) -> list[MatchGame]:
        return [game for game in self.games if game.pair == pair]

    def place_of(self, name: str, uid: int, keyed: bool) -> int | None:
        """The place taken as `name` by this user (a key's name, or a typed one), if any."""
        for n, place in enumerate(self.places):
            if place.taken and place.name == name and place.keyed == keyed and (keyed or place.uid == uid):
                return n
        return None

    def tag(self, match_id: str, game: MatchGame, keyed_host: bool = False) -> dict:
        """What a game of this match carries in its header: which match, which game, whose seats (and
        whether each is a key's name: a place not taken yet is one when a key's name opens the game,
        since on a box every name invited is a key's)."""
        kept = [self.places[place].name if self.places[place].taken else self.places[place].invited
                for place in game.seats]
        keyed = [self.places[place].keyed if self.places[place].taken else keyed_host for place in game.seats]
        return {"id": match_id, "nonce": self.nonce, "pair": list(game.pair), "number": game.number, "kept": kept,
                "keyed": keyed}

    # ----- records -----
    def apply(self, record: Any) -> None:
        if self.count >= MOST_RECORDS:
            raise HallRecordError(f"more than {MOST_RECORDS} records")
        if not isinstance(record, dict):
            raise HallRecordError("not a match record")
        op: Any = record.get("op")  # any value: one that names no handler is refused below
        handler = {"accept": self._accept, "game": self._game, "resign": self._resign}.get(op)
        if handler is None:
            raise HallRecordError(f"unknown record {clean_text(record.get('op'), 20)!r}")
        at = record.get("at")
        if at is not None and (not isinstance(at, (int, float)) or isinstance(at, bool) or not 0 <= at < 1e11):
            raise HallRecordError("a record whose time is not a time")
        handler(record)
        self.count += 1

    def _place(self, record: dict, key: str = "place") -> int:
        place = record.get(key)
        if not is_int(place) or not 0 <= place < len(self.places):
            raise HallRecordError("a place that the match does not have")
        return place

    def _accept(self, record: dict) -> None:
        if self.kind != "round":
            raise HallRecordError("an acceptance in a match (its players are its first game's)")
        place = self.places[self._place(record)]
        name, uid, keyed = short_name(str(record.get("name", ""))), record.get("uid"), record.get("key", False)
        if place.taken:
            raise HallRecordError("a place accepted twice")
        if not name or not is_int(uid) or uid < 0 or not isinstance(keyed, bool):
            raise HallRecordError("an acceptance with no name or user")
        if place.invited and name != place.invited:
            raise HallRecordError(f"{clean_text(name, 40)} accepted {place.invited}'s invitation")
        if any(other.taken and other.name == name for other in self.places):
            raise HallRecordError(f"{clean_text(name, 40)} holds a place already")
        place.name, place.uid, place.keyed, place.taken = name, uid, keyed, True

    def _game(self, record: dict) -> None:
        game_id, pair = record.get("id"), record.get("pair")
        if not is_id(game_id) or any(game.id == game_id for game in self.games):
            raise HallRecordError("a game that is no hall game's id, or already in the match")
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(is_int(p) for p in pair):
            raise HallRecordError("a game with no pairing")
        a, b = pair
        if not (0 <= a < b < len(self.places)):
            raise HallRecordError("a pairing that the match does not have")
        if self.kind == "round" and not (self.places[a].taken and self.places[b].taken):
            raise HallRecordError("a game before both players accepted")
        if self.places[a].resigned or self.places[b].resigned:
            raise HallRecordError("a game of a player who withdrew")
        number = len(self.of_pair((a, b)))
        if number >= self.games_each:
            raise HallRecordError(f"more than {self.games_each} games of one pairing")
        self.games.append(MatchGame(str(game_id), (a, b), number))

    def _resign(self, record: dict) -> None:
        place = self.places[self._place(record)]
        if place.resigned:
            raise HallRecordError("a player who withdrew twice")
        place.resigned = True


# ----- the score -----
HALF = Fraction(1, 2)


@dataclass
class GameScore:
    """A game of the match as it counts: `points` for its seats (seat 1, seat 2) once it is over and
    verified; else `state` says where it is ("in progress", "waiting for Bob") or `problem` why it
    does not count."""

    game: MatchGame
    points: tuple[Fraction, Fraction] | None = None
    words: str = ""  # how it ended, in the game's words
    state: str = ""
    problem: str = ""


def points_of(winners: tuple[int, ...], lost_by: int | None = None) -> tuple[Fraction, Fraction]:
    """A game's points for seat 1 and seat 2: 1 to the winner, 1/2 each for a draw; `lost_by` (an
    idle seat) loses whatever the board says."""
    if lost_by is not None:
        return (Fraction(lost_by), Fraction(1 - lost_by))
    if len(winners) == 1:
        return (Fraction(winners[0] == 0), Fraction(winners[0] == 1))
    return (HALF, HALF)


def figure(points: Fraction) -> str:
    """1, 1½, ½: a score as people write it (½ is Latin-1, no emoji)."""
    whole, half = divmod(points, 1)
    return (str(int(whole)) if whole or not half else "") + ("½" if half else "")


@dataclass
class Row:
    """One place's line of the table."""

    place: int
    name: str
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: Fraction = Fraction(0)
    resigned: bool = False

    def as_json(self) -> dict:
        return {"player": self.name, "played": self.played, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "points": float(self.points), "withdrew": self.resigned}


@dataclass
class Standing:
    """A match as it stands: the table (best first), each game's score, and the words for it."""

    fold: MatchFold
    scores: list[GameScore] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    decided: str = ""  # "Ann wins the match", "the match is drawn", "" while it goes on
    damage: str = ""  # the match log's first bad record, in one line: the table is what came before it

    @property
    def over(self) -> bool:
        return bool(self.decided)

    def names(self) -> list[str]:
        return [place.shown for place in self.fold.places]

    def score_line(self) -> str:
        """The running score as the lobby says it: "Ann 2 - 1 Bob, game 4 of 5" (a match), or the
        leader's points and the games played (a round-robin)."""
        fold = self.fold
        if fold.kind == "match":
            first, second = sorted(self.rows, key=lambda row: row.place)
            score = f"{first.name} {figure(first.points)} - {figure(second.points)} {second.name}"
            if self.decided:
                return f"{score}: {self.decided}"
            return f"{score}, game {min(len(fold.games) + self.waiting_for_next(), fold.games_each)} of {fold.games_each}"
        played = sum(score.points is not None for score in self.scores)
        total = len(fold.pairings()) * fold.games_each
        leader = self.rows[0]
        state = self.decided or f"{played} of {total} games played"
        leads = f"{leader.name} leads with {figure(leader.points)}; " if leader.points and not self.decided else ""
        return f"round-robin of {len(fold.places)}: {leads}{state}"

    def waiting_for_next(self) -> bool:
        """Whether the last game of a match is over (the next one is still to be opened)."""
        return not self.scores or self.scores[-1].points is not None or bool(self.scores[-1].problem)

    def next_games(self) -> list[tuple[tuple[int, int], int]]:
        """Who plays whom next: each pairing with games still to play, by round, and the number of its
        next game; none once the match is decided."""
        if self.decided:
            return []
        fold = self.fold
        left = []
        for pair in fold.pairings():
            if any(fold.places[p].resigned for p in pair):
                continue
            played = fold.of_pair(pair)
            if len(played) < fold.games_each:
                left.append((pair, len(played)))
        return left


def standing(fold: MatchFold, scores: list[GameScore]) -> Standing:
    """The table from the games' verified scores (`scores`, one per game of the match, in order)."""
    rows = [Row(n, place.shown, resigned=place.resigned) for n, place in enumerate(fold.places)]
    for score in scores:
        if score.points is None:
            continue
        for place, points in zip(score.game.seats, score.points):
            row = rows[place]
            row.played += 1
            row.points += points
            row.wins += points == 1
            row.draws += points == HALF
            row.losses += points == 0
    if fold.kind == "round":  # a withdrawn player's games not played (or not finished): lost, each a forfeit
        for pair in fold.pairings():
            quitters = [p for p in pair if fold.places[p].resigned]
            if len(quitters) != 1:
                continue
            other = pair[1 - pair.index(quitters[0])]
            left = fold.games_each - sum(score.game.pair == pair and score.points is not None for score in scores)
            for place, won in ((other, True), (quitters[0], False)):
                rows[place].played += left
                rows[place].points += left if won else 0
                rows[place].wins += left if won else 0
                rows[place].losses += 0 if won else left
    table = Standing(fold, scores)
    table.rows = sorted(rows, key=lambda row: (-row.points, -row.wins, row.name.casefold(), row.place))
    table.decided = _decided(fold, table.rows, scores)
    return table


def _decided(fold: MatchFold, rows: list[Row], scores: list[GameScore]) -> str:
    """The match's end in words, or "": a match is over once one place cannot be caught (best of N) or
    every game is played; a round-robin once every pairing has played its games."""
    leader, second = rows[0], rows[1]
    if fold.kind == "match":
        quitter = next((row for row in rows if row.resigned), None)
        if quitter is not None:
            winner = next(row for row in rows if row is not quitter)
            return f"{quitter.name} withdrew: {winner.name} wins the match"
        played = sum(score.points is not None for score in scores)
        left = fold.games_each - played
        if leader.points - second.points > left:
            return f"{leader.name} wins the match"
        if left == 0:
            return "the match is drawn"
        return ""
    if any(score.points is None and not score.problem for score in scores):
        return ""
    left = sum(fold.games_each - len(fold.of_pair(pair)) for pair in fold.pairings()
               if not any(fold.places[p].resigned for p in pair))
    if left:
        return ""
    tied = [row.name for row in rows if row.points == leader.points]
    return f"{leader.name} wins the round-robin" if len(tied) == 1 else f"shared first place: {', '.join(tied)}"
