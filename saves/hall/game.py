"""A hall game as one process sees it (HallGame): reading, following, playing, seats and watching."""
from __future__ import annotations

import os
from typing import Any

from dicehall.engine.core import IllegalCommand, Player
from dicehall.engine.session import Session
from dicehall.saves import short_name
from dicehall.saves.box import box_player
from dicehall.saves.box import HALL_KEY, WATCH_KEY, command_hint
from dicehall.saves.hall.chat import HallChat
from dicehall.saves.hall.errors import HallError, HallWriteFailed, SeatHeld, StaleState
from dicehall.saves.hall.files import LOG_SUFFIX, bot_name, check_id
from dicehall.saves.hall.fold import HallFold, fold_records
from dicehall.saves.hall.follow import ChangeWaiter
from dicehall.saves.hall.idle import IdleSeats
from dicehall.saves.hall.log import HallLog, LogRecorder
from dicehall.saves.hall.seats import SeatView, same_player, seat_label
from dicehall.saves.hall.watchers import WatcherMark


# ----- a game as one process sees it -----
def seat_name(given: str) -> tuple[str, bool]:
    """The name a seat is taken as, and whether it is a key's: on a shared box the name the admin's
    key line gives (another name is refused: a name there is an identity), else the one given."""
    player = box_player()
    if player is not None:
        if short_name(given) not in ("", player):
            raise HallError(f"on this box you play as {player}, the name your key has; no other name can be taken")
        return player, True
    name = short_name(given)
    if not name:
        raise HallError("a player needs a name (--name)")
    return name, False



class HallGame(IdleSeats):
    """One hall game as this process sees it: its fold (`session`, seats, takeback), the seat it
    holds (`seat`, None for a watcher or a follower) and its position in the log.

    Thread use: wait() may run in a worker thread while the screen's thread does the rest; close()
    only once that worker's wait() has returned. Errors are one line each: IllegalCommand (not
    now, and why), StaleState (someone moved first; already refreshed), SeatHeld, HallError (a
    damaged log, a full disk)."""

    # hall: the Hall (saves/hall/folder.py), not named: folder.py imports this module, and naming it would make a circle
    def __init__(self, hall: Any, game_id: str, *, writable: bool, with_secret: bool, plays_bots: bool = False):
        self.hall = hall
        self.id = check_id(game_id)
        try:
            games = hall.folder_fd("games")
        except FileNotFoundError:  # no game was ever hosted in this hall
            raise HallError(f"no hall game {self.id} ({command_hint('hall', key=HALL_KEY)} lists them)") from None
        try:
            self.log = HallLog(hall.games / f"{self.id}{LOG_SUFFIX}", hall.gid(), writable, games)
        finally:
            os.close(games)
        self.seat: int | None = None
        self.plays_bots = plays_bots
        self._seat_fd = -1
        self._watching: WatcherMark | None = None  # this process counted among the game's watchers
        self._waiter = ChangeWaiter(hall.games, self.id + ".", self._changed)
        self._seen_seats: list[str] | None = None  # the seats' statuses when last looked at
        self.held_back = ""  # what falls to this terminal but could not be written yet (a full disk), in words
        self._recorder = LogRecorder(self.log, lambda: self.fold.count)  # the session's journal while it acts (_act), none otherwise
        self._chat: HallChat | None = None  # the game's messages, opened when first asked for
        try:
            seed = hall.read_secret(self.id) if with_secret else None
            self.fold: HallFold = HallFold(self.log.header, self.id, seed)
            self._fold(self.log.records())
        except BaseException:
            self.log.close()
            raise

    # ----- reading -----
    @property
    def session(self) -> Session | None:
        """The game's engine session (None until every seat is taken): draw state from it."""
        return self.fold.session

    @property
    def module(self):
        return self.fold.module

    @property
    def finished(self) -> bool:
        return self.fold.over

    def seats(self) -> list[SeatView]:
        """Every seat with who is in it now: its holder's lock says whether a player is connected
        (in a finished game nobody waits for a seat: its seats are simply the players)."""
        views = []
        over = self.finished
        handed = {h.seat: h for h in self.session.labels.handovers} if self.session is not None else {}
        for n, seat in enumerate(self.fold.seats):
            status = seat.kind
            if seat.kind == "player" and not over and n != self.seat and not self.hall.seat_held(self.id, n):
                status = "disconnected"
            if seat.kind == "player" and n != self.seat and self.idle_for(n):
                status = "idle"
            was = handed.get(n)  # a bot's seat that was a person's
            was_name, why = (was.before.name, was.why) if was else ("", "")
            kept = self.fold.kept[n] if seat.kind == "open" else ""  # a match's seat, kept for its player
            views.append(SeatView(n, seat.kind, seat_label(seat)[0], status, was_name, why, kept))
        self._seen_seats = [view.status for view in views]
        return views

    @property
    def to_act(self) -> int | None:
        session = self.session
        return None if session is None or self.fold.abandoned else session.to_act

    @property
    def my_turn(self) -> bool:
        """Whether this process may decide now: its own seat's turn, or a bot's (any seated process
        may play a bot's turn; the log lets exactly one of them in)."""
        seat = self.to_act
        if seat is None or self.fold.takeback is not None and self.fold.takeback.accepted:
            return False
        return seat == self.seat or self.fold.seats[seat].kind == "bot" and (self.seat is not None or self.plays_bots)

    # ----- following -----
    def follow(self) -> list[Any]:
        """Fold the records appended since the last look (read from this process's offset only),
        then do what falls to this process: draw the dice a started game waits for, undo a
        takeback of ours that was accepted, reveal the seed of a finished game. Returns the new
        records (those of others; ours are folded as they are written)."""
        new = self._fold(self.log.records())
        self.settle()
        self.seats()  # what wait() compares with
        return new

    def wait(self, timeout: float) -> bool:
        """Block until this game's files change (a record, a seat's holder coming or going) or
        `timeout` seconds pass; True if something changed: then call follow() and seats().
        Returns at once if records are waiting to be read."""
        return self._waiter.wait(timeout)

    def _changed(self) -> bool:
        """Whether the log grew past what was read, or a seat's holder came or went since the
        seats were last looked at (follow() and seats() look)."""
        if os.fstat(self.log.fd).st_size != self.log.offset:
            return True
        seen = self._seen_seats
        return seen is not None and [v.status for v in self.seats()] != seen

    def _fold(self, records) -> list[Any]:
        """Fold each record as it is read (before the next is read); returns those folded."""
        return list(fold_records(self.fold, records, self.id))

    # ----- writing -----
    def _append(self, record: dict) -> None:
        """Append a record made on the position this process has folded; StaleState after folding
        what others wrote first (naming who)."""
        try:
            self.log.append(record, self.fold.count)
        except StaleState:
            self._refresh_after_stale()
        self._fold([record])

    def _refresh_after_stale(self) -> None:
        """Fold what others wrote first, then raise StaleState naming who moved first."""
        first = self.fold.count
        self._fold(self.log.records())
        who = self.fold.seat_name(self.fold.actors[first]) if len(self.fold.actors) > first else "another player"
        raise StaleState(f"{who} moved first: your move was made on an old position; the board is refreshed") from None

    def _act(self, action, record_op: str, by: int | None) -> tuple:
        """Run a session action (play, or the dice of a fresh game) with each batch it makes
        appended to the log first; the session changes only if the append succeeds."""
        session = self.session
        if self.fold.seed is None:
            raise HallError("this terminal cannot roll for the game (its secret seed is not readable here)")
        assert session is not None  # play() and settle() act only in a started game
        session.resume_seeded(resolve_pending=False)
        self._recorder.by = by
        session.journal = self._recorder
        before = self.log.count
        try:
            batch = action()
        except StaleState:
            session.journal = None
            self._refresh_after_stale()
        finally:
            session.journal = None
        # the session has played the batch itself: count it as folded, with its author
        for _ in range(self.log.count - before):
            self.fold.count += 1
            self.fold.actors.append(by)
        if self.log.count > before:
            self.fold.last_at = self.log.last_at
        if self.fold.takeback is not None and self.log.count > before:
            self.fold.note = f"{self.fold.seat_name(self.fold.takeback.by)}'s takeback was dropped: the game went on"
            self.fold.takeback = None
        return batch

    def play(self, command: Any) -> tuple:
        """Play `command` for the seat to act (this process's seat, or a bot's). IllegalCommand if
        it is not this terminal's turn or the rules refuse it; StaleState if another terminal moved
        first (nothing written; the game is refreshed)."""
        self._refuse_unless_seated()
        if self.session is None:
            raise IllegalCommand("the game starts when every seat is taken")
        if self.fold.abandoned:
            raise IllegalCommand(f"the game is over: {self.fold.abandoned}")
        seat = self.to_act
        if not self.my_turn:
            who = self.fold.seat_name(seat) if seat is not None else "nobody"
            raise IllegalCommand(f"it is {who}'s turn, not yours" if seat is not None else "no move can be made now")
        batch = self._act(lambda: self.session.play(command), "play", seat)
        self.settle()
        return batch

    def record_assist(self, kind: str) -> bool:
        """Record in the log that this seat asked for an assist (a hint) now, before it is shown;
        False after the end (nothing is an assist then). StaleState if another terminal moved first."""
        self._refuse_unless_seated()
        session = self.session
        if session is None or self.finished or self.seat is None:
            return False
        self._append({"op": "assist", "by": self.seat, "kind": kind, "event": len(session.events)})
        return True

    def ask_takeback(self) -> None:
        """Ask the other seated people to take back this seat's last decision (and everything
        after it). Against bots only, it is taken back at once."""
        self._refuse_unless_seated()
        session = self.session
        if session is None or self.finished:
            raise IllegalCommand("there is no game in progress to take back")
        if self.fold.takeback is not None:
            raise IllegalCommand("a takeback is waiting for answers already")
        mine = [m.start for m in session.marks if m.player == self.seat]
        if not mine:
            raise IllegalCommand("you have no move to take back")
        self._append({"op": "takeback", "by": self.seat, "to": mine[-1]})
        self.settle()

    def answer_takeback(self, yes: bool) -> None:
        self._refuse_unless_seated()
        request = self.fold.takeback
        if request is None or self.seat not in request.waiting:
            raise IllegalCommand("no takeback is waiting for your answer")
        self._append({"op": "answer", "by": self.seat, "yes": bool(yes)})
        self.settle()

    def _refuse_unless_seated(self) -> None:
        if self.seat is None and not self.plays_bots:
            raise IllegalCommand("you are watching this game: only its players move")

    def settle(self) -> None:
        """What falls to whoever notices it first, each refused harmlessly if another did it. On a
        full disk it waits: what was written stays, `held_back` says what is not yet, and the next
        look (follow) tries again."""
        for _ in range(3):  # a StaleState here means someone else did it: look again
            pending = ""
            try:
                fold = self.fold
                session = fold.session
                request = fold.takeback
                if request is not None and request.accepted and request.by == self.seat:
                    pending = "your takeback is accepted but not made yet"
                    self._append({"op": "undo", "by": self.seat})
                elif (session is not None and not fold.over and session.chance_needed is not None
                      and fold.seed is not None and (self.seat is not None or self.plays_bots)):
                    pending = "the dice are not rolled yet"
                    self._act(lambda: session.resume_seeded(), "dice", None)
                elif fold.over and fold.revealed is None and fold.seed is not None:
                    pending = "the game is over and every move is in its log, but its seed is not revealed yet"
                    self._append({"op": "reveal", "seed": fold.seed})
                    self.hall.forget_secret(self.id)
                    from dicehall.saves.hall.rating_files import rate_at_end  # here: openskill only at a game's end

                    rate_at_end(self.hall, self.id, self.fold)
                self.held_back = ""
                return
            except StaleState:
                continue
            except HallWriteFailed as error:  # nothing of it was written: the next look tries again
                self.held_back = f"{pending} ({error.reason}): the next look at the game does it"
                return

    # ----- seats and watching -----
    def take_seat(self, seat: int | None, name: str) -> None:
        """Take `seat` (the first open one if None) as `name`: a new seat, or one of ours back."""
        name, keyed = seat_name(name)
        uid = os.getuid()
        for _ in range(10):
            choice = seat if seat is not None else self._first_free(name, uid, keyed)
            if not 0 <= choice < len(self.fold.seats):
                raise HallError(f"{self.id} has no seat {choice + 1} (seats 1 to {len(self.fold.seats)})")
            current = self.fold.seats[choice]
            if current.kind == "bot":
                raise SeatHeld(self._handed_words(name, uid, keyed, choice) or f"seat {choice + 1} is a bot's")
            if current.kind == "player" and not same_player(current, name, uid, keyed):
                raise SeatHeld(f"seat {choice + 1} is {current.name}'s: only they can take it back")
            if current.kind == "open" and not self._kept_for_us(choice, name, keyed):
                raise SeatHeld(f"seat {choice + 1} is kept for {self.fold.kept[choice]}: this is a game of their match")
            fd = self.hall.lock_seat(self.id, choice, name)
            try:
                if current.kind == "open":
                    record = {"op": "seat", "seat": choice, "kind": "player", "name": name, "uid": uid}
                    if keyed:  # the name is the admin's for this player's key, not typed
                        record["key"] = True
                    self._append(record)
            except StaleState:
                os.close(fd)  # the seats changed meanwhile: look again
                continue
            except BaseException:
                os.close(fd)
                raise
            self._seat_fd, self.seat = fd, choice
            self.settle()
            return
        raise HallError("the seats keep changing: try again")

    def _first_free(self, name: str, uid: int, keyed: bool) -> int:
        for n in self.fold.handed:  # a game with a seat handed over has no open one: it has started
            if self._handed_words(name, uid, keyed, n):
                raise SeatHeld(self._handed_words(name, uid, keyed, n))
        seats = self.fold.seats
        for n, s in enumerate(seats):  # our own disconnected seat first
            if s.kind == "player" and same_player(s, name, uid, keyed) and not self.hall.seat_held(self.id, n):
                return n
        open_seats = [n for n, s in enumerate(seats) if s.kind == "open"]
        for n in open_seats:  # one kept for us (a match's) or for anyone; else the first, which says whose it is
            if self._kept_for_us(n, name, keyed):
                return n
        if open_seats:
            return open_seats[0]
        raise SeatHeld(f"{self.id} has no open seat: watch it with {command_hint(f'watch {self.id}', key=WATCH_KEY)}")

    def _kept_for_us(self, seat: int, name: str, keyed: bool) -> bool:
        """An open seat anyone may take, or one a match keeps for `name` (a key's name: only that key's)."""
        kept, kept_keyed = self.fold.kept[seat], self.fold.kept_keyed[seat]
        return kept == "" or (kept == name and kept_keyed in (None, keyed))

    def _handed_words(self, name: str, uid: int, keyed: bool, seat: int) -> str:
        """Why `name` (of user `uid`) cannot take `seat` back, if it was theirs and went to a bot; else ""."""
        held = self.fold.handed.get(seat)
        if held is None or not same_player(held, name, uid, keyed):
            return ""
        return self.seats()[seat].handed_words(self.id)

    def seat_bot(self, seat: int, style: str = "", name: str = "") -> None:
        """Put a bot in an open seat (a seated player, before the game starts)."""
        self._refuse_unless_seated()
        if self.seat is None or self.fold.started:
            raise IllegalCommand("bots are seated by a player before the game starts")
        if not 0 <= seat < len(self.fold.seats) or self.fold.seats[seat].kind != "open":
            raise IllegalCommand(f"seat {seat + 1} is not open")
        players = [Player(s.name or "x", s.kind == "bot" or n == seat, style if n == seat else s.style)
                   for n, s in enumerate(self.fold.seats)]
        try:  # checked before it is written: a record the fold refused would be the log's damage
            self.module.check_players(tuple(players))
        except ValueError as error:
            raise IllegalCommand(str(error)) from None
        bots = 1 + sum(s.kind == "bot" for s in self.fold.seats)
        self._append({"op": "seat", "seat": seat, "kind": "bot", "style": style, "by": self.seat,
                      "name": short_name(name) or bot_name(seat, len(self.fold.seats), bots)})
        self.settle()

    def start_watching(self) -> None:
        """Be counted among the game's watchers until close."""
        self._watching = WatcherMark.start(self.hall, self.id)

    def chat(self) -> HallChat:
        """The game's messages as this process sends and reads them: as its seat's player, or as a
        watcher; opened when first asked for, one per game object."""
        if self._chat is None:
            self._chat = HallChat(self)
        return self._chat

    def close_chat(self) -> None:
        if self._chat is not None:
            self._chat.close()
            self._chat = None

    def close(self) -> None:
        """Leave the game: the seat's lock is released (the seat shows as disconnected)."""
        self.close_chat()
        if self._watching is not None:
            self._watching.close()
            self._watching = None
        if self._seat_fd >= 0:
            os.close(self._seat_fd)
            self._seat_fd = -1
        self._waiter.close()
        self.log.close()

    def __enter__(self) -> "HallGame":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
