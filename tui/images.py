"""Images to share (issue #32), for `dicehall export SAVE --svg`: the replay viewer's screen at one
event as a terminal of 80x24 shows it (Textual draws it without a terminal: the same screen, the
move's mark and the figures of a stored analysis included), and with --graph the analysis's graph
along the game at 80 columns, its marks and the marked decisions under it (Rich records it). The
command line imports this module only when an image is asked for; tui/svg.py makes the SVG."""
from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from dicehall.engine import Session
from dicehall.engine.analysis import PULLS_LEFT, Analysis
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.viewer import ViewerScreen, replay_title
from dicehall.tui.screens.viewer.analysis import Drawn, detail, graph_rows, judged
from dicehall.tui.svg import clean_svg, image_title, screen_svg
from dicehall.tui.terminal import FULL
from dicehall.tui.widgets import KeysFooter

SIZE = (80, 24)  # the terminal every screen is made for
GRAPH_ROWS = 8  # the graph's height in an image (the viewer's panel has two)
SCALE = 5  # the columns left of the graph: "100% " at its top, "  0% " at its bottom
FOOTER_WAITS = 500  # pauses of 10 ms (5 s) before the image is taken without its footer
LISTED = 30  # marked decisions listed under the graph; the rest are counted


class StillViewer(ViewerScreen):
    """The replay viewer as an image shows it: at one event, with the analysis given (a stored
    one) shown as `a` shows it. Nothing starts in the background (the troll's pool is `a`'s)."""

    def __init__(self, session: Session, position: int, result: Analysis | None) -> None:
        super().__init__(session, position=position)
        self.analysis = result

    def prepare_analysis(self) -> None:
        pass


class ImageApp(DicehallApp):
    """The app with one screen, the still viewer, drawn in colour and box lines (a browser shows both)."""

    def __init__(self, viewer: StillViewer) -> None:
        super().__init__(terminal=FULL)
        self.viewer = viewer

    def get_default_screen(self) -> StillViewer:  # type: ignore[override]  # the launcher's place
        return self.viewer


def viewer_svg(session: Session, position: int, result: Analysis | None = None) -> str:
    """The replay viewer's screen at `position` (0 to the number of events), with `result` shown."""
    taken: list[str] = []

    async def take(pilot) -> None:
        # mounted, its keys bound (a moment at most: an image is never withheld), then drawn
        for _ in range(FOOTER_WAITS):
            await pilot.pause(0.01)
            if any(footer.keys_now() for footer in pilot.app.screen.query(KeysFooter)):
                break
        await pilot.pause()
        taken.append(screen_svg(pilot.app, image_title(session.game.TITLE, position, len(session.events))))
        pilot.app.exit()

    ImageApp(StillViewer(session, position, result)).run(headless=True, size=SIZE, auto_pilot=take)
    if not taken:  # the app ended before it was drawn: a bug, said as one
        raise RuntimeError("the viewer ended before it was drawn")
    return taken[0]


def graph_lines(session: Session, result: Analysis, position: int, width: int) -> list[Text]:
    """The graph image's lines: the replay's title, the legend, the graph with its scale, the marks
    row, the analysis's summary and what it says at `position`, then each marked decision."""
    total, drawn = len(session.events), Drawn.of(result)
    names = [session.labels.seat_name(session.players, seat) for seat in range(len(session.players))]
    outcome = session.outcome
    lines = [Text(replay_title(session.game.TITLE, session.labels.save_name, ", ".join(names),
                               outcome.summary if outcome else "unfinished", width), style="bold")]
    here = "the end" if position == total else f"event {position}"
    lines.append(Text(f"{result.figure} along the game; marks ! ?!, ? ?, X ??; ^ {here}"))
    top = "100%" if result.figure != PULLS_LEFT else f"{drawn.top:.1f}"
    bottom = "0%" if result.figure != PULLS_LEFT else "0"
    rows = graph_rows(result, total, position, width - SCALE, False, False, drawn, rows=GRAPH_ROWS)
    for number, row in enumerate(rows):
        label = top if number == 0 else bottom if number == GRAPH_ROWS - 1 else ""
        lines.append(Text(f"{label:>{SCALE - 1}} ") + row)
    lines.append(Text(f"analysis: {result.summary()}"))
    said = detail(result, drawn, position, names, total)
    if said:
        lines.append(Text(said))
    marked = [d for d in result.decisions if d.mark]
    for decision in marked[:LISTED]:
        who = f", {names[decision.seat]}" if 0 <= decision.seat < len(names) and len(names) > 1 else ""
        lines.append(Text(f"event {decision.event}{who}: {judged(decision, result)}"))
    if len(marked) > LISTED:
        lines.append(Text(f"and {len(marked) - LISTED} more marked decisions"))
    return lines


def graph_svg(session: Session, result: Analysis, position: int) -> str:
    """The analysis's graph along the game at 80 columns, with its marks, as SVG."""
    width, total = SIZE[0], len(session.events)
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      legacy_windows=False, safe_box=False)
    for line in graph_lines(session, result, position, width):
        console.print(line)  # a Text: never read as markup
    return clean_svg(console.export_svg(title=image_title(session.game.TITLE, position, total, ", the analysis")))
