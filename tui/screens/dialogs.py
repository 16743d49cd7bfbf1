"""Modal dialogs: help (every key of a screen), a one-line question, a yes/no confirmation."""
from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input

from tui.widgets import Plain


def key_label(key: str) -> str:
    return {"question_mark": "?", "escape": "Esc", "left": "Left", "right": "Right", "pageup": "PgUp",
            "pagedown": "PgDn", "home": "Home", "end": "End", "enter": "Enter", "space": "Space",
            "plus": "+", "minus": "-", "up": "Up", "down": "Down", "tab": "Tab", "left_square_bracket": "[",
            "right_square_bracket": "]"}.get(key, key)


def bindings_help(screen) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding of a screen, merged per description."""
    rows: dict[str, list[str]] = {}
    for binding in type(screen).BINDINGS:
        keys = [key_label(k.strip()) for k in binding.key.split(",")]
        rows.setdefault(binding.description or binding.action, []).extend(keys)
    return [(" / ".join(keys), what) for what, keys in rows.items()]


class HelpScreen(ModalScreen[None]):
    """Every key of the screen it was opened from, and a line of what each does."""

    BINDINGS = [Binding("escape,q,question_mark,enter", "close", "Close")]

    def __init__(self, title: str, rows: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows
        self.notes = notes

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(f"{self.title_text}: keys\n\n", style="bold")
        for keys, what in self.rows:
            text.append(f"{keys:>22}  ", style="bold")
            text.append(f"{what}\n")
        if self.notes:  # notes flow to the box's width: a blank line alone starts a new paragraph
            flowing = "\n\n".join(" ".join(part.split()) for part in self.notes.split("\n\n"))
            text.append(f"\n{flowing}\n")
        text.append("\nEsc, q or ? closes this help.")
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Plain(text)

    def action_close(self) -> None:
        self.dismiss(None)


class AskScreen(ModalScreen[str | None]):
    """A one-line question; `check` returns an error message to keep the dialog open, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "", check=None, placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.check = check
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog ask"):
            yield Plain(self.question, id="ask-question")
            yield Input(value=self.value, placeholder=self.placeholder, id="ask-input", max_length=200)
            yield Plain("Enter: OK    Esc: cancel", id="ask-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        problem = self.check(event.value) if self.check else None
        if problem:
            self.query_one("#ask-error", Plain).show(Text("Not accepted: " + problem, style="bold"))
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog ask"):
            yield Plain(self.question)
            yield Plain("y: yes    n or Esc: no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
