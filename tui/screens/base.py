"""What every game screen shares: the common keys, the status line, and safe command running."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.actions import parse as parse_action
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall.engine.text import clean_text
from dicehall.tui.screens.dialogs import AskScreen, HelpScreen, bindings_help
from dicehall.tui.session import GameSession
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine

if TYPE_CHECKING:
    from textual import getters

    from dicehall.tui.parlor import ParlorApp


def all_bindings(screen_type: type) -> list[Binding]:
    """The bindings of a screen class and its bases, the screen's own first. A key that a screen
    binds itself is left out of its bases' bindings (as Textual does), so every key has one meaning:
    a base's "q,escape" is "q" alone under a screen whose Esc cancels."""
    seen, found = set(), []
    for cls in screen_type.__mro__:
        if not cls.__module__.startswith("dicehall.tui."):
            continue  # Textual's own focus and copy keys are not game keys
        for binding in cls.__dict__.get("BINDINGS", []):
            keys = [key.strip() for key in binding.key.split(",")]
            left = [key for key in keys if key not in seen]
            seen.update(keys)
            if left:
                found.append(binding if left == keys else replace(binding, key=",".join(left)))
    return found


def session_deal(session: GameSession) -> str | None:
    """The code of a session's deal (engine/deals.py), or None: a hall game's seed is secret, and a
    follower's session has none."""
    from dicehall.engine.deals import deal_code

    if hasattr(session, "seed_shown") or session.seed is None:
        return None
    try:
        return deal_code(session.game.ID, session.seed, session.options)
    except ValueError:
        return None


def with_deal(title: str, session: GameSession, width: int) -> str:
    """A game's title with its deal's code at the right, where the title leaves room for it (the
    game's own words come first); `dicehall saves` lists every save's code."""
    code = session_deal(session)
    if not code or len(title) + len(code) + 2 > width:
        return title
    return f"{title}{' ' * (width - len(title) - len(code))}{code}"


class KeyedScreen(Screen):
    """A screen with a status line that answers every key, including the ones it does not know.

    The footer lists only the keys that do something now. A key that is not possible now is left
    out of it, not greyed (colour alone must never carry a meaning); pressing it says why, and ?
    lists every key with the ones not possible now marked "(not now)". A screen says what is not
    possible now with check_action (None), or possible_now for keys the footer should drop without
    blocking them."""

    HELP_NOTES = ""
    if TYPE_CHECKING:
        app = getters.app(ParlorApp)  # for the type checker, self.app is what a screen may ask of it (tui/parlor.py)

    def status(self, message: str, error: bool = False) -> None:
        self.query_one(StatusLine).say(message, error)

    def assisted(self, session: GameSession, kind: str) -> bool:
        """Record the assist `kind` in the save before its answer is shown (saves.record_assist); a save
        that cannot be written says so in one line and the answer is not shown (False)."""
        from dicehall.engine.errors import DicehallError
        from dicehall.saves import error_line
        from dicehall.saves.assists import record_assist

        try:
            record_assist(session, kind)
        except (DicehallError, OSError) as error:
            self.status(f"the {kind} is not shown: it could not be recorded in the save ({error_line(error)})", error=True)
            return False
        return True

    def bound_keys(self) -> set[str]:
        keys: set[str] = set()
        for binding in all_bindings(type(self)):
            keys.update(k.strip() for k in binding.key.split(","))
        return keys

    def possible_now(self, action: str, parameters: tuple) -> bool:
        """Whether a key's action does something now (what the footer shows and ? marks)."""
        return bool(self.check_action(action, parameters))

    def binding_possible(self, binding: Binding) -> bool:
        _, action, parameters = parse_action(binding.action)
        return self.possible_now(action, parameters)

    def footer_shows(self, action: str, parameters: tuple) -> bool:
        """Whether a key possible now has a place in the footer: a key that now does what another
        key shown there does (Esc with nothing to cancel goes back, like q) is left out, so the
        footer gives each key one meaning."""
        return True

    @property
    def active_bindings(self) -> dict:
        """What the footer shows: the keys possible now (Textual would grey the others out)."""
        return {key: active for key, active in super().active_bindings.items()
                if active.enabled and self.binding_possible(active.binding)
                and self.footer_shows(*parse_action(active.binding.action)[1:])}

    def on_key(self, event: events.Key) -> None:
        binding = next((b for b in all_bindings(type(self)) if event.key in [k.strip() for k in b.key.split(",")]), None)
        if binding is not None:
            if not self.binding_possible(binding):  # left out of the footer: say why, and do nothing
                self.status(self.refusal(*parse_action(binding.action)[1:]), error=True)
                event.stop()  # the binding is not run
                event.prevent_default()
            return
        if event.is_printable and event.character not in self.bound_keys():
            self.status(f"{event.character!r} does nothing here; press ? for the keys", error=True)

    def refusal(self, action: str, parameters: tuple) -> str:
        """The answer to a key that is not possible now."""
        return self.why_disabled(action, parameters)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        """Why a key that is not possible now does nothing (screens that have such keys say more)."""
        return f"{action.replace('_', ' ')} is not possible now"

    def help_bindings(self) -> list[Binding]:
        """The keys the help lists (a screen may say them otherwise where they work otherwise)."""
        return all_bindings(type(self))

    def help_notes(self) -> str:
        """The help's words under the keys (a game over says its summary first)."""
        return self.HELP_NOTES

    def action_help(self) -> None:
        rows = bindings_help(self.help_bindings(), self.binding_possible)
        notes = self.help_notes()
        status = self.query(StatusLine)
        if status and status.first().cut:  # the status line ended in "? shows all": here it is
            notes = f"The last message, whole: {status.first().message}\n\n{notes}"
        self.app.push_screen(HelpScreen(self.help_title(), rows, notes))

    def help_title(self) -> str:
        return "dicehall"

    def attempt(self, action: Callable[[], object], done: str | None = None) -> bool:
        """Run an engine call; an IllegalCommand, or a save that could not be written (the session
        is then unchanged), becomes a one-line answer instead of an error."""
        from dicehall.engine import IllegalCommand, JournalError  # here: the launcher's first frame loads no session

        try:
            action()
        except (IllegalCommand, JournalError) as error:
            self.status(str(error), error=True)
            return False
        finally:
            self.refresh_bindings()  # the footer follows what is possible now (undo, actions)
        if done:
            self.status(done)
        return True


class SetupScreen(KeyedScreen):
    """A game's choices before its first move, a line each: Up/Down pick a line; Enter, Space or
    Left/Right change it; s starts. A game's setup gives HEADING, LIST_ID, rows(), action_change()
    and action_start()."""

    BINDINGS = [
        # priority: the focused list's own Enter would hide it from the footer
        Binding("enter,space", "change", "Change", priority=True),
        Binding("left", "change(-1)", "Previous", show=False),
        Binding("right", "change(1)", "Next", show=False),
        Binding("s", "start", "Start"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HEADING = ""
    LIST_ID = "setup"
    LINE_WORDS = False  # a setup whose lines explain themselves: line_words(key) shown under the list

    def compose(self) -> ComposeResult:
        yield Plain(Text(self.HEADING, style="bold"), classes="title")
        yield OptionList(id=self.LIST_ID)
        if self.LINE_WORDS:
            yield Plain("", id="line-words")
        yield StatusLine("Up/Down: line   Enter or Left/Right: change   s: start")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one(OptionList).focus()

    def rows(self) -> list[tuple[str, str]]:
        """(key, label) for every line, in order."""
        raise NotImplementedError

    def redraw(self, keep: int | None = None) -> None:
        menu = self.query_one(OptionList)
        highlighted = menu.highlighted if keep is None else keep
        menu.clear_options()
        for key, label in self.rows():
            menu.add_option(Option(Text(label), id=key))
        menu.highlighted = min(highlighted or 0, menu.option_count - 1)

    def current(self) -> str:
        """The key of the highlighted line."""
        menu = self.query_one(OptionList)
        return menu.get_option_at_index(menu.highlighted or 0).id or ""

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_change()

    def line_words(self, key: str) -> str:
        """The words shown under the list while line `key` is highlighted (LINE_WORDS): none here."""
        return ""

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        for shown in self.query("#line-words").results(Plain):
            shown.show(Text(self.line_words(self.current())))

    def action_change(self, step: int = 1) -> None:
        raise NotImplementedError

    def cycle(self, choices: dict, key: str, values: tuple, step: int) -> None:
        """Move choice `key` `step` places round `values` and redraw."""
        choices[key] = values[(values.index(choices[key]) + step) % len(values)]
        self.redraw()

    def ask_name(self, choices: dict, key: str, question: str) -> None:
        """Ask for a name (cleaned of control characters: it is shown to others) and redraw."""
        def named(text: str | None) -> None:
            if text is not None:
                choices[key] = clean_text(text)
                self.redraw()

        self.app.push_screen(AskScreen(question, choices[key]), named)

    def action_back(self) -> None:
        self.app.pop_screen()


class GameScreen(KeyedScreen):
    """A game being played on a save: undo, redo, review, rules, help and back work the same everywhere."""

    BINDINGS = [
        Binding("u,ctrl+z", "undo", "Undo", tooltip="undo your last move"),
        Binding("ctrl+y", "redo", "Redo", show=False, tooltip="redo what was undone"),
        Binding("v", "review", "Review", tooltip="review this game in the replay viewer"),
        Binding("i", "rules", "Rules", show=False, tooltip="the rules"),
        Binding("question_mark", "help", "Help", tooltip="this help"),
        Binding("q,escape", "back", "Back", tooltip="leave the game (it is saved as you play)"),
    ]

    session: GameSession  # the engine's Session or a hall table's HallSession: tui/session.py

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def help_title(self) -> str:
        return self.session.game.TITLE

    def help_notes(self) -> str:
        """Once the game is over, its summary first (engine/analysis/summary.py: the result, the
        deal, undos, assists, comments), as roguelikes end with a morgue file."""
        from dicehall.engine import Session

        if self.session.outcome is None or not isinstance(self.session, Session):  # a hall game's is not a Session
            return self.HELP_NOTES
        from dicehall.engine.analysis.summary import summary_paragraph
        from dicehall.saves.box import command_hint  # here: the first frame imports no saves module

        written = command_hint("summary SAVE")  # not on a box, which runs no summary over ssh
        summary = f"Game over. {summary_paragraph(self.session)}" + (f" ({written} writes it out.)" if written else "")
        return f"{summary}\n\n{self.HELP_NOTES}" if self.HELP_NOTES else summary

    def possible_now(self, action: str, parameters: tuple) -> bool:
        if action == "undo":
            return self.session.can_undo
        if action == "redo":
            return self.session.can_redo
        return super().possible_now(action, parameters)

    def refusal(self, action: str, parameters: tuple) -> str:
        if action == "undo":
            return "nothing to undo: no move of yours is left to take back"
        if action == "redo":
            return "nothing to redo: redo follows an undo"
        return super().refusal(action, parameters)

    def on_mount(self) -> None:
        notice = self.session.labels.notice  # e.g. a cut-off record removed, a branch made
        if notice:
            self.status(notice)
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Draw the session's current state (each game screen fills this in)."""

    def action_undo(self) -> None:
        if self.attempt(self.session.undo):
            self.status(f"undone (undos used in this save: {self.session.undos})")
        self.redraw()

    def action_redo(self) -> None:
        if self.attempt(self.session.redo, "redone"):
            self.redraw()

    def action_review(self) -> None:
        from dicehall.engine import Session

        assert isinstance(self.session, Session)  # a hall table reviews otherwise (HallPlay.action_review)
        self.app.open_viewer(self.session, live=True)

    def action_rules(self) -> None:
        self.app.open_rules(self.session.game)

    def action_back(self) -> None:
        self.app.pop_screen()

    def on_unmount(self) -> None:
        # leaving the screen releases the save for other sessions; every event is already on disk
        from dicehall.engine import Session
        from dicehall.saves import close_save

        if isinstance(self.session, Session):  # a hall table's log is the hall's, not a save
            close_save(self.session)
