"""The attack builder: an attack put together line by line before it is declared. Each line is a
target and the firepower set against it; Up/Down change a line's target, Left/Right its strength,
Tab adds a line with the firepower left over. Any split the rules allow can be built."""
from __future__ import annotations

from dicehall.engine.games import bones
from dicehall.engine.games.bones import Attack, BonesState, troop_name
from dicehall.tui.screens.bones.troops import troop_at, troop_words


class AttackBuilder:
    """The lines of the attack being built by one troop; holds only the choices, never the game."""

    def __init__(self) -> None:
        self.troop: tuple[int, int] | None = None  # (seat, number) of the attacking troop
        self.lines: list[list[int]] = []  # [target, strength] per attack
        self.line = 0  # the line the keys change

    def clear(self) -> None:
        self.lines = []
        self.line = 0

    def open(self, state: BonesState, troop: tuple[int, int]) -> str:
        """Start with all the troop's firepower on the first target; the words that say how to go on."""
        seat, number = troop
        self.troop = troop
        self.lines = [[self.targets(state)[0], troop_at(state, seat, number).face]]
        self.line = 0
        return f"attack with {troop_name(seat, number)}: Up/Down target, Left/Right strength, Tab splits, Enter attacks"

    def targets(self, state: BonesState) -> list[int]:
        """The enemy troops a line may aim at, nearest first (by number with no pre-measuring)."""
        assert self.troop is not None  # the builder is open
        seat, number = self.troop
        troop = troop_at(state, seat, number)
        targets = bones.targets_of(state, seat, number)
        if state.no_premeasure:
            return sorted(targets)  # by number: an order by distance would measure for the player
        return sorted(targets, key=lambda t: bones.distance(troop, troop_at(state, 1 - seat, t)))

    def firepower(self, state: BonesState) -> int:
        assert self.troop is not None
        return troop_at(state, *self.troop).face

    def arrow(self, state: BonesState, vertical: bool, sign: int) -> str | None:
        """Up/Down: the line's next or previous target; Right/Left: one more or one less strength
        (a line left with none goes). Returns why a key did nothing, or None."""
        face = self.firepower(state)
        line = self.lines[self.line]
        if vertical:
            targets = self.targets(state)
            line[0] = targets[(targets.index(line[0]) + sign) % len(targets)]
        elif sign > 0:
            if sum(s for _, s in self.lines) >= face:
                return f"all {face} firepower is placed: take some from another line first (Left)"
            line[1] += 1
        else:
            line[1] -= 1
            if line[1] == 0:
                if len(self.lines) == 1:
                    line[1] = 1
                    return "an attack needs at least one line of strength 1"
                del self.lines[self.line]
                self.line = min(self.line, len(self.lines) - 1)
        return None

    def tab(self, state: BonesState) -> str | None:
        """The next line; from the last one, with firepower left over, a new line on the next
        target. Returns what to say, or None."""
        said = None
        left = self.firepower(state) - sum(s for _, s in self.lines)
        if left > 0 and self.line == len(self.lines) - 1:
            targets = self.targets(state)
            current = self.lines[self.line][0]
            self.lines.append([targets[(targets.index(current) + 1) % len(targets)], left])
            said = f"a new line with the {left} firepower left over"
        self.line = (self.line + 1) % len(self.lines)
        return said

    def command(self) -> Attack:
        assert self.troop is not None
        return Attack(self.troop[1], tuple((t, s) for t, s in self.lines))

    def marks(self) -> dict:
        """On the map: ( ) around the other lines' targets, > < around the target being set."""
        assert self.troop is not None
        enemy = 1 - self.troop[0]
        marks = {}
        for index, (target, _) in enumerate(self.lines):
            if index != self.line:
                marks[(enemy, target)] = ("(", ")", "underline")
        if self.lines:
            marks[(enemy, self.lines[self.line][0])] = (">", "<", "reverse")
        return marks

    def describe(self, state: BonesState) -> list[str]:
        """The builder's lines for the side panel, with the keys."""
        assert self.troop is not None
        mine, number = self.troop
        face = self.firepower(state)
        left = face - sum(s for _, s in self.lines)
        lines = [f"Attack with {troop_name(mine, number)} ({face}): {left} left to place"]
        for index, (target, strength) in enumerate(self.lines):
            marker = ">" if index == self.line else " "
            lines.append(f"{marker} {strength} at {troop_words(state, 1 - mine, target)}")
        lines.append("Up/Down target  Left/Right strength")
        lines.append("Tab next/add  Enter attack  Esc cancel")
        return lines
