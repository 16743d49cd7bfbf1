"""Dead Man's Wager bots and the odds behind the `h` key.

Three styles play through the same engine API as a person: "cautious" wagers only when far
behind and never with a six on its run; "bold" wagers unless two sixes in a row make a third one
deadly; "best" wagers exactly when that raises its chance of winning.

The chances are computed, not guessed:
- With two players still in, exactly: value iteration over every position (both scores, both
  runs, whose turn, at the start of a turn with or without the bonus, and at the wager decision),
  with both players playing best. Scores run from LOW = -30 to 19: 20 or more has won, and a score
  below -30 counts as -30. Getting there takes at least eight lost wagers net, so those positions
  are almost never reached, and moving the floor from -30 to -40 changes no figure with both
  scores -20 or more by more than 1e-8 (-10 or more: 1e-12). Lost wagers make positions repeat,
  so the tables are iterated (Gauss-Seidel, the highest score totals first) until no value moves by
  more than TOLERANCE. The one-time precomputation takes about 1.5 s (62,500 positions, about 15
  sweeps); it runs on the first question and is kept for the process, and a question after it
  takes microseconds.
- With three to six players still in, by simulation: SAMPLES games per choice, played out with
  dice from engine.chance.seeded_draw under a seed derived from the position, so the same position
  always gets the same figures. In those games every seat plays the fast form of best: the
  two-player table against its leading opponent. Both choices see the same dice (common random
  numbers: when ending the turn, the die the wager would have rolled is skipped), so their
  difference is sharper than each figure alone; each figure is within about 0.04 of the truth
  (two standard errors). One question takes about 0.1 s for six players at the start.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from hashlib import blake2b
from operator import itemgetter

from dicehall.engine.chance import seeded_draw
from dicehall.engine.contract import Bot
from dicehall.engine.games import wager
from dicehall.engine.games.wager import STYLES, EndTurn, Roll, Wager, WagerState  # the game names the styles; they are played here

LOW, HIGH = -30, wager.TARGET - 1  # the scores the exact table covers
TOLERANCE = 1e-9  # value iteration stops when no value moves by more than this in a sweep
SAMPLES = 600  # simulated games per choice for three or more players
CAUTIOUS_BEHIND = 8  # cautious wagers only when this far behind the leader
_SIXTH = 1.0 / 6.0
GAIN = tuple(wager.points(face, True) for face in range(7))  # a wager's points by face (0 unused)
POINTS = (tuple(wager.points(face, False) for face in range(7)), GAIN)  # [wagered][face]: wager.points, looked up

# Run codes: a player's run as far as the rules care. 0: anything else, 1: one six, 2: two sixes,
# 3: one three, 4: two threes. After a face: a new code, or BEAST / LUCK for a third six / three.
BEAST, LUCK = -1, -2
_RUNS = 5


def _next_run(code: int, face: int) -> int:
    if face == 6:
        return {1: 2, 2: BEAST}.get(code, 1)
    if face == 3:
        return {3: 4, 4: LUCK}.get(code, 3)
    return 0


NEXT_RUN = tuple(tuple(_next_run(code, face) for face in range(7)) for code in range(_RUNS))  # face 0 unused


def run_code(run: tuple[int, int]) -> int:
    """A seat's run (face, length) as a run code."""
    face, length = run
    if face == 6 and length in (1, 2):
        return length
    if face == 3 and length in (1, 2):
        return 2 + length
    return 0


# ----- the exact two-player tables -----
class _Grid:
    """Positions of a two-player game as flat indexes: (mover's score, other's score, mover's run,
    other's run). Scores below `low` count as `low`; one spare index at the end is a 0.0 pad."""

    def __init__(self, low: int):
        self.low = low
        self.n = HIGH - low + 1
        self.size = self.n * self.n * _RUNS * _RUNS
        self.pad = self.size

    def index(self, a: int, b: int, ra: int, rb: int) -> int:
        low = self.low
        a, b = max(low, a), max(low, b)
        return (((a - low) * self.n + (b - low)) * _RUNS + ra) * _RUNS + rb

    def position(self, i: int) -> tuple[int, int, int, int]:
        rest, rb = divmod(i, _RUNS)
        rest, ra = divmod(rest, _RUNS)
        a, b = divmod(rest, self.n)
        return a + self.low, b + self.low, ra, rb

    def getter(self, refs: list[int]) -> itemgetter:
        # itemgetter of two or more indexes always returns a tuple: pad with the 0.0 slot
        return itemgetter(*(refs + [self.pad] * (2 - len(refs))))

    def plan(self) -> list:
        """For every total of both scores, highest first: what each position's value is made of.

        starts: (i, wins, refs) for a normal roll (a turn start, or the first of the bonus's two);
        bonuses: the same for positions where a bonus turn can start (a lost wager ended the
        other's run); decisions: (i, stop, wins, refs, lost) for the wager decision, where the
        wager's later positions are the other player's turn starts (lost: after a 4, with the
        bonus), each counted as 1 minus its value."""
        low, n, pad, getter = self.low, self.n, self.pad, self.getter
        row = n * _RUNS * _RUNS  # the index's step for one more point of the mover's score
        levels = []
        for total in range(2 * HIGH, 2 * low - 1, -1):
            starts, bonuses, decisions = [], [], []
            for a in range(max(low, total - HIGH), min(HIGH, total - low) + 1):
                b = total - a
                for ra in range(_RUNS):
                    # what the mover's score and run decide, worked out once for the other's five runs:
                    # each later position as an offset from where the other's score and run put it
                    codes = NEXT_RUN[ra]
                    rolled, rolled_wins = [], 0  # a normal roll's, from index(a, b, 0, rb)
                    wagered, wagered_wins, lost = [], 0, -1  # a wager's, from index(b, low, rb, 0)
                    for face in range(1, 7):
                        code = codes[face]
                        if code == BEAST:
                            continue  # out: the other player wins by default
                        if code == LUCK or a + face > HIGH:
                            rolled_wins += 1
                        else:
                            rolled.append(face * row + code * _RUNS)
                        after = a + GAIN[face]
                        if code == LUCK or after > HIGH:
                            wagered_wins += 1
                        elif face == 4:
                            lost = (max(low, after) - low) * _RUNS * _RUNS + code
                        else:
                            wagered.append((max(low, after) - low) * _RUNS * _RUNS + code)
                    wagered_wins += len(wagered) + (lost >= 0)
                    for rb in range(_RUNS):
                        start = (((a - low) * n + (b - low)) * _RUNS) * _RUNS + rb
                        i = start + ra * _RUNS
                        get = getter([start + offset for offset in rolled])
                        starts.append((i, rolled_wins, get))
                        if rb == 0:
                            bonuses.append((i, rolled_wins, get))
                        other = (b - low) * row + rb * _RUNS
                        decisions.append((i, other + (a - low) * _RUNS * _RUNS + ra, wagered_wins,
                                          getter([other + offset for offset in wagered]), other + lost if lost >= 0 else pad))
            levels.append((starts, bonuses, decisions))
        return levels


class _Tables:
    """T0[i] / T1[i]: the chance that the player to move wins at the start of a turn without / with
    the bonus, both players playing best; D[i]: at the wager decision."""

    def __init__(self, low: int = LOW) -> None:
        import time

        started = time.perf_counter()
        self.grid = _Grid(low)
        size = self.grid.size
        self.T0, self.T1, self.D = ([0.5] * size + [0.0] for _ in range(3))
        self.sweeps = self._solve(self.grid.plan())
        self.seconds = time.perf_counter() - started

    def _solve(self, levels: list) -> int:
        T0, T1, D = self.T0, self.T1, self.D
        sweep = 0
        while sweep < 200:
            sweep += 1
            moved = 0.0
            for starts, bonuses, decisions in levels:
                # a turn start leads to higher totals only: those were updated in this sweep
                for i, wins, get in starts:
                    T0[i] = (wins + sum(get(D))) * _SIXTH
                for i, wins, get in bonuses:
                    T1[i] = (wins + sum(get(T0))) * _SIXTH
                # a lost wager leads back to a lower total: that value is from the last sweep
                for i, stop, wins, get, lost in decisions:
                    value = (wins - sum(get(T0)) - T1[lost]) * _SIXTH
                    stopping = 1.0 - T0[stop]
                    if stopping > value:
                        value = stopping
                    change = abs(value - D[i])
                    if change > moved:
                        moved = change
                    D[i] = value
            if moved <= TOLERANCE:
                break
        return sweep

    def choices(self, a: int, b: int, ra: int, rb: int) -> tuple[float, float]:
        """(wager, stop): the mover's chance of winning at the wager decision."""
        T0, T1, low, n = self.T0, self.T1, self.grid.low, self.grid.n
        other = (max(low, b) - low) * n * _RUNS * _RUNS + rb * _RUNS  # index(b, low, rb, 0): the grid's index inlined
        codes = NEXT_RUN[ra]
        total = 0.0
        for face in range(1, 7):  # the bots' sampled games ask this every turn
            code = codes[face]
            if code == BEAST:
                continue
            after = a + GAIN[face]
            if code == LUCK or after > HIGH:
                total += 1.0
            else:
                total += 1.0 - (T1 if face == 4 else T0)[other + (max(low, after) - low) * _RUNS * _RUNS + code]
        return total * _SIXTH, 1.0 - T0[other + (max(low, a) - low) * _RUNS * _RUNS + ra]

    def start(self) -> float:
        """The first player's chance at the start of a two-player game."""
        return self.T0[self.grid.index(0, 0, 0, 0)]


_TABLES_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _computed_tables() -> _Tables:
    return _Tables()


def tables() -> _Tables:
    """The exact two-player tables, computed on first use and kept. The lock makes a second caller
    (the screen warms them in a thread while the players sit down) wait instead of computing again."""
    with _TABLES_LOCK:
        return _computed_tables()


def tables_ready() -> bool:
    """Whether the tables are computed (in this process): `tables()` then answers at once."""
    return _computed_tables.cache_info().currsize > 0


# ----- the styles, as rules over one opponent -----
def style_wagers(style: str, a: int, b: int, ra: int, rb: int) -> bool:
    """Does `style` wager with score a and run code ra, against an opponent (the leader) at b, rb?
    For "best" this is exact with two players still in; with more, `choose` simulates instead."""
    if style == "bold":
        return ra != 2  # not with two sixes in a row
    if style == "cautious":
        return ra not in (1, 2) and b - a >= CAUTIOUS_BEHIND
    wagering, stopping = tables().choices(a, b, ra, rb)
    return wagering > stopping


def duels(style: str, others: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """Exactly, `style`'s chance of beating each of `others` in a two-player game: (when it sits
    first, when it sits second). Policy evaluation over the same positions as the tables (about 3 s
    a duel), the positions' plan and each style's choices worked out once for all of them."""
    grid = _Grid(LOW)
    plan = grid.plan()
    choices = {s: [style_wagers(s, *grid.position(i)) for i in range(grid.size)] for s in {style, *others}}
    return {other: _policy_duel(grid, plan, (choices[style], choices[other])) for other in others}


def _policy_duel(grid: _Grid, plan: list, wagers: tuple[list[bool], list[bool]]) -> tuple[float, float]:
    """The first style's chances against the second, each wagering where its list says so."""
    size = grid.size
    T0 = tuple([0.5] * size + [0.0] for _ in wagers)  # [x]: the chance that x, to move, wins
    T1 = tuple([0.5] * size + [0.0] for _ in wagers)
    D = tuple([0.5] * size + [0.0] for _ in wagers)
    # each level's decisions split once by whether each style wagers there: the sweeps then branch on
    # nothing (a decision reads only turn starts, so the order of its writes changes no value)
    levels = [(starts, bonuses, tuple(
        ([entry for entry in decisions if wagering[entry[0]]],
         [(i, stop) for i, stop, *_ in decisions if not wagering[i]]) for wagering in wagers))
        for starts, bonuses, decisions in plan]
    (first0, second0), (first1, second1), (first_d, second_d) = T0, T1, D
    for _ in range(200):
        moved = 0.0
        for starts, bonuses, decided in levels:
            # a turn start is the same sum for either style to move: both worked out in one pass
            for i, wins, get in starts:
                first0[i] = (wins + sum(get(first_d))) * _SIXTH
                second0[i] = (wins + sum(get(second_d))) * _SIXTH
            for i, wins, get in bonuses:
                first1[i] = (wins + sum(get(first0))) * _SIXTH
                second1[i] = (wins + sum(get(second0))) * _SIXTH
            for x in (0, 1):
                t0, t1, d = T0[1 - x], T1[1 - x], D[x]
                wagered, stopped = decided[x]
                for i, _stop, wins, get, lost in wagered:
                    value = (wins - sum(get(t0)) - t1[lost]) * _SIXTH
                    change = abs(value - d[i])
                    if change > moved:
                        moved = change
                    d[i] = value
                for i, stop in stopped:
                    value = 1.0 - t0[stop]
                    change = abs(value - d[i])
                    if change > moved:
                        moved = change
                    d[i] = value
        if moved <= TOLERANCE:
            break
    start = grid.index(0, 0, 0, 0)
    return T0[0][start], 1.0 - T0[1][start]


# ----- positions -----
def leader(scores, playing, seat: int) -> int:
    """The opponent that threatens most: the highest score, then the one who plays soonest."""
    count = len(scores)
    best, key = -1, None
    for s in playing:
        if s != seat:
            k = (scores[s], -((s - seat) % count))
            if key is None or k > key:
                best, key = s, k
    return best


def win_chances(state: WagerState) -> dict[str, float]:
    """The seat to act's chance of winning if it wagers now and if it ends the turn, every seat
    playing best from then on (exact for two players still in, sampled for more). With play on
    for places, the chance of taking the best place still open."""
    if wager.to_act(state) is None or not state.can_wager:
        raise ValueError("the odds are for the moment a player may wager: after the normal rolls")
    playing = state.in_play
    seat = state.seat
    if len(playing) == 2:
        other = leader(state.scores, playing, seat)
        wagering, stopping = tables().choices(state.scores[seat], state.scores[other],
                                              run_code(state.runs[seat]), run_code(state.runs[other]))
        return {"wager": wagering, "stop": stopping}
    codes = tuple(run_code(run) for run in state.runs)
    return dict(_sampled(state.scores, codes, playing, seat))


@lru_cache(maxsize=4096)
def _sampled(scores: tuple[int, ...], codes: tuple[int, ...], playing: tuple[int, ...], seat: int,
             samples: int = SAMPLES) -> dict[str, float]:
    seed = int.from_bytes(blake2b(repr((scores, codes, playing, seat)).encode(), digest_size=8).digest(), "big")
    table = tables()
    wins = {"wager": 0, "stop": 0}
    for sample in range(samples):
        for choice in wins:
            dice = sampled_dice(seed, sample)
            if choice == "stop":
                next(dice)  # the wager's die, not rolled: later turns see the same dice either way
            winner = playout(list(scores), list(codes), list(playing), seat, choice == "wager", dice, table)
            wins[choice] += winner == seat
    return {choice: count / samples for choice, count in wins.items()}


_CHUNK = 24  # 6**24 < 2**64: one seeded draw gives 24 independent dice


def sampled_dice(seed: int, sample: int):
    draw = sample << 16  # each sample has its own run of draws
    while True:
        value = seeded_draw(seed, draw, 6 ** _CHUNK)
        draw += 1
        for _ in range(_CHUNK):
            yield value % 6 + 1
            value //= 6


def playout(scores: list, codes: list, playing: list, me: int, wager_now: bool, dice, table: _Tables) -> int:
    """Play on from `me`'s wager decision until the next place is decided; returns the seat that
    took it, or -1 as soon as `me` is out (all the caller needs to know)."""
    seat, normal, wagering = me, 0, wager_now  # no normal roll is left at the decision itself
    while True:
        result = None
        for _ in range(normal):
            result = _roll(scores, codes, seat, next(dice), False)
            if result:
                break
        bonus = False
        if result is None:
            if normal:  # a later turn: the fast form of best decides
                other = leader(scores, playing, seat)
                wager_chance, stopping = table.choices(scores[seat], scores[other], codes[seat], codes[other])
                wagering = wager_chance > stopping
            if wagering:
                face = next(dice)
                result = _roll(scores, codes, seat, face, True)
                bonus = face == 4
        if result == "won":
            return seat
        following = _next_seat(playing, seat)
        if result == "out":
            if seat == me:
                return -1
            playing.remove(seat)
            if len(playing) == 1:
                return playing[0]  # the last one left takes the place by default
        seat, normal = following, 2 if bonus else 1


def _roll(scores: list, codes: list, seat: int, face: int, wagered: bool) -> str | None:
    """Apply one roll: "out" (Mark of the Beast), "won" (Outrageous Fortune or 20), else None."""
    code = NEXT_RUN[codes[seat]][face]
    if code == BEAST:
        return "out"
    if code == LUCK:
        return "won"
    codes[seat] = code
    scores[seat] += POINTS[wagered][face]
    return "won" if scores[seat] > HIGH else None


def _next_seat(playing: list, seat: int) -> int:
    for s in playing:
        if s > seat:
            return s
    return playing[0]


# ----- the bots -----
def choose(state: WagerState, style: str = "best") -> object:
    """The bot's next command in `state` for the seat to act (state.seat), playing `style`."""
    if wager.to_act(state) is None:
        raise ValueError("no one is to act now")
    if style not in STYLES:
        raise ValueError(f"a bot plays {', '.join(STYLES)}, not {str(style)[:20]!r}")
    if state.normal_left:
        return Roll()  # the normal rolls are not a choice
    return Wager() if wants_to_wager(state, style) else EndTurn()


def wants_to_wager(state: WagerState, style: str) -> bool:
    if style == "best":
        chances = win_chances(state)
        return chances["wager"] > chances["stop"]
    seat = state.seat
    other = leader(state.scores, state.in_play, seat)
    return style_wagers(style, state.scores[seat], state.scores[other],
                        run_code(state.runs[seat]), run_code(state.runs[other]))



def style_bot(style: str) -> Bot:
    """The bot of one style in the catalogue's call shape (engine/contract.py): no random choices."""
    return lambda state, seed, nonce: choose(state, style)


BOTS: dict[str, Bot] = {style: style_bot(style) for style in STYLES}  # the catalogue's bots, by style
