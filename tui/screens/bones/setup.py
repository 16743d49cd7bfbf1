"""War of Bones: the setup, who plays (a person against the bot, two people, or two bots to
watch) and the no pre-measuring option."""
from __future__ import annotations

from typing import Any

from dicehall.engine.core import Player
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import bones
from dicehall.engine.games.bones import SIDES
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import SetupScreen

MODES = ("bot", "two", "watch")


class BonesSetupScreen(SetupScreen):
    """Who plays: you against the bot (your side, its level), two people, or two bots to watch;
    and the no pre-measuring option."""

    HEADING = "War of Bones: who plays?"
    LIST_ID = "bones-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it (Enter on a name asks for "
                  "it). s starts the game. Troops are named A#1..A#8 and B#1..B#8; on the map each shows its "
                  "side and face (a5, B5: side A's lower case), l shows the numbers. With no "
                  "pre-measuring, ranges are not shown and an attack may aim at any enemy troop; one out "
                  "of range misses.")

    def __init__(self, seed: int | None = None, name: str = "", no_premeasure: bool = False) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        self.choices: dict[str, Any] = {"mode": "bot", "you": "A", "level": "general", "level_b": "general",
                        "no_premeasure": bool(no_premeasure), "a_name": "", "b_name": ""}

    def help_title(self) -> str:
        return "War of Bones: setup"

    def rows(self) -> list[tuple[str, str]]:
        c = self.choices
        words = {"bot": "you against the bot", "two": "two people at this keyboard", "watch": "two bots (watch)"}
        rows = [("mode", f"Players:          {words[c['mode']]}")]
        if c["mode"] == "bot":
            rows.append(("you", f"You play:         side {c['you']}" + (" (listed first)" if c["you"] == "A" else "")))
            rows.append(("level", f"Bot level:        {c['level']}"))
        if c["mode"] == "watch":
            rows.append(("level", f"Side A's bot:     {c['level']}"))
            rows.append(("level_b", f"Side B's bot:     {c['level_b']}"))
        rows.append(("no_premeasure", "No pre-measuring: " + ("on (ranges hidden; out of range misses)" if c["no_premeasure"] else "off")))
        if c["mode"] != "watch":
            for side in ("A", "B"):
                if c["mode"] == "two" or c["you"] == side:
                    key = side.lower() + "_name"
                    rows.append((key, f"Side {side}'s name:    {c[key] or '(' + self.default_name(side) + ')'}"))
        rows.append(("start", "Start the game (s)"))
        return rows

    def default_name(self, side: str) -> str:
        return "You" if self.choices["mode"] == "bot" else f"Player {side}"

    def action_change(self, step: int = 1) -> None:
        key, c = self.current(), self.choices
        cycles = {"mode": MODES, "you": ("A", "B"), "level": bones.LEVELS, "level_b": bones.LEVELS,
                  "no_premeasure": (False, True)}
        if key in cycles:
            self.cycle(c, key, cycles[key], step)
        elif key.endswith("_name"):
            self.ask_name(c, key, f"Side {key[0].upper()}'s name:")
        elif key == "start":
            self.action_start()

    def players(self) -> list[Player]:
        c = self.choices
        if c["mode"] == "watch":
            # the level shows beside the name already ("(bot general)"): the names stay short
            return [Player(c["a_name"] or "Bot A", True, c["level"]), Player(c["b_name"] or "Bot B", True, c["level_b"])]
        names = [c["a_name"] or self.default_name("A"), c["b_name"] or self.default_name("B")]
        if c["mode"] == "two":
            return [Player(names[0]), Player(names[1])]
        you = SIDES.index(c["you"])
        seats = [Player(names[you]), Player("Bot", True, c["level"])]
        return seats if you == 0 else seats[::-1]

    def action_start(self) -> None:
        from dicehall import saves

        players = self.players()
        name = self.save_name or f"{players[0].name} v {players[1].name}"
        try:
            session = saves.new_save(bones.ID, name=name, seed=self.seed, players=players,
                                     options={"no_premeasure": self.choices["no_premeasure"]})
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        self.app.open_game(session, replace=True)
