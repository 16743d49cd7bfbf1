"""The tools around the tests: every test module in one lane (tests/lanes.py) and the lanes the
markers pytest knows; the links mypy reads the package through (.typecheck/dicehall/) laid out as
pyproject.toml installs it; and .ci/run running ruff and mypy, as pinned, before the tests; -n auto's count of workers."""
from __future__ import annotations

import os
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from tests.lanes import LANE_OF, LANES, SLOW_TESTS

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_test_module_is_in_one_lane():
    modules = sorted(path.stem for path in (ROOT / "tests").glob("test_*.py"))
    named = Counter(f"test_{name}" for names in LANES.values() for name in names.split())
    assert [m for m in modules if m not in LANE_OF] == [], "put each new module in a lane of tests/lanes.py"
    assert [m for m, count in named.items() if count > 1] == [], "a module in two lanes"
    assert [m for m in named if m not in modules] == [], "tests/lanes.py names a module that is gone"


def test_each_slow_test_named_is_a_test_of_its_module_and_no_test_marks_its_own_lane():
    """conftest.py skips importing a module that -m leaves out by its lanes alone: a test with a mark
    of its own would be skipped with it."""
    for module, function in sorted(SLOW_TESTS):
        assert module in LANE_OF and f"def {function}(" in (ROOT / "tests" / f"{module}.py").read_text(encoding="utf-8"), \
            f"tests/lanes.py: {module}::{function} is no test"
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        assert not any(f"mark.{lane}" in text for lane in LANES), path.name


def test_the_lanes_are_the_markers_pytest_knows():
    markers = [line.split(":")[0] for line in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]]
    assert markers == list(LANES)
    assert "--strict-markers" in PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"]


def test_mypy_reads_the_package_as_it_is_installed():
    """dicehall.engine is engine/ (package-dir): .typecheck/dicehall/ links each of the package's
    folders and the root's own modules to their place, and nothing else."""
    links = ROOT / ".typecheck" / "dicehall"
    mapped = {name.removeprefix("dicehall."): folder
              for name, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items() if name != "dicehall"}
    wanted = {name: f"../../{folder}" for name, folder in mapped.items()}
    wanted |= {path.name: f"../../dicehall/{path.name}" for path in (ROOT / "dicehall").iterdir()
               if path.name != "__pycache__" and (path.suffix == ".py" or (path / "__init__.py").exists())}
    found = {path.name: os.readlink(path) for path in links.iterdir()}
    assert found == wanted
    assert all((links / name).exists() for name in found)
    assert PYPROJECT["tool"]["mypy"]["mypy_path"] == ".typecheck" and PYPROJECT["tool"]["mypy"]["packages"] == ["dicehall"]


def test_no_module_of_dicehall_is_let_off_any_of_mypys_checks():
    """The debt list of issue #31 is gone: every module is checked in full, a new one too. Only
    msgpack (which ships no types) has an override."""
    mypy = PYPROJECT["tool"]["mypy"]
    overrides = mypy.get("overrides", [])
    assert [o["module"] for o in overrides] == ["msgpack"] and overrides[0] == {"module": "msgpack", "ignore_missing_imports": True}
    assert not {"disable_error_code", "ignore_errors", "follow_imports"} & set(mypy)
    assert mypy["warn_unused_ignores"] is True


def test_ci_runs_ruff_and_mypy_as_pinned_before_the_tests():
    run = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    lint = PYPROJECT["project"]["optional-dependencies"]["lint"]
    assert all("==" in pin for pin in lint) and {pin.split("==")[0] for pin in lint} == {"ruff", "mypy"}
    steps = [run.index(".venv/bin/pip install --quiet -e '.[lint]'"), run.index(".venv/bin/ruff check ."),
             run.index(".venv/bin/mypy"), len(run) - 1]
    assert steps == sorted(steps) and run[-1].startswith(".venv/bin/python -m pytest")


def test_auto_starts_one_worker_a_core(monkeypatch):
    # a worker more than the cores costs every test CPU and fills little time (docs/testing.md)
    from tests.conftest import pytest_xdist_auto_num_workers as workers

    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    for cores, started in ((1, 1), (2, 2), (4, 4)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, cores=cores: set(range(cores)))
        assert workers(None) == started
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert workers(None) is None  # xdist reads the variable itself


def test_a_hall_the_command_line_set_in_one_test_is_not_the_next_ones(tmp_path, monkeypatch):
    """`dicehall --hall DIR` sets DICEHALL_HALL for the process; a test that ran it left every later
    test of its worker on that hall (the hall's help then said it could not be opened)."""
    from dicehall.cli import main
    from dicehall.saves.hall.files import hall_dir
    from tests.conftest import isolate

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "a hall left by an earlier test"))
    during = pytest.MonkeyPatch()
    folder = isolate(during, tmp_path / "home")
    assert hall_dir() == folder / "hall"  # not the earlier test's
    try:
        main(["--hall", str(tmp_path / "this test's hall"), "saves"])
    except SystemExit:
        pass
    assert os.environ["DICEHALL_HALL"] == str(tmp_path / "this test's hall")  # (what the app and its children read)
    during.undo()  # the test's end
    assert os.environ["DICEHALL_HALL"] == str(tmp_path / "a hall left by an earlier test")


def test_no_test_undoes_every_patch_of_its_monkeypatch():
    """monkeypatch.undo() also undoes conftest's DICEHALL_HOME: what the test wrote after it went into
    the real data folder (the hall archive's index did). monkeypatch.context() undoes its own only."""
    undoing = [path.name for path in (ROOT / "tests").rglob("*.py") if "monkeypatch.undo()" in path.read_text(encoding="utf-8")
               and path.name != "test_tooling.py"]
    assert undoing == []


def test_the_scratch_folder_in_memory_is_this_users_alone_or_not_used(tmp_path, monkeypatch):
    """conftest.scratch_in_memory: TMPDIR, when set, is kept; a folder someone else could write in (or
    made by another user first) is not used; else TMPDIR names the folder, made 0700."""
    import tempfile

    from tests.conftest import scratch_in_memory

    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)
    monkeypatch.setenv("TMPDIR", "/somewhere/chosen")
    assert scratch_in_memory(str(tmp_path)) is None and os.environ["TMPDIR"] == "/somewhere/chosen"
    monkeypatch.delenv("TMPDIR")
    loose = tmp_path / f"dicehall-tests-{os.getuid()}"
    loose.mkdir(0o755)
    loose.chmod(0o755)
    assert scratch_in_memory(str(tmp_path)) is None and "TMPDIR" not in os.environ
    loose.rmdir()
    made = scratch_in_memory(str(tmp_path))
    assert made == str(loose) and os.environ["TMPDIR"] == made and (loose.stat().st_mode & 0o777) == 0o700
    assert tempfile.gettempdir() == made


def test_the_per_test_time_report_sums_by_lane_and_says_what_waited(tmp_path):
    """tests/perf/cpuwall.py: a worker's file of (test, wall, CPU, ended) lines, read back by lane."""
    from tests.perf.cpuwall import report

    (tmp_path / "run.gw0").write_text("tests/test_cli.py::test_a\t2.000\t1.500\t100.0\n"
                                      "tests/test_app.py::test_b\t3.000\t1.000\t103.0\n", encoding="utf-8")
    said = report(str(tmp_path / "run"))
    assert "2 tests; workers end at gw0 5 s" in said and "inside the tests: wall 5 s, CPU 2 s" in said
    assert any(line.split()[:7] == ["tui", "wall", "3", "s", "CPU", "1", "s"] and line.endswith("waiting     2 s")
               for line in said.splitlines()), said
    from tests.perf.cpuwall import lane

    module, function = sorted(SLOW_TESTS)[0]  # a slow test named in tests/lanes.py: in `slow`, as conftest marks it
    assert lane(f"tests/{module}.py::{function}[case]") == "slow" and lane("tests/test_app.py::test_b") == "tui"
