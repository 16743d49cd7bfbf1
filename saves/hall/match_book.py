"""The hall's matches on disk (matches/ID.dhm; saves/hall/matches.py folds them): hosting a match or
a round-robin, accepting an invitation, opening the next game, withdrawing, and each match read
with the score of its games, every one verified as `dicehall verify` does (MatchBook).

Each match log is another player's file: read as hostile as a game's log (HallLog: a regular file
of the hall's group, never through a link, bounded), one line when it is not a good match. Records
are appended under the log's flock at the position the writer folded (StaleState otherwise); the
next game is hosted while that lock is held, so two players pressing for it at once open one game.
"""
from __future__ import annotations

import fcntl
import os
import secrets as secret_source
from dataclasses import dataclass
from datetime import datetime, timezone

from dicehall import engine
from dicehall.engine.core import Player
from dicehall.engine.session import Session
from dicehall.engine.text import clean_text
from dicehall.saves import FORMAT, MAGIC, SaveError, frame, short_name, write_new
from dicehall.saves.box import check_player, on_box
from dicehall.saves.hall.errors import HallError, StaleState
from dicehall.saves.hall.files import FILE_MODE, HALL_FORMAT, ID_ALPHABET, ID_LENGTH, check_id, is_id
from dicehall.saves.hall.fold import HallFold, fold_records
from dicehall.saves.hall.game import HallGame, seat_name
from dicehall.saves.hall.log import HallLog
from dicehall.saves.hall.match_scoring import MatchScoring, place_identity
from dicehall.saves.hall.matches import (MATCH_FORMAT, MATCH_SUFFIX, GameScore, MatchFold, MatchGame, Standing,
                                         match_games)

MATCHES = "matches"  # the hall's folder of match logs
MOST_MATCHES = 200  # match files read per listing: bounds what a folder of junk costs the lobby


@dataclass
class MatchEntry:
    """One match of the hall as listed: its standing, or (`problem`) the line saying why it is not one."""

    id: str
    table: Standing | None = None
    problem: str = ""


@dataclass
class _Read:
    key: tuple
    fold: MatchFold | None
    problem: str
    damage: str


class MatchBook(MatchScoring):
    """The matches of a Hall, read again only where their files changed (the lobby looks every second)."""

    def __init__(self, hall) -> None:
        self.hall = hall
        self._matches: dict[str, _Read] = {}
        self._games: dict[str, tuple[tuple, GameScore, HallFold | None]] = {}  # by game id: its file's key then

    # ----- reading -----
    def _folder(self, create: bool = False) -> int:
        return self.hall.folder_fd(MATCHES, create)

    def _log(self, match_id: str, writable: bool) -> HallLog:
        try:
            folder = self._folder()
        except FileNotFoundError:
            raise HallError(f"no match {check_id(match_id)} in the hall") from None
        try:
            return HallLog(self.hall.folder / MATCHES / f"{check_id(match_id)}{MATCH_SUFFIX}", self.hall.gid(),
                           writable, folder)
        except HallError as error:
            raise HallError(str(error).replace("hall game", "match")) from None
        finally:
            os.close(folder)

    def _fold(self, match_id: str, log: HallLog) -> tuple[MatchFold, str]:
        """The match log folded as far as its records are good, and the first bad one in a line ("" none)."""
        fold = MatchFold(log.header, match_id)
        try:
            for _ in fold_records(fold, log.records(), match_id):
                pass
        except HallError as error:
            return fold, clean_text(str(error), 300)
        return fold, ""

    def _fold_to_write(self, match_id: str, log: HallLog) -> MatchFold:
        fold, damage = self._fold(match_id, log)
        if damage:
            raise HallError(f"{damage}: the match is damaged; nothing was written")
        return fold

    def read(self, match_id: str) -> Standing:
        """The match as it stands (with `damage`, as far as its log is good); HallError, one line,
        if its log is not a match's at all."""
        log = self._log(match_id, writable=False)
        try:
            return self.standing(match_id, *self._fold(match_id, log))
        finally:
            log.close()

    def listing(self) -> list[MatchEntry]:
        """Every match of the hall, the latest first; a file that is not one is a `problem` entry."""
        try:
            folder = self._folder()
        except FileNotFoundError:
            return []
        try:
            names = sorted(os.listdir(folder))[:MOST_MATCHES]
            keys: dict[str, tuple] = {}
            for name in names:
                try:
                    info = os.stat(name, dir_fd=folder, follow_symlinks=False)
                    keys[name] = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
                except OSError:
                    keys[name] = ()
        except OSError as error:
            raise HallError(f"cannot read the hall's matches folder ({clean_text(error.strerror, 60)})") from None
        finally:
            os.close(folder)
        entries = []
        for name in names:
            match_id = name.removesuffix(MATCH_SUFFIX)
            if not name.endswith(MATCH_SUFFIX) or not is_id(match_id):
                entries.append(MatchEntry(clean_text(name, 60), problem=f"matches/{clean_text(name, 60)}: not a match's name"))
                continue
            read = self._matches.get(match_id)
            if read is None or read.key != keys[name] or not keys[name]:
                read = _Read(keys[name], None, "", "")
                try:
                    log = self._log(match_id, writable=False)
                    try:
                        read.fold, read.damage = self._fold(match_id, log)
                    finally:
                        log.close()
                except SaveError as error:
                    read.problem = clean_text(str(error), 300)
                except Exception as error:  # the per-file boundary: one bad file never stops the listing
                    read.problem = f"{match_id}: cannot be read ({type(error).__name__})"
                self._matches[match_id] = read
            entry = MatchEntry(match_id, problem=read.problem)
            if read.fold is not None:
                try:
                    entry.table = self.standing(match_id, read.fold, read.damage)
                except Exception as error:  # the per-match boundary: its games are other players' files
                    entry.problem = f"{match_id}: cannot be read ({type(error).__name__})"
            entries.append(entry)
        entries.sort(key=lambda e: (e.table is not None and e.table.over, -(e.table.fold.created_at or 0) if e.table else 0))
        return entries

    def lines_by_game(self, entries: list[MatchEntry]) -> dict[str, str]:
        """Each match game's line for the lobby: "match ID: Ann 2 - 1 Bob, game 4 of 5"."""
        lines = {}
        for entry in entries:
            if entry.table is not None:
                for score in entry.table.scores:
                    lines[score.game.id] = f"match {entry.id}: {entry.table.score_line()}"
        return lines

    def note(self, entries: list) -> None:
        """Give each of the listing's entries (HallEntry) that is a match's game its running score line
        (`match`); a matches folder that cannot be read leaves them as they are."""
        try:
            lines = self.lines_by_game(self.listing())
        except (SaveError, OSError):
            return
        for entry in entries:
            entry.match = lines.get(entry.id, "")

    # ----- writing -----
    def host(self, game: str, kind: str, games: int, invited: list[str], name: str, *, opponent: str = "open",
             options: dict | None = None, watchers: str = "open") -> tuple[str, HallGame | None]:
        """A new match (its id), and its first game for a two-place one (the host in seat 1, the other
        seat `opponent`: "open", kept for `invited[1]` if named, or "bot:STYLE"). A round-robin's host
        accepts their own invitation; its games are opened by its players (next_game)."""
        name, keyed = seat_name(name)
        self.hall.refuse_barred(name)
        if not match_games(game):
            raise HallError(f"{clean_text(game, 20)} is not a game of the hall for two")
        invited = [name] + [short_name(other) for other in invited[1:]]
        if on_box():  # a name there is a key's: one that is no player's name could never accept
            for other in invited[1:]:
                check_player(other)
        invited += [""] * (kind == "match" and len(invited) < 2)  # the opponent: whoever takes the seat (or a bot)
        header = {"format": FORMAT, "hall": HALL_FORMAT, "match": MATCH_FORMAT, "kind": kind, "game": game,
                  "games": games, "invited": invited, "options": dict(options or {}),
                  "nonce": secret_source.token_hex(8), "name": f"{engine.get_game(game).TITLE} {kind}",
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        MatchFold(header, "the new match")  # checked before any file is made
        try:  # the options, checked as a game of them would be
            Session(engine.get_game(game), seed=0, options=dict(options or {}), players=(Player("a"), Player("b")), dice=[])
        except ValueError as error:
            raise HallError(clean_text(error, 200)) from None
        match_id = self._write_header(header)
        if kind == "round":
            self.accept(match_id, name)
            return match_id, None
        return match_id, self.next_game(match_id, name, opponent=opponent, watchers=watchers)

    def _write_header(self, header: dict) -> str:
        folder = self._folder(create=True)
        try:
            for _ in range(100):
                match_id = "".join(secret_source.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
                try:
                    write_new(self.hall.folder / MATCHES / f"{match_id}{MATCH_SUFFIX}", MAGIC + frame(header),
                              FILE_MODE, folder)
                except FileExistsError:
                    continue
                return match_id
        finally:
            os.close(folder)
        raise HallError("no free match id in the hall")

    def _append(self, match_id: str, record_of) -> None:
        """Append the record `record_of(fold)` makes from the match as it stands (a HallError there
        refuses), at the position it was made on; made again if another player appended first."""
        for _ in range(5):
            log = self._log(match_id, writable=True)
            try:
                fold = self._fold_to_write(match_id, log)
                log.append(record_of(fold), fold.count)
                return
            except StaleState:
                continue
            finally:
                log.close()
        raise HallError("the match keeps changing: try again")

    def accept(self, match_id: str, name: str) -> None:
        """Take the place a round-robin keeps for you (your key's name on a box)."""
        name, keyed = seat_name(name)
        self.hall.refuse_barred(name)

        def acceptance(fold: MatchFold) -> dict:
            if fold.kind != "round":
                raise HallError(f"match {match_id}: its players are those of its first game (j joins it)")
            place = next((n for n, p in enumerate(fold.places) if p.invited == name), None)
            if place is None:
                raise HallError(f"round-robin {match_id} has not invited {name}")
            if fold.places[place].taken:
                raise HallError(f"you are in round-robin {match_id} already")
            return {"op": "accept", "place": place, "name": name, "uid": os.getuid(), "key": keyed}

        self._append(match_id, acceptance)

    def resign(self, match_id: str, name: str) -> None:
        """Withdraw from a match: it ends (the other wins it); in a round-robin your unplayed games are lost."""

        def withdrawal(fold: MatchFold) -> dict:
            table = self.standing(match_id, fold)
            if table.over:
                raise HallError(f"match {match_id} is over: {table.decided}")
            return {"op": "resign", "place": self._my_place(table, name)}

        self._append(match_id, withdrawal)

    def _my_place(self, table: Standing, given: str) -> int:
        name, keyed = seat_name(given)
        for n, place in enumerate(table.fold.places):
            if place.taken and place.bot is None and place_identity(place) == ("player", name, os.getuid(), keyed):
                return n
        raise HallError(f"{name} plays no game of match {table.fold.label}" + (
            ": the first game's open seat takes its place" if table.fold.kind == "match" else ""))

    def next_game(self, match_id: str, name: str, *, opponent: str = "open", watchers: str = "open") -> HallGame:
        """Your next game of the match: your game still being played (or waiting for you) taken up, else
        the next one hosted for its pairing, the seats alternated, the other's seat kept for them.
        Hosted under the match log's lock, so two players asking at once open one game."""
        log = self._log(match_id, writable=True)
        try:
            fcntl.flock(log.fd, fcntl.LOCK_EX)
            try:
                return self._next_game(match_id, log, name, opponent, watchers)
            finally:
                fcntl.flock(log.fd, fcntl.LOCK_UN)
        finally:
            log.close()

    def _next_game(self, match_id: str, log: HallLog, given: str, opponent: str, watchers: str) -> HallGame:
        fold = self._fold_to_write(match_id, log)
        first = fold.kind == "match" and not fold.games  # its places are not known until its first game is taken
        table = self.standing(match_id, fold)
        if table.over:
            raise HallError(f"match {match_id} is over: {table.decided}")
        name, keyed = seat_name(given)
        mine = 0 if first else self._my_place(table, given)
        unfinished = [score for score in table.scores if score.points is None and not score.problem]
        for score in unfinished:  # a game of yours not over: take your seat again
            if mine in score.game.seats:
                return self.hall.join(score.game.id, name=name)
        busy = {score.game.pair for score in unfinished}
        mine_left = [(pair, number) for pair, number in table.next_games() if mine in pair and pair not in busy]
        ready = [(pair, number) for pair, number in mine_left if first or all(fold.places[p].taken for p in pair)]
        if not ready and mine_left:  # a round-robin's players who have not accepted yet
            waiting = sorted({fold.places[p].shown for pair, _ in mine_left for p in pair if p != mine})
            raise HallError(f"{', '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} not accepted the round-robin yet")
        if not ready:
            raise HallError(self._why_no_game(table, mine))
        pair, number = ready[0]
        game = MatchGame("", pair, number)
        kinds = []
        for place_number in game.seats:
            place = fold.places[place_number]
            if place_number == mine:
                kinds.append("player")
            elif place.bot is not None or first and opponent.startswith("bot"):
                kinds.append(f"bot:{place.bot}" if place.bot is not None else opponent)
            else:
                kinds.append("open")
        tag = fold.tag(match_id, game, keyed)
        hosted = self.hall.host(fold.game, kinds, name, options=fold.options, watchers=watchers, match=tag)
        try:
            log.append({"op": "game", "id": hosted.id, "pair": list(pair), "by": mine}, fold.count)
        except BaseException:
            hosted.close()  # a game no match names: the lobby lists it as any other
            raise
        return hosted

    @staticmethod
    def _why_no_game(table: Standing, mine: int) -> str:
        if not any(mine in pair for pair, _ in table.next_games()):
            return "your games of this match are played: the others' decide the rest"
        busy = [score.game.id for score in table.scores if score.points is None and not score.problem]
        return f"your next pairing waits for its game in progress ({', '.join(busy)}) to end"
