"""The hall's lobby: the games in the shared hall folder (in progress and finished), refreshed as the
hall changes, with keys to watch one and to join an open seat. Everything shown comes from files
other players wrote: names are shown as plain text, never as markup, and a file that is not a good
game is one DAMAGED line."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import error_line
from dicehall.saves.box import JOIN_KEY, command_hint, on_box
from dicehall.saves.hall import Hall, HallEntry, HallSettings, login_name
from dicehall.saves.hall.match_book import MatchBook
from dicehall.saves.hall.news import latest_news
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.screens.hall.match import MatchesScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, clip

FIRST_FRAME_LOGS = 100  # a hall with more logs than this is first listed by the thread (about 1 s)
REFRESH_EVERY = 1.0  # seconds between looks at the hall (watchers come and go without a write to a log)
ROW_WIDTH = 74  # inside the list's frame and padding at 80 columns
COLUMNS = f"  {'ID':<6}  {'GAME':<16}  {'MOVES':>5}  {'WATCH':>5}  {'LAST MOVE':<11}  STATE"


def short_title(title: str) -> str:
    """A game's title in the game column: "Angry Troll versus Magic Bridge" is "Angry Troll"."""
    return title if len(title) <= 16 else " ".join(title.split()[:2])[:16]


def when(stamp: float) -> str:
    """The last move's time: the hour today, else the date."""
    if not stamp:
        return "-"
    moment = datetime.fromtimestamp(stamp)
    return moment.strftime("%H:%M") if moment.date() == datetime.now().date() else moment.strftime("%Y-%m-%d")


def seat_words(entry: HallEntry) -> str:
    return ", ".join(f"{view.seat + 1} {clean_text(view.words(), 60)}" for view in entry.seats)


def entry_row(entry: HallEntry) -> Text:
    """A game in two lines (its id, game, moves, watchers, last move and state; then its seats; and
    for a game in progress a third, where it stands; and one saying how many copies of its log the
    hall holds, if any), or
    a file that is not a good game in one DAMAGED line (the status line shows the whole reason)."""
    row = Text()
    if entry.problem:
        row.append(f"{clean_text(entry.id, 6):<6}  ", style="bold")
        row.append("DAMAGED: ", style="bold")
        row.append(clip(clean_text(entry.problem, 300), ROW_WIDTH - 17))
        return row
    state = f"over: {clean_text(entry.result, 100)}" if entry.finished else "in progress"
    row.append(f"{entry.id:<6}  ", style="bold")
    row.append(f"{short_title(entry.title):<16}  {entry.moves:>5}  {entry.watchers:>5}  {when(entry.last_move):<11}  ")
    row.append(clip(state, ROW_WIDTH - 52), style="bold" if entry.finished else "")
    row.append("\n")
    watching = f"{entry.watching_words()}; " if entry.watching_words() and not entry.finished else ""  # the host's choice
    row.append(clip(f"  {watching}seats: {seat_words(entry)}", ROW_WIDTH))
    if entry.match:  # a game of a match: the match's running score
        row.append("\n" + clip(f"  {clean_text(entry.match, 200)}", ROW_WIDTH))
    if not entry.finished and entry.progress:  # where it stands, in the game's own words
        row.append("\n")
        row.append(clip(f"  now: {clean_text(entry.progress, 200)}", ROW_WIDTH))
    if entry.copies:
        row.append("\n")
        row.append(f"  {entry.copies_said()}")
    return row


def joinable(entry: HallEntry) -> bool:
    """A game in progress with a seat to take: an open one (on a box, not one a match keeps for
    another player: off a box names are typed, and the join says whose it is), or a disconnected one
    (its player's own)."""
    return not entry.problem and not entry.finished and any(
        v.status == "disconnected" or v.status == "open" and (not on_box() or v.kept in ("", login_name()))
        for v in entry.seats)


@dataclass
class HallListed(Message):
    """The hall as the listing thread found it."""

    entries: list[HallEntry]
    error: str = ""
    settings: HallSettings = HallSettings()
    news: str = ""  # the result of the game that finished last (saves/hall/news.py)


class HallScreen(KeyedScreen):
    BINDINGS = [
        # priority: the focused list's own Enter would hide it from the footer
        Binding("enter,w", "watch", "Watch", priority=True),
        Binding("j", "join", "Join"),
        Binding("n", "new", "New game", tooltip="open a new game in the hall: its seats, bots and options"),
        Binding("s", "scores", "Scores", tooltip="each player's games, wins and best result in the finished games"),
        Binding("m", "matches", "Matches", tooltip="matches and round-robins: tables, your next game"),
        Binding("a", "archive", "Archive", tooltip="every finished game, by player, game, day and result"),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("The hall is the games folder shared by the people on this box (--hall DIR or DICEHALL_HALL). "
                  "Each game shows its moves, watchers, last move and seats (open, a player, a bot, disconnected, "
                  "or idle on their turn) and, in progress, where it stands. Enter or w watches a game, read only "
                  "(a finished one opens as a replay); j takes an open seat; n opens a new game (on a shared box, "
                  "as your key's name). The news line is the last result. Leaving a game opened here comes back "
                  "here. The list follows the hall every second; r looks at once.")

    def __init__(self, hall: Hall | None = None) -> None:
        super().__init__()
        self.hall = hall or Hall()
        self.book = MatchBook(self.hall)  # the matches, for their games' score lines
        self.entries: list[HallEntry] = []
        self.shown: list[dict] | None = None  # what the list shows, to redraw only on a change
        self.wake = threading.Event()  # r: look now
        self.lister: Worker | None = None
        self.small = True  # the hall was listed in the first frame (see on_mount)
        self.announced: str | None = None
        self.told: str | None = None  # the settings' problem last put in the status line, said once
        # the game under the cursor and its row, as the player last saw them: a listing that adds,
        # moves or drops rows keeps the cursor on that game (or, once it is gone, the nearest row)
        self.cursor_id: str | None = None
        self.cursor_row = 0

    def help_title(self) -> str:
        return "The hall"

    def compose(self) -> ComposeResult:
        yield Plain(Text("The hall", style="bold"), classes="title")
        yield Plain(id="hall-motd")  # the admin's message of the day, as plain text (never markup)
        yield Plain(id="hall-news")  # the last game's result, as the servers' bots announce it
        yield Plain(COLUMNS, id="hall-columns")
        yield OptionList(id="hall-list")
        yield StatusLine("Enter watches the game under the cursor; j joins a seat; n opens a new game")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        # a small hall is listed in the first frame; a big one (its first look reads every log, seconds
        # for a thousand) by the thread, the screen open meanwhile; later looks read only changed logs
        self.small = self.hall.log_count() <= FIRST_FRAME_LOGS
        if self.small:
            self.show_listed(HallListed(*self.look()))
        else:
            self.query_one(".title", Plain).show(Text("The hall: reading its games...", style="bold"))
        self.lister = self.run_worker(self.follow_hall, thread=True, group="hall-listing", exclusive=True,
                                      exit_on_error=False)

    def on_screen_resume(self) -> None:
        self.wake.set()  # back from watching: the watcher just left, and games moved on

    def on_unmount(self) -> None:
        if self.lister is not None:
            self.lister.cancel()
        self.wake.set()

    def look(self) -> tuple[list[HallEntry], str, HallSettings, str]:
        settings = self.hall.settings()  # never raises: a bad hall.toml is its problem line
        try:
            entries = self.hall.listing()
            self.book.note(entries)
        except (DicehallError, OSError) as error:  # HallError: the folder cannot be read
            return [], error_line(error), settings, ""
        return entries, "", settings, latest_news(self.hall, entries)

    def follow_hall(self) -> None:
        """The listing thread: look at the hall every second (or at once after r) and post it."""
        worker = get_current_worker()
        first = not self.small  # the first frame did not list it: look at once
        while not worker.is_cancelled:
            if not first:
                self.wake.wait(REFRESH_EVERY)
                self.wake.clear()
            if worker.is_cancelled:
                return
            if not first and not self.is_current:  # a game watched above it: look again once it is left
                continue
            first = False
            self.post_message(HallListed(*self.look()))

    def on_hall_listed(self, message: HallListed) -> None:
        self.show_listed(message)

    def show_listed(self, listed: HallListed) -> None:
        self.show_entries(listed.entries, listed.error)
        self.show_settings(listed.settings)
        if not listed.error:  # a look that failed keeps the news shown
            news = self.query_one("#hall-news", Plain)
            news.show(Text(clip(listed.news, 78)))
            news.display = bool(listed.news)

    def show_settings(self, settings: HallSettings) -> None:
        """The message of the day above the list (hidden when there is none); why the admin's
        hall.toml was ignored, in the status line once (again only if it changes)."""
        motd = self.query_one("#hall-motd", Plain)
        if str(motd.content) != settings.motd:
            motd.show(Text(settings.motd))
            motd.display = bool(settings.motd)
        if settings.problem and settings.problem != self.told:
            self.status(settings.problem)  # the admin's to fix, not the player's error
        self.told = settings.problem

    def show_entries(self, entries: list[HallEntry], error: str = "") -> None:
        """Show the listing, keeping the cursor on the same game; nothing is redrawn if nothing changed.
        A listing that failed (`error`) keeps the rows shown: the hall is not empty because it could not be read."""
        if error:
            self.status(error, error=True)
            if self.entries:
                return
        seen = [entry.as_json() for entry in entries]
        if seen == self.shown:
            return
        self.shown = seen
        self.entries = entries
        menu = self.query_one(OptionList)
        with self.prevent(OptionList.OptionHighlighted):  # the rows change under the cursor, not the cursor
            menu.clear_options()
            menu.add_options(Option(entry_row(entry), id=f"game:{entry.id}") for entry in entries)
            if entries:
                menu.highlighted = self.row_of_cursor()
        playing = sum(1 for e in entries if not e.problem and not e.finished)
        finished = sum(1 for e in entries if not e.problem and e.finished)
        shown = clip(self.hall.shown(), 40)  # on a box "": no path of the box is shown to a player
        folder = f" ({shown})" if shown else ""
        title = (f"The hall: {playing} in progress, {finished} finished {folder}".rstrip() if entries
                 else f"The hall is empty{folder}: n opens a game")
        self.query_one(".title", Plain).show(Text(clip(title, 78), style="bold"))
        self.cursor_moved()
        self.refresh_bindings()

    def row_of_cursor(self) -> int:
        """The row of the game the cursor was on, else (the game is gone) the row nearest where it was."""
        ids = [entry.id for entry in self.entries]
        return ids.index(self.cursor_id) if self.cursor_id in ids else min(self.cursor_row, len(ids) - 1)

    def cursor_moved(self) -> None:
        """Remember the game now under the cursor, and say what it is when it is another game."""
        entry = self.current()
        self.cursor_id = entry.id if entry is not None else None
        self.cursor_row = self.query_one(OptionList).highlighted or 0
        if entry is not None and entry.id != self.announced:
            self.announce(entry)

    def current(self) -> HallEntry | None:
        lists = self.query(OptionList)  # none while the screen is torn down (the footer still asks check_action)
        index = lists.first().highlighted if lists else None
        if index is None or not 0 <= index < len(self.entries):
            return None
        return self.entries[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.cursor_moved()  # the player moved the cursor (the list's own index, read now: never an old one)
        self.refresh_bindings()

    def announce(self, entry: HallEntry) -> None:
        self.announced = entry.id
        if entry.problem:
            self.status(clean_text(entry.problem, 300), error=True)
        else:  # the game, who plays it (as `dicehall hall --json` names it) and what Enter does
            game = f"{entry.id}: {short_title(entry.title)}, {clean_text(entry.name, 200)}"
            join = ", j takes a seat" if joinable(entry) else ""
            self.status(f"{game}, over; Enter opens it as a replay" if entry.finished
                        else f"{game}, in progress; Enter watches{join}")

    # ----- keys -----
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        entry = self.current()
        if action == "watch":
            return entry is not None and not entry.problem or None
        if action == "join":
            return entry is not None and joinable(entry) or None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        entry = self.current()
        if entry is None:
            return "no game is selected: the hall is empty (n opens one)"
        if entry.problem:
            return f"{entry.id} is not a good game: {clean_text(entry.problem, 200)}"
        if action == "join":
            if entry.finished:
                return f"{entry.id} is over: Enter opens it as a replay"
            mine = next((view for view in entry.seats if view.was and view.was == login_name()), None)
            if mine:
                return mine.handed_words(entry.id)
            kept = next((view.kept for view in entry.seats if view.status == "open" and view.kept), "")
            if kept:
                return f"{entry.id}'s open seat is kept for {clean_text(kept, 40)}: a game of their match"
            return f"{entry.id} has no open seat"
        return super().why_disabled(action, parameters)

    def action_watch(self) -> None:
        entry = self.current()
        if entry is None or entry.problem:
            return
        problem = self.app.watch_hall_game(entry.id, self.hall)
        if problem:
            self.status(problem, error=True)

    def action_join(self) -> None:
        entry = self.current()
        if entry is None or not joinable(entry):
            return
        opener = getattr(self.app, "open_hall_game", None)  # the players' part: a hall game's screen
        if opener is None:
            self.status(f"join from the command line: {command_hint(f'join {entry.id}', key=JOIN_KEY)}")
            return
        default = clean_text(login_name(), 40)
        game_id = entry.id

        def named(name: str | None) -> None:
            if name is None:
                self.status("no seat taken")
                return
            try:
                joined = self.hall.join(game_id, name=clean_text(name, 40).strip() or default)
            except (DicehallError, OSError) as error:  # SeatHeld, HallError: one line
                self.status(error_line(error), error=True)
                return
            opener(joined)

        if on_box():  # the key's name is the player's: never typed here
            named(default)
            return
        self.app.push_screen(AskScreen(f"Your name at the table in {game_id} (Enter alone: {default}):",
                                       placeholder=default), named)

    def action_new(self) -> None:
        self.app.open_hall_host(self.hall)

    def action_matches(self) -> None:
        self.app.push_screen(MatchesScreen(self.hall))

    def action_scores(self) -> None:
        self.app.open_hall_scores(self.hall)

    def action_archive(self) -> None:
        from dicehall.tui.screens.hall.archive import HallArchiveScreen

        self.app.push_screen(HallArchiveScreen(self.hall))

    def action_refresh(self) -> None:
        listed = HallListed(*self.look())
        self.show_listed(listed)
        if not listed.error:  # the line that says why the hall cannot be read stays
            self.status(f"the hall looked at just now: {counted(len(self.entries), 'game')}")

    def action_back(self) -> None:
        self.app.pop_screen()
