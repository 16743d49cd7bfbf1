"""Analysis: where a game was won and lost. Game-independent results and the per-game analysers.

An analyser reads a finished (or unfinished) session and judges, for every decision of a person,
the chance of winning with the move played and with the best move it finds, and for every chance
event how lucky it was: the change in that chance it caused against its expectation (GNU
Backgammon's luck). Events are numbered from 1, as the replay viewer numbers them. The figures use
only what the player could see at the time (the troll's face-down cards and deck order are
resampled), and any sampling draws from the replay's seed, so the same file gives the same figures.

    result = analysis.analyse(session, samples=None)   # NoAnalyser for a game without one yet

An analyser that judges one decision at a time also takes `partial`: it calls `partial(result)`
with an Analysis of what it has judged so far (decisions, curve), so a screen can show the first
decisions of a long analysis early.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from importlib import import_module
from typing import Callable

from dicehall.engine.errors import DicehallError
from dicehall.engine.games import CATALOGUE

# Win-chance drops (0..1) that earn a mark, lichess's sizes: ?! inaccuracy, ? mistake, ?? blunder.
WIN_CHANCE_THRESHOLDS = (0.05, 0.10, 0.15)
MARKS = ("?!", "?", "??")
MARK_WORDS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
MARK_PLURALS = {"?!": "inaccuracies", "?": "mistakes", "??": "blunders"}

# game id -> the module that analyses it (imported only when asked for), from the catalogue
ANALYSERS = {entry.id: entry.analyser for entry in CATALOGUE if entry.analyser}
PULLS_LEFT = "expected pulls left"  # the figure of an analysis of a countdown (the Dice Tower), not win chance
WIN_CHANCE = "win chance"  # the figure of an analyser that names no FIGURE of its own


class NoAnalyser(DicehallError, ValueError):
    """The game has no analyser yet."""


@dataclass(frozen=True)
class Decision:
    """One decision of a person: what was played and what the analyser finds best, in the game's words."""

    event: int  # numbered from 1, as the viewer numbers events
    seat: int
    played: str
    best: str
    chance_played: float  # chance of winning (0..1) with the move played
    chance_best: float  # ... with the best move found
    mark: str = ""  # "", "?!", "?" or "??"
    # where the marks use another figure than the win chance (the troll's equity): it, played and best
    equity_played: float | None = None
    equity_best: float | None = None
    noise: float | None = None  # the standard error of the paired difference the mark allowed for
    # the facts of the move played that a figure does not say, in words ("ends the game at once: the
    # bridge collapses"); shown beside the mark, which says only how much was lost
    words: str = ""

    @property
    def drop(self) -> float:
        """What the best found was better by, in the figure the marks use (the equity where given)."""
        if self.equity_best is not None and self.equity_played is not None:
            return max(0.0, self.equity_best - self.equity_played)
        return max(0.0, self.chance_best - self.chance_played)

    @property
    def marked_by(self) -> str:
        return "win chance" if self.equity_best is None else "equity"


@dataclass(frozen=True)
class Luck:
    """One chance event: how much it moved the figure against its expectation (+ lucky, - unlucky)."""

    event: int
    luck: float
    seat: int = 0  # whose luck it was (the roller's)


@dataclass(frozen=True)
class Point:
    """The figure along the game, after `event` events (0: the start), from the person's side."""

    event: int
    value: float


@dataclass(frozen=True)
class Analysis:
    game: str
    figure: str  # what `curve` and `luck` measure: "win chance" or, for the Dice Tower, "expected pulls left"
    decisions: tuple[Decision, ...] = ()
    chance: tuple[Luck, ...] = ()
    curve: tuple[Point, ...] = ()
    notes: tuple[str, ...] = ()  # what the analysis could not judge, and how it judged
    extra: dict = field(default_factory=dict)  # per-game figures for the JSON (the Dice Tower's odds)
    names: tuple[str, ...] = ()  # the players, for the summary's luck

    def summary(self) -> str:
        if not self.decisions and self.figure == PULLS_LEFT:
            return _tower_summary(self)
        counts = {mark: sum(1 for d in self.decisions if d.mark == mark) for mark in MARKS}
        marked = ", ".join(f"{counts[m]} {MARK_PLURALS[m] if counts[m] != 1 else MARK_WORDS[m]} ({m})" for m in reversed(MARKS))
        worst = max(self.decisions, key=lambda d: d.drop, default=None)
        text = f"{len(self.decisions)} decisions judged: {marked}"
        if worst is not None and worst.drop > 0:
            text += (f"; the costliest: event {worst.event}, {worst.played} ({worst.drop:.1%} of {worst.marked_by}; "
                     f"best {worst.best})")
        seats = sorted({item.seat for item in self.chance})
        lucks = [f"{self.names[seat] if seat < len(self.names) else seat} "
                 f"{sum(item.luck for item in self.chance if item.seat == seat):+.1%}" for seat in seats]
        return text + (f"; luck in win chance: {', '.join(lucks)}" if lucks else "")


def _tower_summary(result: Analysis) -> str:
    luck = sum(item.luck for item in result.chance)
    first = result.curve[0].value if result.curve else 0.0
    return (f"{len(result.chance)} rolls; expected pulls at the start {first:.2f}; "
            f"luck in all {luck:+.2f} pulls (positive: the tower stood longer than expected)")


def mark_for(drop: float, thresholds: tuple[float, float, float] = WIN_CHANCE_THRESHOLDS) -> str:
    """The mark a drop in win chance earns: "" below the first threshold, then ?!, ?, ??."""
    mark = ""
    for symbol, threshold in zip(MARKS, thresholds):
        if drop >= threshold - 1e-12:
            mark = symbol
    return mark


def figure_of(result: Analysis, seat: int, default: str = "") -> str:
    """What a decision's two chances are, in words: the seat's side where the analysis names one
    (Towers: "Light's chance", extra["sides"]), else `default` (or the result's figure)."""
    sides = result.extra.get("sides") or ()
    return sides[seat] if 0 <= seat < len(sides) else default or result.figure


def figure_for(game: str) -> str:
    """The figure the game's analyser writes: its module's FIGURE, or win chance."""
    return getattr(import_module(ANALYSERS[game]), "FIGURE", WIN_CHANCE)


def has_analyser(game: str) -> bool:
    return game in ANALYSERS


def analyse(session, samples: int | None = None, budget: float | None = None,
            progress: Callable[[int, int], None] | None = None,
            partial: Callable[[Analysis], None] | None = None) -> Analysis:
    """Analyse a session (a replay's or a save's). `samples`: sampled deals per decision where the
    game samples (None: the game's default); `budget` (seconds) chooses the samples instead, from
    the number of decisions at a fixed rate, so the figures never depend on the machine's speed;
    `progress(done, total)` is called as it goes, and `partial(result_so_far)` after each decision
    judged (by the analysers that take it; the others give only the whole result)."""
    game = session.game.ID
    if game not in ANALYSERS:
        raise NoAnalyser(f"{session.game.TITLE} has no analysis yet (analysed: "
                         f"{', '.join(sorted(ANALYSERS))})")
    module = import_module(ANALYSERS[game])
    if budget is not None and samples is None and hasattr(module, "samples_for_budget"):
        samples = module.samples_for_budget(session, budget)
    reports = {"partial": partial} if partial and "partial" in inspect.signature(module.analyse).parameters else {}
    return module.analyse(session, samples=samples, progress=progress, **reports)


def prepare(game: str) -> None:
    """Start ahead what analysing `game` will need (its analyser's `prepare`, if it has one: the
    troll's starts its pool's forkserver), so that the first analysis does not wait for it. It may
    take a moment (it imports the analyser): the viewer calls it from a worker thread as it opens."""
    if game in ANALYSERS:
        hook = getattr(import_module(ANALYSERS[game]), "prepare", None)
        if hook is not None:
            hook()


def check_stored(result: Analysis, session) -> None:
    """An analysis read back from a file, checked by its game's own checker (`check_stored` beside
    the analyser, which knows what its `extra` and figures hold): shape.ShapeError, one line, if not."""
    import_module(ANALYSERS[result.game]).check_stored(result, session)


def _added(decision: Decision) -> dict:
    """The fields an analyser added beyond the six (only where it gave them)."""
    added: dict = {name: round(getattr(decision, name), 6) for name in ("equity_played", "equity_best", "noise")
                   if getattr(decision, name) is not None}
    return {**added, "words": decision.words} if decision.words else added


def as_json(result: Analysis) -> dict:
    """The analysis as plain data: `decisions` with exactly the issue's fields, `chance` with event
    and luck, and the curve and per-game figures beside them (never in place of the output's own)."""
    decisions = [{"event": d.event, "played": d.played, "best": d.best, "chance_played": round(d.chance_played, 6),
                  "chance_best": round(d.chance_best, 6), "mark": d.mark, **_added(d)} for d in result.decisions]
    if result.extra.get("sides"):  # whose chance each decision's two are (Towers: the mover's, not the curve's)
        for row, decision in zip(decisions, result.decisions):
            row["figure"] = figure_of(result, decision.seat)
    document = {
        "game": result.game,
        "figure": result.figure,
        "decisions": decisions,
        "chance": [{"event": c.event, "luck": round(c.luck, 6)} for c in result.chance],
        "curve": [{"event": p.event, "value": round(p.value, 6)} for p in result.curve],
        "summary": result.summary(),
        "notes": list(result.notes),
    }
    document.update((key, value) for key, value in result.extra.items() if key not in document)
    return document


__all__ = ["ANALYSERS", "Analysis", "Decision", "Luck", "MARKS", "NoAnalyser", "Point", "WIN_CHANCE_THRESHOLDS",
           "WIN_CHANCE", "analyse", "as_json", "check_stored", "figure_for", "figure_of", "has_analyser", "mark_for", "prepare"]
