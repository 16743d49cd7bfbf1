"""Where a suite run's time goes, test by test: a pytest plugin that writes each test's wall time and
CPU (the process's and its reaped children's: a dicehall a test started and waited for counts, an
app tmux runs does not) to one TSV file a worker, and a report of them by lane and by file.

    python -m pytest -q -n auto -p tests.perf.cpuwall            # writes $CPUWALL_OUT.<worker>
    python -m tests.perf.cpuwall /tmp/cpuwall                    # the report of those files
    python -m tests.perf.cpuwall /tmp/cpuwall /tmp/before        # and the change from another run

CPUWALL_OUT defaults to /tmp/cpuwall; remove its old files before a run (lines are appended). A
test's wall time less its CPU is time it waited (on a process, a thread, a sleep) or was not given a
core. For measuring only: no test imports it and no run loads it unless asked."""
from __future__ import annotations

import glob
import os
import resource
import sys
import time
from collections import defaultdict

import pytest


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    wall, cpu = time.perf_counter(), _cpu()
    yield
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    out = f"{os.environ.get('CPUWALL_OUT', '/tmp/cpuwall')}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    with open(out, "a", encoding="utf-8") as handle:
        handle.write(f"{item.nodeid}\t{wall:.3f}\t{cpu:.3f}\t{time.time():.3f}\n")


def read(prefix: str) -> dict[str, tuple[float, float, float, str]]:
    """nodeid -> (wall, cpu, ended at, worker) from the files `prefix`.*"""
    tests = {}
    for path in glob.glob(f"{prefix}.*"):
        worker = path.rsplit(".", 1)[1]
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                nodeid, wall, cpu, ended = line.rstrip("\n").split("\t")
                tests[nodeid] = (float(wall), float(cpu), float(ended), worker)
    return tests


def lane(nodeid: str) -> str:
    """A test's lane as conftest marks it (tests/lanes.py: a slow test named there is in `slow`)."""
    from tests.lanes import lane_of

    module, _, name = nodeid.partition("::")
    return lane_of(module.rsplit("/", 1)[-1].removesuffix(".py"), name.split("[")[0]) or "?"


def report(prefix: str, before: str | None = None) -> str:
    tests = read(prefix)
    if not tests:
        return f"no {prefix}.* files"
    lines = []
    by_lane: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for nodeid, (wall, cpu, _, _) in tests.items():
        module = nodeid.split("::")[0]
        for table, key in ((by_lane, lane(nodeid)), (by_file, module)):
            table[key][0] += wall
            table[key][1] += cpu
    start = min(ended - wall for wall, _, ended, _ in tests.values())
    workers = sorted({worker for *_, worker in tests.values()})
    ends = {w: max(ended for _, _, ended, worker in tests.values() if worker == w) - start for w in workers}
    lines.append(f"{len(tests)} tests; workers end at " + ", ".join(f"{w} {end:.0f} s" for w, end in ends.items()))
    lines.append(f"inside the tests: wall {sum(v[0] for v in by_lane.values()):.0f} s, "
                 f"CPU {sum(v[1] for v in by_lane.values()):.0f} s")
    old = read(before) if before else {}
    for name, (wall, cpu) in sorted(by_lane.items()):
        was = ""
        if old:
            shared = [n for n in tests if n in old and lane(n) == name]
            was = f"  (same tests before: CPU {sum(old[n][1] for n in shared):.0f} s, now {sum(tests[n][1] for n in shared):.0f} s)"
        lines.append(f"  {name:6} wall {wall:6.0f} s  CPU {cpu:6.0f} s  waiting {wall - cpu:5.0f} s{was}")
    lines.append("files by wall (wall, CPU):")
    for module, (wall, cpu) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:20]:
        lines.append(f"  {wall:6.1f} {cpu:6.1f}  {module}")
    lines.append("tests by wall (wall, CPU):")
    for nodeid, (wall, cpu, _, _) in sorted(tests.items(), key=lambda kv: -kv[1][0])[:20]:
        lines.append(f"  {wall:6.1f} {cpu:6.1f}  {nodeid[:110]}")
    return "\n".join(lines)


if __name__ == "__main__":
    if not 2 <= len(sys.argv) <= 3:
        sys.exit("usage: python -m tests.perf.cpuwall PREFIX [BEFORE_PREFIX]")
    print(report(*sys.argv[1:]))
