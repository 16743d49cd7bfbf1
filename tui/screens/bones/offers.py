"""The offers a player takes from a short menu: a reroll after each roll while supply is left (or
keep the dice), Reengage or First Strike after a won roll-off, and which troops a reinforce roll
brings back in. Up/Down choose, Enter or y takes the offer, n keeps the dice."""
from __future__ import annotations

from typing import Callable

from dicehall.engine.games import bones
from dicehall.engine.games.bones import BonesState, Choose, Keep, Reroll, troop_name
from dicehall.tui.screens.bones.troops import troop_at

OFFER_STAGES = ("choose", "attack_reroll", "defence_reroll", "reinforce_reroll", "reinforce_choice")


class OfferMenu:
    """The highlighted offer of the stage being decided; the offers come from the state."""

    def __init__(self) -> None:
        self.index = 0

    def offers(self, state: BonesState, commands: Callable[[], list]) -> list[tuple[str, object]]:
        """(words, command) for each offer now; `commands` gives the legal commands (the
        reinforce choice offers exactly those)."""
        stage = state.stage
        if stage == "choose":
            return [("Reengage (the other strikes first)", Choose("reengage")),
                    ("First Strike (the other reengages)", Choose("first strike"))]
        if stage.endswith("_reroll"):
            dice = bones.current_dice(state, stage.split("_")[0])
            return [("Keep the dice", Keep())] + [(f"Reroll die {i + 1} (shows {f})", Reroll(i)) for i, f in enumerate(dice)]
        if stage == "reinforce_choice":
            assert state.reinforce_troop is not None  # the troop the reinforce roll is for
            troop = troop_name(state.player, state.reinforce_troop)
            spare = next((t for t, x in enumerate(state.troops[state.player]) if x is None), None)
            extra = troop_name(state.player, spare) if spare is not None else ""
            words = {(True, True): f"{troop} rolls back in and {extra} joins", (True, False): f"{troop} rolls back in",
                     (False, True): f"{extra} joins ({troop} stays)", (False, False): "No troop rolls in"}
            return [(words[(c.troop, c.extra)], c) for c in commands()]
        return []

    def move(self, state: BonesState, commands: Callable[[], list], sign: int) -> None:
        self.index = (self.index + sign) % len(self.offers(state, commands))

    def chosen(self, state: BonesState, commands: Callable[[], list]):
        return self.offers(state, commands)[self.index][1]

    def describe(self, state: BonesState, commands: Callable[[], list]) -> list[str]:
        """What the offer is about, the offers with the highlighted one marked, and the keys."""
        lines = context(state)
        for index, (label, _) in enumerate(self.offers(state, commands)):
            lines.append(("> " if index == self.index else "  ") + label)
        lines.append("Up/Down  Enter/y: take  n: keep" if state.stage.endswith("reroll") else "Up/Down  Enter: take")
        return lines


def context(state: BonesState) -> list[str]:
    """The roll an offer is about: the roll-off, the attack or defence dice, the reinforce roll."""
    stage = state.stage
    attack = state.attack
    if stage == "choose":
        a, b = state.rolloffs[-1]
        return [f"You won the roll-off ({a} v {b})"]
    if stage == "attack_reroll":
        assert attack is not None  # the attack the dice are for
        target = troop_at(state, 1 - state.player, attack.target)
        values = ", ".join(f"{r}+{s}" for r, s in zip(attack.rolls, attack.strengths))
        return [f"Attack on {troop_name(1 - state.player, attack.target)} (firepower {target.face}): {values}",
                f"Supply {state.supply[state.player]}; a reroll costs 1"]
    if stage == "defence_reroll":
        assert attack is not None
        target = troop_at(state, 1 - state.player, attack.target)
        values = ", ".join(f"{r}+{s}" for r, s in zip(attack.rolls, attack.strengths))
        return [f"{troop_name(1 - state.player, attack.target)} ({target.face}) defends against {values}",
                f"Defence dice {' '.join(map(str, attack.defence))}; supply {state.supply[1 - state.player]}"]
    assert state.reinforce_troop is not None  # the rest are the reinforce roll's offers
    if stage == "reinforce_reroll":
        troop = troop_at(state, state.player, state.reinforce_troop)
        return [f"Reinforce roll {state.reinforce_face} for {troop_name(state.player, state.reinforce_troop)} "
                f"(face {troop.face}); supply {state.supply[state.player]}"]
    troop = troop_at(state, state.player, state.reinforce_troop)
    return [f"Reinforce roll {state.reinforce_face}, {troop_name(state.player, state.reinforce_troop)} shows {troop.face}"]
