"""The troll's replay viewer at 80x24 with everything open: every footer key on the screen, in a
terminal with arrows and colours and in a plain one (TERM=vt100: the arrows written as words),
whatever the footer holds now; and with the analysis and the hindsight answer both shown, the
events keep 8 lines (the analysis then says its piece in one line, and the graph comes back when
H hides the answer)."""
from __future__ import annotations

import re
import threading

import pytest

from dicehall.engine.analysis import Analysis, Decision, Point, troll_solver
from tests.apphelpers import drive, screen_text
from tests.test_viewer_analysis import instant, status, until, viewer_of
from tests.test_viewer_hindsight import lost_game, solved
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.screens.viewer.analysis import Drawn, one_line
from dicehall.tui.screens.viewer.hindsight import LABEL
from dicehall.tui.screens.viewer.line import LineViewer
from dicehall.tui.terminal import FULL, PLAIN
from dicehall.tui.widgets import KeysFooter

WIDTH = 80
# the decisions of lost_game() (events 4, 9, ... 29), judged as the troll analyser words them
COSTLY = Decision(9, 0, "move down then move left", "move down then move right", 0.0, 0.125, "?!")
ANALYSIS = Analysis("troll", "win chance", (
    Decision(4, 0, "stomp then move up", "stomp then move up", 0.06, 0.06, ""), COSTLY,
    Decision(24, 0, "move right then pick up right", "move right then pick up right", 0.12, 0.12, "")),
    (), (Point(3, 0.06), Point(8, 0.125), Point(23, 0.12), Point(28, 0.0)))
EVENT_LINE = re.compile(r"^ [ >] {0,3}\d+ ")  # " >  32 the bridge ...", "    27 turn 6: ..."
WHERE_LINE = re.compile(r"^ event \d+/\d+ ")  # the line under the events


@pytest.fixture(autouse=True)
def instant_analysis(monkeypatch):
    monkeypatch.setattr(ViewerScreen, "analyser", instant(ANALYSIS))


async def settle(pilot):
    """Let the footer draw the keys the screen has now (screen_text draws the screen: a test's app
    paints only once quiet, apphelpers.paint_once_quiet)."""
    footer = pilot.app.screen.query_one(KeysFooter)
    await until(pilot, lambda: bool(screen_text(pilot.app)) and footer.shown == footer.keys_now())


def footer_on_screen(pilot) -> tuple[str, list[str]]:
    """The footer line, and what is wrong with it: a line wider than the screen (a key or a group's
    word past the right edge), a key not written where it stands."""
    app = pilot.app
    footer = app.screen.query_one(KeysFooter)
    line = screen_text(app).splitlines()[-1]
    wrong = [f"the footer is {footer.line_width} wide"] if footer.line_width > WIDTH else []
    for start, end, key in footer.columns:
        if not 0 < end <= WIDTH:
            wrong.append(f"{key.display} at columns {start}-{end}")
        elif line[start:end] != key.display:
            wrong.append(f"{key.display} is not written at column {start}")
    return line, wrong


async def analysed(pilot):
    viewer = pilot.app.screen
    await pilot.press("a")
    await until(pilot, lambda: viewer.analysis is not None and not viewer.analysis_running)
    await settle(pilot)
    return viewer


@pytest.mark.parametrize("terminal", [FULL, PLAIN], ids=["colour", "vt100"])
def test_every_footer_key_of_the_troll_viewer_is_on_screen_at_80_columns(terminal, tmp_path, monkeypatch):
    searching, stop = threading.Event(), threading.Event()
    real_solve = troll_solver.solve

    def solver(session, budget, nodes=None, should_stop=None, progress=None):
        if not stop.is_set():  # the first search runs until the test has looked at the footer
            while not should_stop() and not stop.is_set():
                progress(25_600, 50_000)
                searching.set()
                threading.Event().wait(0.005)
            return troll_solver.Solution(None, 1, cancelled=True)
        return real_solve(session, budget, nodes=nodes, should_stop=should_stop, progress=progress)

    monkeypatch.setattr(ViewerScreen, "solver", staticmethod(solver))

    async def steps(pilot):
        seen = {}
        await settle(pilot)
        seen["start"] = footer_on_screen(pilot)
        viewer = await analysed(pilot)
        seen["analysed"] = footer_on_screen(pilot)  # n p w take a's place
        await pilot.press("H", "y")  # while H searches, r stands alone in the footer
        await until(pilot, searching.is_set)
        await settle(pilot)
        seen["searching"] = footer_on_screen(pilot)
        stop.set()
        await until(pilot, lambda: not viewer.hindsight_running)
        viewer.hindsight = None  # asked again, with the real solver
        await solved(pilot)
        await settle(pilot)
        seen["answered"] = footer_on_screen(pilot)
        await pilot.press("l")
        assert isinstance(pilot.app.screen, LineViewer)
        await analysed(pilot)
        seen["the solver's line, analysed"] = footer_on_screen(pilot)
        return seen

    seen = drive(viewer_of(lost_game(), tmp_path, terminal=terminal), steps)
    for state, (line, wrong) in seen.items():
        assert wrong == [], f"{state}: {wrong} in {line!r}"
    arrows = "Left Right Event" if terminal is PLAIN else "\u2190\u2192 Event"  # words apart, never "LeftRight"
    assert all(line.startswith(f" {arrows}  ") for line, _ in seen.values())
    assert "r H Spoilers  n p w Marked  c Branch  ? Help" in seen["analysed"][0]
    assert "r Reveal  n p w Marked  c Branch  ? Help" in seen["searching"][0]
    assert "r Reveal  n p w Marked" in seen["the solver's line, analysed"][0]


def viewer_app(tmp_path):
    return viewer_of(lost_game(), tmp_path)


def test_with_the_analysis_and_the_hindsight_answer_the_events_keep_8_lines(tmp_path):
    async def steps(pilot):
        viewer = await analysed(pilot)
        analysis_alone = screen_text(pilot.app)
        await solved(pilot)
        both = screen_text(pilot.app)
        await pilot.press("w")  # the costliest decision: its one line names the move played and the best
        at_costliest = screen_text(pilot.app), viewer.position
        await pilot.press("H")
        hidden = screen_text(pilot.app), status(pilot)
        await pilot.press("H")
        return analysis_alone, both, at_costliest, hidden, status(pilot)

    analysis_alone, both, (costliest, position), (graph_back, hid), shown = drive(viewer_app(tmp_path), steps)

    def events(text):
        """The event window's rows: from the first event to the line under the events."""
        lines = text.splitlines()
        first = next(n for n, line in enumerate(lines) if EVENT_LINE.match(line))
        return lines[first:next(n for n, line in enumerate(lines) if WHERE_LINE.match(line))]

    lines = both.splitlines()
    assert len(events(both)) >= 8, both
    assert any(line.startswith(" >  32 the bridge collapses") for line in lines)  # the current event is whole
    assert f" {LABEL}: a winning line from event 25 (turn 5)" in lines
    assert any(line.startswith(" l: step through the line  j: go there") for line in lines)
    assert " win chance 0% at event 32" in lines  # the analysis, in one line
    assert "win chance 0-100%" not in both and "win chance 0-100%" in analysis_alone  # no graph meanwhile

    assert position == COSTLY.event - 1 and len(events(costliest)) >= 8
    assert (" ?! event 9: move down then move left 0%; best: move down then move right 12%"
            in costliest.splitlines())

    assert "win chance 0-100%" in graph_back and LABEL not in graph_back  # H hid the answer: the graph is back
    assert hid == "hindsight hidden (H shows it)"
    assert shown == "hindsight shown (H hides it); the analysis is one line meanwhile"


def test_opening_a_panel_lays_the_events_out_again_for_their_new_height(tmp_path):
    async def steps(pilot):
        await analysed(pilot)  # the events were drawn, then the panel took rows from them
        return screen_text(pilot.app)

    lines = drive(viewer_app(tmp_path), steps).splitlines()
    current = next(n for n, line in enumerate(lines) if line.startswith(" >  32 "))
    assert lines[current].endswith(" part")  # wrapped at a space, never inside a word ("part en / ds")
    assert lines[current + 1].startswith("       ends at column 3")  # its second line too, above the event count
    assert lines[current + 2].startswith(" event 32/32")


def test_a_mark_that_wraps_the_current_event_once_more_keeps_it_in_sight(tmp_path, monkeypatch):
    # the last event's words fill its line exactly (78 columns); the analysis marks it, and the
    # mark wraps it to a second line, which pushed the whole event out of the window's bottom
    from dicehall.engine.session import Session

    session = lost_game()
    last = len(session.events) - 1
    words = " ".join(["word"] * 15)[:72]
    describe = Session.describe
    monkeypatch.setattr(Session, "describe", lambda self, n, reveal=True: words if n == last else describe(self, n, reveal))
    marked = Analysis("troll", "win chance", (Decision(last + 1, 0, "x", "y", 0.1, 0.5, "??"),), (), (Point(last, 0.1),))
    monkeypatch.setattr(ViewerScreen, "analyser", instant(marked))

    async def steps(pilot):
        before = screen_text(pilot.app)
        await analysed(pilot)
        return before, screen_text(pilot.app)

    before, after = drive(viewer_of(session, tmp_path), steps)
    assert f" >  {last + 1} {words}" in before.splitlines()  # one whole line
    lines = after.splitlines()
    current = lines.index(f" >  {last + 1} ?? {' '.join(words.split()[:-1])}")
    assert lines[current + 1] == f"       {words.split()[-1]}"  # the word the mark pushed on
    assert lines[current + 2].startswith(f" event {last + 1}/{last + 1}")


def test_the_one_line_analysis_fits_its_width_and_keeps_the_mark_and_the_best_move():
    drawn = Drawn.of(ANALYSIS)
    names = ["Player"]
    costly = one_line(ANALYSIS, drawn, COSTLY.event - 1, names, 32, 78)
    assert costly == "?! event 9: move down then move left 0%; best: move down then move right 12%"
    best = one_line(ANALYSIS, drawn, 23, names, 32, 78)  # the words of the full panel are too long here
    assert best == "event 24: move right then pick up right 12%, as good as the best found"
    assert one_line(ANALYSIS, drawn, 3, names, 32, 79) == (
        "event 4, to play: stomp then move up (win chance 6%), as good as the best found")  # fits whole
    assert one_line(ANALYSIS, drawn, 32, names, 32, 78) == "win chance 0% at event 32"
    narrow = one_line(ANALYSIS, drawn, COSTLY.event - 1, names, 32, 40)
    assert len(narrow) == 40 and narrow.startswith("?! event 9: ") and narrow.endswith("...")


@pytest.mark.parametrize("terminal", [FULL, PLAIN], ids=["colour", "vt100"])
def test_a_help_that_scrolls_keeps_each_key_in_its_column_and_nothing_shows_beside_it(terminal, tmp_path):
    async def steps(pilot):
        pilot.app.screen.status("a last message longer than the two lines of the status line " * 4)
        await pilot.press("question_mark")  # the help shows the message whole: it scrolls
        await pilot.pause()
        await pilot.pause()
        return pilot.app.screen.query_one("#help-box").max_scroll_y, screen_text(pilot.app)

    scroll, text = drive(viewer_of(lost_game(), tmp_path, terminal=terminal), steps)
    lines = text.splitlines()
    assert scroll > 0 and "more below" in lines[-1]
    row = next(n for n, line in enumerate(lines) if "r / H  reveal what is hidden" in line)
    column = lines[row].index("reveal")
    words = [lines[row][column:-1].strip()]
    for line in lines[row + 1:]:
        if line[2:column].strip():  # the next key's line
            break
        assert line[column - 1] == " " and line[column] != " ", line  # wrapped under its own words
        words.append(line[column:-1].strip())
    assert " ".join(words) == "reveal what is hidden / hindsight: was this deal winnable? (spoilers: each asks first)"
    assert all(line[:1] in ("", " ") and len(line) <= 79 for line in lines)  # columns 0 and 79 are blank


def test_the_events_shown_are_laid_out_for_the_size_they_are_shown_at_even_if_a_resize_is_missed(tmp_path, monkeypatch):
    # a resize handled before the draw it should follow left the current event's last line cut
    # (seen in a real terminal as the analysis ended): the text is checked against its size as it is shown
    from dicehall.tui.widgets import Redrawn

    monkeypatch.setattr(Redrawn, "on_resize", lambda self: None)  # every resize missed

    async def steps(pilot):
        await analysed(pilot)  # the panel takes rows from the events after they were drawn
        return screen_text(pilot.app)

    lines = drive(viewer_app(tmp_path), steps).splitlines()
    current = next(n for n, line in enumerate(lines) if line.startswith(" >  32 "))
    assert lines[current + 1].startswith("       ends at column 3")
    assert lines[current + 2].startswith(" event 32/32")
