"""Shared fixtures: every test gets its own DICEHALL_HOME, so no test touches a real save; and every
test is marked with its module's lane (tests/lanes.py), so `pytest -m rules` runs one lane."""
from __future__ import annotations

import compileall
import gc
import os
import stat
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from tests.lanes import first_rank, lane_of, lanes_in

ROOT = Path(__file__).resolve().parent.parent

# A shell that sets PYTHONDONTWRITEBYTECODE (this workplace's does) would have every worker compile
# every test module again (pytest's assert rewriting) and every `python -m dicehall` a test starts
# compile each dicehall module it imports, at each start: the suite writes the bytecode once instead
# (into the ignored __pycache__ folders), here for the tests and in pytest_configure for the package.
sys.dont_write_bytecode = False

# A test process starts hundreds of apps, each some ten thousand objects in cycles (widgets and their
# parents) living a few seconds. With Python's default thresholds (700, 10, 10) they outlived the
# young generations and only full collections freed them, each walking every object of the process:
# about an eighth of an app test's CPU (docs/testing.md). A larger young generation frees an app's
# objects young, and what collection leaves (modules, classes, the tests) is frozen out of later ones.
gc.set_threshold(10_000, 20, 10)  # 5,000 to 20,000 measured the same


def scratch_in_memory(shared: str = "/dev/shm") -> str | None:
    """The tests' scratch folders (tmp_path, and TMPDIR for what they start) in memory: every save and
    hall file a test writes is flushed with fsync, about 0.4 ms a call on this machine's disk and
    nothing on tmpfs (the box and files lanes: 13 s of system CPU to 10-11 s, and 3-5 s less wall).
    Not when TMPDIR is set, nor on a noexec mount, nor when the folder is not this user's alone
    (another user of a shared box could have made it first). The folder, or None (the system's temporary folder then)."""
    if os.environ.get("TMPDIR") or not os.access(shared, os.W_OK | os.X_OK):
        return None
    if os.statvfs(shared).f_flag & os.ST_NOEXEC:
        return None  # a mount that runs no program: the system temporary folder, as before
    folder = os.path.join(shared, f"dicehall-tests-{os.getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    os.environ["TMPDIR"] = folder  # the workers xdist starts and every process a test starts inherit it
    tempfile.tempdir = None  # read again from TMPDIR
    return folder


scratch_in_memory()


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # once a run, in the process that starts the workers
        folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].values()
        for folder in sorted(set(folders)):  # what is up to date is only looked at
            compileall.compile_dir(ROOT / folder, quiet=1)


def pytest_collection_modifyitems(items):
    for item in items:
        lane = lane_of(item.path.stem, getattr(item, "originalname", item.name))
        if lane:  # a module in no lane runs in every run but no lane's: tests/test_tooling.py names it
            item.add_marker(lane)
    # the longest tests first (tests/lanes.py's FIRST), the rest in their order (a stable sort): every
    # worker has the same order, and worksteal hands the long ones out while there is time to even up
    items.sort(key=lambda item: first_rank(item.path.stem, getattr(item, "originalname", item.name)))


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: absent under -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    """`-n auto` shares the tests out by worksteal unless --dist says otherwise: a worker that runs out
    takes half of another's queue, so with the long tests handed out first (FIRST) none is left alone
    at the end (xdist's default, load, would give them all to the first worker in one chunk)."""
    if config.getoption("dist") == "load" and not any(arg.startswith(("--dist", "-d")) for arg in config.invocation_params.args):
        from xdist.scheduler import WorkStealingScheduling

        return WorkStealingScheduling(config, log)
    return None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` starts one worker a core. A third worker on 2 cores once filled the time tests wait
    on what they started (dicehall processes, tmux, sshd); since Pilot's waits are quiet (apphelpers),
    that time is small and a worker more only shares the cores: on this 2-core machine, idle, the
    whole suite one run after the other (docs/testing.md), 2 workers 4 min 44-58 s and 450-484 s of
    CPU, 3 workers 5 min 13 s and 545 s (every lane's tests a tenth to a sixth more CPU).
    PYTEST_XDIST_AUTO_NUM_WORKERS still says otherwise."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it itself
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def pytest_ignore_collect(collection_path, config):
    """Under `-m`, a module whose lane the expression leaves out is not even imported: importing every
    module costs more than the rules lane takes to run. A test's one mark is its lane: none marks itself."""
    lanes = lanes_in(collection_path.stem)
    markexpr = config.getoption("markexpr")
    if not lanes or not markexpr:
        return None
    try:  # pytest's own reading of -m, so the lanes select what its deselection would
        from _pytest.mark.expression import Expression
        selects = Expression.compile(markexpr).evaluate
        return not any(selects(lambda name, lane=lane, **kwargs: name == lane) for lane in lanes) or None
    except Exception:  # another pytest, or an expression with arguments: collect it, -m deselects
        return None


def isolate(monkeypatch, folder: Path) -> Path:
    """A test's own dicehall: its data folder, no box player, the hall of that folder. The command line
    sets --player and --hall in the environment (for what the app starts): through `monkeypatch`, a
    test's setting is undone after it, and one test's hall is never the next one's in its worker."""
    monkeypatch.setenv("DICEHALL_HOME", str(folder))
    monkeypatch.setenv("DICEHALL_PLAYER", "")
    monkeypatch.delenv("DICEHALL_HALL", raising=False)
    return folder


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    return isolate(monkeypatch, tmp_path / "dicehall-home")
