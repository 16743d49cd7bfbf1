"""Pebbles' screens (step 3, tui/screens/GAME.py): the game (the pile, keys 1 and 2, a bot seat
that answers at once through the catalogue's bots) and its setup (which bot you play)."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import entry_of
from dicehall.tui.screens.base import GameScreen, SetupScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine
from tests.toy_game import rules


def draw_board(state: rules.PebblesState, reveal: bool = True) -> Text:
    return Text(f"PEBBLES\n{'o ' * state.pile}\n{state.pile} left")


class PebblesScreen(GameScreen):
    BINDINGS = [Binding("1", "take(1)", "Take 1"), Binding("2", "take(2)", "Take 2")] + GameScreen.BINDINGS

    def compose(self) -> ComposeResult:
        yield Plain("", id="pebbles-board")
        yield StatusLine("1 or 2: take that many pebbles  ?: keys  q: leave")
        yield KeysFooter()

    def redraw(self) -> None:
        self.query_one("#pebbles-board", Plain).show(draw_board(self.session.state))

    def action_take(self, count: int) -> None:
        session = self.session
        if self.attempt(lambda: session.play(rules.Take(count))):
            seat = session.to_act
            if seat is not None and session.players[seat].bot:  # the bot's seat answers at once
                bot = entry_of(rules.ID).bots[session.players[seat].style]
                self.attempt(lambda: session.play(bot(session.state, session.seed, len(session.events))))
            self.status(session.describe(len(session.events) - 1))
        self.redraw()


class PebblesSetupScreen(SetupScreen):
    HEADING = "Pebbles: which bot?"
    LIST_ID = "pebbles-setup"

    def __init__(self, seed: int | None = None, name: str = "", **options) -> None:
        super().__init__()
        self.seed, self.save_name, self.bot = seed, name, rules.BOT_STYLES[0]

    def rows(self) -> list[tuple[str, str]]:
        return [("bot", f"Against: {self.bot}"), ("start", "Start the game (s)")]

    def action_change(self, step: int = 1) -> None:
        if self.current() == "start":
            self.action_start()
        else:
            styles = rules.BOT_STYLES
            self.bot = styles[(styles.index(self.bot) + step) % len(styles)]
            self.redraw()

    def action_start(self) -> None:
        players = saves.solo_players() + [Player("Bot", True, self.bot)]
        try:
            session = saves.new_save(rules.ID, name=self.save_name or f"pebbles v {self.bot}", seed=self.seed, players=players)
        except (DicehallError, OSError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session)
