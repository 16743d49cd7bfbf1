"""A text to read, scrollable by keyboard, that says where the reader is: the rules of a game
(tui/screens/rules.py) and a finished journal (tui/screens/bookshelf.py) read this way."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll


from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine


# the keys of a screen that scrolls a text (its action_scroll); priority: the focused scroller's own
# keys would hide these from the footer
SCROLL_BINDINGS = [
    Binding("up", "scroll(-1)", "Up", show=False, priority=True, tooltip="a line up"),
    Binding("down", "scroll(1)", "Down", show=False, priority=True, tooltip="a line down"),
    Binding("pageup", "scroll(-15)", "Page up", priority=True),
    Binding("pagedown,space", "scroll(15)", "Page down", priority=True),
]


class ReadingScreen(KeyedScreen):
    BINDINGS = [
        *SCROLL_BINDINGS,
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]

    WHAT = "the text"  # what is read, in the status line's words
    FITS = "the text fits on the screen"

    def heading(self) -> str | Text:
        raise NotImplementedError

    def body(self) -> str | Text:
        raise NotImplementedError

    def help_title(self) -> str:
        return str(self.heading())

    def compose(self) -> ComposeResult:
        yield Plain(self.heading(), classes="title")
        with VerticalScroll(id="rules-scroll"):
            yield Plain(self.body())
        yield StatusLine("Up/Down, PgUp/PgDn scroll; q goes back")
        yield KeysFooter()

    def on_mount(self) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        self.watch(scroll, "scroll_y", self.say_where, init=False)
        self.call_after_refresh(self.say_where)

    def say_where(self, *_: object) -> None:
        """Where the reader is, so the end of the text is never a key that silently does nothing."""
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        if scroll.max_scroll_y <= 0:
            self.status(f"{self.FITS}; q goes back")
        elif scroll.scroll_y >= scroll.max_scroll_y:
            self.status(f"the end of {self.WHAT}: PgUp or Up goes back up, q leaves")
        else:
            shown = round(100 * (scroll.scroll_y + scroll.size.height) / (scroll.max_scroll_y + scroll.size.height))
            self.status(f"{shown}% read: PgDn or Space for more, Up/Down a line, q goes back")

    def action_scroll(self, lines: int) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_back(self) -> None:
        self.app.pop_screen()
