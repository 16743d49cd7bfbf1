"""The hall's scores (the Hall screen's `s`, what `dicehall hall --scores` prints): per player name
and game, from the finished hall games. The hall's logs are read in a worker by a Hall of this
screen's own (the lobby's listing thread keeps its own); every name is another player's text,
shown plain and cut to its column, and the screen says the names are unauthenticated."""
from __future__ import annotations

from dataclasses import dataclass

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
from dicehall.saves.hall import Hall, HallScores, Score, hall_scores
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.widgets import clip, KeysFooter, Plain, StatusLine

COLUMNS = f"  {'GAME':<16}  {'PLAYER':<20}  {'GAMES':>5}  {'WINS':>4}  {'WIN%':>4}  BEST"
ROW_WIDTH = 74  # inside the list's frame and padding at 80 columns
NOTE = " Names are as typed at each seat: unauthenticated. Bots are not players."
KEYS_NOTE = " Names are the admin's, one per player's key. Bots are not players."


def short_title(title: str) -> str:
    return title if len(title) <= 16 else " ".join(title.split()[:2])[:16]


def score_row(score: Score) -> Text:
    best = clean_text(score.best.words, 60) if score.best is not None else "-"
    return Text(clip(f"{short_title(score.title):<16}  {clean_text(score.player, 20):<20}  {score.games:>5}  "
                     f"{score.wins:>4}  {score.win_percent:>3}%  {best}", ROW_WIDTH))


@dataclass
class ScoresRead(Message):
    """The scores as the worker read them, or the line saying why the hall could not be read."""

    worker: object
    found: object  # HallScores, or what a screen built on this one reads (read_figures)
    error: str = ""


class HallTableScreen(KeyedScreen):
    """A table of the hall's finished games read in a worker: the scores here; the ratings screen
    (tui/screens/hall/ratings.py) reads and shows its own (read_figures, show_figures)."""

    HEADING, NOTE_LINE, COLUMN_HEADS = "The hall's scores", NOTE, COLUMNS
    READING = "reading the hall's finished games..."
    BINDINGS = [
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("Per player name and game, from the hall's finished games: games played, wins, the win % and "
                  "the best result in the game's own measure. Names are as each player typed them at the seat: "
                  "the hall does not check who typed them. Bots' seats, games in progress or abandoned, copies of "
                  "a game and damaged files are not counted (the line under the title says how many). t shows "
                  "the ratings. r reads the hall again.")

    def __init__(self, hall: Hall | None = None) -> None:
        super().__init__()
        self.folder = hall.folder if hall is not None else None
        self.reader: Worker | None = None
        self.found: HallScores | None = None

    def help_title(self) -> str:
        return self.HEADING

    def compose(self) -> ComposeResult:
        yield Plain(Text(self.HEADING, style="bold"), classes="title")
        yield Plain(clip(self.NOTE_LINE, 78), id="scores-note")
        yield Plain(self.COLUMN_HEADS, id="scores-columns")
        yield OptionList(id="scores-list")
        yield StatusLine(self.READING)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.read()

    def read(self) -> None:
        folder = self.folder

        def work() -> None:
            worker = get_current_worker()
            try:
                found, error = self.read_figures(Hall(folder)), ""
            except (DicehallError, OSError) as problem:  # the folder cannot be read: one line
                found, error = None, error_line(problem)
            if not worker.is_cancelled:
                self.post_message(ScoresRead(worker, found, error))

        self.reader = self.run_worker(work, thread=True, group="hall-scores", exclusive=True, exit_on_error=False)

    def read_figures(self, hall: Hall) -> object:
        """What the screen shows, read in its worker (the ratings screen reads the ratings)."""
        return hall_scores(hall)

    def on_scores_read(self, message: ScoresRead) -> None:
        if message.worker is not self.reader:
            return
        self.reader = None
        if message.error:
            self.status(message.error, error=True)
            return
        self.show_figures(message.found)

    def show_figures(self, found) -> None:
        assert isinstance(found, HallScores)  # read without an error
        self.found = found
        menu = self.query_one(OptionList)
        menu.clear_options()
        for n, score in enumerate(found.scores):
            menu.add_option(Option(score_row(score), id=f"score:{n}"))
        title = f"The hall's scores: {counted(found.counted, 'finished game')}"
        self.query_one(".title", Plain).show(Text(clip(title, 78), style="bold"))
        self.query_one("#scores-note", Plain).show(clip(NOTE if found.typed_names or not found.scores else KEYS_NOTE, 78))
        left_out = found.left_out()
        if not found.scores:
            self.status("no finished game with a person seated yet" + (f" (not counted: {left_out})" if left_out else ""))
        else:
            self.status(f"not counted: {left_out}; r reads the hall again" if left_out else "r reads the hall again")

    def action_refresh(self) -> None:
        self.status(self.READING)
        self.read()

    def action_back(self) -> None:
        self.app.pop_screen()


class HallScoresScreen(HallTableScreen):
    BINDINGS = [
        Binding("t", "ratings", "Ratings", tooltip="each player's rating per game (openskill), from the rated games"),
    ]

    def action_ratings(self) -> None:
        self.app.open_hall_ratings(self.folder)
