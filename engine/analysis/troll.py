"""The troll's analysis: each turn's pair of actions (what the `h` hint judges) against the
adviser's best pairs, by the chance of winning over sampled deals.

No peeking: a sampled deal keeps everything the player could see at that decision (the awake
cards, the troll's hands, the flight stacks, the set-aside cards, the deck's size) and deals the
rest anew: the face-down cards on the bridge and the deck are shuffled together among the cards
not seen, and every later awakening die is rolled again. The real face-down cards and deck order
are never read: the unseen cards are sorted before the shuffle, so the figures depend only on
which cards are unseen, not where they lie. The rest of the game is played by today's adviser
(engine/bots/troll.py). Every candidate pair sees the same sampled deals and dice (common random
numbers), so their difference is sharper than each figure. The samples come from the replay's
seed and the decision's event number, so the same file gives the same figures.

Luck is measured turn by turn: a turn's awakenings (one chance event, at its first die) moved the
win chance from what the pair before them was expected to leave to what the next decision finds
(or to the result, 1 or 0, when they ended the game).
"""
from __future__ import annotations

import random
from hashlib import blake2b

from dicehall.engine.analysis import Analysis, Decision, Luck, Point, mark_for
from dicehall.engine.bots import troll as adviser
from dicehall.engine.core import IllegalCommand
from dicehall.engine.games import troll
from dicehall.engine.session import replace

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 1

SAMPLES = 16  # sampled deals per decision by default (a whole standard game within 30 s: tests/perf/bench.py)
CANDIDATES = 3  # the adviser's best pairs judged beside the pair played
SAMPLES_PER_SECOND = 150  # --budget: playouts per second of budget, a fixed rate (so figures repeat), below what this machine does
THRESHOLDS = (0.05, 0.10, 0.15)
MAX_TURNS = 400  # a playout that has not ended by then counts as lost (the quiet-turn rule ends games long before)
LOSSES = ("collapsed", "flew", "unsettled")


def samples_for_budget(session, seconds: float) -> int:
    """Samples per decision that fit `seconds` at a fixed rate: deterministic, whatever the machine."""
    decisions = max(1, len(_turns(session)))
    return max(1, min(1000, int(seconds * SAMPLES_PER_SECOND / decisions / (CANDIDATES + 1))))


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


def _fold(state, events):
    for event in events:
        state = troll.evolve(state, event)
    return state


def play_out(state: troll.TrollState, dice: random.Random) -> bool:
    """Play on with the adviser, the dice from `dice`; whether the troll wins."""
    turns = 0
    while not state.end:
        need = troll.chance_needed(state)
        if need is not None:
            draws = tuple(dice.randrange(n) for n in need.spec)
            state = troll.evolve(state, troll.chance_event(state, draws, False))
            continue
        if troll.to_act(state) is None:
            break
        turns += 1
        if turns > MAX_TURNS:
            return False
        turn = state.turn
        for command in adviser.best_turn(state).commands:
            if troll.to_act(state) != 0 or state.turn != turn:
                break
            state = _fold(state, troll.decide(state, command))
    return state.end in ("won", "perfect")


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
        state = _fold(state, troll.decide(state, command))
    return state.end


def chance_of_pair(state: troll.TrollState, commands: tuple, seed: int, event: int, samples: int) -> float:
    """The chance of winning after playing `commands` now, over `samples` sampled deals."""
    wins = 0
    turn = state.turn
    for sample in range(samples):
        now = sampled_deal(state, _rng(seed, event, sample, "deal"))
        for command in commands:
            if troll.to_act(now) != 0 or now.turn != turn:
                break
            try:
                now = _fold(now, troll.decide(now, command))
            except IllegalCommand:  # not possible in this deal: the adviser takes over
                break
        wins += play_out(now, _rng(seed, event, sample, "dice"))
    return wins / samples


def _command_of(state, events, start: int):
    """The command whose events begin the log at `start` (the log keeps events, not commands)."""
    for command in troll.legal_commands(state):
        produced = troll.decide(state, command)
        if tuple(events[start:start + len(produced)]) == produced:
            return command
    raise ValueError(f"event {start + 1}: no troll action gives these events")


def _turns(session) -> list[tuple[int, tuple]]:
    """Each turn's decision: (where its first action starts in the log, the commands played)."""
    events = session.events
    turns: list[tuple[int, list]] = []
    current = None
    for mark in session.marks:
        state = session.state_at(mark.start)
        if troll.to_act(state) != 0:
            continue
        command = _command_of(state, events, mark.start)
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
            after = 1.0 if session.state.end in ("won", "perfect") else 0.0
        else:
            continue  # unfinished: nothing to measure against yet
        luck.append(Luck(dice[0] + 1, after - decision.chance_played))
    return luck


def words(commands: tuple) -> str:
    """A pair of actions as the hint says it."""
    return " then ".join(str(c) for c in commands)


def analyse(session, samples: int | None = None, progress=None, partial=None) -> Analysis:
    samples = SAMPLES if samples is None else samples
    turns = _turns(session)
    decisions, curve = [], []
    for done, (start, played) in enumerate(turns, start=1):
        state = session.state_at(start)
        event = start + 1
        candidates = [commands for _, commands in _pairs(state)[:CANDIDATES]]
        if played not in candidates:
            candidates.append(played)
        chances = {commands: chance_of_pair(state, commands, session.seed, event, samples) for commands in candidates}
        best = max(candidates, key=lambda commands: (chances[commands], commands == played))
        # a difference of one sampled deal is noise: it is taken off before the thresholds
        drop = chances[best] - chances[played] - 1 / samples
        mark = mark_for(max(0.0, drop), THRESHOLDS)
        if _ends_at_once(state, played) in LOSSES and _ends_at_once(state, best) not in LOSSES:
            mark = "??"  # losing at once when another pair goes on is a blunder, however slim the hope
        decisions.append(Decision(event, 0, words(played), words(best), chances[played], chances[best], mark))
        curve.append(Point(start, chances[best]))
        if partial:
            partial(Analysis(troll.ID, "win chance", tuple(decisions), (), tuple(curve)))
        if progress:
            progress(done, len(turns))
    luck = _awakening_luck(session, turns, decisions)
    notes = (f"{samples} sampled deals per decision (face-down cards and the deck dealt anew among the unseen "
             f"cards, the dice rolled anew), played on by the adviser; marks: a drop in win chance of 5 points ?!, "
             f"10 ?, 15 ?? beyond one sampled deal's worth (noise), and ?? for a pair that loses at once "
             f"when another does not",)
    return Analysis(troll.ID, "win chance", tuple(decisions), tuple(luck), tuple(curve), notes,
                    names=tuple(p.name for p in session.players))


# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: troll.TrollState) -> list[tuple[str, tuple]]:
    """Every pair of actions this turn, in the analysis's words, the adviser's order."""
    return [(words(commands), commands) for _, commands in _pairs(state)]


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The win chance after `commands` at the decision starting at `start`, as the analysis judges it."""
    return chance_of_pair(session.state_at(start), commands, session.seed, start + 1,
                          SAMPLES if samples is None else samples)


def practice_why(state: troll.TrollState, commands: tuple) -> str:
    """Why, in the hint's words (the adviser's reason for a line), for the pair `commands`."""
    lines = adviser.scored_lines(state)
    for score, line, events, final in lines:
        if tuple(line) == tuple(commands):
            losing = score > -adviser.WIN / 2 and any(other[0] <= -adviser.WIN / 2 for other in lines)
            return adviser.reason(state, list(events), final, losing)
    return ""
