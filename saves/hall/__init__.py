"""The hall: games shared by the people on one box, each an append-only log in a shared folder.

    hall = Hall()                                   # --hall DIR, $DICEHALL_HALL, or the default (hall_dir)
    game = hall.host("wager", ["player", "bot:best", "open"], name="Ann")   # Ann sits at seat 0
    other = hall.join(game.id, name="Bob")          # another terminal: the first open seat
    watcher = hall.watch(game.id)                   # read only; counted in the listing
    game.play(command)                              # for game.seat, or a bot's seat; StaleState if late
    while watcher.wait(timeout=5): watcher.follow() # in a worker thread: wake, then read what is new
    hall.listing()                                  # what `dicehall hall` prints

Layout of a hall folder (files 0660, folders 3770: the hall's group only, never the world; sticky, so a
member renames or removes only their own files; ID.watchers 2770):
    games/ID.dhh          the game's log (ID: 6 lowercase letters or digits)
    games/ID.seatN        seat N's lock (N from 0, as in the records): flock'd by the terminal holding it
    games/ID.watchers/PID one lock per live watcher
    games/ID.chat.UID[.PLAYER]  one writer's messages (saves/hall/chat.py), beside the log, never in it
    games/ID.dhh.torn     the cut-off tail of an append that was interrupted, kept aside
    secrets/ID            the game's secret seed, until it is revealed into the log at the end
    hall.toml             the admin's settings (settings.py: idle_minutes, motd, barred), read only if
                          the admin's: owned by root or the hall folder's owner, writable by them alone
Nothing in it is reached through a symbolic link: games/, secrets/ and ID.watchers/ are opened with
O_NOFOLLOW|O_DIRECTORY and every file is opened, made and removed relative to them (Hall.folder_fd).

The log has the save's framing (saves.MAGIC, then length/CRC-framed msgpack records; SaveScan reads
it). Its header has `hall: 1`, the game, rules, options, `seats` (each {"kind": "open"} or {"kind":
"bot", "name", "style"}), `watchers` ("open", "quiet", "none": the host's choice), a `commitment`
to the secret seed (never the seed), `name` and `created`.
Records, seats numbered from 0 as in the engine (people read them from 1):
    {"op": "seat", "seat": n, "kind": "player", "name": NAME, "uid": UID}   a person takes an open seat
    {"op": "seat", "seat": n, "kind": "bot", "name": NAME, "style": S, "by": s}   a seated person
                                                    puts a bot in an open seat before the game starts
    {"op": "play", "by": s, "events": [...]} / {"op": "dice", "events": [...]}   as in a save
    {"op": "takeback", "by": s, "to": n}            s asks to take back to event n (its own decision)
    {"op": "answer", "by": s, "yes": bool}          every other seated person answers; one no refuses
    {"op": "undo", "by": s}                         the asker, once all said yes: back to event n
    {"op": "reveal", "seed": SEED}                  the last record, once the game is over
    {"op": "idle", "by": s, "seat": n, "then": "bot"|"abandon", "after": MINUTES}   a seated person
                                                    hands seat n, idle on its turn, to a bot, or ends
                                                    the game as abandoned (see idle_minutes)
Every record this dicehall writes has "at" (unix time, when it was appended): an idle record must
come at least `after` minutes after the record before it, by the log's own times.
The game starts (its engine session is made, named after the seats) when no seat is open. Any play
cancels a takeback still waiting. Redo and typed dice are not used in the hall. Folding is pure and
checks every record (HallFold); a bad record is the log's damage, one line.

Every append goes through HallLog.append(record, expected): under an flock of the log it reads what
is new since this process's offset and refuses with StaleState if the log holds more than
`expected` records (a decision made on an old position), else writes the frame and fsyncs.
Followers read only from their offset (follow) and sleep in wait() on inotify (ctypes, Linux) or,
where that is missing, by polling every POLL_EVERY seconds.

Fair dice: the seed lives in secrets/ID, read only by the seated players' dicehall, which derives
the dice with the engine's counter-based chance and writes them into the log as events; followers
check the events against the rules only. At the end the seed is revealed into the log, and
`verify` checks it against the commitment and re-derives every die. See README, "The hall".

The package is a room per concern: errors (the refusals), files (the folder, ids, opening without
links), fold (HallFold: the log folded, pure), log (HallLog: reading and the locked append),
follow (waiting for a change), game (HallGame), seats (seat locks, watchers, secrets), listing
(what `dicehall hall` lists), scores (`hall --scores`), settings (hall.toml), folder (Hall). The names callers use are exported here.
"""
from __future__ import annotations

from dicehall.saves.hall.errors import HallError, HallRecordError, HallWriteFailed, SeatHeld, StaleState, in_words
from dicehall.saves.hall.files import (ADMIN_HALL, DIR_MODE, FILE_MODE, HALL_FORMAT, ID_ALPHABET, ID_LENGTH, LOG_SUFFIX,
                              MAX_IDLE_MINUTES, MAX_LOG, MAX_SEATS, POLL_EVERY, SEAT_TRIES, SETTINGS, bot_name,
                              check_id, commitment, hall_dir, is_id, login_name)
from dicehall.saves.hall.fold import HallFold, Seat, Takeback, fold_records
from dicehall.saves.hall.folder import Hall
from dicehall.saves.hall.follow import ChangeWaiter, Inotify
from dicehall.saves.hall.game import HallGame
from dicehall.saves.hall.listing import HallEntry
from dicehall.saves.hall.log import HallLog, LogRecorder
from dicehall.saves.hall.scores import UNAUTHENTICATED, HallScores, Score, hall_scores, scores_of
from dicehall.saves.hall.seats import SeatView
from dicehall.saves.hall.settings import HallSettings, barred_refusal, read_settings

__all__ = [
    "ADMIN_HALL", "ChangeWaiter", "DIR_MODE", "FILE_MODE", "HALL_FORMAT", "Hall", "HallEntry", "HallError",
    "HallFold", "HallGame", "HallLog", "HallRecordError", "HallWriteFailed", "ID_ALPHABET", "ID_LENGTH", "Inotify",
    "LOG_SUFFIX", "LogRecorder", "MAX_IDLE_MINUTES", "MAX_LOG", "MAX_SEATS", "POLL_EVERY", "SEAT_TRIES",
    "SETTINGS", "Seat", "SeatHeld", "SeatView", "StaleState", "Takeback", "bot_name", "check_id", "commitment",
    "fold_records", "hall_dir", "in_words", "is_id", "login_name",
    "HallScores", "Score", "UNAUTHENTICATED", "hall_scores", "scores_of",
    "HallSettings", "barred_refusal", "read_settings",
]
