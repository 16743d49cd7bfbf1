"""Following a hall game from a screen: the one follower of the TUI, for the table a player sits at
(HallTable, below) and the live viewer of a watcher (tui/screens/hall/watch.py) alike.

HallFollower runs as a thread worker of its screen (exclusive in its group, cancelled when the
screen leaves): it sleeps until the game's files change (HallGame.wait), posts HallChanged to the
screen, and waits until the screen has read what is new in its own thread (HallGame.follow), so the
two never read the log at once and the screen never draws a half-folded move.

HallTable is put in the bases of the screens a player sits at (the waiting screen, the game's own
screen on a HallSession): it reads what other terminals wrote, swaps the waiting screen for the game's
screen when the last seat is taken, says what a full disk held back, and asks this terminal's player
about a takeback another player asked for."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import Worker, get_current_worker

from dicehall.engine import IllegalCommand
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.saves import SaveError, error_line
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.hall.talk import CHAT_EVERY

if TYPE_CHECKING:
    from dicehall.saves.hall import HallGame
    from dicehall.tui.screens.base import KeyedScreen as TableBase
else:
    TableBase = object  # a mixin: the hall screen gives the rest (the type checker sees it)

TABLE_WAIT = 0.25  # seconds a table's follower sleeps at most before it looks whether it was stopped


class HallChanged(Message):
    """Posted by a HallFollower to its screen: another terminal wrote to the game's log, or took or
    left a seat. The screen reads what is new, then calls `read()` so the follower sleeps again."""

    bubble = False  # for the screen that follows this game only

    def __init__(self, follower: HallFollower) -> None:
        super().__init__()
        self.follower = follower

    @property
    def game(self):
        return self.follower.game

    def read(self) -> None:
        self.follower.read.set()


class HallFollower:
    """One hall game (a saves.hall.HallGame) followed for one screen, by a thread worker of the
    screen; `closes`: the follower closes the game when it ends (a watcher's, counted while open)."""

    def __init__(self, screen, game, wait: float = TABLE_WAIT, closes: bool = False) -> None:
        self.screen = screen
        self.game = game
        self.wait = wait
        self.closes = closes
        self.read = threading.Event()  # the screen has read what the follower woke for
        self.started = threading.Event()
        self.lock = threading.Lock()  # stop() and the worker's start agree on which of them ends it
        self.done = threading.Event()  # the worker's thread has ended: nothing of it reads the game any more
        self.worker: Worker | None = None
        self.thread: threading.Thread | None = None
        self.stopped = False

    def start(self) -> HallFollower:
        self.worker = self.screen.run_worker(self.follow, name="hall-follower", group="hall-follower", thread=True,
                                             exclusive=True, exit_on_error=False)
        return self

    def follow(self) -> None:
        """The worker: sleep until the game's files change, tell the screen, wait until it has read
        them. It looks whether it was stopped at least every `wait` seconds."""
        worker = get_current_worker()
        with self.lock:
            if self.stopped:  # stopped before it began: stop() has closed what was to be closed
                return
            self.thread = threading.current_thread()
            self.started.set()
        game = self.game
        try:
            while not worker.is_cancelled and not self.stopped:
                try:
                    changed = game.wait(self.wait)
                except Exception:  # the log closed under us (leaving), or unreadable: the screen stays as it is
                    return
                if not changed or worker.is_cancelled or self.stopped:
                    continue
                self.read.clear()
                if not self.screen.post_message(HallChanged(self)):  # the screen is closing
                    return
                while not self.read.wait(self.wait):
                    if worker.is_cancelled or self.stopped:
                        return
        finally:
            if self.closes:
                game.close()
            self.done.set()

    def stop(self, wait: float = 0.0) -> None:
        """Stop following; `wait`: seconds to wait at most for the worker's thread to end."""
        with self.lock:
            self.stopped = True
            started = self.started.is_set()
        self.read.set()
        if self.worker is not None:
            self.worker.cancel()
        if not started:  # the worker never began (and now never will): its ending is done here
            if self.closes and not self.done.is_set():
                self.game.close()
            self.done.set()
        elif wait and threading.current_thread() is not self.thread:
            self.done.wait(wait)


class HallTable(TableBase):
    """Put in the bases of a screen a player sits at in a hall game (before the screen's own class):
    it has `hall_game` and `status`, and `hall_refresh(before, note)` draws what the game is now."""

    if TYPE_CHECKING:  # the screen's, and HallTalk's beside this
        @property
        def hall_game(self) -> HallGame: ...
        def hall_refresh(self, before: int | None, note: str = "") -> None: ...
        def chat_first_look(self) -> None: ...
        def chat_tick(self) -> None: ...

    hall_follower: HallFollower | None = None
    held_back_said = ""  # the last HallGame.held_back said (a full disk), so it is said once
    takeback_asked: int | None = None  # the event a takeback we are answering goes back to
    hall_left = False  # this screen is done with the game (left, or the game's screen took over)

    def on_mount(self) -> None:
        self.hall_follower = HallFollower(self, self.hall_game).start()
        self.chat_first_look()
        self.set_interval(CHAT_EVERY, self.hall_chat_tick)
        self.call_after_refresh(self.hall_held_back)
        self.call_after_refresh(self.hall_takeback_question)

    def on_unmount(self) -> None:
        self.stop_following()

    def stop_following(self) -> None:
        self.hall_left = True
        if self.hall_follower is not None:
            self.hall_follower.stop(wait=1.0)

    def hall_chat_tick(self) -> None:
        if not self.hall_left:  # the game's messages
            self.chat_tick()

    def on_hall_changed(self, message: HallChanged) -> None:
        try:
            if not self.hall_left:
                self.hall_changed()
        finally:
            message.read()

    def hall_stale(self) -> None:
        """Our decision was refused (the log had grown): the game has read what is new; redraw it."""
        game = self.hall_game
        before = len(game.session.events) if game.session is not None else None
        self.call_later(self.hall_changed, before)

    def hall_changed(self, before: int | None = None) -> None:
        """Read what other terminals wrote and draw it (in the screen's thread)."""
        game = self.hall_game
        if self.hall_left:
            return
        if before is None:
            before = len(game.session.events) if game.session is not None else None
        note = game.fold.note
        try:
            game.follow()
        except (DicehallError, OSError) as error:  # a damaged record, an unreadable log: one line
            self.status(error_line(error), error=True)
            return
        if not hasattr(self, "session") and game.session is not None:  # the last seat was taken
            self.hall_left = True  # the game's screen, in place of this one, follows it from here
            assert self.hall_follower is not None  # started on mount: its news is what calls this
            self.hall_follower.stop()
            self.app.open_hall_table(self)
            return
        self.hall_refresh(before, game.fold.note if game.fold.note != note else "")
        self.hall_held_back()
        self.hall_takeback_question()

    def hall_held_back(self) -> None:
        """Say once what a full disk held back (the move is in; its dice or the reveal wait)."""
        game = self.hall_game
        if game.held_back and game.held_back != self.held_back_said:
            self.status(game.held_back, error=True)
        self.held_back_said = game.held_back

    def hall_takeback_question(self) -> None:
        """Ask this terminal's player about a takeback another player asked for (once each)."""
        game = self.hall_game
        request = game.fold.takeback
        if request is None or request.accepted or game.seat not in request.waiting:
            self.takeback_asked = None
            return
        if self.takeback_asked == request.to:
            return
        self.takeback_asked = request.to
        asker = clean_text(game.fold.seat_name(request.by), 40)

        def answered(yes: bool | None) -> None:
            now = game.fold.takeback
            if yes is None or now is None or now.to != request.to or game.seat not in now.waiting:
                return  # the game went on meanwhile: the question is gone
            assert game.session is not None  # a takeback is asked in a game under way
            before = len(game.session.events)
            try:
                game.answer_takeback(bool(yes))
            except (IllegalCommand, SaveError) as error:
                self.status(str(error).splitlines()[0], error=True)
            else:
                self.status(f"you {'allowed' if yes else 'refused'} {asker}'s takeback")
            self.hall_refresh(before)

        self.app.push_screen(ConfirmScreen(f"{asker} asks to take back their last move (and everything after it). "
                                           f"Allow it?"), answered)
