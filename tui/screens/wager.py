"""Dead Man's Wager: the setup (who plays, human or bot, seating order) and the table (scores,
streaks, the scoresheet round by round, bots playing at a readable pace)."""
from __future__ import annotations

from bisect import bisect_left

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Footer, OptionList
from textual.widgets.option_list import Option

from engine.core import Player
from engine.text import clean_text
from engine.words import counted
from tui.screens.base import GameScreen, KeyedScreen
from tui.screens.dialogs import AskScreen
from tui.widgets import Plain, StatusLine, ellipsis, title_line

KINDS = ("human", "best", "cautious", "bold")  # a seat is a human or a bot of one style
BOT_PACE = 0.7  # seconds between a bot's moves, so people can follow them


class WagerSetupScreen(KeyedScreen):
    """Who plays, in seating order (the first seat starts), and the options."""

    BINDINGS = [
        Binding("enter", "rename", "Name"),
        Binding("b", "kind", "Human/bot"),
        Binding("a", "add", "Add"),
        Binding("d", "remove", "Remove"),
        Binding("left_square_bracket", "shift(-1)", "Seat up", show=False, key_display="["),
        Binding("right_square_bracket", "shift(1)", "Seat down", show=False, key_display="]"),
        Binding("o", "play_on", "Places", show=False),
        Binding("s", "start", "Start"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("Up/Down pick a seat. Enter names it, b switches human / bot best / cautious / bold, "
                  "[ and ] move it in the seating order (seat 1 starts), a adds a seat, d removes one. "
                  "o switches 'play on for places'. s starts the game.")

    def __init__(self, seed: int | None = None, name: str = "", play_on: bool = False) -> None:
        super().__init__()
        self.seats: list[list[str]] = [["Player 1", "human"], ["Bot 2", "best"]]
        self.play_on = play_on
        self.seed = seed  # None: a fresh seed
        self.save_name = clean_text(name)

    def help_title(self) -> str:
        return "Dead Man's Wager: setup"

    def compose(self) -> ComposeResult:
        yield Plain(Text("Dead Man's Wager: who plays? (2 to 6 seats; seat 1 rolls first)", style="bold"), classes="title")
        yield OptionList(id="seats")
        yield Plain("", id="setup-options")
        yield StatusLine("Enter: name  b: human or bot  a: add  d: remove  [ ]: move  s: start")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one(OptionList).focus()
        warm_odds()

    def redraw(self, highlight: int | None = None) -> None:
        menu = self.query_one(OptionList)
        keep = menu.highlighted if highlight is None else highlight
        menu.clear_options()
        for index, (name, kind) in enumerate(self.seats, start=1):
            who = "human" if kind == "human" else f"bot, plays {kind}"
            menu.add_option(Option(Text(f"seat {index}   {name:<24} {who}")))
        menu.highlighted = min(keep or 0, len(self.seats) - 1)
        places = "on: after a win, the others play on for the places" if self.play_on else "off: the first winner ends the game"
        self.query_one("#setup-options", Plain).show(f"Play on for places (o): {places}")

    def current(self) -> int:
        return self.query_one(OptionList).highlighted or 0

    def action_rename(self) -> None:
        index = self.current()

        def named(name: str | None) -> None:
            if name is not None and clean_text(name):
                self.seats[index][0] = clean_text(name)
                self.redraw()

        self.app.push_screen(AskScreen(f"Name for seat {index + 1}:", self.seats[index][0]), named)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_rename()

    def action_kind(self) -> None:
        index = self.current()
        seat = self.seats[index]
        seat[1] = KINDS[(KINDS.index(seat[1]) + 1) % len(KINDS)]
        # a default name follows the seat's kind; a name someone typed is kept
        defaults = {f"Player {index + 1}", f"Bot {index + 1}"}
        if seat[0] in defaults:
            seat[0] = f"Player {index + 1}" if seat[1] == "human" else f"Bot {index + 1}"
        self.redraw()

    def action_add(self) -> None:
        if len(self.seats) >= 6:
            self.status("six seats at most", error=True)
            return
        self.seats.append([f"Bot {len(self.seats) + 1}", "best"])
        self.redraw(len(self.seats) - 1)

    def action_remove(self) -> None:
        if len(self.seats) <= 2:
            self.status("two seats at least", error=True)
            return
        del self.seats[self.current()]
        self.redraw()

    def action_shift(self, delta: int) -> None:
        index = self.current()
        target = index + delta
        if not 0 <= target < len(self.seats):
            self.status("that seat cannot move further", error=True)
            return
        self.seats[index], self.seats[target] = self.seats[target], self.seats[index]
        self.redraw(target)

    def action_play_on(self) -> None:
        self.play_on = not self.play_on
        self.redraw()

    def players(self) -> list[Player]:
        return [Player(name, kind != "human", "" if kind == "human" else kind) for name, kind in self.seats]

    def action_start(self) -> None:
        import saves

        name = self.save_name or " v ".join(name for name, _ in self.seats)
        try:
            session = saves.new_save("wager", name=name, seed=self.seed, players=self.players(),
                                     options={"play_on": self.play_on})
        except (saves.SaveError, ValueError, OSError) as error:
            self.status(str(error), error=True)
            return
        self.app.switch_screen(WagerScreen(session))

    def action_back(self) -> None:
        self.app.pop_screen()


def warm_odds() -> None:
    """Compute the best bot's tables (about a second) in a thread while people sit down, so the
    first bot move or `h` does not freeze the screen."""
    import threading

    from engine.bots import wager as bots

    threading.Thread(target=bots.tables, name="wager-odds", daemon=True).start()


def last_rolls(events, seats: int, keep: int = 4) -> list[list[int]]:
    """Each seat's last few faces, oldest first, read from the event log (normal and wager rolls)."""
    from engine.games.wager import DieRolled

    rolls: list[list[int]] = [[] for _ in range(seats)]
    for event in events:
        if isinstance(event, DieRolled):
            rolls[event.seat] = (rolls[event.seat] + [event.face])[-keep:]
    return rolls


def draw_board(state, reveal: bool = True) -> Text:
    """The scores and streaks as they stood, for the replay viewer."""
    text = Text(f"ROUND {state.round}\n\n", style="bold")
    for seat, name in enumerate(state.names):
        score = "OUT" if state.out[seat] else str(state.scores[seat])
        marker = ">" if seat == state.seat else " "
        text.append(f"{marker} {ellipsis(name, 14):<14} {score:>4}\n", style="bold" if seat == state.seat else "")
        face, length = state.runs[seat]
        if face in (3, 6) and length >= 2:
            text.append(f"    {face} {face} in a row\n", style="bold")
    if state.bonus:
        text.append("\nthe player to act has the bonus\n")
    return text


def run_warning(run: tuple[int, int]) -> str:
    """A warning at two sixes or two threes in a row (words, not only colour)."""
    face, length = run
    if face == 6 and length >= 2:
        return "! a 6 now: Mark of the Beast"
    if face == 3 and length >= 2:
        return "! a 3 now: Outrageous Fortune"
    return ""


class WagerScreen(GameScreen):
    BINDINGS = [
        Binding("r", "play('roll')", "Roll"),
        Binding("w", "play('wager')", "Wager"),
        Binding("e", "play('end turn')", "End turn"),
        Binding("h", "odds", "Odds"),
        Binding("space", "skip", "Skip bots", show=False),
    ]
    HELP_NOTES = ("r rolls (one normal roll, two with the bonus); then w wagers one more roll or e ends "
                  "the turn. h shows your chance of winning if you wager and if you stop. "
                  "Bots play at a readable pace; Space lets them finish at once.")

    def __init__(self, session) -> None:
        super().__init__(session)
        self.bot_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Vertical(id="wager-body"):
            yield Plain("", id="table")
            yield Plain("", id="banner")
            yield Plain("", id="sheet")
        yield StatusLine("r: roll   w: wager   e: end the turn   h: odds   ?: all keys")
        yield Footer()

    def on_mount(self) -> None:
        warm_odds()
        self.schedule_bots()  # GameScreen's on_mount has drawn the table; a bot may be first

    def redraw(self) -> None:
        from engine.games import wager

        session = self.session
        state = session.state
        outcome = session.outcome
        name = getattr(session, "save_name", "")
        head = outcome.summary.upper() if outcome else f"round {state.round}"
        title = title_line("Dead Man's Wager: ", name, f"  {head}  (undos {session.undos})", self.size.width - 2)
        self.query_one("#title", Plain).show(Text(title, style="bold"))
        table = Text()
        rolls = last_rolls(session.events, len(session.players))
        table.append(f"  {'player':<16} {'score':>5}  {'plays':<13}last rolls\n", style="dim")
        for seat, player in enumerate(session.players):
            acting = seat == state.seat and outcome is None
            marker = ">" if acting else " "
            who = f"bot {player.style}" if player.bot else "human"
            score = "OUT" if state.out[seat] else f"{state.scores[seat]:>3}"
            table.append(f"{marker} {ellipsis(player.name, 16):<16} {score:>5}  ", style="bold reverse" if acting else "")
            table.append(f"{who:<13}{' '.join(map(str, rolls[seat])):<9}")
            table.append(f"{run_warning(state.runs[seat])}\n", style="bold")
        if outcome is None and session.to_act is not None:
            player = session.players[state.seat]
            who = ellipsis(player.name, 16) + (" (bonus turn)" if state.bonus else "")
            if state.normal_left:
                rolls = counted(state.normal_left, "normal roll")
                table.append(f"{who}: {rolls} to make (r), then wager (w) or not (e)")
            elif state.can_wager:
                table.append(f"{who}: wager (w) or end the turn (e)")
        self.query_one("#table", Plain).show(table)
        self.query_one("#banner", Plain).show(self.banner())
        self.query_one("#sheet", Plain).show(self.sheet())
        self.refresh_bindings()

    def banner(self) -> Text:
        """The big moments, announced so no one misses them: a Mark of the Beast or an Outrageous
        Fortune in the last few events, and the end of the game."""
        from engine.games import wager

        session = self.session
        text = Text()
        for index in range(max(0, len(session.events) - 6), len(session.events)):
            event = session.events[index]
            if isinstance(event, wager.DieRolled):
                before = session.state_at(index)
                verdict = wager.judge(before, event)[2]
                name = before.names[event.seat]
                if verdict == "beast":
                    text.append(f"*** MARK OF THE BEAST: three sixes in a row, {name} is out ***\n", style="bold reverse")
                elif verdict == "fortune":
                    text.append(f"*** OUTRAGEOUS FORTUNE: three threes in a row, {name} wins ***\n", style="bold reverse")
        if session.outcome:
            text.append(f"*** {session.outcome.summary} ***  v reviews the game, q goes back", style="bold reverse")
        elif session.events:
            text.append(session.describe(len(session.events) - 1))
        return text

    def sheet(self) -> Text:
        from engine.games import wager

        session = self.session
        room = max(1, (self.query_one("#sheet", Plain).size.height or 8) - 1)
        # only the rounds on show are read (from a round before the oldest, found by bisection):
        # the earlier rows stay blank, unseen, so a key costs the same late in a game as early
        total = len(session.events)
        begin = bisect_left(range(total), session.state.round - room - 1, key=lambda i: session.state_at(i).round)
        states = [session.state_at(i) for i in range(begin, total)]
        rows = wager.scoresheet(states, list(session.events[begin:]))
        width = max(8, min(20, 72 // max(1, len(session.players))))  # "round " and every column in 78
        text = Text("round " + "".join(f"{ellipsis(p.name, width - 1):<{width}}" for p in session.players) + "\n", style="bold")
        first = max(0, len(rows) - room)
        for number, row in enumerate(rows[first:], start=first + 1):
            text.append(f"{number:>5} " + "".join(f"{ellipsis(cell, width - 1):<{width}}" for cell in row) + "\n")
        return text

    # ----- keys -----
    COMMANDS = {"roll": "Roll", "wager": "Wager", "end turn": "EndTurn"}

    def command(self, what: str):
        from engine.games import wager

        return getattr(wager, self.COMMANDS[what])()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "play" and parameters:
            if self.session.to_act is None or self.is_bot_turn() or self.command(parameters[0]) not in self.session.commands():
                return None  # greyed out: not legal now
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if self.session.outcome is not None:
            return f"the game is over: {self.session.outcome.summary}"
        if self.is_bot_turn():
            return f"{self.session.players[self.session.state.seat].name} (a bot) is playing; Space lets it finish"
        try:
            self.session.game.decide(self.session.state, self.command(parameters[0]))
        except ValueError as error:
            return str(error)
        return "not now"

    def is_bot_turn(self) -> bool:
        seat = self.session.to_act
        return seat is not None and self.session.players[seat].bot

    def action_play(self, what: str) -> None:
        before = len(self.session.events)
        if self.attempt(lambda: self.session.play(self.command(what))):
            self.status(self.session.describe(len(self.session.events) - 1) if len(self.session.events) > before else what)
        self.redraw()
        self.schedule_bots()

    def action_odds(self) -> None:
        from engine.bots import wager as bots

        state = self.session.state
        if self.session.to_act is None or self.is_bot_turn() or not state.can_wager or state.normal_left:
            self.status("the odds are for the moment you may wager: after your normal rolls", error=True)
            return
        chances = bots.win_chances(state)
        better = "wager" if chances["wager"] > chances["stop"] else "stop"
        self.status(f"your chance of winning: wager {chances['wager']:.1%}, stop {chances['stop']:.1%} "
                    f"(best play: {better})")

    # ----- bots -----
    def schedule_bots(self) -> None:
        if self.bot_timer is None and self.is_bot_turn():
            self.bot_timer = self.set_timer(BOT_PACE, self.bot_step)

    def play_bot(self) -> bool:
        """One move of the bot whose turn it is, through the same engine API as a player's key."""
        from engine.bots import wager as bots

        player = self.session.players[self.session.to_act]
        if not self.attempt(lambda: self.session.play(bots.choose(self.session.state, player.style or "best"))):
            return False  # the save could not be written: the timer tries again, Space too
        self.status(f"{player.name} (bot): {self.session.describe(len(self.session.events) - 1)}")
        return True

    def bot_step(self) -> None:
        self.bot_timer = None
        if self.is_bot_turn():
            self.play_bot()
            self.redraw()
            self.schedule_bots()

    def action_skip(self) -> None:
        if not self.is_bot_turn():
            self.status("no bot is playing now", error=True)
            return
        if self.bot_timer is not None:
            self.bot_timer.stop()
            self.bot_timer = None
        while self.is_bot_turn() and self.play_bot():
            pass
        self.redraw()

    def action_undo(self) -> None:
        if self.bot_timer is not None:
            self.bot_timer.stop()
            self.bot_timer = None
        super().action_undo()
        self.schedule_bots()

    def action_redo(self) -> None:
        super().action_redo()
        self.schedule_bots()
