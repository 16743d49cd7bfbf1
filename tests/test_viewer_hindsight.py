"""The troll's hindsight solver in the replay viewer (issue #14) at 80x24: `H` asks first (a spoiler
that looks at the hidden cards), then answers on a line labelled so, while the viewer keeps working
and leaving stops it; `l` opens the winning line in a viewer of its own that steps to the win and
branches a new save with `c`; `j` goes to where the line starts; a tiny budget says it ran out; a
deal with no win says the search went to the end; other games have no such key."""
from __future__ import annotations

import threading
from pathlib import Path

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.analysis import troll_solver
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from tests.apphelpers import drive, screen_text, until
from tests.test_analysis import adviser_game, tower
from tests.test_viewer_analysis import flat, status
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.screens.viewer.hindsight import LABEL
from dicehall.tui.screens.viewer.line import LineViewer

SNAPSHOTS = Path(__file__).parent / "snapshots"
WINS = ("won", "perfect")


def lost_game(seed: int = 3):
    """A standard troll game the adviser loses (seed 3: the bridge collapses at turn 7), with a win left in it."""
    session = adviser_game(seed, {"difficulty": "standard"})
    assert session.state.end not in WINS
    return session


def viewer_of(session, tmp_path) -> DicehallApp:
    """The viewer on a replay of `session`, as `dicehall replay FILE` opens it."""
    return DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "game.dhr")))


async def solved(pilot):
    """H, yes, and wait for the answer."""
    viewer = pilot.app.screen
    await pilot.press("H", "y")
    await until(pilot, lambda: viewer.hindsight is not None and not viewer.hindsight_running)
    return viewer


def test_h_asks_first_then_shows_the_latest_winning_line_labelled_hindsight(tmp_path):
    session = lost_game()
    expected = troll_solver.solve(session)  # the solver itself, at the same default budget

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("H")
        dialog = pilot.app.screen
        question = dialog.question if isinstance(dialog, ConfirmScreen) else ""
        await pilot.press("n")  # no: nothing is searched
        declined = viewer.hindsight_running, viewer.hindsight
        viewer_after_no = pilot.app.screen is viewer
        await solved(pilot)
        answered = screen_text(pilot.app), status(pilot)
        await pilot.press("j")
        jump = viewer.position, status(pilot)
        await pilot.press("H")  # once answered, H hides the answer and shows it again
        hidden = status(pilot), LABEL in screen_text(pilot.app)
        await pilot.press("H")
        shown = LABEL in screen_text(pilot.app)
        return question, declined, viewer_after_no, viewer.hindsight, answered, jump, hidden, shown

    question, declined, back, solution, (text, said), (position, jumped), hidden, shown = drive(
        viewer_of(session, tmp_path), steps)
    assert "spoiler" in question and "hidden cards" in question and "winnable" in question
    assert declined == (False, None) and back
    assert solution == expected and solution.winnable and solution.latest and solution.played
    lines = text.splitlines()
    assert f" {LABEL}: a winning line from event {expected.from_event} (turn {expected.turn})\n" in text
    assert f" l: step through the line  j: go there (the game played {expected.played} there)\n" in text
    assert said.startswith("hindsight: A win remained until event")
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert position == expected.from_event - 1  # the decision not yet played: c branches from here
    assert jumped == (f"event {expected.from_event}: where the solver's line starts; the game played "
                      f"{expected.played} here (l steps through the line; c branches from here)")
    assert hidden == ("hindsight hidden (H shows it)", False) and shown


# seed 35's winning line is 39 events long (seed 3's, 193): the line is stepped a key an event
SHORT_LINE = 35


def test_l_opens_the_line_which_steps_to_a_win_and_c_branches_a_save_from_it(tmp_path):
    session = lost_game(SHORT_LINE)

    async def steps(pilot):
        viewer = await solved(pilot)
        solution = viewer.hindsight
        await pilot.press("l")
        line_viewer = pilot.app.screen
        opened = type(line_viewer), line_viewer.position, screen_text(pilot.app), status(pilot)
        refused = []
        for key in "Hlj":  # the line is the solver's answer already
            await pilot.press(key)
            refused.append(status(pilot))
        steps_seen = []
        while line_viewer.position < len(line_viewer.session.events):
            await pilot.press("right")
            steps_seen.append(line_viewer.position)
        end = line_viewer.session.state_at(line_viewer.position).end, screen_text(pilot.app)
        # some way into the line, a branch point of its own: g and its number (the steps are counted above)
        await pilot.press("g", *str(solution.from_event + 5), "enter")
        await pilot.pause()
        branch_at = line_viewer.position
        assert branch_at == solution.from_event + 5, status(pilot)
        line_events = list(line_viewer.session.events)
        await pilot.press("c")
        branch = pilot.app.screen.session
        started = list(branch.events)
        # the line's commands from the branch point on, played on the branch (its screen holds the save)
        for step, command in zip(solution.line, solution.commands):
            if step.event - 1 >= len(started):
                branch.play(command)
        return solution, opened, refused, steps_seen, end, branch_at, line_events, (branch, started)

    solution, opened, refused, stepped, (end, end_text), branch_at, line_events, branch = drive(
        viewer_of(session, tmp_path), steps)
    kind, position, text, said = opened
    assert kind is LineViewer and position == solution.from_event - 1
    assert text.splitlines()[0].strip() == (f"Hindsight: the solver's winning line from event {solution.from_event} "
                                            "(it saw the hidden cards)")
    assert said.startswith(f"the solver's winning line starts at event {solution.from_event}")
    assert refused == ["Not now: this is the solver's line already: q goes back to the game"] * 3
    assert stepped == list(range(solution.from_event, len(line_events) + 1))  # one event a key
    assert end in WINS and "REVEALED" not in end_text
    # the line's events are the game's up to where it starts, then the line with the seed's dice
    assert line_events[: solution.from_event - 1] == list(session.events[: solution.from_event - 1])
    assert line_events == list(troll_solver.line_session(session, solution).events)
    # c: a new save, with the line's events so far and the same seed, opened at once (an awakening
    # phase cut off by the branch point rolls on, with the same dice)
    branch, started = branch
    assert len(started) >= branch_at and started == line_events[:len(started)] and branch.seed == session.seed
    assert branch.labels.save_name == "hindsight line (branch)"
    assert "hindsight line (branch)" in {info.name for info in saves.list_saves()}
    assert list(branch.events) == line_events and branch.state.end in WINS  # the same dice: the same win


def test_a_tiny_budget_says_it_ran_out_with_no_answer(tmp_path, monkeypatch):
    monkeypatch.setattr(ViewerScreen, "HINDSIGHT_NODES", 40)
    session = lost_game()

    async def steps(pilot):
        viewer = await solved(pilot)
        text = screen_text(pilot.app)
        await pilot.press("l")
        line = status(pilot)
        await pilot.press("j")
        return viewer.hindsight, text, line, status(pilot), type(pilot.app.screen)

    solution, text, line, jump, screen = drive(viewer_of(session, tmp_path), steps)
    assert solution.winnable is None and solution.budget_ran_out and solution.budget == 40
    assert f"{LABEL}: the budget ran out after {solution.searched:,} positions: no answer" in flat(text)
    refused = f"Not now: no winning line: the budget ran out after {solution.searched:,} positions with no answer"
    assert line == jump == refused and screen is ViewerScreen


def test_a_deal_with_no_win_says_the_search_went_to_the_end(tmp_path):
    # as in tests/test_troll_solver.py: turn 1 wakes a card out of the troll's reach; every line loses
    session = engine.new_session("troll", seed=7, options={"difficulty": "custom", "heights": [2, 1, 1, 1, 1, 2]})
    while session.outcome is None:
        session.play(adviser.choose(session.state))

    async def steps(pilot):
        viewer = await solved(pilot)
        text = screen_text(pilot.app)
        await pilot.press("l")
        return viewer.hindsight, text, status(pilot)

    solution, text, refused = drive(viewer_of(session, tmp_path), steps)
    assert solution.winnable is False
    assert f"{LABEL}: no winning line: searched to the end ({solution.searched:,} positions)" in flat(text)
    assert refused == "Not now: no winning line: the solver searched to the end and found none"


def test_the_search_shows_its_progress_the_viewer_works_and_leaving_stops_it(monkeypatch):
    session = saves.new_save("troll", name="unfinished", seed=3, options={"difficulty": "standard"})
    session.play(adviser.choose(session.state))
    asked, stopped = threading.Event(), threading.Event()

    def endless(session, budget, nodes=None, should_stop=None, progress=None):
        while not should_stop():  # a long search, asking whether to go on
            progress(25_600, 50_000)
            asked.set()
            threading.Event().wait(0.005)
        stopped.set()
        return troll_solver.Solution(None, 1, cancelled=True)

    monkeypatch.setattr(ViewerScreen, "solver", staticmethod(endless))

    async def steps(pilot):
        await pilot.press("v", "H")  # a game screen's review of a game not over
        question = pilot.app.screen.question
        await pilot.press("y")
        viewer = pilot.app.screen
        await until(pilot, lambda: asked.is_set() and viewer.hindsight_searched)
        text = screen_text(pilot.app)
        await pilot.press("H")
        again = status(pilot)
        await pilot.press("left")
        stepped = viewer.position
        await pilot.press("q")
        back = type(pilot.app.screen).__name__
        await until(pilot, stopped.is_set)
        return question, text, again, stepped, len(session.events) - 1, back, viewer.hindsight

    question, text, again, stepped, expected, back, answer = drive(DicehallApp(session=session), steps)
    assert "The game is not over: it tells how to play the rest." in question
    assert f"{LABEL}: searching" in text and "[#####---------------] 25600 of 100000 positions (q stops it)" in text
    assert again == ("Not now: the hindsight search is running: 25,600 positions of 100,000 searched "
                     "(q leaves the viewer and stops it)")
    assert stepped == expected  # the keys work while it runs
    assert back == "TrollScreen" and stopped.is_set() and answer is None


def test_other_games_have_no_hindsight_key(tmp_path):
    async def steps(pilot):
        footer = screen_text(pilot.app).splitlines()[-1]
        said = []
        for key in "Hlj":
            await pilot.press(key)
            said.append(status(pilot))
        return footer, said, type(pilot.app.screen)

    footer, said, screen = drive(viewer_of(tower(), tmp_path), steps)
    assert "H " not in footer and "Spoilers" not in footer and "Hindsight" not in footer
    assert said == ["Not now: only the troll has a hindsight solver"] * 3 and screen is ViewerScreen


def test_the_troll_footer_offers_h_beside_reveal(tmp_path):
    async def steps(pilot):
        await until(pilot, lambda: "Spoilers" in screen_text(pilot.app))  # a busy machine draws the footer late
        return screen_text(pilot.app).splitlines()[-1]

    footer = drive(viewer_of(lost_game(), tmp_path), steps)
    assert "r H Spoilers" in footer and len(footer) <= 80


def test_viewer_with_the_hindsight_answer_snapshot(tmp_path, snapshot):
    async def steps(pilot):
        await solved(pilot)
        await pilot.press("j")
        return screen_text(pilot.app)

    text = drive(viewer_of(lost_game(), tmp_path), steps)
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "viewer-hindsight-troll.txt")


def test_the_answer_is_one_or_two_lines_for_every_kind_of_answer():
    from dicehall.tui.screens.viewer.hindsight import answer_lines

    won = troll_solver.Solution(True, 9, (troll.Move("up"),), played="move up", turn=2, latest=True)
    at_start = troll_solver.Solution(True, 4, (troll.Move("up"),), turn=1, at_start=True)
    as_played = troll_solver.Solution(True, 4, won_as_played=True, at_start=True)
    none = troll_solver.Solution(False, 4, searched=62)
    out = troll_solver.Solution(None, 4, searched=1, lost_from=10, budget_ran_out=True)
    for solution in (won, at_start, as_played, none, out):
        lines = answer_lines(solution)
        assert 1 <= len(lines) <= 2 and lines[0].startswith(LABEL + ": ")
    assert answer_lines(out) == [f"{LABEL}: the budget ran out after 1 position: no answer "
                                 "(from event 10 on it could no longer be won)"]
    assert answer_lines(at_start)[1] == "l: step through the line  j: go there"
    assert answer_lines(as_played)[0] == f"{LABEL}: the game was won as played"


def test_a_solver_that_fails_says_so_in_one_line(tmp_path, monkeypatch):
    def broken(session, budget, nodes=None, should_stop=None, progress=None):
        raise ValueError("the replay's events do not follow the rules at event 7")

    monkeypatch.setattr(ViewerScreen, "solver", staticmethod(broken))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("H", "y")
        await until(pilot, lambda: not viewer.hindsight_running)
        return status(pilot), viewer.hindsight, type(pilot.app.screen)

    said, answer, screen = drive(viewer_of(lost_game(), tmp_path), steps)
    assert said == "Not now: the hindsight search stopped: the replay's events do not follow the rules at event 7"
    assert answer is None and screen is ViewerScreen
