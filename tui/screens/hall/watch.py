"""The replay viewer in live mode on a hall game (`dicehall watch ID`, or Enter in the hall): read
only, counted as a watcher for as long as it is open. Its follower (tui/screens/hall/follow.py, the
same as a player's table) sleeps until the game's files change and tells the screen, which reads what
is new (HallGame.follow) in its own thread, so it never draws a half-folded move. At the live end the view follows each new move; stepped
back, it stays put and the status line counts the new moves (End or f goes back to the live end).

A watcher is not a player, but a player can watch their own game in another terminal: while the
game is played nothing here may tell more than the players' screens do. So the hidden cards (r),
the analysis (a, n, p, w) and branching (c, whose dice would be the secret seed's) wait for the
end of the game; then the viewer reloads the whole game with its revealed seed, as a replay."""
from __future__ import annotations

from bisect import bisect_left

from rich.text import Text
from textual.binding import Binding

from dicehall.engine import Session
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import error_line
from dicehall.saves.hall import HallGame
from dicehall.tui.screens.hall.follow import HallChanged, HallFollower
from dicehall.tui.screens.hall.talk import CHAT_BINDINGS, CHAT_EVERY, HallTalk, close_chat
from dicehall.tui.screens.viewer.screen import ANALYSIS_ACTIONS, ViewerScreen
from dicehall.tui.widgets import Plain, clip

WAIT_SLICE = 0.5  # seconds the worker sleeps at most before it looks whether the viewer was left
WAITS_FOR_THE_END = {"reveal", "branch", "hindsight", "hindsight_line", "hindsight_start"} | ANALYSIS_ACTIONS


class HallViewer(HallTalk, ViewerScreen):
    BINDINGS = [Binding("f", "live", "Follow live", tooltip="back to the live position, following the game"),
                *CHAT_BINDINGS]
    VIEWER_NOTES = ("Watching a hall game, read only: at the live end (End or f) each move shows as it is made; "
                    "stepped back, the view stays put and the status line counts the new moves. The hidden "
                    "cards (r), the hindsight solver (H), the analysis (a) and c wait for the end of the game: a player could be "
                    "watching their own game. m sends a message to everyone in the game (marked as a "
                    "watcher's); each shows in the status line as it comes; M lists them, x there mutes them.")

    def __init__(self, game: HallGame) -> None:
        self.game = game
        session = game.session or self.waiting_session(game)
        super().__init__(session, live=True)
        self.seen_end = len(session.events)  # the events seen at the live end, for "N new moves"
        self.follower: HallFollower | None = None
        self.following = True
        self.seat_line = self.seat_words()
        self.replayed = False  # the finished game, reloaded with its revealed seed
        self.rating_asked = False  # whether the finished game's rating change was asked for

    @staticmethod
    def waiting_session(game: HallGame) -> Session:
        """A stand-in with no events while seats are open (the game has no session until they are taken)."""
        fold = game.fold
        return Session(fold.module, seed=None, options=fold.options, players=fold._players(), dice=[])

    @property
    def talk_game(self) -> HallGame:
        return self.game

    def seat_words(self) -> str:
        return ", ".join(clean_text(view.words(), 40) for view in self.game.seats())

    def help_title(self) -> str:
        return f"Watching {self.game.id} ({self.session.game.TITLE})"

    @property
    def in_progress(self) -> bool:
        return not self.replayed and not self.game.finished

    # ----- following the game -----
    def on_mount(self) -> None:
        if self.game.finished:
            self.game_over()
        elif self.game.session is None:
            self.status(f"waiting for every seat to be taken: {self.seat_line}")
        else:
            self.status("live: each move shows as it is made; Left/PgUp step back, End comes back")
        # the follower closes the game (and so stops counting as a watcher) when it ends
        self.follower = HallFollower(self, self.game, wait=WAIT_SLICE, closes=True)
        if self.following:
            self.follower.start()
        else:  # over already (game_over above): the game is closed at once
            self.follower.stop()
        self.chat_first_look()
        self.set_interval(CHAT_EVERY, self.chat_tick)

    def stop_following(self) -> None:
        self.following = False
        if self.follower is not None:
            self.follower.stop()

    def on_hall_changed(self, message: HallChanged) -> None:
        try:
            self.read_new()
        finally:
            message.read()

    def read_new(self) -> None:
        """Fold what is new and show it: follow it at the live end, else count it."""
        game = self.game
        if not self.following or self.replayed:
            return
        was_live = self.position >= len(self.session.events)
        before = len(self.session.events)
        try:
            game.follow()
        except (DicehallError, OSError) as error:  # HallError: a damaged record; what came before stays
            self.stop_following()  # the follower ends, and closes the game
            self.status(f"the game's log is damaged from here: {error_line(error)}; what came before stays, "
                        f"no more moves will show", error=True)
            self.redraw()
            return
        seats_before, self.seat_line = self.seat_line, self.seat_words()
        if game.session is not None and game.session is not self.session:  # the last seat was taken
            self.session = game.session
            self.forget_drawn()
            was_live = True
        after = len(self.session.events)
        if after != before:
            self.forget_drawn()
        if after < before:  # a takeback the players accepted
            self.position = min(self.position, after)
            self.seen_end = min(self.seen_end, after)
            self.status(clean_text(game.fold.note, 200) or "a move was taken back")
        if was_live:
            self.position = after
            self.seen_end = after
            if after > before:
                self.status(clip(f"event {after}: {self.session.describe(after - 1, reveal=False)}", 200))
            elif game.session is None and self.seat_line != seats_before:  # else a message's line stays
                self.status(f"waiting for every seat to be taken: {self.seat_line}")
        elif after > before:
            self.say_behind()
        if game.finished:
            self.game_over()
        self.refresh_bindings()
        self.redraw()

    def new_moves(self) -> int:
        """The decisions made since the viewer left the live end."""
        starts = self.session.turn_starts()
        return len(starts) - bisect_left(starts, self.seen_end)

    def say_behind(self) -> None:
        new = self.new_moves()
        what = counted(new, "new move") if new else "new events"
        self.status(f"{what}: End to follow")

    def forget_drawn(self) -> None:
        """The events changed: what was described and where the turns start are read again."""
        self.descriptions.clear()
        self.starts = self.stops = None

    def game_over(self) -> None:
        """The game ended: once its seed is revealed, reload it whole as a replay (dice re-derived)."""
        if self.game.fold.revealed is None:
            return  # the player's terminal reveals it at once: the next change brings it
        self.stop_following()  # the follower ends, and closes the game
        try:
            session = self.game.hall.finished_session(self.game.id)
        except (DicehallError, OSError) as error:
            self.status(f"the game is over, but {error_line(error)}", error=True)
            return
        if len(session.events) == len(self.session.events):
            self.session = session
            self.replayed = True
            self.forget_drawn()
            self.draw_board = None
        outcome = self.session.outcome
        result = clean_text(outcome.summary, 120) if outcome else "over"
        self.status(f"the game is over: {result}. Every key of the viewer works now (c branches, a analyses)")
        if not self.rating_asked:  # what the players' screens say at the end: its ratings' change, once
            self.rating_asked = True
            from dicehall.tui.screens.hall.ratings import say_change_at_end

            say_change_at_end(self, self.game, lambda words: self.status(f"the game is over: {result}. {words}"))

    # ----- drawing -----
    def redraw(self) -> None:
        super().redraw()
        session = self.session
        state = "over" if not self.in_progress else "waiting for players" if self.game.session is None else "live"
        title = self.query_one("#title", Plain)
        width = max(20, title.across_width())
        head = f"Watching {self.game.id}: {session.game.TITLE}"
        text = f"{head}  ({self.seat_line}; {state})"
        if len(text) > width:
            text = f"{head}  ({clip(self.seat_line, max(8, width - len(head) - len(state) - 6))}; {state})"
        title.show(Text(clip(text, width), style="bold"), layout=False)
        where = self.query_one("#where", Plain)
        total = len(session.events)
        if self.in_progress:
            new = self.new_moves()
            mark = "LIVE" if self.position >= total else f"{new} new: End follows" if new else "stepped back"
            line = f"event {self.position}/{total}  turn {self.turn_at(self.position)}  {mark}"
            where.show(clip(line, where.size.width or 48), layout=False)

    def go(self, position: int) -> None:
        behind = self.position < len(self.session.events)
        super().go(position)
        if behind and self.position >= len(self.session.events) and self.in_progress:
            self.seen_end = self.position
            self.status("live: each move shows as it is made")
        self.refresh_bindings()

    # ----- keys -----
    def action_live(self) -> None:
        self.go(len(self.session.events))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "live":
            return True if self.in_progress and self.position < len(self.session.events) else None
        if action in WAITS_FOR_THE_END and self.in_progress:
            return None
        return super().check_action(action, parameters)

    def prepare_analysis(self) -> None:
        """Nothing started ahead: the analysis waits for the game's end, which a watcher may never see."""

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action == "live":
            return ("the game is over: End goes to its end" if not self.in_progress
                    else "already at the live position: each move shows as it is made")
        if action in WAITS_FOR_THE_END and self.in_progress:
            what = {"reveal": "the hidden cards stay hidden", "branch": "c waits: the dice are secret",
                    "hindsight": "the hindsight solver waits: it looks at the hidden cards",
                    "hindsight_line": "the hindsight solver waits: it looks at the hidden cards",
                    "hindsight_start": "the hindsight solver waits: it looks at the hidden cards"}.get(
                action, "the analysis waits: it would advise the players")
            return f"{what} until the game is over (a player may be watching their own game)"
        return super().why_disabled(action, parameters)

    def action_back(self) -> None:
        self.stop_following()
        if getattr(self.app, "start_watch", None) is self.game:  # `dicehall watch ID`: leaving ends it
            if self.timer:
                self.timer.stop()
            self.stop_analysis()
            self.app.exit()
            return
        super().action_back()

    def on_unmount(self) -> None:
        self.leave_game()
        close_chat(self.game)

    def leave_game(self) -> None:
        """Stop watching: the follower closes the game as it ends (and the watcher's mark goes with
        it); a follower that never started (the app ended as this screen opened) leaves it to us."""
        self.stop_following()
        if self.follower is None:
            self.game.close()
