"""Dead Man's Wager's analysis. The decisions are wager or stop (the normal rolls are no choice);
each is judged by the best bot's own figures (engine.bots.wager.win_chances: exact with two players
still in, sampled with more, under a seed taken from the position, so the figures repeat).
Marks only beyond noise: with two players in the figures are exact (no noise at all); with more, a
choice the bot's samples find better is judged again against the one played on a fresh, independent
set of paired games (the same dice for both), and marked on that drop less two standard errors
(engine/analysis/paired.py). Each
die's luck is exact with two players still in: the roller's win chance after the roll against its
average over the six faces, both players playing best from then on; with more players in, the dice
are not rated (a note says so). The figures stop at the first place: "winning" is taking it."""
from __future__ import annotations

from hashlib import blake2b

from dicehall.engine.analysis import WIN_CHANCE, Analysis, Decision, Luck, Point, mark_for, paired, shape
from dicehall.engine.bots import wager as bots
from dicehall.engine.games import wager

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 2  # 2: with more than two players in, a mark confirmed on fresh paired games (issue #22)

THRESHOLDS = (0.05, 0.10, 0.15)
WORDS = {"wager": "wager", "stop": "stop"}  # the `h` odds' words


def _mover_chance(state: wager.WagerState) -> float:
    """The chance that the seat to act wins, both players playing best (two players in, not rolling)."""
    table = bots.tables()
    seat = state.seat
    other = bots.leader(state.scores, state.in_play, seat)
    a, b = state.scores[seat], state.scores[other]
    ra, rb = bots.run_code(state.runs[seat]), bots.run_code(state.runs[other])
    if state.can_wager:
        return max(table.choices(a, b, ra, rb))
    i = table.grid.index(a, b, ra, rb)
    return (table.T1 if state.normal_left == 2 else table.T0)[i]


def chance_of(state: wager.WagerState, seat: int) -> float | None:
    """`seat`'s chance of winning in `state`, exact; None when more than two players are still in."""
    if state.places:
        return 1.0 if state.places[0] == seat else 0.0
    if state.out[seat]:
        return 0.0
    if len(state.in_play) != 2:
        return None
    if state.rolling:
        total = 0.0
        for face in range(1, 7):
            rolled = wager.DieRolled(state.seat, face, state.rolling == "wager")
            chance = chance_of(wager.evolve(state, rolled), seat)
            assert chance is not None  # a roll leaves two players in, or the game decided
            total += chance
        return total / 6
    mover = _mover_chance(state)
    return mover if seat == state.seat else 1.0 - mover


def fresh_samples(state: wager.WagerState, samples: int = bots.SAMPLES) -> dict[str, list[int]]:
    """For each choice, whether the seat to act took the place in each of `samples` games played on
    by the best bot, on dice independent of the bot's own figures' and the same for both choices
    (three or more players in)."""
    table = bots.tables()
    codes = tuple(bots.run_code(run) for run in state.runs)
    seat = state.seat
    seed = int.from_bytes(blake2b(repr(("fresh", state.scores, codes, state.in_play, seat)).encode(),
                                  digest_size=8).digest(), "big")
    won: dict[str, list[int]] = {"wager": [], "stop": []}
    for sample in range(samples):
        for choice in won:
            dice = bots.sampled_dice(seed, sample)
            if choice == "stop":
                next(dice)  # the wager's die, not rolled: later turns see the same dice either way
            winner = bots.playout(list(state.scores), list(codes), list(state.in_play), seat, choice == "wager",
                                   dice, table)
            won[choice].append(1 if winner == seat else 0)
    return won


def judge(state: wager.WagerState, played: str) -> tuple[str, float, float, str]:
    """(best, chance played, chance best, mark) of a wager-or-stop."""
    chances = bots.win_chances(state)
    best = max(("wager", "stop"), key=lambda choice: (chances[choice], choice == played))
    drop = chances[best] - chances[played]
    if len(state.in_play) == 2 or drop < THRESHOLDS[0]:
        return best, chances[played], chances[best], mark_for(drop, THRESHOLDS)  # exact, or no mark possible
    won = fresh_samples(state)
    if paired.mean(won[best]) <= paired.mean(won[played]):  # on fresh games the choice played holds
        return played, chances[played], chances[played], ""
    return best, chances[played], chances[best], mark_for(paired.difference(won[best], won[played]).beyond_noise(),
                                                         THRESHOLDS)


def analyse(session, samples: int | None = None, progress=None, partial=None) -> Analysis:
    people = [seat for seat, player in enumerate(session.labels.first_players(session.players)) if not player.bot]
    side = people[0] if people else 0  # whose win chance the curve shows
    events = session.events
    state = session.state_at(0)
    luck: list[Luck]
    decisions, luck, curve, notes = [], [], [], []
    first = chance_of(state, side)
    if first is not None:
        curve.append(Point(0, first))
    unrated = 0
    for index, event in enumerate(events):
        if state.places:
            break  # the first place is taken: the rest is play on for places
        after = wager.evolve(state, event)
        number = index + 1
        # a person's choices (a hall seat's before a bot took it over too), never a bot's
        if isinstance(event, (wager.WagerCalled, wager.TurnEnded)) and not session.labels.holder(session.players, event.seat, index).bot:
            played = "wager" if isinstance(event, wager.WagerCalled) else "stop"
            best, played_chance, best_chance, mark = judge(state, played)
            decisions.append(Decision(number, event.seat, WORDS[played], WORDS[best], played_chance, best_chance, mark))
            if partial:  # with three or more players in, each choice is sampled: worth showing early
                partial(Analysis(wager.ID, WIN_CHANCE, tuple(decisions), tuple(luck), tuple(curve)))
        if isinstance(event, wager.DieRolled):
            before, now = chance_of(state, event.seat), chance_of(after, event.seat)
            if before is None or now is None:
                unrated += 1
            else:
                luck.append(Luck(number, now - before, event.seat))
        value = chance_of(after, side)
        if value is not None:
            curve.append(Point(number, value))
        state = after
        if progress:
            progress(number, len(events))
    if unrated:
        notes.append(f"{unrated} rolls with three or more players in are not rated for luck")
    notes.append("marks: a drop in win chance of 5 points ?!, 10 ?, 15 ??; exact with two players in, "
                 "sampled (600 games per choice) with more, a mark then confirmed on 600 fresh paired games "
                 "beyond two standard errors")
    return Analysis(wager.ID, WIN_CHANCE, tuple(decisions), tuple(luck), tuple(curve), tuple(notes),
                    names=tuple(session.labels.seat_name(session.players, seat) for seat in range(len(session.players))))



def check_stored(result: Analysis, session) -> None:
    """What `analyse` writes, checked in a stored copy (shape.ShapeError): no per-game figures."""
    shape.table(result.extra, set(), "the per-game figures")

# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: wager.WagerState) -> list[tuple[str, tuple]]:
    return [(WORDS["wager"], (wager.Wager(),)), (WORDS["stop"], (wager.EndTurn(),))] if state.can_wager else []


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The win chance of wagering or stopping, as the analysis judges it (the best bot's figures)."""
    chances = bots.win_chances(session.state_at(start))
    return chances["wager" if isinstance(commands[0], wager.Wager) else "stop"]
