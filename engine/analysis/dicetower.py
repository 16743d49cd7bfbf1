"""The Dice Tower's analysis: no decisions to judge (the journaling game says when to pull), only
the exact odds along the game (expected plain pulls left, the chance that the next pull topples it)
and each roll's luck: how far it moved the expected pulls left against its expectation, in pulls
(positive: the tower will stand longer than it was expected to)."""
from __future__ import annotations

from dicehall.engine.analysis import PULLS_LEFT, Analysis, Luck, Point
from dicehall.engine.games import dicetower

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 1


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
    return Analysis(dicetower.ID, PULLS_LEFT, (), tuple(luck), tuple(curve), notes, {"odds": odds})
