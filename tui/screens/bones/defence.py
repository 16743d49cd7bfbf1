"""The defender's assignment: a human defender sets one defence die against each attack, seeing
the result each choice gives, before the attacks are judged."""
from __future__ import annotations

from dicehall.engine.games import bones
from dicehall.engine.games.bones import Assign, BonesState, troop_name
from dicehall.tui.screens.bones.troops import troop_at


class DefenceAssignment:
    """Which defence die stands against which attack: a permutation, changed by swapping."""

    def __init__(self) -> None:
        self.dice: list[int] = []  # the defence die (its index) set against each attack
        self.row = 0  # the attack the keys change

    def reset(self, state: BonesState) -> None:
        """Die 1 against attack 1 and so on, in a position that asks for an assignment."""
        self.dice = list(range(len(state.attack.defence))) if state.stage == "assign" and state.attack else []
        self.row = 0

    def arrow(self, vertical: bool, sign: int) -> None:
        """Up/Down: another attack; Left/Right: the next die for this one (the two attacks swap dice)."""
        count = len(self.dice)
        if vertical:
            self.row = (self.row + sign) % count
        else:
            die = (self.dice[self.row] + sign) % count
            other = self.dice.index(die)
            self.dice[self.row], self.dice[other] = die, self.dice[self.row]

    def command(self) -> Assign:
        return Assign(tuple(self.dice))

    def describe(self, state: BonesState) -> list[str]:
        """A line per attack with the die set against it and what that gives, and the keys."""
        attack = state.attack
        assert attack is not None  # the defence is assigned during an attack
        seat = 1 - state.player
        troop = troop_at(state, seat, attack.target)
        lines = [f"{troop_name(seat, attack.target)} (firepower {troop.face}): set a defence die against each attack"]
        for index, (strength, roll) in enumerate(zip(attack.strengths, attack.rolls)):
            die = attack.defence[self.dice[index]]
            effect = bones.judge(strength, roll, die, troop.face).effect
            marker = ">" if index == self.row else " "
            lines.append(f"{marker} attack {roll}+{strength}={roll + strength} v die {self.dice[index] + 1} "
                         f"({die}+{troop.face}={die + troop.face}): {effect}")
        lines.append("Up/Down: attack  Left/Right: die  Enter: assign")
        return lines
