"""The hall's ratings (the scores screen's `t`, what `dicehall ratings` prints): per game and player
identity, from the rated hall games (saves/hall/ratings.py, rating_files.py), read in a worker as
the scores are; and the line a hall game's screen shows at its end ("Towers ratings: Ann 1,512 ->
1,538"), worked out in a worker too (verifying the game and rating it if no terminal has yet)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves.hall import Hall
from dicehall.saves.hall.ratings import PROVISIONAL_GAMES, HallRatings, Rating
from dicehall.tui.screens.hall.scores import ROW_WIDTH, HallTableScreen, short_title
from dicehall.tui.widgets import Plain, clip

if TYPE_CHECKING:
    from dicehall.saves.hall import HallGame

COLUMNS = f"  {'GAME':<16}  {'PLAYER':<20}  {'RATING':>7}  {'GAMES':>5}"
NOTE = f" ? marks a rating of fewer than {PROVISIONAL_GAMES} games. Bots are fixed players."


def rating_row(rating: Rating) -> Text:
    return Text(clip(f"{short_title(rating.title):<16}  {clean_text(rating.player, 20):<20}  {rating.words():>7}  "
                     f"{rating.games:>5}", ROW_WIDTH))


class HallRatingsScreen(HallTableScreen):
    HEADING, NOTE_LINE, COLUMN_HEADS = "The hall's ratings", NOTE, COLUMNS
    READING = "reading the hall's ratings..."
    HELP_NOTES = ("Each player's rating per game (openskill's Plackett-Luce model), from the rated hall games: "
                  "those that verify, every seat a player known to the box (a key's name; off a box, your own "
                  f"account against bots) or a bot. Bots are fixed players at their styles. ? marks a rating of "
                  f"fewer than {PROVISIONAL_GAMES} games. dicehall ratings --rebuild rates every game again from "
                  "its log. r reads the hall again.")

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__(Hall(folder) if folder is not None else None)

    def read_figures(self, hall: Hall) -> object:
        from dicehall.saves.hall.rating_files import hall_ratings

        return hall_ratings(hall)

    def show_figures(self, found) -> None:
        assert isinstance(found, HallRatings)  # read without an error
        menu = self.query_one(OptionList)
        menu.clear_options()
        for n, rating in enumerate(found.table()):
            menu.add_option(Option(rating_row(rating), id=f"rating:{n}"))
        title = f"The hall's ratings: {counted(len(found.history), 'rated game')}"
        self.query_one(".title", Plain).show(Text(clip(title, 78), style="bold"))
        said = "; ".join(found.problems[:1]) or ("no rated game yet" if not found.history else "")
        self.status(clip(f"{said}; r reads the hall again" if said else "r reads the hall again", 200))


def say_change_at_end(screen, game: HallGame, say) -> None:
    """Ask `change_at_end(game)` in a worker of `screen` (a player's table, a watcher's viewer), and
    give its words, cleaned, to `say` on the screen's thread if the game was rated and the screen is
    still shown."""
    from dicehall.saves.hall.rating_change import change_at_end

    def ask() -> None:
        words = change_at_end(game)
        if words:
            screen.app.call_from_thread(lambda: screen.is_attached and say(clean_text(words, 300)))

    screen.run_worker(ask, thread=True, group="hall-rating", exit_on_error=False)
