"""Small widgets shared by the screens. They draw what they are given and hold no game truth."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class Plain(Static):
    """A Static whose strings are shown as typed: never parsed as markup (names come from files)."""

    def __init__(self, content: str | Text = "", **kwargs) -> None:
        super().__init__(content if isinstance(content, Text) else Text(content), markup=False, **kwargs)

    def show(self, content: str | Text, layout: bool = True) -> None:
        """Replace the text; layout=False skips relayout for widgets whose size the CSS fixes."""
        self.update(content if isinstance(content, Text) else Text(content), layout=layout)


class StatusLine(Plain):
    """One line that answers the last key: what happened, or why it is not allowed now."""

    DEFAULT_CSS = """
    StatusLine { height: 1; width: 100%; padding: 0 1; background: $panel; }
    StatusLine.-error { color: $text-error; text-style: bold; }
    """

    def say(self, message: str, error: bool = False) -> None:
        self.set_class(error, "-error")
        # a prefix word, so the meaning does not depend on colour alone
        self.show(("Not now: " if error else "") + message)


BIG_DIGITS = {
    "0": (" _ ", "| |", "|_|"),
    "1": ("   ", "  |", "  |"),
    "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"),
    "4": ("   ", "|_|", "  |"),
    "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"),
    "7": (" _ ", "  |", "  |"),
    "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"),
}


def big_number(value: int) -> list[str]:
    """A number three lines tall in plain ASCII (no emoji, no box-drawing width surprises)."""
    digits = str(value)
    return [" ".join(BIG_DIGITS[d][row] for d in digits) for row in range(3)]


def clip(text: str, width: int = 78) -> str:
    """One line of at most `width` columns (78: inside the padding at 80x24), cut with "..." so a
    reader sees that there is more."""
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."
