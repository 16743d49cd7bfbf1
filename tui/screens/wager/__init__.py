"""Dead Man's Wager in the terminal: `table` draws the scores, the banner and the scoresheet (and
the replay viewer's board), `screen` is the game with its keys and paced bots, `setup` who plays."""
from dicehall.tui.screens.wager.screen import BOT_PACE, WagerScreen, warm_odds
from dicehall.tui.screens.wager.setup import KINDS, WagerSetupScreen
from dicehall.tui.screens.wager.table import Banner, ScoreSheet, ScoreTable, draw_board, last_rolls, run_warning

__all__ = ["BOT_PACE", "KINDS", "Banner", "ScoreSheet", "ScoreTable", "WagerScreen", "WagerSetupScreen",
           "draw_board", "last_rolls", "run_warning", "warm_odds"]
