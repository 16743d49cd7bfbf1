"""A new hall game from the Hall screen (its `n`): what `dicehall host` does, by keyboard. The game,
the wager's number of seats, which seat is yours, each other seat open or a bot of one of the
game's styles, the game's options (a journal's deck and its rulings over the deck's settings), and
your name; then Hall.host opens it and the game's screen (the waiting screen until its seats are
full) takes this screen's place."""
from __future__ import annotations

from dicehall.engine import get_game
from dicehall.engine.games import CATALOGUE, entry_of, journal
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.saves import SaveError
from dicehall.saves.box import on_box
from dicehall.saves.decks import hall_deck, hall_decks
from dicehall.saves.hall import Hall, login_name
from dicehall.saves.hall.files import WATCHER_POLICIES
from dicehall.tui.screens.base import SetupScreen
from dicehall.tui.screens.hall.match import MatchChoice

# the games of several players first, then the solo ones, each in the catalogue's order
GAMES = tuple(entry.id for entry in sorted((e for e in CATALOGUE if e.playable), key=lambda e: not e.several_players))


def host_choices(game: str) -> tuple:
    """The game's own options offered here: (key, label, values, words), the first value the default;
    a deck choice offers the admin's decks in the hall too (by name: no path is ever typed here)."""
    choices = []
    for key, label, values, words in getattr(get_game(game), "HOST_CHOICES", ()):
        if key == "deck":
            names = tuple(hall_decks())
            values, words = values + names, words + tuple(f"{name} (the admin's deck)" for name in names)
        choices.append((key, label, values, words))
    return tuple(choices)


def bot_styles(game: str) -> tuple[str, ...]:
    return getattr(get_game(game), "BOT_STYLES", ())


LABEL = 16  # the width of a line's label
WATCHERS_WORDS = {"open": "welcome, and may write messages", "quiet": "welcome, reading messages only",
                  "none": "none until the game is over"}


def seat_words(kind: str) -> str:
    return "open (for another player)" if kind == "open" else f"a bot, {kind.partition(':')[2]}"


class HallHostScreen(SetupScreen):
    """The choices of `dicehall host`, a line each; s opens the game in the hall."""

    HEADING = "A new game in the hall"
    LIST_ID = "hall-host"
    LINE_WORDS = True  # a journal's rulings: the SRD's words under the list
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it (Enter on your name asks for it; "
                  "Enter alone there: your login name). Each seat but yours is open, for another player to "
                  "join from their terminal (the Hall screen's j), or a bot of one of the "
                  "game's styles. Watchers: welcome (the default), welcome but reading the messages only, or "
                  "kept off the game until it is over. A journal's rulings rule in its deck's place: the deck's own "
                  "setting is the default, and the SRD's words for the line under the cursor are shown below the "
                  "list. s opens the game: its screen waits until every seat is taken. "
                  "q or Esc goes back to the Hall screen; nothing is made until s.")

    def __init__(self, hall: Hall | None = None) -> None:
        super().__init__()
        self.hall = hall or Hall()
        self.game = GAMES[0]
        self.count = 2  # the seats of a game whose number of seats is chosen here (the wager's)
        self.you = 0  # your seat, from 0
        self.kinds: dict[str, list[str]] = {}  # per game: each seat's "open" or "bot:STYLE" (yours is ignored)
        self.options = {game: {key: values[0] for key, _, values, _ in host_choices(game)} for game in GAMES}
        self.player_name = ""
        self.watchers = "open"
        self.rulings: dict = {}  # the journal's rulings chosen here, over its deck's own settings
        self.decks_read: dict[str, journal.Deck] = {}  # the journal's decks by name, each read once
        self.match = MatchChoice()  # one game, a match of N, or a round-robin (tui/screens/hall/match.py)

    def journal_deck(self) -> journal.Deck:
        """The journal's deck chosen here: the sample, or one of the admin's decks in the hall by name
        (never a path, on a box or off one); DeckError in one line if it cannot be read."""
        name = self.options[journal.ID]["deck"]
        if name not in self.decks_read:
            self.decks_read[name] = journal.sample_deck() if name == "sample" else hall_deck(name)
        return self.decks_read[name]

    def deck_settings(self) -> dict:
        """The chosen deck's own settings, the rulings' defaults (the SRD's while it cannot be read: s
        then says why)."""
        try:
            return self.journal_deck().settings
        except DicehallError:
            return journal.Deck(title="").settings

    def line_words(self, key: str) -> str:
        """The SRD's words for the highlighted ruling (nothing on other lines)."""
        return journal.RULING_WORDS[key.removeprefix("ruling:")][1] if key.startswith("ruling:") else ""

    def help_title(self) -> str:
        return "The hall: a new game"

    def seat_counts(self) -> tuple[int, ...]:
        """The numbers of seats the game chosen may have (the catalogue's fewest to most)."""
        fewest, most = entry_of(self.game).seats
        return tuple(range(fewest, most + 1))

    def seats(self) -> int:
        counts = self.seat_counts()
        return self.count if len(counts) > 1 else counts[0]

    def seat_kinds(self) -> list[str]:
        """Each seat's kind in the game chosen, as many as it has seats (changed in place)."""
        kinds = self.kinds.setdefault(self.game, [])
        kinds.extend(["open"] * (self.seats() - len(kinds)))
        del kinds[self.seats():]
        return kinds

    def seat_label(self, seat: int) -> str:
        names = getattr(get_game(self.game), "SEAT_NAMES", ())
        colour = f" ({names[seat]})" if seat < len(names) else ""
        return f"Seat {seat + 1}{colour}:"

    def rows(self) -> list[tuple[str, str]]:
        rows = [("game", f"{'Game:':<{LABEL}}{get_game(self.game).TITLE}")]
        if len(self.seat_counts()) > 1:
            rows.append(("count", f"{'Seats:':<{LABEL}}{self.count}"))
        rows.extend(self.match.rows(self.game, self.seats(), LABEL))
        if self.seats() > 1 and self.match.kind != "round":  # a round-robin's seats are its players'
            if not self.match.kind:  # a match's host sits in seat 1 of its first game
                rows.append(("you", f"{'Your seat:':<{LABEL}}{self.seat_label(self.you).rstrip(':')}"))
            for seat, kind in enumerate(self.seat_kinds()):
                if seat != self.you:
                    rows.append((f"seat{seat}", f"{self.seat_label(seat):<{LABEL}}{seat_words(kind)}"))
        for key, label, values, words in host_choices(self.game):
            rows.append((f"option:{key}", f"{label + ':':<{LABEL}}{words[values.index(self.options[self.game][key])]}"))
        if self.game == journal.ID:
            for key, label, value in journal.ruling_lines(self.deck_settings(), self.rulings):
                rows.append((f"ruling:{key}", f"{label + ':':<{LABEL - 1}} {value}"))
        rows.append(("watchers", f"{'Watchers:':<{LABEL}}{WATCHERS_WORDS[self.watchers]}"))
        default = clean_text(login_name(), 40)
        if on_box():  # the name the admin gave this player's key: shown, never typed
            rows.append(("name", f"{'Your name:':<{LABEL}}{default} (your key's name)"))
        else:
            rows.append(("name", f"{'Your name:':<{LABEL}}{self.player_name or default + ' (your login name)'}"))
        rows.append(("start", "Open the game in the hall (s)"))
        return rows

    def action_change(self, step: int = 1) -> None:
        key = self.current()
        if self.match.change(self, key, step):
            return
        if key == "game":
            self.game = GAMES[(GAMES.index(self.game) + step) % len(GAMES)]
            self.you = min(self.you, self.seats() - 1)
        elif key == "count":
            counts = self.seat_counts()
            self.count = counts[(counts.index(self.count) + step) % len(counts)]
            self.you = min(self.you, self.count - 1)
        elif key == "you":
            self.you = (self.you + step) % self.seats()
        elif key.startswith("seat"):
            kinds = self.seat_kinds()
            seat = int(key.removeprefix("seat"))
            choices = ["open"] + [f"bot:{style}" for style in bot_styles(self.game)]
            kinds[seat] = choices[(choices.index(kinds[seat]) + step) % len(choices)]
        elif key.startswith("option:"):
            name = key.removeprefix("option:")
            values = next(values for k, _, values, _ in host_choices(self.game) if k == name)
            chosen = self.options[self.game]
            chosen[name] = values[(values.index(chosen[name]) + step) % len(values)]
            if self.game == journal.ID and name == "deck":
                self.check_deck()
        elif key.startswith("ruling:"):
            self.rulings = journal.next_rulings(self.rulings, key.removeprefix("ruling:"), step, self.deck_settings())
            self.say_if_endless()
        elif key == "watchers":
            self.watchers = WATCHER_POLICIES[(WATCHER_POLICIES.index(self.watchers) + step) % len(WATCHER_POLICIES)]
        elif key == "name":
            if on_box():
                self.status(f"on this box you play as {clean_text(login_name(), 40)}, the name your key has")
            else:
                self.ask_player_name()
            return
        elif key == "start":
            self.action_start()
            return
        self.redraw()

    def ask_player_name(self) -> None:  # not SetupScreen's ask_name: the player's name has no choice line
        from dicehall.tui.screens.dialogs import AskScreen

        default = clean_text(login_name(), 40)

        def named(text: str | None) -> None:
            if text is not None:
                self.player_name = clean_text(text, 40).strip()  # shown to the others: cleaned, capped
                self.redraw()

        self.app.push_screen(AskScreen(f"Your name at the table (Enter alone: {default}):", self.player_name,
                                       placeholder=default), named)

    def check_deck(self) -> None:
        """The journal's deck just chosen, read now: a deck that cannot be played says so at once."""
        try:
            deck = self.journal_deck()
        except DicehallError as error:
            self.status(clean_text(str(error), 300), error=True)
        else:
            self.status(f"deck: {clean_text(deck.title, 60)}")
            self.say_if_endless()

    def say_if_endless(self) -> None:
        """The deck and the rulings chosen: a game of them that could never end is said at once (s refuses it)."""
        try:
            never = journal.endless(self.journal_deck(), self.rulings)
        except DicehallError:  # a deck that cannot be read: check_deck has said so
            return
        if never:
            self.status(never, error=True)

    def host_options(self) -> dict:
        """The options as `dicehall host --option` gives them (the troll's variant is its own flag; a
        journal's deck read here, the rulings beside it)."""
        if self.game == journal.ID:
            return {"deck": self.journal_deck().record(), **self.rulings}
        options = dict(self.options[self.game])
        variant = options.pop("variant", "none")
        if variant != "none":
            options[variant] = True
        return options

    def action_start(self) -> None:
        kinds = ["player" if seat == self.you else kind for seat, kind in enumerate(self.seat_kinds())]
        if self.seats() == 1:
            kinds = ["player"]
        name = self.player_name or login_name()
        try:
            if self.match.start(self, self.game, kinds, name, self.host_options(), self.watchers):
                return
            game = self.hall.host(self.game, kinds, name, options=self.host_options(),
                                  watchers=self.watchers)
        except (SaveError, OSError, ValueError, DicehallError) as error:  # a hall it cannot write, a deck gone: one line
            self.status(clean_text(str(error), 300), error=True)
            return
        self.app.pop_screen()
        self.app.open_hall_game(game)
