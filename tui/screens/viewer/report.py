"""The viewer's report per player (issue #22): `s` after `a` shows, per seat, the accuracy, the error
rate, the marks, the luck and the luck-adjusted result (engine/analysis/report.py works them out;
this module only draws them, in a box the size of the help's, fitting 80x24 for two players)."""
from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from dicehall.engine.analysis import MARK_PLURALS, MARK_WORDS, MARKS, PULLS_LEFT
from dicehall.engine.analysis.report import Report, SeatReport
from dicehall.engine.text import clean_text
from dicehall.tui.screens.dialogs import HelpScreen
from dicehall.tui.widgets import Plain

NAME_WIDTH = 30  # a player's name as the report shows it (names are data: cleaned and cut)


def _marks(seat: SeatReport) -> str:
    return ", ".join(f"{seat.marks[m]} {m} {MARK_WORDS[m] if seat.marks[m] == 1 else MARK_PLURALS[m]}"
                     for m in reversed(MARKS))


def seat_block(report: Report, seat: SeatReport) -> list[str]:
    """A seat's lines: its name, then its figures in words (marks as symbols and words, never colour)."""
    lines = [clean_text(seat.name, NAME_WIDTH) or f"seat {seat.seat + 1}"]
    if seat.decisions:
        lines.append(f"  accuracy {seat.accuracy:.1f}%  error rate {seat.error_rate:.1%} of {report.figure} "
                     f"a decision ({seat.decisions} judged)")
        lines.append(f"  marks: {_marks(seat)}")
    elif report.figure != PULLS_LEFT:
        lines.append("  no decision judged (a bot's, or none to make)")
    if report.figure == PULLS_LEFT:
        lines.append(f"  luck {seat.luck:+.2f} pulls")
        if seat.result is not None:
            lines.append(f"  lasted {seat.result:.0f} pulls; luck-adjusted {seat.adjusted:.2f}")
        return lines
    luck = ""
    if report.rated_luck:
        net = f" (net {seat.net_luck:+.1%})" if len(report.seats) > 1 else ""
        luck = f"luck {seat.luck:+.1%}{net}"
    if seat.result is None:
        lines.append(f"  {luck}{'; ' if luck else ''}unfinished: no result yet")
    else:
        adjusted = f"; luck-adjusted {seat.adjusted:.2f}" if report.rated_luck else ""
        lines.append(f"  {luck}{'; ' if luck else ''}result {seat.result:g}{adjusted}")
    return lines


def report_text(title: str, report: Report, running: bool) -> Text:
    text = Text()
    text.append(f"Report per player: {clean_text(title, 40)}", style="bold")
    text.append("  (Esc closes)\n")
    if running:
        text.append("(so far: the analysis is still running)\n")
    for seat in report.seats:
        text.append("\n" + "\n".join(seat_block(report, seat)) + "\n")
    text.append(f"\n{report.luck_against}.\nAccuracy: lichess's curve of each decision's drop in win chance "
                "(100 for the best found), averaged; error rate: what a decision cost on average.")
    return text


class ReportScreen(HelpScreen):
    """The report over the viewer, in the help's box (its frame says when there is more below)."""

    BINDINGS = [Binding("escape,q,s,enter", "close", "Close")]

    def __init__(self, title: str, report: Report, running: bool = False) -> None:
        super().__init__(title, [], "")
        self.report = report
        self.running = running

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Plain(report_text(self.title_text, self.report, self.running), id="report")

    # Textual runs each class's on_mount in turn (no override): this one takes the event to stop the help's
    def on_mount(self, event: events.Mount) -> None:  # type: ignore[override]
        event.prevent_default()  # the help's own on_mount draws its key rows: there are none here
        box = self.query_one("#help-box", VerticalScroll)
        self.watch(box, "scroll_y", self.say_more, init=False)
        self.watch(box, "virtual_size", self.say_more, init=False)
        self.call_after_refresh(self.say_more)
