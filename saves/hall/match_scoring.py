"""Each game of a match, verified: whether it counts, and its points (MatchBook's half that reads
games; saves/hall/match_book.py is the half that reads and writes match logs). A game counts only
once it is over and verifies, names this match in its own header, seats the match's places in the
order the alternation gives, was made by one of its players and is no copy of another of its games."""
from __future__ import annotations

import os
from typing import Any

from dicehall.engine.text import clean_text
from dicehall.saves import SaveError
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import LOG_SUFFIX
from dicehall.saves.hall.fold import HallFold, Seat
from dicehall.saves.hall.game import HallGame
from dicehall.saves.hall.matches import GameScore, MatchFold, MatchGame, Place, Standing, points_of, standing


def identity(seat: Seat) -> tuple:
    """Who sits in a seat, as a match tells its places apart: a person by name, user and key; a bot by its style."""
    return ("bot", seat.style) if seat.kind == "bot" else (seat.kind, seat.name, seat.uid, seat.keyed)


def place_identity(place: Place) -> tuple:
    return ("player", place.name, place.uid, place.keyed)


class MatchScoring:
    """The games' side of MatchBook; each game's score kept until its file changes."""

    hall: Any  # the Hall the book reads
    _games: dict[str, tuple[tuple, GameScore, HallFold | None]]

    def standing(self, match_id: str, fold: MatchFold, damage: str = "") -> Standing:
        scores: list[GameScore] = []
        seen: dict[str, str] = {}  # a game's commitment -> the game of the match it is
        places = list(fold.places)
        for game in fold.games:
            score, hall_fold = self._score(match_id, fold, game, places)
            if hall_fold is not None and not score.problem:
                first = seen.setdefault(hall_fold.commitment, game.id)
                if first != game.id:
                    score = GameScore(game, problem=f"{game.id}: a copy of game {first}: counted once")
            if hall_fold is not None and fold.kind == "match" and game.number == 0 and not score.problem:
                places = self._first_game_places(fold, hall_fold)
            scores.append(score)
        fold.places = places
        table = standing(fold, scores)
        table.damage = damage
        return table

    def _first_game_places(self, fold: MatchFold, hall_fold: HallFold) -> list[Place]:
        """A match's places: those who sat in its first game (an open seat: still open)."""
        places = []
        for place, seat in zip(fold.places, self._people(hall_fold)):
            if seat.kind == "open":
                places.append(place)
            else:
                places.append(Place(place.invited, seat.name, seat.uid if seat.kind == "player" else None, seat.keyed,
                                    True, place.resigned, seat.style if seat.kind == "bot" else None))
        return places

    @staticmethod
    def _people(hall_fold: HallFold) -> list[Seat]:
        """Each seat as it was taken: a seat handed to a bot for being idle is still its person's."""
        return [hall_fold.handed.get(n, seat) for n, seat in enumerate(hall_fold.seats)]

    def _score(self, match_id: str, fold: MatchFold, game: MatchGame, places: list[Place]) -> tuple[GameScore, HallFold | None]:
        key = self._game_key(game.id)
        cached = self._games.get(game.id)
        if cached is None or cached[0] != key or not key or cached[1].game != game:
            score, hall_fold = self._score_afresh(match_id, fold, game)
            cached = (key, score, hall_fold)
            if score.points is not None or score.problem:  # over (or never to count): kept until the file changes
                self._games[game.id] = cached
        key, score, hall_fold = cached
        if not score.problem and hall_fold is not None:
            problem = self._seats_problem(fold, game, hall_fold, places)
            if problem:
                return GameScore(game, problem=problem), hall_fold
        return score, hall_fold

    def _game_key(self, game_id: str) -> tuple:
        try:
            games = self.hall.folder_fd("games")
        except (OSError, HallError):
            return ()
        try:
            info = os.stat(f"{game_id}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False)
            return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_uid)
        except OSError:
            return ()
        finally:
            os.close(games)

    def _score_afresh(self, match_id: str, fold: MatchFold, game: MatchGame) -> tuple[GameScore, HallFold | None]:
        """The game's score: points once it is over and verifies; else where it stands, or why it does not count."""
        try:
            with HallGame(self.hall, game.id, writable=False, with_secret=False) as hall_game:
                header, hall_fold, owner = hall_game.log.header, hall_game.fold, os.fstat(hall_game.log.fd).st_uid
                over = hall_game.finished
        except SaveError as error:
            return GameScore(game, problem=clean_text(str(error), 200)), None
        tag = header.get("match") if isinstance(header, dict) else None
        if (not isinstance(tag, dict) or tag.get("id") != match_id or tag.get("nonce") != fold.nonce
                or tag.get("number") != game.number or not isinstance(tag.get("pair"), (list, tuple))
                or tuple(tag["pair"]) != game.pair):
            return GameScore(game, problem=f"{game.id}: not this match's game {game.number + 1}: not counted"), None
        if hall_fold.module.ID != fold.game or len(hall_fold.seats) != 2:
            return GameScore(game, problem=f"{game.id}: not a game of {fold.title} for two: not counted"), None
        uids = {seat.uid for seat in self._people(hall_fold) if seat.kind == "player"}
        if uids and owner not in uids:  # dicehall makes a game's log as one of its players: this is a copy
            return GameScore(game, problem=f"{game.id}: a log none of its players made: not counted"), None
        if not over:
            waiting = [hall_fold.kept[n] or "a player" for n, seat in enumerate(hall_fold.seats) if seat.kind == "open"]
            return GameScore(game, state=f"waiting for {', '.join(waiting)}" if waiting else "in progress"), hall_fold
        try:  # again from the start with its revealed seed: the commitment checked, every die re-derived
            verified = self.hall.finished_fold(game.id)
        except SaveError as error:
            return GameScore(game, problem=clean_text(str(error), 200)), None
        session = verified.session
        assert session is not None  # a finished game: every seat was taken
        lost_by = None
        if verified.abandoned:  # ended by a seat idle on its turn: that seat loses
            lost_by = session.to_act
        elif verified.handed:  # a seat handed to a bot for being idle: lost by its person
            lost_by = min(verified.handed)
        points = points_of(session.outcome.winners if session.outcome else (), lost_by)
        return GameScore(game, points, clean_text(verified.result, 120)), verified

    def _seats_problem(self, fold: MatchFold, game: MatchGame, hall_fold: HallFold, places: list[Place]) -> str:
        """Why the game's seats are not the match's places in the order the alternation gives, or ""."""
        if fold.kind == "match" and game.number == 0:
            return ""  # its seats are the match's places
        for seat, place_number in zip(self._people(hall_fold), game.seats):
            place = places[place_number]
            if seat.kind == "open":
                continue
            if not place.taken:  # game 1 of the match not taken (or not counted): its places are nobody yet
                return f"{game.id}: who plays the match is not known (its game 1 names them): not counted"
            expected = ("bot", place.bot) if place.bot is not None else place_identity(place)
            if identity(seat) != expected:
                return f"{game.id}: {clean_text(seat.name, 40)} sits in {place.shown}'s seat: not counted"
        return ""
