"""Towers: the setup (who plays, colours, first placer, bot level, one game or a match) and the board
(a cursor, the picked tower's destinations, the lines of sight that score, live scores). The bot
thinks in a worker thread, so the screen keeps answering keys while it does."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical


from dicehall.engine import JournalError
from dicehall.engine.core import Player
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import entry_of, towers
from dicehall.engine.games.towers import COLOURS, DARK, EMPTY, LIGHT, SIZE, Move, Place, TowersState
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import GameScreen, SetupScreen, with_deal
from dicehall.tui.widgets import KeysFooter, Plain, player_kind, StatusLine, title_line

STYLE = ("bold cyan", "bold yellow")  # Light, Dark: the letters L and D say it without colour
HORIZONTAL = ("-", "=")  # Light's and Dark's lines of sight
VERTICAL = ("|", ":")
FILES = "abcdefgh"


def sight_marks(state: TowersState) -> dict[int, list[tuple[str, int]]]:
    """For every empty square on a scoring line: [(direction "h" or "v", colour)]."""
    marks: dict[int, list[tuple[str, int]]] = {}
    for colour, first, second, _ in towers.sight_lines(state.board):
        step = 1 if first // SIZE == second // SIZE else SIZE
        for square in range(first + step, second, step):
            marks.setdefault(square, []).append(("h" if step == 1 else "v", colour))
    return marks


def cell_text(state: TowersState, square: int, marks: dict, targets: set[int], width: int) -> tuple[str, str]:
    """What one square shows, `width` (3 or 5) characters, and its style."""
    cell = state.board[square]
    pad = (width - 3) // 2
    if cell != EMPTY:
        colour = towers.owner(cell)
        assert colour is not None  # the square is not empty
        letter = "LD"[colour]
        body = f"[{letter}]" if towers.is_built(cell) else f" {letter} "
        return " " * pad + body + " " * pad, STYLE[colour]
    if square in targets:
        return " " * pad + " * " + " " * pad, "bold"
    lines = marks.get(square, [])
    across = next((c for d, c in lines if d == "h"), None)
    down = next((c for d, c in lines if d == "v"), None)
    if across is not None:
        centre = VERTICAL[down] if down is not None else HORIZONTAL[across]
        text = HORIZONTAL[across] * (width // 2) + centre + HORIZONTAL[across] * (width // 2)
        return text, STYLE[across]
    if down is not None:
        return " " * (width // 2) + VERTICAL[down] + " " * (width // 2), STYLE[down]
    return " " * (width // 2) + "." + " " * (width // 2), "dim"


def draw_board(state: TowersState, reveal: bool = True, cursor: int | None = None, selected: int | None = None,
               targets: set[int] | frozenset = frozenset(), wide: bool = False) -> Text:
    """The board: rank 8 at the top. Wide (for the game screen): 5 columns a square and a row
    between ranks where vertical lines of sight continue; narrow (the replay viewer): 3 columns."""
    width = 5 if wide else 3
    margin = 3 if wide else 2  # the narrow board fits the viewer's 26 columns
    marks = sight_marks(state)
    text = Text(" " * margin + "".join(f"{f:^{width}}" for f in FILES) + "\n")
    for row in range(SIZE):
        text.append(f" {SIZE - row} " if wide else f"{SIZE - row} ")
        for col in range(SIZE):
            square = row * SIZE + col
            body, style = cell_text(state, square, marks, set(targets), width)
            if square == selected:
                body = "(" + body[1:-1] + ")"
            if square == cursor:
                body = ">" + body[1:-1] + "<"
                style = f"{style} reverse"
            text.append(body, style=style)
        text.append("\n")
        if wide and row < SIZE - 1:  # the rows between ranks carry vertical lines on
            text.append("   ")
            for col in range(SIZE):
                above, below = row * SIZE + col, (row + 1) * SIZE + col
                colour = _vertical_between(state, marks, above, below)
                mark = VERTICAL[colour] if colour is not None else " "
                text.append(f"  {mark}  ", style=STYLE[colour] if colour is not None else "")
            text.append("\n")
    return text


def _vertical_between(state: TowersState, marks: dict, above: int, below: int) -> int | None:
    """The colour of a vertical line of sight that passes between two squares of one column."""
    for square in (above, below):
        for direction, colour in marks.get(square, []):
            if direction == "v":
                other = below if square == above else above
                if state.board[other] != EMPTY or any(d == "v" and c == colour for d, c in marks.get(other, [])):
                    return colour
    return None


def player_line(state: TowersState, players, colour: int) -> str:
    player = players[colour]
    who = player_kind(player)
    return f"{COLOURS[colour]:<5} {player.name[:14]} ({who})"


class TowersScreen(GameScreen):
    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False),
        Binding("down,j", "cursor(0,1)", "Down", show=False),
        Binding("left,h", "cursor(-1,0)", "Left", show=False),
        Binding("right,l", "cursor(1,0)", "Right", show=False),
        Binding("enter,space", "act", "Place/pick/move"),
        Binding("escape", "cancel", "Drop the pick", tooltip="drop the pick (with no pick: leave the game, like q)"),
    ]
    HELP_NOTES = ("Arrows or h j k l move the cursor. In the placement phase Enter or Space places a "
                  "tower on the square under the cursor. In the movement phase Enter or Space picks one "
                  "of your unbuilt towers (its destinations show *), then moves it to the square under "
                  "the cursor; Escape drops the pick. L and D are unbuilt towers, [L] and [D] built ones; "
                  "- and | are Light's lines of sight, = and : Dark's. Against the bot, u takes back your "
                  "move and its answer.")

    def __init__(self, session) -> None:
        super().__init__(session)
        self.cursor = 3 * SIZE + 3  # d5, near the middle
        self.selected: int | None = None
        self.thinking = 0  # which bot search is current: a result for an older one is dropped
        self.bot_stalled = False  # the bot's last answer could not be saved (a full disk)

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Horizontal(id="towers-body"):
            yield Plain("", id="towers-board")
            with Vertical(id="towers-side"):
                yield Plain("", id="towers-info")
                yield Plain("", id="towers-log")
        yield StatusLine("arrows: cursor   Enter: place / pick / move   ?: all keys")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.schedule_bot()

    # ----- drawing -----
    def targets(self) -> set[int]:
        if self.selected is None:
            return set()
        return set(towers.destinations(self.session.state.board, self.selected))

    def redraw(self) -> None:
        session = self.session
        state: TowersState = session.state
        outcome = session.outcome
        name = session.labels.save_name
        head = outcome.summary if outcome else (f"game {state.game} of 2" if state.match else "")
        tail = (f"  {head}" if head else "") + f"  (undos {session.undos})"
        title = with_deal(title_line("Towers: ", name, tail, self.size.width - 2), self.session, self.size.width - 2)
        self.query_one("#title", Plain).show(Text(title, style="bold"))
        self.query_one("#towers-board", Plain).show(
            draw_board(state, cursor=self.cursor, selected=self.selected, targets=self.targets(), wide=True))
        self.query_one("#towers-info", Plain).show(self.info(state))
        self.query_one("#towers-log", Plain).show(self.log_text())
        self.refresh_bindings()

    def info(self, state: TowersState) -> Text:
        session = self.session
        text = Text()
        for colour in (LIGHT, DARK):
            marker = ">" if session.to_act == colour else " "
            text.append(f"{marker} {player_line(state, session.players, colour)}\n", style=STYLE[colour])
        light, dark = towers.scores(state.board)
        text.append(f"\nScore now  Light {light}, Dark {dark}\n", style="bold")
        if state.phase == "placement":
            text.append(f"Placement: {state.placed} of 16 placed\n")
        elif state.phase == "movement":
            left = [sum(1 for c in state.board if c == towers.UNBUILT[col]) for col in (LIGHT, DARK)]
            text.append(f"Moving: unbuilt Light {left[0]}, Dark {left[1]}\n")
        else:
            text.append("Game over\n", style="bold")
        if state.match:
            played = ", ".join(f"game {n}: {a}-{b}" for n, (a, b) in enumerate(state.results, start=1))
            text.append(f"Match: {played or 'game 1 in play'}\n")
            if state.results:
                text.append(f"Margin so far: Light {towers.margin(state):+d}\n")
        if session.outcome is not None:
            text.append(f"\n{session.outcome.summary}\nv reviews the game, q goes back\n", style="bold reverse")
        elif self.bot_to_act():
            assert session.to_act is not None
            text.append(f"\n{session.players[session.to_act].name} is thinking...\n", style="bold")
        elif session.to_act is not None:
            what = "place a tower" if state.phase == "placement" else (
                "pick a tower to move" if self.selected is None else "choose where it goes (* marks)")
            text.append(f"\n{session.players[session.to_act].name}: {what}\n", style="bold")
        return text

    def log_text(self) -> Text:
        """The last events in words, newest last, wrapped to the side panel and cut from the top."""
        import textwrap

        session = self.session
        log = self.query_one("#towers-log", Plain)
        width = max(20, log.size.width or 32)
        lines: list[str] = []
        for index in range(max(0, len(session.events) - 6), len(session.events)):
            lines += textwrap.wrap(session.describe(index), width, subsequent_indent="  ")
        room = max(1, log.size.height or 6)
        return Text("\n".join(lines[-room:]), style="dim")

    # ----- keys -----
    def action_cursor(self, dx: int, dy: int) -> None:
        row, col = divmod(self.cursor, SIZE)
        row, col = row + dy, col + dx
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            self.status("the edge of the board", error=True)
            return
        self.cursor = row * SIZE + col
        self.redraw()

    def action_act(self) -> None:
        session = self.session
        state: TowersState = session.state
        if session.outcome is not None:
            self.status(f"the game is over: {session.outcome.summary}", error=True)
            return
        if self.bot_to_act():
            assert session.to_act is not None
            if self.bot_stalled:  # its last answer could not be saved: ask again
                self.bot_stalled = False
                self.status(f"asking {session.players[session.to_act].name} (the bot) again")
                self.schedule_bot()
                return
            self.status(f"{session.players[session.to_act].name} (the bot) is thinking", error=True)
            return
        square = self.cursor
        if state.phase == "placement":
            self.play(Place(square))
            return
        cell = state.board[square]
        if self.selected is None or (cell != EMPTY and towers.owner(cell) == state.turn and not towers.is_built(cell)):
            self.pick(square)
            return
        self.play(Move(self.selected, square))

    def pick(self, square: int) -> None:
        state = self.session.state
        cell = state.board[square]
        name = towers.square_name(square)
        if cell == EMPTY:
            self.status(f"{name} is empty: pick one of your unbuilt towers to move", error=True)
        elif towers.owner(cell) != state.turn:
            owner = towers.owner(cell)
            assert owner is not None  # the square is not empty
            self.status(f"the tower on {name} is {COLOURS[owner]}'s: pick one of yours", error=True)
        elif towers.is_built(cell):
            self.status(f"the tower on {name} is built: it never moves again", error=True)
        elif not towers.destinations(state.board, square):
            self.status(f"the tower on {name} is hemmed in: it has nowhere to go", error=True)
        else:
            self.selected = square
            self.status(f"picked {name}: move the cursor to a * and press Enter (Escape drops it)")
        self.redraw()

    def play(self, command) -> None:
        before = len(self.session.events)
        if self.attempt(lambda: self.session.play(command)):
            self.selected = None
            self.status("; ".join(self.session.describe(i) for i in range(before, len(self.session.events))))
        self.redraw()
        self.schedule_bot()

    def action_cancel(self) -> None:
        if self.selected is not None:
            self.selected = None
            self.status("pick dropped")
            self.redraw()
        else:
            self.action_back()

    def footer_shows(self, action: str, parameters: tuple) -> bool:
        return action != "cancel" or self.selected is not None  # with no pick, Esc is q's Back

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "act" and (self.session.outcome is not None or (self.bot_to_act() and not self.bot_stalled)):
            return None  # greyed out: the game is over or the bot is to play (unless its answer could not be saved)
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if self.session.outcome is not None:
            return f"the game is over: {self.session.outcome.summary}"
        assert self.session.to_act is not None  # check_action: only the bot's move is refused
        return f"{self.session.players[self.session.to_act].name} (the bot) is thinking"

    def action_undo(self) -> None:
        self.thinking += 1  # a search under way answers a position that is being taken back
        self.selected = None
        super().action_undo()
        self.schedule_bot()

    def action_redo(self) -> None:
        self.thinking += 1
        self.selected = None
        super().action_redo()
        self.schedule_bot()

    # ----- the bot -----
    def bot_to_act(self) -> bool:
        seat = self.session.to_act
        return seat is not None and self.session.players[seat].bot

    def schedule_bot(self) -> None:
        if not self.bot_to_act():
            return
        self.thinking += 1
        ticket = self.thinking
        state = self.session.state
        assert self.session.to_act is not None  # bot_to_act()
        bot = entry_of(self.session.game.ID).bots[self.session.players[self.session.to_act].style or "medium"]
        seed, nonce = self.session.seed, len(self.session.events)
        self.redraw()

        def think() -> None:
            command = bot(state, seed, nonce)
            self.app.call_from_thread(self.bot_answered, ticket, state, command)

        self.run_worker(think, thread=True, group="towers-bot", exit_on_error=False)

    def on_unmount(self) -> None:
        self.thinking += 1  # left while the bot thought: its answer must not touch the closed save

    def bot_answered(self, ticket: int, state: TowersState, command) -> None:
        if ticket != self.thinking or self.session.state is not state or not self.bot_to_act():
            return  # undone, redone or left while it thought: that answer is for another position
        assert self.session.to_act is not None  # bot_to_act()
        name = self.session.players[self.session.to_act].name
        before = len(self.session.events)
        try:
            self.session.play(command)
        except JournalError as error:  # the save could not be written: the bot's move is not made
            self.bot_stalled = True
            self.status(f"{error.reason}: the bot's move was not saved; make room, then press Enter", error=True)
            return
        self.status(f"{name} (bot): " + "; ".join(self.session.describe(i) for i in range(before, len(self.session.events))))
        self.redraw()
        self.schedule_bot()


SEAT_KINDS = ("bot", "two")


class TowersSetupScreen(SetupScreen):
    """Who plays: you against the bot (your colour, its level) or two people; who places first;
    one game or a match of two."""

    HEADING = "Towers: who plays?"
    LIST_ID = "towers-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it (Enter on a name asks for "
                  "it). s starts the game.")

    def __init__(self, seed: int | None = None, name: str = "", first: str = "light", match: bool = False) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        self.choices: dict[str, Any] = {"mode": "bot", "you": "light", "first": first, "level": "medium", "match": match,
                        "light_name": "", "dark_name": ""}

    def help_title(self) -> str:
        return "Towers: setup"

    def rows(self) -> list[tuple[str, str]]:
        c = self.choices
        rows = [("mode", "Players:        " + ("you against the bot" if c["mode"] == "bot" else "two people at this keyboard"))]
        if c["mode"] == "bot":
            rows.append(("you", f"You play:       {c['you'].title()}"))
            rows.append(("level", f"Bot level:      {c['level']}"))
        rows.append(("first", f"First to place: {c['first'].title()}"))
        rows.append(("match", "Length:         " + ("a match of two games (first placer switched)" if c["match"] else "one game")))
        for colour in ("light", "dark"):
            if c["mode"] == "two" or c["you"] == colour:
                label = f"{colour.title()}'s name:"
                rows.append((f"{colour}_name", f"{label:<16}{c[colour + '_name'] or '(' + colour.title() + ')'}"))
        rows.append(("start", "Start the game (s)"))
        return rows

    def action_change(self, step: int = 1) -> None:
        key, c = self.current(), self.choices
        cycles = {"mode": ("bot", "two"), "you": ("light", "dark"), "first": ("light", "dark"),
                  "level": ("easy", "medium", "hard"), "match": (False, True)}
        if key in cycles:
            self.cycle(c, key, cycles[key], step)
        elif key.endswith("_name"):
            self.ask_name(c, key, f"{key.removesuffix('_name').title()}'s name:")
        elif key == "start":
            self.action_start()

    def players(self) -> list[Player]:
        c = self.choices
        names = [c["light_name"] or "Light", c["dark_name"] or "Dark"]
        if c["mode"] == "two":
            return [Player(names[0]), Player(names[1])]
        you = 0 if c["you"] == "light" else 1
        seats = [Player(names[you] if names[you] != COLOURS[you] else "You"), Player("Bot", True, c["level"])]
        return seats if you == 0 else seats[::-1]

    def action_start(self) -> None:
        from dicehall import saves

        players = self.players()
        name = self.save_name or f"{players[0].name} v {players[1].name}"
        try:
            session = saves.new_save(towers.ID, name=name, seed=self.seed, players=players,
                                     options={"first": self.choices["first"], "match": self.choices["match"]})
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session, replace=True)
