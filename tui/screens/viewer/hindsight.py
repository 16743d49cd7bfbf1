"""A game's hindsight solver in the replay viewer (issue #14; the troll's, engine/analysis/troll_solver.py,
the module its catalogue entry names as `solver`): `H` asks first (it is a spoiler that looks at
the hidden cards), then the solver searches in a worker thread while
the viewer stays usable, with the positions searched on a line under the events; leaving stops it.
The answer stays on that line: a winning line from an event (and what the game played there), no
winning line (the search went to the end), or no answer (the budget ran out). `l` opens the line
as a game of its own in a viewer (tui/screens/viewer/line.py), where `c` branches a new save from
any point of it, and `j` goes to the event where the line starts. This module only runs the solver
and says what it found."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from rich.text import Text
from textual.message import Message
from textual.worker import Worker, get_current_worker

from dicehall.engine.games import entry_of
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.viewer.analysis import progress_bar
from dicehall.tui.widgets import Plain, clip

if TYPE_CHECKING:
    from dicehall.engine.analysis.troll_solver import Solution
    from dicehall.tui.screens.viewer.analysis import AnalysedViewer as HindsightBase
else:
    HindsightBase = object  # a mixin: the viewer gives the rest (the type checker sees it, and the analysis beside it)

LABEL = "hindsight (looks at the hidden cards)"
HINDSIGHT_ACTIONS = {"hindsight", "hindsight_line", "hindsight_start"}


@dataclass
class HindsightReport(Message):
    """What the solving thread has to say: how far it has got, its answer, or why it failed.
    `worker` tells a report of a search given up from the current one."""

    worker: Worker
    searched: int = 0
    solution: Solution | None = None
    error: str = ""


def positions(count: int) -> str:
    return f"{count:,} position" + ("" if count == 1 else "s")


def answer_lines(solution: Solution) -> list[str]:
    """The solver's answer in two lines at most (the status line has its whole summary): a line with
    a winning line's keys on the second, or one line that wraps to two."""
    keys = "l: step through the line  j: go there"
    if solution.won_as_played:
        return [f"{LABEL}: the game was won as played", "l: the game's own line  j: its first decision"]
    if solution.winnable:
        head = f"{LABEL}: a winning line from event {solution.from_event} (turn {solution.turn})"
        if solution.played and not solution.at_end:
            return [head, f"{keys} (the game played {solution.played} there)"]
        return [head, keys]
    if solution.winnable is False:
        return [f"{LABEL}: no winning line: searched to the end ({positions(solution.searched)})"]
    lost = f" (from event {solution.lost_from} on it could no longer be won)" if solution.lost_from else ""
    return [f"{LABEL}: the budget ran out after {positions(solution.searched)}: no answer{lost}"]


class HindsightPanel(Plain):
    """The solver's progress while it runs, then its answer, under the events."""

    DEFAULT_CSS = "HindsightPanel { height: auto; max-height: 2; display: none; }"

    def draw(self, solution: Solution | None, searched: int, budget: int, running: bool) -> None:
        width = max(10, self.size.width or 78)
        if running:
            lines = [f"{LABEL}: searching", f"{progress_bar(min(searched, budget), budget)} positions (q stops it)"]
        else:
            lines = answer_lines(solution) if solution is not None else []
        text = Text()
        for number, line in enumerate(lines):  # two lines each cut to the width, or one that wraps
            text.append(("\n" if number else "") + (clip(line, width) if len(lines) > 1 else line),
                        style="bold" if number == 0 else "")
        self.show(text)


class HindsightViewer(HindsightBase):
    """The viewer's hindsight keys and their worker (mixed into ViewerScreen, which binds the keys)."""

    HINDSIGHT_BUDGET: float | None = None  # seconds, counted in positions (the answer repeats); None: the solver's own
    HINDSIGHT_NODES: int | None = None  # positions instead of seconds (tests use a tiny budget)
    solves = True  # the solver's own line is not asked again (tui/screens/viewer/line.py)

    hindsight: Solution | None = None
    hindsight_worker: Worker | None = None
    hindsight_searched = 0
    hindsight_shown = True

    @property
    def hindsight_running(self) -> bool:
        return self.hindsight_worker is not None

    def game_solver(self) -> ModuleType:
        """This game's hindsight solver: the module its catalogue entry names (asked only where it has one)."""
        return import_module(entry_of(self.session.game.ID).solver)

    def solver(self, *arguments, **options):
        """What `H` runs: the game solver's solve (a test may stand in)."""
        return self.game_solver().solve(*arguments, **options)

    def hindsight_seconds(self) -> float:
        return self.game_solver().DEFAULT_BUDGET if self.HINDSIGHT_BUDGET is None else self.HINDSIGHT_BUDGET

    def hindsight_budget(self) -> int:
        """The budget in positions, as solve counts it."""
        if self.HINDSIGHT_NODES is not None:
            return max(1, self.HINDSIGHT_NODES)
        return max(1, int(self.hindsight_seconds() * self.game_solver().NODES_PER_SECOND))

    def action_hindsight(self) -> None:
        if self.hindsight is not None:
            self.hindsight_shown = not self.hindsight_shown
            analysed = self.analysis is not None and self.analysis_shown  # one line under it: the events keep room
            shown = "hindsight shown (H hides it)" + ("; the analysis is one line meanwhile" if analysed else "")
            self.status(shown if self.hindsight_shown else "hindsight hidden (H shows it)")
            self.redraw()
            return
        unfinished = "" if self.session.outcome else " The game is not over: it tells how to play the rest."
        question = ("Hindsight: was this deal winnable? The solver looks at the hidden cards (the deck order, "
                    f"the face-down cards and the seed's dice): a spoiler.{unfinished} Search now?")
        self.app.push_screen(ConfirmScreen(question), lambda yes: self.start_hindsight() if yes else None)

    def start_hindsight(self) -> None:
        if not self.assisted(self.session, "hindsight"):  # on a game not over it tells how to play the rest
            return
        screen, session, solve = self, self.session, self.solver
        budget, nodes = self.hindsight_seconds(), self.HINDSIGHT_NODES

        def work() -> None:
            worker = get_current_worker()
            told = [-1]  # the last hundredth of the budget told: the solver reports every 256 positions

            def progress(searched: int, allowed: int) -> None:
                hundredths = 100 * searched // screen.hindsight_budget()
                if hundredths != told[0]:
                    told[0] = hundredths
                    screen.post_message(HindsightReport(worker, searched=searched))

            try:
                solution = solve(session, budget, nodes=nodes, should_stop=lambda: worker.is_cancelled,
                                 progress=progress)
            except Exception as error:  # a replay the solver cannot follow: one line, never a traceback
                screen.post_message(HindsightReport(worker, error=str(error) or type(error).__name__))
                return
            if not worker.is_cancelled:
                screen.post_message(HindsightReport(worker, solution=solution, searched=solution.searched))

        self.hindsight_shown = True
        self.hindsight_searched = 0
        self.hindsight_worker = self.run_worker(work, thread=True, group="hindsight", exclusive=True,
                                                exit_on_error=False)
        self.status(f"hindsight: searching for a winning line (a budget of {positions(self.hindsight_budget())}); "
                    "the viewer works meanwhile (q stops it)")
        self.refresh_bindings()
        self.redraw()

    def stop_hindsight(self) -> None:
        if self.hindsight_worker is not None:
            self.hindsight_worker.cancel()  # the solver stops at its next should_stop()
            self.hindsight_worker = None

    def on_hindsight_report(self, report: HindsightReport) -> None:
        if report.worker is not self.hindsight_worker:
            return  # from a search given up
        self.hindsight_searched = max(self.hindsight_searched, report.searched)
        if report.error:
            self.hindsight_worker = None
            self.status(f"the hindsight search stopped: {report.error}", error=True)
        elif report.solution is not None:
            self.hindsight_worker = None
            self.hindsight = report.solution
            self.status(f"hindsight: {report.solution.summary()}")
        self.refresh_bindings()
        self.redraw()

    @property
    def hindsight_displayed(self) -> bool:
        """The panel under the events shows: while the solver runs and once it has answered (unless H hid it)."""
        return self.hindsight_running or (self.hindsight is not None and self.hindsight_shown)

    def draw_hindsight(self) -> None:
        panel = self.query_one(HindsightPanel)
        panel.display = self.hindsight_displayed
        if panel.display:
            panel.draw(self.hindsight, self.hindsight_searched, self.hindsight_budget(), self.hindsight_running)

    def action_hindsight_line(self) -> None:
        """The solver's line as a game of its own, in a viewer: step through it, branch from it."""
        assert self.hindsight is not None  # hindsight_possible: the key needs a winning line
        try:
            line = self.game_solver().line_session(self.session, self.hindsight)
        except Exception as error:  # solve checked the line; a replay changed under us says one line
            self.status(f"the line could not be played: {error}", error=True)
            return
        # the app opens it (it owns navigation): the line's viewer is a ViewerScreen, which is built on this module
        self.app.open_hindsight_line(line, self.hindsight, self.session.labels.save_name)

    def action_hindsight_start(self) -> None:
        """Go to where the line starts: the decision not yet played, so `c` branches from there."""
        solution = self.hindsight
        assert solution is not None  # hindsight_possible: the key needs a winning line
        self.hindsight_shown = True
        self.go(solution.from_event - 1)
        played = f"; the game played {solution.played} here" if solution.played and not solution.won_as_played else ""
        self.status(f"event {solution.from_event}: where the solver's line starts{played} "
                    f"(l steps through the line; c branches from here)")

    def hindsight_possible(self, action: str) -> bool | None:
        """check_action for the hindsight keys: None hides a key that cannot work now."""
        if not entry_of(self.session.game.ID).solver or not self.solves:
            return None
        if action == "hindsight":
            return None if self.hindsight_running else True
        return True if self.hindsight is not None and self.hindsight.winnable else None

    def hindsight_refusal(self, action: str) -> str:
        if not entry_of(self.session.game.ID).solver:
            return "only the troll has a hindsight solver"
        if not self.solves:
            return "this is the solver's line already: q goes back to the game"
        if self.hindsight_running:
            return (f"the hindsight search is running: {positions(self.hindsight_searched)} of "
                    f"{self.hindsight_budget():,} searched (q leaves the viewer and stops it)")
        if self.hindsight is None:
            return "no winning line yet: H asks the solver"
        if self.hindsight.winnable is False:
            return "no winning line: the solver searched to the end and found none"
        return f"no winning line: the budget ran out after {positions(self.hindsight.searched)} with no answer"


__all__ = ["HINDSIGHT_ACTIONS", "HindsightPanel", "HindsightReport", "HindsightViewer", "LABEL", "answer_lines"]
