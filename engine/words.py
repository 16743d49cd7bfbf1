"""Words for counts, so no screen or report says "1 rolls"."""
from __future__ import annotations

IRREGULAR = {"copy": "copies", "die": "dice", "dice": "dice", "dice outcome": "dice outcomes", "troop": "troops"}


def counted(number: float, noun: str, plural: str | None = None) -> str:
    """The number and its noun, singular for exactly one: counted(1, "roll") is "1 roll",
    counted(3, "roll") is "3 rolls"; `plural` gives a form that is not the noun plus "s"."""
    if number == 1:
        return f"{number} {noun}"
    return f"{number} {plural or IRREGULAR.get(noun) or noun + 's'}"
