"""The hindsight solver's winning line in a viewer of its own (tui/screens/viewer/hindsight.py):
the game's played events up to where the line starts, then the line with the seed's dice. The usual
keys step through it, and `c` branches a new save from any point of it; its title says whose line
it is, and that it was found by looking at the hidden cards."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from dicehall.engine import Session
from dicehall.tui.screens.viewer.screen import ViewerScreen
from dicehall.tui.widgets import Plain, clip

if TYPE_CHECKING:
    from dicehall.engine.analysis.troll_solver import Solution  # the solver's answer, whichever game's


class LineViewer(ViewerScreen):
    solves = False  # the line is the solver's answer: H, l and j are the game's viewer's keys

    def __init__(self, line: Session, solution: Solution, name: str = "") -> None:
        # a branch from here is named after the save and the line: "NAME hindsight line (branch)"
        line.labels.save_name = f"{name} hindsight line" if name else "hindsight line"
        super().__init__(line, position=solution.from_event - 1)
        self.solution = solution

    def help_title(self) -> str:
        return f"Hindsight line ({self.session.game.TITLE})"

    def on_mount(self) -> None:
        self.status(f"the solver's winning line starts at event {self.solution.from_event}: Right steps "
                    "through it; c branches a new save from any point; q goes back")

    def redraw(self) -> None:
        super().redraw()
        title = self.query_one("#title", Plain)
        width = max(20, title.across_width())
        text = f"Hindsight: the solver's winning line from event {self.solution.from_event} (it saw the hidden cards)"
        title.show(Text(clip(text, width), style="bold"), layout=False)
