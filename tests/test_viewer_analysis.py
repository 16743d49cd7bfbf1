"""The analysis in the replay viewer (issue #14) at 80x24: `a` judges the game in a worker while the
viewer keeps working and shows the decisions judged so far, the graph with its marks and the cursor,
a blunder marked `??` with the safe move named, the jump keys (next / previous marked, the costliest),
branching with `c` from a judged decision, leaving the viewer stopping the worker, the footer and
the answers for a game without analysis, and snapshots."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from dicehall import replays
from dicehall import saves
from dicehall.engine import analysis
from dicehall.engine.analysis import Analysis, Decision, Point
from dicehall.engine.analysis import paired
from dicehall.engine.analysis import troll as troll_analysis
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from dicehall.engine.games.wager import Wager
from tests.apphelpers import drive, screen_text, settled, until
from tests.test_analysis import adviser_game, tower, wager_game
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.viewer.analysis import AnalysisPanel, AnalysisStopped, graph_rows
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.terminal import PLAIN
from dicehall.tui.widgets import StatusLine

SNAPSHOTS = Path(__file__).parent / "snapshots"
BLUNDER = (troll.Move("up"), troll.Move("right"))  # collapses the bridge at turn 2 of seed 5's standard deal


@pytest.fixture(autouse=True)
def few_samples(monkeypatch):
    monkeypatch.setattr(ViewerScreen, "ANALYSIS_SAMPLES", 2)  # fast, and still the same figures every run


@pytest.fixture
def noise_told(monkeypatch):
    """The fewest samples whose noise can be told: a mark is the drop beyond it (the blunder game's
    collapse is ?? by what it loses, not by a rule), still fast."""
    monkeypatch.setattr(ViewerScreen, "ANALYSIS_SAMPLES", paired.MIN_PAIRS)


def blunder_game():
    return adviser_game(5, {"difficulty": "standard"}, stop_turn=2, then=BLUNDER)


def viewer_of(session, tmp_path, **app) -> DicehallApp:
    """The viewer on a replay of `session`, as `dicehall replay FILE` opens it."""
    return DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "game.dhr")), **app)


def status(pilot) -> str:
    return pilot.app.screen.query_one(StatusLine).message


def flat(text: str) -> str:
    """The screen's words with its line breaks and runs of spaces taken out (the panel wraps)."""
    return " ".join(text.split())


async def analysed(pilot):
    viewer = pilot.app.screen
    await pilot.press("a")
    await until(pilot, lambda: viewer.analysis is not None and not viewer.analysis_running, seconds=120)  # a guard for a hang only
    return viewer


def instant(result: Analysis):
    """An analyser that gives `result` at once, as the real ones would give it."""
    def analyse(session, samples=None, progress=None, partial=None):
        return result
    return staticmethod(analyse)


# ----- the engine's hook: each decision reported as it is judged -----
def test_the_troll_analyser_reports_each_decision_as_it_is_judged():
    session = adviser_game(3, {"difficulty": "standard"})
    reports = []
    result = analysis.analyse(session, samples=2, partial=reports.append)
    assert len(reports) == len(result.decisions) >= 3
    for count, report in enumerate(reports, start=1):
        assert report.decisions == result.decisions[:count]  # the same figures, early
        assert report.curve == result.curve[:count]


def test_an_analyser_without_the_hook_still_gives_its_whole_result(monkeypatch):
    import sys
    import types

    module = types.ModuleType("tests_old_style_analyser")
    module.analyse = lambda session, samples=None, progress=None: Analysis("dicetower", "expected pulls left")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(analysis.ANALYSERS, "dicetower", module.__name__)
    reports = []
    result = analysis.analyse(tower(), partial=reports.append)
    assert result.figure == "expected pulls left" and reports == []


# ----- the graph -----
def test_the_graph_rises_with_the_figure_marks_decisions_and_shows_the_cursor():
    curve = tuple(Point(n, n / 10) for n in range(11))
    decisions = (Decision(4, 0, "x", "y", 0.2, 0.4, "??"), Decision(7, 0, "x", "y", 0.6, 0.67, "?!"),
                 Decision(7, 0, "x", "y", 0.5, 0.62, "?"))
    result = Analysis("troll", "win chance", decisions, (), curve)
    for plain in (False, True):
        upper, lower, marks = (row.plain for row in graph_rows(result, 10, 2, 11, plain, running=False))
        cells = " .:#" if plain else " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
        heights = [cells.index(a) + cells.index(b) for a, b in zip(upper, lower)]
        assert heights == sorted(heights) and heights[0] >= 1 and heights[-1] == 2 * (len(cells) - 1)
        assert heights[0] < heights[5] < heights[-1]
        assert marks == "  ^X  ?    "  # under positions 3 and 6 (the decisions' moves not yet played)
        assert (upper + lower + marks).isascii() == plain


def test_a_graph_still_being_drawn_stops_at_its_last_point_and_a_long_game_fits_the_width():
    result = Analysis("dicetower", "expected pulls left", (), (), tuple(Point(n, 300.0 - n) for n in range(0, 101)))
    rows = graph_rows(result, 300, 150, 40, False, running=True)
    assert all(len(row.plain) == 40 for row in rows)
    upper, lower, marks = (row.plain for row in rows)
    drawn = len(lower.rstrip())
    assert 12 <= drawn <= 15  # 100 of 300 events judged: a third of the width
    assert marks.index("^") == 150 * 39 // 300


# ----- in the viewer -----
def test_a_marks_the_troll_blunder_and_names_the_safe_move(tmp_path, noise_told):
    session = blunder_game()

    async def steps(pilot):
        viewer = await analysed(pilot)
        done = status(pilot)
        await pilot.press("w")
        return viewer.analysis, viewer.position, done, status(pilot), screen_text(pilot.app)

    result, position, done, jumped, text = drive(viewer_of(session, tmp_path), steps)
    blunder = result.decisions[-1]
    state = session.state_at(blunder.event - 1)
    safe = {troll_analysis.words(pair): pair for _, pair in troll_analysis._pairs(state)}
    assert blunder.played == "move up then move right" and blunder.mark == "??"
    assert troll_analysis._ends_at_once(state, safe[blunder.best]) not in troll_analysis.LOSSES
    assert done.startswith("analysis done: 2 decisions judged: 1 blunder (??)")
    assert position == blunder.event - 1  # where the player decided: c branches from here
    assert jumped.startswith(f"the costliest decision ({blunder.drop:.0%} of equity): event {blunder.event}, ?? blunder")
    shown = flat(text)
    assert blunder.words == "ends the game at once: the bridge collapses; 3 pairs go on"  # the fact, beside the mark
    assert (f"event {blunder.event}, to play: ?? blunder: move up then move right (win chance 0%, equity "
            f"{blunder.equity_played:.0%}, {blunder.words}); best: {blunder.best} ({blunder.chance_best:.0%}, equity "
            f"{blunder.equity_best:.0%})") in shown
    assert f"{blunder.event} ?? the troll moves up" in shown  # the event list marks the move
    lines = text.splitlines()
    header = next(n for n, line in enumerate(lines) if "win chance 0-100%" in line)
    assert "X" in lines[header + 3]  # the blunder's column under the graph


def test_the_jump_keys_land_on_the_marked_decisions_and_on_the_costliest(tmp_path, monkeypatch):
    session = adviser_game(3, {"difficulty": "standard"})  # 32 events
    decisions = (Decision(4, 0, "a", "b", 0.50, 0.56, "?!"), Decision(9, 0, "c", "c", 0.5, 0.5, ""),
                 Decision(15, 0, "d", "e", 0.10, 0.40, "??"), Decision(20, 0, "f", "g", 0.3, 0.42, "?"))
    monkeypatch.setattr(ViewerScreen, "analyser", instant(Analysis("troll", "win chance", decisions, (),
                                                                   (Point(3, 0.56), Point(14, 0.4)))))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("n")
        before = status(pilot), screen_text(pilot.app).splitlines()[-1]
        await analysed(pilot)
        footer = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("home")
        landed = []
        for key in "nnnnppppw":
            await pilot.press(key)
            landed.append((key, viewer.position, status(pilot)))
        return before, footer, landed

    (refused, footer_before), footer, landed = drive(viewer_of(session, tmp_path), steps)
    assert refused == "Not now: no analysis yet: a analyses the game"
    assert "a Analyse" in footer_before and "Marked" not in footer_before  # only what is possible now
    assert "n p w Marked" in footer and "a Analyse" not in footer
    assert [position for _, position, _ in landed] == [3, 14, 19, 19, 14, 3, 3, 3, 14]
    assert landed[0][2] == "marked decision 1 of 3: event 4, ?! inaccuracy; c tries the better move from here"
    assert landed[3][2] == "Not now: no marked decision after event 19"
    assert landed[7][2] == "Not now: no marked decision before event 3"
    assert landed[8][2].startswith("the costliest decision (30% of win chance): event 15, ?? blunder")


def test_a_running_analysis_shows_what_it_has_judged_and_the_viewer_keeps_working(tmp_path, monkeypatch):
    session = adviser_game(3, {"difficulty": "standard"})
    release = threading.Event()
    first = Decision(4, 0, "move left then stomp", "stomp then move left", 0.2, 0.45, "??")
    later = Decision(9, 0, "move up", "move up", 0.3, 0.3, "")

    def slow(session, samples=None, progress=None, partial=None):
        partial(Analysis("troll", "win chance", (first,), (), (Point(3, 0.45),)))
        progress(1, 3)
        while not release.wait(0.01):  # a long decision, still asking whether to go on
            progress(1, 3)
        progress(3, 3)
        return Analysis("troll", "win chance", (first, later), (), (Point(3, 0.45), Point(8, 0.3)))

    monkeypatch.setattr(ViewerScreen, "analyser", staticmethod(slow))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("a")
        await until(pilot, lambda: viewer.analysis is not None and viewer.analysis_progress == (1, 3))
        running = viewer.analysis_running, screen_text(pilot.app)
        await pilot.press("w")  # the costliest so far
        costliest = viewer.position, status(pilot), screen_text(pilot.app)
        await pilot.press("right", "right")
        stepped = viewer.position
        await pilot.press("a")
        again = status(pilot)
        release.set()
        await until(pilot, lambda: not viewer.analysis_running)
        return running, costliest, stepped, again, status(pilot), len(viewer.analysis.decisions)

    (still, text), (position, said, shown), stepped, again, done, judged = drive(viewer_of(session, tmp_path), steps)
    assert still and "analysing [######--------------] 1 of 3" in text
    assert position == 3 and said.startswith("the costliest decision so far (25% of win chance): event 4, ?? blunder")
    assert ("event 4, to play: ?? blunder: move left then stomp (win chance 20%); best: stomp then move left (45%)"
            in flat(shown))
    assert stepped == 5  # the keys work while it runs
    assert again == "Not now: the analysis is running: 1 of 3 judged (q leaves the viewer and stops it)"
    assert done.startswith("analysis done: 2 decisions judged") and judged == 2


def test_streamed_reports_are_drawn_at_most_a_few_a_second_and_the_last_one_always(tmp_path, monkeypatch):
    """The troll tells a result and its progress each turn: the viewer takes them as one report and
    draws only the panel, at most every DRAW_EVERY seconds; what it shows at the end is the whole
    stream applied, and the finished figures are the command line's (analyse_stored's) to the digit."""
    session = adviser_game(4, {"difficulty": "standard"})  # 36 turns
    whole = analysis.analyse(session, samples=1)  # what `dicehall analyse` works out (analyse_stored): any figures do
    count = len(whole.decisions)
    streamed, release = threading.Event(), threading.Event()

    def streaming(session, samples=None, progress=None, partial=None):
        for done in range(1, count + 1):  # every turn at once, far faster than a screen draws
            partial(Analysis("troll", "win chance", whole.decisions[:done], (), whole.curve[:done]))
            progress(done, count)
        streamed.set()
        release.wait(30)
        return whole

    monkeypatch.setattr(ViewerScreen, "analyser", staticmethod(streaming))
    draws = []
    monkeypatch.setattr(AnalysisPanel, "lay_out", lambda panel, *args, **kwargs: (
        draws.append(args[2]), real_lay_out(panel, *args, **kwargs)))
    others = []  # the rest of the screen drawn while the reports stream
    monkeypatch.setattr(ViewerScreen, "draw_comment", lambda viewer: others.append(viewer.analysis_running))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("a")
        await until(pilot, lambda: streamed.is_set() and viewer.analysis_progress == (count, count)
                    and viewer.analysis.decisions == whole.decisions)
        await until(pilot, lambda: f"{count} of {count}" in screen_text(pilot.app))  # the last report drawn
        last = viewer.analysis.curve, screen_text(pilot.app)
        release.set()
        await until(pilot, lambda: not viewer.analysis_running)
        finished = await settled(pilot)
        viewer.redraw()  # the whole screen drawn anew from the viewer's state: nothing was left behind
        return last, viewer.analysis, finished, await settled(pilot)

    (curve, streaming_text), result, finished, anew = drive(viewer_of(session, tmp_path), steps)
    assert curve == whole.curve and "analysing [####################]" in streaming_text
    assert analysis.as_json(result) == analysis.as_json(whole)  # the same figures as the command line's
    assert finished == anew and "analysis done" in finished
    running_draws = draws.count(True)
    assert 1 <= running_draws < 2 * count  # two reports a turn came; far fewer draws
    assert others.count(True) < count  # the rest of the screen is drawn only when a mark comes


real_lay_out = AnalysisPanel.lay_out


def test_opening_the_viewer_starts_ahead_what_its_analysis_needs(tmp_path, monkeypatch):
    """The troll's pool starts its server as the viewer opens (seconds on a busy machine), not at `a`;
    a game whose analysis needs nothing ahead starts nothing."""
    from dicehall.engine.analysis import pool

    warmed = threading.Event()
    monkeypatch.setattr(pool, "warm", warmed.set)

    async def opened(pilot):
        await until(pilot, warmed.is_set)  # from the viewer's worker thread, before any key
        shown = await settled(pilot)  # the footer is drawn on its own schedule, not the worker's
        return pilot.app.screen.analysis_running, shown

    running, shown = drive(viewer_of(blunder_game(), tmp_path), opened)
    assert not running and "a Analyse" in shown  # nothing analysed: `a` is still the player's to press
    warmed.clear()
    analysis.prepare("dicetower")  # analysed at once, on this core: no pool
    analysis.prepare("no such game")
    assert not warmed.is_set()


def test_leaving_the_viewer_stops_the_analysis(monkeypatch):
    session = saves.new_save("troll", name="left", seed=3, options={"difficulty": "standard"})
    session.play(adviser.choose(session.state))
    asked, stopped = threading.Event(), threading.Event()

    def endless(session, samples=None, progress=None, partial=None):
        try:
            while True:
                progress(0, 1)
                asked.set()
                threading.Event().wait(0.005)
        except AnalysisStopped:
            stopped.set()
            raise

    monkeypatch.setattr(ViewerScreen, "analyser", staticmethod(endless))

    async def steps(pilot):
        await pilot.press("v", "a")  # a game screen's review
        viewer = pilot.app.screen
        await until(pilot, asked.is_set)
        worker = viewer.analysis_worker
        await pilot.press("q")
        back = type(pilot.app.screen).__name__
        await until(pilot, stopped.is_set)
        return back, worker.is_cancelled

    back, cancelled = drive(DicehallApp(session=session), steps)
    assert back == "TrollScreen" and cancelled and stopped.is_set()


def test_leaving_stops_a_real_troll_analysis_before_it_has_judged_the_game(tmp_path, monkeypatch):
    session = adviser_game(4, {"difficulty": "standard"})  # 36 turns
    judged, ended, left = [], threading.Event(), threading.Event()
    how = []

    def counted(session, samples=None, progress=None, partial=None):
        def report(result):
            judged.append(len(result.decisions))
            partial(result)
            left.wait(10)  # with few samples the whole game is judged at once: hold on until the viewer is left
        try:
            return analysis.analyse(session, samples=samples, progress=progress, partial=report)
        except AnalysisStopped:
            how.append("stopped")
            raise
        finally:
            ended.set()

    monkeypatch.setattr(ViewerScreen, "analyser", staticmethod(counted))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("a")
        await until(pilot, lambda: viewer.analysis is not None)
        await pilot.press("q")  # in `dicehall replay FILE`: leaves the program too
        left.set()
        return viewer

    drive(viewer_of(session, tmp_path), steps)
    left.set()
    assert ended.wait(30) and how == ["stopped"]
    assert max(judged) < len(troll_analysis._turns(session))


def test_a_game_without_an_analyser_says_so_in_one_line(tmp_path, monkeypatch):
    monkeypatch.delitem(analysis.ANALYSERS, "towers")  # as War of Bones was before its analyser
    session = saves.new_save("towers", name="plain", seed=3)
    for _ in range(3):
        session.play(session.commands()[0])

    async def steps(pilot):
        footer = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("a")
        said = status(pilot)
        await pilot.press("n")
        return footer, said, status(pilot), pilot.app.screen.analysis_running

    footer, said, jump, running = drive(viewer_of(session, tmp_path), steps)
    assert said == "Not now: Towers has no analysis yet" and jump == said and not running
    assert "a Analyse" not in footer


def test_the_dice_tower_is_its_odds_and_luck_with_no_decisions_to_jump_to(tmp_path):
    session = tower()

    async def steps(pilot):
        viewer = await analysed(pilot)
        await pilot.press("home", "right", "right")
        text = screen_text(pilot.app)
        await pilot.press("n")
        return viewer.analysis, text, status(pilot)

    result, text, said = drive(viewer_of(session, tmp_path), steps)
    luck = next(item for item in result.chance if item.event == 2)
    assert f"expected pulls left 0-{result.curve[0].value:.1f}" in text
    assert f"event 2: luck {luck.luck:+.2f} pulls" in text
    assert said == "Not now: Dice Tower has no decisions to judge: the graph shows its odds, and each roll its luck"


def test_a_game_screens_review_analyses_and_c_tries_the_better_move_with_the_same_future(tmp_path, noise_told):
    session = saves.new_save("troll", name="lesson", seed=5, options={"difficulty": "standard"})
    while session.outcome is None:  # the adviser, then the blunder at turn 2 (as blunder_game plays it)
        if session.state.turn == 2 and session.state.actions_left == 2:
            for command in BLUNDER:
                session.play(command)
            continue
        session.play(adviser.choose(session.state))

    async def steps(pilot):
        await pilot.press("v")
        viewer = await analysed(pilot)
        await pilot.press("w")
        blunder, position = viewer.analysis.decisions[-1], viewer.position
        await pilot.press("c")
        branch = pilot.app.screen.session
        started = list(branch.events)
        pair = next(pair for _, pair in troll_analysis._pairs(branch.state) if troll_analysis.words(pair) == blunder.best)
        for command in pair:  # played on the branch while its screen holds the save
            branch.play(command)
        return blunder, position, branch, started

    blunder, position, branch, started = drive(DicehallApp(session=session), steps)
    assert blunder.mark == "??" and position == blunder.event - 1
    assert started == list(session.events)[:position] and branch.seed == session.seed
    assert branch.state.end not in troll_analysis.LOSSES  # the better move keeps the bridge up


@pytest.mark.parametrize("game", ["troll", "wager", "dicetower"])
def test_viewer_with_the_analysis_snapshot(game, tmp_path, snapshot, noise_told):
    session = {"troll": blunder_game, "wager": lambda: wager_game(Wager()), "dicetower": tower}[game]()

    async def steps(pilot):
        await analysed(pilot)
        await pilot.press("w" if game != "dicetower" else "home", *(["right"] * 6 if game == "dicetower" else []))
        return screen_text(pilot.app)

    text = drive(viewer_of(session, tmp_path), steps)
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, f"viewer-analysis-{game}.txt")


def test_without_box_drawing_the_graph_is_ascii(tmp_path):
    async def steps(pilot):
        await analysed(pilot)
        return screen_text(pilot.app)

    text = drive(viewer_of(tower(), tmp_path, terminal=PLAIN), steps)
    assert text.isascii() and "expected pulls left" in text and "#" in text
