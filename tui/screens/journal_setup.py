"""The journal's setup: the sample deck, a deck pasted in or a deck file (on a shared box the
admin's decks by name), the rulings over the deck's own settings, and the way to the bookshelf."""
from __future__ import annotations

from textual.app import ComposeResult

from dicehall.engine.errors import DicehallError
from dicehall.engine.games import journal
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import SetupScreen
from dicehall.tui.screens.dialogs import AskScreen, PasteScreen
from dicehall.tui.widgets import Plain


class JournalSetupScreen(SetupScreen):
    """A new journal: the sample deck, a deck pasted in, and a deck file: off a box its path typed, on
    a shared box one of the admin's decks in the hall, chosen by name (saves.decks: never a path)."""

    HEADING = "Journal: a new game"
    LIST_ID = "journal-setup"
    LINE_WORDS = True
    HELP_NOTES = ("The sample deck is 'The Last Watch at Harrow Pass', written for dicehall. Or your "
                  "own deck: a CSV file (card,suite,action,description, as dc-solo-rpg writes it), a TOML "
                  "file with a [game] table and [[card]] tables, or dc-solo-rpg's game file (NAME.game.md) or "
                  "game folder, opened from a file (on a shared box: the hall's decks, which the admin puts in "
                  "its decks folder) or pasted into a box (Ctrl+S takes it). "
                  "The save keeps the whole deck: the file is read once. The rulings' lines (Left/Right) rule "
                  "in the deck's place: the deck's own setting is the default, and the SRD's words for the "
                  "line under the cursor are shown below the list. The bookshelf reads a finished journal. "
                  "The game's name is the journal's title and its export's: a CSV deck's is its file's name "
                  "until you name the game. s starts the game.")

    def __init__(self, seed: int | None = None, name: str = "", **options) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        deck = options.get("deck")
        self.deck: object = deck if isinstance(deck, dict) else "sample"  # the deck itself, as the options hold it
        self.deck_title = journal.deck_from_record(deck).title if isinstance(deck, dict) else ""
        self.rulings = {key: options[key] for key in journal.RULINGS if key in options}  # the player's, over the deck's
        self.title = clean_text(options.get("title", ""), journal.MAX_TITLE)  # the game's name, if the player gave one

    def deck_settings(self) -> dict:
        deck = journal.sample_deck() if self.deck == "sample" else journal.deck_from_record(self.deck)
        return deck.settings

    def line_words(self, key: str) -> str:
        """The SRD's words for the highlighted ruling (nothing on other lines)."""
        return journal.RULING_WORDS[key][1] if key in journal.RULING_WORDS else ""

    def help_title(self) -> str:
        return "Journal: a new game"

    def rows(self) -> list[tuple[str, str]]:
        from dicehall.saves.box import on_box
        from dicehall.saves.decks import hall_decks

        shown = "the sample deck" if self.deck == "sample" else clean_text(self.deck_title, 60)
        if on_box():
            files = [(f"hall:{name}", f"The hall's deck: {name}") for name in hall_decks()]
        else:
            files = [("file", "Open a deck file (type its path)")]
        rulings = [(key, f"{label}:  {value}") for key, label, value in journal.ruling_lines(self.deck_settings(), self.rulings)]
        named = clean_text(self.title or self.deck_record_title(), 44)  # one line at 80 columns
        whose = "yours" if self.title else "the deck's"
        return [("deck", f"Deck:  {shown}"), *files, ("paste", "Paste a deck (TOML, CSV or a dc-solo-rpg game)"),
                ("sample", "Use the sample deck"), ("title", f"The game's name:  {named}  ({whose})"), *rulings,
                ("start", "Start the game (s)"), ("shelf", "The bookshelf: read a finished journal")]

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield widget
            if widget.id == "line-words":  # the chosen deck in short, under the choices: never a line to pick
                yield Plain("", id="deck-summary")

    def redraw(self, keep: int | None = None) -> None:
        super().redraw(keep)
        deck = journal.sample_deck() if self.deck == "sample" else journal.deck_from_record(self.deck)
        self.query_one("#deck-summary", Plain).show("\n".join(f" {line}" for line in journal.deck_summary(deck)[1:]))

    def action_change(self, step: int = 1) -> None:
        key = self.current()
        if key == "start":
            self.action_start()
        elif key == "sample":
            self.chose("sample", "")
        elif key == "paste":
            self.ask_paste()
        elif key == "title":
            self.ask_title()
        elif key.startswith("hall:"):
            self.read_deck(lambda: decks().hall_deck(key[5:]))
        elif key == "file":
            self.ask_path()
        elif key == "shelf":
            self.app.open_bookshelf()
        elif key in journal.RULINGS:
            self.rule(key, step)
        else:
            self.status("the lines below choose the deck")

    def rule(self, key: str, step: int) -> None:
        self.rulings = journal.next_rulings(self.rulings, key, step, self.deck_settings())
        self.redraw()
        self.say_if_endless()

    def say_if_endless(self) -> None:
        """The deck and the rulings chosen: a game of them that could never end is said at once (Start refuses it)."""
        deck = journal.sample_deck() if self.deck == "sample" else journal.deck_from_record(self.deck)
        never = journal.endless(deck, self.rulings)
        if never:
            self.status(never, error=True)

    def deck_record_title(self) -> str:
        return journal.sample_deck().title if self.deck == "sample" else self.deck_title

    def ask_title(self) -> None:
        """The game's name, in the deck's title's place (a CSV deck's title is its file's name)."""
        def check(text: str) -> str | None:
            try:
                text.strip() and journal.title_value(text, "the game's name")
            except DicehallError as error:
                return str(error)
            return None

        def named(text: str | None) -> None:
            if text is not None:  # nothing typed: the deck's own title again
                title = journal.title_value(text, "the game's name") if text.strip() else ""
                self.title = "" if title == self.deck_record_title() else title
                self.redraw()

        self.app.push_screen(AskScreen("The game's name (the journal's title, and its export's):",
                                       self.title or self.deck_record_title(), check=check), named)

    def chose(self, deck: object, title: str) -> None:
        self.deck, self.deck_title, self.title = deck, title, ""  # a new deck: its own name until the player gives one
        self.status(f"deck: {clean_text(title, 60) or 'the sample deck'}")
        self.redraw()
        self.say_if_endless()

    def read_deck(self, read) -> str | None:
        """Take the deck `read()` gives; its refusal (one line naming the file and the line) if none."""
        try:
            deck = read()
        except DicehallError as error:
            self.status(str(error), error=True)
            return str(error)
        self.chose(deck.record(), deck.title)
        return None

    def ask_path(self) -> None:
        def check(text: str) -> str | None:
            try:
                journal.load_deck(text.strip())
            except DicehallError as error:
                return str(error)
            return None

        def typed(answer: str | None) -> None:
            if answer is not None:
                self.read_deck(lambda: journal.load_deck(answer.strip()))

        self.app.push_screen(AskScreen("The deck file's path (CSV, TOML or a dc-solo-rpg .game.md):", check=check), typed)

    def ask_paste(self) -> None:
        def check(text: str) -> str | None:
            try:
                decks().pasted_deck(text)
            except DicehallError as error:
                return str(error)
            return None

        def pasted(text: str | None) -> None:
            if text is not None:
                self.read_deck(lambda: decks().pasted_deck(text))

        self.app.push_screen(PasteScreen("Paste a deck (TOML; CSV with a card,suite,action,description header; "
                                         "or a dc-solo-rpg .game.md):",
                                         check=check), pasted)

    def action_start(self) -> None:
        from dicehall import saves

        try:
            named = {"title": self.title} if self.title else {}
            options = journal.check_options({"deck": self.deck, **self.rulings, **named})
            session = saves.new_save(journal.ID, name=self.save_name, seed=self.seed, options=options,
                                     players=saves.solo_players())
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session, replace=True)


def decks():
    """saves.decks, imported when a deck is chosen (the tui reaches files through saves)."""
    from dicehall.saves import decks as module

    return module
