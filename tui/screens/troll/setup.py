"""A new troll game: difficulty, variant and deal (a fresh shuffle or the day's deal)."""
from __future__ import annotations

from datetime import datetime

from dicehall.engine.chance import daily_seed
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import troll
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import SetupScreen


class TrollSetupScreen(SetupScreen):
    """A new troll game: difficulty, variant and deal (a fresh shuffle or the day's deal)."""

    HEADING = "Angry Troll versus Magic Bridge: a new game"
    LIST_ID = "troll-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it. standard is the game as "
                  "designed (rarely won); sturdy and tutorial have taller stacks. The day's deal is the "
                  "same for everyone on that date. s starts the game.")
    CHOICES = {"difficulty": ("standard", "sturdy", "tutorial"), "variant": ("none",) + troll.VARIANTS,
               "deal": ("a new shuffle", "today's deal")}

    def __init__(self, seed: int | None = None, name: str = "", **options) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        variant = next((v for v in troll.VARIANTS if options.get(v)), "none")
        self.values = {"difficulty": options.get("difficulty", "standard"), "variant": variant, "deal": "a new shuffle"}

    def help_title(self) -> str:
        return "Angry Troll: a new game"

    def rows(self) -> list[tuple[str, str]]:
        rows = [(key, f"{title + ':':<12}{self.values[key].replace('_', ' ')}")
                for key, title in (("difficulty", "Difficulty"), ("variant", "Variant"), ("deal", "Deal"))]
        return rows + [("start", "Start the game (s)")]

    def action_change(self, step: int = 1) -> None:
        key = self.current()
        if key == "start":
            self.action_start()
            return
        values = self.CHOICES[key]
        self.values[key] = values[(values.index(self.values[key]) + step) % len(values)]
        self.redraw()

    def options(self) -> dict:
        options = {"difficulty": self.values["difficulty"]}
        if self.values["variant"] != "none":
            options[self.values["variant"]] = True
        return options

    def action_start(self) -> None:
        from dicehall import saves

        seed, name = self.seed, self.save_name
        if self.values["deal"] == "today's deal":
            today = datetime.now().date().isoformat()
            seed, name = daily_seed(troll.ID, today), name or f"daily {today}"
        options = self.options()
        try:  # no name: saves names it after its options, numbered if taken ("Standard (2)")
            session = saves.new_save(troll.ID, name=name, seed=seed, options=options, players=saves.solo_players())
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session, replace=True)
