"""Messages and idle seats on the hall's screens: the game's table, the screen that waits for seats,
and the live viewer (tui/screens/hall/table.py, tui/screens/hall/watch.py).

m sends a line to everyone in the game (saves/hall/chat.py), unless this terminal watches a table
whose players keep the messages to themselves; each line that arrives shows in the status line,
unless this terminal muted them; M lists the game's messages, each named by its writer, and x
there mutes or unmutes them (for this terminal only). At the table, I acts on another player's seat that is idle
on its turn (the hall admin's setting): hand it to a bot, or end the game as abandoned. Every line
shown is data: cleaned by HallChat, drawn as plain text, never as markup."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from dicehall.engine import IllegalCommand
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import SaveError
from dicehall.saves.hall import HallGame
from dicehall.saves.hall.chat import RATE, RATE_WINDOW, TEXT_LIMIT, HallChat
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.widgets import Plain, clip

if TYPE_CHECKING:
    from textual import getters

    from dicehall.tui.parlor import ParlorApp
    from dicehall.tui.screens.base import KeyedScreen as TalkBase
else:
    TalkBase = object  # a mixin: the hall screen gives the rest (the type checker sees it)

CHAT_EVERY = 0.5  # seconds between looks at the game's messages (a look is one fstat when nothing is new)
TALK_ACTIONS = {"message", "messages", "idle_seat"}
CHAT_BINDINGS = [
    Binding("m", "message", "Message", tooltip="send a line to everyone in this game (its players and watchers)"),
    Binding("M", "messages", "Messages", show=False,
            tooltip="the game's messages so far (x there mutes or unmutes them on this screen)"),
]
IDLE_BINDINGS = [
    Binding("I", "idle_seat", "Idle seat",
            tooltip="the player to move is idle: hand their seat to a bot, or end the game as abandoned"),
]


def chat_of(game: HallGame) -> HallChat:
    """The game's messages as this terminal sends and reads them (the game object keeps them)."""
    return game.chat()


def close_chat(game: HallGame | None) -> None:
    if game is not None:
        game.close_chat()


class MessagesScreen(ModalScreen[None]):
    """The game's messages, the latest last; x mutes or unmutes them on this terminal."""

    BINDINGS = [Binding("x", "mute", "Mute/unmute"), Binding("escape,q,M,enter", "close", "Close")]
    if TYPE_CHECKING:
        app = getters.app(ParlorApp)  # its chat_muted (tui/parlor.py)

    def __init__(self, chat: HallChat) -> None:
        super().__init__()
        self.chat = chat

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="messages-box", classes="dialog"):
            yield Plain("", id="messages-text")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        chat = self.chat
        muted = getattr(self.app, "chat_muted", False)
        text = Text()
        text.append(f"Messages in game {chat.id}", style="bold")
        text.append(f"  ({'muted: they do not show as they come' if muted else 'they show as they come'}; "
                    f"x {'unmutes' if muted else 'mutes'}, Esc closes)\n")
        for problem in list(chat.problems.values())[-3:]:  # the latest few files that could not be read
            text.append(f"{problem}\n", style="bold")
        if chat.dropped:
            text.append(f"{counted(chat.dropped, 'line')} not shown: sent faster than {RATE} in "
                        f"{RATE_WINDOW:.0f} seconds\n")
        if chat.why_not_send():
            text.append(f"{chat.why_not_send()}\n")
        lines = [message.words() for message in chat.messages]
        text.append("\n".join(lines) if lines else "No messages yet: m sends one to everyone in the game.")
        self.query_one("#messages-text", Plain).show(text)
        box = self.query_one("#messages-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)

    def action_mute(self) -> None:
        self.app.chat_muted = not getattr(self.app, "chat_muted", False)
        self.redraw()

    def action_close(self) -> None:
        self.dismiss(None)


class HallTalk(TalkBase):
    """Put first in the bases of a hall screen that has `talk_game` (its HallGame) and `status`:
    the keys m and M (and I at a table), and chat_tick, called every CHAT_EVERY seconds."""

    if TYPE_CHECKING:  # a table's (a watcher's screen gives talk_game instead)
        @property
        def hall_game(self) -> HallGame: ...

    @property
    def talk_game(self) -> HallGame:
        return self.hall_game

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in TALK_ACTIONS:
            if action == "idle_seat":
                game = self.talk_game
                return True if game.seat is not None and game.idle_seat() is not None else None
            if action == "message":
                return not chat_of(self.talk_game).why_not_send() or None
            return True
        return super().check_action(action, parameters)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action == "message":
            return chat_of(self.talk_game).why_not_send()
        if action == "idle_seat":
            game = self.talk_game
            if game.seat is None:
                return "only the game's players can act on an idle seat"
            if not game.hall.idle_minutes():
                return "idle seats are off in this hall (its admin sets idle_minutes in hall.toml)"
            return "no seat is idle: a player is idle once they have not moved on their turn for the hall's time"
        return super().why_disabled(action, parameters)

    def action_message(self) -> None:
        chat = chat_of(self.talk_game)

        def send(text: str | None) -> None:
            if text is None or not text.strip():
                self.status("no message sent")
                return
            try:
                chat.send(text)
            except (OSError, SaveError) as error:  # ChatRefused: too fast, full, a damaged file
                self.status(clean_text(str(error), 200), error=True)
                return
            self.status(clip(f"sent: {clean_text(text, TEXT_LIMIT)}", 200))

        where = "its players and watchers"
        self.app.push_screen(AskScreen(f"A message to everyone in game {chat.id} ({where}), "
                                       f"{TEXT_LIMIT} characters at most:"), send)

    def action_messages(self) -> None:
        chat = chat_of(self.talk_game)
        chat.follow()
        self.app.push_screen(MessagesScreen(chat))

    def chat_first_look(self) -> None:
        """Read the messages there are as the screen opens: they are the history (M lists them), so a
        line sent after this moment is announced, however soon the first tick comes."""
        try:
            chat_of(self.talk_game).follow()
        except OSError:
            pass

    def chat_tick(self) -> None:
        """Show what was said since the last look (the last line, with a count of any before it),
        unless muted; and keep the idle key current."""
        game = self.talk_game
        chat = chat_of(game)
        problem = chat.problem
        try:
            chat.follow()
        except OSError:
            pass
        new = chat.take_unseen()  # others' lines as they arrive: never ours ("sent:" said it), nor what M lists from before
        if chat.problem and not problem:
            self.status(chat.problem, error=True)
        if new and not getattr(self.app, "chat_muted", False):
            more = f" (and {len(new) - 1} more: M lists them)" if len(new) > 1 else ""
            self.status(clip(f"{new[-1].words()}{more}", 240))
        if game.seat is not None:
            idle = game.idle_seat()
            if idle != getattr(self, "idle_said", None):
                self.idle_said = idle
                if idle is not None:
                    name = clean_text(game.fold.seat_name(idle), 40)
                    self.status(f"{name} has not moved for {counted(game.hall.idle_minutes() or 0, 'minute')}: "
                                f"I hands the seat to a bot or ends the game")
                self.refresh_bindings()

    def action_idle_seat(self) -> None:
        game = self.talk_game
        seat = game.idle_seat()
        if seat is None:
            return
        name = clean_text(game.fold.seat_name(seat), 40)

        def chosen(then: str | None) -> None:
            if then is None:
                self.status(f"{name}'s seat is left as it is")
                return
            before = len(game.session.events) if game.session is not None else None
            try:
                game.claim_idle(then)
            except (IllegalCommand, OSError, SaveError) as error:
                self.status(clean_text(str(error), 200), error=True)
                return
            if hasattr(self, "hall_refresh"):
                self.hall_refresh(before)
            if then == "bot":
                self.status(f"{name}'s seat is played by {clean_text(game.fold.seats[seat].name, 40)} from here")
            else:
                self.status(f"the game is over: {clean_text(game.fold.result, 160)}")
            self.refresh_bindings()

        self.app.push_screen(IdleScreen(name, game.hall.idle_minutes() or 0), chosen)


class IdleScreen(ModalScreen[str | None]):
    """What to do with an idle seat: b a bot plays it, e ends the game as abandoned, Esc nothing."""

    BINDINGS = [Binding("b", "choose('bot')", "Bot"), Binding("e", "choose('abandon')", "End"),
                Binding("escape,n", "choose('')", "Nothing")]

    def __init__(self, name: str, minutes: int) -> None:
        super().__init__()
        self.text = (f"{name} has not moved on their turn for {counted(minutes, 'minute')}.\n"
                     f"b: a bot plays their seat from here   e: end the game as abandoned   Esc: nothing")

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        with Vertical(classes="dialog ask"):
            yield Plain(self.text)

    def action_choose(self, then: str) -> None:
        self.dismiss(then or None)
