"""The Dice Tower screen: the countdown large, the gauge, the exact odds, and the log of every pull."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical


from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import BlockPulled, DiceRolled, PullBlock, TowerState
from dicehall.engine.words import counted
from dicehall.tui.screens.base import GameScreen, with_deal
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.widgets import big_number, KeysFooter, Plain, StatusLine, title_line


BOARD_TEXT_WIDTH = 26  # the board column (tui/dicehall.tcss .board: 29) less its padding and border


def percent(chance: float) -> str:
    """A standing tower's chance of falling as a percentage. It is never zero (a long enough chain
    of double threes topples any tower), so a tiny or underflowed figure shows as <0.01%."""
    if chance < 0.00005:
        return "<0.01%"
    return f"{chance * 100:.2f}%"


def gauge_rows(state: TowerState) -> list[str]:
    """The seed's analog gauge: ten rows from 100% down, a tick for every point lost."""
    lost = state.start - state.countdown
    per_row = state.start / 10
    rows = []
    for row in range(10):
        in_row = min(max(lost - row * per_row, 0), per_row)
        ticks = round(in_row / per_row * 10)
        rows.append(f"{100 - row * 10:>4}% " + "|" * ticks + "." * (10 - ticks))
    return rows


def draw_board(state: TowerState, reveal: bool = True) -> Text:
    """The tower as a player sees it: shared by the game screen and the replay viewer."""
    text = Text()
    if state.fell:
        text.append("THE TOWER HAS FALLEN\n", style="bold reverse")
        text.append(f"on pull {state.pulls}\n\n")
    else:
        text.append("COUNTDOWN\n", style="bold")
        big = big_number(state.countdown)
        of = f"   of {state.start}"
        beside = len(big[1]) + 1 + len(of) <= BOARD_TEXT_WIDTH  # "of N" beside the digits, or below them
        for row, line in enumerate(big):
            text.append(f" {line}", style="bold")
            text.append(f"{of}\n" if row == 1 and beside else "\n")
        text.append("\n" if beside else f" of {state.start}\n")
    for line in gauge_rows(state):
        text.append(line + "\n")
    text.append("   0% ----------\n")
    if not state.fell:
        if state.countdown >= state.advantage_from:
            text.append(f"next: advantage\n(lower die, {state.advantage_from} or more)")
        else:
            text.append(f"next: disadvantage\n(higher die, under {state.advantage_from})")
    return text


def pull_log(states: list[TowerState], events: list, width: int = 0) -> list[str]:
    """One line per roll: pull number, kind, both dice, why that amount, countdown before and after.
    A line longer than `width` (a tower of thousands) drops its column padding rather than wrap."""
    lines = []
    for state, event in zip(states, events):
        if isinstance(event, BlockPulled):
            continue
        if isinstance(event, DiceRolled):
            amount, reason = dicetower.subtraction(state, event.faces)
            why = f"{reason} -{amount}"
            a, b = event.faces
            after = max(0, state.countdown - amount)
            kind = "remove" if state.removing else "pull"
            typed = "*" if event.typed else " "
            line = f"{state.pulls:>3} {kind:<6} {a} {b}{typed} {why:<23} {state.countdown:>3}>{after}"
            if width and len(line) > width:
                line = f"{state.pulls} {kind} {a} {b}{typed} {why} {state.countdown}>{after}"
            lines.append(line)
    return lines


def recent_rolls(session, count: int, width: int = 0) -> list[str]:
    """The log lines of the last `count` rolls, found by walking back from the end of the log, so
    a key costs the lines shown, not the length of the game."""
    events = session.events
    picked: list[int] = []
    index = len(events) - 1
    while index >= 0 and len(picked) < count:
        if isinstance(events[index], DiceRolled):
            picked.append(index)
        index -= 1
    picked.reverse()
    return pull_log([session.state_at(i) for i in picked], [events[i] for i in picked], width)


def parse_faces(text: str) -> list[int] | str:
    """Two die faces typed as '3 5' or '35'; a string says what is wrong."""
    digits = [c for c in text if not c.isspace() and c not in ",+"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        return "type the two faces, each 1 to 6, like: 3 5"
    return [int(c) for c in digits]


class DiceTowerScreen(GameScreen):
    BINDINGS = [
        Binding("p", "pull(False)", "Pull"),
        Binding("r", "pull(True)", "Pull+remove"),
        Binding("t", "toggle_typed", "Typed dice"),
    ]
    HELP_NOTES = ("Pull when your game says pull a block; pull and remove when it says remove it.\n"
                  "With typed dice on, p and r ask for the two faces you rolled on the table.\n"
                  "In the log, * marks dice you typed.")

    def __init__(self, session) -> None:
        super().__init__(session)
        self.typed_dice = False

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Horizontal(id="tower-body"):
            yield Plain("", id="board", classes="board")
            with Vertical(id="tower-side"):
                yield Plain("", id="figures")
                yield Plain("", id="log")
        yield StatusLine("p: pull   r: pull and remove   ?: all keys")
        yield KeysFooter()

    def redraw(self) -> None:
        session = self.session
        state: TowerState = session.state
        name = session.labels.save_name
        seed = getattr(session, "seed_shown", session.seed)  # the hall's: "secret" until it is revealed
        title = title_line("Dice Tower: ", name, f"   (seed {seed}, undos {session.undos})", self.size.width - 2)
        self.query_one("#title", Plain).show(Text(with_deal(title, session, self.size.width - 2), style="bold"))
        self.query_one("#board", Plain).show(draw_board(state))
        self.query_one("#figures", Plain).show(self.figures(state))
        log = self.query_one("#log", Plain)
        room = max(1, log.size.height - 1) if log.size.height else 10
        shown = recent_rolls(session, room, log.size.width)
        rolls = len(session.events) - state.pulls  # every event is a pull or a roll: no need to count them
        header = f"LOG ({counted(rolls, 'roll')}; v reviews all)" if rolls else "LOG: no pulls yet"
        log.show(Text(header + "\n", style="bold") + Text("\n".join(shown)))

    def figures(self, state: TowerState) -> Text:
        text = Text()
        text.append(f"Pulls so far     {state.pulls}\n")
        if state.fell:
            text.append("Pulls left       0: the tower fell\n")
            text.append("Press v to review it, q to go back.\n" if self.check_action("review", ())
                        else "The game is over: q leaves.\n")  # the hall: no review at the table
        else:
            exact = state.start <= dicetower.EXACT_UP_TO
            left = dicetower.expected_pulls(state.countdown, state.advantage_from, exact=exact)
            fall = dicetower.topple_chance(state.countdown, state.advantage_from, exact=exact)
            fall_r = dicetower.topple_chance(state.countdown, state.advantage_from, remove=True, exact=exact)
            how = "exact" if exact else "computed"
            text.append(f"Pulls left       {float(left):.2f} expected ({how})\n")
            text.append(f"Falls next pull  {percent(float(fall))}  (remove: {percent(float(fall_r))})\n")
        mode = "typed by you (t: roll)" if self.typed_dice else "rolled by dicehall (t: type)"
        if state.fell:  # no die is left to roll: t is gone too
            mode = "typed by you" if self.typed_dice else "rolled by dicehall"
        elif not self.check_action("toggle_typed", ()):  # the hall: its dice come from the game's secret seed
            mode = "rolled by dicehall"
        text.append(f"Dice             {mode}\n")
        if self.session.chance_needed is not None:
            text.append("Waiting for the dice of this pull: press p to type them\n", style="bold")
        return text

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("pull", "toggle_typed") and self.session.outcome is not None:
            return None  # the tower has fallen: p, r and t leave the footer
        return super().check_action(action, parameters)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action in ("pull", "toggle_typed") and self.session.outcome is not None:
            if action == "toggle_typed":  # a shorter line: the status line is one row
                return "the tower has fallen: no dice are left to type or roll"
            then = "q to go back, v to review" if self.check_action("review", ()) else "q leaves"  # the hall: no v
            return f"the tower has fallen (pull {self.session.state.pulls}): {then}"
        return super().why_disabled(action, parameters)

    def action_pull(self, remove: bool) -> None:
        if self.session.chance_needed is not None:
            self.ask_faces("Double threes or an unfinished pull: type the next two faces")
            return
        if self.typed_dice:
            what = "pull and remove" if remove else "pull"
            self.ask_faces(f"{what}: type the two faces you rolled (like 3 5)", remove)
            return
        if self.attempt(lambda: self.session.play(PullBlock(remove))):
            self.after_pull()

    def ask_faces(self, question: str, remove: bool | None = None) -> None:
        def typed(answer: str | None) -> None:
            if answer is None:
                if self.session.chance_needed is not None:  # the pull is on disk, its dice are not
                    self.status("this pull still waits for its dice: press p to type them")
                else:
                    self.status("no dice typed; nothing changed")
                return
            faces = parse_faces(answer)
            assert isinstance(faces, list)
            if remove is None:
                ok = self.attempt(lambda: self.session.roll(faces))
            else:
                ok = self.attempt(lambda: self.session.play(PullBlock(remove), faces=faces))
            if ok:
                self.after_pull()

        self.app.push_screen(AskScreen(question, check=lambda t: p if isinstance(p := parse_faces(t), str) else None), typed)

    def after_pull(self) -> None:
        self.redraw()
        state = self.session.state
        if self.session.chance_needed is not None:
            self.status("double threes: -6, type the next two faces")
            self.ask_faces("Double threes! Type the next two faces")
        elif state.fell:
            self.status(f"THE TOWER FALLS on pull {state.pulls}. v: review the game, q: back")
        else:
            last = recent_rolls(self.session, 1)
            self.status(f"pull {state.pulls}: rolled " + " ".join(last[-1].split()[2:]) if last else "pulled")

    def action_toggle_typed(self) -> None:
        self.typed_dice = not self.typed_dice
        self.status("typed dice: p and r will ask for your two faces" if self.typed_dice else "dicehall rolls the dice again")
        self.redraw()
