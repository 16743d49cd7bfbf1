"""The words a finished hall game's end gives its players and watchers on their ratings, apart from
rating_files.py so that the command line (`dicehall watch`) reads them without Textual, and without an
import circle through saves/hall/game.py (which rates a game at its end through rating_files.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.engine.errors import DicehallError
from dicehall.saves.hall.rating_files import hall_ratings, rate_finished

if TYPE_CHECKING:
    from dicehall.saves.hall.game import HallGame


def change_at_end(game: HallGame) -> str:
    """What a finished hall game did to its players' ratings ("Towers ratings: Ann 1,512 -> 1,538"),
    rating it first if no terminal has yet; "" if it is not rated. For a worker: it reads files."""
    try:
        if rate_finished(game.hall, game.id, game.fold) is None:
            return ""
        return hall_ratings(game.hall, catch_up=False).change_words(game.fold.commitment)
    except (DicehallError, OSError):
        return ""  # a game that cannot be rated now is rated at the next look
