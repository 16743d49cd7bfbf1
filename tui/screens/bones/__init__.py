"""War of Bones in the terminal, one module per part: `area` draws the map to scale (the frame,
the labels, marks and a range), `troops` chooses a troop (and the Reengage picks), `attack` is the
attack builder, `defence` the defender's assignment, `offers` the reroll offer and the other menus,
`orders` reinforce / resupply / converge with their confirmation, `panel` and `log` the side
panel's words, `screen` the battlefield that composes them and plays what they build (and the
bots), `setup` who plays."""
from dicehall.tui.screens.bones.area import NARROW, STYLE, WIDE, draw_area, draw_board, inches, player_line
from dicehall.tui.screens.bones.screen import STAGE_WORDS, BonesScreen
from dicehall.tui.screens.bones.setup import MODES, BonesSetupScreen
from dicehall.tui.screens.bones.troops import nearest_troop, troop_words

__all__ = ["NARROW", "STYLE", "WIDE", "STAGE_WORDS", "MODES", "BonesScreen", "BonesSetupScreen", "draw_area",
           "draw_board", "inches", "nearest_troop", "player_line", "troop_words"]
