"""The troll's bridge as a player sees it: two rows of stacks over the river, the troll between
> and <, the flight stacks, what it carries, the deck and the set-aside cards; with reveal, every
stack and the deck order (the replay viewer's spoiler). Drawing only."""
from __future__ import annotations

from rich.text import Text

from dicehall.engine.games import troll
from dicehall.engine.games.troll import COLUMNS, TrollState

CELL = 8
WIDTH = 78  # the columns inside the screen's padding at 80x24


def card_style(code: str) -> str:
    return "bold red" if troll.colour_of(code) == "red" else "bold"


def cell(state: TrollState, pos, reveal: bool) -> Text:
    """One bridge position: stack height (a * after it when an awake card is buried in the stack) and
    top card; awake cards by name with !, dormant as ## (in lower case when revealed); the troll's
    position between > and <."""
    stack = state.stack(pos)
    here = state.troll == pos
    left, right = (">", "<") if here else ("[", "]")
    text = Text(left, style="bold reverse" if here else "")
    if not stack:
        text.append("  .   ")
    else:
        top = stack[-1]
        buried = any(card.awake for card in stack[:-1])  # an awake card waiting under others
        text.append(f"{len(stack)}")
        text.append("*" if buried else " ", style="bold" if buried else "")
        if top.awake:
            text.append(f"{top.code:<3}", style=card_style(top.code))
            text.append("!")
        elif reveal:
            text.append(f"{top.code.lower():<3}", style="dim")
            text.append(" ")
        else:
            text.append("##  ", style="dim")
    text.append(right, style="bold reverse" if here else "")
    return text


def draw_board(state: TrollState, reveal: bool = False) -> Text:
    """The bridge as a player sees it; shared by the game screen and the replay viewer."""
    text = Text()
    text.append("      " + "".join(f"{c:^{CELL}}" for c in COLUMNS) + "\n")
    for row, label in (("upper", "LEFT  U "), ("lower", "BANK  L ")):
        text.append(label)
        for col in COLUMNS:
            text.append_text(cell(state, (row, col), reveal))
        text.append(" RIGHT\n" if row == "upper" else " BANK\n")
    text.append("      " + "~" * (CELL * 6 + 2) + " river\n")
    for name, stack in (("upper", state.upper_flight), ("lower", state.lower_flight)):
        top = stack.cards[-1] if stack.cards else "-"
        text.append(f"{name} flies {stack.colour or '?':<5} ({len(stack.cards):>2}, top ")
        text.append(f"{top}", style=card_style(top) if stack.cards else "")
        text.append(")  ")
    text.append("\n")
    carried = " ".join(f"{c.code}{'' if c.awake else ' (dormant)'}" for c in state.carried) or "nothing"
    troll_at = troll.place(state.troll) if state.troll else "not yet placed"
    text.append(f"troll at {troll_at}, carries {carried}" + (" (THE CLUB)" if state.club_held else "") + "\n")
    aside = " ".join(state.set_aside) or "none"
    text.append(f"deck {len(state.deck)}   set aside {aside}")
    if any(card.awake for row in (state.upper, state.lower) for stack in row for card in stack[:-1]):
        text.append("   n*: an awake card is buried there", style="bold")
    if reveal:
        text.append("\n" + "\n".join(reveal_lines(state)), style="dim")
    return text


def packed(groups: list[str], width: int, indent: str = "", sep: str = "  ") -> list[str]:
    """Groups of words side by side, `sep` apart, in lines of at most `width` columns; a group is
    never split unless it is wider than a line by itself."""
    lines: list[str] = []
    current = ""
    for group in groups:
        if current and len(current) + len(sep) + len(group) <= width:
            current += sep + group
            continue
        if current:
            lines.append(current)
        current = (indent if lines or current else "") + group
        while len(current) > width:
            lines.append(current[:width])
            current = indent + current[width:]
    if current:
        lines.append(current)
    return lines


def reveal_lines(state: TrollState, width: int = WIDTH) -> list[str]:
    """The hidden cards: every stack from its bottom card to its top (! after an awake card) and the
    whole deck of awakening from its top card, packed into lines of `width` columns."""
    def named(card) -> str:
        return card.code + ("!" if card.awake else "")

    lines = ["REVEALED stacks, bottom card first (! awake):"]
    for row in troll.ROWS:  # each row starts a line of its own
        stacks = []
        for col in COLUMNS:
            cards = state.stack((row, col))
            stacks.append(f"{row[0].upper()}{col}: " + (" ".join(named(c) for c in cards) if cards else "."))
        lines += packed(stacks, width)
    if state.deck:
        lines += packed([f"deck order, top first ({len(state.deck)}):"] + list(state.deck), width, "  ", " ")
    else:
        lines.append("deck order: the deck is empty")
    return lines
