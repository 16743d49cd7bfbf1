"""Small widgets shared by the screens. They draw what they are given and hold no game truth."""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey


def same_text(shown, text: Text) -> bool:
    """Whether `text` would draw exactly as `shown` does: the same characters, spans and styles (Rich's
    Text equality compares only the first two). Never the same object: it may have been changed in place."""
    return (isinstance(shown, Text) and shown is not text and shown.plain == text.plain and shown.spans == text.spans
            and shown.style == text.style and shown.justify == text.justify and shown.overflow == text.overflow
            and shown.no_wrap == text.no_wrap and shown.end == text.end and shown.tab_size == text.tab_size)


class Plain(Static):
    """A Static whose strings are shown as typed: never parsed as markup (names come from files)."""

    def __init__(self, content: str | Text = "", **kwargs) -> None:
        super().__init__(content if isinstance(content, Text) else Text(content), markup=False, **kwargs)

    lines_fitted: tuple[int, int] | None = None  # (width, lines) of the last text shown whose every line fitted

    def show(self, content: str | Text, layout: bool | None = None) -> None:
        """Replace the text. The screen is laid out again (its costliest redraw) only when this
        widget's size may follow its text: an auto width, or a fraction width (which Textual sizes by
        content in a row); an auto height when the text takes another number of lines; unset, it fills
        its container. True or False says so."""
        text = content if isinstance(content, Text) else Text(content)
        same = same_text(self.content, text)  # a redraw after each key re-shows much that did not change
        if same and self.lines_fitted is not None:
            return
        fitted = None
        if layout is None:
            width, height = self.styles.width, self.styles.height
            if width and (width.is_auto or width.is_fraction):
                layout = True
            elif height and height.is_auto:
                fitted = self.fitted_lines(text)
                layout = fitted is None or fitted != self.lines_fitted
            else:
                layout = False
        if not same:
            self.update(text, layout=layout)
        self.lines_fitted = fitted  # (the same text: its lines learned now, its layout asked when it came)

    def across_width(self) -> int:
        """The columns inside a line across the screen (a title): its content's width once laid out,
        before that the screen's width less its padding -- the same number, so a title drawn before
        the first layout and one drawn after it never differ (a narrower one dropped a save's name)."""
        return self.size.width or self.app.size.width - self.styles.gutter.width

    def update(self, *args, **kwargs) -> None:
        self.lines_fitted = None  # text from elsewhere: its lines are not known
        super().update(*args, **kwargs)

    def fitted_lines(self, text: Text) -> tuple[int, int] | None:
        """(width, lines) when every line of `text` fits the width, so that an auto height is a
        function of the number of lines alone; None when one may wrap (or the width is not known)."""
        width = self.content_size.width
        lines = text.plain.split("\n")
        if width <= 0 or any("\t" in line or cell_len(line) > width for line in lines):
            return None
        return width, len(lines)


class Redrawn(Plain):
    """A Plain whose text is laid out for its size (by a subclass's `lay_out`): it is laid out again,
    from what it was last given, when its size changes (a panel opened beside it after it was drawn)."""

    drawn_with: tuple[tuple, dict] | None = None
    laid_for = None  # the size the text was laid out for

    def draw(self, *args, **kwargs) -> None:
        self.drawn_with = (args, kwargs)
        self.laid_for = self.size
        self.lay_out(*args, **kwargs)

    def lay_out(self, *args, **kwargs) -> None:
        raise NotImplementedError

    def on_resize(self) -> None:
        if self.drawn_with is not None:
            self.draw(*self.drawn_with[0], **self.drawn_with[1])

    def render(self):
        # the last word before the text is shown: laid out for another size (a resize that came
        # before the draw it should have followed), it is laid out again for this one
        if self.drawn_with is not None and self.laid_for != self.size:
            self.draw(*self.drawn_with[0], **self.drawn_with[1])
        return super().render()


class StatusLine(Plain):
    """The answer to the last key: what happened, or why it is not allowed now. A message wraps to
    a second line; one longer than that ends in a mark, and `?` (the help) shows it whole."""

    DEFAULT_CSS = """
    StatusLine { height: auto; max-height: 2; width: 100%; padding: 0 1; background: $panel; }
    StatusLine.-error { color: $text-error; text-style: bold; }
    """
    MAX_LINES = 2
    CUT_MARK = " ... (? shows all)"

    def __init__(self, message: str = "", **kwargs) -> None:
        super().__init__(message, **kwargs)
        self.message = message  # the last message whole, whatever the line could show of it
        self.cut = False
        self.lines_shown = 0  # the lines of the last fit; 0: not fitted yet

    def say(self, message: str, error: bool = False) -> None:
        self.set_class(error, "-error")
        # a prefix word, so the meaning does not depend on colour alone
        self.message = ("Not now: " if error else "") + message
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Show the message in at most MAX_LINES lines of the current width, marked where it is cut."""
        width = self.content_size.width
        text = Text(self.message)
        lines = text.wrap(self.app.console, width) if width > len(self.CUT_MARK) else [text]
        self.cut = len(lines) > self.MAX_LINES
        if self.cut:
            last = lines[self.MAX_LINES - 1]
            last.rstrip()
            last.truncate(width - len(self.CUT_MARK))
            lines = list(lines[: self.MAX_LINES - 1]) + [last + self.CUT_MARK]
        shown = len(lines)  # its height is auto: laid out again only when it takes another number of lines
        self.show(Text("\n").join(lines), layout=shown != self.lines_shown)
        self.lines_shown = shown


def ellipsis(text: str, width: int) -> str:
    """`text` in at most `width` columns, ending in "..." where it is cut, so a cut is never silent."""
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def title_line(head: str, name: str, tail: str, width: int = 78) -> str:
    """A screen's title, "HEAD NAME TAIL" in at most `width` columns: the name (a player's, any
    length) gives way first and ends in "..."; if the rest is still too long, it is cut the same way."""
    room = width - len(head) - len(tail)
    if room >= 8:
        return head + ellipsis(name, room) + tail
    return ellipsis(head + tail.lstrip(), width)


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


def player_kind(player) -> str:
    """What a table says of a seat beside its name: "human", "bot STYLE", or "disconnected" (a hall
    seat whose player's link is down: tui/screens/hall/table.py marks it)."""
    if getattr(player, "away", False):
        return "disconnected"
    return f"bot {player.style}" if player.bot else "human"


class KeysFooter(Footer):
    """Textual's Footer, built again only when the keys it shows change. Textual's rebuilds every
    key widget whenever the screen's bindings are looked at again (each key press, each
    refresh_bindings), and each new key restyled itself twice (its `compact` default, then the
    footer's): most of a key press's CPU went there, for the same keys."""

    shown: tuple | None = None  # the keys last built: (key, its display, description, action, enabled, tooltip)

    def keys_now(self) -> tuple:
        return tuple((binding.key, self.app.get_key_display(binding), binding.description, binding.action, enabled, tooltip)
                     for (_, binding, enabled, tooltip) in self.screen.active_bindings.values() if binding.show)

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        keys = self.keys_now() if self._bindings_ready else None
        if keys is not None and keys == self.shown:
            return
        self.shown = keys
        await super().recompose()

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):  # born with the footer's `compact`: restyled once, not twice
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
