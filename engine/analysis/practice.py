"""Practice (issue #22, lichess's "learn from your mistakes"): a marked decision of a person comes back
with the answer hidden; the player picks a move among the decision's choices, in the analysis's own
words, and is told whether it is as good as the best (the best itself, or a drop below the game's
first mark: within the mark's noise), what the best was and why, in the analysis's figures.

The choices and their figures come from the game's analyser (engine/analysis/GAME.py):
`practice_choices(state)` lists (words, commands) and `practice_measure(session, start, commands)`
gives a choice's figure in the units its marks use (win chance, or Towers' margin), judged as the
analysis judges (the same sampled deals or futures). An analyser without them offers the legal
commands and judges only the best and the played move. Pure: what to practise and what was solved
is kept on disk by saves/practice.py."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from dicehall.engine.analysis import ANALYSERS, MARK_WORDS, Decision
from dicehall.engine.games import entry_of


@dataclass(frozen=True)
class Verdict:
    accepted: bool  # as good as the best, within the mark's noise
    text: str  # what the player is told: yes or no, the best and why


def _module(game: str):
    return import_module(ANALYSERS[game])


def choices(session, decision: Decision) -> list[tuple[str, tuple]]:
    """The moves of the decision, in the analysis's words (the best and the played among them), in
    the order of their words."""
    state = session.state_at(decision.event - 1)
    hook = getattr(_module(session.game.ID), "practice_choices", None)
    found = hook(state) if hook else [(str(c), (c,)) for c in session.game.legal_commands(state)]
    seen, unique = set(), []
    for words, commands in found:  # words shown once: two moves that read the same are one choice
        if words not in seen:
            seen.add(words)
            unique.append((words, commands))
    return sorted(unique, key=lambda choice: choice[0])  # not the adviser's order: that would hint


def why(session, decision: Decision, words: str) -> str:
    """The hint's reason for the move `words` at `decision`, where the analyser gives one ("" if not)."""
    hook = getattr(_module(session.game.ID), "practice_why", None)
    if hook is None:
        return ""
    commands = next((c for w, c in choices(session, decision) if w == words), None)
    return hook(session.state_at(decision.event - 1), commands) if commands is not None else ""


def _figure(game: str, value: float, equity: bool = False) -> str:
    if entry_of(game).marks_by_margin:
        return f"margin {value:+.1f} points"
    return f"equity {value:.1%}" if equity else f"win {value:.1%}"


def _marked_figures(decision: Decision) -> tuple[float, float, bool]:
    """The played and best figures the marks use: the equity where the analysis gives one (the troll)."""
    if decision.equity_played is not None and decision.equity_best is not None:
        return decision.equity_played, decision.equity_best, True
    return decision.chance_played, decision.chance_best, False


def noise(game: str) -> float:
    """The drop within which a move is as good as the best: below the game's first mark."""
    return getattr(_module(game), "THRESHOLDS", (0.05,))[0]


def judge(session, decision: Decision, words: str, commands: tuple, samples: int | None = None) -> Verdict:
    """Whether the move `words` (its `commands`) is as good as the best at `decision`, what the best
    was and why, in the hint's words where the analyser gives them."""
    verdict = _judge(session, decision, words, commands, samples)
    reason = why(session, decision, decision.best)
    return Verdict(verdict.accepted, f"{verdict.text} Why {decision.best}: {reason}." if reason else verdict.text)


def _judge(session, decision: Decision, words: str, commands: tuple, samples: int | None = None) -> Verdict:
    game = session.game.ID
    by_margin = entry_of(game).marks_by_margin
    played_mark = f"{decision.mark} {MARK_WORDS[decision.mark]}" if decision.mark else "no mark"
    played_figure, best_figure, equity = _marked_figures(decision)
    if words == decision.best:
        figure = "" if by_margin else f" ({_figure(game, best_figure, equity)})"
        return Verdict(True, f"Yes: {words} is the best the analysis found{figure}. You played {decision.played}"
                             f" ({played_mark}" + ("" if by_margin else f", {_figure(game, played_figure, equity)}") + ").")
    if words == decision.played:
        figures = "" if by_margin else f": {_figure(game, played_figure, equity)} against {_figure(game, best_figure, equity)}"
        return Verdict(False, f"No: that is the move you played ({played_mark}{figures}). "
                              f"The best: {decision.best}.")
    measure = getattr(_module(game), "practice_measure", None)
    if measure is None:
        return Verdict(False, f"Not judged: only the best ({decision.best}) and your move are known here.")
    start = decision.event - 1
    best_commands = next((c for w, c in choices(session, decision) if w == decision.best), None)
    mine = measure(session, start, commands, samples)  # in the figure the marks use
    best = measure(session, start, best_commands, samples) if best_commands is not None else best_figure
    drop = best - mine
    said = f"{words}: {_figure(game, mine, equity)}; the best, {decision.best}: {_figure(game, best, equity)}"
    if drop < noise(game):
        return Verdict(True, f"Yes: as good as the best within the noise ({said}).")
    return Verdict(False, f"No: {said} ({drop * (1 if by_margin else 100):.1f} points less).")


__all__ = ["Verdict", "choices", "judge", "noise", "why"]
