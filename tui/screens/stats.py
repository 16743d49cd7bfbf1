"""The Stats screen (the launcher's s): `dicehall stats` on a screen, counted in a worker (a first
count of many saves reads each one), with each game's recent results as a small text chart (W won,
L lost, D drawn: letters, never colour alone) and its measure over the last 30 games; p chooses a
player, g a game, keyboard only."""
from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll


from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.reading import SCROLL_BINDINGS
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine


class StatsScreen(KeyedScreen):
    BINDINGS = [
        *SCROLL_BINDINGS,
        Binding("p", "player", "Player", tooltip="the next player's figures alone (then everyone again)"),
        Binding("g", "game", "Game", tooltip="the next game alone (then every game again)"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("Counted from the saves: a game unfinished and untouched for 14 days is abandoned, not lost; "
                  "bots' seats are no players and bots' own games are counted apart; a damaged save is listed, "
                  "not counted. recent: the last 30 finished games, oldest first, W won, L lost, D drawn. "
                  "The chart in brackets is the game's measure over them, from its lowest (.) to its highest (@); "
                  "- where a game has none (a loss has no winning total).")

    def __init__(self) -> None:
        super().__init__()
        self.game: str | None = None
        self.player: str | None = None
        self.names: list[str] = []  # every player's name, as the first count found them
        self.counted = False

    def compose(self) -> ComposeResult:
        yield Plain("Statistics", id="title", classes="title")
        with VerticalScroll(id="stats-scroll"):
            yield Plain("", id="stats-text")
        yield StatusLine("counting the saves...")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.count()

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def count(self) -> None:
        from dicehall import saves
        from dicehall.saves.stats import collect, stats_lines

        game, player = self.game, self.player
        said: list[str] = []  # a damaged index of the results: one line, after the counts
        try:
            stats = collect(game, player, warn=said.append)
            # the names p goes through: everyone's, counted while no player is chosen
            names = sorted({t.player for t in stats.players}, key=str.casefold) if player is None else self.names
            lines = stats_lines(stats, None, player, width=76)
        except Exception as error:  # a folder that cannot be listed: one line, never a traceback
            self.app.call_from_thread(self.status, f"the saves could not be counted: {saves.error_line(error)}", True)
            return
        self.app.call_from_thread(self.counted_now, lines, names, said[0] if said else "")

    def counted_now(self, lines: list[str], names: list[str], said: str = "") -> None:
        if not self.is_mounted:
            return
        self.names = names
        self.counted = True
        self.query_one("#stats-text", Plain).show("\n".join(lines))
        self.query_one("#stats-scroll", VerticalScroll).scroll_home(animate=False)
        shown = [f"game {self.game}" if self.game else "every game",
                 f"player {self.player}" if self.player else "everyone"]
        self.query_one("#title", Plain).show(f"Statistics: {', '.join(shown)}")
        self.status(said or "PgDn for more; p a player, g a game; q goes back")

    def action_scroll(self, lines: int) -> None:
        self.query_one("#stats-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_player(self) -> None:
        if not self.names:
            self.status("no player to choose: no person's game is saved yet", error=True)
            return
        at = self.names.index(self.player) + 1 if self.player in self.names else 0
        self.player = self.names[at] if at < len(self.names) else None
        self.recount()

    def action_game(self) -> None:
        from dicehall.engine.games import CATALOGUE

        ids = [entry.id for entry in CATALOGUE if entry.playable]
        at = ids.index(self.game) + 1 if self.game in ids else 0
        self.game = ids[at] if at < len(ids) else None
        self.recount()

    def recount(self) -> None:
        self.status("counting the saves...")
        self.count()

    def action_back(self) -> None:
        self.app.pop_screen()
