"""Dead Man's Wager at the table: the scores (`table`), the keys to roll, wager and end the turn,
your odds, and the bots playing at a readable pace."""
from __future__ import annotations

import threading

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.timer import Timer

from dicehall.engine.games import entry_of
from dicehall.tui.screens.base import GameScreen, with_deal
from dicehall.tui.screens.wager.table import Banner, ScoreSheet, ScoreTable
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, title_line

BOT_PACE = 0.7  # seconds between a bot's moves, so people can follow them


def warm_odds() -> None:
    """Compute the best bot's tables (about two seconds of CPU) in a thread while people sit down, so
    the first bot move does not freeze the screen. A game of people alone never asks for them unless
    `h` does (which works them out in a thread then): on a shared box each terminal would pay them."""
    from dicehall.engine.bots import wager as bots

    threading.Thread(target=bots.tables, name="wager-odds", daemon=True).start()


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
            yield ScoreTable("", id="table")
            yield Banner("", id="banner")
            yield ScoreSheet("", id="sheet")
        yield StatusLine("r: roll   w: wager   e: end the turn   h: odds   ?: all keys")
        yield KeysFooter()

    def on_mount(self) -> None:
        if any(player.bot for player in self.session.players):
            warm_odds()
        self.schedule_bots()  # GameScreen's on_mount has drawn the table; a bot may be first

    def redraw(self) -> None:
        session = self.session
        outcome = session.outcome
        name = session.labels.save_name
        head = outcome.summary.upper() if outcome else f"round {session.state.round}"
        title = title_line("Dead Man's Wager: ", name, f"  {head}  (undos {session.undos})", self.size.width - 2)
        self.query_one("#title", Plain).show(Text(with_deal(title, session, self.size.width - 2), style="bold"))
        self.query_one(ScoreTable).draw(session)
        self.query_one(Banner).draw(session)
        self.query_one(ScoreSheet).draw(session)
        self.refresh_bindings()

    # ----- keys -----
    # the engine's command class of each key's word (not Textual's COMMANDS: the command palette's)
    COMMAND_CLASSES = {"roll": "Roll", "wager": "Wager", "end turn": "EndTurn"}

    def command(self, what: str):
        from dicehall.engine.games import wager

        return getattr(wager, self.COMMAND_CLASSES[what])()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "play" and parameters:
            if self.session.to_act is None or self.is_bot_turn() or self.command(parameters[0]) not in self.session.commands():
                return None  # greyed out: not legal now
        if action == "odds" and not self.odds_now():
            return None  # left out of the footer until there is a wager to weigh
        return True

    def odds_now(self) -> bool:
        state = self.session.state
        return self.session.to_act is not None and not self.is_bot_turn() and state.can_wager and not state.normal_left

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if self.session.outcome is not None:
            return f"the game is over: {self.session.outcome.summary}"
        if self.is_bot_turn():
            return f"{self.session.players[self.session.state.seat].name} (a bot) is playing; Space lets it finish"
        if action == "odds":
            return "the odds are for the moment you may wager: after your normal rolls"
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
        from dicehall.engine.bots import wager as bots

        if not self.assisted(self.session, "hint"):  # the odds name the best play: a hint
            return
        asked_at = len(self.session.events)
        if bots.tables_ready():
            self.show_odds(asked_at)
            return
        # the first odds of a game of people alone: the tables worked out in a thread, the keys still answering
        self.status("working out the odds (a few seconds, once)...")

        app = self.app

        def work() -> None:
            bots.tables()
            try:
                app.call_from_thread(self.show_odds, asked_at)
            except RuntimeError:
                pass  # the app has ended meanwhile

        # a daemon thread, as warm_odds': a hang-up or q meanwhile ends the app at once, not after the tables
        threading.Thread(target=work, name="wager-odds", daemon=True).start()

    def show_odds(self, asked_at: int) -> None:
        """The odds `h` asked for when the game had `asked_at` events, if it has not moved on since."""
        from dicehall.engine.bots import wager as bots

        if not self.is_attached:
            return  # left while the tables were worked out
        if len(self.session.events) != asked_at or not self.odds_now():
            self.status("the odds were for a moment that has passed: h asks again")
            return
        chances = bots.win_chances(self.session.state)
        better = "wager" if chances["wager"] > chances["stop"] else "stop"
        self.status(f"your chance of winning: wager {chances['wager']:.1%}, stop {chances['stop']:.1%} "
                    f"(best play: {better})")

    # ----- bots -----
    def schedule_bots(self) -> None:
        if self.bot_timer is None and self.is_bot_turn():
            self.bot_timer = self.set_timer(BOT_PACE, self.bot_step)

    def play_bot(self) -> bool:
        """One move of the bot whose turn it is, through the same engine API as a player's key."""
        session = self.session
        assert session.to_act is not None  # is_bot_turn()
        player = session.players[session.to_act]
        bot = entry_of(session.game.ID).bots[player.style or "best"]
        if not self.attempt(lambda: session.play(bot(session.state, session.seed, len(session.events)))):
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
