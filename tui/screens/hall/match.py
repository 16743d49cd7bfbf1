"""Matches in the hall, by keyboard (saves/hall/match_book.py does the work): the host screen's Match
and Players lines (MatchChoice), the hall's matches (MatchesScreen, the Hall screen's `m`) and one
match's table (MatchTableScreen): its players, games, points and standings, its games and who plays
whom next, with `p` to play your next game (opened, or taken up), `a` to accept a round-robin's
invitation and `W` to withdraw. A game opened here comes back here when it is left. Every name is
another player's text: shown plain, cut to its column."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall.engine import get_game
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.saves import error_line
from dicehall.saves.box import on_box
from dicehall.saves.hall import Hall, login_name
from dicehall.saves.hall.match_book import MatchBook, MatchEntry
from dicehall.saves.hall.matches import MATCH_LENGTHS, MOST_PLACES, ROUND_LENGTHS, Standing, match_games
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen, ConfirmScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, clip

REFRESH_EVERY = 1.0  # seconds between looks at the match (the other players' games move on)
NAME = 18  # a player's column

# the host screen's Match line: (kind, games), the first one game, no match
MATCH_CHOICES = (("", 1),) + tuple(("match", n) for n in MATCH_LENGTHS) + tuple(("round", n) for n in ROUND_LENGTHS)


def length_words(kind: str, games: int) -> str:
    if kind == "match":
        return f"a match, best of {games}"
    if kind == "round":
        return f"a round-robin, {games} game{'s' if games > 1 else ''} each"
    return "one game"


def title_of(table: Standing, match_id: str) -> str:
    """"Towers 9telqy: a match, best of 3"."""
    return f"{table.fold.title} {match_id}: {length_words(table.fold.kind, table.fold.games_each)}"


def pairing_words(table: Standing, seats: tuple[int, int]) -> str:
    """Who plays a game, seat 1 first, with the seats' names where the game has them ("Ann (Light) v Bob (Dark)")."""
    names = table.names()
    colours = getattr(get_game(table.fold.game), "SEAT_NAMES", ())
    return " v ".join(clean_text(names[place], NAME) + (f" ({colours[n]})" if n < len(colours) else "")
                      for n, place in enumerate(seats))


class MatchChoice:
    """The host screen's Match line (one game, best of 3/5/7, a round-robin) and a round-robin's
    Players line, and what its `s` does with them: a match hosted, its table opened under its game."""

    def __init__(self) -> None:
        self.choice = 0
        self.invited: list[str] = []  # a round-robin's other players, by name

    @property
    def kind(self) -> str:
        return MATCH_CHOICES[self.choice][0]

    def rows(self, game: str, seats: int, label: int) -> list[tuple[str, str]]:
        """The lines for a game of two seats (the wager's only when it has two)."""
        if not match_games(game) or seats != 2:
            return []
        rows = [("match", f"{'Match:':<{label}}{length_words(*MATCH_CHOICES[self.choice])}")]
        if self.kind == "round":
            shown = ", ".join(clean_text(name, 20) for name in self.invited) or "none yet: Enter names them"
            rows.append(("players", clip(f"{'Invited:':<{label}}{shown}", 74)))
        return rows

    def change(self, screen, key: str, step: int) -> bool:
        """Handle Enter/Left/Right on the match's lines; False for another line."""
        if key == "match":
            self.choice = (self.choice + step) % len(MATCH_CHOICES)
            if self.kind:
                screen.you = 0  # the host sits in seat 1 of a match's first game; the seats change every game
            screen.redraw()
            return True
        if key != "players":
            return False

        def named(text: str | None) -> None:
            if text is not None:
                names = [clean_text(name, 40).strip() for name in text.split(",")]
                self.invited = list(dict.fromkeys(name for name in names if name))[: MOST_PLACES - 1]
                screen.redraw()

        screen.app.push_screen(AskScreen("The players you invite, by name, separated by commas:",
                                         ", ".join(self.invited)), named)
        return True

    def start(self, screen, game: str, kinds: list[str], name: str, options: dict, watchers: str) -> bool:
        """Host the match chosen (False: one game, the host screen's own); its table opens, with the
        first game of a match above it (the host in seat 1: the seats change every game). A refusal
        is the host screen's to show."""
        if self.kind == "" or not match_games(game) or len(kinds) != 2:
            return False
        kind, games = MATCH_CHOICES[self.choice]
        if kind == "round" and len(self.invited) < 2:
            screen.status("a round-robin needs at least two players invited besides you (the Invited line)", error=True)
            return True
        opponent = next((k for k in kinds if k != "player"), "open")
        match_id, first = MatchBook(screen.hall).host(game, kind, games, [name, *self.invited], name,
                                                      opponent=opponent, options=options, watchers=watchers)
        screen.app.pop_screen()
        screen.app.push_screen(MatchTableScreen(screen.hall, match_id, name))
        if first is not None:
            screen.app.open_hall_game(first)
        return True


class MatchLooks(KeyedScreen):
    """A screen that shows the hall's matches as they stand: looked at when shown, every second, and again on return."""

    def on_mount(self) -> None:
        self.reload()
        self.set_interval(REFRESH_EVERY, self.reload)

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        raise NotImplementedError


class MatchTableScreen(MatchLooks):
    """One match: the score, the table, its games and who plays whom next."""

    HALL_HOME = True  # a hall game opened here comes back here when it is left (app.hall_lobby)
    BINDINGS = [
        Binding("p", "play", "Play", tooltip="your next game of the match: opened, or taken up if it waits for you"),
        Binding("a", "accept", "Accept", tooltip="take the place the round-robin keeps for you"),
        Binding("W", "withdraw", "Withdraw", tooltip="leave the match for good: your games not played are lost"),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("A match is N games between two players, the seats changing every game (who moves first, "
                  "and Towers' colour); it ends once one player cannot be caught. A round-robin pairs every "
                  "invited player with every other. A win is 1 point, a draw 1/2 each; a game ended because a "
                  "player was idle on their turn is theirs lost. Only games that are over and verify (their dice "
                  "re-derived from the revealed seed) count. p plays your next game: it opens it, with the other "
                  "player's seat kept for them, or takes up the one waiting for you. a accepts an invitation. "
                  "W withdraws from the match (your games not played are lost). Leaving a game comes back here.")

    def __init__(self, hall: Hall, match_id: str, name: str = "") -> None:
        super().__init__()
        self.hall = hall
        self.book = MatchBook(hall)
        self.match_id = match_id
        self.player = name  # who plays here (asked once off a box; the key's name on one)
        self.table: Standing | None = None

    def help_title(self) -> str:
        return "A match in the hall"

    def compose(self) -> ComposeResult:
        yield Plain(Text(f"Match {self.match_id}", style="bold"), classes="title")
        with VerticalScroll(id="match-body"):
            yield Plain("", id="match-table")
        yield StatusLine("p plays your next game of the match")
        yield KeysFooter()

    def reload(self) -> None:
        if not self.is_current:
            return
        try:
            table = self.book.read(self.match_id)
        except (DicehallError, OSError) as error:
            self.status(error_line(error), error=True)
            return
        self.table = table
        self.query_one(".title", Plain).show(Text(clip(title_of(table, self.match_id), 78), style="bold"))
        self.query_one("#match-table", Plain).show(self.body(table))
        self.refresh_bindings()

    def body(self, table: Standing) -> Text:
        text = Text()
        text.append(clip(table.score_line(), 76) + "\n", style="bold")
        if table.damage:
            text.append(clip(f"DAMAGED: {table.damage}", 76) + "\n", style="bold")
        text.append(f"\n  {'#':>2}  {'PLAYER':<{NAME}}  {'PLAYED':>6}  {'W':>2}  {'D':>2}  {'L':>2}  POINTS\n")
        for n, row in enumerate(table.rows, 1):
            place = table.fold.places[row.place]
            mark = " (withdrew)" if row.resigned else "" if place.taken else " (invited)"
            text.append(clip(f"  {n:>2}  {clean_text(row.name, NAME):<{NAME}}  {row.played:>6}  {row.wins:>2}  "
                             f"{row.draws:>2}  {row.losses:>2}  {float(row.points):g}{mark}", 76) + "\n")
        text.append("\nGames:\n")
        for number, score in enumerate(table.scores, 1):
            state = score.problem or score.words or score.state
            text.append(clip(f"  {number:>2}  {score.game.id}  {pairing_words(table, score.game.seats)}: "
                             f"{clean_text(state, 120)}", 76) + "\n")
        if not table.scores:
            text.append("  none yet\n")
        busy = {score.game.pair for score in table.scores if score.points is None and not score.problem}
        upcoming = [(pair, number) for pair, number in table.next_games() if pair not in busy]
        if upcoming:
            text.append("\nNext (who plays whom):\n")
            for pair, number in upcoming:
                seats = pair if number % 2 == 0 else (pair[1], pair[0])
                text.append(clip(f"  {pairing_words(table, seats)} (game {number + 1} of {table.fold.games_each})", 76) + "\n")
        return text

    # ----- keys -----
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        table = self.table
        if action in ("play", "withdraw"):
            return table is not None and not table.over or None
        if action == "accept":
            return (table is not None and table.fold.kind == "round" and not table.over
                    and any(not place.taken for place in table.fold.places)) or None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        table = self.table
        if table is not None and table.over:
            return f"the match is over: {table.decided}"
        if action == "accept":
            return "every invited player has accepted" if table is not None and table.fold.kind == "round" \
                else "a match's players are those of its first game"
        return super().why_disabled(action, parameters)

    def with_name(self, then) -> None:
        """Go on as the player at this screen: the key's name on a box, else the name given (asked once)."""
        if on_box() or self.player:
            then(self.player or login_name())
            return
        default = clean_text(login_name(), 40)

        def named(text: str | None) -> None:
            if text is None:
                self.status("nothing done")
                return
            self.player = clean_text(text, 40).strip() or default
            then(self.player)

        self.app.push_screen(AskScreen(f"Your name in match {self.match_id} (Enter alone: {default}):",
                                       placeholder=default), named)

    def act(self, what) -> bool:
        """Run a change to the match; its refusal is one line. True if it was done."""
        try:
            what()
        except (DicehallError, OSError) as error:  # HallError, SeatHeld: one line
            self.status(error_line(error), error=True)
            return False
        self.reload()
        return True

    def action_play(self) -> None:
        def play(name: str) -> None:
            games: list = []
            if self.act(lambda: games.append(self.book.next_game(self.match_id, name))):
                self.app.open_hall_game(games[0])

        self.with_name(play)

    def action_accept(self) -> None:
        def accept(name: str) -> None:
            if self.act(lambda: self.book.accept(self.match_id, name)):
                self.status(f"you are in round-robin {self.match_id}: p plays your next game")

        self.with_name(accept)

    def action_withdraw(self) -> None:
        def withdraw(name: str) -> None:
            def answered(yes: bool | None) -> None:
                if yes and self.act(lambda: self.book.resign(self.match_id, name)):
                    self.status(f"you withdrew from match {self.match_id}")

            self.app.push_screen(ConfirmScreen(f"Withdraw from match {self.match_id}? Your games not played "
                                               f"are lost, and it cannot be undone."), answered)

        self.with_name(withdraw)

    def action_refresh(self) -> None:
        self.reload()
        self.status("the match looked at just now")

    def action_back(self) -> None:
        self.app.pop_screen()


def match_row(entry: MatchEntry) -> Text:
    """A match in two lines (its id, game and length, then its running score), or one DAMAGED line."""
    row = Text()
    if entry.table is None:
        row.append(f"{clean_text(entry.id, 6):<6}  ", style="bold")
        row.append("DAMAGED: ", style="bold")
        row.append(clip(clean_text(entry.problem, 300), 57))
        return row
    table = entry.table
    row.append(f"{entry.id:<6}  ", style="bold")
    row.append(clip(f"{table.fold.title}: {length_words(table.fold.kind, table.fold.games_each)}", 50))
    row.append(f"  {'over' if table.over else 'in progress'}" + ("  DAMAGED" if table.damage else ""),
               style="bold" if table.over else "")
    row.append("\n" + clip(f"  {table.score_line()}", 74))
    return row


class MatchesScreen(MatchLooks):
    """The hall's matches and round-robins, those in progress first."""

    BINDINGS = [
        Binding("enter", "open", "Open", priority=True),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("The hall's matches (N games between two players, the seats changing every game) and "
                  "round-robins (every invited player against every other), with their running score. Enter "
                  "opens one: its table, its games and who plays whom next, and p there plays your next game. "
                  "A new match or round-robin is opened from the Hall screen's n (its Match line).")

    def __init__(self, hall: Hall) -> None:
        super().__init__()
        self.hall = hall
        self.book = MatchBook(hall)
        self.entries: list[MatchEntry] = []

    def help_title(self) -> str:
        return "The hall's matches"

    def compose(self) -> ComposeResult:
        yield Plain(Text("The hall's matches", style="bold"), classes="title")
        yield OptionList(id="matches-list")
        yield StatusLine("Enter opens a match: its table and its games")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def reload(self) -> None:
        if not self.is_current:
            return
        try:
            entries = self.book.listing()
        except (DicehallError, OSError) as error:
            self.status(error_line(error), error=True)
            return
        if [(e.id, e.problem, e.table and e.table.score_line()) for e in entries] == \
                [(e.id, e.problem, e.table and e.table.score_line()) for e in self.entries] and self.entries:
            return
        self.entries = entries
        menu = self.query_one(OptionList)
        keep = menu.highlighted
        menu.clear_options()
        menu.add_options(Option(match_row(entry), id=f"match:{entry.id}") for entry in entries)
        if entries:
            menu.highlighted = min(keep or 0, len(entries) - 1)
        title = f"The hall's matches: {len(entries)}" if entries else "The hall has no match yet (the Hall screen's n opens one)"
        self.query_one(".title", Plain).show(Text(clip(title, 78), style="bold"))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "open":
            return bool(self.entries) or None
        return True

    def action_open(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not 0 <= index < len(self.entries):
            return
        entry = self.entries[index]
        if entry.table is None:
            self.status(clean_text(entry.problem, 300), error=True)
            return
        self.app.push_screen(MatchTableScreen(self.hall, entry.id))

    def action_refresh(self) -> None:
        self.reload()
        self.status("the hall's matches looked at just now")

    def action_back(self) -> None:
        self.app.pop_screen()
