"""The troll's hindsight solver: was this deal winnable? (`dicehall analyse --hindsight`)

Hindsight: after a game the deck order, every face-down card and the seed's dice are known, so the
rest of the game is a one-player puzzle with no chance in it. The dice are the seed's: draw k of the
seed is the k-th seeded die of the game (engine.chance), so the solver counts the seeded draws the
played events used and rolls the next ones exactly as the session would (and as a branch made with
"continue from here" does). This is the one part of the analysis that looks at hidden cards, and
every text it writes says so.

The search is depth-first over whole turns: at each decision every legal pair of actions (one
action mid-turn) is played, the flight phase and checks run, and the next awakening phase rolled
with the seed's dice; pairs that end in the same position count once. Children are tried in the
adviser's order of the positions they reach (engine/bots/troll.py's evaluation, which here sees the
dice already rolled), so good lines come first; a position that ends the game lost is not entered,
and a transposition table remembers every position already shown to have no win. The budget is
counted in positions (decisions played), not seconds, so the same budget always gives the same
answer; `budget` seconds are turned into positions at a fixed rate (NODES_PER_SECOND, below what
this machine does).

A played game is searched from its latest decision backwards, after a first look from the start:
a win from a position the game reached is a win from every earlier one (play the game's own moves
up to it), so the latest winnable position is found by proving the later ones lost, latest first,
with the table shared. Every line returned is replayed through a Session and checked to end in a
win before it is reported.

    solution = solve(session, budget=10.0, should_stop=None, progress=None)   # a Solution
    branch = line_session(session, solution)   # the played events before the line, then the line
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from dicehall.engine import replay_upto
from dicehall.engine.analysis.troll import command_of  # the command a logged decision was
from dicehall.engine.bots import troll as adviser
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import troll
from dicehall.engine.session import Session
from dicehall.engine.text import clean_text

DEFAULT_BUDGET = 10.0  # seconds
NODES_PER_SECOND = 10_000  # positions per second of budget: a fixed rate (so answers repeat), below what this machine does
HINDSIGHT = "hindsight: uses the real deck order, the face-down cards and the seed's dice (a spoiler)"
_CHECK_EVERY = 256  # positions between two calls of should_stop and progress


def a_win(state: troll.TrollState) -> bool:
    """Whether the game ended in a win, as the game's result says (asked only of an ended game)."""
    return (result := troll.result(state, 0)) is not None and result.won  # None: not ended


@dataclass(frozen=True)
class Step:
    """One command of a line: where its events start in the line's session (numbered from 1, as the
    replay viewer numbers events), the turn, and the command in the game's words."""

    event: int
    turn: int
    command: str


@dataclass(frozen=True)
class Solution:
    """The solver's answer. winnable: True (a line was found), False (the search was exhaustive and
    found none), None (the budget ran out first). The line starts at event `from_event` (numbered from
    1): the played events before it are kept, then `commands` are played with the seed's dice."""

    winnable: bool | None
    from_event: int
    commands: tuple = ()
    line: tuple[Step, ...] = ()
    searched: int = 0  # positions searched
    budget: int = 0  # positions allowed
    budget_ran_out: bool = False
    cancelled: bool = False
    played: str = ""  # what the game played at from_event, where it went on from there
    turn: int = 0  # the turn at from_event
    latest: bool = False  # the latest position of the game from which a win remained (every later one lost)
    undecided: int = 0  # the latest position the budget left undecided (an event number; 0: none)
    lost_from: int = 0  # the earliest later position shown to have no win left (an event number; 0: none shown)
    won_as_played: bool = False
    at_start: bool = False  # from_event is the game's first decision
    at_end: bool = False  # from_event is where an unfinished game stands now
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """The answer in one sentence (without the line)."""
        where = _where(self)
        if self.won_as_played:
            return "The game was won as played: the deal was winnable."
        if self.winnable:
            if self.latest and not self.at_end and self.played:
                return (f"A win remained until {where}, the latest position it could still be won from: "
                        f"the game played {self.played}; this line wins instead.")
            text = f"A winning line from {where}."
            if self.undecided:
                text += (f" The budget ran out before the search could tell whether the game could still be "
                         f"won later (it could not decide the position at event {self.undecided}).")
            return text + self._lost_from()
        if self.winnable is False:
            return f"No winning line exists from {where}: the search was exhaustive ({_positions(self.searched)})."
        stopped = "was stopped" if self.cancelled else "ran out of budget"
        return (f"No answer: the search {stopped} after {_positions(self.searched)}, searching from {where}, "
                f"without finding a win or proving there is none.{self._lost_from()}")

    def _lost_from(self) -> str:
        return f" From event {self.lost_from} on the game could no longer be won." if self.lost_from else ""

    def text_lines(self) -> list[str]:
        """What `dicehall analyse --hindsight` prints: the hindsight label, the answer, the line one
        command per line with its event number, and how much was searched."""
        lines = [HINDSIGHT, self.summary()]
        if self.won_as_played:
            lines.append("(the winning line is the game itself)")
        else:
            lines += [f"event {step.event:>4}  turn {step.turn:>3}  {clean_text(step.command)}" for step in self.line]
        lines += [f"note: {note}" for note in self.notes]
        lines.append(f"searched {_positions(self.searched)} of a budget of {self.budget:,}"
                     + (" (it ran out)" if self.budget_ran_out else ""))
        return lines


def _positions(count: int) -> str:
    return f"{count:,} position" + ("" if count == 1 else "s")


def _where(solution: Solution) -> str:
    if solution.at_start:
        return f"the start of the deal (event {solution.from_event}, turn {solution.turn})"
    if solution.at_end:
        return f"the position the game has reached (event {solution.from_event}, turn {solution.turn})"
    return f"event {solution.from_event} (turn {solution.turn})"


def as_json(solution: Solution) -> dict:
    """The answer as plain data: the issue's fields first, then the words."""
    return {
        "winnable": solution.winnable,
        "from_event": solution.from_event,
        "line": [{"event": s.event, "turn": s.turn, "command": s.command} for s in solution.line],
        "searched": solution.searched,
        "budget_ran_out": solution.budget_ran_out,
        "budget": solution.budget,
        "played": solution.played,
        "latest": solution.latest,
        "undecided": solution.undecided,
        "lost_from": solution.lost_from,
        "hindsight": HINDSIGHT,
        "summary": solution.summary(),
        "notes": list(solution.notes),
    }


# ----- the search -----
class _OutOfBudget(Exception):
    pass


def _key(state: troll.TrollState, draws: int) -> tuple:
    """What decides the rest of the game from a decision: the bridge, the troll, its hands, the deck
    (always the rest of the dealt deck, so its size says which), the set-aside cards, the quiet turns,
    the turn's progress and the next seeded draw. (The flight stacks' cards and the turn's number
    play no part in the rules.)"""
    return (state.upper, state.lower, state.troll, state.carried, len(state.deck), state.set_aside,
            state.quiet_turns, state.actions_left, state.stood, draws)


class _Search:
    """A depth-first search over the decisions of one dealt game with the seed's dice."""

    def __init__(self, seed: int, limit: int, should_stop: Callable[[], bool] | None,
                 progress: Callable[[int, int], None] | None):
        self.seed = seed
        self.limit = limit
        self.nodes = 0
        self.lost: set = set()  # positions shown to have no win
        self.should_stop = should_stop
        self.progress = progress
        self.cancelled = False
        self._next_check = _CHECK_EVERY

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check += _CHECK_EVERY
            if self.progress is not None:
                self.progress(self.nodes, self.limit)
            if self.should_stop is not None and self.should_stop():
                self.cancelled = True
                raise _OutOfBudget
        if self.nodes > self.limit:
            raise _OutOfBudget

    def _roll(self, state: troll.TrollState, draws: int) -> tuple[troll.TrollState, int]:
        """The awakening phase with the seed's dice, as the session would draw them."""
        while not state.end and troll.chance_needed(state) is not None:
            state = troll.evolve(state, troll.chance_event(state, (seeded_draw(self.seed, draws, 6),), False))
            draws += 1
        return state, draws

    def children(self, state: troll.TrollState, draws: int) -> list[tuple[tuple, troll.TrollState, int]]:
        """The rest of this turn, every way: (commands, the position at the next decision or the end,
        the next draw), one per distinct position, in the adviser's order of the positions (best first)."""
        found: dict = {}
        turn = state.turn
        for first in troll.legal_commands(state):
            self._count()
            after_first = troll.decided(state, first)[1]
            if troll.to_act(after_first) == 0 and after_first.turn == turn:
                seconds = troll.legal_commands(after_first)
            else:
                seconds = [None]
            for second in seconds:
                after = after_first
                if second is not None:
                    self._count()
                    after = troll.decided(after_first, second)[1]
                after, next_draw = self._roll(after, draws)
                key = _key(after, next_draw)
                if key in found:
                    continue
                if a_win(after):
                    score = adviser.WIN
                elif after.end:
                    continue  # lost: nothing to search
                else:
                    score = adviser.evaluate(after, not after.set_aside and bool(after.deck))
                commands = (first,) if second is None else (first, second)
                found[key] = (score, commands, after, next_draw)
        ordered = sorted(found.values(), key=lambda child: -child[0])  # stable: legal_commands' order among equals
        return [(commands, after, next_draw) for _, commands, after, next_draw in ordered]

    def win_from(self, state: troll.TrollState, draws: int) -> list | None:
        """The commands of a winning line from a decision, or None when there is none (raises
        _OutOfBudget when the budget runs out first)."""
        key = _key(state, draws)
        if key in self.lost:
            return None
        for commands, after, next_draw in self.children(state, draws):
            if a_win(after):
                return list(commands)
            rest = self.win_from(after, next_draw)
            if rest is not None:
                return list(commands) + rest
        self.lost.add(key)
        return None

    def search(self, state: troll.TrollState, draws: int, limit: int) -> tuple[bool | None, list]:
        """(True, line), (False, []) when exhaustive, or (None, []) when `limit` positions ran out."""
        self.limit = limit
        try:
            line = self.win_from(state, draws)
        except _OutOfBudget:
            return None, []
        return (line is not None), (line or [])


# ----- the game's decisions -----
@dataclass(frozen=True)
class _Point:
    start: int  # the event index where the decision starts
    state: troll.TrollState
    draws: int  # seeded draws used before it
    played: object  # the command the game played there (None: the game stands here now)


def _seeded_draws_used(events) -> list[int]:
    """For each position n of the log (0..len), the seeded draws the first n events used: typed dice
    use none, so the seed's next die is the one a branch from there would roll."""
    used = [0]
    for event in events:
        count = 0
        if isinstance(event, troll.CHANCE_EVENTS) and not getattr(event, "typed", False):
            count = len(troll.chance_draws(event))
        used.append(used[-1] + count)
    return used


def _points(session) -> list[_Point]:
    """Every decision of the game, first to last, and where an unfinished game waits for one now."""
    events = session.events
    used = _seeded_draws_used(events)
    points = []
    for mark in session.marks:
        state = session.state_at(mark.start)
        if troll.to_act(state) == 0:
            points.append(_Point(mark.start, state, used[mark.start], command_of(state, events, mark.start)))
    if session.outcome is None and session.to_act == 0:
        points.append(_Point(len(events), session.state, used[len(events)], None))
    return points


def session_upto(session, start: int) -> Session:
    """A new in-memory session holding `session`'s first `start` events (a decision's start), checked
    against the rules and the seed, that draws the seed's dice from there on, as a branch does."""
    new = Session(session.game, seed=session.seed, options=session.options, players=session.players, dice=[])
    return replay_upto(session, new, start)


def line_session(session, solution: Solution) -> Session:
    """The solution's line as a game: the played events before `from_event`, then the line's commands
    with the seed's dice. A winning line folds to a troll win (solve checked it)."""
    new = session_upto(session, solution.from_event - 1)
    for command in solution.commands:
        new.play(command)
    return new


def _with_line(session, solution: Solution) -> Solution:
    """The solution with its line in words and event numbers, after replaying it to check it wins."""
    new = session_upto(session, solution.from_event - 1)
    steps = []
    for command in solution.commands:
        steps.append(Step(len(new.events) + 1, new.state.turn, str(command)))
        new.play(command)
    if not a_win(new.state):
        raise AssertionError(f"the solver's line does not win when replayed: {new.outcome}")
    return replace(solution, line=tuple(steps))


def solve(session, budget: float = DEFAULT_BUDGET, nodes: int | None = None,
          should_stop: Callable[[], bool] | None = None,
          progress: Callable[[int, int], None] | None = None) -> Solution:
    """Was this troll game winnable, and where could it last still be won? With hindsight (see the
    module's doc). `nodes` (positions) overrides `budget` (seconds at NODES_PER_SECOND);
    `should_stop()` is asked every few hundred positions and ends the search early (a worker's
    cancel); `progress(searched, allowed)` is called as it goes."""
    if session.game.ID != troll.ID:
        raise ValueError(f"the hindsight solver is for the troll, not {session.game.TITLE}")
    limit = max(1, int(budget * NODES_PER_SECOND) if nodes is None else nodes)
    notes = []
    if any(getattr(e, "typed", False) for e in session.events):
        notes.append("some dice were typed: the line rolls the seed's dice from the branch point, as "
                     "\"continue from here\" does, not the dice typed at the table")
    points = _points(session)
    first = points[0] if points else None
    if a_win(session.state):
        assert first is not None  # a game won was played: it has decisions
        commands = tuple(p.played for p in points)
        solution = Solution(True, first.start + 1, commands, won_as_played=True, budget=limit, at_start=True,
                            turn=first.state.turn, notes=tuple(notes))
        return _with_line(session, solution)
    if first is None:
        return Solution(False, len(session.events) + 1, budget=limit,
                        notes=("the game ended before the troll's first decision",))
    search = _Search(session.seed, limit, should_stop, progress)

    def answer(point: _Point, won: bool | None, line: list, **more) -> Solution:
        solution = Solution(
            won, point.start + 1, tuple(line), searched=search.nodes, budget=limit,
            budget_ran_out=search.nodes > limit or search.cancelled, cancelled=search.cancelled,
            played=str(point.played) if won and point.played is not None else "", turn=point.state.turn,
            at_start=point is first, at_end=point.played is None, notes=tuple(notes), **more)
        return _with_line(session, solution) if won else solution

    # first from the start: is the deal winnable at all? (half the budget at most)
    won_at_start, start_line = search.search(first.state, first.draws, limit if len(points) == 1 else limit // 2)
    if won_at_start is False or len(points) == 1 or search.cancelled:
        return answer(first, won_at_start, start_line)
    # then from the latest decision backwards: the first win found is the latest position with one
    lost_from = 0  # the earliest position shown to have no win (every later one has none either)
    for point in reversed(points[1:]):
        won, line = search.search(point.state, point.draws, limit)
        if won:
            return answer(point, True, line, latest=True, lost_from=lost_from)
        if won is None:  # out of budget: this position is undecided
            if won_at_start:
                return answer(first, True, start_line, undecided=point.start + 1, lost_from=lost_from)
            return answer(first, None, [], lost_from=lost_from)
        lost_from = point.start + 1
    if won_at_start is None:  # every later position lost: search the start again with what they taught
        won_at_start, start_line = search.search(first.state, first.draws, limit)
    # the start is the latest position from which a win remained, if any
    return answer(first, won_at_start, start_line, latest=bool(won_at_start),
                  lost_from=lost_from if won_at_start is not False else 0)
