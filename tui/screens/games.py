"""The terminal's side of each game, one entry per game keyed by its id: the screen that plays it,
the screen that asks who plays it first (if it has one), the function that draws its board in the
replay viewer, its screen in the hall (the game's own screen with the hall's keys first), and what
the viewer needs to know of it (how wide its board is, what its reveal shows, its analysis's marks).
The engine's side of a game is its module (engine/contract.py) and its catalogue entry
(engine/games/__init__.py); a new game adds its line here. Only the app (and the command line)
reads it: a screen asks the app (`self.app.game_screens(game_id)`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.text import Text
from textual.binding import BindingType
from textual.screen import Screen

from dicehall.engine.games import bones as bones_rules
from dicehall.engine.games import dicetower as dicetower_rules
from dicehall.engine.games import journal as journal_rules
from dicehall.engine.games import towers as towers_rules
from dicehall.engine.games import troll as troll_rules
from dicehall.engine.games import wager as wager_rules
from dicehall.tui.screens import bones, dicetower, journal, journal_setup, towers, troll, wager
from dicehall.tui.screens.hall import table as hall_table
from dicehall.tui.screens.hall import talk as hall_talk

# a hall game's keys: the hall's own (takeback, leave), its messages, idle seats; then the game's
HALL_KEYS: list[BindingType] = [*hall_table.HALL_BINDINGS, *hall_talk.CHAT_BINDINGS, *hall_talk.IDLE_BINDINGS]


def hall_screen(play: type[Screen]) -> type[Screen]:
    """A game's hall screen: its own screen with the hall's keys first (what each Hall...Screen below
    is; a new game's line can use this in place of a class of its own)."""
    return type(f"Hall{play.__name__}", (hall_talk.HallTalk, hall_table.HallPlay, play), {"BINDINGS": HALL_KEYS})


class HallDiceTowerScreen(hall_talk.HallTalk, hall_table.HallPlay, dicetower.DiceTowerScreen):
    BINDINGS = HALL_KEYS


class HallTrollScreen(hall_talk.HallTalk, hall_table.HallPlay, troll.TrollScreen):
    BINDINGS = HALL_KEYS


class HallWagerScreen(hall_talk.HallTalk, hall_table.HallPlay, wager.WagerScreen):
    BINDINGS = HALL_KEYS


class HallTowersScreen(hall_talk.HallTalk, hall_table.HallPlay, towers.TowersScreen):
    BINDINGS = HALL_KEYS


class HallBonesScreen(hall_talk.HallTalk, hall_table.HallPlay, bones.BonesScreen):
    BINDINGS = HALL_KEYS


class HallJournalScreen(hall_talk.HallTalk, hall_table.HallPlay, journal.JournalScreen):
    BINDINGS = HALL_KEYS

    def __init__(self, session: hall_table.HallSession) -> None:
        session.keep_drafts()  # the draft in the player's own folder, back in the box as at the launcher
        super().__init__(session)


@dataclass(frozen=True)
class GameScreens:
    """What the terminal shows of one game."""

    play: type[Screen]  # its screen, on a Session
    hall: type[Screen]  # its screen on a HallSession: the hall's keys, then the game's
    board: Callable[..., Text]  # draws its board for the replay viewer: (state, reveal)
    setup: type[Screen] | None = None  # asks who plays and how before the first move; None: only named
    wide_board: bool = False  # the viewer (and practice) draw its board above the log, not beside it
    hidden: str = ""  # what the replay viewer's reveal shows (face-down cards...); "" nothing is hidden


SCREENS: dict[str, GameScreens] = {
    dicetower_rules.ID: GameScreens(dicetower.DiceTowerScreen, HallDiceTowerScreen, dicetower.draw_board),
    troll_rules.ID: GameScreens(troll.TrollScreen, HallTrollScreen, troll.draw_board, troll.TrollSetupScreen, wide_board=True,
                                hidden="every face-down card and the whole deck order"),
    wager_rules.ID: GameScreens(wager.WagerScreen, HallWagerScreen, wager.draw_board, wager.WagerSetupScreen),
    towers_rules.ID: GameScreens(towers.TowersScreen, HallTowersScreen, towers.draw_board, towers.TowersSetupScreen),
    bones_rules.ID: GameScreens(bones.BonesScreen, HallBonesScreen, bones.draw_board, bones.BonesSetupScreen),
    journal_rules.ID: GameScreens(journal.JournalScreen, HallJournalScreen, journal.draw_board, journal_setup.JournalSetupScreen),
}


def game_screen(session):
    return SCREENS[session.game.ID].play(session)


def hall_game_screen(game):
    """The game screen of a started hall game (saves.hall.HallGame): the game's own screen on a
    HallSession, with the HallPlay keys first."""
    session = hall_table.HallSession(game)
    screen = SCREENS[session.game.ID].hall(session)
    session.on_stale = screen.hall_stale  # a decision the log refused: the screen reads what is new
    return screen


def setup_screen(game_id: str, **choices) -> Screen | None:
    """The screen that asks who plays and how, for games with choices to make before the first move
    (None: the game is only named).
    `choices` are the command line's: seed, name and the game's options."""
    screens = SCREENS.get(game_id)
    return screens.setup(**choices) if screens is not None and screens.setup is not None else None


def board_drawer(game_id: str) -> Callable[..., Text]:
    return SCREENS[game_id].board


def game_screens(game_id: str) -> GameScreens:
    return SCREENS[game_id]
