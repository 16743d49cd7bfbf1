"""The report per player (issue #22): accuracy by lichess's curve, error rate, marks, luck, net luck
summing to zero between two players and the luck-adjusted result; in `analyse` and `analyse --json`."""
import json
import math

import pytest

from dicehall import engine, replays
from dicehall.cli import main
from dicehall.engine import analysis
from dicehall.engine.analysis import report
from dicehall.engine.analysis.report import move_accuracy
from dicehall.engine.bots import wager as wager_bots
from dicehall.engine.core import Player
from dicehall.engine.games.dicetower import PullBlock
from dicehall.engine.games.wager import EndTurn, Roll, Wager

REPORT_FIELDS = ["seat", "name", "decisions", "accuracy", "error_rate", "marks", "luck", "net_luck", "result",
                 "adjusted_result"]


def wager_played(seed, policy):
    """A whole two-player wager: `policy(state)` picks each person's command (Roll when it must)."""
    session = engine.new_session("wager", seed=seed, players=[Player("Ann"), Player("Bob")])
    while session.outcome is None:
        state = session.state
        session.play(policy(state) if state.can_wager else Roll())
    return session


def best_moves(state):
    return wager_bots.choose(state)


def test_accuracy_is_lichess_curve_of_the_drop():
    assert move_accuracy(0.0) == 100.0
    # lila: 103.1668100711649 * exp(-0.04354415386753951 * diff) - 3.166924740191411, + 1, within 0..100
    assert move_accuracy(0.10) == pytest.approx(103.1668100711649 * math.exp(-0.4354415386753951) - 2.166924740191411)
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.05) > move_accuracy(0.10) > move_accuracy(0.15)


def test_accuracy_is_100_for_a_game_of_best_moves():
    session = wager_played(11, best_moves)
    result = analysis.analyse(session)
    seats = report.report(result, session).seats
    assert {d.seat for d in result.decisions} == {0, 1}  # both judged
    for seat in seats:
        assert seat.decisions > 0
        assert seat.accuracy == 100.0 and seat.error_rate == 0.0
        assert seat.marks == {"?!": 0, "?": 0, "??": 0}


def test_net_luck_sums_to_zero_in_a_two_player_game():
    for seed in (2, 3, 5):
        session = wager_played(seed, lambda state: Wager() if state.scores[state.seat] < 15 else EndTurn())
        result = analysis.analyse(session)
        ann, bob = report.report(result, session).seats
        assert result.chance  # the dice were rated
        assert ann.luck == pytest.approx(sum(c.luck for c in result.chance if c.seat == 0))
        assert ann.net_luck == pytest.approx(ann.luck - bob.luck)
        assert ann.net_luck + bob.net_luck == pytest.approx(0.0, abs=1e-12)
        # the adjusted results share the one game between them, as the results do
        assert ann.result + bob.result == 1.0
        assert ann.adjusted + bob.adjusted == pytest.approx(1.0)
        assert ann.adjusted == pytest.approx(ann.result - ann.net_luck)


def test_a_solo_game_says_what_its_luck_is_against():
    session = engine.new_session("dicetower", seed=3)
    while session.outcome is None:
        session.play(PullBlock())
    result = analysis.analyse(session)
    (player,) = report.report(result, session).seats
    assert player.result == session.state.pulls
    # the tower lasts its expected pulls at the start plus its luck: adjusted, the expected pulls
    assert player.adjusted == pytest.approx(result.curve[0].value)
    assert player.net_luck == player.luck
    assert "against the game itself" in report.report(result, session).luck_against


def scripted_wager():
    """Ann 19, Bob 7 (scripted dice), Ann wagers (?!: stopping wins for sure) and rolls a 1; Bob rolls
    a 3 and stops; Ann's next roll wins."""
    session = engine.new_session("wager", seed=1, players=[Player("Ann"), Player("Bob")],
                                 dice=[6, 5, 2, 2, 5, 5, 1, 1, 3, 4])
    for command in (Roll(), Wager(), Roll(), EndTurn(), Roll(), Wager(), Roll(), EndTurn(), Roll(), Wager(), Roll(),
                    EndTurn(), Roll()):
        session.play(command)
    return session


def test_analyse_json_report_fields_are_exact_for_a_scripted_game(tmp_path, capsys):
    session = scripted_wager()
    assert session.outcome is not None and session.outcome.winners == (0,)
    path = tmp_path / "scripted.dhr"
    replays.write_replay(session, path)
    assert main(["analyse", str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    decisions, chance = document["decisions"], document["chance"]
    wagering, stopping = wager_bots.tables().choices(19, 7, 0, 0)
    ann_wagers = next(d for d in decisions if d["played"] == "wager" and d["chance_best"] == 1.0)
    assert ann_wagers["mark"] == "?!" and ann_wagers["chance_played"] == round(wagering, 6) and stopping == 1.0
    replayed = replays.read_replay(str(path))
    full = analysis.analyse(replayed)  # the same figures, unrounded, with each decision's seat
    assert [d["event"] for d in decisions] == [d.event for d in full.decisions]
    for d in full.decisions:  # the seat is the one who acted there
        assert replayed.game.to_act(replayed.state_at(d.event - 1)) == d.seat
    seats = document["report"]["seats"]
    assert [list(seat) for seat in seats] == [REPORT_FIELDS, REPORT_FIELDS]
    luck = [sum(c.luck for c in full.chance if c.seat == s) for s in (0, 1)]
    assert [c["event"] for c in chance] == [c.event for c in full.chance]
    for seat, name, result in ((0, "Ann", 1.0), (1, "Bob", 0.0)):
        mine = [d for d in full.decisions if d.seat == seat]
        drops = [max(0.0, d.chance_best - d.chance_played) for d in mine]
        net = luck[seat] - luck[1 - seat]
        assert seats[seat] == {
            "seat": seat, "name": name, "decisions": len(mine),
            "accuracy": round(sum(move_accuracy(drop) for drop in drops) / len(mine), 2),
            "error_rate": round(sum(drops) / len(mine), 6),
            "marks": {mark: sum(1 for d in mine if d.mark == mark) for mark in ("?!", "?", "??")},
            "luck": round(luck[seat], 6), "net_luck": round(net, 6),
            "result": result, "adjusted_result": round(result - net, 6),
        }
    assert seats[0]["marks"]["?!"] == 1 and seats[0]["accuracy"] < 100
    assert "sums to zero" in document["report"]["luck_against"]


def test_analyse_prints_a_report_line_per_player(tmp_path, capsys):
    session = scripted_wager()
    path = tmp_path / "scripted.dhr"
    replays.write_replay(session, path)
    assert main(["analyse", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    ann = next(line for line in out if line.startswith("Ann: accuracy"))
    bob = next(line for line in out if line.startswith("Bob: accuracy"))
    assert "1 ?!" in ann and "result 1, luck-adjusted" in ann and "net " in ann
    assert "result 0, luck-adjusted" in bob
    assert out[-1].startswith("luck: net luck")


# ----- in the replay viewer -----
def test_viewer_s_shows_the_report_per_player_at_80x24_and_help_lists_it(tmp_path):
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.screens.viewer.report import ReportScreen
    from tests.apphelpers import drive, screen_text, status, until

    session = scripted_wager()
    app = DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "game.dhr")))

    async def steps(pilot):
        await pilot.press("s")  # no analysis yet: one line says why not
        assert "no analysis yet: a analyses the game, then s shows the report" in status(app)
        await pilot.press("question_mark")
        assert "n / p / w / s" in screen_text(app) and "report per player" in screen_text(app)
        await pilot.press("escape", "a")
        await until(pilot, lambda: app.screen.analysis is not None and not app.screen.analysis_running)
        await pilot.press("s")
        assert isinstance(app.screen, ReportScreen)
        shown = screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, ReportScreen)
        return shown

    shown = drive(app, steps)
    seats = report.report(analysis.analyse(session), session).seats
    assert "Report per player: Dead Man's Wager" in shown
    assert f"accuracy {seats[0].accuracy:.1f}%" in shown and f"accuracy {seats[1].accuracy:.1f}%" in shown
    assert "marks: 0 ?? blunders, 0 ? mistakes, 1 ?! inaccuracy" in shown
    assert f"luck {seats[0].luck:+.1%} (net {seats[0].net_luck:+.1%}); result 1; luck-adjusted" in shown
    assert "Ann" in shown and "Bob" in shown and "(it sums to" in shown
    assert "more below" not in shown  # two players fit 80x24 unscrolled
