"""Which screen plays each game, which asks who plays it first, and which function draws its board
in the replay viewer."""
from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.screen import Screen

from tui.screens import bones, dicetower, hall_table, hall_talk, towers, troll, wager


def game_screen(session):
    screens = {"dicetower": dicetower.DiceTowerScreen, "troll": troll.TrollScreen, "wager": wager.WagerScreen,
               "towers": towers.TowersScreen, "bones": bones.BonesScreen}
    return screens[session.game.ID](session)


def hall_game_screen(game):
    """The game screen of a started hall game (saves.hall.HallGame): the game's own screen on a
    HallSession, with the HallPlay keys first."""
    session = hall_table.HallSession(game)
    plain = type(game_screen(session))
    keys = hall_table.HALL_BINDINGS + hall_talk.CHAT_BINDINGS + hall_talk.IDLE_BINDINGS
    screen = type(f"Hall{plain.__name__}", (hall_talk.HallTalk, hall_table.HallPlay, plain),
                  {"BINDINGS": keys, "__module__": __name__})(session)
    session.on_stale = screen.hall_stale  # a decision the log refused: the screen reads what is new
    return screen


def setup_screen(game_id: str, **choices) -> Screen | None:
    """The screen that asks who plays and how, for games with choices to make before the first move
    (None: the game is only named).
    `choices` are the command line's: seed, name and the game's options."""
    if game_id == "wager":
        return wager.WagerSetupScreen(**choices)
    if game_id == "towers":
        return towers.TowersSetupScreen(**choices)
    if game_id == "troll":
        return troll.TrollSetupScreen(**choices)
    if game_id == "bones":
        return bones.BonesSetupScreen(**choices)
    return None


def board_drawer(game_id: str) -> Callable[..., Text]:
    boards = {"dicetower": dicetower.draw_board, "troll": troll.draw_board, "wager": wager.draw_board,
              "towers": towers.draw_board, "bones": bones.draw_board}
    return boards[game_id]
