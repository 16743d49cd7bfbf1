"""The launcher: the five games, Continue (saves), Open replay, the hall, Statistics, Rules."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall.engine.errors import DicehallError
from dicehall.engine.games import CATALOGUE
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen, ConfirmScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine

LOGO = "dicehall - a terminal game parlor"


class LauncherScreen(KeyedScreen):
    BINDINGS = [
        Binding("enter", "choose", "Open", show=False),
        Binding("c", "saves", "Continue"),
        Binding("o", "open_replay", "Open replay"),
        Binding("h", "hall", "Hall"),
        Binding("p", "practice", "Practice", show=False, tooltip="practice the marked decisions of your analysed games"),
        Binding("s", "stats", "Stats"),
        Binding("i", "rules", "Rules"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "ask_quit", "Quit (asks first)", show=False),
    ]
    HELP_NOTES = ("Up/Down choose, Enter opens. i shows the rules of the highlighted game; h opens the hall. "
                  "q leaves dicehall; Esc asks first, so an Esc too many on the way back does not end it.")

    def compose(self) -> ComposeResult:
        yield Plain(Text(LOGO, style="bold"), classes="title")
        options: list[Option | None] = []  # None: a separator line
        for entry in CATALOGUE:
            label = Text()
            label.append(f"{entry.title:<33}", style="bold" if entry.playable else "dim")
            label.append(entry.blurb if entry.playable else f"(coming) {entry.blurb}")
            options.append(Option(label, id=f"game:{entry.id}"))
        options.append(None)
        options.append(Option(Text("Continue a saved game    (c)"), id="saves"))
        options.append(Option(Text("Open a replay file       (o)"), id="replay"))
        options.append(Option(Text("Hall: play and watch     (h)"), id="hall"))
        options.append(Option(Text("Practice your mistakes   (p)"), id="practice"))
        options.append(Option(Text("Statistics               (s)"), id="stats"))
        options.append(Option(Text("Rules                    (i)"), id="rules"))
        options.append(Option(Text("Quit                     (q)"), id="quit"))
        yield OptionList(*options, id="menu")
        yield StatusLine("Up/Down and Enter to choose; ? lists every key")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#menu")
    def selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        if choice.startswith("game:"):
            self.start_game(choice[5:])
        elif choice == "saves":
            self.action_saves()
        elif choice == "replay":
            self.action_open_replay()
        elif choice == "hall":
            self.action_hall()
        elif choice == "practice":
            self.action_practice()
        elif choice == "stats":
            self.action_stats()
        elif choice == "rules":
            self.action_rules()
        elif choice == "quit":
            self.app.exit()

    def action_choose(self) -> None:
        self.query_one(OptionList).action_select()

    def start_game(self, game_id: str) -> None:
        from dicehall import saves

        entry = next(e for e in CATALOGUE if e.id == game_id)
        if not entry.playable:
            self.status(f"{entry.title} is coming: it cannot be played yet", error=True)
            return
        title = entry.title
        if self.app.open_setup(game_id):  # a game of several players: its setup screen asks who plays
            return

        module = entry.module
        assert module is not None  # a playable game's
        default = saves.distinct_name(saves.default_name(module, module.check_options({}), ()))

        def taken(name: str) -> str | None:
            name = saves.short_name(name)
            return f"another save is named {name!r} already" if name and name in saves.names_in_use() else None

        def named(name: str | None) -> None:
            if name is None:
                self.status(f"no new {title}: nothing was saved")
                return
            try:
                session = saves.new_save(game_id, name=saves.short_name(name) or default, players=saves.solo_players())
            except (DicehallError, OSError, ValueError) as error:
                self.status(saves.error_line(error), error=True)
                return
            self.app.open_game(session)

        self.app.push_screen(AskScreen(f"Name this {title}: each one is a save you can continue (n renames it in "
                                       f"the saves list). Enter alone names it {default}.",
                                       placeholder=default, check=taken), named)

    def action_saves(self) -> None:
        self.app.open_saves()

    def action_open_replay(self) -> None:
        from dicehall import replays
        from dicehall.replays.text import read_record
        from dicehall.saves import SaveError
        from dicehall.saves.box import on_box
        from dicehall.saves.player_files import record_file

        def opened(path: str | None) -> None:
            if not path:
                return
            try:  # on a shared box a file of the player's replays folder, by its name (never a path)
                session = read_record(record_file(path.strip()))
            except (replays.ReplayError, SaveError) as error:
                self.status(f"{clean_text(Path(path.strip()).name, 40)}: {error}", error=True)
                return
            self.app.open_viewer(session)

        question = ("Name of the replay file in your replays folder (.dhr or .dht):" if on_box()
                    else "Path of the replay file (.dhr or .dht):")
        self.app.push_screen(AskScreen(question, placeholder="game.dhr"), opened)

    def action_hall(self) -> None:
        self.app.open_hall()

    def action_practice(self) -> None:
        self.app.open_practice()

    def action_stats(self) -> None:
        self.app.open_stats()

    def action_rules(self) -> None:
        """The rules of the highlighted game (of the first game when the cursor is elsewhere)."""
        from dicehall.engine.games import get_game

        menu = self.query_one(OptionList)
        option = menu.get_option_at_index(menu.highlighted) if menu.highlighted is not None else None
        game_id = (option.id or "")[5:] if option is not None and (option.id or "").startswith("game:") else ""
        entry = next((e for e in CATALOGUE if e.id == game_id), CATALOGUE[0])
        if not entry.playable:
            self.status("that game is coming: its rules are not written up yet", error=True)
            return
        self.app.open_rules(get_game(entry.id))

    def action_quit(self) -> None:
        self.app.exit()

    def action_ask_quit(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.app.exit()
            else:
                self.status("still here: q leaves at once")

        self.app.push_screen(ConfirmScreen("Leave dicehall?"), answered)
