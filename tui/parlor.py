"""ParlorApp: the app as a screen sees it. The app owns navigation (a screen asks it for another
screen; no screen imports another, and none imports tui/app.py, which imports them): this class
declares what a screen may ask, DicehallApp (tui/app.py) gives it, and KeyedScreen's `app` is typed
as it, so the type checker checks every ask against these signatures."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from textual.app import App

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType

    from rich.text import Text
    from textual.screen import Screen

    from dicehall.engine import Session
    from dicehall.engine.analysis.troll_solver import Solution
    from dicehall.saves.hall import Hall, HallGame
    from dicehall.tui.terminal import Terminal


class GameFacts(Protocol):
    """What a screen reads of a game's row in the TUI's registry (tui/screens/games.py's GameScreens)."""

    @property
    def board(self) -> Callable[..., Text]: ...  # draws its board for the replay viewer: (state, reveal)
    @property
    def wide_board(self) -> bool: ...
    @property
    def hidden(self) -> str: ...


class ParlorApp(App):
    """What a screen may ask of the app; DicehallApp gives every one (these only declare them)."""

    terminal: Terminal  # what the terminal can draw (colour, box lines)
    hall_game: HallGame | None  # the hall game this terminal sits in
    chat_muted = False  # a hall game's chat says nothing of new messages (m)

    def open_game(self, session: Session, *, replace: bool = False, alone: bool = False) -> None:
        raise NotImplementedError

    def open_setup(self, game_id: str) -> bool:
        raise NotImplementedError

    def open_viewer(self, session: Session, live: bool = False) -> None:
        raise NotImplementedError

    def open_hindsight_line(self, line: Session, solution: Solution, name: str = "") -> None:
        raise NotImplementedError

    def open_rules(self, game: ModuleType) -> None:
        raise NotImplementedError

    def open_bookshelf(self) -> None:
        raise NotImplementedError

    def open_practice(self) -> None:
        raise NotImplementedError

    def open_stats(self) -> None:
        raise NotImplementedError

    def open_saves(self) -> None:
        raise NotImplementedError

    def game_screens(self, game_id: str) -> GameFacts:
        raise NotImplementedError

    # ----- the hall -----
    def open_hall(self) -> None:
        raise NotImplementedError

    def open_hall_host(self, hall: Hall | None = None) -> None:
        raise NotImplementedError

    def open_hall_scores(self, hall: Hall | None = None) -> None:
        raise NotImplementedError

    def open_hall_ratings(self, folder: Path | None = None) -> None:
        raise NotImplementedError

    def open_hall_game(self, game: HallGame | None = None) -> None:
        raise NotImplementedError

    def open_hall_table(self, waiting: Screen) -> None:
        raise NotImplementedError

    def watch_hall_game(self, game_id: str, hall: Hall | None = None) -> str | None:
        raise NotImplementedError

    def leave_hall_game(self) -> None:
        raise NotImplementedError

    def hall_leave_words(self) -> str:
        raise NotImplementedError

    def with_unkept_draft(self, question: str) -> str:
        raise NotImplementedError
