"""The Angry Troll screen: the bridge over the river, the troll, the flight stacks, and every phase
shown as it happens (the last events in words under the bridge)."""
from __future__ import annotations

import textwrap
from datetime import datetime

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer

from engine.games import troll
from engine.games.troll import (COLUMNS, LayDown, Move, PickUp, Stomp, ThrowDiamond, TrollState, UseClub,
                                UseSpade, Wait)
from engine.text import clean_text
from tui.screens.base import GameScreen, SetupScreen, SteppedBatches
from tui.widgets import Plain, StatusLine, clip

ARROWS = {"up": "up", "down": "down", "left": "left", "right": "right"}
CELL = 8
WIDTH = 78  # the columns inside the screen's padding at 80x24


def wrapped(line: str, width: int) -> list[str]:
    """One line of words cut at word breaks into lines of at most `width` columns; the lines after
    the first are indented, so a reader sees where each event begins."""
    return textwrap.wrap(line, max(20, width), subsequent_indent="   ", break_on_hyphens=False) or [""]


def title_line(name: str, where: str, undos: int, width: int = WIDTH) -> str:
    """"Troll: NAME  WHERE  (undos N)" in at most `width` columns: the name gives way first (a name that
    only repeats the game's title is left out), then the rest is cut."""
    name = name.removeprefix(troll.TITLE).strip()
    tail = f"  {where}  (undos {undos})"
    room = width - len("Troll: ") - len(tail)
    if name and room >= 10:
        name = name if len(name) <= room else name[: room - 3] + "..."
        return f"Troll: {name}{tail}"
    text = f"Troll:{tail[1:]}"
    return text if len(text) <= width else text[: width - 3] + "..."


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


class TrollScreen(SteppedBatches, GameScreen):
    BINDINGS = [
        Binding("up", "arrow('up')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("down", "arrow('down')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("left", "arrow('left')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("right", "arrow('right')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("s", "stomp", "Stomp", tooltip="stomp the awake card under the troll"),
        Binding("p", "aim('pick up')", "Pick up", tooltip="pick up, then an arrow: which card"),
        Binding("e", "aim('use')", "Use", tooltip="use the carried card, then an arrow: on which card"),
        Binding("l", "aim('lay down')", "Lay down", tooltip="lay down the carried card, then an arrow: where"),
        Binding("w", "wait", "Wait", tooltip="wait: only when no action is possible"),  # rarely in the footer
        Binding("h", "hint", "Hint", tooltip="hint: this turn's best two actions, and why"),
    ]
    HELP_NOTES = ("On the bridge: ## dormant, a name with ! awake, >..< the troll, the number the "
                  "stack's height; a * after it: an awake card is buried in that stack (no win while "
                  "it is there). After an action the screen steps through what follows (the flight, "
                  "the checks, each awakening) one line at a time; any key shows the rest at once. "
                  "The log marks the last action's lines with >.")

    STEP_SECONDS = 0.7  # the pause between the steps of a batch (0: show a batch at once)

    def __init__(self, session) -> None:
        super().__init__(session)
        self.aiming: str | None = None
        self.hint: tuple[TrollState, str] | None = None  # the state a hint answers, and the hint in words

    def on_key(self, event: events.Key) -> None:
        """Runs before the key's binding. While a batch is being stepped through, any key shows the
        rest at once and does nothing else (the player acts on a board they have seen). A key other
        than an arrow or Escape ends aiming, so the next arrow moves the troll."""
        if self.key_while_stepping(event):
            return
        if self.aiming is not None and event.key not in ("up", "down", "left", "right", "escape"):
            self.aiming = None
        super().on_key(event)

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Vertical(id="troll-body"):
            yield Plain("", id="bridge")
            yield Plain("", id="troll-log")
        yield StatusLine("arrows move; s stomp, p pick up, e use, l lay down; h hint; ? all keys")
        yield Footer()

    def shown_count(self) -> int:
        return len(self.session.events) if self.shown is None else self.shown

    def batch_start(self) -> int:
        """Where the last action's events begin (with everything that followed it)."""
        starts = self.session.turn_starts()
        return starts[-1] if starts else 0

    def redraw(self) -> None:
        session = self.session
        count = self.shown_count()
        state: TrollState = session.state_at(count)  # while stepping: as far as the words go
        name = getattr(session, "save_name", "")
        outcome = troll.outcome(state)
        actions = f"{state.actions_left} action{'' if state.actions_left == 1 else 's'} left"  # short: the name needs room
        phase = {"actions": actions, "awakening": "awakening",
                 "checks": "flight done, checks"}.get(state.phase, state.phase)
        label = troll.game_label(session.options)
        where = troll.progress(state).upper() if outcome else f"{label}: turn {state.turn}, {phase}"
        self.query_one("#title", Plain).show(Text(title_line(name, where, session.undos), style="bold"))
        self.query_one("#bridge", Plain).show(draw_board(state))
        self.draw_log(count, state)
        self.refresh_bindings()  # the footer greys out the actions that are not legal now

    def draw_log(self, count: int, state: TrollState) -> None:
        """The newest events in words, as many as fit under the header; the last action's lines are
        marked with >. The header and long lines are wrapped and counted, so the newest line (the
        one that explains the end) is always shown."""
        session = self.session
        outcome = troll.outcome(state)
        log = self.query_one("#troll-log", Plain)
        width = log.size.width or WIDTH
        height = log.size.height or 8
        header = ("WHAT HAPPENED (> the last action and what followed; v reviews every step)" if not outcome
                  else f"GAME OVER: {troll.end_words(state)}, score {outcome.score}; v reviews it")
        head = wrapped(header, width)
        if self.hint is not None and self.hint[0] is state:  # shown whole, until the bridge changes
            head = wrapped(self.hint[1], width) + head
        room = max(1, height - len(head))
        batch = self.batch_start()
        lines: list[str] = []
        index = count - 1
        while index >= 0 and len(lines) < room:
            mark = "> " if index >= batch else "  "
            pieces = wrapped(session.describe(index, reveal=False), width - 2)
            lines[:0] = [mark + pieces[0]] + ["  " + piece for piece in pieces[1:]]
            index -= 1
        lines = lines[-room:]
        log.show(Text("\n".join(head) + "\n", style="bold") + Text("\n".join(lines)))

    def play(self, command) -> None:
        before = len(self.session.events)
        if self.attempt(lambda: self.session.play(command)):
            if len(self.session.events) - before > 1 and self.STEP_SECONDS > 0:
                self.start_steps(before + 1)  # the action first; the timer adds what follows, line by line
            else:
                self.say_batch()
        self.redraw()

    def steps_done(self) -> None:
        self.say_batch()
        self.redraw()

    def say_step(self) -> None:
        count = self.shown_count()
        first = self.batch_start()
        text = self.session.describe(count - 1, reveal=False)
        self.status(clip(f"step {count - first} of {len(self.session.events) - first} (a key shows all): {text}"))

    def say_batch(self) -> None:
        """The status after an action: the action alone, or how many steps followed it and the last."""
        first, total = self.batch_start(), len(self.session.events)
        if total == 0:
            return
        last = self.session.describe(total - 1, reveal=False)
        if total - first <= 1:
            self.status(clip(last))
        else:
            self.status(clip(f"{total - first} steps (the > lines above), the last: {last}"))

    def action_arrow(self, direction: str) -> None:
        if self.aiming is None:
            self.play(Move(direction))
            return
        aiming, self.aiming = self.aiming, None
        if aiming == "pick up":
            self.play(PickUp(direction))
        elif aiming == "lay down":
            self.play(LayDown(direction))
        else:
            self.play(self.use_command(direction))

    def use_command(self, direction: str):
        """The carried card decides what "use" does; the engine says why if it cannot."""
        legal = [c for c in self.session.commands() if isinstance(c, (UseClub, ThrowDiamond, UseSpade))]
        for command in legal:
            if command.direction == direction:
                return command
        carried = [c for c in self.session.state.carried if c.awake]
        suit = carried[0].suit if carried else ""
        return {"C": UseClub, "D": ThrowDiamond, "S": UseSpade}.get(suit, UseClub)(direction)

    KINDS = {"pick up": (PickUp,), "use": (UseClub, ThrowDiamond, UseSpade), "lay down": (LayDown,),
             "stomp": (Stomp,), "wait": (Wait,)}

    def offered(self, what: str) -> list:
        return [c for c in self.session.commands() if isinstance(c, self.KINDS[what])]

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The actions that are not legal now are left out of the footer (only legal ones are offered)."""
        what = {"aim": parameters[0] if parameters else "", "stomp": "stomp", "wait": "wait"}.get(action)
        if what in self.KINDS and not self.offered(what):
            return None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        what = parameters[0] if action == "aim" else action
        if self.session.outcome is not None:
            return f"the game is over: {self.session.outcome.summary}; v reviews it"
        if self.session.to_act is None:
            return "the troll is not to act now"
        if what == "wait":
            return "the troll can still act: wait is only for when no action is possible"
        if what == "stomp":
            top = self.session.state.top(self.session.state.troll)
            return "the card under the troll is dormant already" if top and not top.awake else "nothing to stomp"
        return f"nothing to {what} now: " + self.why_not(what)

    def action_aim(self, what: str) -> None:
        options = self.offered(what)
        self.aiming = what
        self.status(f"{what}: which way? " + ", ".join(c.direction for c in options) + " (an arrow; Esc cancels)")

    def why_not(self, what: str) -> str:
        state: TrollState = self.session.state
        if what == "pick up":
            if state.club_held:
                return "THE CLUB fills the troll's hands"
            if state.carried:
                return "the troll's hands are full"
            return "no awake non-heart card next to it"
        if what == "lay down":
            return "it carries no dormant card" if not any(not c.awake for c in state.carried) else "no place"
        if not any(c.awake for c in state.carried):
            return "it carries no awake card"
        return "no awake card it could hit"

    def action_back(self) -> None:
        if self.aiming:
            self.aiming = None
            self.status("cancelled")
            return
        super().action_back()

    def action_stomp(self) -> None:
        self.play(Stomp())

    def action_wait(self) -> None:
        self.play(Wait())

    def action_hint(self) -> None:
        from engine.bots import troll as troll_bot

        if self.session.to_act is None:
            self.status("no hint: the troll is not to act", error=True)
            return
        plan = troll_bot.best_turn(self.session.state)
        actions = " then ".join(str(c) for c in plan.commands)
        # the reason can be longer than a line: the whole hint goes above the log, wrapped
        self.hint = (self.session.state, f"HINT: {actions} ({plan.reason})")
        self.status(clip(f"hint: {actions} (why: under the bridge)"))
        self.redraw()


class TrollSetupScreen(SetupScreen):
    """A new troll game: difficulty, variant and deal (a fresh shuffle or the day's deal)."""

    HEADING = "Angry Troll versus Magic Bridge: a new game"
    LIST_ID = "troll-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it. standard is the game as "
                  "designed (rarely won); sturdy and tutorial have taller stacks. The day's deal is the "
                  "same for everyone on that date. s starts the game.")
    CHOICES = {"difficulty": ("standard", "sturdy", "tutorial"), "variant": ("none",) + troll.VARIANTS,
               "deal": ("a new shuffle", "today's deal")}

    def __init__(self, seed: int | None = None, name: str = "", **options) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        variant = next((v for v in troll.VARIANTS if options.get(v)), "none")
        self.values = {"difficulty": options.get("difficulty", "standard"), "variant": variant, "deal": "a new shuffle"}

    def help_title(self) -> str:
        return "Angry Troll: a new game"

    def rows(self) -> list[tuple[str, str]]:
        rows = [(key, f"{title + ':':<12}{self.values[key].replace('_', ' ')}")
                for key, title in (("difficulty", "Difficulty"), ("variant", "Variant"), ("deal", "Deal"))]
        return rows + [("start", "Start the game (s)")]

    def action_change(self, step: int = 1) -> None:
        key = self.current()
        if key == "start":
            self.action_start()
            return
        values = self.CHOICES[key]
        self.values[key] = values[(values.index(self.values[key]) + step) % len(values)]
        self.redraw()

    def options(self) -> dict:
        options = {"difficulty": self.values["difficulty"]}
        if self.values["variant"] != "none":
            options[self.values["variant"]] = True
        return options

    def action_start(self) -> None:
        import saves
        from tui.cli import daily_seed

        seed, name = self.seed, self.save_name
        if self.values["deal"] == "today's deal":
            today = datetime.now().date().isoformat()
            seed, name = daily_seed("troll", today), name or f"daily {today}"
        options = self.options()
        name = name or f"{troll.game_label(troll.check_options(options))} {datetime.now():%Y-%m-%d %H:%M}"
        try:
            session = saves.new_save("troll", name=name, seed=seed, options=options)
        except (saves.SaveError, ValueError, OSError) as error:
            self.status(str(error), error=True)
            return
        self.app.switch_screen(TrollScreen(session))
