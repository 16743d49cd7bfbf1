"""The state of a War of Bones game, whose decision it is, and the end of a turn.

The state is the fold of the events (play.evolve); `stage` says what the game waits for. During an
attack the defender decides twice per target (reroll a defence die, assign the dice): `to_act`
names the defender then.
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.core import IllegalCommand
from dicehall.engine.games.bones.area import FULL, TROOPS, Troop, troop_name
from dicehall.engine.session import replace


@dataclass(frozen=True)
class AttackInProgress:
    """An attack being resolved, target by target (`groups` lists, per target in range, the indexes
    of its attacks in `attacks`; `group` is the one being resolved)."""

    troop: int
    firepower: int
    attacks: tuple[tuple[int, int], ...]
    groups: tuple[tuple[int, ...], ...]
    group: int = 0
    rolls: tuple[int, ...] = ()  # attack dice of the current group
    defence: tuple[int, ...] = ()  # defence dice of the current group

    @property
    def target(self) -> int:
        return self.attacks[self.groups[self.group][0]][0]

    @property
    def strengths(self) -> tuple[int, ...]:
        return tuple(self.attacks[i][1] for i in self.groups[self.group])

    @property
    def missed(self) -> tuple[tuple[int, int], ...]:
        """Attacks on targets out of range (only with no_premeasure): they miss."""
        used = {i for g in self.groups for i in g}
        return tuple(a for i, a in enumerate(self.attacks) if i not in used)


@dataclass(frozen=True)
class PairResult:
    """One attack/defence pair as it was judged."""

    strength: int
    roll: int
    defence: int
    firepower: int  # the defender's, when attacked
    margin: int
    effect: str  # "slain", "damage" or "held"


@dataclass(frozen=True)
class BonesState:
    names: tuple[str, str]
    no_premeasure: bool = False
    troops: tuple[tuple[Troop | None, ...], tuple[Troop | None, ...]] = ((None,) * TROOPS, (None,) * TROOPS)
    supply: tuple[int, int] = (0, 0)
    side: int = FULL  # the area's side now, hundredths of an inch
    # what the game waits for: "landing", "rolloff" (chance); "choose", "reengage", "action",
    # "attack_reroll", "defence_reroll", "assign", "reinforce_reroll", "reinforce_choice" (decisions);
    # "attack_roll", "defence_roll", "reinforce_roll", "reroll" (chance); "over"
    stage: str = "landing"
    player: int = 0  # whose turn it is (in setup: the roll-off winner, then the reengaging player)
    first_strike: int | None = None
    landing: tuple[tuple[int, int], ...] = tuple((s, t) for s in (0, 1) for t in range(TROOPS))  # (seat, troop) to roll in
    after: str = "rolloff"  # what follows the landings: "rolloff", "play" or "end" (of the turn)
    rolloffs: tuple[tuple[int, int], ...] = ()
    attack: AttackInProgress | None = None
    reinforce_troop: int | None = None
    reinforce_face: int = 0
    reroll: tuple[str, int] = ("", 0)  # the die a "reroll" chance stage rolls: (kind, index)
    converge_by: int | None = None  # a converge waiting for the other player's answer
    turn: int = 0  # 1 for the first turn of play
    last: tuple[int, int, tuple[PairResult, ...]] | None = None  # (seat hit, troop, pairs) of the latest target resolved
    resolved: int = 0  # targets resolved so far (the screen can tell when `last` is new)
    result: tuple[int, ...] | None = None  # at the end: the winner's seat, or () for a draw

    def in_play(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t, troop in enumerate(self.troops[seat]) if troop is not None)

    def dice_in_area(self) -> list[Troop]:
        return [troop for side in self.troops for troop in side if troop is not None]

    def troop(self, seat: int, number: int) -> Troop:
        """`seat`'s troop `number` where the caller knows it is in the area (in play, attacking or attacked)."""
        found = self.troops[seat][number]
        assert found is not None, f"{troop_name(seat, number)} is out of play"
        return found

DECISIONS = ("choose", "reengage", "action", "attack_reroll", "defence_reroll", "assign", "reinforce_reroll",
             "reinforce_choice")


def to_act(state: BonesState) -> int | None:
    if state.stage not in DECISIONS:
        return None
    if state.stage in ("defence_reroll", "assign"):
        return 1 - state.player
    return state.player


def set_troop(state: BonesState, seat: int, troop: int, value: Troop | None) -> BonesState:
    """The state with `seat`'s `troop` now `value` (None: out of play, or picked up to roll in)."""
    side = list(state.troops[seat])
    side[troop] = value
    troops = (tuple(side), state.troops[1]) if seat == 0 else (state.troops[0], tuple(side))
    return replace(state, troops=troops)


def end_turn(state: BonesState) -> BonesState:
    """Victory: at the end of any turn a player with no troops in the area loses (both: a draw);
    otherwise the other player's turn begins."""
    state = replace(state, attack=None, reinforce_troop=None, reinforce_face=0, landing=(), after="")
    counts = [len(state.in_play(s)) for s in (0, 1)]
    if counts[0] == 0 or counts[1] == 0:
        result = () if counts[0] == counts[1] else ((0,) if counts[0] else (1,))
        return replace(state, stage="over", result=result)
    return replace(state, stage="action", player=1 - state.player, turn=state.turn + 1)


def troop_in_play(state: BonesState, seat: int, troop: object, what: str) -> Troop:
    """`seat`'s `troop` (a number from a command); IllegalCommand if there is none in the area."""
    if not isinstance(troop, int) or isinstance(troop, bool) or not 0 <= troop < TROOPS:
        raise IllegalCommand(f"there is no troop {str(troop)[:10]} (troops are 1 to {TROOPS})")
    found = state.troops[seat][troop]
    if found is None:
        raise IllegalCommand(f"{troop_name(seat, troop)} is out of play: {what} a troop in the area")
    return found
