"""Which hall games are rated, and the files that keep their results (saves/hall/ratings.py rates them).

A game is rated when it ends, by the terminal that reveals its seed (HallGame.settle), and at any
later look (`dicehall ratings`, the ratings screen) if that terminal went before it could. Rated:
- a finished game that verifies (Hall.finished_fold: the revealed seed matches the commitment made
  when it was opened, every die is re-derived, every record checked), with a result: not abandoned,
  not in progress, not a damaged file; two seats or more. Copies of a game (the same commitment)
  are rated once, as the hall's scores count them once.
- every seat a bot or a person with an identity, and no identity at two seats. On a box an identity
  is the name the admin gave the player's key (a `key` seat taken by the box's own account); off a
  box it is the Unix account that took the seat: a name typed at a seat is unauthenticated, so it
  never is one (the hall's scores show typed names; ratings do not).
- every person's seat taken by the account that owns the log and writes the rating. On a box that is
  the box's account, whose players have no shell: only dicehall wrote the log. Off a box a member
  with a shell can write any seat into a log of theirs, so there only a game of one account against
  bots is rated (each member's own rating against the bots).
The places: the winners first (tied), then the other seats (tied); a person whose seat was handed to
a bot for being idle last, and the bot that took the seat over is not rated.

The files: HALL/ratings/UID, one per account, made and written by that account only (0640: the
hall's group reads it), in a save's framing: a header {"ratings": 1, "model"}, then one record per
rated game (RatedGame.as_record, with "at"). Appends go through HallLog.append (the file's flock,
the position checked, fsync'd); a rebuild writes the whole file beside it and renames it over. A
reader reads the box account's own file on a box, and off a box every account's, each only if that
account owns it and nobody else may write it, and trusts in it only the identities that account
can rate; the first damaged or untrusted record ends a file's part, in one line, the good part kept.
"""
from __future__ import annotations

import fcntl
import os
import re
import stat
from dataclasses import dataclass, replace
from hashlib import blake2b

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.saves import FORMAT, MAGIC, SaveError, frame, os_reason, write_new
from dicehall.saves.box import on_box
from dicehall.saves.hall.chat_files import account_name
from dicehall.saves.hall.errors import HallError, StaleState
from dicehall.saves.hall.files import LOG_SUFFIX, MAX_LOG, check_id, open_nofollow
from dicehall.saves.hall.fold import HallFold
from dicehall.saves.hall.log import HallLog
from dicehall.saves.hall.ratings import (MAX_RATED, RATINGS_MODEL, HallRatings, NotRated, RatedGame, RatedSeat,
                                         rate_all, rated_from_record)
from dicehall.saves.hall.seats import seat_label

FOLDER = "ratings"
RATINGS_FORMAT = 1
RATINGS_MODE = 0o640  # only its own account writes a ratings file; the hall's group reads it
FILE_NAME = re.compile(r"[0-9]{1,10}")
KEPT_ASIDE = re.compile(r"[0-9]{1,10}(\.new|\.torn(\.[0-9]{1,3})?)")  # a rebuild under way; an append's cut-off tail
MAX_FILES = 1000  # ratings files read at most (one per account that rated a game)
NEW_SUFFIX = ".new"  # a rebuild's file until it is renamed over the old one


@dataclass
class Rebuilt:
    """What `ratings --rebuild` did: the games rated, and the finished games that were not."""

    ratings: HallRatings
    rated: int
    not_rated: int  # finished games that do not verify, or whose seats are not all identities and bots


# ----- which games are rated -----
def _person(fold: HallFold, n: int):
    """Seat n's person (the one who sat there before an idle handover), or None for a bot's seat."""
    held = fold.handed.get(n)
    seat = fold.seats[n]
    return held if held is not None else seat if seat.kind == "player" else None


def identity(seat, owner: int, n: int) -> str:
    """A person's identity at seat n of a log `owner` made, or NotRated saying why there is none."""
    if seat.uid != owner or owner != os.getuid():
        raise NotRated(f"seat {n + 1} was not taken by this account (the log's owner)")
    if not on_box():
        return account_name(owner)
    name, keyed = seat_label(seat)
    if not keyed:
        raise NotRated(f"seat {n + 1}: a name typed at the seat, not a key's")
    return name


def result_of(fold: HallFold, game_id: str, owner: int) -> RatedGame:
    """The rated result of a finished game's verified fold (its log owned by `owner`), or NotRated."""
    session = fold.session
    if fold.abandoned or session is None or session.outcome is None:
        raise NotRated(f"{game_id}: not finished with a result")
    if len(fold.seats) < 2:
        raise NotRated(f"{game_id}: a game for one is not rated")
    winners = set(session.outcome.winners)
    seats = []
    for n, seat in enumerate(fold.seats):
        person = _person(fold, n)
        if person is None:
            seats.append(RatedSeat(seat.name, 0 if n in winners or not winners else 1, bot=seat.style))
        else:
            place = 2 if n in fold.handed else 0 if n in winners or not winners else 1
            seats.append(RatedSeat(identity(person, owner, n), place))
    people = [s.who for s in seats if s.bot is None]
    if len(set(people)) != len(people):
        raise NotRated(f"{game_id}: one person at two seats")
    return RatedGame(game_id, fold.commitment, fold.module.ID, fold.last_at or 0.0, tuple(seats))


def may_be_rated(fold: HallFold) -> bool:
    """Whether a listed game (its fold as the listing read it: not verified) is worth verifying to
    rate it: finished with a result, and every person's seat this account's."""
    try:
        result_of(fold, "", os.getuid())  # the log's owner is looked at once it is verified
    except NotRated:
        return False
    return True


def log_owner(hall, game_id: str) -> int:
    games = hall.folder_fd("games")
    try:
        return os.stat(f"{check_id(game_id)}{LOG_SUFFIX}", dir_fd=games, follow_symlinks=False).st_uid
    finally:
        os.close(games)


def log_digest(hall, game_id: str) -> str:
    """BLAKE2b of a finished game's log as it is now (nothing is appended after its seed is revealed)."""
    games = hall.folder_fd("games")
    try:
        fd = open_nofollow(hall.games / f"{check_id(game_id)}{LOG_SUFFIX}", os.O_RDONLY, dir_fd=games)
    finally:
        os.close(games)
    digest = blake2b(digest_size=32)
    read = 0
    try:
        while len(chunk := os.read(fd, 1 << 20)) and read <= MAX_LOG:  # a log grown past the hall's bound is not one
            digest.update(chunk)
            read += len(chunk)
    finally:
        os.close(fd)
    if read > MAX_LOG:
        raise HallError(f"{game_id}: too large for a hall game")
    return digest.hexdigest()


def verified_result(hall, game_id: str) -> RatedGame:
    """The result of a hall game as it is rated, from its log verified afresh (every die from the
    revealed seed): HallError if it does not verify, NotRated if it is not a rated game."""
    fold = hall.finished_fold(game_id)
    rated = result_of(fold, game_id, log_owner(hall, game_id))
    return replace(rated, log=log_digest(hall, game_id))


# ----- the files -----
def _header() -> dict:
    return {"format": FORMAT, "ratings": RATINGS_FORMAT, "model": RATINGS_MODEL}


def _open_own(hall, writable: bool) -> HallLog:
    """This account's ratings file (made if missing), open."""
    folder = hall.folder_fd(FOLDER, create=True)
    try:
        path = hall.folder / FOLDER / str(os.getuid())
        try:
            write_new(path, MAGIC + frame(_header()), RATINGS_MODE, folder)
        except FileExistsError:
            pass
        log = HallLog(path, hall.gid(), writable, folder)
    finally:
        os.close(folder)
    _check_header(log)
    return log


def _check_header(log: HallLog) -> None:
    header = log.header
    if not isinstance(header, dict) or header.get("ratings") != RATINGS_FORMAT:
        log.close()
        raise HallError(f"ratings/{log.label}: not a ratings file")
    if header.get("model") != RATINGS_MODEL:
        log.close()
        raise HallError(f"ratings/{log.label}: written for another rating model")


def record_result(hall, rated: RatedGame) -> bool:
    """Append a game's result to this account's ratings file unless it holds that game already (by
    its commitment); True if it was written. HallError, one line, if the file cannot take it."""
    for _ in range(3):  # a rebuild renamed a new file over the one written to: write in the new one
        log = _open_own(hall, writable=True)
        try:
            written = _append_once(log, rated)
            if os.stat(log.path.name, dir_fd=log.dir_fd, follow_symlinks=False).st_ino == os.fstat(log.fd).st_ino:
                return written
        finally:
            log.close()
    raise HallError("the ratings file keeps being rebuilt: the game is rated at the next look")


def _append_once(log: HallLog, rated: RatedGame) -> bool:
    seen: set = set()
    for _ in range(10):  # a StaleState: another terminal appended first; read it and look again
        seen.update(r.get("commitment") for r in log.records() if isinstance(r, dict))
        if rated.commitment in seen:
            return False
        try:
            log.append(rated.as_record(), log.count)
            return True
        except StaleState:
            continue
    raise HallError("the ratings file keeps changing: the game is rated at the next look")


def rate_finished(hall, game_id: str, fold: HallFold | None = None) -> RatedGame | None:
    """Rate a finished hall game if it is a rated one and verifies (kept in this account's ratings
    file, once); None if it is not rated. `fold`: the game as already read, to leave a game that
    cannot be rated without verifying it. HallError, one line, if it does not verify or cannot be written."""
    try:
        if fold is not None:
            result_of(fold, game_id, log_owner(hall, game_id))  # the seats, before the cost of verifying
        rated = verified_result(hall, game_id)
    except NotRated:
        return None
    record_result(hall, rated)
    return rated


def rate_at_end(hall, game_id: str, fold: HallFold) -> None:
    """HallGame.settle's, once it has revealed the seed: rate the game if it is a rated one. Never
    raises: a game not rated now (a full disk, a damaged ratings file) is rated at the next look."""
    try:
        rate_finished(hall, game_id, fold)
    except (DicehallError, OSError):
        pass


def _trusted(uid: int) -> str | None:
    """The one identity a file of account `uid` may rate (off a box: its account's name), or None for
    any key's name (the box's own account's file, on the box)."""
    return None if on_box() else account_name(uid)


def _read_file(hall, folder: int, name: str, results: list[RatedGame], problems: list[str]) -> None:
    """Add the results of the ratings file `name` (in the folder open as `folder`) to `results`, up
    to its first bad record; what is wrong with it is one line in `problems`."""
    shown = f"ratings/{name}"
    problem = _read_records(hall, folder, name, results)
    if problem:
        said = problem.removeprefix(f"{name}: ").removeprefix(f"{shown}: ")  # a framing error names the file by its stem
        if name == str(os.getuid()):  # ours: an append goes on after a bad record, but nothing after it is read
            said += " (the games after it count once dicehall ratings --rebuild rewrites it)"
        problems.append(clean_text(f"{shown}: {said}", 300))


def _read_records(hall, folder: int, name: str, results: list[RatedGame]) -> str:
    try:
        size = os.stat(name, dir_fd=folder, follow_symlinks=False).st_size
        if size > MAX_LOG:
            return f"too large for a ratings file ({size:,} bytes): not read"
        log = HallLog(hall.folder / FOLDER / name, hall.gid(), False, folder)
    except (SaveError, OSError) as error:
        return os_reason(error).lower() if isinstance(error, OSError) else str(error)
    try:
        info = os.fstat(log.fd)
        if info.st_uid != int(name) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return "not written by its own account alone: not read"
        _check_header(log)
        allowed = _trusted(int(name))
        for count, record in enumerate(log.records(), start=1):
            if len(results) >= MAX_RATED:
                return f"more rated games than {MAX_RATED:,}: the rest are not read"
            try:
                rated = rated_from_record(record)
                if allowed is not None and set(rated.people()) != {allowed}:
                    raise NotRated("a player who is not this file's account")
            except NotRated as why:
                return f"record {count}: {why}: the records after it are not read"
            results.append(rated)
    except (SaveError, OSError) as error:  # damage after the good records, or a header not ours
        return os_reason(error).lower() if isinstance(error, OSError) else str(error)
    finally:
        log.close()
    return ""


def read_results(hall) -> tuple[list[RatedGame], list[str]]:
    """Every result the ratings files this reader trusts hold, and a line per file not read whole."""
    results: list[RatedGame] = []
    problems: list[str] = []
    try:
        folder = hall.folder_fd(FOLDER)
    except FileNotFoundError:
        return results, problems
    try:
        names = sorted(os.listdir(folder))
        if len(names) > MAX_FILES:  # one file per account: more is a member's flood
            problems.append(f"ratings: {len(names):,} files, more than {MAX_FILES:,}: the rest are not read")
        for name in names[:MAX_FILES]:
            if KEPT_ASIDE.fullmatch(name):
                continue
            if not FILE_NAME.fullmatch(name):
                problems.append(f"ratings/{clean_text(name, 60)}: not a ratings file's name: left alone")
            elif not on_box() or int(name) == os.getuid():  # on a box: the box's account's own file only
                _read_file(hall, folder, name, results, problems)
    finally:
        os.close(folder)
    return results, problems


def _own_results(hall) -> list[RatedGame]:
    """The results this account's own ratings file holds (its good part), for a rebuild to compare."""
    results: list[RatedGame] = []
    try:
        folder = hall.folder_fd(FOLDER)
    except FileNotFoundError:
        return results
    try:
        _read_file(hall, folder, str(os.getuid()), results, [])  # none (a missing file): nothing to compare
    finally:
        os.close(folder)
    return results


def hall_ratings(hall, catch_up: bool = True) -> HallRatings:
    """The hall's ratings from the trusted ratings files; `catch_up`: first rate the finished games
    this account may rate that no file holds yet (their terminal went before it could)."""
    results, problems = read_results(hall)
    if catch_up:
        known = {rated.commitment for rated in results}
        hall.listing()
        for game_id, fold in hall.listed_folds():
            if fold.commitment in known or not may_be_rated(fold):
                continue
            try:
                rated = rate_finished(hall, game_id)
            except (DicehallError, OSError):
                continue  # it does not verify (the listing says what is wrong with a damaged one)
            if rated is not None:
                known.add(rated.commitment)
                results.append(rated)
    return rate_all(results, problems)


def rebuild(hall) -> Rebuilt:
    """Rate every finished hall game again from its log, verified afresh, and write this account's
    ratings file anew from them: what the file held before is not read."""
    hall.listing()
    results: list[RatedGame] = []
    seen: set[str] = set()
    not_rated = 0
    as_rated = {rated.commitment: rated.log for rated in _own_results(hall)}  # the logs as they were when rated
    for game_id, fold in hall.listed_folds():  # a game's own players' log first, as the scores count it
        if fold.commitment in seen or not fold.over or fold.abandoned:
            continue
        seen.add(fold.commitment)
        try:
            rated = verified_result(hall, game_id)
        except (NotRated, DicehallError, OSError):
            not_rated += 1
            continue
        if as_rated.get(rated.commitment, rated.log) != rated.log:
            not_rated += 1  # edited since it was rated (a member with a shell can write a log): left out
            continue
        results.append(rated)
    _write_all(hall, results)
    return Rebuilt(hall_ratings(hall, catch_up=False), len(results), not_rated)


def _write_all(hall, results: list[RatedGame]) -> None:
    """This account's ratings file, written whole beside the old one and renamed over it (durable)."""
    folder = hall.folder_fd(FOLDER, create=True)
    name = str(os.getuid())
    data = MAGIC + frame(_header()) + b"".join(frame(dict(rated.as_record(), at=rated.ended)) for rated in results)
    old = -1
    try:
        try:  # the old file's lock, held until the new one has its name: an append waits, then sees it replaced
            old = open_nofollow(hall.folder / FOLDER / name, os.O_RDONLY, dir_fd=folder)
            fcntl.flock(old, fcntl.LOCK_EX)
        except FileNotFoundError:
            pass
        try:
            os.unlink(name + NEW_SUFFIX, dir_fd=folder)  # a rebuild that was cut off
        except FileNotFoundError:
            pass
        write_new(hall.folder / FOLDER / (name + NEW_SUFFIX), data, RATINGS_MODE, folder)
        os.rename(name + NEW_SUFFIX, name, src_dir_fd=folder, dst_dir_fd=folder)
        os.fsync(folder)
    finally:
        if old >= 0:
            os.close(old)
        os.close(folder)

