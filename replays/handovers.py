"""Seats that changed hands in a recorded game (engine.core.Handover: a hall seat whose person was
idle, given to a bot): read from a replay's `handovers` or a text record's `[Handover ...]` lines,
each checked against the seats as they stand, and said in words. Who held a seat is a claim, as
the players' names are; the checks keep a file from saying what no hall writes."""
from __future__ import annotations

from typing import Any

from dicehall.engine.core import Handover, Player
from dicehall.engine.text import clean_text

MAX_WHY = 80  # "idle for 30 minutes"
MAX_ABANDONED = 200  # "Bob (seat 2) did not move for 30 minutes"


def hand_over(game: Any, state: Any, players: list[Player], done: list[Handover], at: int, seat: Any,
              to: Player, why: Any) -> None:
    """Check a handover of `seat` to `to` after `at` events (`state`: the game there) against the
    seats as they stand (`players`, changed in place) and those handed over before (`done`,
    appended to); ValueError with one line if no hall would have written it."""
    if type(seat) is not int or not 0 <= seat < len(players):
        raise ValueError(f"a handover names a seat the game does not have ({clean_text(str(seat), 12)})")
    if done and at < done[-1].at:
        raise ValueError(f"the handovers are out of order (after event {at}, then after event {done[-1].at})")
    if game.outcome(state) is not None or game.chance_needed(state) is not None:
        raise ValueError(f"a handover after event {at}, where no player decides (a seat changes hands between moves)")
    if players[seat].bot:
        raise ValueError(f"a handover of seat {seat + 1}, which a bot plays already: "
                         "only a person's seat goes to a bot")
    if not to.bot:
        raise ValueError(f"a handover of seat {seat + 1} to a person: only a bot takes a seat over")
    if not isinstance(why, str):
        raise ValueError(f"the handover of seat {seat + 1} does not say why in words")
    seats = players[:seat] + [to] + players[seat + 1:]
    game.check_players(tuple(seats))  # a style the game has not: its own ValueError
    done.append(Handover(at, seat, players[seat], clean_text(why, MAX_WHY)))
    players[seat] = to


def handover_lines(session: Any) -> str:
    """verify's lines on the seats that changed hands ("" if none), each a claim."""
    return "".join(f"\n{h.words(session.players[h.seat].name)}" for h in session.labels.handovers)


def abandoned_result(session: Any) -> str:
    """The result in words of a game that did not reach its end: why it was abandoned, or "unfinished"."""
    return f"abandoned: {session.labels.abandoned}" if session.labels.abandoned else "unfinished"
