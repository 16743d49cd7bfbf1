"""The Dice Tower's analysis: no decisions to judge (the journaling game says when to pull), only
the exact odds along the game (expected plain pulls left, the chance that the next pull topples it)
and each roll's luck: how far it moved the expected pulls left against its expectation, in pulls
(positive: the tower will stand longer than it was expected to)."""
from __future__ import annotations

from dicehall.engine.analysis import PULLS_LEFT, Analysis, Luck, Point, shape
from dicehall.engine.games import dicetower

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 1
FIGURE = PULLS_LEFT  # what the curve and luck count (a stored analysis must say so)


def analyse(session, samples: int | None = None, progress=None) -> Analysis:
    events = session.events
    exact = session.options["start"] <= dicetower.EXACT_UP_TO  # fractions get slow on huge towers
    state = session.state_at(0)
    before = float(dicetower.pulls_to_come(state, exact))
    curve = [Point(0, before)]
    odds = [{"event": 0, "expected_pulls": round(before, 6),
             "topple": round(float(dicetower.pull_topple_chance(state, exact)), 6)}]
    luck = []
    for index, event in enumerate(events):
        state = dicetower.evolve(state, event)
        after = float(dicetower.pulls_to_come(state, exact))
        if isinstance(event, dicetower.DiceRolled):
            luck.append(Luck(index + 1, after - before))
        curve.append(Point(index + 1, after))
        odds.append({"event": index + 1, "expected_pulls": round(after, 6),
                     "topple": round(float(dicetower.pull_topple_chance(state, exact)), 6)})
        before = after
        if progress:
            progress(index + 1, len(events))
    notes = ("no decisions to judge: the journaling game says when to pull; luck is in pulls",)
    return Analysis(dicetower.ID, FIGURE, (), tuple(luck), tuple(curve), notes, {"odds": odds})


def check_stored(result: Analysis, session) -> None:
    """What `analyse` writes, checked in a stored copy (shape.ShapeError): no decisions, the curve and
    the odds at every event from 0 to the last, in order (`analyse` prints the pulls left after each roll)."""
    every = list(range(len(session.events) + 1))
    if result.decisions:
        raise shape.ShapeError("the Dice Tower has no decisions to judge")
    if [point.event for point in result.curve] != every:
        raise shape.ShapeError("the curve is not a point at every event")
    odds = shape.records(shape.table(result.extra, {"odds"}, "the per-game figures")["odds"],
                         {"event", "expected_pulls", "topple"}, len(every), "odds")
    if not shape.events_at([row["event"] for row in odds], every):
        raise shape.ShapeError("the odds are not at every event")
    for n, row in enumerate(odds, start=1):
        shape.number(row["expected_pulls"], 0.0, 1e6, f"odds {n}'s expected pulls")
        shape.number(row["topple"], 0.0, 1.0, f"odds {n}'s topple chance")
