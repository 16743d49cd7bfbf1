"""Towers' analysis: each move or placement of a person against the move the bot's search
(*medium*, engine/bots/towers.py) finds, both judged by the same search after the move, in points
of the game's final margin (exact near the end, where the search reaches the last move; the bot's
evaluation before that: the score as the board stands plus a quarter point per tower that can
still move). Marks are by margin lost, which reads better here than a win chance: ?! one point,
? two, ?? four. The chances in the results are that margin turned into a win chance (a finished
game: 1, 0.5 or 0; an estimate: a logistic curve, +2 points about 73%), for the graph. No chance
events: Towers has no dice."""
from __future__ import annotations

import math

from dicehall.engine.analysis import Analysis, Decision, Point, mark_for
from dicehall.engine.bots import towers as bot
from dicehall.engine.games import towers

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 1

NODES = bot.NODES["medium"]  # positions searched per move judged
THRESHOLDS = (1.0, 2.0, 4.0)  # points of margin lost: ?!, ?, ??
SCALE = 2.0  # points of margin per unit of the logistic curve that turns a margin into a chance


def _fold(state, events):
    for event in events:
        state = towers.evolve(state, event)
    return state


def margin_after(state: towers.TowersState, command: object, nodes: int = NODES) -> tuple[float, bool]:
    """The margin (points, from the side playing `command`) the search expects after it, and
    whether it is exact (the game ended, or every line of the search reached the end)."""
    mover = state.turn
    after = _fold(state, towers.decide(state, command))
    if len(after.results) > len(state.results):  # this move ended the game
        light, dark = after.results[-1]
        return float(light - dark if mover == towers.LIGHT else dark - light), True
    search = bot.Search(after, nodes)
    colour = after.turn
    value, exact = search.evaluate(colour), False
    for depth in range(1, 41):
        search.cut = False
        try:
            value = search.negamax(colour, depth, -math.inf, math.inf)
        except bot._OutOfNodes:
            break
        if not search.cut:  # every line reached the end: exact
            exact = True
            break
    points = value / bot.TERMINAL if abs(value) >= bot.TERMINAL else value  # a finished line counts its margin x TERMINAL
    return (points if colour == mover else -points), exact


def _matches(produced: tuple, events, start: int) -> bool:
    """Whether the log holds these events from `start` (the log keeps events, not commands)."""
    return tuple(events[start:start + len(produced)]) == produced


def chance(margin: float, exact: bool = False) -> float:
    if exact:
        return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return 1.0 / (1.0 + math.exp(-margin / SCALE))


def analyse(session, samples: int | None = None, progress=None, partial=None) -> Analysis:
    people = {seat for seat, player in enumerate(session.players) if not player.bot}
    events = session.events
    marks = [mark for mark in session.marks if mark.player in people]
    decisions, curve = [], []
    for done, mark in enumerate(marks, start=1):
        state = session.state_at(mark.start)
        commands = towers.legal_commands(state)
        played = next(c for c in commands if _matches(towers.decide(state, c), events, mark.start))
        best = bot.choose(state, "medium", seed=session.seed, nonce=mark.start)
        played_margin, played_exact = margin_after(state, played)
        best_margin, best_exact = margin_after(state, best) if best != played else (played_margin, played_exact)
        if best_margin <= played_margin:
            best, best_margin, best_exact = played, played_margin, played_exact  # as good as the search's
        drop = best_margin - played_margin
        decisions.append(Decision(mark.start + 1, mark.player, str(played), str(best), chance(played_margin, played_exact),
                                  chance(best_margin, best_exact), mark_for(drop, THRESHOLDS)))
        curve.append(Point(mark.start, chance(best_margin, best_exact)))
        if partial:
            partial(Analysis(towers.ID, "win chance", tuple(decisions), (), tuple(curve)))
        if progress:
            progress(done, len(marks))
    notes = ("marks by margin lost (points): 1 ?!, 2 ?, 4 ??; chances are the margin on a logistic curve "
             "(+2 points about 73%); judged by the medium bot's search, exact near the end",)
    return Analysis(towers.ID, "win chance", tuple(decisions), (), tuple(curve), notes,
                    names=tuple(p.name for p in session.players))


# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: towers.TowersState) -> list[tuple[str, tuple]]:
    return [(str(command), (command,)) for command in towers.legal_commands(state)]


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The margin (points, the mover's side) the search expects after the move: marks are by margin."""
    return margin_after(session.state_at(start), commands[0])[0]
