"""The troll's analysis: each turn's pair of actions (what the `h` hint judges) against every legal
pair of that turn (pairs that leave the same position judged once), by paired judging
(engine/analysis/paired.py): raced on common random numbers, the leaders and the pair played
confirmed on fresh samples, a mark only for a drop beyond two standard errors of the paired
difference. The figure the marks use is the equity (`equity`): half the win, half the share of the
deck played before the end, since on standard nearly every pair's win chance is about nothing.

No peeking: a sampled deal keeps everything the player could see at that decision (the awake
cards, the troll's hands, the flight stacks, the set-aside cards, the deck's size) and deals the
rest anew: the face-down cards on the bridge and the deck are shuffled together among the cards
not seen, and every later awakening die is rolled again. The real face-down cards and deck order
are never read: the unseen cards are sorted before the shuffle, so the figures depend only on
which cards are unseen, not where they lie. The rest of the game is played by today's adviser
(engine/bots/troll.py). Sample i is the same deal and dice for every pair. The samples come from
the replay's seed and the decision's event number, so the same file gives the same figures.

Marks follow the judged drop in equity only, beyond its noise, whatever the pair: a pair that
loses at once (collapse, flight) is marked by what it loses like any other (in a game nearly lost
anyway, little), and the fact is said in words on the decision ("ends the game at once: the bridge
collapses", "the only pair that goes on"). It is named best only where the judged figures say so: a
pair that goes on is named while it is judged better at all (a loss now can never play more cards
than going on, so it is never better, at best equal); where none is (every one that goes on is lost
next turn with no more cards played), the pair played is as good as the best.

Luck is measured turn by turn: a turn's awakenings (one chance event, at its first die) moved the
win chance from what the pair before them was expected to leave to what the next decision finds
(or to the result, 1 or 0, when they ended the game).
"""
from __future__ import annotations

import math
import random
from hashlib import blake2b

from dicehall.engine.analysis import WIN_CHANCE, Analysis, Decision, Luck, Point, mark_for, paired, pool, shape
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from dicehall.engine.session import replace

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 3  # 2: paired judging of every legal pair, marks by equity (issue #22); 3: marks by the drop only,
# the facts in words, the figures of a best named and the pair played verified on fresh samples, 48 samples and a
# shorter race (issue #33)

SAMPLES = 48  # fresh sampled deals per confirmed pair by default (tests/perf/bench.py --only troll_analysis: docs/performance.md)
COST = 4  # playouts per decision for each sample, about: the race, then the finalists and the played confirmed
SAMPLES_PER_SECOND = 150  # --budget: playouts per second of budget, a fixed rate (so figures repeat), below what this machine does
PLAYOUTS_PER_TASK = 16  # a task of the pool: a tenth of a second or so, so the last ones keep every core busy
RACE_SHARE = 2  # the race goes up to samples / RACE_SHARE: it only picks the finalists, their figures are the fresh samples
THRESHOLDS = (0.05, 0.10, 0.15)
MAX_TURNS = 400  # a playout that has not ended by then counts as lost (the quiet-turn rule ends games long before)
LOSSES = ("collapsed", "flew", "unsettled")
END_WORDS = {"collapsed": "the bridge collapses", "flew": "the troll flies away", "unsettled": "the bridge will not settle",
             "won": "the troll wins", "perfect": "the troll wins, perfect"}  # how a pair ends the game at once
WIN_WEIGHT = 0.5  # the equity: this much the win, the rest the share of the deck played before the end
EXTRA = {"marked_by": "equity"}  # which figure the marks use (the --json says so)
MARKS_UNIT = "points of equity (half win, half deck played) lost beyond 2 SE"  # the viewer's help


def samples_for_budget(session, seconds: float) -> int:
    """Samples per decision that fit `seconds` at a fixed rate: deterministic, whatever the machine."""
    decisions = max(1, len(_turns(session)))
    return max(1, min(1000, int(seconds * SAMPLES_PER_SECOND / decisions / COST)))


def _rng(seed: int, event: int, sample: int, what: str) -> random.Random:
    key = blake2b(repr((seed, event, sample, what)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(key, "big"))


def sampled_deal(state: troll.TrollState, rng: random.Random) -> troll.TrollState:
    """`state` with the face-down cards of the bridge and the deck dealt anew among the unseen cards."""
    unseen = sorted([card.code for row in (state.upper, state.lower) for stack in row for card in stack
                     if not card.awake] + list(state.deck))
    rng.shuffle(unseen)
    deal = iter(unseen)
    for row in troll.ROWS:
        for col in troll.COLUMNS:
            pos = (row, col)
            stack = state.stack(pos)
            if any(not card.awake for card in stack):
                state = troll.with_stack(state, pos, tuple(card if card.awake else troll.Card(next(deal))
                                                           for card in stack))
    return replace(state, deck=tuple(deal))


def fold_events(state, events):
    for event in events:
        state = troll.evolve(state, event)
    return state


def play_to_end(state: troll.TrollState, dice: random.Random, memo: dict | None = None) -> troll.TrollState:
    """Play on with the adviser, the dice from `dice`, to the end (or MAX_TURNS): the last state.

    memo: the ends of earlier playouts on the same dice (one sample's, shared by every pair judged
    on it), by (turns played, dice rolled, state) at each of their turns: a playout that reaches a
    state another reached after as many turns and rolls has the same dice to come, so the same end.
    Pairs judged on one sample often meet again a few turns on (a fifth of a playout's turns).
    Each state holds its playout's end as a list, filled when known: one look-up per turn (_met)."""
    turns = rolls = 0
    end: list = []  # this playout's end, once known: the value of every key it passes
    while not state.end:
        drawn, state = troll.rolled(state, dice.randrange)
        if drawn:
            rolls += drawn
            continue
        if troll.to_act(state) is None:
            break
        turns += 1
        if turns > MAX_TURNS:
            break
        if memo is not None:
            known = _met(memo, (turns, rolls), state, end)
            if known is not None:  # an earlier playout's (its states always have their end)
                state = known[0]
                break
        state = adviser.best_line(state)[3]
    end.append(state)
    return state


def _met(memo: dict, count: tuple[int, int], state: troll.TrollState, end: list) -> list | None:
    """The end of an earlier playout of the memo that met `state` after as many turns and rolls
    (`count`), or None with `state` kept for the later ones, its end to be `end`. The states are
    kept by a key that a few fields make (hashing a whole state reads every card: a twentieth of a
    playout) and compared whole only there."""
    key = (count, state.troll, troll.occupied(state), state.set_aside, len(state.deck))
    met = memo.get(key)
    if met is None:
        memo[key] = [(state, end)]
        return None
    for other, known in met:
        if other == state:
            return known
    met.append((state, end))
    return None


def _pairs(state: troll.TrollState) -> list[tuple[float, tuple]]:
    """Every legal pair of actions this turn (one action where the first ends the turn), with the
    adviser's score of where it leaves the bridge, best first (as best_turn searches them)."""
    lines = [(score, commands) for score, commands, _, _ in adviser.scored_lines(state)]
    lines.sort(key=lambda line: -line[0])  # stable: the first of equals, as best_turn picks
    return lines


def _ends_at_once(state: troll.TrollState, commands: tuple) -> str:
    """How the game ends this turn after `commands` ("" if it goes on): collapse and the like need
    no sampling, as they follow from what is on the table."""
    for command in commands:
        if troll.to_act(state) != 0:
            break
        state = troll.decided(state, command)[1]
    return state.end


def command_of(state, events, start: int):
    """The command whose events begin the log at `start` (the log keeps events, not commands)."""
    for command in troll.legal_commands(state):
        produced = troll.decide(state, command)
        if tuple(events[start:start + len(produced)]) == produced:
            return command
    raise ValueError(f"event {start + 1}: no troll action gives these events")


def _turns(session) -> list[tuple[int, tuple]]:
    """Each turn's decision: (where its first action starts in the log, the commands played)."""
    events = session.events
    turns: list[tuple[int, list, int]] = []  # (start, commands, turn)
    current: tuple[int, list, int] | None = None
    for mark in session.marks:
        state = session.state_at(mark.start)
        if troll.to_act(state) != 0:
            continue
        command = command_of(state, events, mark.start)
        if current is None or state.turn != current[2]:
            current = (mark.start, [], state.turn)
            turns.append(current)
        current[1].append(command)
    return [(start, tuple(commands)) for start, commands, _ in turns]


def _awakening_luck(session, turns, decisions) -> list[Luck]:
    """Each turn's awakenings, as one chance event (at its first die): the win chance at the next
    decision (or the game's result) against the chance the pair before it was expected to leave."""
    events = session.events
    luck = []
    ends = [start for start, _ in turns[1:]] + [len(events)]
    for (start, _), end, decision, following in zip(turns, ends, decisions, list(decisions[1:]) + [None]):
        dice = [n for n in range(start, end) if isinstance(events[n], troll.CHANCE_EVENTS)]
        if not dice:
            continue
        if following is not None:
            after = following.chance_best
        elif session.outcome is not None:
            result = troll.result(session.state, 0)
            assert result is not None  # the game is over
            after = 1.0 if result.won else 0.0
        else:
            continue  # unfinished: nothing to measure against yet
        luck.append(Luck(dice[0] + 1, after - decision.chance_played))
    return luck


def words(commands: tuple) -> str:
    """A pair of actions as the hint says it."""
    return " then ".join(str(c) for c in commands)


def equity(won: bool, deck_left: int, deck_at_start: int) -> float:
    """The troll's equity (0..1): half the win, half the share of the deck of awakening played
    before the game ended (the rules' own score, cards left, turned around: 1 on a win)."""
    share = 1.0 - deck_left / deck_at_start if deck_at_start else 1.0
    return WIN_WEIGHT * float(won) + (1 - WIN_WEIGHT) * (1.0 if won else share)


def groups(state: troll.TrollState, played: tuple) -> dict[tuple, troll.TrollState]:
    """Every legal pair this turn, those that leave the same position grouped: one pair for each
    position (the played pair for its own, else the adviser's first of equals), in the adviser's
    order, with the position each leaves (after the flight phase and checks, the next turn begun)."""
    chosen: dict[troll.TrollState, tuple] = {}
    for _, commands, _, final in sorted(adviser.scored_lines(state), key=lambda line: -line[0]):
        if final not in chosen or commands == played:
            chosen[final] = commands
    if played not in chosen.values():  # not a pair the adviser lists: judged on its own
        chosen[_after(state, played)] = played
    return {commands: final for final, commands in chosen.items()}


def _after(state: troll.TrollState, commands: tuple) -> troll.TrollState:
    turn = state.turn
    for command in commands:
        if troll.to_act(state) != 0 or state.turn != turn:
            break
        state = troll.decided(state, command)[1]
    return state


class _Judge:
    """One decision's figures: each candidate on sample i plays the same sampled deal and dice."""

    def __init__(self, state, seed: int, event: int, deck_at_start: int):
        self.state, self.seed, self.event, self.deck_at_start = state, seed, event, deck_at_start
        self.deals: dict[int, troll.TrollState] = {}
        self.outcomes: dict[tuple, tuple[bool, int]] = {}  # (commands, sample) -> (won, deck left)
        self.memos: dict[int, dict] = {}  # sample -> its playouts' ends (play_to_end)

    def outcome(self, commands: tuple, sample: int) -> tuple[bool, int]:
        key = (commands, sample)
        if key not in self.outcomes:
            if sample not in self.deals:
                self.deals[sample] = sampled_deal(self.state, _rng(self.seed, self.event, sample, "deal"))
            now = _after(self.deals[sample], commands)
            end = play_to_end(now, _rng(self.seed, self.event, sample, "dice"), self.memos.setdefault(sample, {}))
            self.outcomes[key] = (end.end in ("won", "perfect"), len(end.deck))
        return self.outcomes[key]

    def value(self, commands: tuple, sample: int) -> float:
        won, left = self.outcome(commands, sample)
        return equity(won, left, self.deck_at_start)

    def win_chance(self, commands: tuple, judgement: paired.Judgement, exact: dict) -> float:
        """The win chance on the samples of the pair's equity (the figures shown beside each other)."""
        if commands in exact:
            return exact[commands][0]
        numbers = judgement.numbers(commands)
        return sum(self.outcomes[(commands, n)][0] for n in numbers) / max(1, len(numbers))


def judge_turn(state: troll.TrollState, played: tuple, seed: int, event: int, samples: int,
               deck_at_start: int) -> Decision:
    """One turn's decision: every group of pairs raced, confirmed and verified on common random numbers."""
    return pool.locally(_playouts, turn_job(state, played, seed, event, samples, deck_at_start))  # type: ignore[return-value]


def turn_job(state: troll.TrollState, played: tuple, seed: int, event: int, samples: int, deck_at_start: int):
    """judge_turn as a job of engine/analysis/pool.py (analyse's: its playouts over every core)."""
    options, judge, exact, judgement = yield from turn_steps(state, played, seed, event, samples, deck_at_start)
    best = judgement.best
    mark = mark_for(judgement.beyond_noise(), THRESHOLDS)  # by the judged drop only, whatever the pair
    return Decision(event, 0, words(played), words(best), judge.win_chance(played, judgement, exact),
                    judge.win_chance(best, judgement, exact), mark, equity_played=judgement.mean(played),
                    equity_best=judgement.mean(best), noise=_finite(judgement.noise) if best != played else 0.0,
                    words=facts(options, played))


def judged_turn(state: troll.TrollState, played: tuple, seed: int, event: int, samples: int, deck_at_start: int):
    """The paired judgement of a turn's pairs (engine/analysis/paired.py), with what it was made of:
    (the pairs and the position each leaves, the judge, the exact (win, equity) of pairs that end the
    game this turn, the judgement)."""
    return pool.locally(_playouts, turn_steps(state, played, seed, event, samples, deck_at_start))


def turn_steps(state: troll.TrollState, played: tuple, seed: int, event: int, samples: int, deck_at_start: int):
    """judged_turn as steps of a job (engine/analysis/pool.py): each step of the paired judging (a
    round of the race, the confirmation, the verification) yields its playouts as tasks of whole
    samples (`_pieces`), is sent their outcomes, and the judgement is made here of them."""
    options = groups(state, played)
    exact = {}  # pairs whose result follows from the table alone: the game ends this turn
    for commands, final in options.items():
        if final.end:
            end = troll.result(final, 0)
            assert end is not None  # the game ended this turn
            exact[commands] = (float(end.won), equity(end.won, end.value, deck_at_start))
    safe = [commands for commands, final in options.items() if final.end not in LOSSES]
    judge = _Judge(state, seed, event, deck_at_start)  # here it only keeps the outcomes the tasks found
    # a pair that loses at once is named best while another goes on only if the figures say so (below)
    eligible = (lambda commands: options[commands].end not in LOSSES) if safe else None
    steps = paired.judging(list(options), played, samples, race=max(1, samples // RACE_SHARE),
                           exact={c: figures[1] for c, figures in exact.items()}, eligible=eligible)
    try:
        wanted = next(steps)
        while True:
            pieces = _pieces(wanted)
            found = yield [(state, seed, event, piece) for piece in pieces]
            for piece, outcomes in zip(pieces, found):
                judge.outcomes.update(zip(piece, outcomes))
            wanted = steps.send([judge.value(commands, sample) for commands, sample in wanted])
    except StopIteration as finished:
        judgement = finished.value
    if judgement.best != played and judgement.gap.mean <= 0:
        # going on is judged no better than losing now: the pair played is as good. paired.judging's own
        # rule without its `eligible` guard: a pair played that loses at once may be named best here
        judgement.best = played
    return options, judge, exact, judgement


def _pieces(wanted: list[tuple[tuple, int]]) -> list[list[tuple[tuple, int]]]:
    """A step's (pair, sample) playouts as tasks of about PLAYOUTS_PER_TASK playouts, each of whole
    samples in the step's order: a sample's playouts share its deal and its memo (play_to_end), so
    one task plays them in the order one core would, and the figures are the same however split."""
    numbers = list(dict.fromkeys(sample for _, sample in wanted))
    count = max(1, min(len(numbers), round(len(wanted) / PLAYOUTS_PER_TASK)))
    shares = [set(numbers[k * len(numbers) // count:(k + 1) * len(numbers) // count]) for k in range(count)]
    return [[pair for pair in wanted if pair[1] in share] for share in shares]


def _playouts(task: tuple) -> list[tuple[bool, int]]:
    """A task of a turn's job (in a worker of the pool): the outcome of each (pair, sample) asked."""
    state, seed, event, wanted = task
    judge = _Judge(state, seed, event, 0)  # outcomes only: the equity is counted by the job
    return [judge.outcome(commands, sample) for commands, sample in wanted]


def facts(options: dict[tuple, troll.TrollState], played: tuple) -> str:
    """What the figures do not say of the pair played, in words: that it ends the game at once (and
    how), or that it is the only pair that does not lose at once."""
    going_on = [commands for commands, final in options.items() if final.end not in LOSSES]
    end = options[played].end
    if end:
        said = f"ends the game at once: {END_WORDS.get(end, end)}"
        if end in LOSSES and len(going_on) == 1:
            return f"{said}; {words(going_on[0])} is the only pair that goes on"
        return f"{said}; {len(going_on)} pairs go on" if end in LOSSES and going_on else said
    return "the only pair that goes on" if going_on == [played] and len(options) > 1 else ""


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None  # None: too few samples to tell the noise


def deck_at_start(session, turns) -> int:
    """The deck of awakening's size at the first decision: what the equity's share is counted in."""
    return len(session.state_at(turns[0][0]).deck) if turns else 0


def prepare() -> None:
    """What a viewer opening a troll game starts ahead (analysis.prepare): the pool's forkserver."""
    pool.warm()


def turn_jobs(session, turns: list[tuple[int, tuple]], samples: int) -> list:
    """A job of engine/analysis/pool.py for each of the game's turns (`_turns`), as analyse hands them out."""
    deck = deck_at_start(session, turns)
    return [turn_job(session.state_at(start), played, session.seed, start + 1, samples, deck) for start, played in turns]


def analyse(session, samples: int | None = None, progress=None, partial=None, cores: int | None = None) -> Analysis:
    """Every turn judged on its own (its figures depend only on its position, the seed and the
    samples), its playouts split over `cores` processes (None: every core; engine/analysis/pool.py)
    and the turns merged in order: the same figures as on one core."""
    samples = SAMPLES if samples is None else samples
    turns = _turns(session)
    jobs = turn_jobs(session, turns, samples)
    decisions, curve = [], []

    def judged(index: int, decision: Decision) -> None:
        decisions.append(decision)
        curve.append(Point(turns[index][0], decision.chance_best))
        if partial:
            partial(Analysis(troll.ID, WIN_CHANCE, tuple(decisions), (), tuple(curve), extra=EXTRA))
        if progress:
            progress(len(decisions), len(turns))

    def waiting() -> None:  # a viewer's progress may stop the analysis (it raises when the viewer is left)
        if progress:
            progress(len(decisions), len(turns))

    pool.staged(_playouts, jobs, judged, waiting, cores)
    luck = _awakening_luck(session, turns, decisions)
    notes = (f"every legal pair judged (same positions once) over {samples} sampled deals (unseen cards dealt anew), "
             f"played on by the adviser; marks by equity (half the win, half the deck played before the end): 5 "
             f"points ?!, 10 ?, 15 ?? beyond 2 standard errors of the paired difference, on fresh deals apart from "
             f"those that chose the best; a pair that ends the game at once is marked by its loss too, and said so",)
    return Analysis(troll.ID, WIN_CHANCE, tuple(decisions), tuple(luck), tuple(curve), notes,
                    extra=dict(EXTRA), names=tuple(p.name for p in session.players))



def check_stored(result: Analysis, session) -> None:
    """What `analyse` writes, checked in a stored copy (shape.ShapeError): marks by equity, so every
    decision has its equity played and best; the per-game figures say so and nothing else."""
    if shape.table(result.extra, set(EXTRA), "the per-game figures") != EXTRA:
        raise shape.ShapeError(f"the per-game figures are not {EXTRA}")
    for d in result.decisions:
        if d.equity_played is None or d.equity_best is None:
            raise shape.ShapeError(f"the decision at event {d.event} has no equity")

# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: troll.TrollState) -> list[tuple[str, tuple]]:
    """Every pair of actions this turn, in the analysis's words, the adviser's order."""
    return [(words(commands), commands) for _, commands in _pairs(state)]


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The equity after `commands` at the decision starting at `start`, as the analysis judges it: on
    its own fresh sampled deals, the same for every pair (common random numbers)."""
    judge = _Judge(session.state_at(start), session.seed, start + 1, deck_at_start(session, _turns(session)))
    count = SAMPLES if samples is None else samples
    return sum(judge.value(tuple(commands), paired.CONFIRM + n) for n in range(count)) / count


def practice_why(state: troll.TrollState, commands: tuple) -> str:
    """Why, in the hint's words (the adviser's reason for a line), for the pair `commands`."""
    lines = adviser.scored_lines(state)
    for score, line, events, final in lines:
        if tuple(line) == tuple(commands):
            losing = score > -adviser.WIN / 2 and any(other[0] <= -adviser.WIN / 2 for other in lines)
            return adviser.reason(state, list(events), final, losing)
    return ""
