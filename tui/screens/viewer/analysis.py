"""The analysis in the replay viewer (issue #14): `a` judges the whole game in a worker thread while
the viewer stays usable, a panel draws the figure along the game as a text graph with the marked
decisions under it and says what the shown position's decision or roll was worth, and keys jump to
the marked decisions and to the costliest one. The analysers are engine/analysis; this module only
runs them and draws what they found."""
from __future__ import annotations

import threading
import time
from bisect import bisect_right
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message
from textual.timer import Timer
from textual.worker import Worker, get_current_worker

from dicehall.engine import analysis
from dicehall.engine.analysis import ANALYSERS, MARK_WORDS, MARKS, PULLS_LEFT, Analysis, Decision, Luck
from dicehall.engine.games import entry_of
from dicehall.tui.widgets import Redrawn, StatusLine, clip

if TYPE_CHECKING:
    from textual import getters

    from dicehall.engine import Session
    from dicehall.tui.parlor import ParlorApp
    from dicehall.tui.screens.base import KeyedScreen as ViewerBase
else:
    ViewerBase = object  # a mixin: the viewer gives the rest (the type checker sees it)

GRAPH_MARKS = {"?!": "!", "?": "?", "??": "X"}  # one column per mark under the graph
BLOCKS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"  # eighths of a cell, from empty to full
ASCII_LEVELS = " .:#"  # thirds of a cell, for a terminal without block characters
BAR_WIDTH = 20  # the progress bar's cells
DRAW_EVERY = 0.1  # seconds between two draws of the panel while the analysis reports (the last is always drawn)


class AnalysisStopped(Exception):
    """The viewer was left (or the worker cancelled): the analysis gives up at its next report."""


class News:
    """The latest the analysing thread has found (the result so far, how far it has got), kept for the
    viewer: the thread posts a report only when the viewer has taken the last one, so a result and
    its progress told together (the troll tells both per turn) are one report, not two redraws."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.result: Analysis | None = None
        self.progress: tuple[int, int] | None = None
        self.told = False  # a report is on its way and has not been taken yet

    def put(self, result: Analysis | None = None, progress: tuple[int, int] | None = None) -> bool:
        """Keep the news; True when a report must be posted (none is on its way)."""
        with self.lock:
            self.result = self.result if result is None else result
            self.progress = self.progress if progress is None else progress
            posted, self.told = self.told, True
            return not posted

    def take(self) -> tuple[Analysis | None, tuple[int, int] | None]:
        with self.lock:
            self.told = False
            return self.result, self.progress


@dataclass
class AnalysisReport(Message):
    """What the analysing thread has to say: news (a result so far, how far it has got), the whole
    result, or why it failed. `worker` tells a report of an analysis given up from the current one."""

    worker: Worker
    news: News | None = None
    result: Analysis | None = None
    finished: bool = False
    error: str = ""


def percent(value: float) -> str:
    return f"{value:.0%}"


def figure_value(result: Analysis, value: float) -> str:
    return percent(value) if result.figure != PULLS_LEFT else f"{value:.2f}"


def mark_words(mark: str) -> str:
    """A mark as its symbol and its word ("?? blunder"): never colour alone."""
    return f"{mark} {MARK_WORDS[mark]}" if mark else ""


def thresholds_note(game_id: str, title: str) -> str:
    """This game's marks and what earns them, for the help (the README's Analysis section says the same):
    in every game the loss alone (a move that ends the game at once is said so in words beside it)."""
    if not analysis.has_analyser(game_id):
        return f"{title} has no analysis yet."
    module = import_module(ANALYSERS[game_id])
    thresholds = getattr(module, "THRESHOLDS", None)
    if thresholds is None:
        return ("No decisions to judge here: the graph is the expected pulls left along the game, and each "
                "roll's luck is in pulls (positive: the tower stands longer than expected).")
    if entry_of(game_id).marks_by_margin:
        sizes, unit = ", ".join(f"{t:g}" for t in thresholds), "points of the final margin lost"
    else:
        sizes, unit = ", ".join(f"{t * 100:g}" for t in thresholds), getattr(module, "MARKS_UNIT", "points of win chance lost")
    return (f"Marks: ?! inaccuracy, ? mistake, ?? blunder for {sizes} {unit}; "
            "under the graph ! ? X, and ^ the event shown.")


@dataclass
class Drawn:
    """What the panel draws of one result, worked out once (a long tower has a point per event):
    the graph's points (positions and values), its top, and the decisions and luck by event."""

    events: list[int]
    values: list[float]
    top: float
    decisions: dict[int, Decision]
    luck: dict[int, Luck]

    @classmethod
    def of(cls, result: Analysis) -> "Drawn":
        """The curve, and where it has no point just after a decision (the troll and Towers value
        the position before each decision), the chance with the move played: a costly move shows
        as a drop where it was made."""
        points = {point.event: point.value for point in result.curve}
        for decision in result.decisions:
            points.setdefault(decision.event, decision.chance_played)
        events = sorted(points)
        values = [points[event] for event in events]
        top = 1.0 if result.figure != PULLS_LEFT else max(values, default=1.0) or 1.0
        return cls(events, values, top, {d.event: d for d in result.decisions}, {c.event: c for c in result.chance})

    def value_at(self, position: int) -> float | None:
        """The figure at a position: the last point drawn at or before it."""
        index = bisect_right(self.events, position)
        return self.values[index - 1] if index else None

    def decision_near(self, position: int) -> tuple[Decision | None, bool]:
        """The decision about to be made at `position` (its first event is the next one), else the
        one whose first event was just played; and whether it is still to be played."""
        if position + 1 in self.decisions:
            return self.decisions[position + 1], True
        return self.decisions.get(position), False


def judged(decision: Decision, result: Analysis) -> str:
    """A decision in words: its mark, the move played and the best move with their chances."""
    equity = (lambda e: f", equity {percent(e)}") if decision.equity_best is not None else (lambda e: "")
    facts = f", {decision.words}" if decision.words else ""  # what the figures do not say: "ends the game at once"
    played = (f"{decision.played} ({analysis.figure_of(result, decision.seat)} {percent(decision.chance_played)}"
              f"{equity(decision.equity_played)}{facts})")
    if decision.played == decision.best or decision.drop <= 0:
        return f"{played}, as good as the best found"
    head = f"{mark_words(decision.mark)}: " if decision.mark else ""
    return f"{head}{played}; best: {decision.best} ({percent(decision.chance_best)}{equity(decision.equity_best)})"


def detail(result: Analysis, drawn: Drawn, position: int, names: list[str], total: int) -> str:
    """What the analysis says at the position shown: the decision there, a roll's luck, or the figure."""
    decision, to_play = drawn.decision_near(position)
    if decision is not None:
        who = names[decision.seat] if 0 <= decision.seat < len(names) and len(names) > 1 else ""
        when = f"event {decision.event}{', ' + who if who else ''}, {'to play' if to_play else 'played'}"
        return f"{when}: {judged(decision, result)}"
    luck = drawn.luck.get(position)
    if luck is not None:
        amount = f"{luck.luck:+.0%} win chance" if result.figure != PULLS_LEFT else f"{luck.luck:+.2f} pulls"
        word = "lucky" if luck.luck > 0.005 else "unlucky" if luck.luck < -0.005 else "as expected"
        who = f" for {names[luck.seat]}" if len(names) > 1 and 0 <= luck.seat < len(names) else ""
        return f"event {luck.event}: luck {amount}{who} ({word})"
    value = drawn.value_at(position)
    if value is None:
        return f"event {position}: not judged" if position < total else ""
    return f"{result.figure} {figure_value(result, value)} at event {position}"


def one_line(result: Analysis, drawn: Drawn, position: int, names: list[str], total: int, width: int) -> str:
    """What the analysis says at the position shown, in one line of `width` (the panel shrinks to it
    while the hindsight answer shows): the words of the full panel where they fit, else the decision
    with its mark as a symbol, the move played and the best move, each with its chance."""
    said = detail(result, drawn, position, names, total) or f"analysis: {result.summary()}"
    decision, _ = drawn.decision_near(position)
    if len(said) <= width or decision is None:
        return clip(said, width)
    who = names[decision.seat] if 0 <= decision.seat < len(names) and len(names) > 1 else ""
    head = f"{decision.mark + ' ' if decision.mark else ''}event {decision.event}{', ' + who if who else ''}"
    played = f"{head}: {decision.played} {percent(decision.chance_played)}{', ' + decision.words if decision.words else ''}"
    if decision.played == decision.best or decision.drop <= 0:
        return clip(f"{played}, as good as the best found", width)
    return clip(f"{played}; best: {decision.best} {percent(decision.chance_best)}", width)


def column_of(position: int, total: int, width: int) -> int:
    """The graph's column of a position (0 to total): the game spread over the whole width."""
    return position * (width - 1) // max(1, total)


def last_in_column(column: int, total: int, width: int) -> int:
    """The last position drawn in a column (the one before it when a short game spreads out)."""
    return min(total, ((column + 1) * total - 1) // (width - 1))


def graph_rows(result: Analysis, total: int, position: int, width: int, plain: bool, running: bool,
               drawn: Drawn | None = None, rows: int = 2) -> list[Text]:
    """The figure along the game in `rows` rows of cells (two in the panel; more in an image),
    then the marks row (! ? X under the decisions, ^ at the position shown). While the analysis
    runs, the graph stops at its last point."""
    drawn = drawn or Drawn.of(result)
    events, values, top = drawn.events, drawn.values, drawn.top
    last = column_of(events[-1] if running and events else total, total, width)
    levels = len(ASCII_LEVELS) - 1 if plain else len(BLOCKS) - 1
    cells = ASCII_LEVELS if plain else BLOCKS
    stacked: list[list[str]] = [[] for _ in range(rows)]  # from the top row down
    for column in range(width):
        index = bisect_right(events, last_in_column(column, total, width))
        if not index or column > last:
            for row in stacked:
                row.append(" ")
            continue
        value = max(0.0, min(1.0, values[index - 1] / top))
        height = 1 + round(value * (rows * levels - 1))  # 1 at nothing: a line, so 0% is not a blank
        for above, row in enumerate(reversed(stacked)):  # the bottom row first
            row.append(cells[max(0, min(levels, height - above * levels))])
    marks = [" "] * width
    for decision in result.decisions:
        if decision.mark:
            column = column_of(decision.event - 1, total, width)
            shown = next((m for m, c in GRAPH_MARKS.items() if c == marks[column]), "")
            if not shown or MARKS.index(decision.mark) > MARKS.index(shown):  # the worst mark of the column
                marks[column] = GRAPH_MARKS[decision.mark]
    cursor = column_of(position, total, width)
    if marks[cursor] == " ":
        marks[cursor] = "^"
    drawn_rows = []
    for cells_row in (*stacked, marks):
        line = Text("".join(cells_row))
        line.stylize("reverse", cursor, cursor + 1)
        drawn_rows.append(line)
    return drawn_rows


def progress_bar(done: int, total: int) -> str:
    filled = BAR_WIDTH * done // total if total else 0
    return f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {done} of {total}" if total else "(starting)"


class AnalysisPanel(Redrawn):
    """The analysis under the events: a header (the figure, or the progress while it runs), the
    graph, the marks, and what the shown position's decision or roll was worth."""

    drawn_for: tuple[Analysis | None, Drawn | None] = (None, None)  # worked out once per result, not per step

    shape: list[str] = []  # what sets the panel's height: its lines, and the words of those that wrap
    if TYPE_CHECKING:
        app = getters.app(ParlorApp)  # what the terminal can draw (tui/parlor.py)

    def show_lines(self, text: Text) -> None:
        """Show `text`, the screen laid out again only when the panel's height may change: while the
        analysis streams, most reports change a figure or the bar, not the lines."""
        width = self.size.width
        shape = [line if cell_len(line) > width else "" for line in text.plain.split("\n")]
        self.show(text, layout=shape != self.shape)
        self.shape = shape

    def lay_out(self, result: Analysis | None, progress: tuple[int, int] | None, running: bool, total: int,
                position: int, names: list[str], short: bool = False) -> None:
        """`short`: one line, no graph (the hindsight answer shows below it, and the events keep
        their room at 80x24): the progress while it runs, then what is said at the position shown."""
        width = max(10, self.size.width or 48)
        if result is not None and self.drawn_for[0] is not result:
            self.drawn_for = (result, Drawn.of(result))
        drawn = self.drawn_for[1]
        if short:
            if running or result is None:
                done, whole = progress or (0, 0)
                line = f"analysing {progress_bar(done, whole)}"
            else:
                assert drawn is not None  # drawn with the result
                line = one_line(result, drawn, position, names, total, width)
            self.show_lines(Text(clip(line, width)))
            return
        text = Text()
        if running:
            done, whole = progress or (0, 0)
            text.append(f"analysing {progress_bar(done, whole)}", style="bold")
        if result is not None and not running:
            assert drawn is not None
            scale = "0-100%" if result.figure != PULLS_LEFT else f"0-{drawn.top:.1f}"
            legend = "  marks !=?! ?=? X=??  ^=here" if result.decisions else "  ^=here"
            text.append(f"{result.figure} {scale}", style="bold")
            text.append(legend)
        if result is not None and total > 0:
            assert drawn is not None
            plain = not self.app.terminal.box_lines
            for row in graph_rows(result, total, position, width, plain, running, drawn):
                text.append("\n")
                text.append_text(row)
            said = detail(result, drawn, position, names, total)
            if said:
                text.append("\n" + said)
        elif running:
            text.append("\nthe first results show here as they come")
        self.show_lines(text)


class AnalysedViewer(ViewerBase):
    """The viewer's analysis keys and its worker (mixed into ViewerScreen, which binds the keys and,
    with HindsightViewer, says whether the hindsight answer shows: the panel is then one line)."""

    if TYPE_CHECKING:  # the viewer's
        session: Session
        position: int
        def redraw(self) -> None: ...
        def go(self, position: int) -> None: ...
        def event_marks(self) -> dict[int, str] | None: ...
        @property
        def hindsight_displayed(self) -> bool: ...

    ANALYSIS_SAMPLES: int | None = None  # sampled deals per decision (None: the game's default; tests use a few)
    analyser = staticmethod(analysis.analyse)  # what `a` runs: engine.analysis.analyse (a test may stand in)

    analysis: Analysis | None = None
    analysis_worker: Worker | None = None
    analysis_progress: tuple[int, int] | None = None
    analysis_shown = True

    @property
    def analysis_running(self) -> bool:
        return self.analysis_worker is not None

    def prepare_analysis(self) -> None:
        """As the viewer opens: start in the background what `a` will need (the troll's process
        pool's server), so the analysis starts as fast as from the command line."""
        game = self.session.game.ID
        if analysis.has_analyser(game):
            self.run_worker(lambda: analysis.prepare(game), thread=True, group="analysis-prepare",
                            exit_on_error=False)

    def start_analysis(self) -> None:
        screen, session, samples, analyse = self, self.session, self.ANALYSIS_SAMPLES, self.analyser

        def work() -> None:
            worker = get_current_worker()
            shown = [-1]  # the last progress in hundredths told: a long tower reports every event
            news = News()

            def tell(result: Analysis | None = None, progress: tuple[int, int] | None = None) -> None:
                if worker.is_cancelled:
                    raise AnalysisStopped
                if news.put(result, progress):
                    screen.post_message(AnalysisReport(worker, news=news))

            def progress(done: int, total: int) -> None:
                if worker.is_cancelled:
                    raise AnalysisStopped
                hundredths = 100 * done // max(1, total)
                if hundredths != shown[0]:
                    shown[0] = hundredths
                    tell(progress=(done, total))

            def partial(result: Analysis) -> None:
                tell(result=result)

            warnings: list[str] = []
            try:
                if analyse is analysis.analyse:  # the real analyser: a stored analysis serves, a new one is stored
                    from dicehall.saves.analyses import analyse_stored

                    result = analyse_stored(session, samples=samples, warn=warnings.append, progress=progress,
                                            partial=partial)
                else:
                    result = analyse(session, samples=samples, progress=progress, partial=partial)
            except AnalysisStopped:
                return
            except Exception as error:  # a replay the analyser cannot follow: one line, never a traceback
                screen.post_message(AnalysisReport(worker, error=str(error) or type(error).__name__))
                return
            screen.post_message(AnalysisReport(worker, result=result, finished=True, error="; ".join(warnings)))

        self.analysis_shown = True
        self.analysis_worker = self.run_worker(work, thread=True, group="analysis", exclusive=True,
                                               exit_on_error=False)
        self.status("analysing the whole game; the viewer works meanwhile (q stops it)")
        self.refresh_bindings()
        self.redraw()

    def stop_analysis(self) -> None:
        if self.analysis_worker is not None:
            self.analysis_worker.cancel()  # the thread stops at its next report
            self.analysis_worker = None

    def analysis_keys(self) -> tuple[bool, bool, bool]:
        """What the analysis keys the footer offers depend on (analysis_possible, footer_shows)."""
        return self.analysis_running, self.analysis is not None, bool(self.analysis and self.analysis.decisions)

    kept_status: str | None = None  # an answer the analysis's end does not replace: where e's image went (picture.py)
    analysis_drawn_at = 0.0  # time.monotonic() of the panel's last draw while reports stream
    analysis_draw_due: Timer | None = None  # the Timer of a draw put off (DRAW_EVERY), which draws the latest news

    def on_analysis_report(self, report: AnalysisReport) -> None:
        if report.worker is not self.analysis_worker:
            return  # from an analysis given up
        keys, marks = self.analysis_keys(), self.event_marks()
        if report.news is not None:
            result, progress = report.news.take()
            self.analysis = self.analysis if result is None else result
            self.analysis_progress = self.analysis_progress if progress is None else progress
        if report.result is not None:
            self.analysis = report.result
        if report.finished:
            self.analysis_worker = None
            warning = f"{report.error}; " if report.error else ""  # a damaged stored analysis, analysed again
            assert report.result is not None  # a finished report carries its result
            if warning or self.query_one(StatusLine).message != self.kept_status:  # e's answer stays
                self.status(f"{warning}analysis done: {report.result.summary()}")
        elif report.error:
            self.analysis_worker = None
            self.status(f"the analysis stopped: {report.error}", error=True)
        if self.analysis_keys() != keys:  # the footer is built anew on each refresh: only when a key comes or goes
            self.refresh_bindings()
        if self.analysis_running and self.event_marks() == marks:
            self.draw_analysis_soon()  # only the panel changed: the rest of the screen stays as drawn
        else:
            self.redraw()  # done, or a new mark for the event list

    def draw_analysis_soon(self) -> None:
        """Draw the panel now, or DRAW_EVERY after its last draw: reports stream faster than a
        player reads, and each draw costs the viewer's process what the analysis could use."""
        if self.analysis_draw_due is not None:
            return  # a draw is due, and it draws the latest
        wait = self.analysis_drawn_at + DRAW_EVERY - time.monotonic()
        if wait > 0:
            self.analysis_draw_due = self.set_timer(wait, self.draw_analysis)
        else:
            self.draw_analysis()

    def draw_analysis(self) -> None:
        """The analysis panel, as the analysis and the position shown are now (redraw draws it too)."""
        if self.analysis_draw_due is not None:
            self.analysis_draw_due.stop()
            self.analysis_draw_due = None
        self.analysis_drawn_at = time.monotonic()
        session = self.session
        panel = self.query_one(AnalysisPanel)
        panel.display = self.analysis_running or (self.analysis is not None and self.analysis_shown)
        if panel.display:
            # with the hindsight answer under it, one line: the events keep 8 lines at 80x24
            panel.draw(self.analysis, self.analysis_progress, self.analysis_running, len(session.events),
                       self.position, [session.labels.seat_name(session.players, seat) for seat in range(len(session.players))],
                       short=self.hindsight_displayed)

    def action_analyse(self) -> None:
        if self.analysis is None or self.analysis_running:
            self.start_analysis()
            return
        self.analysis_shown = not self.analysis_shown
        shown = ("analysis shown in one line while the hindsight answer shows (H hides that: the graph comes "
                 "back; a hides it)" if self.hindsight_displayed else "analysis shown (a hides it)")
        self.status(shown if self.analysis_shown else "analysis hidden (a shows it)")
        self.redraw()

    def marked(self) -> list[Decision]:
        return [d for d in self.analysis.decisions if d.mark] if self.analysis else []

    def land_on(self, decision: Decision, said: str) -> None:
        """Go to where `decision` is made (its move not yet played: c branches from there)."""
        self.analysis_shown = True
        self.go(decision.event - 1)
        better = "; c tries the better move from here" if decision.drop > 0 else ""
        self.status(f"{said}: event {decision.event}, {mark_words(decision.mark) or 'no mark'}{better}")

    def action_marked(self, step: int) -> None:
        marked = self.marked()
        if step > 0:
            found = [d for d in marked if d.event - 1 > self.position]
            chosen = found[0] if found else None
        else:
            found = [d for d in marked if d.event - 1 < self.position]
            chosen = found[-1] if found else None
        if chosen is None:
            where = "after" if step > 0 else "before"
            still = " (the analysis is still running)" if self.analysis_running else ""
            self.status(f"no marked decision {where} event {self.position}{still}", error=True)
            return
        number = marked.index(chosen) + 1
        self.land_on(chosen, f"marked decision {number} of {len(marked)}")

    def action_costliest(self) -> None:
        assert self.analysis is not None  # analysis_possible: the key needs an analysis
        worst = max(self.analysis.decisions, key=lambda d: d.drop)  # the first of equals
        if worst.drop <= 0:
            self.status("every decision judged was as good as the best found: none cost anything")
            return
        so_far = " so far" if self.analysis_running else ""
        self.land_on(worst, f"the costliest decision{so_far} ({percent(worst.drop)} of "
                               f"{worst.marked_by if worst.equity_best is not None else self.analysis.figure})")

    def action_report(self) -> None:
        from dicehall.engine.analysis import report
        from dicehall.tui.screens.viewer.report import ReportScreen

        assert self.analysis is not None  # analysis_possible: the key needs an analysis
        self.app.push_screen(ReportScreen(self.session.game.TITLE, report.report(self.analysis, self.session),
                                          running=self.analysis_running))

    def analysis_possible(self, action: str) -> bool | None:
        """check_action for the analysis keys: None hides a key that cannot work now."""
        if action == "report":
            return True if self.analysis is not None else None
        if action == "analyse":
            return True if analysis.has_analyser(self.session.game.ID) and not self.analysis_running else None
        return True if self.analysis is not None and self.analysis.decisions else None

    def analysis_refusal(self, action: str) -> str:
        title = self.session.game.TITLE
        if not analysis.has_analyser(self.session.game.ID):
            return f"{title} has no analysis yet"
        if action == "analyse":
            done, total = self.analysis_progress or (0, 0)
            far = f": {done} of {total} judged" if total else ""
            return f"the analysis is running{far} (q leaves the viewer and stops it)"
        if self.analysis_running:
            return "no decision judged yet: the analysis is running"
        if self.analysis is None:
            return "no analysis yet: a analyses the game" + (", then s shows the report" if action == "report" else "")
        return f"{title} has no decisions to judge: the graph shows its odds, and each roll its luck"
