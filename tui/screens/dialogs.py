"""Modal dialogs: help (every key of a screen), a one-line question, a pasted text, a yes/no confirmation."""
from __future__ import annotations

import textwrap

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input

from dicehall.tui.widgets import Plain, Redrawn


def key_label(key: str) -> str:
    return {"question_mark": "?", "escape": "Esc", "left": "Left", "right": "Right", "pageup": "PgUp",
            "pagedown": "PgDn", "home": "Home", "end": "End", "enter": "Enter", "space": "Space",
            "plus": "+", "minus": "-", "equals_sign": "=", "up": "Up", "down": "Down", "tab": "Tab",
            "shift+tab": "Shift+Tab", "semicolon": ";", "left_square_bracket": "[", "right_square_bracket": "]"}.get(key, key)


ARROW_KEYS = sorted(["Up", "Down", "Left", "Right"])


def bindings_help(bindings: list[Binding], possible=lambda binding: True) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding, merged per description (a footer group's keys share
    a line; a binding's tooltip, where it has one, says more than its footer word); what is not
    possible now (`possible` says) is marked so in words."""
    rows: dict[str, tuple[list[str], list[str], bool]] = {}
    for binding in bindings:
        keys = [key_label(k.strip()) for k in binding.key.split(",")]
        what = binding.description or binding.action
        what = binding.tooltip or what  # a footer's word can be short: the help may say more
        line = f"group:{binding.group.description}" if binding.group else what
        row_keys, whats, now = rows.setdefault(line, ([], [], False))
        row_keys.extend(keys)
        if what not in whats:
            whats.append(what)
        rows[line] = (row_keys, whats, now or possible(binding))
    return [("Arrows" if sorted(keys) == ARROW_KEYS else " / ".join(keys), " / ".join(whats) + ("" if now else " (not now)"))
            for keys, whats, now in rows.values()]


def help_text(title: str, rows: list[tuple[str, str]], notes: str, width: int) -> Text:
    """The help's words for a box `width` columns wide inside: each key's line wrapped under its
    own words, the notes flowing."""
    text = Text()
    text.append(f"{title}: keys" if rows else title, style="bold")  # no keys: words to read (a long prompt)
    text.append("  (Esc closes)\n")
    keys_width = max(len(keys) for keys, _ in rows) if rows else 0
    for keys, what in rows:
        text.append(f"{keys:>{keys_width + 1}}  ", style="bold")
        lines = textwrap.wrap(what, max(10, width - keys_width - 3)) or [""]
        text.append(("\n" + " " * (keys_width + 3)).join(lines) + "\n")
    if notes:  # notes flow to the box's width: a blank line alone starts a new paragraph
        flowing = "\n\n".join(" ".join(part.split()) for part in notes.split("\n\n"))
        text.append(f"\n{flowing}")
    text.rstrip()  # no blank line at the bottom of the box
    return text


class HelpText(Redrawn):
    """The help's words, wrapped again for the width they get: a help that scrolls loses columns
    to its scroll bar, and a key's line wrapped for the wider box broke out of its column."""

    def lay_out(self, title: str, rows: list[tuple[str, str]], notes: str) -> None:
        self.show(help_text(title, rows, notes, self.size.width or HelpScreen.WIDTH))


class HelpScreen(ModalScreen[None]):
    """Every key of the screen it was opened from, and a line of what each does. It is meant to
    fit 80x24 unscrolled; a help that does not (a long last message above it) says on its frame
    that there is more below and which keys scroll (the box has the focus: they scroll it)."""

    BINDINGS = [Binding("escape,q,question_mark,enter", "close", "Close")]
    WIDTH = 74  # inside #help-box's frame and padding (dicehall.tcss): rows wrap under their words

    def __init__(self, title: str, rows: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows
        self.notes = notes

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield HelpText(help_text(self.title_text, self.rows, self.notes, self.WIDTH))

    def on_mount(self) -> None:
        self.query_one(HelpText).draw(self.title_text, self.rows, self.notes)
        box = self.query_one("#help-box", VerticalScroll)
        self.watch(box, "scroll_y", self.say_more, init=False)
        self.watch(box, "virtual_size", self.say_more, init=False)  # the words wrapped again
        self.call_after_refresh(self.say_more)

    def say_more(self, *_: object) -> None:
        """On the frame's bottom edge: whether more is below and how to reach it (nothing if it fits)."""
        box = self.query_one("#help-box", VerticalScroll)
        if box.max_scroll_y <= 0:
            box.border_subtitle = ""
        elif box.scroll_y < box.max_scroll_y:
            box.border_subtitle = "more below: PgDn or Down"
        else:
            box.border_subtitle = "the end: PgUp or Up goes back"

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


class PasteScreen(ModalScreen[str | None]):
    """A text of many lines pasted into a box (a deck); `check` returns an error message to keep the
    dialog open, or None. Ctrl+S takes it: Enter is a new line."""

    BINDINGS = [Binding("ctrl+s", "take", "OK", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, check=None) -> None:
        super().__init__()
        self.question = question
        self.check = check

    def compose(self) -> ComposeResult:
        from textual.widgets import TextArea  # here, not at the top: the first frame need not import it

        with Vertical(classes="dialog ask", id="paste-box"):
            yield Plain(self.question, id="ask-question")
            yield TextArea(id="paste-input", soft_wrap=True, show_line_numbers=False)
            yield Plain("Ctrl+S: OK    Esc: cancel", id="ask-error")

    def on_mount(self) -> None:
        self.query_one("#paste-input").focus()

    def action_take(self) -> None:
        from textual.widgets import TextArea

        text = self.query_one("#paste-input", TextArea).text
        problem = self.check(text) if self.check else None
        if problem:
            self.query_one("#ask-error", Plain).show(Text("Not accepted: " + problem, style="bold"))
            return
        self.dismiss(text)

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
            yield Plain("y: yes    n or Esc: no", id="confirm-keys")

    def on_key(self, event: events.Key) -> None:
        if event.key not in ("y", "n", "escape"):  # any other key: say which ones answer
            self.query_one("#confirm-keys", Plain).show(
                Text(f"Not now: {event.key!r} is no answer; y: yes    n or Esc: no", style="bold"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
