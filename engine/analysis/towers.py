"""Towers' analysis: each placement and move of a person against every legal move, all judged by one
search from the position before it (the medium bot's alpha-beta, engine/bots/towers.py), in points
of the game's final margin.

- Every candidate is judged at the same depth: moves judged at different depths would be compared
  across the evaluation's odd-even swing (whose reply the search saw last), which made most moves
  look like blunders. Before the end, a move's figure is the mean of the two deepest depths the
  search completed, so neither side's last word counts alone.
- Exact near the end: with at most EXACT_TOWERS towers left to move, every move is solved exactly
  (towers_exact.py: the final margin with best play for both), so the marks and the best named
  there are exact; elsewhere too when every line of the search reaches the last move. An exact
  figure is the final margin, its chance 1, 0.5 or 0.
- Before that the search's figure is an estimate: it becomes an expected final margin by a slope
  measured on games between the bots (SLOPE), and a move is marked only when the margin lost
  exceeds the threshold by an allowance for the search's own error (ALLOWANCE, by phase; checked
  against a search 10 times longer, docs/analysis.md). Marks: ?! 1 point, ? 2, ?? 4.
- The chance is a named side's: each decision's is the mover's ("Light's chance" when Light moved),
  the curve Light's. An estimate becomes a chance through the spread of final margins around it
  measured in games between the bots (SPREAD, by towers placed, then the movement), so the first
  placements are even, as they are.

No chance events: Towers has no dice."""
from __future__ import annotations

import math

from dicehall.engine.analysis import Analysis, Decision, Point, mark_for, shape, towers_exact
from dicehall.engine.bots import towers as bot
from dicehall.engine.games import towers

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
# 2: every legal move judged, the side named, marks beyond the search's error; 3: exact endings
ANALYSER_VERSION = 3

NODES = 8_000  # positions searched per decision
# with this many towers or fewer left to move (both sides'), a position is solved exactly
# (towers_exact.py): measured so that a whole game's analysis, both sides judged, stays within 10 s
# of CPU (tests/perf/bench.py towers_analysis; the figure in docs/analysis.md)
EXACT_TOWERS = 8
THRESHOLDS = (1.0, 2.0, 4.0)  # points of margin lost: ?!, ?, ??
# the search's error in a margin lost, allowed for before a mark (0 where it is exact); placement errs
# more than movement. Checked, not fitted: with these, a search 10 times longer confirms the marks
# (tests/perf/judge_others.py towers; the figures in docs/analysis.md)
ALLOWANCE = {"placement": 2.0, "movement": 1.0}
# how the search's estimate becomes an expected final margin, and how far the final margin strays
# from it, by towers placed (in fours) and then in the movement: measured on 16 games between the
# bots (tests/perf/judge_others.py towers --spread: slopes -0.78, 1.49, 1.08, 0.54 and 0.72, spreads
# 6.0, 5.7, 4.3, 4.6 and 3.9 points). Over the first four towers the estimate tells nothing (its
# slope was below zero): they are all even. The slopes are rounded down to at most 1.
SLOPE = {0: 0.0, 4: 1.0, 8: 1.0, 12: 0.6, "movement": 0.7}
SPREAD = {0: 6.0, 4: 5.7, 8: 4.3, 12: 4.6, "movement": 3.9}
SIDES = ("Light's chance", "Dark's chance")
FIGURE = SIDES[0]  # the curve is Light's (a stored analysis must say so)


def _as_move(command: object) -> tuple[int, int]:
    if isinstance(command, towers.Place):
        return (-1, command.square)
    assert isinstance(command, towers.Move)  # Towers has two commands
    return (command.source, command.target)


def _as_command(move: tuple[int, int]) -> object:
    return towers.Place(move[1]) if move[0] < 0 else towers.Move(move[0], move[1])


def _points(value: float) -> float:
    """A search value in points of margin: a finished line counts its margin times TERMINAL."""
    return value / bot.TERMINAL if abs(value) >= bot.TERMINAL else value


class Judged:
    """One decision judged: every root move's value at each depth completed (the played move's exact,
    the others' exact where they beat it, else a bound below the best), and whether it was exact."""

    def __init__(self, best: object, best_points: float, played_points: float, exact: bool, depth: int):
        self.best, self.best_points, self.played_points, self.exact, self.depth = best, best_points, played_points, exact, depth

    @property
    def lost(self) -> float:
        return max(0.0, self.best_points - self.played_points)


def judge(state: towers.TowersState, played: object, nodes: int = NODES, table: dict | None = None) -> Judged:
    """Every legal move of the side to act against `played`: solved exactly with at most
    EXACT_TOWERS towers left to move (`table`: the solver's, kept along a game), else by one search
    of `nodes` positions: iterative deepening, each depth completed for every root move, the played
    move first with a full window so its value is exact."""
    colour = state.turn
    if state.phase == "movement" and towers_exact.towers_left(state) <= EXACT_TOWERS:
        best_move, best_value, played_value = towers_exact.Solver(state, table).root(colour, _as_move(played))
        return Judged(_as_command(best_move), float(best_value), float(played_value), True, 0)
    search = bot.Search(state, nodes)
    search.deadline = math.inf  # the node budget alone ends it: the same figures however busy the machine
    placed = search.placed()
    mine = _as_move(played)
    root = [_as_move(c) for c in towers.legal_commands(state)]
    order = [mine] + [m for m in search.ordered(root, colour) if m != mine]
    completed: list[tuple[dict, bool]] = []
    for depth in range(1, 41):
        search.cut = False
        values: dict = {}
        try:
            alpha = -math.inf
            for move in order:
                search.play(move, colour)
                following = search.follower(colour, placed + (1 if move[0] < 0 else 0), move[0] < 0)
                if following != colour:
                    value = -search.negamax(following, depth - 1, -math.inf, -alpha)
                else:
                    value = search.negamax(following, depth - 1, alpha, math.inf)
                search.unplay(move, colour)
                values[move] = value
                alpha = max(alpha, value)
        except bot.OutOfNodes:
            break
        completed.append((values, not search.cut))
        if not search.cut:
            break
        order = [mine] + sorted((m for m in order if m != mine), key=lambda m: -values[m])
    if not completed:  # not even depth 1 within the budget (never with the default): the board as it stands
        return Judged(played, 0.0, 0.0, False, 0)
    values, exact = completed[-1]
    best = max(order, key=lambda m: (values[m], m == mine))  # a tie: the move played
    if exact or len(completed) == 1:
        return Judged(_as_command(best), _points(values[best]), _points(values[mine]), exact, len(completed))
    before = completed[-2][0]
    best_points = (_points(values[best]) + _points(max(before.values()))) / 2
    played_points = (_points(values[mine]) + _points(before[mine])) / 2
    return Judged(_as_command(best), best_points, min(best_points, played_points), False, len(completed))


def margin_after(state: towers.TowersState, command: object, nodes: int = NODES, table: dict | None = None) -> tuple[float, bool]:
    """The margin (points, from the side playing `command`) the search expects after it, and
    whether it is exact (the game ended, or every line of the search reached the end); `table` as judge's."""
    judged = judge(state, command, nodes, table)
    return judged.played_points, judged.exact


def stage(state: towers.TowersState) -> object:
    """The calibration's key: towers placed, in fours, or "movement"."""
    return state.placed // 4 * 4 if state.phase == "placement" else "movement"


def chance(margin: float, exact: bool = False, spread_points: float = SPREAD["movement"]) -> float:
    """The chance of winning with an expected margin (a draw counts half): exact, 1, 0.5 or 0; an
    estimate, the normal curve of the measured spread around it."""
    if exact:
        return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return 0.5 * (1.0 + math.erf(margin / (spread_points * math.sqrt(2.0))))


def expected(judged: Judged, state: towers.TowersState) -> Judged:
    """The search's figures as expected final margins (exact ones as they are): the estimate times
    the slope measured at this stage of the game."""
    if not judged.exact:
        slope = SLOPE[stage(state)]
        judged = Judged(judged.best, judged.best_points * slope + 0.0, judged.played_points * slope + 0.0, False,
                        judged.depth)
    return judged


def mark(judged: Judged, phase: str) -> str:
    """The mark for a margin lost: exact, as it is; an estimate, beyond the search's own error."""
    return mark_for(judged.lost if judged.exact else judged.lost - ALLOWANCE[phase], THRESHOLDS)


def analyse(session, samples: int | None = None, progress=None, partial=None) -> Analysis:
    events = session.events
    # a person's decisions (a hall seat's before a bot took it over too), never a bot's
    marks = [m for m in session.marks if not session.labels.holder(session.players, m.player, m.start).bot]
    decisions, margins = [], []
    curve: dict[int, float] = {}  # event -> Light's chance (a position judged before a decision wins)
    names = tuple(session.labels.seat_name(session.players, seat) for seat in range(len(session.players)))
    table: dict = {}  # the exact solver's, shared by the game's endings
    for done, decision_mark in enumerate(marks, start=1):
        state = session.state_at(decision_mark.start)
        played = next(c for c in towers.legal_commands(state)
                      if _matches(towers.decide(state, c), events, decision_mark.start))
        judged = expected(judge(state, played, table=table) if SLOPE[stage(state)] else Judged(played, 0.0, 0.0, False, 0), state)
        width = SPREAD[stage(state)]
        mover = state.turn
        best = judged.best if judged.lost > 1e-9 else played  # as good as any: the move played is the best
        decisions.append(Decision(decision_mark.start + 1, decision_mark.player, str(played), str(best),
                                  chance(judged.played_points, judged.exact, width),
                                  chance(judged.best_points, judged.exact, width), mark(judged, state.phase)))
        light = 1.0 if mover == towers.LIGHT else -1.0  # the graph is Light's: before the move and after it
        curve[decision_mark.start] = chance(light * judged.best_points, judged.exact, width)
        curve.setdefault(decision_mark.start + 1, chance(light * judged.played_points, judged.exact, width))
        margins.append({"event": decision_mark.start + 1, "side": towers.COLOURS[mover],
                        "margin_played": round(judged.played_points, 3), "margin_best": round(judged.best_points, 3),
                        "exact": judged.exact})
        if partial:
            partial(_result(session, decisions, curve, margins, names))
        if progress:
            progress(done, len(marks))
    return _result(session, decisions, curve, margins, names, finished=True)


def _result(session, decisions, curve, margins, names, finished: bool = False) -> Analysis:
    final, curve = session.state, dict(curve)
    if finished and final.phase == "over":  # the result: Light's margin (a match's, summed)
        curve[len(session.events)] = chance(float(towers.margin(final)), exact=True)
    curve = [Point(event, value) for event, value in sorted(curve.items())]
    notes: tuple[str, ...] = ("figures are margins of the final score from the mover's side, as the mover's chance of winning "
             "(each decision's side named: Light's or Dark's); the graph is Light's chance",
             f"marks by margin lost (points): 1 ?!, 2 ?, 4 ??; exact with {EXACT_TOWERS} towers or fewer left to move "
             "(solved) and where the search reaches the end, elsewhere "
             f"only beyond the search's own error (placement {ALLOWANCE['placement']:g}, movement "
             f"{ALLOWANCE['movement']:g} points)")
    if finished:
        notes += (_ending(final),) if final.phase == "over" else ()
    return Analysis(towers.ID, FIGURE, tuple(decisions), (), tuple(curve), notes,
                    {"margins": margins, "sides": [SIDES[towers.LIGHT], SIDES[towers.DARK]]}, names=names)



MARGIN_KEYS = {"event", "side", "margin_played", "margin_best", "exact"}


def check_stored(result: Analysis, session) -> None:
    """What `_result` writes, checked in a stored copy (shape.ShapeError): the two sides' words, and
    a margin of each decision, at its event, of a side of the board."""
    extra = shape.table(result.extra, {"margins", "sides"}, "the per-game figures")
    if extra["sides"] != list(SIDES):
        raise shape.ShapeError(f"the sides are not {' and '.join(SIDES)}")
    margins = shape.records(extra["margins"], MARGIN_KEYS, len(result.decisions), "margin")
    if not shape.events_at([row["event"] for row in margins], [d.event for d in result.decisions]):
        raise shape.ShapeError("the margins are not one a decision")
    for n, row in enumerate(margins, start=1):
        if row["side"] not in towers.COLOURS or type(row["exact"]) is not bool:
            raise shape.ShapeError(f"margin {n}'s side or exactness is not one the analysis writes")
        for field in ("margin_played", "margin_best"):
            shape.number(row[field], -1e4, 1e4, f"margin {n}'s {field.replace('_', ' ')}")

def _ending(state: towers.TowersState) -> str:
    result = towers.outcome(state)
    return f"the end: {result.summary}" if result else ""


def _matches(produced: tuple, events, start: int) -> bool:
    """Whether the log holds these events from `start` (the log keeps events, not commands)."""
    return tuple(events[start:start + len(produced)]) == produced


# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: towers.TowersState) -> list[tuple[str, tuple]]:
    return [(str(command), (command,)) for command in towers.legal_commands(state)]


# the exact solver's table of the position last practised: a verdict measures two moves there (the one
# picked and the best) and a player tries several, so the position is solved once, not once a move (a
# board's value does not depend on the game it is in; one position's table is kept, the memory bounded)
_practice_table: dict[tuple, dict] = {}


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The margin (points, the mover's side) the search expects after the move: marks are by margin."""
    state = session.state_at(start)
    position = (state.board, state.turn)
    table = _practice_table.get(position)
    if table is None:
        _practice_table.clear()
        table = _practice_table[position] = {}
    return margin_after(state, commands[0], table=table)[0]
