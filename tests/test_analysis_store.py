"""Stored analyses (issue #22): kept under the data folder by the game's content, the analyser's
version and the samples; read back so nothing is analysed twice; a damaged or hostile one ignored
with one line and analysed again, never trusted."""
import json

import pytest

from dicehall import replays
from dicehall.cli import main
from dicehall.engine import analysis
from dicehall.engine.analysis import wager as wager_analysis
from dicehall.saves import analyses
from tests.test_analysis_report import scripted_wager


@pytest.fixture
def replay(tmp_path):
    return str(replays.write_replay(scripted_wager(), tmp_path / "w.dhr"))


def analysed(capsys, path, *more):
    assert main(["analyse", path, "--json", *more]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def stored_files(home):
    return sorted((home / "analyses").glob("*.json"))


def refuse_to_analyse(monkeypatch):
    def no(*args, **kwargs):
        raise AssertionError("analysed again")

    monkeypatch.setattr(analysis, "analyse", no)


def test_an_analysis_is_stored_by_content_version_and_samples_and_never_made_twice(replay, capsys, monkeypatch, home):
    first, err = analysed(capsys, replay)
    assert err == ""
    (path,) = stored_files(home)
    session = replays.read_replay(replay)
    assert path.name == f"{analyses.content_digest(session)}-wager-v{wager_analysis.ANALYSER_VERSION}-exact.json"
    refuse_to_analyse(monkeypatch)
    again, err = analysed(capsys, replay)
    assert again == first and err == ""
    # the save's content, not its file: the same game exported again is the same key
    copy = replays.write_replay(session, home.parent / "copy.dhr")
    assert analysed(capsys, str(copy))[0] == first


def test_a_new_analyser_version_analyses_again(replay, capsys, monkeypatch, home):
    analysed(capsys, replay)
    monkeypatch.setattr(wager_analysis, "ANALYSER_VERSION", wager_analysis.ANALYSER_VERSION + 1)
    calls = []
    real = analysis.analyse
    monkeypatch.setattr(analysis, "analyse", lambda *a, **k: calls.append(1) or real(*a, **k))
    analysed(capsys, replay)
    assert calls == [1] and len(stored_files(home)) == 2


def test_other_samples_are_another_analysis(capsys, monkeypatch, home, tmp_path):
    from tests.test_analysis import adviser_game
    from dicehall.engine.games import troll

    session = adviser_game(5, {"difficulty": "standard"}, stop_turn=2, then=(troll.Move("up"), troll.Move("right")))
    path = str(replays.write_replay(session, tmp_path / "t.dhr"))
    two = analysed(capsys, path, "--samples", "2")[0]
    three = analysed(capsys, path, "--samples", "3")[0]
    assert sorted(p.name.rsplit("-", 1)[1] for p in stored_files(home)) == ["s2.json", "s3.json"]
    refuse_to_analyse(monkeypatch)
    assert analysed(capsys, path, "--samples", "2")[0] == two
    assert analysed(capsys, path, "--samples", "3")[0] == three


def damage(document):
    """Ways a stored analysis may be wrong, each with words its one line must say."""
    yield "not JSON", lambda path: path.write_bytes(path.read_bytes()[:40])
    # nested 200,000 deep: refused by the count before the parser could recurse
    yield "more lists and tables", lambda path: path.write_bytes(b"[" * 200_000 + b"]" * 200_000)
    yield "larger than", lambda path: path.write_bytes(b" " * (analyses.MAX_STORED + 1))
    hostile = [
        ("decision 1's chance", lambda d: d["decisions"][0].__setitem__(4, 5.0)),
        ("decision 1's chance", lambda d: d["decisions"][0].__setitem__(4, float("nan"))),
        ("decision 1's mark", lambda d: d["decisions"][0].__setitem__(6, "!!")),
        ("decision 1's event", lambda d: d["decisions"][0].__setitem__(0, 10_000)),
        ("decision 1's seat", lambda d: d["decisions"][0].__setitem__(1, 7)),
        ("decision 1's event", lambda d: d["decisions"][0].__setitem__(0, True)),
        ("decision 1's move", lambda d: d["decisions"][0].__setitem__(2, "x" * 10_000)),
        ("decision 1's words", lambda d: d["decisions"][0].__setitem__(10, "x" * 10_000)),
        ("decision 1's words", lambda d: d["decisions"][0].__setitem__(10, 7)),
        ("decision 1 is not", lambda d: d["decisions"].__setitem__(0, {"event": 1})),
        ("luck 1", lambda d: d["chance"][0].__setitem__(1, 1e300)),
        ("another game", lambda d: d.__setitem__("digest", "0" * 32)),
        ("another analyser version", lambda d: d.__setitem__("analyser_version", 0)),
        ("fields", lambda d: d.pop("curve")),
        ("nested too deep", lambda d: d.__setitem__("extra", {"odds": [[[[[[[[1]]]]]]]]})),
        ("the notes", lambda d: d.__setitem__("notes", ["n"] * 1000)),
    ]
    for words, change in hostile:
        def write(path, change=change):
            changed = json.loads(json.dumps(document))
            change(changed)
            path.write_text(json.dumps(changed))
        yield words, write


def test_a_damaged_or_hostile_stored_analysis_is_ignored_with_one_line_and_analysed_again(replay, capsys, home):
    fresh, _ = analysed(capsys, replay)
    (path,) = stored_files(home)
    document = json.loads(path.read_text())
    for words, spoil in damage(document):
        spoil(path)
        again, err = analysed(capsys, replay)
        assert again == fresh, words
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"dicehall: stored analysis {path.name}: "), (words, err)
        assert words in lines[0] and lines[0].endswith("; analysing again"), (words, err)
        assert "Traceback" not in err
        assert json.loads(path.read_text()) == document  # stored anew, sound
        assert analysed(capsys, replay)[1] == ""


def test_a_stored_analysis_in_the_right_shape_is_still_data_its_text_cleaned(replay, capsys, home):
    analysed(capsys, replay)
    (path,) = stored_files(home)
    document = json.loads(path.read_text())
    document["notes"] = ["wager\x1b[2J[bold]x[/bold]\x07"]
    document["decisions"][0][10] = "ends\x1b]0;pwned\x07 [@click=app.quit]at once[/]"  # the words, a fact shown beside
    path.write_text(json.dumps(document))
    assert main(["analyse", replay]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "wager[2J[bold]x[/bold]" in out  # shown as the characters they are, never as markup or escapes
    assert "(ends]0;pwned [@click=app.quit]at once[/])" in out


@pytest.mark.parametrize("edit, said", [
    (lambda d: d["decisions"][0].__setitem__(2, "wager\x1b[2J[bold]x[/bold]"), "names a move that was not a choice there"),
    (lambda d: d["decisions"][0].__setitem__(3, "roll"), "names a move that was not a choice there"),
    (lambda d: d["decisions"][0].__setitem__(0, 2), "is not seat"),  # event 2: a die rolled, not a decision
])
def test_a_stored_decision_the_game_never_had_is_one_line_and_analysed_again(replay, capsys, home, edit, said):
    """Within range was not enough: practice offered a die roll as a decision, with nothing to choose."""
    fresh, _ = analysed(capsys, replay)
    (path,) = stored_files(home)
    document = json.loads(path.read_text())
    edit(document)
    path.write_text(json.dumps(document))
    again, err = analysed(capsys, replay)
    assert again == fresh and len(err.splitlines()) == 1 and said in err and err.rstrip().endswith("analysing again"), err


def test_a_stored_analysis_that_is_a_fifo_or_a_folder_is_one_line_not_a_hang(replay, capsys, home):
    import os

    analysed(capsys, replay)
    (path,) = stored_files(home)
    path.unlink()
    os.mkfifo(path)
    again, err = analysed(capsys, replay)
    assert again["decisions"] and len(err.splitlines()) == 1 and "not a regular file; analysing again" in err
    assert path.is_file()  # stored anew in its place
    path.unlink()
    path.mkdir()
    again, err = analysed(capsys, replay)
    lines = err.splitlines()  # what is wrong, and that it could not be stored: the analysis is still given
    assert again["decisions"] and len(lines) == 2 and "not a regular file" in lines[0]
    assert lines[1].startswith("dicehall: the analysis could not be stored (")


def test_the_viewer_reads_a_stored_analysis_and_says_when_one_was_damaged(replay, capsys, monkeypatch, home):
    from dicehall.tui.app import DicehallApp
    from tests.apphelpers import drive, status, until

    first, _ = analysed(capsys, replay)  # the wager is exact: the viewer's analysis has the same key
    real = wager_analysis.analyse
    monkeypatch.setattr(wager_analysis, "analyse", lambda *a, **k: (_ for _ in ()).throw(AssertionError("again")))

    def viewer_analysis():
        app = DicehallApp(replay=replays.read_replay(replay))

        async def steps(pilot):
            await pilot.press("a")
            await until(pilot, lambda: app.screen.analysis is not None and not app.screen.analysis_running, 60.0)
            return app.screen.analysis, status(app)

        return drive(app, steps)

    result, said = viewer_analysis()
    assert analysis.as_json(result) == {key: value for key, value in first.items() if key != "report"}
    assert said.startswith("analysis done: ")
    (path,) = stored_files(home)
    path.write_text("{")
    monkeypatch.setattr(wager_analysis, "analyse", real)
    result, said = viewer_analysis()
    assert said.startswith(f"stored analysis {path.name}: not JSON") and "analysis done: " in said
    assert analysis.as_json(result) == {key: value for key, value in first.items() if key != "report"}
