"""The hall folder (Hall): hosting, joining, watching and opening games; finished games verified and exported."""
from __future__ import annotations

import os
import secrets as secret_source
import stat
from datetime import datetime, timezone
from pathlib import Path

from dicehall import engine
from dicehall.engine.session import Session
from dicehall.engine.text import clean_text
from dicehall.saves import FORMAT, MAGIC, SaveError, frame, make_dirs, os_reason, short_name, write_new
from dicehall.saves.hall.errors import HallError, HallWriteFailed, in_words
from dicehall.saves.hall.files import (DIR_MODE, FILE_MODE, HALL_FORMAT, ID_ALPHABET, ID_LENGTH, LOG_SUFFIX,
                              MAX_SEATS, bot_name, check_id, commitment, hall_dir, login_name, make_sticky, open_dir,
                              take_parents_group)
from dicehall.engine.games import entry_of
from dicehall.saves.hall.fold import HallFold, fold_records
from dicehall.saves.hall.log import HallLog
from dicehall.saves.hall.game import HallGame
from dicehall.saves.hall.listing import HallListing, Listed
from dicehall.saves.hall.seats import HallSeats
from dicehall.saves.hall.settings import HallSettings, barred_refusal, read_settings
from dicehall.saves.box import login_keys, on_box


class Hall(HallSeats, HallListing):
    """A hall folder. `games` and `secrets` are made (2770) when a game is hosted."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = hall_dir(folder)
        self.games = self.folder / "games"
        self.secrets = self.folder / "secrets"
        self._listed: dict[str, Listed] = {}  # what listing() read of each game, to read only what changed

    def folder_fd(self, name: str, create: bool = False) -> int:
        """A descriptor on the hall's folder `name` ("games", "secrets"), never through a symbolic link:
        every file of the hall is opened, made and removed relative to one of these. The hall folder
        itself is the admin's or the player's choice, and is taken as named. FileNotFoundError if
        the folder is missing (and not `create`); HallError, one line, for a link or a non-folder."""
        if create:
            make_dirs(self.folder, DIR_MODE, take_parents_group)
        try:
            top = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise
        except OSError as error:
            raise HallError(f"cannot open the hall{' ' + self.shown() if self.shown() else ''} ({os_reason(error)})") from None
        make_sticky(top)  # a personal hall an older dicehall made
        try:
            return open_dir(top, name, name, create)
        finally:
            os.close(top)

    def shown(self) -> str:
        """The hall's folder as output names it: its path, cleaned; on a box "" (the box has one
        hall, and no path of the box is ever shown to a player)."""
        return "" if on_box() else clean_text(str(self.folder), 300)

    def in_the_hall(self) -> str:
        """"in the hall PATH" (on a box "in the hall") for a command's summary line."""
        return f"in the hall {self.shown()}".rstrip()

    def settings(self) -> HallSettings:
        """The admin's settings (hall.toml in the hall folder), read afresh: the admin may change
        them while games go on. Defaults and a `problem` line when the file is not to be trusted."""
        return read_settings(self.folder)

    def folder_warnings(self) -> str | None:
        """The lines for the admin about the hall's folders, else None: one if the hall folder, games
        or secrets is writable by the group but not sticky (an older dicehall made it, as another
        user: not ours to change); one if games or secrets belongs to a member (not_the_halls)."""
        for name in ("games", "secrets"):
            try:
                os.close(self.folder_fd(name))  # makes those this user's older dicehall made sticky
            except (OSError, HallError):
                pass
        loose = []
        for shown, path in (("the hall folder", self.folder), ("games", self.games), ("secrets", self.secrets)):
            try:
                mode = os.stat(path, follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and mode & stat.S_IWGRP and not mode & stat.S_ISVTX:
                loose.append(shown)
        lines = []
        if loose:
            lines.append(f"not sticky: {', '.join(loose)} (members can rename or remove each other's files; "
                         f"the owner fixes it with chmod +t)")
        owned = self.not_the_halls()
        if owned:
            lines.append(owned)
        return "\n".join(lines) or None

    def not_the_halls(self) -> str | None:
        """One line for the admin if games or secrets belongs to a member, not to root or the hall
        folder's owner: its owner may rename or remove any game in it, sticky or not (whoever made
        it first owns it; the admin makes both, as root, when setting the hall up)."""
        try:
            owner = os.stat(self.folder).st_uid
        except OSError:
            return None
        members = []
        for name, path in (("games", self.games), ("secrets", self.secrets)):
            try:
                info = os.stat(path, follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid not in (0, owner):
                members.append(f"{name} (uid {info.st_uid})")
        if not members:
            return None
        return (f"owned by a member: {', '.join(members)}: that member can rename or remove any game in it; "
                f"the admin makes them root's (chown root)")

    def idle_minutes(self) -> int | None:
        """The admin's idle time (`idle_minutes = N` in hall.toml), None when off."""
        return self.settings().idle_minutes

    def refuse_barred(self, name: str) -> None:
        """HallError, one line, if the admin has barred this player (their key's or login name) or
        the name they would sit as: checked at every host and join, so a bar set mid-session holds."""
        settings = self.settings()
        keys = login_keys()  # a key barred by its fingerprint while its player was already in
        for who in (login_name(), name):
            refusal = barred_refusal(settings, who, keys)
            if refusal:
                raise HallError(refusal)

    def gid(self) -> int | None:
        """The hall's group (the folder's): a game file of another group is not the hall's."""
        try:
            return os.stat(self.folder).st_gid
        except OSError:
            return None

    # ----- games -----
    def host(self, game: str, seats: list[str], name: str, *, options: dict | None = None,
             title: str = "", watchers: str = "open", match: dict | None = None) -> HallGame:
        """Open a new hall game. `seats`, one per seat: "player" (the host's seat, taken as `name`),
        "open" (for others to join), or "bot" / "bot:STYLE". With no "player" seat (bots against
        bots, to watch) the game returned plays the bots' turns instead of holding a seat.
        `watchers`: "open" (they watch and write messages), "quiet" (they only read them) or
        "none" (nobody watches it until it is over), in the log's header for every reader to keep.
        `match`: a game of a match, its tag (saves/hall/matches.py: which match, whose seats)."""
        self.refuse_barred(name)
        module = engine.get_game(game)
        kinds = [s.strip() for s in seats]
        if kinds.count("player") > 1:
            raise HallError("the host takes one seat; leave the others open")
        header_seats = []
        bots = sum(kind == "bot" or kind.startswith("bot:") for kind in kinds)
        for n, kind in enumerate(kinds):
            if kind in ("player", "open"):
                header_seats.append({"kind": "open"})
            elif kind == "bot" or kind.startswith("bot:"):
                style = kind.partition(":")[2]
                header_seats.append({"kind": "bot", "name": bot_name(n, len(kinds), bots), "style": style})
            else:
                raise HallError(f"seat {n + 1}: {clean_text(kind, 20)!r} is not player, open or bot[:STYLE]")
        seed = secret_source.randbits(63)
        header = {"format": FORMAT, "hall": HALL_FORMAT, "dicehall": engine.VERSION, "game": game,
                  "rules": module.RULES_VERSION, "options": dict(options or {}), "seats": header_seats,
                  "commitment": commitment(seed), "name": short_name(title) or module.TITLE, "watchers": watchers,
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        if match:
            header["match"] = match
        HallFold(header, "the new game", None)  # checks options and styles before any file is made
        made: list[str] = []  # the game's id once its files exist: removed again if hosting fails
        try:
            return self._open_new(game, kinds, name, seed, header, made)
        except BaseException as error:
            if made:
                self._unhost(made[0], len(MAGIC + frame(header)))
            if isinstance(error, (OSError, HallWriteFailed)):
                raise in_words(error, self.folder, "the game was not opened") from None
            raise

    def _open_new(self, game: str, kinds: list[str], name: str, seed: int, header: dict, made: list[str]) -> HallGame:
        os.close(self.folder_fd("games", create=True))
        os.close(self.folder_fd("secrets", create=True))
        for _ in range(100):
            game_id = "".join(secret_source.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            try:
                self._write_new("secrets", game_id, str(seed).encode())
            except FileExistsError:
                continue
            try:
                self._write_new("games", f"{game_id}{LOG_SUFFIX}", MAGIC + frame(header))
            except FileExistsError:
                self.forget_secret(game_id)
                continue
            except BaseException:
                self.forget_secret(game_id)  # no secret without its game
                raise
            made.append(game_id)
            break
        else:
            raise HallError("no free game id in the hall")
        hosted = HallGame(self, game_id, writable=True, with_secret=True, plays_bots="player" not in kinds)
        try:
            if "player" in kinds:
                hosted.take_seat(kinds.index("player"), name)
            else:  # bots only: this process plays their turns, holding no seat
                hosted.settle()
        except BaseException:
            hosted.close()
            raise
        return hosted

    def _unhost(self, game_id: str, header_size: int) -> None:
        """Remove what a failed host made: the game's log (while it holds its header only: nobody
        has taken a seat), its seat locks and its secret."""
        try:
            games = self.folder_fd("games")
        except (OSError, HallError):
            return
        try:
            log = f"{game_id}{LOG_SUFFIX}"
            if os.stat(log, dir_fd=games, follow_symlinks=False).st_size != header_size:
                return  # a seat was taken meanwhile: the game is someone's now
            os.unlink(log, dir_fd=games)
            for seat in range(MAX_SEATS):
                try:
                    os.unlink(f"{game_id}.seat{seat}", dir_fd=games)
                except OSError:
                    pass
        except OSError:
            return
        finally:
            os.close(games)
        self.forget_secret(game_id)

    def join(self, game_id: str, seat: int | None = None, name: str = "") -> HallGame:
        """Take a seat (from 0; the first open one, or our own disconnected one, if None) for the
        life of this process; SeatHeld says who holds it."""
        self.refuse_barred(name)
        try:
            joined = HallGame(self, game_id, writable=True, with_secret=True)
        except OSError as error:
            raise in_words(error, self.folder, "no seat was taken") from None
        try:
            joined.take_seat(seat, name)
        except BaseException as error:
            joined.close()
            if isinstance(error, (OSError, HallWriteFailed)):
                raise in_words(error, self.folder, "no seat was taken") from None
            raise
        return joined

    def watch(self, game_id: str) -> HallGame:
        """Follow a game, read only, counted as a watcher while this process lives."""
        try:
            watching = HallGame(self, game_id, writable=False, with_secret=False)
        except OSError as error:
            raise in_words(error, self.folder, "the game cannot be watched") from None
        try:
            if watching.fold.watchers == "none" and not watching.finished:
                raise HallError(f"game {watching.id}: its players keep watchers off their table until it is over")
            watching.start_watching()
        except BaseException as error:
            watching.close()
            if isinstance(error, OSError):
                raise in_words(error, self.folder, "the game cannot be watched") from None
            raise
        return watching

    def open(self, game_id: str, plays_bots: bool = False) -> HallGame:
        """The game as it stands, neither seated nor counted as a watcher. `plays_bots`: a process
        that plays the bots' turns of a game nobody sits in (bots against bots; the tests)."""
        return HallGame(self, game_id, writable=plays_bots, with_secret=plays_bots, plays_bots=plays_bots)

    def _write_new(self, folder: str, name: str, data: bytes) -> None:
        """saves.write_new of a new file `name` in the hall's folder `folder`, opened refusing a link."""
        fd = self.folder_fd(folder)
        try:
            write_new(self.folder / folder / name, data, FILE_MODE, fd)
        finally:
            os.close(fd)

    # ----- finished games -----
    def finished_fold(self, game_id: str) -> HallFold:
        """The whole game refolded with its revealed seed: the commitment checked and every die
        re-derived. HallError with one line if it is unfinished, unrevealed, or anything differs.
        The fold's `result` is the engine's, or why the game was abandoned; `idle_notes` the seats
        handed to bots."""
        check_id(game_id)
        self._reveal_if_over(game_id)
        with HallGame(self, game_id, writable=False, with_secret=False) as game:
            if not game.finished:
                raise HallError(f"{game_id}: the game is not over yet (its dice stay secret until it is)")
            seed = game.fold.revealed
            if seed is None:
                raise HallError(f"{game_id}: the game is over but its seed was never revealed")
            log = HallLog(game.log.path, self.gid(), writable=False, dir_fd=game.log.dir_fd)
        try:  # again from the start, every die drawn from the seed and compared with the log's
            fold = HallFold(log.header, game_id, seed)
            for _ in fold_records(fold, log.records(), game_id):
                pass
        finally:
            log.close()
        return fold

    def finished_session(self, game_id: str) -> Session:
        """The whole game refolded with its revealed seed: the commitment checked and every die
        re-derived. HallError with one line if it is unfinished, unrevealed, or anything differs.
        The session is named after the game and its seats, as a replay of it shows them."""
        fold = self.finished_fold(game_id)
        assert fold.session is not None  # a finished game: every seat was taken
        session = fold.session
        session.labels.save_name = fold.players_name()  # "Ann v Bob", as the lobby named it
        session.labels.save_id = game_id
        return session

    def verify(self, game_id: str) -> str:
        """`dicehall verify ID`: a summary line, or HallError with one line saying what is wrong."""
        fold = self.finished_fold(game_id)
        assert fold.session is not None  # a finished game: every seat was taken
        session = fold.session
        players = ", ".join(p.name for p in session.players)
        notes = "".join(f"\n{note}" for note in fold.idle_notes)  # seats handed to bots
        return (f"ok: hall game {game_id}, {session.game.TITLE}, {players}, {len(session.events)} events, "
                f"{fold.result}{notes}\nthe revealed seed matches the commitment made when the game was "
                f"opened, and {entry_of(session.game.ID).re_derived}")

    def export(self, game_id: str, target: str | Path | None = None, overwrite: bool = False) -> Path:
        """Write a finished hall game as a replay (.dhr), as saves.export_save does for a save."""
        from dicehall.saves import write_export

        return write_export(self.finished_session(game_id), f"hall-{game_id}", target, overwrite)

    def _reveal_if_over(self, game_id: str) -> None:
        """Reveal the seed of a game that ended without it (its last player left at once)."""
        if self.read_secret(game_id) is None:
            return
        try:
            with HallGame(self, game_id, writable=True, with_secret=True) as game:
                game.settle()
        except SaveError:
            pass
