"""The rules of a game, as dicehall plays them (including the rulings), scrollable by keyboard."""
from __future__ import annotations

from dicehall.tui.screens.reading import ReadingScreen


class RulesScreen(ReadingScreen):
    WHAT = "the rules"
    FITS = "the rules fit on the screen"

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def heading(self) -> str:
        return f"Rules: {self.game.TITLE}"

    def body(self) -> str:
        return self.game.RULES_TEXT
