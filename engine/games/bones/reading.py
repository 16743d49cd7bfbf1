"""The game in words: the outcome, a line for every event (the log and the replay viewer), the
progress a saves list shows, and where the viewer's turns start."""
from __future__ import annotations

from dicehall.engine.core import Outcome, Result
from dicehall.engine.games import entry_of
from dicehall.engine.games.bones.area import SIDES, troop_name
from dicehall.engine.games.bones.events import (ACTION_EVENTS, AttackDeclared, AttackRolled, Converged, DefenceAssigned,
                                       DefenceRolled, DiceKept, DieRerolled, LandingMissed, OptionChosen, Reengaged,
                                       ReinforceCalled, ReinforcementsTaken, ReinforceRolled, RerollCalled,
                                       Resupplied, RolledOff, TroopLanded)
from dicehall.engine.games.bones.play import evolve
from dicehall.engine.games.bones.state import BonesState
from dicehall.engine.words import counted


def outcome(state: BonesState) -> Outcome | None:
    if state.stage != "over":
        return None
    if not state.result:
        return Outcome((), f"a draw: neither side has a troop left after turn {state.turn}")
    winner = state.result[0]
    left = len(state.in_play(winner))
    return Outcome((winner,), f"{label(state, winner)} wins on turn {state.turn} with {counted(left, 'troop')} left")


MEASURE = entry_of("bones").measure  # the catalogue's: what its results count, which way is better


def result(state: BonesState, seat: int) -> Result | None:
    """The troops the winner lost (the contract's result); None for the loser and for a draw."""
    if state.stage != "over" or (state.result or ())[:1] != (seat,):
        return None
    lost = sum(1 for troop in state.troops[seat] if troop is None)
    return MEASURE.result(lost, f"won, {counted(lost, 'troop')} lost", won=True)


def final_score(state: BonesState) -> tuple[int, ...] | None:
    """Each side's troops left on the table."""
    if state.stage != "over":
        return None
    return tuple(len(state.in_play(seat)) for seat in range(len(state.troops)))


def label(state: BonesState, seat: int) -> str:
    return f"{state.names[seat]} ({SIDES[seat]})"


def _inches(hundredths: int) -> str:
    return f"{hundredths / 100:.2f}"


def _pairs_text(state: BonesState, after: BonesState) -> str:
    assert after.last is not None  # a target was resolved (after.resolved moved on)
    seat, target, pairs = after.last
    name = troop_name(seat, target)
    parts = [f"{p.roll}+{p.strength} vs {p.defence}+{p.firepower}: {p.effect}" for p in pairs]
    now = after.troops[seat][target]
    fate = "slain" if now is None else f"now {now.face}" if now.face != state.troop(seat, target).face else "unhurt"
    return f"; {name}: " + ", ".join(parts) + f" ({fate})"


def describe(state: BonesState, event: object, reveal: bool = True) -> str:
    after = evolve(state, event)
    typed = " (typed)" if getattr(event, "typed", False) else ""
    if isinstance(event, TroopLanded):
        text = (f"{troop_name(event.seat, event.troop)} lands at ({_inches(event.x)}, {_inches(event.y)}) "
                f"showing {event.face}")
    elif isinstance(event, LandingMissed):
        text = (f"{troop_name(event.seat, event.troop)} lands on another die at ({_inches(event.x)}, "
                f"{_inches(event.y)}) and is rolled again")
    elif isinstance(event, RolledOff):
        text = f"roll-off: A {event.a}, B {event.b}{typed}: " + (
            "a tie, roll again" if event.a == event.b else f"{label(state, after.player)} chooses")
    elif isinstance(event, OptionChosen):
        text = f"{label(state, event.seat)} chooses {'Reengage' if event.reengage else 'First Strike'}"
    elif isinstance(event, Reengaged):
        picks = [troop_name(event.seat, t) for t in event.own] + [troop_name(1 - event.seat, t) for t in event.theirs]
        text = f"{label(state, event.seat)} reengages " + (", ".join(picks) if picks else "nothing")
    elif isinstance(event, AttackDeclared):
        attacks = ", ".join(f"{troop_name(1 - event.seat, t)} at {s}" for t, s in event.attacks)
        text = f"{label(state, event.seat)} attacks with {troop_name(event.seat, event.troop)}: {attacks}"
        if after.attack and after.attack.missed:
            text += "; out of range, missed: " + ", ".join(troop_name(1 - event.seat, t) for t, _ in after.attack.missed)
    elif isinstance(event, AttackRolled):
        text = f"attack dice on {troop_name(1 - event.seat, event.target)}: {' '.join(map(str, event.faces))}{typed}"
    elif isinstance(event, DefenceRolled):
        text = f"defence dice of {troop_name(event.seat, event.target)}: {' '.join(map(str, event.faces))}{typed}"
    elif isinstance(event, RerollCalled):
        text = f"{label(state, event.seat)} spends 1 supply to reroll {event.kind} die {event.index + 1}"
    elif isinstance(event, DieRerolled):
        text = f"the rerolled {event.kind} die shows {event.face}{typed}"
    elif isinstance(event, DiceKept):
        text = f"{label(state, event.seat)} keeps the {event.kind} dice"
    elif isinstance(event, DefenceAssigned):
        assert state.attack is not None  # the defence dice of the attack under way
        text = f"{label(state, event.seat)} assigns the defence dice " + " ".join(
            str(state.attack.defence[d]) for d in event.dice)
    elif isinstance(event, ReinforceCalled):
        face = state.troop(event.seat, event.troop).face
        text = f"{label(state, event.seat)} reinforces {troop_name(event.seat, event.troop)} (showing {face})"
    elif isinstance(event, ReinforceRolled):
        text = f"the reinforce roll is {event.face}{typed}"
    elif isinstance(event, ReinforcementsTaken):
        parts = []
        if event.troop is not None:
            parts.append(f"{troop_name(event.seat, event.troop)} rolls back in")
        if event.extra is not None:
            parts.append(f"{troop_name(event.seat, event.extra)} joins")
        text = f"{label(state, event.seat)}: " + (" and ".join(parts) if parts else "no troop rolls in")
    elif isinstance(event, Resupplied):
        text = (f"{label(state, event.seat)} resupplies with {troop_name(event.seat, event.troop)} "
                f"({event.face}): supply {after.supply[event.seat]}")
    elif isinstance(event, Converged):
        if state.converge_by == 1 - event.seat:
            text = f"{label(state, event.seat)} answers the converge: " + (
                f"the area shrinks to {after.side // 100} inches" if after.side < state.side else "the area is at its smallest")
        else:
            text = f"{label(state, event.seat)} converges (the area shrinks if the opponent converges next)"
    else:
        return str(event)
    if after.resolved != state.resolved:
        text += _pairs_text(state, after)
    if after.stage == "over":
        result = outcome(after)
        assert result is not None  # the game is over
        text += f"; {result.summary}"
    return text


def progress(state: BonesState) -> str:
    result = outcome(state)
    if result is not None:
        return result.summary
    if state.turn == 0:
        return "setup"
    counts = " ".join(f"{SIDES[s]} {counted(len(state.in_play(s)), 'troop')}, supply {state.supply[s]};" for s in (0, 1))
    return f"turn {state.turn}: {counts} area {state.side // 100} in"


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: the setup choices and every action."""
    return isinstance(event, (OptionChosen, Reengaged) + ACTION_EVENTS)
