"""Playing a hall game (saves/hall.py) on the game screens: the screen a game is played on is the
same as at one keyboard, given a HallSession instead of the engine's Session, and the HallPlay
mixin that keeps this terminal to its own seat (tui/screens/games.py puts the two together). The
screen's follower (tui/screens/hall/follow.py) tells it when another terminal has moved; it then
redraws from the fold's session.

Before every seat is taken, HallWaitScreen says who is seated and how the others join."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding

from dicehall.engine import IllegalCommand, JournalError
from dicehall.engine.core import HostLabels, Outcome, Player
from dicehall.engine.text import clean_text
from dicehall.saves import SaveError
from dicehall.saves.box import JOIN_KEY, WATCH_KEY, command_hint
from dicehall.saves.hall import HallGame, StaleState
from dicehall.tui.screens.base import KeyedScreen, all_bindings
from dicehall.tui.screens.hall.follow import HallTable
from dicehall.tui.screens.hall.talk import CHAT_BINDINGS, HallTalk
from dicehall.tui.session import GameSession
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine

if TYPE_CHECKING:
    from dicehall.engine import Session
    from dicehall.saves.hall.drafts import HallDraft
    from dicehall.tui.screens.base import GameScreen as PlayBase
else:
    PlayBase = object  # HallPlay is mixed into a game screen, which gives the rest (the type checker sees it)

# keys that never move for a seat: looking, choosing a troop or a square, undo (a takeback), leaving
FREE_ACTIONS = {"undo", "redo", "review", "rules", "help", "back", "cursor", "cancel", "labels", "cycle", "arrow",
                "message", "messages", "idle_seat"}


@dataclass(frozen=True)
class AwayPlayer(Player):
    """A seated person whose link is down, as the table draws them ("Bob (disconnected)")."""

    away: bool = True


class HallSession:
    """A hall game's engine session as a game screen uses it: everything is read from the fold's
    session; `play` goes through the hall (the log first, for this terminal's seat or a bot's),
    `undo` asks the others for a takeback, and there is no redo. `seed` is a public number made
    from the commitment for the bots' tie-breaks, never the secret seed, and never shown (a player
    could take it for the seed): a title shows `seed_shown`. It satisfies tui/session.py's
    GameSession, the one surface a game screen sees (mypy checks it below the class). Its `labels`
    are the table's own (the hall names the game; `notice` is set when a kept draft could not be
    read); the game's, its assists and handovers, are the fold session's."""

    def __init__(self, game: HallGame, on_stale: Callable[[], None] | None = None) -> None:
        self.hall_game = game
        self.on_stale = on_stale or (lambda: None)  # the screen refreshes after a decision the log refused
        self.seed = int(game.fold.commitment[:12], 16)
        self.labels = HostLabels(save_name=f"{game.fold.players_name(20)} (hall {game.id})", save_id=game.id)
        self.seat_status = [view.status for view in game.seats()]  # as last drawn: "disconnected" is marked
        self.draft_file: HallDraft | None = None  # where this seat's draft is kept, for a game that writes (keep_drafts)

    def keep_drafts(self) -> None:
        """Keep this seat's draft and rewrite in the player's own folder, never in the shared log
        (saves/hall/drafts.py), and take back the words kept there (`draft`, `rewrite`, as a save's
        are read: saves/drafts.py); `notice` says why a kept file was not read. Once the game is over
        its words are done with: the file goes."""
        from dicehall.saves import SaveError
        from dicehall.saves.hall.drafts import HallDraft

        game = self.hall_game
        if game.seat is None:  # a follower that only plays the bots writes nothing
            return
        self.draft_file = HallDraft(game.id, game.fold.commitment, game.seat)
        kept = self.draft_file.read()
        if kept.problem:
            self.labels.notice = kept.problem
        if game.finished:
            try:
                self.draft_file.delete()
            except SaveError as error:
                self.labels.notice = str(error)
            return
        self.labels.draft, self.labels.rewrite = kept.draft, kept.rewrite

    @property
    def players(self) -> tuple:
        """The players as the table draws them: a seat whose player's link is down says so beside
        the name (the engine's own players, in the log, are never changed)."""
        players = self.real.players
        return tuple(AwayPlayer(p.name, p.bot, p.style) if self.seat_status[n:n + 1] == ["disconnected"] else p
                     for n, p in enumerate(players))

    def look_at_seats(self) -> str:
        """Look at who holds each seat now; what changed since the last look, in words ("Bob has
        disconnected: their seat waits", "Bob is back"), or ""."""
        game = self.hall_game
        now = [view.status for view in game.seats()]
        if game.finished:  # a finished game's seats are its players: nobody comes or goes
            self.seat_status = now
            return ""
        said = []
        for n, (was, status) in enumerate(zip(self.seat_status, now)):
            name = clean_text(game.fold.seat_name(n), 40)
            if was == "player" and status == "disconnected":
                said.append(f"{name} has disconnected: their seat waits")
            elif was == "disconnected" and status == "player":
                said.append(f"{name} is back")
        self.seat_status = now
        return "; ".join(said)

    @property
    def seed_shown(self) -> str:
        """The seed as a title shows it: "secret until the end", then the seed revealed at the end."""
        revealed = self.hall_game.fold.revealed
        return "secret until the end" if revealed is None else str(revealed)

    @property
    def real(self) -> Session:
        session = self.hall_game.session
        assert session is not None, "a hall game's screen is made once every seat is taken"
        return session

    # ----- what a game screen reads, from the fold's session (declared: nothing else is offered) -----
    @property
    def game(self):
        return self.hall_game.session.game

    @property
    def options(self) -> dict:
        return self.real.options

    @property
    def journal(self):
        return self.hall_game.session.journal

    @property
    def state(self):
        return self.hall_game.session.state

    @property
    def events(self):
        return self.hall_game.session.events

    @property
    def marks(self):
        return self.hall_game.session.marks

    @property
    def outcome(self):
        """The engine's outcome, or for a game ended as abandoned (an idle seat) one that says so:
        the engine knows nothing of it, and every screen asks the outcome whether the game is over."""
        abandoned = self.hall_game.fold.abandoned
        return Outcome((), abandoned) if abandoned else self.hall_game.session.outcome

    @property
    def to_act(self):
        return self.hall_game.to_act  # nobody once the game was abandoned

    @property
    def chance_needed(self):
        return self.hall_game.session.chance_needed

    @property
    def undos(self):
        return self.hall_game.session.undos

    def record_assist(self, kind: str) -> bool:
        """A hint asked at this table: a record of the hall's log before it is shown (saves.record_assist)."""
        return self.hall_game.record_assist(kind)

    def commands(self) -> list:
        return [] if self.hall_game.fold.abandoned else self.real.commands()

    def describe(self, n: int, reveal: bool = True) -> str:
        return self.real.describe(n, reveal)

    def state_at(self, n: int):
        return self.real.state_at(n)

    def turn_starts(self) -> list[int]:
        return self.real.turn_starts()

    # ----- what a game screen does, through the hall -----
    def play(self, command, faces=None) -> tuple:
        if faces is not None:
            raise IllegalCommand(NO_TYPED_DICE)
        game = self.hall_game
        seat = game.to_act
        bots_turn = seat is not None and game.fold.seats[seat].kind == "bot"
        try:
            batch = game.play(command)
        except StaleState:
            self.on_stale()
            if bots_turn:  # another terminal played the bot first: nothing to say
                return ()
            raise
        except SaveError as error:  # a damaged log, a full disk: one line, the game unchanged
            raise JournalError(str(error)) from None
        if game.held_back:  # the move is in, but a full disk held back its dice or the reveal: the refresh says so
            self.on_stale()
        return batch

    def roll(self, faces) -> tuple:
        raise IllegalCommand(NO_TYPED_DICE)

    def undo(self) -> None:
        try:
            self.hall_game.ask_takeback()
        except StaleState:
            self.on_stale()
            raise
        except SaveError as error:
            raise JournalError(str(error)) from None

    def redo(self) -> None:
        raise IllegalCommand(NO_REDO)

    @property
    def can_undo(self) -> bool:
        game = self.hall_game
        session = game.session
        return (session is not None and not game.finished and game.fold.takeback is None
                and any(m.player == game.seat for m in session.marks))

    @property
    def can_redo(self) -> bool:
        return False


if TYPE_CHECKING:
    def hall_session_is_one(session: HallSession) -> GameSession:
        return session  # mypy: HallSession satisfies the Protocol (the engine's Session: tui/session.py)


NO_REDO = "there is no redo in the hall: a takeback is asked of the others with u"
NO_TYPED_DICE = "typed dice are not used in the hall: its dice come from the game's secret seed"
# the game screen's own u and q, said as they work in the hall (they replace the screen's, key by key)
HALL_BINDINGS = [
    Binding("u,ctrl+z", "undo", "Takeback", tooltip="ask the others to take back your last move (against bots only: at once)"),
    Binding("q", "back", "Leave", tooltip=f"leave the game (asks first); your seat waits: {JOIN_KEY} takes it back"),
]


def others_turn(game: HallGame) -> str:
    """"Bob's turn (seat 2, another terminal)" when a person this terminal is not is to act; else ""."""
    seat = game.to_act
    if seat is None or seat == game.seat or game.fold.seats[seat].kind != "player":
        return ""
    where = "another terminal" if game.hall.seat_held(game.id, seat) else "disconnected"
    if game.idle_for(seat):
        where += ", idle: I hands the seat to a bot or ends the game"
    return f"{clean_text(game.fold.seat_name(seat), 40)}'s turn (seat {seat + 1}, {where})"


class HallPlay(HallTable, PlayBase):
    """Put first in a game screen's bases for a hall game: keys that move are refused when it is
    another person's turn, with a line naming them; `u` asks a takeback; no redo, no review, no
    typed dice (the Dice Tower's `t`: the dice are the secret seed's); `q` leaves
    dicehall (the seat waits: `dicehall join ID` takes it back)."""

    session: GameSession  # as every game screen's; a hall game's screen is always given a HallSession
    rating_asked = False  # whether the finished game's rating change was asked for (redraw)
    if TYPE_CHECKING:
        selected: Any  # a Towers pick or a War of Bones troop, on the screens that have one (hall_refresh)

    @property
    def hall_session(self) -> HallSession:
        session = self.session
        assert isinstance(session, HallSession), "a hall game's screen is given a HallSession"
        return session

    @property
    def hall_game(self) -> HallGame:
        return self.hall_session.hall_game

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action not in FREE_ACTIONS and others_turn(self.hall_game):
            return None
        if action == "review":  # once the seed is revealed the whole game is public: review it
            return self.hall_game.fold.revealed is not None or None
        if action == "toggle_typed":
            return None
        return super().check_action(action, parameters)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action == "review":
            if self.hall_game.finished:
                return "the game is over, but its seed is not revealed yet: try again in a moment"
            watch = command_hint(f"watch {self.hall_game.id}", key=WATCH_KEY)
            return f"no review at the table while the game is played: watch with {watch} on another terminal"
        if action == "toggle_typed":  # the Dice Tower's t
            return NO_TYPED_DICE
        waiting = others_turn(self.hall_game)
        if waiting and action not in FREE_ACTIONS:
            return waiting
        return super().why_disabled(action, parameters)

    def refusal(self, action: str, parameters: tuple) -> str:
        if action == "redo":
            return NO_REDO
        if action == "undo":
            game = self.hall_game
            if game.fold.takeback is not None:
                return "a takeback is waiting for answers already"
            if game.finished:
                return "the game is over: nothing is taken back"
            return "nothing to take back: you have made no move yet"
        return super().refusal(action, parameters)

    def human(self):  # War of Bones: only this terminal's seat decides here
        seat = super().human()
        return None if seat is not None and seat != self.hall_game.seat else seat

    def action_undo(self) -> None:
        super().action_undo()
        request = self.hall_game.fold.takeback
        if request is not None and request.by == self.hall_game.seat and not request.accepted:
            names = " and ".join(clean_text(self.hall_game.fold.seat_name(n), 40) for n in sorted(request.waiting))
            self.status(f"asked {names} to take back your last move")
        self.hall_refresh(None)

    def action_review(self) -> None:
        """The finished game as a replay in the viewer (with its analysis), its dice re-derived
        from the revealed seed, as the Hall screen opens a finished game."""
        try:
            session = self.hall_game.hall.finished_session(self.hall_game.id)
        except (SaveError, OSError, ValueError) as error:
            self.status(clean_text(str(error), 300), error=True)
            return
        self.app.open_viewer(session)

    def action_back(self) -> None:
        self.app.leave_hall_game()

    def redraw(self) -> None:
        super().redraw()
        if self.hall_game.fold.revealed is not None and not self.rating_asked:
            self.rating_asked = True  # once the seed is out the game can be verified: its ratings' change, once
            from dicehall.tui.screens.hall.ratings import say_change_at_end

            say_change_at_end(self, self.hall_game, self.status)

    def help_bindings(self) -> list[Binding]:
        """The keys as the help lists them in the hall: leaving says what it does here (back to
        the Hall screen, or out of dicehall; the seat waits only while the game is played), and
        the wager's Space (the bots' pace) only where a bot sits."""
        game = self.hall_game
        has_bots = any(seat.kind == "bot" for seat in game.fold.seats)
        leave = self.app.hall_leave_words() if hasattr(self.app, "hall_leave_words") else "leave the game"
        shown = []
        for binding in all_bindings(type(self)):
            action = parse_action(binding.action)[1]
            if action == "skip" and not has_bots:
                continue
            if action == "back":
                binding = replace(binding, description="Leave", tooltip=leave)
            elif action == "review":
                binding = replace(binding, tooltip="review the game in the viewer, once it is over (its dice are "
                                                   "secret until then)")
            elif action == "redo":
                binding = replace(binding, tooltip=NO_REDO)
            shown.append(binding)
        return shown

    def hall_refresh(self, before: int | None, note: str = "") -> None:
        """Another terminal moved (or our decision was refused as stale): draw the fold's state.
        `before`: how many events were shown before (None: just redraw)."""
        session = self.hall_session
        total = len(session.events)
        seats = session.look_at_seats()  # before drawing: the table marks a disconnected seat
        if hasattr(self, "thinking"):
            self.thinking += 1  # a bot's search under way answers a position that is gone
        if hasattr(self, "selected") and not hasattr(self, "after_change"):
            self.selected = None  # a Towers pick made on the old board
        if hasattr(self, "ui_state"):
            self.ui_state = None
        if hasattr(self, "asking"):
            self.asking = False
        if before is not None and total > before and hasattr(self, "after_change"):
            self.after_change(before, None)  # War of Bones steps through what happened
        else:
            if before is not None and total > before:
                self.status(clean_text("; ".join(session.describe(i) for i in range(before, total)), 400))
            self.redraw()
            for schedule in ("schedule_bot", "schedule_bots"):
                if hasattr(self, schedule):
                    getattr(self, schedule)()
        if note:
            self.status(clean_text(note, 200))
        if seats:  # a player's link dropped or came back: said last, so it is what the line shows
            self.status(seats)
        self.refresh_bindings()


class HallWaitScreen(HallTalk, HallTable, KeyedScreen):
    """A hall game whose seats are not all taken yet: who sits where, and how the others join."""

    BINDINGS = [
        *CHAT_BINDINGS,
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Leave", tooltip=f"leave the game (asks first); {JOIN_KEY} takes your seat back"),
    ]
    HELP_NOTES = ("The game starts by itself when every seat is taken: the others join from their own "
                  f"terminals with the command shown. q or Esc leaves, after asking; {JOIN_KEY} takes your "
                  "seat back. m sends a message to everyone in the game; M lists them.")

    def __init__(self, game: HallGame) -> None:
        super().__init__()
        self.game = game

    @property
    def talk_game(self) -> HallGame:
        return self.game

    @property
    def hall_game(self) -> HallGame:
        return self.game

    def help_title(self) -> str:
        return f"{self.game.module.TITLE} in the hall"

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        yield Plain("", id="hall-seats")
        yield StatusLine("the game starts when every seat is taken   q: leave   ?: keys")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        game = self.game
        self.query_one("#title", Plain).show(Text(f"{game.module.TITLE} in the hall: game {game.id}", style="bold"))
        text = Text()
        views = game.seats()
        for view in views:
            who = clean_text(view.words(), 60)
            if view.seat == game.seat:
                who += " (you)"
            text.append(f"  seat {view.seat + 1}: {who}\n")
        open_seats = [v.seat + 1 for v in views if v.status == "open"]
        seated = [clean_text(v.name, 40) for v in views if v.status not in ("open", "bot")]
        text.append(f"\nSeated: {', '.join(seated) or 'nobody'}. The game starts when the seats are full.\n")
        if open_seats:
            which = ", ".join(str(n) for n in open_seats)
            seats = "seats" if len(open_seats) > 1 else "seat"
            join = command_hint(f"join {game.id}", key=JOIN_KEY)
            text.append(f"\nwaiting for {seats} {which}: {join} on another terminal\n", style="bold")
        self.query_one("#hall-seats", Plain).show(text)

    def hall_refresh(self, before: int | None, note: str = "") -> None:
        self.redraw()

    def action_back(self) -> None:
        self.app.leave_hall_game()
