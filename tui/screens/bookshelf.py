"""The bookshelf: the finished journals, to read again (as dc-solo-rpg lists its finished games).
Enter opens one read-only: its pages day by day, its last words and how it ended. Nothing is
written: a save is read (saves.load_readonly) and let go."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall import saves
from dicehall.engine.games import journal
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.journal_pages import journal_text
from dicehall.tui.screens.reading import ReadingScreen
from dicehall.tui.widgets import ellipsis, KeysFooter, Plain, StatusLine


def finished_journals() -> list[saves.SaveInfo]:
    """The journal saves whose game is over, most recently played first (damaged ones left out)."""
    return [info for info in saves.list_saves() if info.game == journal.ID and info.finished and not info.problem]


class BookshelfScreen(KeyedScreen):
    BINDINGS = [
        Binding("enter", "read", "Read", priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = "Every journal whose game has ended, newest first. Enter reads one; nothing in it changes."

    def help_title(self) -> str:
        return "The bookshelf"

    def compose(self) -> ComposeResult:
        yield Plain(Text("The bookshelf: finished journals", style="bold"), classes="title")
        yield OptionList(id="bookshelf-list")
        yield StatusLine("Enter reads the journal under the cursor")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.infos = finished_journals()
        menu = self.query_one(OptionList)
        for info in self.infos:
            menu.add_option(Option(Text(ellipsis(f"{info.name}  ({info.progress})", 74)), id=info.id))
        menu.focus()
        if self.infos:
            menu.highlighted = 0
        else:
            self.status("no finished journal yet: a journal goes on the shelf when its game ends")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_read()

    def action_read(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self.infos:
            self.status("no journal to read yet", error=True)
            return
        try:
            session = saves.load_readonly(self.infos[index].id)
        except saves.SaveError as error:
            self.status(str(error), error=True)
            return
        self.app.push_screen(JournalReadScreen(session.labels.save_name, session.state))

    def action_back(self) -> None:
        self.app.pop_screen()


class JournalReadScreen(ReadingScreen):
    """One finished journal, read-only, scrolled as the rules are."""

    WHAT = "the journal"
    FITS = "the journal fits on the screen"

    def __init__(self, name: str, state: journal.JournalState) -> None:
        super().__init__()
        self.name_shown = name
        self.state = state

    def help_title(self) -> str:
        return f"Reading: {self.name_shown}"

    def heading(self) -> Text:
        return Text(ellipsis(f"Reading: {self.name_shown}", 78), style="bold")

    def body(self) -> Text:
        text = Text(f"{self.state.deck.title}\n\n", style="bold")
        text.append_text(journal_text(self.state, prompts=True))
        outcome = journal.outcome(self.state)
        if outcome is not None:
            text.append("\n" + outcome.summary + "\n", style="italic")
        return text
