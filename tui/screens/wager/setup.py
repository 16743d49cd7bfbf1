"""Dead Man's Wager: the setup, who plays in seating order (a person or a bot of one style per
seat; the first seat starts) and the "play on for places" option."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall.engine.core import Player
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import wager
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.screens.wager.screen import warm_odds
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine

KINDS = ("human", "best", "cautious", "bold")  # a seat is a human or a bot of one style


class WagerSetupScreen(KeyedScreen):
    """Who plays, in seating order (the first seat starts), and the options."""

    BINDINGS = [
        # priority: the focused list's own Enter would hide it from the footer
        Binding("enter", "rename", "Name", priority=True),
        Binding("b", "kind", "Human/bot"),
        Binding("a", "add", "Add"),
        Binding("d", "remove", "Remove"),
        Binding("left_square_bracket", "shift(-1)", "Seat up", show=False, key_display="["),
        Binding("right_square_bracket", "shift(1)", "Seat down", show=False, key_display="]"),
        Binding("o", "play_on", "Places", show=False),
        Binding("s", "start", "Start"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("Up/Down pick a seat. Enter names it, b switches human / bot best / cautious / bold, "
                  "[ and ] move it in the seating order (seat 1 starts), a adds a seat, d removes one. "
                  "o switches 'play on for places'. s starts the game.")

    def __init__(self, seed: int | None = None, name: str = "", play_on: bool = False) -> None:
        super().__init__()
        self.seats: list[list[str]] = [["Player 1", "human"], ["Bot 2", "best"]]
        self.play_on = play_on
        self.seed = seed  # None: a fresh seed
        self.save_name = clean_text(name)

    def help_title(self) -> str:
        return "Dead Man's Wager: setup"

    def compose(self) -> ComposeResult:
        yield Plain(Text("Dead Man's Wager: who plays? (2 to 6 seats; seat 1 rolls first)", style="bold"), classes="title")
        yield OptionList(id="seats")
        yield Plain("", id="setup-options")
        yield StatusLine("Enter: name  b: human or bot  a: add  d: remove  [ ]: move  s: start")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one(OptionList).focus()
        warm_odds()

    def redraw(self, highlight: int | None = None) -> None:
        menu = self.query_one(OptionList)
        keep = menu.highlighted if highlight is None else highlight
        menu.clear_options()
        for index, (name, kind) in enumerate(self.seats, start=1):
            who = "human" if kind == "human" else f"bot, plays {kind}"
            menu.add_option(Option(Text(f"seat {index}   {name:<24} {who}")))
        menu.highlighted = min(keep or 0, len(self.seats) - 1)
        places = "on: after a win, the others play on for the places" if self.play_on else "off: the first winner ends the game"
        self.query_one("#setup-options", Plain).show(f"Play on for places (o): {places}")

    def current(self) -> int:
        return self.query_one(OptionList).highlighted or 0

    def action_rename(self) -> None:
        index = self.current()

        def named(name: str | None) -> None:
            if name is not None and clean_text(name):
                self.seats[index][0] = clean_text(name)
                self.redraw()

        self.app.push_screen(AskScreen(f"Name for seat {index + 1}:", self.seats[index][0]), named)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_rename()

    def action_kind(self) -> None:
        index = self.current()
        seat = self.seats[index]
        seat[1] = KINDS[(KINDS.index(seat[1]) + 1) % len(KINDS)]
        # a default name follows the seat's kind; a name someone typed is kept
        defaults = {f"Player {index + 1}", f"Bot {index + 1}"}
        if seat[0] in defaults:
            seat[0] = f"Player {index + 1}" if seat[1] == "human" else f"Bot {index + 1}"
        self.redraw()

    def action_add(self) -> None:
        if len(self.seats) >= 6:
            self.status("six seats at most", error=True)
            return
        self.seats.append([f"Bot {len(self.seats) + 1}", "best"])
        self.redraw(len(self.seats) - 1)

    def action_remove(self) -> None:
        if len(self.seats) <= 2:
            self.status("two seats at least", error=True)
            return
        del self.seats[self.current()]
        self.redraw()

    def action_shift(self, delta: int) -> None:
        index = self.current()
        target = index + delta
        if not 0 <= target < len(self.seats):
            self.status("that seat cannot move further", error=True)
            return
        self.seats[index], self.seats[target] = self.seats[target], self.seats[index]
        self.redraw(target)

    def action_play_on(self) -> None:
        self.play_on = not self.play_on
        self.redraw()

    def players(self) -> list[Player]:
        return [Player(name, kind != "human", "" if kind == "human" else kind) for name, kind in self.seats]

    def action_start(self) -> None:
        from dicehall import saves

        name = self.save_name or " v ".join(name for name, _ in self.seats)
        try:
            session = saves.new_save(wager.ID, name=name, seed=self.seed, players=self.players(),
                                     options={"play_on": self.play_on})
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session, replace=True)

    def action_back(self) -> None:
        self.app.pop_screen()
