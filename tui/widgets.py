"""Small widgets shared by the screens. They draw what they are given and hold no game truth."""
from __future__ import annotations

from itertools import groupby
from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static


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


class FooterEntry(NamedTuple):
    """A key as the footer shows it."""
    key: str
    display: str
    description: str
    action: str
    enabled: bool
    group: object  # its Binding.Group, or None


class KeysFooter(Widget):
    """The keys the screen answers now, on the last line, drawn as one widget. Textual's Footer is a
    row of widgets (one a key, one a group's word), each styled, laid out and drawn: its keys cost a
    screen about a third of its first frame. This draws the line that footer draws (each key, then
    its description; a group's keys, then the group's word) from the screen's bindings, again only
    when they change, and whether the app has the focus or not (a browser page blurs it until it is
    clicked). A click on a key presses it, as on Textual's."""

    DEFAULT_CSS = """
    KeysFooter { dock: bottom; height: 1; color: $footer-foreground; background: $footer-background; }
    KeysFooter > .keys-footer--key { color: $footer-key-foreground; background: $footer-key-background; text-style: bold; }
    KeysFooter > .keys-footer--description { color: $footer-description-foreground; background: $footer-description-background; }
    """
    COMPONENT_CLASSES = {"keys-footer--key", "keys-footer--description"}
    ALLOW_SELECT = False  # as Textual's: a drag over the keys selects no text

    shown: tuple[FooterEntry, ...] = ()  # the keys last drawn
    columns: tuple[tuple[int, int, FooterEntry], ...] = ()  # where each key drawn stands: (first column, past its last, the key)
    line_width = 0  # the columns of the whole line last drawn (more than the screen's: cut at its edge)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def keys_now(self) -> tuple[FooterEntry, ...]:
        """The screen's shown bindings, one an action (its first key), in the order Textual's Footer lists them."""
        entries: dict[str, FooterEntry] = {}
        for _, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in entries:
                entries[binding.action] = FooterEntry(binding.key, self.app.get_key_display(binding), binding.description,
                                                      binding.action, enabled, binding.group)
        return tuple(entries.values())

    def bindings_changed(self, screen) -> None:
        if self.is_attached and self.keys_now() != self.shown:
            self.refresh()

    def render(self) -> Text:
        self.shown = self.keys_now()
        key_style = self.get_component_rich_style("keys-footer--key")
        words_style = self.get_component_rich_style("keys-footer--description")
        text, columns = Text(no_wrap=True, overflow="crop", end=""), []

        def key(entry: FooterEntry, shown: str) -> None:
            start = text.cell_len + len(shown) - len(shown.lstrip())
            text.append(shown, key_style if entry.enabled else key_style + Style(dim=True))
            columns.append((start, start + cell_len(entry.display), entry))

        for group, run in groupby(self.shown, key=lambda entry: entry.group):
            members = list(run)
            if isinstance(group, Binding.Group) and len(members) > 1:
                # a group: its keys without their words, a space apart, then the group's word, spaced as
                # Textual's footer spaces them; a compact group's keys run together ("←→ Event") unless
                # one is written as a word (a terminal without arrows: "Left Right Event")
                together = group.compact and all(cell_len(entry.display) == 1 for entry in members)
                for entry in members:
                    key(entry, entry.display if together and entry is not members[0] else " " + entry.display)
                text.append(" ")
                text.append(group.description + " ", words_style)
            else:
                for entry in members:
                    if entry.description:
                        key(entry, f" {entry.display} ")
                        text.append(entry.description + " ", words_style)
                    else:
                        key(entry, entry.display)
        self.columns, self.line_width = tuple(columns), text.cell_len
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, entry in self.columns:
            if start <= event.x < end:
                self.app.simulate_key(entry.key)
                return
