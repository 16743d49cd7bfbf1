"""The report per player (issue #22), as lichess and GNU Backgammon give it, worked out from an
Analysis and the game's result:

- accuracy: lichess's per-move accuracy from the drop in win chance (in points, 0 to 100),
  `103.1668 * exp(-0.04354 * drop) - 3.1669`, plus lichess's one point for an imperfect analysis,
  100 for a move as good as the best and kept within 0..100; averaged over the seat's decisions
  (a plain mean: lichess weighs by volatility, which sampled figures cannot support);
- error rate: the win chance lost per decision on average (GNU Backgammon's error rate), and the
  count of each mark;
- luck: the seat's own luck in total (each Luck is from the view of its `seat`), and the net luck:
  its own less the mean of the others', so the net luck of the seats sums to zero (two players:
  one's net luck is the other's with the sign turned);
- the luck-adjusted result: the result (1 a win, 0.5 a draw, 0 a loss) less the net luck. In a
  one-player game there is no rival to net against: the luck is against the game's own
  expectation, and the report says so.

Pure: it reads only the Analysis and the session's public API."""
from __future__ import annotations

import math
from dataclasses import dataclass

from dicehall.engine.analysis import MARKS, PULLS_LEFT, Analysis

# lichess's curve (lila's AccuracyPercent.fromWinPercents), drops in points of win chance (0..100)
ACCURACY_SCALE = 103.1668100711649
ACCURACY_DECAY = 0.04354415386753951
ACCURACY_OFFSET = -3.166924740191411
ACCURACY_BONUS = 1.0  # lichess's "uncertainty bonus (due to imperfect analysis)"


def move_accuracy(drop: float) -> float:
    """One decision's accuracy (0..100) from its drop in win chance (0..1): 100 for no drop."""
    if drop <= 0:
        return 100.0
    raw = ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * drop * 100) + ACCURACY_OFFSET + ACCURACY_BONUS
    return max(0.0, min(100.0, raw))


@dataclass(frozen=True)
class SeatReport:
    seat: int
    name: str
    decisions: int  # decisions of this seat judged (a bot's are not)
    accuracy: float | None  # 0..100, None without a decision judged
    error_rate: float | None  # the figure lost per decision on average, None without a decision
    marks: dict  # mark -> count, every mark of MARKS present
    luck: float  # the seat's own luck in total
    net_luck: float  # its luck less the mean of the others' (sums to zero over the seats)
    result: float | None  # 1 won, 0.5 drawn, 0 lost (a countdown: the pulls made); None unfinished
    adjusted: float | None  # result less net luck; None unfinished


@dataclass(frozen=True)
class Report:
    figure: str
    seats: tuple[SeatReport, ...]
    luck_against: str  # what the luck is measured against, in words
    rated_luck: bool = True  # False: no chance event was rated (a game without dice: Towers)

    def lines(self) -> list[str]:
        """One line per seat, as `analyse` prints them and the viewer's report panel shows them."""
        return [seat_line(self, seat) for seat in self.seats]


def result_of(session, seat: int, figure: str) -> float | None:
    """A seat's result: 1 a win (shared among joint winners), 0.5 a draw (several players and no
    winner), 0 a loss (a solo game with no winner is lost); a countdown's, the pulls it lasted.
    None while the game runs."""
    outcome = session.outcome
    if outcome is None:
        return None
    if figure == PULLS_LEFT:
        return float(session.game.result(session.state, seat).value)
    if not outcome.winners:
        return 0.5 if len(session.players) > 1 else 0.0
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def report(result: Analysis, session) -> Report:
    """The report of every seat of `session` from its analysis `result`."""
    seats = len(session.players)
    names = [session.labels.seat_name(session.players, seat) for seat in range(seats)]  # "Bot for Bob": a seat a bot took over
    own = [sum(item.luck for item in result.chance if item.seat == seat) for seat in range(seats)]
    total = sum(own)
    rows = []
    for seat in range(seats):
        mine = [d for d in result.decisions if d.seat == seat]
        accuracy = sum(move_accuracy(d.drop) for d in mine) / len(mine) if mine else None
        error_rate = sum(d.drop for d in mine) / len(mine) if mine else None
        marks = {mark: sum(1 for d in mine if d.mark == mark) for mark in MARKS}
        net = own[seat] - (total - own[seat]) / (seats - 1) if seats > 1 else own[seat]
        outcome = result_of(session, seat, result.figure)
        adjusted = None if outcome is None else outcome - net
        rows.append(SeatReport(seat, names[seat], len(mine), accuracy, error_rate, marks, own[seat], net,
                               outcome, adjusted))
    return Report(result.figure, tuple(rows), luck_against(result, seats), bool(result.chance))


def luck_against(result: Analysis, seats: int) -> str:
    if not result.chance:
        return "no chance event was rated: the result is all play (adjusted: the result itself)"
    if result.figure == PULLS_LEFT:
        return ("one player: luck is against the game itself, in pulls: the pulls made less the expected "
                "pulls at the start (adjusted: what the tower was expected to last)")
    if seats == 1:
        return (f"one player: luck is against the game itself, the {result.figure} each chance event was "
                f"expected to leave (adjusted: the result less that luck)")
    return (f"net luck: a player's luck in {result.figure} less the others' (it sums to zero); "
            f"adjusted: the result (1 a win, 0 a loss) less the net luck")


def _percent(value: float | None, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.1%}" if sign else f"{value:.1%}"


def seat_line(report_: Report, seat: SeatReport) -> str:
    """A seat's figures in one line of plain words: accuracy, error rate, marks, luck, adjusted result."""
    pulls = report_.figure == PULLS_LEFT
    parts = [seat.name + ":"]
    if seat.decisions:
        marks = ", ".join(f"{seat.marks[mark]} {mark}" for mark in reversed(MARKS))
        parts.append(f"accuracy {seat.accuracy:.1f}%, error rate {seat.error_rate:.1%} a decision "
                     f"({seat.decisions} judged: {marks});")
    elif not pulls:
        parts.append("no decision judged;")
    if pulls:
        parts.append(f"luck {seat.luck:+.2f} pulls;")
        if seat.result is not None:
            parts.append(f"lasted {seat.result:.0f} pulls, luck-adjusted {seat.adjusted:.2f}")
        return " ".join(parts)
    if report_.rated_luck:
        parts.append(f"luck {_percent(seat.luck, True)}" + (f", net {_percent(seat.net_luck, True)}"
                                                             if len(report_.seats) > 1 else "") + ";")
    if seat.result is not None:
        adjusted = f", luck-adjusted {seat.adjusted:.2f}" if report_.rated_luck else ""
        parts.append(f"result {seat.result:g}{adjusted}")
    return " ".join(parts).rstrip(";")


def as_json(report_: Report) -> dict:
    """The report as plain data for `analyse --json`'s `report`."""
    return {
        "luck_against": report_.luck_against,
        "seats": [{
            "seat": seat.seat,
            "name": seat.name,
            "decisions": seat.decisions,
            "accuracy": None if seat.accuracy is None else round(seat.accuracy, 2),
            "error_rate": None if seat.error_rate is None else round(seat.error_rate, 6),
            "marks": dict(seat.marks),
            "luck": round(seat.luck, 6),
            "net_luck": round(seat.net_luck, 6),
            "result": seat.result,
            "adjusted_result": None if seat.adjusted is None else round(seat.adjusted, 6),
        } for seat in report_.seats],
    }


__all__ = ["Report", "SeatReport", "as_json", "luck_against", "move_accuracy", "report", "result_of", "seat_line"]
