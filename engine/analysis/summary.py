"""A game-over summary, as roguelikes write a morgue file: a short text that says how a game went
(the result, the deal's code, undos and assists used, the players' comments) and, where it was
analysed, its turning points: the costliest decision and the luckiest and unluckiest rolls; for a
game with a hindsight solver, its verdict when asked (labelled: it looked at the hidden cards).

The end screen's help shows it without analysis (the screen never waits for a search);
`dicehall summary SAVE_OR_FILE --analyse --hindsight` adds them."""
from __future__ import annotations

from collections import Counter
from textwrap import wrap

from dicehall.engine.analysis import PULLS_LEFT, Analysis, MARK_WORDS, has_analyser
from dicehall.engine.deals import deal_code
from dicehall.engine.games import entry_of
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

WIDTH = 74  # columns: the help's box at 80x24 holds it unwrapped again
ASSIST_WORDS = {"hint": "hint", "reveal": "reveal of the hidden cards", "hindsight": "hindsight search"}


def _luck_words(analysis: Analysis, luck: float) -> str:
    return f"{luck:+.2f} pulls" if analysis.figure == PULLS_LEFT else f"{luck:+.1%} win chance"


def turning_points(session, analysis: Analysis) -> list[str]:
    """The costliest decision and the luckiest and unluckiest rolls, in the game's own words."""
    lines = []
    seats = len(session.players)

    def who(seat: int, event: int) -> str:
        """The player of `seat` at event `event` (from 1): a person before a bot took the seat over."""
        return f", {clean_text(session.labels.holder(session.players, seat, event - 1).name, 20)}" if seats > 1 and 0 <= seat < seats else ""

    costly = max(analysis.decisions, key=lambda d: d.drop, default=None)
    if costly is not None and costly.drop > 0:
        mark = f" {costly.mark} {MARK_WORDS[costly.mark]}" if costly.mark else ""
        lines.append(f"the costliest decision: event {costly.event}{who(costly.seat, costly.event)}, {costly.played}"
                     f"{mark} ({costly.drop:.1%} of win chance lost; best {costly.best})")
    elif analysis.decisions:
        lines.append(f"no decision cost anything: {counted(len(analysis.decisions), 'decision')} judged, "
                     "each as good as the best found")
    rolls = [item for item in analysis.chance if item.luck]
    if rolls:
        luckiest = max(rolls, key=lambda item: item.luck)
        unluckiest = min(rolls, key=lambda item: item.luck)
        for word, item in (("luckiest", luckiest), ("unluckiest", unluckiest)):
            if (word == "luckiest") == (item.luck > 0):
                what = clean_text(session.describe(item.event - 1, False), 80)
                lines.append(f"the {word} roll: event {item.event}{who(item.seat, item.event)}, {what} "
                             f"({_luck_words(analysis, item.luck)})")
    return lines


def game_summary(session, analysis: Analysis | None = None, hindsight=None, width: int = WIDTH) -> str:
    """The summary of `session` as plain lines of at most `width` columns. `analysis`: an Analysis
    of it (engine.analysis.analyse) for the turning points; `hindsight`: a troll_solver Solution."""
    return "\n".join(piece for line in summary_lines(session, analysis, hindsight)
                     for piece in (wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]))


def summary_paragraph(session) -> str:
    """The summary in one paragraph (no analysis): what the end screen's help says first."""
    return " ".join(line if line.endswith(".") else f"{line}." for line in summary_lines(session) if line)


def summary_lines(session, analysis: Analysis | None = None, hindsight=None) -> list[str]:
    """The summary's lines, unwrapped."""
    title = session.game.TITLE
    outcome = session.outcome
    name = clean_text(session.labels.save_name or "")
    lines = [f"{title}: {name}" if name and name != title else title]
    result = outcome.summary if outcome else f"unfinished, after {counted(len(session.events), 'event')}"
    if outcome is None and session.labels.abandoned:  # a hall game ended over an idle seat
        result = f"abandoned after {counted(len(session.events), 'event')}: {clean_text(session.labels.abandoned, 200)}"
    lines.append(f"Result: {result}")
    players = ", ".join(clean_text(p.name, 40) + (" (bot)" if p.bot else "") for p in session.players)
    if players:
        lines.append(f"Players: {players}")
    for handover in session.labels.handovers:  # a hall seat a bot took over: the moves before it were a person's
        lines.append(f"Handed over: {handover.words(session.players[handover.seat].name)}")
    if session.seed is not None and not hasattr(session, "seed_shown"):
        try:
            lines.append(f"Deal: {deal_code(session.game.ID, session.seed, session.options)}")
        except ValueError:
            pass
    decisions = len(session.turn_starts())
    claimed = " (claimed)" if session.labels.header_claimed else ""
    lines.append(f"Played: {counted(len(session.events), 'event')}, {counted(decisions, 'move')}; "
                 f"{counted(session.undos, 'undo')}{claimed}")
    asked = Counter(kind for kind, _ in session.labels.assists)
    lines.append("Assists: " + (", ".join(counted(n, ASSIST_WORDS.get(kind, clean_text(kind, 20)))
                                          for kind, n in sorted(asked.items())) if asked else "none asked"))
    if session.labels.comments:
        where = ", ".join("the whole game" if n == 0 else f"event {n}" for n in sorted(session.labels.comments))
        lines.append(f"Comments: {len(session.labels.comments)} (on {where})")
    lines.append("")
    if analysis is not None:
        lines.append("Turning points (analysed):")
        points = turning_points(session, analysis)
        lines += [f"- {point}" for point in points] or ["- nothing to judge: no decision and no roll"]
        lines.append(f"- {clean_text(analysis.summary(), 400)}")
    elif not has_analyser(session.game.ID):
        lines.append(f"Turning points: {session.game.TITLE} has no analysis yet")
    else:
        lines.append("Turning points: not analysed (a in the viewer, or dicehall summary --analyse)")
    if hindsight is not None:
        lines.append("Hindsight (the solver looked at the hidden cards): " + hindsight.summary())
    elif entry_of(session.game.ID).solver:
        lines.append("Hindsight: not asked (H in the viewer, or dicehall summary --hindsight; it looks at the "
                     "hidden cards)")
    return lines
