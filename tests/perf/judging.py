"""What the reference judges share (tests/perf/troll_judge.py, tests/perf/judge_others.py): the
seeds they judge on, the cache of the reference's figures, and the tally of how the analyser's
marks, drops and named best moves stand against the reference's, printed as text or as a row of
the README's table ("The analysis, judged").

The analyser is called through `analysis.analyse` only (and `practice.choices` for the words of its
moves), so a new analyser is judged as it is, at run time; the reference is the judge's own, built
on the rules and the bots, and cached by position and settings, so judging again after the
analyser changes costs only the analyser's time.

Seeds: the analysers' constants were tuned on TUNING seeds (1 to 16: the Towers slope and spread,
the troll's and War of Bones' earlier judgements); FRESH seeds (from 1001 on) were never tuned on.
Keep it so: tune on the tuning seeds, report on the fresh ones.
"""
from __future__ import annotations

import json
import math
import os
import resource
import statistics
import time
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path

TUNING = range(1, 17)  # the seeds the analysers' constants were tuned or checked on
FRESH_FIRST = 1001  # fresh seeds start here: never tuned on
# the reference's figures, shared by every checkout on this machine (the coordinator's re-run after a
# merge reads what the engineers' runs computed): DICEHALL_JUDGE_CACHE, else the user's cache folder
CACHE = Path(os.environ.get("DICEHALL_JUDGE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dicehall-judges")
Z = 2.0  # standard errors: "beyond noise" means the drop less Z standard errors
MARKS = ("?!", "?", "??")


def seeds(first: int | None, games: int) -> tuple[range, str]:
    """The games' seeds (fresh by default) and what they are, in words: "fresh seeds 1001..1006"."""
    start = FRESH_FIRST if first is None else first
    chosen = range(start, start + games)
    if all(seed in TUNING for seed in chosen):
        return chosen, f"tuning seeds {start}..{start + games - 1}"
    if any(seed in TUNING for seed in chosen):
        raise SystemExit(f"seeds {start}..{start + games - 1} mix tuning seeds ({TUNING.start}..{TUNING.stop - 1}) "
                         f"and fresh ones: judge them apart")
    return chosen, f"fresh seeds {start}..{start + games - 1}"


def cached(kind: str, key: object, compute):
    """`compute()`'s JSON-able answer, kept in CACHE/kind/ under a hash of `key` (the position and
    every setting the answer depends on), so a reference is computed once."""
    name = blake2b(repr(key).encode(), digest_size=16).hexdigest()
    path = CACHE / kind / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    answer = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(answer))
    os.replace(partial, path)  # whole or not at all: two judges may write the same answer
    return answer


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of a[i] - b[i] over the samples both have, and its standard error (0 for one)."""
    gaps = [x - y for x, y in zip(a, b)]
    if len(gaps) < 2:
        return (gaps[0] if gaps else 0.0), 0.0
    return statistics.fmean(gaps), statistics.stdev(gaps) / math.sqrt(len(gaps))


def mark_for(drop: float, thresholds: tuple[float, float, float]) -> str:
    mark = ""
    for symbol, threshold in zip(MARKS, thresholds):
        if drop >= threshold - 1e-12:
            mark = symbol
    return mark


@dataclass(frozen=True)
class Verdict:
    """One decision: the analyser's mark, drop and named best, and the reference's figures."""

    mark: str  # the analyser's
    drop: float  # the analyser's, in the figure its marks use
    ref_drop: float  # the reference: its best less the move played
    ref_se: float  # ... its standard error (0: exact or deterministic)
    named_gain: tuple[float, float] | None = None  # the reference: the named best less the move played, and its SE
    named_short: tuple[float, float] | None = None  # the reference: its best less the named best, and its SE


@dataclass
class Tally:
    """How the analyser stands against the reference, over decisions (`add`)."""

    thresholds: tuple[float, float, float]
    verdicts: list[Verdict]

    def disagreement(self, v: Verdict) -> str:
        """Where the reference disagrees with a decision's mark, in words ("" where it does not)."""
        level = mark_for(v.ref_drop - Z * v.ref_se, self.thresholds)
        if not v.mark:
            return f"unmarked, beyond noise at {level}" if level else ""
        size = self.thresholds[MARKS.index(v.mark)]
        return f"{v.mark} refuted" if v.ref_drop + Z * v.ref_se < size else ""

    def confirmed(self) -> tuple[int, int, int]:
        """Of the analyser's marks: (confirmed: the reference's drop at the mark's size or more;
        within its noise; refuted: below the mark's size beyond the reference's noise)."""
        sure = noisy = refuted = 0
        for v in self.verdicts:
            if not v.mark:
                continue
            size = self.thresholds[MARKS.index(v.mark)]
            if v.ref_drop >= size - 1e-12:
                sure += 1
            elif v.ref_drop + Z * v.ref_se < size:
                refuted += 1
            else:
                noisy += 1
        return sure, noisy, refuted

    def unmarked(self) -> dict[str, int]:
        """Decisions the analyser left unmarked that the reference puts beyond noise at a mark's level."""
        found = {mark: 0 for mark in MARKS}
        for v in self.verdicts:
            level = mark_for(v.ref_drop - Z * v.ref_se, self.thresholds)
            if not v.mark and level:
                found[level] += 1
        return found

    def correlation(self) -> float:
        return spearman([v.drop for v in self.verdicts], [v.ref_drop for v in self.verdicts])

    def named(self) -> tuple[int, int, int, int]:
        """Of the named best moves the reference judged: (how many; the reference's best or within
        Z SE of it; at least as good as the move played, within one SE; worse than it beyond noise)."""
        judged = [v for v in self.verdicts if v.named_gain is not None and v.named_short is not None]
        top = sum(1 for v in judged if v.named_short[0] - Z * v.named_short[1] <= 1e-9)
        as_good = sum(1 for v in judged if v.named_gain[0] + v.named_gain[1] >= -1e-9)
        worse = sum(1 for v in judged if v.named_gain[0] + Z * v.named_gain[1] < -1e-9)
        return len(judged), top, as_good, worse

    def text(self) -> str:
        marks, (sure, noisy, refuted), missed, (named, top, as_good, worse) = self._figures()
        return (f"{len(self.verdicts)} decisions, {marks} marked: confirmed {sure}, within the reference's noise "
                f"{noisy}, refuted {refuted}; unmarked but beyond noise: "
                + ", ".join(f"{missed[m]} at {m}" for m in MARKS)
                + f"; rank correlation of drops {self.correlation():.2f}; named best (other than the move played) "
                f"{named}: the reference's best within noise {top}, at least as good as the move played {as_good}, "
                f"worse than it beyond noise {worse}")

    def row(self, game: str, command: str) -> str:
        """The README's table row (TABLE_HEAD's columns)."""
        marks, (sure, _, refuted), missed, (named, top, as_good, worse) = self._figures()
        return (f"| {game}, {len(self.verdicts)} decisions | {sure} of {marks} | {refuted} of {marks} | "
                f"{' / '.join(str(missed[m]) for m in MARKS)} | {self.correlation():.2f} | "
                f"{top} / {as_good} / {worse} of {named} | `{command}` |")

    def _figures(self):
        return sum(1 for v in self.verdicts if v.mark), self.confirmed(), self.unmarked(), self.named()

    def report(self, what: str, game: str, command: str, markdown: bool) -> None:
        """The tally in words after `what` (the games and settings), and with `markdown` the table row."""
        print(f"{what}: {self.text()}", flush=True)
        if markdown:
            print(TABLE_HEAD + "\n" + self.row(game, command), flush=True)


TABLE_HEAD = ("| game (games, seeds), decisions | marks the reference confirms | marks it refutes | "
              "unmarked but beyond noise (`?!` / `?` / `??`) | rank correlation of drops | "
              "named best: the reference's best / at least as good as the move played / worse beyond noise | command |\n"
              "| --- | --- | --- | --- | --- | --- | --- |")


def games(count: int, kind: str = "") -> str:
    """"1 game", "4 human-like games"."""
    return f"{count} {kind + ' ' if kind else ''}game{'' if count == 1 else 's'}"


def game_line(session, result, what: str = "") -> str:
    """One line a game judged: its seed, decisions, marks and outcome."""
    ending = session.outcome.summary if session.outcome else "stalled, not finished"
    return (f"seed {session.seed}{what}: {len(result.decisions)} decisions, "
            f"{sum(1 for d in result.decisions if d.mark)} marked; {ending}")


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties ranked by their mean rank); 0 where either is constant."""
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    if len(xs) < 2:
        return 0.0
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    norm = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / norm if norm else 0.0


def named_commands(session, decision, words: str):
    """The commands of the move the analyser calls `words`, through the analysis's own words
    (`practice.choices`); None if none reads so. A word added after the move (a note beside it)
    still finds it: the longest choice `words` begins with."""
    from dicehall.engine.analysis import practice

    found = [(w, commands) for w, commands in practice.choices(session, decision) if words.startswith(w)]
    return max(found, key=lambda choice: len(choice[0]))[1] if found else None


class Clock:
    """Wall and CPU time (this process and its finished children: the analyser's pool, the workers)."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), self._cpu()

    @staticmethod
    def _cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    def since(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, self._cpu() - self.cpu

    def text(self) -> str:
        wall, cpu = self.since()
        return f"{wall:.0f} s wall, {cpu:.0f} s CPU"
