"""The troll's analysis over both cores (engine/analysis/pool.py): the same figures as on one core,
one core again when the pool breaks, from any entry point (a script without a main guard is not run
twice), and a SIGTERM or SIGHUP while the pool runs leaves no worker behind."""
from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dicehall.engine import analysis
from dicehall.engine.analysis import pool
from dicehall.engine.analysis import troll as troll_analysis
from tests.apphelpers import eventually, exited
from tests.test_analysis_troll import FATAL_KEYS, FATAL_SEED, fatal_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = 3  # a few: the figures must agree, not be good

# the fatal four-turn game, analysed; the script's top level notes each run of itself in RUNS
SCRIPT = f"""
import json, multiprocessing, os, signal, sys, threading
# ctrl+c as at a terminal: a runner started in the background by a shell without job control
# passes SIGINT on ignored, and a script that ignores it never ends (the test timed out after 60 s)
signal.signal(signal.SIGINT, signal.default_int_handler)
from dicehall import engine
from dicehall.engine import analysis
from dicehall.engine.analysis import troll as troll_analysis
from dicehall.engine.games import troll

with open(os.environ["RUNS"], "a") as runs:
    runs.write(f"{{os.getpid()}}\\n")
session = engine.new_session("troll", seed={FATAL_SEED}, options={{"difficulty": "standard"}})
for direction in {FATAL_KEYS!r}:
    session.play(troll.Move(direction))
workers = set()

def progress(done, total):
    found = {{process.pid for process in multiprocessing.active_children()}}
    if found - workers:
        workers.update(found)
        print("workers", *sorted(workers), flush=True)

def run():
    result = troll_analysis.analyse(session, samples=int(os.environ["SAMPLES"]), progress=progress)
    print(json.dumps(analysis.as_json(result)), flush=True)

if os.environ.get("IN_A_THREAD"):  # as the viewer does: a thread starts the pool
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
else:
    run()
"""


GUARDED = "if __name__ == '__main__':\n" + textwrap.indent(SCRIPT, "    ")  # as the installed `dicehall` is


def on_one_core(samples: int) -> dict:
    return analysis.as_json(troll_analysis.analyse(fatal_game(), samples=samples, cores=1))


@functools.cache
def one_core() -> dict:
    """The figures every test here compares with (the fatal game on one core, SAMPLES samples):
    analysed once a process, not once a test (the same figures each time)."""
    return on_one_core(SAMPLES)


def run_script(tmp_path, script: str, samples: int = SAMPLES, **env) -> tuple[subprocess.Popen, Path]:
    path, runs = tmp_path / "analyse_it.py", tmp_path / "runs"
    path.write_text(script)
    environment = dict(os.environ, RUNS=str(runs), SAMPLES=str(samples), PYTHONPATH=str(ROOT), **env)
    process = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path, env=environment)
    return process, runs


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its entry waits to be collected


def test_two_cores_give_the_figures_of_one_core():
    session = fatal_game()
    reports = []
    two = troll_analysis.analyse(session, samples=SAMPLES, cores=2, partial=reports.append)
    assert analysis.as_json(two) == one_core()
    # the partial results come in the turns' order, as on one core
    assert [len(report.decisions) for report in reports] == list(range(1, len(two.decisions) + 1))
    assert [d.event for d in reports[-1].decisions] == [d.event for d in two.decisions]


def test_a_turns_playouts_split_into_tasks_any_way_give_the_figures_of_one_core(monkeypatch):
    """The pool's tasks are whole samples of a step of a turn's judging: every sample its own task,
    here or over both cores, gives the figures of the usual split (a task of several samples)."""
    usual = on_one_core(6)
    monkeypatch.setattr(troll_analysis, "PLAYOUTS_PER_TASK", 1)
    assert analysis.as_json(troll_analysis.analyse(fatal_game(), samples=6, cores=2)) == usual
    assert on_one_core(6) == usual


def test_a_pool_that_cannot_start_falls_back_to_one_core(monkeypatch):
    def no_shared_memory(*args, **kwargs):
        raise FileNotFoundError("/dev/shm")  # what a missing /dev/shm gives multiprocessing's locks

    monkeypatch.setattr(pool, "ProcessPoolExecutor", no_shared_memory)
    assert analysis.as_json(troll_analysis.analyse(fatal_game(), samples=SAMPLES, cores=2)) == one_core()


def killed_in_a_worker(task: int) -> int:
    """The task's square; in a worker of the pool, task 2 kills its own process (a worker killed)."""
    import multiprocessing

    if task == 2 and multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return task * task


def test_a_worker_killed_mid_analysis_leaves_the_rest_to_this_core():
    seen = []
    results = pool.in_order(killed_in_a_worker, list(range(6)), each=lambda i, r: seen.append((i, r)), cores=2)
    assert results == [0, 1, 4, 9, 16, 25]
    assert seen == list(enumerate(results))  # each result once, in order


def sleeping(task: int) -> int:
    time.sleep(600)  # a turn that would take long
    return task


def test_stopping_ends_the_workers_at_once_not_after_their_turn():
    import multiprocessing

    class Stop(Exception):
        pass

    workers = []

    def waiting() -> None:  # as the viewer's progress does when it is left
        workers.extend(process.pid for process in multiprocessing.active_children())
        if workers:
            raise Stop

    with pytest.raises(Stop):
        pool.in_order(sleeping, [1, 2, 3], waiting=waiting, cores=2)
    assert workers and not any(alive(pid) for pid in workers)  # killed mid-task, and collected


def test_a_failure_of_the_work_itself_is_not_hidden_by_the_fallback():
    with pytest.raises(ZeroDivisionError):
        pool.in_order(divide_one_by, [1, 0, 2], cores=2)


def divide_one_by(task: int) -> float:
    return 1 / task


def test_the_forkserver_only_where_the_main_module_may_be_imported_again(tmp_path, monkeypatch):
    import types

    def main(source: str | None, name: str | None = None) -> bool:
        module = types.ModuleType("__main__")
        if source is not None:
            module.__file__ = str(tmp_path / "main.py")
            (tmp_path / "main.py").write_text(source)
        module.__spec__ = types.SimpleNamespace(name=name) if name else None
        monkeypatch.setitem(sys.modules, "__main__", module)
        return pool.main_imports_safely()

    assert main("print('work')\n") is False  # a script without a guard would run again in each worker
    assert main("import sys\nif __name__ == '__main__':\n    print('work')\n") is True
    assert main("print('work')\n", name="dicehall.__main__") is True  # -m on a package: never imported again
    assert main("print('work')\n", name="analyse_it") is False
    assert main(None) is True  # -c, the prompt: no file to import
    assert main("print(\n") is False  # not readable as Python: not risked


def test_the_forkserver_preloads_what_the_main_scripts_top_level_imports(tmp_path, monkeypatch):
    """A forkserver worker runs __main__'s top level again (the `dicehall` script's `from dicehall.cli
    import main`): the server imports that once, so a worker does not at each analysis."""
    import types

    module = types.ModuleType("__main__")
    module.__file__ = str(tmp_path / "main.py")
    module.__spec__ = None
    (tmp_path / "main.py").write_text("import re, sys\nfrom dicehall.cli import main\nfrom . import sibling\n"
                                      "import not_imported_here\nif __name__ == '__main__':\n"
                                      "    import json\n    sys.exit(main())\n")
    import dicehall.cli  # noqa: F401  (imported in this process, as the script has it)

    monkeypatch.setitem(sys.modules, "__main__", module)
    # the guarded block does not run again; a relative or a failed import is not the server's to try
    assert pool.main_imports() == ["re", "sys", "dicehall.cli"]
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))  # -c, the prompt
    assert pool.main_imports() == []


@pytest.mark.parametrize("in_a_thread", [False, True])
def test_a_script_without_a_main_guard_analyses_once_and_on_both_cores_when_it_can(tmp_path, in_a_thread):
    env = {"IN_A_THREAD": "1"} if in_a_thread else {}
    process, runs = run_script(tmp_path, SCRIPT, **env)
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert len(runs.read_text().splitlines()) == 1  # its top level ran once: no worker ran it again
    lines = out.splitlines()
    assert json.loads(lines[-1]) == one_core()
    pooled = [line for line in lines if line.startswith("workers")]
    # one thread: forked workers; with a thread and no guard the forkserver would import it: one core
    assert bool(pooled) is (not in_a_thread)


def test_a_guarded_script_that_starts_the_pool_from_a_thread_uses_the_forkserver(tmp_path):
    process, runs = run_script(tmp_path, GUARDED, IN_A_THREAD="1")
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert len(runs.read_text().splitlines()) == 1
    assert json.loads(out.splitlines()[-1]) == one_core()
    assert any(line.startswith("workers") for line in out.splitlines())


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (its children, theirs, ...), from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.mark.parametrize("signum, in_a_thread", [(signal.SIGTERM, False), (signal.SIGHUP, False), (signal.SIGINT, False),
                                                  (signal.SIGTERM, True), (signal.SIGHUP, True)])
def test_a_signal_while_the_pool_runs_leaves_no_worker(tmp_path, signum, in_a_thread):
    script = GUARDED if in_a_thread else SCRIPT  # with a thread: the forkserver and its workers
    process, _ = run_script(tmp_path, script, samples=2000, **({"IN_A_THREAD": "1"} if in_a_thread else {}))
    try:
        line = process.stdout.readline()  # the first workers seen
        assert line.startswith("workers"), process.stderr.read()
        workers = {int(pid) for pid in line.split()[1:]} | descendants(process.pid)  # the forkserver too
        assert len(workers) >= 2 and all(alive(pid) for pid in workers)
        process.send_signal(signum)
        process.wait(timeout=60)
        eventually(lambda: not any(alive(pid) for pid in workers), "a pool worker outlived the script")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_to_the_viewer_while_its_analysis_runs_leaves_no_worker(tmp_path, signum):
    from dicehall import replays
    from tests.test_analysis import adviser_game
    from tests.test_signals import dicehall_in_a_terminal, read_for

    path = replays.write_replay(adviser_game(3, {"difficulty": "standard"}), tmp_path / "game.dhr")
    pid, fd = dicehall_in_a_terminal("replay", str(path))
    workers: set[int] = set()
    try:
        assert b"event" in read_for(fd, 60, until=b"event"), "the viewer did not draw its screen"
        os.write(fd, b"a")

        def pool_started() -> bool:  # the forkserver and both workers
            workers.update(descendants(pid))
            return len(workers) >= 3

        eventually(pool_started, "the analysis did not start its pool", 60, lambda: read_for(fd, 0.1))
        if signum == signal.SIGHUP:
            os.close(fd)  # the link is gone as well
            fd = -1
        os.kill(pid, signum)
        signalled, pid = pid, 0  # exited() reaps it, or kills and reaps it if it outlives the guard
        exited(signalled, "dicehall did not exit after the signal", fd)
        eventually(lambda: not any(alive(worker) for worker in workers), "an analysis worker outlived the viewer")
    finally:
        if fd >= 0:
            os.close(fd)
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def test_the_viewer_analyses_over_the_pool_with_the_figures_of_one_core(tmp_path, monkeypatch):
    from tests.apphelpers import drive
    from tests.test_viewer_analysis import analysed, viewer_of
    from dicehall.tui.screens.viewer import ViewerScreen

    monkeypatch.setattr(ViewerScreen, "ANALYSIS_SAMPLES", SAMPLES)
    pools = []
    over_pool = pool._over_pool
    monkeypatch.setattr(pool, "_over_pool", lambda *args: pools.append(args[-1]) or over_pool(*args))

    async def steps(pilot):
        viewer = await analysed(pilot)
        return viewer.analysis

    shown = drive(viewer_of(fatal_game(), tmp_path), steps)
    assert analysis.as_json(shown) == one_core()
    # the viewer's worker thread started the pool: the forkserver, as the process has threads
    assert [context.get_start_method() for context in pools] == ["forkserver"]


def squares_then_sum(first: int, kill: int | None = None):
    """A job of two steps, the second asked from the first's results: the squares of four numbers,
    then the squares of the sums of each two neighbours (`kill`: the task whose worker kills itself)."""
    squares = yield [(n, n == kill) for n in range(first, first + 4)]
    sums = yield [(squares[n] + squares[n + 1], False) for n in range(3)]
    return first, sums


def square_in_a_worker(task: tuple[int, bool]) -> int:
    """The task's number squared; in a worker of the pool, a task marked kill kills its own process."""
    import multiprocessing

    number, kill = task
    if kill and multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return number * number


def expected_sums(first: int) -> tuple[int, list[int]]:
    squares = [n * n for n in range(first, first + 4)]
    return first, [(squares[n] + squares[n + 1]) ** 2 for n in range(3)]


@pytest.mark.parametrize("kill", [None, 5])
def test_jobs_of_several_steps_over_the_pool_give_their_results_in_order(kill):
    seen = []
    jobs = [squares_then_sum(first, kill) for first in (1, 4, 8)]
    results = pool.staged(square_in_a_worker, jobs, each=lambda i, r: seen.append((i, r)), cores=2)
    assert results == [expected_sums(first) for first in (1, 4, 8)]  # a worker lost mid-step: the rest here
    assert seen == list(enumerate(results))
    assert pool.locally(square_in_a_worker, squares_then_sum(4)) == expected_sums(4)


def test_the_earliest_jobs_tasks_are_given_out_first_and_a_later_job_fills_the_cores():
    jobs = [pool._Job(squares_then_sum(first)) for first in (1, 10)]
    first = pool._next_tasks(jobs, 3)
    assert [(jobs.index(job), index) for job, index in first] == [(0, 0), (0, 1), (0, 2)]
    assert not jobs[1].started  # not started while the first has tasks to give
    assert [(jobs.index(job), index) for job, index in pool._next_tasks(jobs, 3)] == [(0, 3), (1, 0), (1, 1)]
