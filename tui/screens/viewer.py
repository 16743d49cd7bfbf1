"""The replay viewer, for every game: step through a game event by event, see the board as it was,
and branch a new save from any point ("continue from here")."""
from __future__ import annotations

from bisect import bisect_left

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Footer

from engine import Session
from tui.screens.base import KeyedScreen
from tui.screens.dialogs import AskScreen
from tui.screens.games import board_drawer
from tui.widgets import Plain, StatusLine

SPEEDS = (0.5, 1, 2, 4, 8, 16, 32)  # events per second while autoplaying
WIDE_BOARDS = {"troll"}


class EventWindow(Plain):
    """The events in words around the cursor; only the visible lines are ever described."""

    def draw(self, session: Session, position: int, reveal: bool, cache: dict) -> None:
        height = max(3, self.size.height or 15)
        width = max(10, self.size.width or 80)
        total = len(session.events)
        current = position - 1  # the last event applied
        extra = 0  # the highlighted event's lines beyond its first
        if current >= 0:
            if (current, reveal) not in cache:
                cache[(current, reveal)] = session.describe(current, reveal)
            extra = -(-max(0, 6 + len(cache[(current, reveal)]) - width) // (width - 6))
        top = min(max(0, current - (height - extra) // 2), max(0, total - (height - extra)))
        text = Text()
        if position == 0:
            text.append(">   0 the start of the game\n", style="reverse")
            top = 0
            height -= 1
        rows = 0
        for index in range(top, total):
            key = (index, reveal)
            if key not in cache:
                cache[key] = session.describe(index, reveal)
            marker = ">" if index == current else " "
            line = f"{marker}{index + 1:>4} {cache[key]}"
            # the highlighted event is shown whole (wrapped under itself); the others are cut at the edge
            pieces = [line[:width]]
            if index == current and len(line) > width:
                rest = line[width:]
                pieces += ["      " + rest[i:i + width - 6] for i in range(0, len(rest), width - 6)]
            if rows + len(pieces) > height:
                break
            rows += len(pieces)
            for piece in pieces:
                text.append(piece + "\n", style="reverse" if index == current else "")
        self.show(text, layout=False)


class ViewerScreen(KeyedScreen):
    BINDINGS = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "On"),
        Binding("pageup", "turn(-1)", "Turn back"),
        Binding("pagedown", "turn(1)", "Turn on"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("g", "goto", "Go to", show=False),
        Binding("space", "autoplay", "Auto"),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("h", "reveal", "Reveal"),
        Binding("c", "branch", "Continue"),
        Binding("question_mark", "help", "Help", show=False),  # the status line names it: the footer is full
        Binding("q,escape", "back", "Back", show=False),
    ]
    HELP_NOTES = ("Home/End jump to the start and the end; + and - change the autoplay speed.\n"
                  "h reveals hidden information (face-down cards, the deck); it is off by default.\n"
                  "c starts a new save from the position shown, with the same future dice.")

    def __init__(self, session: Session, live: bool = False, position: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.live = live  # opened from a game in progress: its events may grow while we are away
        self.position = len(session.events) if position is None else position
        self.reveal = False
        self.speed = 3
        self.timer: Timer | None = None
        self.descriptions: dict = {}
        self.starts: list[int] | None = None
        self.wide = session.game.ID in WIDE_BOARDS
        self.draw_board = board_drawer(session.game.ID)

    def help_title(self) -> str:
        return f"Replay viewer ({self.session.game.TITLE})"

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        wide = self.wide  # the bridge needs the full width: events go below it
        with (Vertical if wide else Horizontal)(id="viewer-body", classes="wide" if wide else ""):
            yield Plain("", id="board", classes="board")
            with Vertical(id="viewer-side"):
                yield EventWindow("", id="events")
                yield Plain("", id="where")
        yield StatusLine("Left/Right: one event  PgUp/PgDn: one turn  c: continue here  ?: keys  q: back")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        session = self.session
        self.position = min(self.position, len(session.events))
        outcome = session.outcome
        result = outcome.summary if outcome else "unfinished"
        players = ", ".join(p.name for p in session.players)
        name = getattr(session, "save_name", "").removeprefix(session.game.TITLE).strip()  # no title twice
        width = max(20, (self.query_one("#title", Plain).size.width or 78))
        title = f"Replay: {session.game.TITLE}  {name}  ({players}; {result})"
        if len(title) > width:  # the result matters more than the game's title, which the board shows
            title = f"Replay: {name or session.game.TITLE}  ({players}; {result})"
        if len(title) > width:
            title = title[: width - 3] + "..."
        self.query_one("#title", Plain).show(Text(title, style="bold"), layout=False)
        board = self.draw_board(session.state_at(self.position), self.reveal)
        self.query_one("#board", Plain).show(board, layout=self.wide)  # a wide board's height follows it
        self.query_one(EventWindow).draw(session, self.position, self.reveal, self.descriptions)
        turn = bisect_left(self.turn_starts(), self.position)
        auto = f"auto {SPEEDS[self.speed]}/s" if self.timer else "auto off"
        reveal = "  REVEALED" if self.reveal else ""
        self.query_one("#where", Plain).show(
            f"event {self.position}/{len(session.events)}  turn {turn}  {auto}  undos {session.undos}{reveal}", layout=False)

    def go(self, position: int) -> None:
        self.position = max(0, min(len(self.session.events), position))
        self.redraw()

    def action_step(self, delta: int) -> None:
        target = self.position + delta
        if not 0 <= target <= len(self.session.events):
            self.status("already at the " + ("start" if delta < 0 else "end"), error=True)
            return
        self.go(target)

    def turn_starts(self) -> list[int]:
        """Where each turn begins: the game's own turns if it marks them, else each decision."""
        if self.starts is None:
            is_start = getattr(self.session.game, "is_turn_start", None)
            if is_start is None:
                self.starts = self.session.turn_starts()
            else:
                self.starts = [i for i, event in enumerate(self.session.events) if is_start(event)]
        return self.starts

    def turn_stops(self) -> list[int]:
        """The positions PgUp/PgDn go to. A game that marks its turns' first events stops just after
        each of them, so that event is the highlighted one and the status names its turn; otherwise at
        each decision's start."""
        if getattr(self.session.game, "is_turn_start", None) is None:
            return self.turn_starts()
        return [start + 1 for start in self.turn_starts()]

    def action_turn(self, delta: int) -> None:
        stops = self.turn_stops()
        if delta > 0:
            later = [s for s in stops + [len(self.session.events)] if s > self.position]
            if not later:
                self.status("already at the end", error=True)
                return
            self.go(later[0])
        else:
            earlier = [s for s in [0] + stops if s < self.position]
            if not earlier:
                self.status("already at the start", error=True)
                return
            self.go(earlier[-1])
        turn = bisect_left(self.turn_starts(), self.position)
        if self.position == 0:
            self.status("the start of the game")
        elif self.position in stops:
            words = self.session.describe(self.position - 1, self.reveal)
            words = words if words.startswith(f"turn {turn}") else f"turn {turn}: {words}"
            self.status(words if len(words) <= 78 else words[:75] + "...")
        else:
            self.status(f"the end, in turn {turn}")

    def action_jump(self, where: int) -> None:
        self.go(len(self.session.events) if where < 0 else where)

    def action_goto(self) -> None:
        total = len(self.session.events)

        def check(text: str) -> str | None:
            number = text.strip()  # isdigit() alone lets "²" through to int()
            ok = number.isascii() and number.isdecimal() and 0 <= int(number) <= total
            return None if ok else f"a number from 0 to {total}"

        def chosen(answer: str | None) -> None:
            if answer is not None:
                self.go(int(answer.strip()))

        self.app.push_screen(AskScreen(f"Go to event number (0 to {total}):", check=check), chosen)

    def action_autoplay(self) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = None
            self.status("autoplay stopped")
        else:
            if self.position >= len(self.session.events):
                self.position = 0
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.autoplay_step)
            self.status(f"autoplay at {SPEEDS[self.speed]} events a second (+/- to change, space stops)")
        self.redraw()

    def autoplay_step(self) -> None:
        if self.position >= len(self.session.events):
            self.action_autoplay()
            return
        self.go(self.position + 1)

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.timer:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.autoplay_step)
        self.status(f"autoplay speed {SPEEDS[self.speed]} events a second")
        self.redraw()

    def action_reveal(self) -> None:
        self.reveal = not self.reveal
        self.status("hidden information shown" if self.reveal else "hidden information hidden")
        self.redraw()

    def action_branch(self) -> None:
        import saves
        from tui.screens.games import game_screen

        if self.timer:
            self.action_autoplay()
        try:
            branch = saves.branch_save(self.session, self.position)
        except (saves.SaveError, ValueError) as error:
            self.status(str(error), error=True)
            return
        branch.notice = f"a new save branched from event {self.position}: {branch.save_name}"  # type: ignore[attr-defined]
        self.app.push_screen(game_screen(branch))

    def action_back(self) -> None:
        if self.timer:
            self.timer.stop()
        self.app.pop_screen()
