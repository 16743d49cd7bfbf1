"""Players' comments in the replay viewer (and a game's review): `;` writes, edits or removes the
comment on the event shown (0: the whole game), as PGN's `;` starts a comment. A save keeps them as
`comment` records (saves/comments.py), never game events; a replay file or a hall game keeps them
in memory, and `x` writes a copy of the replay with them."""
from __future__ import annotations

import re
from pathlib import Path
from textwrap import wrap
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from dicehall.engine.comments import COMMENT_LIMIT, comment_overflow
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.widgets import Plain, clip

if TYPE_CHECKING:
    from dicehall.engine import Session
    from dicehall.tui.screens.base import KeyedScreen as ViewerBase
else:
    ViewerBase = object  # a mixin: the viewer gives the rest (the type checker sees it)

LINE_BREAK = " / "  # typed in the one-line prompt, it starts a new line of the comment
COMMENT_KEYS = Binding.Group("Comments")  # one line of the help: 80x24 holds the viewer's help unscrolled
COMMENT_BINDINGS = [
    Binding("semicolon", "comment", "Comment", show=False, group=COMMENT_KEYS,
            tooltip="comment on this event"),
    Binding("x", "write_comments", "Write", show=False, group=COMMENT_KEYS,
            tooltip="a copy with comments"),
]
COMMENT_ACTIONS = {"write_comments"}
MARKER = "{}"  # before an event's words in the list: it has a comment (PGN writes comments in braces)


def typed_comment(typed: str) -> str:
    """The comment a line typed in the prompt stands for: " / " starts a new line."""
    return "\n".join(typed.split(LINE_BREAK))


def comment_where(position: int) -> str:
    return "the whole game" if position == 0 else f"event {position}"


class CommentScreen(ModalScreen[str | None]):
    """The comment prompt: one line; " / " starts a new line. A comment over the limits is refused
    here, with why, before anything is cut (the box takes some more, so a paste is seen to be over)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str) -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog ask"):
            yield Plain(self.question, id="ask-question")
            yield Input(value=self.value, id="ask-input", max_length=COMMENT_LIMIT * 2)
            yield Plain("Enter: save    Esc: cancel    empty: remove it", id="ask-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        overflow = comment_overflow(typed_comment(event.value))
        if overflow:
            self.query_one("#ask-error", Plain).show(Text(f"Not accepted: {overflow}", style="bold"))
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CommentPanel(Plain):
    """The comment on the event shown, under the events: shown only where there is one."""

    def draw_comment(self, text: str | None, width: int) -> None:
        self.display = bool(text)
        if not text:
            return
        lines = [piece for line in text.split("\n") for piece in (wrap(line, max(10, width - 2)) or [""])]
        shown = lines[:3]
        if len(lines) > 3:
            shown[-1] = clip(shown[-1] + " ...", max(10, width - 2))
        body = Text("{ ", style="bold")  # the brace says "comment" without colour
        body.append("\n  ".join(shown))
        self.show(body, layout=True)


class CommentedViewer(ViewerBase):
    """The viewer's comment keys; the viewer gives `session`, `position`, `status` and `redraw`."""

    if TYPE_CHECKING:  # the viewer's
        session: Session
        position: int
        def redraw(self) -> None: ...

    def comments_on_disk(self) -> bool:
        from dicehall.saves import SaveJournal, ViewedSave

        return isinstance(self.session.journal, (SaveJournal, ViewedSave))

    def comment_possible(self, action: str) -> bool | None:
        """x is possible where comments are kept in memory only, once there is one."""
        return None if self.comments_on_disk() or not self.session.labels.comments else True

    def comment_refusal(self, action: str) -> str:
        if self.comments_on_disk():
            return "your comments are kept with the save as you write them: nothing else to write"
        return "no comments yet: ; writes one on the event shown"

    def action_comment(self) -> None:
        position = self.position
        current = self.session.labels.comments.get(position, "")
        verb = "Edit your comment" if current else "Your comment"
        question = (f"{verb} on {comment_where(position)} ('{LINE_BREAK.strip()}' between spaces starts a new "
                    "line; empty removes it):")
        self.app.push_screen(CommentScreen(question, LINE_BREAK.join(current.split("\n"))),
                             lambda text: self.keep_comment(position, text))

    def keep_comment(self, position: int, text: str | None) -> None:
        from dicehall import saves

        where = comment_where(position)
        if text is None:
            self.status(f"the comment on {where} is as it was")
            return
        had = position in self.session.labels.comments
        try:
            on_disk = saves.write_comment(self.session, position, typed_comment(text))
        except (DicehallError, OSError) as error:
            self.status(saves.error_line(error), error=True)
            return
        now = position in self.session.labels.comments
        done = ("comment removed from" if had and not now else "comment changed on" if had
                else "comment written on" if now else "nothing written (an empty comment) on")
        kept = ("kept with the save" if on_disk else
                "kept in memory only: x writes a copy of the replay with your comments")
        self.status(f"{done} {where}; {kept}" if had or now else f"{done} {where}")
        self.redraw()
        self.refresh_bindings()

    def action_write_comments(self) -> None:
        from dicehall import replays, saves
        from dicehall.saves.box import on_box

        name = clean_text(self.session.labels.save_name or self.session.game.ID)
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "game"
        default = f"{stem} (comments){replays.SUFFIX}"

        def chosen(answer: str | None) -> None:
            if answer is None:
                self.status("nothing written")
                return
            # on a shared box a file name in the player's replays folder (saves.write_export), never a path
            target = (answer.strip() or default) if on_box() else Path(answer.strip() or default).expanduser()
            try:
                written = saves.write_export(self.session, stem, target, overwrite=False)
            except (DicehallError, OSError) as error:
                self.status(saves.error_line(error), error=True)
                return
            self.status(f"wrote {clean_text(str(written), 60)} with "
                        f"{counted(len(self.session.labels.comments), 'comment')}")

        where = "your replays folder, by a file name " if on_box() else ""
        self.app.push_screen(AskScreen(f"Write a copy of this replay with your comments to {where}(Enter alone: {default}):",
                                       placeholder=default), chosen)

    def draw_comment(self) -> None:
        panel = self.query_one(CommentPanel)
        panel.draw_comment(self.session.labels.comments.get(self.position), panel.size.width or 48)

    def event_comment(self, index: int) -> str:
        """The marker of event `index` (from 0) in the event list: `{}` where it has a comment."""
        return MARKER if index + 1 in self.session.labels.comments else ""
