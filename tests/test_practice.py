"""Practice (issue #22): the marked decisions of your analysed saves come back one at a time, the
answer hidden; the best move is accepted, the one played is not; solved positions are remembered;
a save not analysed is not analysed here (practice starts at once) and a damaged file of solved
positions is said in one line. Driven through Pilot at 80x24."""
from __future__ import annotations

import json
import shutil

import pytest

from dicehall import saves
from dicehall.cli import main
from dicehall.engine.analysis import practice as judging
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from dicehall.saves import analyses
from dicehall.saves.practice import positions, read_solved
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text, status, until

BLUNDER = (troll.Move("up"), troll.Move("right"))  # collapses the bridge at turn 2 of seed 5's standard deal


def blunder_save(name="blunder"):
    """A save of the troll, seed 5, played by the adviser until turn 2's blunder."""
    session = saves.new_save("troll", name=name, seed=5, options={"difficulty": "standard"},
                             players=saves.solo_players())
    while session.outcome is None:
        state = session.state
        if state.turn == 2 and state.actions_left == 2:
            for command in BLUNDER:
                if session.to_act == 0 and session.state.turn == 2:
                    session.play(command)
            continue
        session.play(adviser.choose(state))
    saves.close_save(session)
    return session


@pytest.fixture(scope="session")
def blunder_home(tmp_path_factory):
    """A home with the blunder's save and its stored analysis, made once a process (not once a module:
    the suite's order runs this module's longest tests apart, and a module's fixture is made again each
    time): the troll's analysis is most of these tests' time. Each test copies it into its own home
    (analysed_blunder)."""
    folder = tmp_path_factory.mktemp("blunder") / "dicehall-home"
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("DICEHALL_HOME", str(folder))
        patched.setenv("DICEHALL_PLAYER", "")
        blunder_save()
        result = analyses.analyse_stored(saves.load_readonly("blunder"))
    decision = next(d for d in result.decisions if d.mark == "??")
    assert decision.played == "move up then move right"
    return folder, decision


@pytest.fixture
def analysed_blunder(blunder_home, home):
    """The blunder saved and analysed in this test's home (a copy of blunder_home's files): its marked decision."""
    folder, decision = blunder_home
    shutil.copytree(folder, home, dirs_exist_ok=True)
    return decision


def pick(app, words):
    """The OptionList's index of a choice by its words."""
    return next(n for n, (said, _) in enumerate(app.screen.choices) if said == words)


def test_a_marked_decision_comes_back_hidden_the_best_accepted_the_played_not_and_solved_remembered(analysed_blunder):
    decision = analysed_blunder
    app = DicehallApp(practice=True)

    async def steps(pilot):
        from textual.widgets import OptionList

        shown = screen_text(app)
        menu = app.screen.query_one(OptionList)
        # the played move is among the choices, and so is the best: which one is best is not said
        assert f"You played {decision.played} here: ?? blunder." in shown
        assert "best" not in shown.replace("as good as the best", "")
        assert decision.best in [words for words, _ in app.screen.choices]
        menu.highlighted = pick(app, decision.played)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.answer)
        not_yet = screen_text(app)
        assert "No: that is the move you played" in not_yet and f"The best: {decision.best}" in not_yet
        assert read_solved() == []
        menu.highlighted = pick(app, decision.best)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.answer.startswith("Yes"))
        assert f"Why {decision.best}: " in app.screen.answer  # the hint's own reason for the best
        return not_yet, screen_text(app), status(app)

    _, solved, said = drive(app, steps)
    assert f"Yes: {decision.best} is the best the analysis found" in solved
    assert "Practice 1 of 1 (1 solved): Angry Troll" in solved
    assert said.startswith("solved")
    found, _ = positions()
    assert [p.solved for p in found] == [True] and read_solved() == [found[0].key]

    async def again(pilot):  # a new practice session: the position says it was solved before
        return screen_text(pilot.app)

    assert "(solved before)" in drive(DicehallApp(practice=True), again)


def test_another_move_is_judged_by_the_analysis_figures(analysed_blunder):
    decision = analysed_blunder
    session = saves.load_readonly("blunder")
    choices = judging.choices(session, decision)
    other = next((words, commands) for words, commands in choices if words not in (decision.best, decision.played))
    verdict = judging.judge(session, decision, *other)
    assert verdict.text.startswith(("Yes: as good as the best within the noise (", "No: "))
    assert decision.best in verdict.text and other[0] in verdict.text


def test_practice_with_nothing_analysed_says_how_to_get_something_and_analyses_nothing(monkeypatch):
    blunder_save()
    from dicehall.engine import analysis

    monkeypatch.setattr(analysis, "analyse", lambda *a, **k: (_ for _ in ()).throw(AssertionError("analysed")))

    async def steps(pilot):
        await pilot.press("enter")
        return screen_text(pilot.app), status(pilot.app)

    shown, said = drive(DicehallApp(practice=True), steps)
    assert "Nothing to practise yet" in shown, shown
    assert "1 of your saves have no stored analysis yet" in " ".join(shown.split()), shown
    assert said == "Not now: nothing to practise: analyse a game first"


def test_a_damaged_file_of_solved_positions_is_one_line_and_practice_goes_on(home, analysed_blunder):
    (home / "practice.json").write_text(json.dumps({"solved": ["\x1b[2J" * 3]}))

    async def steps(pilot):
        return screen_text(pilot.app), status(pilot.app)

    shown, said = drive(DicehallApp(practice=True), steps)
    assert said.startswith("practice.json is damaged (") and "\x1b" not in said
    assert "?? blunder" in shown


def test_the_launcher_offers_practice_and_the_command_is_in_the_table(capsys):
    async def steps(pilot):
        assert "Practice your mistakes   (p)" in screen_text(pilot.app)
        await pilot.press("p")
        return screen_text(pilot.app)

    assert "Nothing to practise yet" in drive(DicehallApp(), steps)
    import pytest

    with pytest.raises(SystemExit) as ended:
        main(["practice", "--help"])
    assert ended.value.code == 0 and "marked decisions" in capsys.readouterr().out


def test_towers_practice_judges_by_margin_as_its_marks_do():
    """A Towers game (not a save: the judgement is pure) whose late error was exact: the best is
    accepted, the played move not, and any other move is said in points of margin against the best."""
    from tests.test_analysis import towers_game_with_a_late_error, towers_late_error_analysis

    session, (event, _, lost) = towers_game_with_a_late_error()
    decision = next(d for d in towers_late_error_analysis().decisions if d.event == event)
    assert decision.mark and lost >= 1
    choices = judging.choices(session, decision)
    assert [words for words, _ in choices] == sorted(words for words, _ in choices)
    best = next(c for c in choices if c[0] == decision.best)
    assert judging.judge(session, decision, *best).accepted
    played = next(c for c in choices if c[0] == decision.played)
    assert not judging.judge(session, decision, *played).accepted
    others = [(words, commands) for words, commands in choices if words not in (decision.best, decision.played)]
    assert others
    from dicehall.engine.analysis import towers as towers_analysis

    state = session.state_at(event - 1)
    table: dict = {}  # the exact solver's table, kept over the moves: one search of the position, not one a move

    def margin(command) -> float:
        """margin_after's figure (an exact solve gives the same with or without a kept table)."""
        judged = towers_analysis.judge(state, command, table=table)
        assert judged.exact
        return judged.played_points

    best_margin = margin(best[1][0])
    for words, commands in others:
        verdict = judging.judge(session, decision, words, commands)
        assert "margin" in verdict.text and "win " not in verdict.text
        # accepted exactly when it loses less than a point (Towers' first mark) against the best
        drop = best_margin - margin(commands[0])
        assert verdict.accepted == (drop < 1.0), (words, drop, verdict.text)
