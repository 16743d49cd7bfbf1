"""Angry Troll versus Magic Bridge in the terminal: `bridge` draws the bridge (for the game and the
replay viewer), `log` tells what happened under it and steps through a batch, `screen` is the game
(the troll's keys and aiming), `setup` a new game's choices."""
from dicehall.tui.screens.troll.bridge import CELL, WIDTH, card_style, cell, draw_board, packed, reveal_lines
from dicehall.tui.screens.troll.log import TrollLog, wrapped
from dicehall.tui.screens.troll.screen import TrollScreen, title_line
from dicehall.tui.screens.troll.setup import TrollSetupScreen

__all__ = ["CELL", "WIDTH", "TrollLog", "TrollScreen", "TrollSetupScreen", "card_style", "cell", "draw_board",
           "packed", "reveal_lines", "title_line", "wrapped"]
