"""War of Bones: the setup (who plays: a person against the bot, two people, or two bots to watch;
no pre-measuring) and the battlefield (the area to scale, the troops at their places, the chosen
troop's range, an attack builder, the defender's assignment, reroll offers, and every roll into
the area stepped through at a readable pace). Bots think in a worker thread."""
from __future__ import annotations

import math
import re
import textwrap

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Footer

from engine import JournalError
from engine.core import Player
from engine.games import bones
from engine.games.bones import (DIE, FULL, SIDES, Assign, Attack, BonesState, Choose, Converge, Keep, Reengage,
                                Reinforce, Reroll, Resupply, RollIn, TroopLanded, area_bounds, troop_name)
from engine.text import clean_text
from engine.words import counted
from tui.screens.base import GameScreen, SetupScreen, SteppedBatches
from tui.screens.dialogs import AskScreen
from tui.widgets import Plain, StatusLine

STYLE = ("bold cyan", "bold yellow")  # side A, side B: a (lower case) and B (upper case) say it without colour
LETTER = ("a", "B")
WIDE = (36, 18)  # the game screen's map: 0.25 inch a column, 0.5 inch a row
NARROW = (24, 12)  # the replay viewer's: 0.375 inch a column, 0.75 inch a row
STAGE_WORDS = {
    "landing": "troops rolling into the area", "rolloff": "the roll-off", "choose": "Reengage or First Strike",
    "reengage": "Reengage: troops to roll back in", "action": "an action", "attack_roll": "attack dice",
    "attack_reroll": "reroll an attack die?", "defence_roll": "defence dice",
    "defence_reroll": "reroll a defence die?", "assign": "assign the defence dice",
    "reinforce_roll": "the reinforce roll", "reinforce_reroll": "reroll the reinforce die?",
    "reinforce_choice": "which troops roll in", "reroll": "a die rerolled", "over": "game over",
}


def inches(hundredths: float) -> str:
    return f'{hundredths / 100:.2f}"'


# ----- the map -----
def draw_area(state: BonesState, cols: int, rows: int, *, names: bool = False, marks: dict | None = None,
              range_of: tuple[int, int] | None = None) -> Text:
    """The area to scale: `cols` x `rows` cells for the 9 inches, in a frame drawn at the area's
    current edge. A troop is its side's letter (a for A, B for B) and its face: a5, B5; with
    `names`, its number as the words name it: a#5, B#5 (three characters, so a number is never
    read as a face). `marks` maps (seat, troop) to (left, right, style): characters drawn beside
    the troop where there is room. `range_of` (seat, troop): the cells within that
    troop's range are dotted."""
    marks = marks or {}
    sx, sy = FULL / cols, FULL / rows
    low, high = area_bounds(state)
    left, right = int(low / sx), min(cols - 1, math.ceil(high / sx) - 1)
    top, bottom = int(low / sy), min(rows - 1, math.ceil(high / sy) - 1)
    chars = [[" "] * (cols + 2) for _ in range(rows + 2)]  # the grid with a one-cell border
    styles = [[""] * (cols + 2) for _ in range(rows + 2)]
    glyph = [[False] * (cols + 2) for _ in range(rows + 2)]
    for c in range(left, right + 3):
        chars[top][c] = chars[bottom + 2][c] = "-"
    for r in range(top, bottom + 3):
        chars[r][left] = chars[r][right + 2] = "|"
    for r in (top, bottom + 2):
        for c in (left, right + 2):
            chars[r][c] = "+"
    for r in range(rows + 2):
        for c in range(cols + 2):
            if chars[r][c] != " ":
                styles[r][c] = "dim"
    if range_of is not None:
        seat, number = range_of
        troop = state.troops[seat][number]
        if troop is not None:
            reach = (troop.face + 1) * DIE
            for r in range(top, bottom + 1):
                for c in range(left, right + 1):
                    if math.hypot((c + 0.5) * sx - troop.x, (r + 0.5) * sy - troop.y) <= reach:
                        chars[r + 1][c + 1] = "."
                        styles[r + 1][c + 1] = "dim"
    placed: dict[tuple[int, int], tuple[int, int]] = {}
    for seat in (0, 1):
        for number, troop in enumerate(state.troops[seat]):
            if troop is None:
                continue
            label = LETTER[seat] + (f"#{number + 1}" if names else str(troop.face))
            row = min(max(int(troop.y / sy), top), bottom)
            start = min(max(round(troop.x / sx) - 1, left), right + 1 - len(label))
            spot = _free_spot(glyph, row + 1, start + 1, left + 1, right + 1 - len(label), top + 1, bottom + 1, len(label))
            r, c = spot
            for offset, ch in enumerate(label):
                chars[r][c + offset] = ch
                styles[r][c + offset] = STYLE[seat]
                glyph[r][c + offset] = True
            placed[(seat, number)] = (r, c, len(label))
    for key, (before, after, style) in marks.items():
        if key not in placed:
            continue
        r, c, width = placed[key]
        for offset in range(width):
            styles[r][c + offset] = f"{styles[r][c + offset]} {style}".strip()
        for ch, col in ((before, c - 1), (after, c + width)):
            if ch and 0 <= col < cols + 2 and not glyph[r][col] and chars[r][col] in " .":
                chars[r][col] = ch
                styles[r][col] = "bold"
    text = Text()
    for r in range(rows + 2):
        for c in range(cols + 2):
            text.append(chars[r][c], style=styles[r][c])
        if r < rows + 1:
            text.append("\n")
    return text


def _free_spot(glyph, row: int, col: int, first_col: int, last_col: int, first_row: int, last_row: int,
               width: int = 2) -> tuple[int, int]:
    """`width` free cells for a troop nearest (row, col), starting at most at `last_col`: dice closer
    than a cell apart push each other aside."""
    for apart in (True, False):  # a blank between two troops if there is room, else side by side
        for dr in (0, 1, -1):
            for dc in (0, 1, -1, 2, -2, 3, -3):
                r, c = row + dr, col + dc
                if not (first_row <= r <= last_row and first_col <= c <= last_col) or any(glyph[r][c:c + width]):
                    continue
                if apart and (glyph[r][c - 1] or glyph[r][c + width]):
                    continue
                return r, c
    return row, col


def draw_board(state: BonesState, reveal: bool = False) -> Text:
    """The battlefield as it stood, for the replay viewer: 26 columns, 17 lines."""
    text = draw_area(state, *NARROW)
    counts = [len(state.in_play(s)) for s in (0, 1)]
    text.append(f"\nA(a): {counts[0]} in, supply {state.supply[0]}\n", style=STYLE[0])
    text.append(f"B(B): {counts[1]} in, supply {state.supply[1]}\n", style=STYLE[1])
    pending = f", {SIDES[state.converge_by]} converged" if state.converge_by is not None else ""
    text.append(f"area {state.side // 100} in{pending}"[:26])
    return text


def player_line(players, seat: int) -> str:
    player = players[seat]
    who = f"bot {player.style}" if player.bot else "human"
    return f"{SIDES[seat]} {player.name[:12]} ({who})"


# ----- the game screen -----
def nearest_troop(state: BonesState, here_key: tuple[int, int], troops: list, direction: str) -> tuple[int, int] | None:
    """The troop an arrow moves to from `here_key`: the nearest one ahead, preferring troops within
    45 degrees of the direction (sideways no more than ahead); only when there is none, the nearest
    of the rest further that way."""
    here = state.troops[here_key[0]][here_key[1]]
    best = {True: (None, None), False: (None, None)}  # within 45 degrees or not: (key, score)
    for key in troops:
        if key == here_key:
            continue
        other = state.troops[key[0]][key[1]]
        dx, dy = other.x - here.x, other.y - here.y
        along, across = {"right": (dx, dy), "left": (-dx, dy), "down": (dy, dx), "up": (-dy, dx)}[direction]
        if along <= 0:
            continue
        cone = abs(across) <= along
        value = along + 2 * abs(across)
        if best[cone][1] is None or value < best[cone][1]:
            best[cone] = (key, value)
    return best[True][0] if best[True][0] is not None else best[False][0]


class BonesScreen(SteppedBatches, GameScreen):
    BINDINGS = [
        Binding("tab", "cycle(1)", "Next troop", show=False),
        Binding("shift+tab", "cycle(-1)", "Previous troop", show=False),
        Binding("up", "arrow('up')", "Up", show=False),
        Binding("down", "arrow('down')", "Down", show=False),
        Binding("left", "arrow('left')", "Left", show=False),
        Binding("right", "arrow('right')", "Right", show=False),
        Binding("a", "attack", "Attack"),
        Binding("r", "ask('reinforce')", "Reinforce"),
        Binding("s", "ask('resupply')", "Resupply"),
        Binding("c", "ask('converge')", "Converge"),
        Binding("enter,y", "confirm", "Confirm", show=False),
        Binding("n", "keep", "No / keep", show=False),
        Binding("space", "space", "Pick / hurry bots", show=False),
        Binding("l", "labels", "Faces/numbers", show=False),
        Binding("escape", "cancel", "Cancel / back", show=False),
    ]
    HELP_NOTES = (
        "Faces and numbers: on the map a troop is its side and its face: a5 is one of A's troops "
        "showing 5, B5 one of B's showing 5. In words (the log, the lists, this panel) a troop is "
        "named by its side and its number, which never changes: B#5 is B's troop number 5, and "
        "B#5 (3) that troop showing 3. l switches the map to numbers (a#5, B#5) and back.\n\n"
        "The map: the area to scale, 1/4 inch a column and 1/2 inch a row, in a frame at its current "
        "edge (it shrinks after a completed converge). [ ] marks the chosen troop, dots its range, * an "
        "enemy in range; in the attack builder > < is the target being set and ( ) the other targets; in "
        "Reengage + marks a picked troop; > < also marks a troop that has just landed.\n\n"
        "Your turn: Tab / Shift+Tab or the arrows choose a troop (an arrow picks the nearest troop that "
        "way). a opens the attack builder: Up/Down change the target of the line, Left/Right its "
        "strength, Tab adds a line with the strength left over (or goes to the next line), Enter "
        "attacks, Escape cancels. r reinforces, s resupplies with the chosen troop, c converges: each "
        "says what happens; Enter or y does it, Escape or n cancels.\n\n"
        "Offers (Reengage or First Strike, rerolls, which troops roll in): Up/Down choose, Enter or y "
        "takes it, n keeps the dice. Reengage: Tab or the arrows go through all troops, Space picks, "
        "Enter rolls the picked troops back in. Assigning defence dice: Up/Down a line, Left/Right the "
        "die set against it, Enter assigns.\n\n"
        "Rolls into the area and dice are shown one step at a time; any key shows the rest. Bots play "
        "at a readable pace; Space lets them play at once. u takes back your last decision and every "
        "bot move after it.")

    STEP_SECONDS = 0.45  # between the steps of a batch of events (0: show a batch at once)
    SETUP_SECONDS = 0.3  # between the troops rolled into the area when a game starts
    BOT_PACE = 0.6  # before a bot answers, so people can follow

    def __init__(self, session) -> None:
        super().__init__(session)
        self.selected: tuple[int, int] | None = None
        self.names = False
        self.mode = ""  # "", "builder", "confirm"
        self.pending = None  # the command a confirmation line would play
        self.pending_words = ""
        self.lines: list[list[int]] = []  # the attack builder: [target, strength] per attack
        self.line = 0
        self.menu = 0  # the highlighted offer
        self.picks: set[tuple[int, int]] = set()  # Reengage picks
        self.assign: list[int] = []  # the defence die per attack
        self.row = 0
        self.ui_state = None  # the state the choices above were made for
        self.bot_timer: Timer | None = None
        self.thinking = 0  # the current bot ticket: an answer for an older one is dropped
        self.hurry = False
        self.asking = False  # a bot's worker is thinking
        self.gone = False  # unmounted: nothing more is played or drawn

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Horizontal(id="bones-body"):
            yield Plain("", id="bones-map")
            with Vertical(id="bones-side"):
                yield Plain("", id="bones-info")
                yield Plain("", id="bones-log")
        yield StatusLine("Tab/arrows: troop  a attack  r reinforce  s resupply  c converge  ?: all keys")
        yield Footer()

    def on_mount(self) -> None:
        self.sync_ui()
        if not self.session.marks and self.session.events and self.STEP_SECONDS > 0:
            self.shown = 1  # a new game: the troops roll into the area one by one
            self.stepper = self.set_interval(self.SETUP_SECONDS, self.step)
            self.say_step()
            self.redraw()
        self.schedule_bot()

    def on_key(self, event: events.Key) -> None:
        """While a batch is stepped through, any key shows the rest at once (Space also hurries the
        bots); it does nothing else, so no one acts on a battlefield they have not seen."""
        if self.stepper is not None and event.key == "space":
            self.hurry = True
        if self.key_while_stepping(event):
            return
        super().on_key(event)

    # ----- reading -----
    def view_state(self) -> BonesState:
        return self.session.state_at(self.shown) if self.shown is not None else self.session.state

    def bot_to_act(self) -> bool:
        seat = self.session.to_act
        return seat is not None and self.session.players[seat].bot

    def human(self) -> int | None:
        """The human seat to decide now (None: a bot, dice, stepping or the end)."""
        seat = self.session.to_act
        if seat is None or self.session.players[seat].bot or self.stepper is not None:
            return None
        return seat

    def sync_ui(self) -> None:
        """New position: reset the choices made for the old one; keep a chosen troop that is still there."""
        state = self.session.state
        if self.ui_state is state:
            return
        self.ui_state = state
        self.mode, self.pending, self.lines, self.line, self.menu, self.row = "", None, [], 0, 0, 0
        self.picks = set()
        self.assign = list(range(len(state.attack.defence))) if state.stage == "assign" and state.attack else []
        seat = self.session.to_act
        if seat is None:
            return
        if self.selected is None or self.selected[0] != seat or state.troops[seat][self.selected[1]] is None:
            mine = state.in_play(seat)
            self.selected = (seat, mine[0]) if mine else None

    def troop_words(self, state: BonesState, seat: int, number: int) -> str:
        troop = state.troops[seat][number]
        return f"{troop_name(seat, number)} ({troop.face})" if troop else troop_name(seat, number)

    # ----- drawing -----
    def marks(self, state: BonesState) -> tuple[dict, tuple[int, int] | None]:
        marks: dict = {}
        range_of = None
        if self.shown is not None:  # a troop that has just landed stands out for a moment
            event = self.session.events[self.shown - 1]
            if isinstance(event, TroopLanded):
                marks[(event.seat, event.troop)] = (">", "<", "reverse")
                return marks, None
        if state.stage == "reengage" and self.human() is not None and self.shown is None:
            for key in self.picks:
                marks[key] = ("", "+", "underline")
            if self.selected is not None:
                marks[self.selected] = ("[", "]", "reverse")
            return marks, None
        if state.attack is not None and state.attack.groups and state.stage not in ("action", "over"):
            seat = state.player
            marks[(seat, state.attack.troop)] = ("[", "]", "reverse")
            marks[(1 - seat, state.attack.target)] = (">", "<", "reverse")
            return marks, None
        if state.stage in ("reinforce_reroll", "reinforce_choice") and state.reinforce_troop is not None:
            marks[(state.player, state.reinforce_troop)] = ("[", "]", "reverse")
            return marks, None
        if state.stage != "action" or self.human() is None or self.shown is not None:
            return marks, None
        if self.selected is not None and state.troops[self.selected[0]][self.selected[1]] is not None:
            seat, number = self.selected
            if not state.no_premeasure:
                range_of = self.selected
                for target in bones.targets_of(state, seat, number):
                    marks[(1 - seat, target)] = ("", "*", "underline")
            if self.mode == "builder":
                for index, (target, _) in enumerate(self.lines):
                    if index != self.line:
                        marks[(1 - seat, target)] = ("(", ")", "underline")
                if self.lines:
                    marks[(1 - seat, self.lines[self.line][0])] = (">", "<", "reverse")
            marks[self.selected] = ("[", "]", "reverse")
        return marks, range_of

    def redraw(self) -> None:
        if self.gone:
            return
        if self.shown is None:
            self.sync_ui()
        session = self.session
        state = self.view_state()
        name = getattr(session, "save_name", "")
        outcome = bones.outcome(state)
        head = outcome.summary if outcome else (f"turn {state.turn}" if state.turn else "setup")
        title = f"War of Bones: {name[:26]}  {head}  (undos {session.undos})"
        self.query_one("#title", Plain).show(Text(title[:78], style="bold"))
        marks, range_of = self.marks(state)
        self.query_one("#bones-map", Plain).show(draw_area(state, *WIDE, names=self.names, marks=marks, range_of=range_of))
        info = self.info(state)
        info.rstrip()
        self.query_one("#bones-info", Plain).show(info)
        self.query_one("#bones-log", Plain).show(self.log_text(info))
        self.refresh_bindings()

    def side_width(self) -> int:
        return max(24, self.query_one("#bones-info", Plain).size.width or 38)

    def info(self, state: BonesState) -> Text:
        session = self.session
        width = self.side_width()
        text = Text()
        acting = bones.to_act(state) if self.shown is None else None
        for seat in (0, 1):
            marker = ">" if acting == seat else " "
            count = len(state.in_play(seat))
            text.append(f"{marker}{player_line(session.players, seat)}"[:width] + "\n", style=STYLE[seat])
            text.append(f"  {count} in, {8 - count} out, supply {state.supply[seat]}\n")
        pending = ("no converge pending" if state.converge_by is None
                   else f"{SIDES[state.converge_by]} converged: {SIDES[1 - state.converge_by]} may answer")
        text.append(f"Area {state.side // 100} in; {pending}"[:width] + "\n")
        text.append(self.rolls_line(state)[:width] + "\n")
        if self.shown is None and session.outcome is not None:
            text.append("\n" + "\n".join(textwrap.wrap(f"{session.outcome.summary}. v reviews, q goes back", width)) + "\n",
                        style="bold reverse")
            return text
        for line in self.prompt(state):
            style = "bold" if line.startswith(">") or line.startswith("*") else ""
            for piece in textwrap.wrap(line, width, subsequent_indent="  ") or [""]:
                text.append(piece + "\n", style=style)
        return text

    def rolls_line(self, state: BonesState) -> str:
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
            seat, target, pairs = state.last
            return f"Last: {troop_name(seat, target)} " + ", ".join(f"{p.roll + p.strength}v{p.defence + p.firepower} {p.effect}" for p in pairs)
        if state.rolloffs:
            a, b = state.rolloffs[-1]
            return f"Roll-off: A {a}, B {b}"
        return "No rolls yet"

    def prompt(self, state: BonesState) -> list[str]:
        """What the one to act decides now, with the keys; the chosen troop's range."""
        session = self.session
        if self.shown is not None:
            return ["", "Rolling... any key shows the rest"]
        seat = session.to_act
        if seat is None:
            need = session.chance_needed
            return ["", f"Waiting for dice: {need.prompt}" if need else ""]
        player = session.players[seat]
        if player.bot:
            return ["", f"{player.name} ({SIDES[seat]}, bot) is thinking: {STAGE_WORDS[state.stage]}",
                    "Space: bots play at once"]
        lines = ["", f"* {player.name} ({SIDES[seat]}): {STAGE_WORDS[state.stage]}"]
        stage = state.stage
        if stage == "reengage":
            own = sorted(t for s, t in self.picks if s == seat)
            theirs = sorted(t for s, t in self.picks if s != seat)
            lines.append("Tab/arrows: troop  Space: pick  Enter: roll the picks in")
            lines.append("Picked: " + (", ".join([troop_name(seat, t) for t in own] + [troop_name(1 - seat, t) for t in theirs]) or "none")
                         + f" (theirs at most as many as yours: {len(theirs)}/{len(own)})")
            if self.selected:
                lines.append(f"On {self.troop_words(state, *self.selected)}")
            return lines
        if stage in ("choose", "attack_reroll", "defence_reroll", "reinforce_reroll", "reinforce_choice"):
            lines += self.offer_context(state)
            for index, (label, _) in enumerate(self.offers(state)):
                lines.append(("> " if index == self.menu else "  ") + label)
            lines.append("Up/Down  Enter/y: take  n: keep" if stage.endswith("reroll") else "Up/Down  Enter: take")
            return lines
        if stage == "assign":
            return lines + self.assign_lines(state)
        # an action
        if self.selected is None:
            return lines + ["c converges (no troop to act with)"]
        mine, number = self.selected
        troop = state.troops[mine][number]
        where = "" if state.no_premeasure else f", at ({inches(troop.x)}, {inches(troop.y)})"
        lines.append(f"Chosen: {troop_name(mine, number)}, face {troop.face}{where}")
        if not state.no_premeasure:
            targets = bones.targets_of(state, mine, number)
            lines.append("In range: " + (" ".join(self.troop_words(state, 1 - mine, t) for t in targets) or "none"))
        if self.mode == "builder":
            lines += self.builder_lines(state)
        elif self.mode == "confirm":
            lines += [f"> {self.pending_words}", "Enter/y: do it  Escape/n: cancel"]
        else:
            lines.append("a attack  r reinforce  s resupply  c converge")
        return lines

    def offer_context(self, state: BonesState) -> list[str]:
        stage = state.stage
        attack = state.attack
        if stage == "choose":
            a, b = state.rolloffs[-1]
            return [f"You won the roll-off ({a} v {b})"]
        if stage == "attack_reroll":
            target = state.troops[1 - state.player][attack.target]
            values = ", ".join(f"{r}+{s}" for r, s in zip(attack.rolls, attack.strengths))
            return [f"Attack on {troop_name(1 - state.player, attack.target)} (firepower {target.face}): {values}",
                    f"Supply {state.supply[state.player]}; a reroll costs 1"]
        if stage == "defence_reroll":
            target = state.troops[1 - state.player][attack.target]
            values = ", ".join(f"{r}+{s}" for r, s in zip(attack.rolls, attack.strengths))
            return [f"{troop_name(1 - state.player, attack.target)} ({target.face}) defends against {values}",
                    f"Defence dice {' '.join(map(str, attack.defence))}; supply {state.supply[1 - state.player]}"]
        if stage == "reinforce_reroll":
            troop = state.troops[state.player][state.reinforce_troop]
            return [f"Reinforce roll {state.reinforce_face} for {troop_name(state.player, state.reinforce_troop)} "
                    f"(face {troop.face}); supply {state.supply[state.player]}"]
        troop = state.troops[state.player][state.reinforce_troop]
        return [f"Reinforce roll {state.reinforce_face}, {troop_name(state.player, state.reinforce_troop)} shows {troop.face}"]

    def offers(self, state: BonesState) -> list[tuple[str, object]]:
        stage = state.stage
        if stage == "choose":
            return [("Reengage (the other strikes first)", Choose("reengage")),
                    ("First Strike (the other reengages)", Choose("first strike"))]
        if stage.endswith("_reroll"):
            dice = bones.current_dice(state, stage.split("_")[0])
            return [("Keep the dice", Keep())] + [(f"Reroll die {i + 1} (shows {f})", Reroll(i)) for i, f in enumerate(dice)]
        if stage == "reinforce_choice":
            troop = troop_name(state.player, state.reinforce_troop)
            spare = next((t for t, x in enumerate(state.troops[state.player]) if x is None), None)
            extra = troop_name(state.player, spare) if spare is not None else ""
            words = {(True, True): f"{troop} rolls back in and {extra} joins", (True, False): f"{troop} rolls back in",
                     (False, True): f"{extra} joins ({troop} stays)", (False, False): "No troop rolls in"}
            return [(words[(c.troop, c.extra)], c) for c in self.session.commands()]
        return []

    def assign_lines(self, state: BonesState) -> list[str]:
        attack = state.attack
        seat = 1 - state.player
        troop = state.troops[seat][attack.target]
        lines = [f"{troop_name(seat, attack.target)} (firepower {troop.face}): set a defence die against each attack"]
        for index, (strength, roll) in enumerate(zip(attack.strengths, attack.rolls)):
            die = attack.defence[self.assign[index]]
            effect = bones.judge(strength, roll, die, troop.face).effect
            marker = ">" if index == self.row else " "
            lines.append(f"{marker} attack {roll}+{strength}={roll + strength} v die {self.assign[index] + 1} "
                         f"({die}+{troop.face}={die + troop.face}): {effect}")
        lines.append("Up/Down: attack  Left/Right: die  Enter: assign")
        return lines

    def builder_lines(self, state: BonesState) -> list[str]:
        mine, number = self.selected
        face = state.troops[mine][number].face
        left = face - sum(s for _, s in self.lines)
        lines = [f"Attack with {troop_name(mine, number)} ({face}): {left} left to place"]
        for index, (target, strength) in enumerate(self.lines):
            marker = ">" if index == self.line else " "
            lines.append(f"{marker} {strength} at {self.troop_words(state, 1 - mine, target)}")
        lines.append("Up/Down target  Left/Right strength")
        lines.append("Tab next/add  Enter attack  Esc cancel")
        return lines

    def log_text(self, info: Text) -> Text:
        session = self.session
        width = self.side_width()
        count = self.shown if self.shown is not None else len(session.events)
        side = self.query_one("#bones-side", Vertical).size.height or 21
        room = max(1, side - len(info.plain.splitlines()) - 1)
        lines: list[str] = []
        index = count - 1
        while index >= 0 and len(lines) < room:
            words = self.words(index)
            if isinstance(session.events[index], bones.LandingMissed):
                first = index
                while first > 0 and isinstance(session.events[first - 1], bones.LandingMissed):
                    first -= 1
                if index > first:
                    words = f"{troop_name(session.events[index].seat, session.events[index].troop)} lands on " \
                            f"another die (... rolled again {counted(index - first + 1, 'time')})"
                index = first
            pieces = textwrap.wrap(words, width, subsequent_indent="  ")
            if lines and len(lines) + len(pieces) > room:
                break  # whole events only (the newest is cut at the bottom if it alone is too long)
            lines[:0] = pieces
            index -= 1
        return Text("Log:\n", style="bold") + Text("\n".join(lines[-room:]), style="dim")

    # ----- playing -----
    def play(self, command) -> bool:
        before = len(self.session.events)
        seat = self.session.to_act
        if not self.attempt(lambda: self.session.play(command)):
            self.redraw()
            return False
        self.after_change(before, seat)
        return True

    def after_change(self, before: int, seat: int | None) -> None:
        """Show what the last play caused: one event at a time at a readable pace, then the bot."""
        total = len(self.session.events)
        self.mode = ""
        if total - before > 1 and self.STEP_SECONDS > 0 and not self.hurry:
            self.start_steps(before + 1)
        else:
            self.say_batch(before)
        self.redraw()
        if self.stepper is None:
            self.schedule_bot()

    def steps_done(self) -> None:
        self.say_batch(self.batch_start())
        self.redraw()
        self.schedule_bot()

    def batch_start(self) -> int:
        starts = self.session.turn_starts()
        return starts[-1] if starts else 0

    def words(self, index: int) -> str:
        """Event `index` in the on-screen words: with no_premeasure, landings without their
        coordinates (the replay keeps them), so the screen cannot be used to measure."""
        text = self.session.describe(index, reveal=False)
        if self.session.state.no_premeasure and isinstance(self.session.events[index], (TroopLanded, bones.LandingMissed)):
            text = re.sub(r" at \([^)]*\)", "", text).replace(" lands showing", " lands in the area showing")
        return text

    def next_shown(self) -> None:
        """Steps are not paused on missed landings: straight on to the next event that is not one."""
        events = self.session.events
        while self.shown < len(events) and isinstance(events[self.shown - 1], bones.LandingMissed):
            self.shown += 1

    def say_step(self) -> None:
        text = self.words(self.shown - 1)
        self.status(self.clip(f"{text} (a key shows the rest)"))

    def say_batch(self, before: int) -> None:
        total = len(self.session.events)
        if total == 0 or before >= total:
            return
        events = self.session.events
        landed = sum(1 for i in range(before, total) if isinstance(events[i], TroopLanded))
        words = [self.words(i) for i in range(before, total)
                 if not isinstance(events[i], (bones.LandingMissed, TroopLanded)) or landed == 1]
        if landed > 1:
            words.insert(1 if words and before in self.session.turn_starts() else 0,
                         f"{counted(landed, 'troop')} rolled into the area (the log says where)")
        self.status(self.clip("; ".join(words)))

    @staticmethod
    def clip(text: str, width: int = 78) -> str:
        return text if len(text) <= width else text[: width - 3] + "..."

    # ----- keys -----
    def refuse(self, message: str) -> None:
        self.status(message, error=True)

    def why_not_now(self) -> str:
        session = self.session
        if session.outcome is not None:
            return f"the game is over: {session.outcome.summary}"
        if self.bot_to_act():
            return f"{session.players[session.to_act].name} (a bot) is deciding; Space lets it play at once"
        if session.to_act is None:
            return "the dice are still rolling"
        return ""

    ACTIONS = ("attack", "ask", "cycle")

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("attack", "ask"):
            if self.human() is None or self.session.state.stage != "action":
                return None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        reason = self.why_not_now()
        if reason:
            return reason
        if self.stepper is not None:
            return "the dice are still rolling"
        stage = self.session.state.stage
        what = parameters[0] if parameters else action
        return f"{what} is for your turn's action; now: {STAGE_WORDS.get(stage, stage)}"

    def own_troops(self, state: BonesState, seat: int) -> list[tuple[int, int]]:
        if state.stage == "reengage":
            return [(s, t) for s in (seat, 1 - seat) for t in state.in_play(s)]
        return [(seat, t) for t in state.in_play(seat)]

    def action_cycle(self, step: int) -> None:
        seat = self.human()
        state = self.session.state
        if self.mode == "builder" and step == 1:
            self.builder_tab()
            return
        if seat is None or state.stage not in ("action", "reengage"):
            self.refuse(self.why_not_now() or f"troops are chosen for an action or for Reengage; now: {STAGE_WORDS[state.stage]}")
            return
        if self.mode:
            self.refuse("finish or cancel (Escape) the attack or confirmation first")
            return
        troops = self.own_troops(state, seat)
        if not troops:
            self.refuse("you have no troop in the area")
            return
        index = troops.index(self.selected) if self.selected in troops else -step
        self.selected = troops[(index + step) % len(troops)]
        self.status(f"chose {self.troop_words(state, *self.selected)}")
        self.redraw()

    def action_arrow(self, direction: str) -> None:
        seat = self.human()
        state = self.session.state
        if seat is None:
            self.refuse(self.why_not_now() or "the dice are still rolling")
            return
        stage = state.stage
        vertical = direction in ("up", "down")
        sign = 1 if direction in ("down", "right") else -1
        if self.mode == "builder":
            self.builder_arrow(vertical, sign)
        elif stage in ("choose", "attack_reroll", "defence_reroll", "reinforce_reroll", "reinforce_choice"):
            if not vertical:
                self.refuse("Up/Down choose an offer")
                return
            self.menu = (self.menu + sign) % len(self.offers(state))
            self.redraw()
        elif stage == "assign":
            count = len(self.assign)
            if vertical:
                self.row = (self.row + sign) % count
            else:
                die = (self.assign[self.row] + sign) % count
                other = self.assign.index(die)
                self.assign[self.row], self.assign[other] = die, self.assign[self.row]
            self.redraw()
        elif self.mode:
            self.refuse("Enter or y does it, Escape or n cancels")
        else:
            self.nearest(state, seat, direction)

    def nearest(self, state: BonesState, seat: int, direction: str) -> None:
        troops = self.own_troops(state, seat)
        if self.selected not in troops:
            if troops:
                self.selected = troops[0]
                self.redraw()
            return
        best = nearest_troop(state, self.selected, troops, direction)
        if best is None:
            self.refuse(f"no troop further {direction} of {troop_name(*self.selected)}")
            return
        self.selected = best
        self.status(f"chose {self.troop_words(state, *best)}")
        self.redraw()

    # the attack builder
    def action_attack(self) -> None:
        state = self.session.state
        if self.selected is None:
            self.refuse("you have no troop to attack with")
            return
        seat, number = self.selected
        targets = bones.targets_of(state, seat, number)
        if not targets:
            self.refuse(f"no enemy troop is in range of {self.troop_words(state, seat, number)}: choose another troop")
            return
        troop = state.troops[seat][number]
        ordered = self.builder_targets()
        self.mode = "builder"
        self.lines = [[ordered[0], troop.face]]
        self.line = 0
        self.status(f"attack with {troop_name(seat, number)}: Up/Down target, Left/Right strength, Tab splits, Enter attacks")
        self.redraw()

    def builder_targets(self) -> list[int]:
        state = self.session.state
        seat, number = self.selected
        troop = state.troops[seat][number]
        targets = bones.targets_of(state, seat, number)
        if state.no_premeasure:
            return sorted(targets)  # by number: an order by distance would measure for the player
        return sorted(targets, key=lambda t: bones.distance(troop, state.troops[1 - seat][t]))

    def builder_arrow(self, vertical: bool, sign: int) -> None:
        state = self.session.state
        face = state.troops[self.selected[0]][self.selected[1]].face
        line = self.lines[self.line]
        if vertical:
            targets = self.builder_targets()
            line[0] = targets[(targets.index(line[0]) + sign) % len(targets)]
        elif sign > 0:
            if sum(s for _, s in self.lines) >= face:
                self.refuse(f"all {face} firepower is placed: take some from another line first (Left)")
                return
            line[1] += 1
        else:
            line[1] -= 1
            if line[1] == 0:
                if len(self.lines) == 1:
                    line[1] = 1
                    self.refuse("an attack needs at least one line of strength 1")
                    return
                del self.lines[self.line]
                self.line = min(self.line, len(self.lines) - 1)
        self.redraw()

    def builder_tab(self) -> None:
        state = self.session.state
        face = state.troops[self.selected[0]][self.selected[1]].face
        left = face - sum(s for _, s in self.lines)
        if left > 0 and self.line == len(self.lines) - 1:
            targets = self.builder_targets()
            current = self.lines[self.line][0]
            self.lines.append([targets[(targets.index(current) + 1) % len(targets)], left])
            self.status(f"a new line with the {left} firepower left over")
        self.line = (self.line + 1) % len(self.lines)
        self.redraw()

    def builder_command(self) -> Attack:
        return Attack(self.selected[1], tuple((t, s) for t, s in self.lines))

    # reinforce, resupply, converge: one key and a confirmation line
    def action_ask(self, what: str) -> None:
        state = self.session.state
        seat = self.session.to_act
        if self.mode == "builder":
            self.refuse("finish or cancel (Escape) the attack first")
            return
        if what == "converge":
            if state.converge_by == 1 - seat:
                words = ("Converge, answering the converge: " + (
                    f"the area shrinks to {(state.side - bones.SHRINK) // 100} in; troops outside roll back in"
                    if state.side > bones.SMALLEST else "the area is at its smallest, nothing happens"))
            else:
                words = f"Converge: nothing now; if {SIDES[1 - seat]} converges next, the area shrinks"
            command = Converge()
        else:
            if self.selected is None:
                self.refuse(f"you have no troop to {what} with")
                return
            number = self.selected[1]
            troop = state.troops[seat][number]
            name = troop_name(seat, number)
            if what == "reinforce":
                command = Reinforce(number)
                higher = f"above {troop.face} lets it roll back in" if troop.face < 6 else "a 6 never rolls a 6 back in"
                words = f"Reinforce {name} ({troop.face}): roll a die; {higher}; a 6 may bring back a troop"
            else:
                command = Resupply(number)
                gain = min(bones.MAX_SUPPLY, state.supply[seat] + troop.face)
                words = f"Resupply with {name}: it leaves play, supply {state.supply[seat]} -> {gain}"
                if len(state.in_play(seat)) == 1:
                    words += " (your last troop: you lose)"
        self.mode, self.pending, self.pending_words = "confirm", command, words
        self.status(f"{words}? Enter or y: yes, Escape or n: no")
        self.redraw()

    def action_confirm(self) -> None:
        seat = self.human()
        state = self.session.state
        if seat is None:
            self.refuse(self.why_not_now() or "the dice are still rolling")
            return
        stage = state.stage
        if self.mode == "builder":
            self.play(self.builder_command())
        elif self.mode == "confirm":
            self.play(self.pending)
        elif stage in ("choose", "attack_reroll", "defence_reroll", "reinforce_reroll", "reinforce_choice"):
            self.play(self.offers(state)[self.menu][1])
        elif stage == "assign":
            self.play(Assign(tuple(self.assign)))
        elif stage == "reengage":
            own = tuple(sorted(t for s, t in self.picks if s == seat))
            theirs = tuple(sorted(t for s, t in self.picks if s != seat))
            self.play(Reengage(own, theirs))
        else:
            self.refuse("nothing to confirm: press a, r, s or c first")

    def action_keep(self) -> None:
        state = self.session.state
        if self.mode:
            self.action_cancel()
        elif self.human() is not None and state.stage.endswith("_reroll"):
            self.play(Keep())
        else:
            self.refuse(self.why_not_now() or "n keeps dice after a roll, or cancels a confirmation")

    def action_space(self) -> None:
        state = self.session.state
        if self.human() is not None and state.stage == "reengage" and self.selected is not None:
            if self.selected in self.picks:
                self.picks.discard(self.selected)
                self.status(f"{troop_name(*self.selected)} unpicked")
            else:
                self.picks.add(self.selected)
                self.status(f"{troop_name(*self.selected)} picked to roll back in")
            self.redraw()
            return
        if self.bot_to_act():
            self.hurry = True
            self.status("the bots play at once")
            if self.bot_timer is not None:
                self.bot_timer.stop()
                self.bot_timer = None
            self.start_bot()  # unless it is already thinking
            return
        self.refuse(self.why_not_now() or "Space picks a troop in Reengage, or hurries the bots")

    def action_labels(self) -> None:
        self.names = not self.names
        self.status("the map shows troop numbers (B#5: B's troop number 5)" if self.names
                    else "the map shows faces (B5: a B troop showing 5)")
        self.redraw()

    def action_cancel(self) -> None:
        if self.mode:
            self.mode, self.pending, self.lines = "", None, []
            self.status("cancelled")
            self.redraw()
        else:
            self.action_back()

    def action_undo(self) -> None:
        self.stop_bot()
        super().action_undo()
        self.ui_state = None
        self.redraw()
        self.schedule_bot()

    def action_redo(self) -> None:
        self.stop_bot()
        super().action_redo()
        self.ui_state = None
        self.redraw()
        self.schedule_bot()

    # ----- bots -----
    def stop_bot(self) -> None:
        self.thinking += 1  # a bot thinking now answers a position that is going away
        self.hurry = False
        for timer in (self.bot_timer, self.stepper):
            if timer is not None:
                timer.stop()
        self.bot_timer = self.stepper = None
        self.shown = None

    def schedule_bot(self) -> None:
        if not self.bot_to_act() or self.bot_timer is not None or self.stepper is not None:
            if not self.bot_to_act():
                self.hurry = False
            return
        if self.hurry or self.BOT_PACE <= 0:
            self.start_bot()
        else:
            self.bot_timer = self.set_timer(self.BOT_PACE, self.start_bot)

    def start_bot(self) -> None:
        self.bot_timer = None
        if not self.bot_to_act() or self.gone or self.asking:
            return
        self.asking = True
        self.thinking += 1
        ticket = self.thinking
        state = self.session.state
        level = self.session.players[self.session.to_act].style or bones.LEVELS[0]
        seed, nonce = self.session.seed, len(self.session.events)
        self.redraw()

        def think() -> None:
            from engine.bots import bones as bot

            try:
                command = bot.choose(state, level, seed, nonce)
            except Exception as error:  # shown, never swallowed: the game waits for a key
                command = error
            self.app.call_from_thread(self.bot_answered, ticket, state, command)

        self.run_worker(think, thread=True, group="bones-bot", exit_on_error=False)

    def on_unmount(self) -> None:
        self.thinking += 1  # left while a bot thought: its answer must not touch the closed save
        self.gone = True
        for timer in (self.bot_timer, self.stepper):
            if timer is not None:
                timer.stop()
        super().on_unmount()

    def bot_answered(self, ticket: int, state: BonesState, command) -> None:
        self.asking = False
        if self.gone:
            return
        if isinstance(command, Exception):
            self.refuse(f"the bot failed: {command}; Space asks it again")
            return
        if ticket != self.thinking or self.session.state is not state or not self.bot_to_act():
            return  # undone, redone or left while it thought: that answer is for another position
        before = len(self.session.events)
        try:
            self.session.play(command)
        except JournalError as error:  # the save could not be written: the bot's move is not made
            self.hurry = False
            self.refuse(f"{error.reason}: the bot's move was not saved; make room, then press Space")
            return
        self.after_change(before, None)


# ----- the setup -----
MODES = ("bot", "two", "watch")


class BonesSetupScreen(SetupScreen):
    """Who plays: you against the bot (your side, its level), two people, or two bots to watch;
    and the no pre-measuring option."""

    HEADING = "War of Bones: who plays?"
    LIST_ID = "bones-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it (Enter on a name asks for "
                  "it). s starts the game. Troops are named A#1..A#8 and B#1..B#8; on the map each shows its "
                  "side and face (a5, B5: side A's lower case), l shows the numbers. With no "
                  "pre-measuring, ranges are not shown and an attack may aim at any enemy troop; one out "
                  "of range misses.")

    def __init__(self, seed: int | None = None, name: str = "", no_premeasure: bool = False) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        self.choices = {"mode": "bot", "you": "A", "level": "general", "level_b": "general",
                        "no_premeasure": bool(no_premeasure), "a_name": "", "b_name": ""}

    def help_title(self) -> str:
        return "War of Bones: setup"

    def rows(self) -> list[tuple[str, str]]:
        c = self.choices
        words = {"bot": "you against the bot", "two": "two people at this keyboard", "watch": "two bots (watch)"}
        rows = [("mode", f"Players:          {words[c['mode']]}")]
        if c["mode"] == "bot":
            rows.append(("you", f"You play:         side {c['you']}" + (" (listed first)" if c["you"] == "A" else "")))
            rows.append(("level", f"Bot level:        {c['level']}"))
        if c["mode"] == "watch":
            rows.append(("level", f"Side A's bot:     {c['level']}"))
            rows.append(("level_b", f"Side B's bot:     {c['level_b']}"))
        rows.append(("no_premeasure", "No pre-measuring: " + ("on (ranges hidden; out of range misses)" if c["no_premeasure"] else "off")))
        if c["mode"] != "watch":
            for side in ("A", "B"):
                if c["mode"] == "two" or c["you"] == side:
                    key = side.lower() + "_name"
                    rows.append((key, f"Side {side}'s name:    {c[key] or '(' + self.default_name(side) + ')'}"))
        rows.append(("start", "Start the game (s)"))
        return rows

    def default_name(self, side: str) -> str:
        return "You" if self.choices["mode"] == "bot" else f"Player {side}"

    def action_change(self, step: int = 1) -> None:
        key, c = self.current(), self.choices
        cycles = {"mode": MODES, "you": ("A", "B"), "level": bones.LEVELS, "level_b": bones.LEVELS,
                  "no_premeasure": (False, True)}
        if key in cycles:
            values = cycles[key]
            c[key] = values[(values.index(c[key]) + step) % len(values)]
            self.redraw()
        elif key.endswith("_name"):
            def named(text: str | None) -> None:
                if text is not None:
                    c[key] = clean_text(text)
                    self.redraw()

            self.app.push_screen(AskScreen(f"Side {key[0].upper()}'s name:", c[key]), named)
        elif key == "start":
            self.action_start()

    def players(self) -> list[Player]:
        c = self.choices
        if c["mode"] == "watch":
            # the level shows beside the name already ("(bot general)"): the names stay short
            return [Player(c["a_name"] or "Bot A", True, c["level"]), Player(c["b_name"] or "Bot B", True, c["level_b"])]
        names = [c["a_name"] or self.default_name("A"), c["b_name"] or self.default_name("B")]
        if c["mode"] == "two":
            return [Player(names[0]), Player(names[1])]
        you = SIDES.index(c["you"])
        seats = [Player(names[you]), Player("Bot", True, c["level"])]
        return seats if you == 0 else seats[::-1]

    def action_start(self) -> None:
        import saves

        players = self.players()
        name = self.save_name or f"{players[0].name} v {players[1].name}"
        try:
            session = saves.new_save("bones", name=name, seed=self.seed, players=players,
                                     options={"no_premeasure": self.choices["no_premeasure"]})
        except (saves.SaveError, ValueError, OSError) as error:
            self.status(str(error), error=True)
            return
        self.app.switch_screen(BonesScreen(session))
