"""War of Bones' analysis: each decision of a person against its alternatives (every legal choice
where there are few, the general's best by its own scores where there are many, and always the
general's own), by short rollouts between generals over sampled dice, judged by material on a
win-chance curve; marks only beyond the noise of the paired samples.

A decision is every command of a person where there was a choice: the roll-off winner's option,
the reengage picks, each turn's action (attack, reinforce, resupply, converge), each reroll-or-keep
after a roll, the defender's assignment of the defence dice, and which troops roll in after a
reinforce roll. They are judged one by one, not a turn as a unit: dice fall between them, so each
is made knowing more than the one before.

A command is worth the chance of winning it leaves: the command is played, then both sides are
played by the general (engine/bots/bones.py) to the end of the opponent's next turn (so a troop
left open to a strong shot counts), with the dice (and landings) sampled anew, never the game's
own; the position reached is scored by material, each troop 2 + its face and each supply point
the general's 0.35, turned into a win chance by a logistic curve fitted to games between generals
(13 points of material per unit: a 6 lost from an even game is about 15 points of win chance). A
finished game counts 1, 0 or 0.5. Every candidate sees the same sampled dice (common random
numbers). The one found best, when it beats the move played by a mark's worth, is judged again
against it on a fresh, independent set of futures (so "best" is not merely the luckiest of several),
and the mark is on that paired drop less two standard errors (engine/analysis/paired.py). The samples
come from the replay's seed and the decision's event number, so the same file gives the same figures.

Luck: the dice between two decisions (an attack's dice, a reinforce roll, a reroll, troops landing)
are one chance event, listed at its first event: the win chance they left at the end of the turn
against the average over sampled dice from just before them, from the side of the first person.
"""
from __future__ import annotations

import math
import random
from hashlib import blake2b
from typing import cast

from dicehall.engine.analysis import WIN_CHANCE, Analysis, Decision, Luck, Point, mark_for, paired, shape
from dicehall.engine.bots import bones as general
from dicehall.engine.games import bones
from dicehall.engine.games.bones import troop_name

# bumped when this analyser's figures or marks change: a stored analysis of another version
# (saves/analyses.py) is analysed again
ANALYSER_VERSION = 3  # 2: every legal choice judged on paired futures, marks beyond the noise (issue #22); 3: a move
# that loses at once marked by its drop like any other, and said so in words (issue #33)

SAMPLES = 16  # sampled futures per candidate and per chance event by default (tests/perf/bench.py)
ROLLOUTS_PER_SECOND = 1500  # --budget: rollouts per second of budget, a fixed rate (so figures repeat), below what this machine does
THRESHOLDS = (0.05, 0.10, 0.15)  # lichess's drops in win chance: ?!, ?, ??
MEMO_LIMIT = 20_000  # the general's answers kept by position during one analysis
CONFIRM = 16  # the fewest fresh futures that confirm a possible mark (rare: worth spending on)
CANDIDATES = 4  # an action's candidates by the general's own scores, besides the move played and the general's
SCALE = 13.0  # points of material per unit of the logistic curve (fitted on 150 games between generals)


def samples_for_budget(session, seconds: float) -> int:
    """Samples that fit `seconds` at a fixed rate: deterministic, whatever the machine."""
    decisions, runs = _decisions(session), _chance_runs(session)
    # about four candidates a decision on half the samples (a few confirmed on more), before and after a run
    rollouts_per_sample = 2 * len(decisions) + 2 * len(runs)
    return max(1, min(1000, int(seconds * ROLLOUTS_PER_SECOND / max(1, rollouts_per_sample))))


def _rng(seed: int, event: int, sample: int, what: str) -> random.Random:
    key = blake2b(repr((seed, event, sample, what)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(key, "big"))


# ----- the figure -----
def material(state: bones.BonesState, seat: int) -> float:
    """A side's material in the general's currency: troops by their worth, supply by its value."""
    troops = sum(general.worth(state.troop(seat, t).face) for t in state.in_play(seat))
    return troops + general.SUPPLY_VALUE * state.supply[seat]


def win_chance(state: bones.BonesState, seat: int) -> float:
    """`seat`'s chance of winning by the material on the board (the result, once the game is over)."""
    if state.stage == "over":
        return 0.5 if not state.result else 1.0 if state.result[0] == seat else 0.0
    lead = material(state, seat) - material(state, 1 - seat)
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


def _fold(state, events):
    for event in events:
        state = bones.evolve(state, event)
    return state


def _general(state: bones.BonesState) -> object:
    if state.stage == "action":  # the general's own choice, without the shuffle that only breaks ties
        return general.act(state, state.player, bones.legal_commands(state))
    return general.choose(state, "general")


def roll_out(state: bones.BonesState, until_turn: int, dice: random.Random, memo: dict | None = None) -> bones.BonesState:
    """Play on, the general for both sides and the chance from `dice`, until turn `until_turn`
    begins or the game ends. `memo` keeps the general's answers by position: samples often meet
    the same position again (a resupply, an attack that held), and the general is deterministic."""
    memo = {} if memo is None else memo
    while state.stage != "over" and state.turn < until_turn:
        need = bones.chance_needed(state)
        if need is not None:
            draws = tuple(int(dice.random() * n) for n in need.spec)
            state = bones.evolve(state, bones.chance_event(state, draws, False))
            continue
        command = memo.get(state)
        if command is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            command = memo[state] = _general(state)
        state = _fold(state, bones.decide(state, command))
    return state


def _sampled(state, seat: int, until_turn: int, seed: int, event: int, samples: int, what: str,
             memo: dict | None = None) -> list[float]:
    return [win_chance(roll_out(state, until_turn, _rng(seed, event, sample, what), memo), seat)
            for sample in range(samples)]


# ----- words -----
def words(state: bones.BonesState, command: object) -> str:
    """A command as the log says it, as an order: "attack with A#3: B#2 at 2, B#5 at 4"."""
    seat = bones.to_act(state)
    assert seat is not None  # a command is played at a decision
    if isinstance(command, bones.Attack):
        attacks = ", ".join(f"{troop_name(1 - seat, t)} at {s}" for t, s in command.attacks)
        return f"attack with {troop_name(seat, command.troop)}: {attacks}"
    if isinstance(command, bones.Reinforce):
        return f"reinforce {troop_name(seat, command.troop)} (showing {state.troop(seat, command.troop).face})"
    if isinstance(command, bones.Resupply):
        return f"resupply with {troop_name(seat, command.troop)} ({state.troop(seat, command.troop).face})"
    if isinstance(command, bones.Converge):
        return "answer the converge" if state.converge_by == 1 - seat else "converge"
    if isinstance(command, (bones.Reroll, bones.Keep)):
        kind = state.stage.split("_")[0]
        if isinstance(command, bones.Keep):
            return f"keep the {kind} " + ("die" if kind == "reinforce" else "dice")
        face = bones.current_dice(state, kind)[command.index]
        return f"reroll {kind} die {command.index + 1} (showing {face})"
    if isinstance(command, bones.Assign):
        assert state.attack is not None  # the defence dice of the attack under way
        return "assign the defence dice " + " ".join(str(state.attack.defence[d]) for d in command.dice)
    if isinstance(command, bones.RollIn):
        assert state.reinforce_troop is not None  # a roll-in answers a reinforce call
        picks = [f"{troop_name(seat, state.reinforce_troop)} back in"] if command.troop else []
        picks += ["an extra troop"] if command.extra else []
        return "roll " + " and ".join(picks) if picks else "roll no troop in"
    if isinstance(command, bones.Reengage):
        picks = [troop_name(seat, t) for t in command.own] + [troop_name(1 - seat, t) for t in command.theirs]
        return "reengage " + (", ".join(picks) if picks else "nothing")
    if isinstance(command, bones.Choose):
        return "choose " + ("Reengage" if command.option == "reengage" else "First Strike")
    return str(command)


# ----- what is judged -----
def _decisions(session) -> list[tuple[int, int]]:
    """(where in the log, whose) for every decision of a person (a hall seat's before a bot took it
    over too) where there was a choice."""
    found = []
    for mark in session.marks:
        person = not session.labels.holder(session.players, mark.player, mark.start).bot
        if person and len(bones.legal_commands(session.state_at(mark.start))) > 1:
            found.append((mark.start, mark.player))
    return found


def _chance_runs(session) -> list[tuple[int, int]]:
    """(first, end) of every run of chance events with no decision between them."""
    runs, first = [], None
    events = session.events
    for index, event in enumerate(events):
        if isinstance(event, bones.CHANCE_EVENTS):
            first = index if first is None else first
        elif first is not None:
            runs.append((first, index))
            first = None
    if first is not None:
        runs.append((first, len(events)))
    return runs


def _loses_at_once(state: bones.BonesState, command: object, seat: int) -> bool:
    """Whether `command` ends the game lost with no dice at all (resupplying the last troop)."""
    after = _fold(state, bones.decide(state, command))
    return after.stage == "over" and win_chance(after, seat) == 0.0


def _general_score(state: bones.BonesState, seat: int, command: object, danger: dict, base_risk: float) -> float:
    """The general's own score of an action (engine/bots/bones.py act), to rank the candidates."""
    if isinstance(command, bones.Attack):
        return general.score_attack(state, seat, command, danger)
    if isinstance(command, bones.Reinforce):
        return general.score_reinforce(state, seat, command.troop) - base_risk
    if isinstance(command, bones.Resupply):
        return general.score_resupply(state, seat, command.troop) - base_risk
    if isinstance(command, bones.Converge):
        return general.score_converge(state, seat) - base_risk
    return 0.0


def candidates(state: bones.BonesState, played: object) -> list[object]:
    """The commands judged against the one played: every legal one where there are few (the roll-off's
    two options, rerolls, assignments, roll-ins), else the general's CANDIDATES best by its own
    scores (an action; the reengage picks), always with the move played and the general's own."""
    commands = bones.legal_commands(state)
    seat = bones.to_act(state)
    assert seat is not None  # a command is played at a decision
    if len(commands) > CANDIDATES:
        if state.stage == "action":
            danger = general.threats(state, 1 - seat)
            base_risk = max(danger.values(), default=0.0)
            commands = sorted(commands, key=lambda c: -_general_score(state, seat, c, danger, base_risk))
        elif state.stage == "reengage":
            # the stage, not the type, says what the commands are: at the reengage stage, Reengages
            commands = sorted(commands, key=lambda c: -general.reengage_gain(state, seat, cast(bones.Reengage, c)))
        commands = commands[:CANDIDATES]
    found = [played]
    for command in [_general(state)] + commands:
        if command not in found:
            found.append(command)
    return found


def judge(state: bones.BonesState, start: int, seat: int, played: object, seed: int, samples: int,
          memo: dict | None = None) -> Decision:
    """One decision: every candidate (see candidates) played on over the same sampled futures to the
    end of the opponent's next turn (common random numbers: the differences are paired). The one
    found best is judged again against the move played over a fresh, independent set of futures,
    so "best" is not merely the luckiest of several; the mark is on that paired drop less two of
    its standard errors (engine/analysis/paired.py)."""
    event = start + 1
    until = state.turn + 2
    first = max(paired.MIN_PAIRS, samples // 2)  # the first round: enough to find the contenders, and to tell their noise
    figures = {}
    for command in candidates(state, played):
        after = _fold(state, bones.decide(state, command))
        figures[command] = _sampled(after, seat, until, seed, event, first, "decision", memo)
    chances = {command: paired.mean(values) for command, values in figures.items()}
    best = max(figures, key=lambda command: (chances[command], command == played))
    played_chance, best_chance, mark = chances[played], chances[best], ""
    if best != played and paired.difference(figures[best], figures[played]).beyond_noise() <= 0:
        best, best_chance = played, played_chance  # not told apart from the move played: as good as the best found
    if best != played and best_chance - played_chance >= THRESHOLDS[0]:  # only a possible mark is worth more samples
        again = {command: _sampled(_fold(state, bones.decide(state, command)), seat, until, seed, event,
                                   max(samples, CONFIRM), "confirm", memo) for command in (best, played)}
        played_chance, best_chance = paired.mean(again[played]), paired.mean(again[best])
        if best_chance <= played_chance:  # on fresh futures the move played holds: it was the luckier set
            best, best_chance = played, played_chance
        else:
            mark = mark_for(paired.difference(again[best], again[played]).beyond_noise(), THRESHOLDS)
    said = ""
    if _loses_at_once(state, played, seat):  # a fact beside the mark, which says only what was lost
        said = "loses the game at once"
        alive = [c for c in figures if chances[c] > 0 and not _loses_at_once(state, c, seat)]
        if alive and best == played:  # the samples see a hope in playing on: that move is named (the mark, by the drop)
            best = max(alive, key=lambda command: chances[command])
            best_chance = chances[best]
    return Decision(event, seat, words(state, played), words(state, best), played_chance, best_chance, mark,
                    words=said)


def analyse(session, samples: int | None = None, progress=None, partial=None) -> Analysis:
    """`partial(result_so_far)` after each decision judged (the decisions first, then the luck)."""
    samples = SAMPLES if samples is None else samples
    people = [seat for seat, player in enumerate(session.labels.first_players(session.players)) if not player.bot]
    side = people[0] if people else 0  # whose win chance the curve and the luck show
    events, seed = session.events, session.seed
    decisions_at, runs = _decisions(session), _chance_runs(session)
    total, done = len(decisions_at) + len(runs), 0
    points: dict[int, float] = {}
    decisions = []
    memo: dict = {}
    names = tuple(session.labels.seat_name(session.players, seat) for seat in range(len(session.players)))
    for start, seat in decisions_at:
        state = session.state_at(start)
        decision = judge(state, start, seat, bones.command_of(events[start]), seed, samples, memo)
        decisions.append(decision)
        points[start] = decision.chance_best if seat == side else 1.0 - decision.chance_best
        done += 1
        if progress:
            progress(done, total)
        if partial:
            partial(Analysis(bones.ID, WIN_CHANCE, tuple(decisions), (), _curve(points), names=names))
    luck = []
    for first, end in runs:
        before, after = session.state_at(first), session.state_at(end)
        until = before.turn + 1  # the end of the turn the dice fell in
        expected = sum(_sampled(before, side, until, seed, first + 1, samples, "before", memo)) / samples
        actual = sum(_sampled(after, side, until, seed, first + 1, samples, "after", memo)) / samples
        luck.append(Luck(first + 1, actual - expected, side))
        points.setdefault(first, expected)  # a decision's own figure, where there is one, is kept
        points.setdefault(end, actual)
        done += 1
        if progress:
            progress(done, total)
    if session.state.stage == "over":
        points[len(events)] = win_chance(session.state, side)
    curve = _curve(points)
    notes = (f"every legal choice where few, the general's {CANDIDATES} best where many, each over {max(2, samples // 2)} "
             f"sampled futures (the same for all), {samples} a roll: the general plays both sides to the end of the "
             f"opponent's next turn with new dice; then material (a troop 2 + its face, supply 0.35 a point) on a "
             f"win-chance curve. Marks: the best found judged again on {max(samples, CONFIRM)} fresh futures, a drop of "
             f"5 points ?!, 10 ?, 15 ?? beyond two standard errors, a move that loses at once "
             f"like any other (and said so). Luck and curve: side {bones.SIDES[side]}'s view",)
    return Analysis(bones.ID, WIN_CHANCE, tuple(decisions), tuple(luck), curve, notes, names=names)


def _curve(points: dict[int, float]) -> tuple[Point, ...]:
    return tuple(Point(n, value) for n, value in sorted(points.items()))



def check_stored(result: Analysis, session) -> None:
    """What `analyse` writes, checked in a stored copy (shape.ShapeError): no per-game figures."""
    shape.table(result.extra, set(), "the per-game figures")

# ----- practice (engine/analysis/practice.py): the choices of a decision and their figure -----
def practice_choices(state: bones.BonesState) -> list[tuple[str, tuple]]:
    return [(words(state, command), (command,)) for command in bones.legal_commands(state)]


def practice_measure(session, start: int, commands: tuple, samples: int | None = None) -> float:
    """The win chance the command leaves, over the same sampled futures as the analysis."""
    state = session.state_at(start)
    seat = bones.to_act(state)
    assert seat is not None  # a decision's start
    after = _fold(state, bones.decide(state, commands[0]))
    samples = SAMPLES if samples is None else samples
    return sum(_sampled(after, seat, state.turn + 2, session.seed, start + 1, samples, "decision", {})) / samples
