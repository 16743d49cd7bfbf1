"""The reference judges' tally (tests/perf/judging.py, issue #33): what counts as a mark confirmed,
within the reference's noise, or refuted; an unmarked decision beyond noise, by level; the named
best's standing; the rank correlation; the seeds; the cache that spares the reference."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("judging", Path(__file__).parent / "perf" / "judging.py")
assert _SPEC is not None and _SPEC.loader is not None
judging = sys.modules["judging"] = importlib.util.module_from_spec(_SPEC)  # a script's helper, not a package's
_SPEC.loader.exec_module(judging)

EQUITY = (0.05, 0.10, 0.15)
V = judging.Verdict


def test_a_mark_is_confirmed_at_its_size_refuted_below_it_beyond_noise_else_within_noise():
    tally = judging.Tally(EQUITY, [
        V("??", 0.2, 0.16, 0.01),  # at the ?? size: confirmed
        V("??", 0.2, 0.054, 0.0025),  # the case: a ?! at most, beyond the reference's noise
        V("?", 0.12, 0.08, 0.02),  # below 0.10, but 0.08 + 2 SE reaches it: within the noise
        V("?!", 0.06, 0.0, 0.0),  # the reference's best is the move played: refuted
        V("", 0.0, 0.3, 0.01),  # unmarked: not counted among the marks
    ])
    assert tally.confirmed() == (1, 1, 2)


def test_unmarked_decisions_beyond_noise_are_counted_at_the_level_of_the_drop_less_its_noise():
    tally = judging.Tally(EQUITY, [
        V("", 0.0, 0.126, 0.01),  # 0.106 beyond noise: a ?
        V("", 0.0, 0.092, 0.01),  # 0.072: a ?!
        V("", 0.0, 0.2, 0.09),  # 0.02: within the noise, not counted
        V("?!", 0.06, 0.3, 0.0),  # marked (if too mildly): not unmarked
    ])
    assert tally.unmarked() == {"?!": 1, "?": 1, "??": 0}


def test_a_disagreement_is_named_for_the_decision():
    tally = judging.Tally(EQUITY, [])
    assert tally.disagreement(V("", 0.0, 0.126, 0.01)) == "unmarked, beyond noise at ?"
    assert tally.disagreement(V("??", 0.2, 0.054, 0.0025)) == "?? refuted"
    assert tally.disagreement(V("?", 0.12, 0.08, 0.02)) == ""  # within the reference's noise
    assert tally.disagreement(V("", 0.0, 0.02, 0.01)) == ""


def test_the_named_best_stands_against_the_reference_best_and_the_move_played():
    tally = judging.Tally(EQUITY, [
        V("?", 0.1, 0.1, 0.0, named_gain=(0.1, 0.0), named_short=(0.0, 0.0)),  # the reference's best
        V("", 0.02, 0.1, 0.01, named_gain=(0.01, 0.01), named_short=(0.09, 0.01)),  # better than played, short of the best
        V("", 0.03, 0.0, 0.0, named_gain=(-0.05, 0.01), named_short=(0.05, 0.01)),  # worse than played beyond noise
        V("", 0.0, 0.0, 0.0),  # no best named: not counted
    ])
    assert tally.named() == (3, 1, 2, 1)


def test_rank_correlation_follows_the_order_not_the_size():
    assert judging.spearman([1, 2, 3, 4], [10, 20, 30, 400]) == pytest.approx(1.0)
    assert judging.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert judging.spearman([0, 0, 0], [1, 2, 3]) == 0.0  # no order on one side: nothing to correlate


def test_the_row_carries_every_figure_in_the_readme_table_columns():
    tally = judging.Tally(EQUITY, [V("??", 0.2, 0.16, 0.01), V("", 0.0, 0.126, 0.01)])
    row = tally.row("troll (1 game, fresh seeds 1001..1001)", "python tests/perf/troll_judge.py --quick")
    head = judging.TABLE_HEAD.splitlines()[0]
    assert row.count("|") == head.count("|")
    assert "| 1 of 1 | 0 of 1 | 0 / 1 / 0 |" in row and "`python tests/perf/troll_judge.py --quick`" in row


def test_fresh_seeds_by_default_tuning_seeds_named_and_never_mixed():
    assert judging.seeds(None, 3) == (range(1001, 1004), "fresh seeds 1001..1003")
    assert judging.seeds(1, 4) == (range(1, 5), "tuning seeds 1..4")
    with pytest.raises(SystemExit, match="mix tuning seeds"):
        judging.seeds(15, 4)


def test_the_reference_is_computed_once_per_key(tmp_path, monkeypatch):
    monkeypatch.setattr(judging, "CACHE", tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return {"a": [0.5, 1.0]}

    assert judging.cached("troll", ("position", 200), compute) == {"a": [0.5, 1.0]}
    assert judging.cached("troll", ("position", 200), compute) == {"a": [0.5, 1.0]}
    assert judging.cached("troll", ("position", 400), compute) == {"a": [0.5, 1.0]}  # other settings: computed
    assert len(calls) == 2
    for file in (tmp_path / "troll").iterdir():
        file.write_text("{damaged")  # a damaged entry is computed again, not trusted
    judging.cached("troll", ("position", 200), compute)
    assert len(calls) == 3
