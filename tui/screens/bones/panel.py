"""The top of the War of Bones side panel: both sides (who plays, troops in and out, supply), the
area and a pending converge, and the dice of the current or last attack."""
from __future__ import annotations

from rich.text import Text

from dicehall.engine.games.bones import SIDES, BonesState, troop_name
from dicehall.tui.screens.bones.area import STYLE, player_line


def sides_text(state: BonesState, players, width: int, acting: int | None) -> Text:
    """A line per side (> before the one to act) with its troops and supply, the area, the rolls."""
    text = Text()
    for seat in (0, 1):
        marker = ">" if acting == seat else " "
        count = len(state.in_play(seat))
        text.append(f"{marker}{player_line(players, seat)}"[:width] + "\n", style=STYLE[seat])
        text.append(f"  {count} in, {8 - count} out, supply {state.supply[seat]}\n")
    pending = ("no converge pending" if state.converge_by is None
               else f"{SIDES[state.converge_by]} converged: {SIDES[1 - state.converge_by]} may answer")
    text.append(f"Area {state.side // 100} in; {pending}"[:width] + "\n")
    text.append(rolls_line(state)[:width] + "\n")
    return text


def rolls_line(state: BonesState) -> str:
    """The attack's rolls against the defence (die + firepower), a reinforce roll, the last
    attack's results or the last roll-off."""
    attack = state.attack
    if attack is not None and attack.rolls:
        target = troop_name(1 - state.player, attack.target)
        line = f"Rolls on {target}: " + " ".join(str(r + s) for r, s in zip(attack.rolls, attack.strengths))
        if attack.defence:
            defender = state.troops[1 - state.player][attack.target]
            power = f"+{defender.face}" if defender is not None else ""
            line += " v " + " ".join(f"{d}{power}" for d in attack.defence)  # die + the defender's firepower
        return line
    if state.stage in ("reinforce_reroll", "reinforce_choice"):
        return f"Reinforce roll: {state.reinforce_face}"
    if state.last is not None:
        seat, number, pairs = state.last
        return f"Last: {troop_name(seat, number)} " + ", ".join(f"{p.roll + p.strength}v{p.defence + p.firepower} {p.effect}" for p in pairs)
    if state.rolloffs:
        a, b = state.rolloffs[-1]
        return f"Roll-off: A {a}, B {b}"
    return "No rolls yet"
