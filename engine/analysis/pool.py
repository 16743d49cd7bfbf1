"""Every core for an analysis whose decisions are judged each on its own (the troll's): each decision
is a job whose steps ask for tasks (the troll's: its pairs' playouts, a few samples a task), the
tasks are spread over a pool of processes and each job's results are handed back in the jobs' order,
so the figures are the ones a single core gives, whatever finishes first.

    results = pool.staged(function, jobs, each=None, waiting=None, cores=None)
    results = pool.in_order(function, tasks, ...)  # one task a job
    result = pool.locally(function, job)  # one job on this core
    pool.warm()  # ahead of the first staged: start what the pool will use (the forkserver), if any

A job is a generator: it yields a step's tasks (a list), is sent [function(task) for task in them]
in that order, and returns its result. `function(task)` runs in a worker (both must pickle: a
module-level function, plain data); the job itself runs here. `each(index, result)` is called in
the jobs' order as results come in; `waiting()` at least every tenth of a second while the pool
works (either may raise to stop: the workers are then ended at once). The tasks of the earliest
job go first (its result comes as soon as it can); a later job's fill the cores while it waits for
the last task of its step, so no core waits on one job's step, and the last jobs' tasks are spread
over every core (with one task a decision, a long last one ran alone while the other cores waited).

Which processes: a process with one thread forks its workers (nothing can be held locked in the
copy, and nothing is imported again, so a script without an `if __name__ == "__main__":` guard is
not run twice). A process with threads (the Textual app, whose worker thread starts the pool) uses
the forkserver, preloaded with the analysis, when its __main__ may be imported again as
multiprocessing does (`python -m dicehall`, the installed `dicehall` script, a guarded script);
otherwise, or when the pool cannot start or breaks (no /dev/shm, a worker killed), the rest is
judged on this core: the same answer, more slowly. Each forkserver worker runs __main__'s top level
again (multiprocessing does), so the server preloads what that top level imports (the `dicehall`
script's `dicehall.cli`) once, not each worker at each analysis. A worker ignores SIGINT and SIGHUP (the process
that started it decides) and ends when that process ends, however it ends: no orphans.
"""
from __future__ import annotations

import ast
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver
from multiprocessing import connection
from typing import Callable, Generator

PRELOAD = ["dicehall.engine.analysis.troll"]  # what the forkserver imports once for every worker
POLL = 0.1  # seconds at most between two calls of `waiting`
_STARTING = threading.Lock()  # warm() and a pool may start the forkserver at once: one swaps sys.stderr at a time


def cores_available() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def in_order(function: Callable, tasks: list, each: Callable | None = None, waiting: Callable | None = None,
             cores: int | None = None) -> list:
    """[function(task) for task in tasks], over `cores` processes (None: every core available)."""
    cores = min(len(tasks), cores_available() if cores is None else cores)
    return staged(function, [_single(task) for task in tasks], each, waiting, cores)


def _single(task) -> Generator[list, list, object]:
    return (yield [task])[0]


def staged(function: Callable, jobs: list, each: Callable | None = None, waiting: Callable | None = None,
           cores: int | None = None) -> list:
    """Each job's result (see the module's doc), its tasks over `cores` processes (None: every core
    available)."""
    todo = [_Job(steps) for steps in jobs]
    results: list = []

    def take() -> None:  # the jobs finished, in order, up to the first still running
        while len(results) < len(todo) and todo[len(results)].finished:
            results.append(todo[len(results)].result)
            if each is not None:
                each(len(results) - 1, results[-1])

    cores = cores_available() if cores is None else cores
    context = _context() if cores > 1 and todo else None
    if context is not None:
        try:
            _over_pool(function, todo, take, waiting, cores, context)
        except _Broken:  # the pool could not start or lost a worker: the rest on this core
            pass
    for job in todo[len(results):]:
        _finish(function, job, waiting)
        take()
    return results


def locally(function: Callable, job: Generator[list, list, object]) -> object:
    """One job's result, its tasks on this core."""
    return _finish(function, _Job(job), None)


class _Job:
    """A job: its generator, the tasks of its step and their results so far."""

    def __init__(self, steps: Generator[list, list, object]):
        self.steps = steps
        self.tasks: list = []
        self.results: dict[int, object] = {}
        self.submitted = 0  # the step's tasks given to the pool so far
        self.started = self.finished = False
        self.result = None

    def advance(self) -> None:
        """Start the job, or send it its step's results: on to its next step with tasks, or to its end."""
        found: list | None = [self.results[index] for index in range(len(self.tasks))] if self.started else None
        self.started = True
        while not self.finished:
            try:
                self.tasks = list(self.steps.send(found))  # type: ignore[arg-type]  # None starts it
            except StopIteration as end:
                self.finished, self.result, self.tasks = True, end.value, []
            self.results, self.submitted, found = {}, 0, []
            if self.tasks:
                break


def _finish(function, job: _Job, waiting) -> object:
    """The rest of a job on this core (the tasks of its step whose results are missing, then its next steps)."""
    if not job.started:
        job.advance()
    while not job.finished:
        for index, task in enumerate(job.tasks):
            if index not in job.results:
                job.results[index] = function(task)
                if waiting is not None:
                    waiting()
        job.advance()
    return job.result


class _Broken(Exception):
    """The pool failed (not the work, not the caller)."""


def _over_pool(function, jobs: list[_Job], take, waiting, cores, context) -> None:
    executor, finished = None, False
    try:
        try:
            _start_forkserver(context)
            executor = ProcessPoolExecutor(cores, mp_context=context, initializer=_worker_started)
        except (BrokenProcessPool, OSError, ValueError) as error:
            raise _Broken from error
        running: dict = {}  # future -> (its job, its task's index in the job's step)
        while running or not all(job.finished for job in jobs):
            # one task beyond the cores waits in the queue, so that a worker that is done takes the
            # next at once, not after its result has come here and another has gone back
            for job, index in _next_tasks(jobs, cores + 1 - len(running)):
                try:
                    running[executor.submit(function, job.tasks[index])] = (job, index)
                except (BrokenProcessPool, OSError, RuntimeError) as error:
                    raise _Broken from error
            done = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)[0] if running else set()
            for future in done:
                job, index = running.pop(future)
                job.results[index] = _result(future)
                if len(job.results) == len(job.tasks):
                    job.advance()
            take()
            if waiting is not None:
                waiting()
        finished = True
    finally:
        if executor is not None:
            if not finished:  # stopped, failed or broken: the workers end now, not after their task
                for process in list((getattr(executor, "_processes", None) or {}).values()):
                    process.kill()  # (Python 3.11 has no public way to end a worker mid-task)
            executor.shutdown(wait=True, cancel_futures=True)


def _next_tasks(jobs: list[_Job], room: int) -> list[tuple[_Job, int]]:
    """Up to `room` tasks not yet given out, the earliest job's first (a job is started when reached)."""
    chosen: list[tuple[_Job, int]] = []
    for job in jobs:
        if len(chosen) >= room:
            break
        if not job.started:
            job.advance()
        while job.submitted < len(job.tasks) and len(chosen) < room:
            chosen.append((job, job.submitted))
            job.submitted += 1
    return chosen


def _result(future):
    try:
        return future.result()
    except (BrokenProcessPool, OSError) as error:
        raise _Broken from error


def _start_forkserver(context) -> None:
    """Start the forkserver (and the resource tracker it needs) handing it the real stderr: under
    Textual sys.stderr is a capture whose fileno() is -1, which multiprocessing would pass on and fail."""
    if context.get_start_method() != "forkserver":
        return
    try:
        captured = sys.stderr.fileno() < 0
    except (AttributeError, OSError, ValueError):
        captured = False  # multiprocessing skips a stderr without a file itself
    with _STARTING:
        saved = sys.stderr
        try:
            if captured and sys.__stderr__ is not None:
                sys.stderr = sys.__stderr__  # for the moment the helpers start (nothing else writes then)
            forkserver.ensure_running()
        finally:
            sys.stderr = saved


def warm() -> None:
    """Start the forkserver this process's pool would use now (a viewer opening a game whose analysis
    runs over the pool), so that the first analysis does not wait for it to start and preload: it
    takes seconds on a busy machine. Nothing when the pool would fork, or run on this core; a server
    that cannot start here fails again when the pool starts, which then falls back to this core."""
    context = _context() if cores_available() > 1 else None
    if context is not None:
        try:
            _start_forkserver(context)
        except (OSError, ValueError):
            pass


def _context():
    """The start method that runs no code of __main__ in a worker (see the module's doc); None: none."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods and main_imports_safely():
        context = multiprocessing.get_context("forkserver")
        # not '__main__' (the default, which Python 3.11's server never imports): the analysis, and
        # what __main__'s top level imports, which each worker would otherwise import at every start
        context.set_forkserver_preload(PRELOAD + main_imports())
        return context
    return None


def _main_tree() -> ast.Module | None:
    """__main__'s source parsed, as a worker would run it again (None: nothing runs again; an empty
    module: a source that cannot be read)."""
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None) or ""
    path = getattr(main, "__file__", None)
    if name.endswith("__main__") or path is None:
        return None
    try:
        with open(path, "rb") as source:
            return ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return ast.Module(body=[], type_ignores=[])


def main_imports_safely() -> bool:
    """Whether a worker may import __main__ again, as multiprocessing's forkserver and spawn do: a
    package's __main__ (`python -m dicehall`) is never imported again, a main without a file (`-c`,
    the prompt) has nothing to import, and a script is safe when its top level has the guard."""
    tree = _main_tree()
    if tree is None:
        return True
    return any(isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) for node in tree.body)


def main_imports() -> list[str]:
    """The modules __main__'s top level imports (absolute, already imported here), which a worker
    running it again would import."""
    tree = _main_tree()
    names = []
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return [name for name in dict.fromkeys(names) if name in sys.modules]


def _worker_started() -> None:
    """In each worker: ignore the terminal's signals, and end with the process that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()


def _end_with(sentinel) -> None:
    connection.wait([sentinel])  # ready when the parent is gone (its end of the pipe closed)
    os._exit(1)
