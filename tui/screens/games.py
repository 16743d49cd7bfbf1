"""Which screen plays each game and which function draws its board in the replay viewer."""
from __future__ import annotations

from typing import Callable

from rich.text import Text

from tui.screens import dicetower, troll, wager


def game_screen(session):
    screens = {"dicetower": dicetower.DiceTowerScreen, "troll": troll.TrollScreen, "wager": wager.WagerScreen}
    return screens[session.game.ID](session)


def board_drawer(game_id: str) -> Callable[..., Text]:
    boards = {"dicetower": dicetower.draw_board, "troll": troll.draw_board, "wager": wager.draw_board}
    return boards[game_id]
