"""DicehallApp: the Textual app. It stays thin: screens own behaviour, the engine owns the games, and
the app owns navigation (a screen asks it for another screen; no screen imports another).

A dropped SSH link sends SIGHUP, a shutdown SIGTERM. Textual does not handle either, so the app
does: every event is already fsync'd, so it releases the saves and exits. A parent that is gone
(the process handed to init or a subreaper) ends it the same way. It never ignores SIGHUP
(an orphan reading a dead terminal spins the CPU), and a watchdog ends the process if a dead
terminal makes the normal exit hang.
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from rich.segment import Segment
from textual.binding import Binding
from textual.color import Color
from textual.filter import LineFilter, Monochrome, NoColor
from textual.geometry import Size
from textual.screen import Screen

from dicehall.tui.parlor import ParlorApp
from dicehall.tui.screens.launcher import LauncherScreen
from dicehall.tui.terminal import FULL, Terminal, detect_terminal
from dicehall.tui.textual_fixes import find_screens_without_importing, keep_no_dead_widgets, strips_cache_from_their_second_use
from dicehall.tui.widgets import Plain

if TYPE_CHECKING:
    from dicehall.engine import Session

EXIT_WATCHDOG_SECONDS = 3.0
PARENT_EVERY = 0.5  # seconds between looks at whether the process that started this one is still there
MIN_SIZE = (80, 24)  # what every screen needs unless it says otherwise with its own MIN_SIZE

keep_no_dead_widgets()  # before any widget draws (tui/textual_fixes.py)
find_screens_without_importing()
strips_cache_from_their_second_use()


class TooSmallScreen(Screen):
    """Covers everything while the terminal is smaller than the screen beneath needs: a screen cut
    off at its edges hides troops, wraps labels into things that look like menu items, and keys
    would act on what cannot be seen. Every key waits (ctrl+q still quits); a resize lifts it."""

    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True)]
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Plain { width: 100%; height: auto; content-align: center middle; text-align: center; }
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Plain(self.message, id="too-small")

    def say(self, message: str) -> None:
        self.message = message
        self.query_one("#too-small", Plain).show(message)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()


def _ascii_table() -> dict[int, str]:
    """Box-drawing and block characters (U+2500..U+259F), arrows and the ellipsis, each as one ASCII
    character, so every cell keeps its width; any other character (a player's name) is left alone."""
    import unicodedata

    table = {}
    for code in range(0x2500, 0x25A0):
        name = unicodedata.name(chr(code), "").removeprefix("BOX DRAWINGS ")
        if code >= 0x2580:  # blocks: the tall borders' edges and the scrollbars' partial cells
            line = name in ("UPPER ONE EIGHTH BLOCK", "LOWER ONE EIGHTH BLOCK")
            table[code] = "-" if line else "|" if "LEFT" in name or "RIGHT" in name else " "
        elif "DIAGONAL" in name:
            table[code] = "/" if "UPPER RIGHT TO LOWER LEFT" in name else "\\" if "TO" in name else "X"
        elif " AND " in name or "ARC" in name:
            table[code] = "+"  # corners and junctions
        elif "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name:
            table[code] = "-"
        else:
            table[code] = "|"  # vertical lines, up and down halves
    table.update({ord("\u2190"): "<", ord("\u2192"): ">", ord("\u2191"): "^", ord("\u2193"): "v",
                  ord("\u23ce"): "<", ord("\u2026"): "."})
    return table


class AsciiLines(LineFilter):
    """Draws every line of every screen in ASCII, for a terminal without box-drawing characters:
    borders, rules, the scrollbars and Textual's own separators alike."""

    TABLE = _ascii_table()

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        table = self.TABLE
        return [segment if segment.text.isascii() else Segment(segment.text.translate(table), segment.style, segment.control)
                for segment in segments]


def size_notice(size: Size, screen: Screen) -> str | None:
    """What to say while `size` is smaller than `screen` needs (None: it fits)."""
    width, height = getattr(screen, "MIN_SIZE", MIN_SIZE)
    if size.width >= width and size.height >= height:
        return None
    title = screen.help_title() if hasattr(screen, "help_title") else "dicehall"
    return (f"The terminal is {size.width}x{size.height}; {title.split(':')[0]} needs {width}x{height}.\n"
            f"Make the window larger to go on (ctrl+q quits).")


class DicehallApp(ParlorApp):
    CSS_PATH = Path(__file__).with_name("dicehall.tcss")
    TITLE = "dicehall"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, session: Session | None = None, replay: Session | None = None, setup: Screen | None = None,
                 terminal: Terminal | None = None, watch=None, hall_game=None, practice: bool = False) -> None:
        super().__init__()
        self.hall_game = hall_game  # a saves.hall.HallGame this terminal sits in (dicehall host/join)
        self.start_session = session
        self.start_replay = replay
        self.start_watch = watch  # a hall game to watch live (`dicehall watch ID`): leaving it leaves the program
        self.start_setup = setup  # a game's setup screen (who plays) to open first
        self.start_practice = practice  # `dicehall practice`: leaving it leaves the program
        self.signalled: int | None = None
        self.parent_pid = os.getppid()  # before any seat or watcher's mark: a parent gone after either is seen
        self.terminal = FULL
        if terminal is not None:
            self.use_terminal(terminal)
        self.terminal_given = terminal is not None

    def run(self, *args, **kwargs):
        # a real terminal is asked what it can do; tests (headless, run_test) say it themselves
        if not self.terminal_given and not kwargs.get("headless"):
            self.use_terminal(detect_terminal())
        # keyboard only: the menus took clicks and the boards did not, so nothing takes them; the
        # terminal keeps the mouse for its own selecting and copying, over SSH too
        kwargs.setdefault("mouse", False)
        result = super().run(*args, **kwargs)
        if self.signalled == signal.SIGHUP:  # the terminal is gone: nothing more can be shown on it
            from dicehall.tui.driver import drop_terminal_output

            drop_terminal_output()
        return result

    def get_driver_class(self):
        """Textual's Linux driver, ending the app when the terminal goes away (tui/driver.py); a driver
        named in TEXTUAL_DRIVER (the browser's, under dicehall serve) or another platform's stands."""
        from textual import constants

        if constants.DRIVER is None and os.name == "posix":
            from dicehall.tui.driver import TerminalDriver

            return TerminalDriver
        return super().get_driver_class()

    def use_terminal(self, terminal: Terminal) -> None:
        """Draw for this terminal: without colour (Textual's NO_COLOR filter makes greys, which are
        colours still; this one leaves only bold, reverse, underline and dim) and with ASCII lines."""
        self.terminal = terminal
        self.no_color = not terminal.colour  # also the :nocolor pseudo-class of every widget
        self._filters = [f for f in self._filters if not isinstance(f, (Monochrome, NoColor, AsciiLines))]
        if not terminal.colour:
            self._filters.append(NoColor())
        if not terminal.box_lines:
            self._filters.append(AsciiLines())
        self.set_class(not terminal.box_lines, "-ascii")  # dicehall.tcss picks ASCII border types

    def get_default_screen(self) -> LauncherScreen:
        return LauncherScreen()

    def on_mount(self) -> None:
        if self.hall_game is not None:
            self.open_hall_game()
        elif self.start_session is not None:
            self.open_game(self.start_session)
        elif self.start_setup is not None:
            self.push_screen(self.start_setup)
        elif self.start_replay is not None:
            self.open_viewer(self.start_replay)
        elif self.start_watch is not None:
            self.open_hall_viewer(self.start_watch)
        elif self.start_practice:
            self.open_practice()
        self.call_after_refresh(self.fit_size_notice, self.size)
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(signum, self.end_on_signal, signum)
            self.set_interval(PARENT_EVERY, self.end_if_orphaned)

    # ----- navigation: a screen asks the app for another screen; no screen imports another -----
    # (the screens are imported here when first asked for, so the first frame waits for none of them)
    def open_game(self, session: Session, *, replace: bool = False, alone: bool = False) -> None:
        """The game screen of `session`, pushed; `replace`: in place of the current screen (a game's
        setup); `alone`: above the launcher only, so leaving it goes back to the game list (a branch)."""
        from dicehall.tui.screens.games import game_screen

        screen = game_screen(session)
        if replace:
            self.switch_screen(screen)
            return
        if alone:
            while len(self.screen_stack) > 1:
                self.pop_screen()
        self.push_screen(screen)

    # ----- a hall game: this terminal's seat; its screen follows the others' moves (tui/screens/hall/follow.py) -----
    def open_hall_game(self, game=None) -> None:
        """The hall game's screen (or, until every seat is taken, the screen that waits for them);
        the screen follows the game. `game`: a seat taken from the hall's lobby (`j`); otherwise the
        one `dicehall host/join` took."""
        from dicehall.tui.screens.games import hall_game_screen
        from dicehall.tui.screens.hall.table import HallWaitScreen

        if game is not None:
            self.close_hall()  # at most one seat per terminal
            self.hall_game = game
        game = self.hall_game
        if game.session is None:
            self.push_screen(HallWaitScreen(game))
        else:
            self.push_screen(hall_game_screen(game))

    def open_hall_table(self, waiting: Screen) -> None:
        """The last seat was taken: the game's screen in place of the one that waited for it."""
        from dicehall.tui.screens.games import hall_game_screen

        self.switch_screen_under(waiting, hall_game_screen(self.hall_game))

    def switch_screen_under(self, old: Screen, new: Screen) -> None:
        """Put `new` where `old` is (under any dialog above it)."""
        while self.screen is not old and len(self.screen_stack) > 1:
            self.pop_screen()
        self.switch_screen(new)

    def hall_lobby(self):
        """The Hall screen beneath a hall game opened from it (None: opened by dicehall host/join)."""
        from dicehall.tui.screens.hall.lobby import HallScreen

        # the topmost: a match's table (HALL_HOME) above the Hall screen is where its games come back to
        return next((s for s in reversed(self.screen_stack) if isinstance(s, HallScreen) or getattr(s, "HALL_HOME", False)),
                    None)

    def hall_leave_words(self) -> str:
        """What q and Esc do in a hall game, as its help says it."""
        from dicehall.saves.box import JOIN_KEY, command_hint  # here: the first frame imports no saves module

        game = self.hall_game
        where = "go back to the Hall screen" if self.hall_lobby() is not None else "leave dicehall"
        if game is None or game.finished:
            return where if self.hall_lobby() is not None else f"{where} (asks first)"
        return f"{where} (asks first); your seat waits: {command_hint(f'join {game.id}', key=JOIN_KEY)} takes it back"

    def leave_hall_game(self) -> None:
        """q or Esc in a hall game: back to the Hall screen it was opened from, else out of
        dicehall. A game in progress asks first (its seat waits), and so does leaving dicehall:
        one Escape meant as "cancel" must not end the program, nor an SSH session with it."""
        from dicehall.saves.box import JOIN_KEY, command_hint
        from dicehall.tui.screens.dialogs import ConfirmScreen

        game, lobby = self.hall_game, self.hall_lobby()
        if lobby is not None and (game is None or game.finished):
            self.back_to_lobby(lobby)
            return
        if game is None or game.finished:
            question = "Leave dicehall?"
        else:
            where = "Go back to the Hall screen?" if lobby is not None else "Leave dicehall?"
            question = (f"Leave game {game.id}? Your seat waits for you: "
                        f"{command_hint(f'join {game.id}', key=JOIN_KEY)} takes it back. {where}")
        question = self.with_unkept_draft(question)

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            if lobby is not None:
                self.back_to_lobby(lobby)
            else:
                self.exit()

        self.push_screen(ConfirmScreen(question), answered)

    def with_unkept_draft(self, question: str) -> str:
        """A question about leaving, warning first when the screen's draft could not be written (a
        journal's: a full disk, a closed save): the hall's games and the launcher's ask the same."""
        if getattr(self.screen, "draft_unkept", False):
            return "Your draft could not be kept (the status line said why): leaving loses it. " + question
        return question

    def back_to_lobby(self, lobby: Screen) -> None:
        """Leave the hall game (its seat is released) and show the Hall screen again."""
        self.close_hall()
        while self.screen is not lobby and len(self.screen_stack) > 1:
            self.pop_screen()

    def close_hall(self) -> None:
        """Stop the screens following the game, then leave it: the seat's lock and any watcher's are released."""
        game, self.hall_game = self.hall_game, None
        follow = sys.modules.get("dicehall.tui.screens.hall.follow")  # never imported: no screen of a hall game
        if follow is not None:  # (so leaving the app loads no hall module)
            for screen in self.screen_stack:
                if isinstance(screen, follow.HallTable):  # the screens this terminal plays the game on
                    screen.stop_following()
        if game is not None:
            from dicehall.tui.screens.hall.talk import close_chat

            close_chat(game)
            game.close()

    def open_setup(self, game_id: str) -> bool:
        """The screen that asks who plays a new game; False if the game has none (it is only named)."""
        from dicehall.tui.screens.games import setup_screen

        setup = setup_screen(game_id)
        if setup is None:
            return False
        self.push_screen(setup)
        return True

    def open_viewer(self, session: Session, live: bool = False) -> None:
        """The replay viewer on `session`; `live`: a game in progress, reviewed from its screen."""
        from dicehall.tui.screens.viewer import ViewerScreen

        self.push_screen(ViewerScreen(session, live=live))

    def open_hindsight_line(self, line: Session, solution, name: str = "") -> None:
        """The hindsight solver's winning line (an engine.analysis.troll_solver.Solution, played out
        as `line`) in a viewer of its own; `name`: the save's, for a branch's name."""
        from dicehall.tui.screens.viewer.line import LineViewer

        self.push_screen(LineViewer(line, solution, name))

    def open_hall(self) -> None:
        """The hall's lobby: its games, to watch or join."""
        from dicehall.tui.screens.hall.lobby import HallScreen

        self.push_screen(HallScreen())

    def open_hall_host(self, hall=None) -> None:
        """The choices of a new hall game (the Hall screen's n); it opens the game's screen."""
        from dicehall.tui.screens.hall.host import HallHostScreen

        self.push_screen(HallHostScreen(hall))

    def open_hall_scores(self, hall=None) -> None:
        """The hall's scores (the Hall screen's s): per player name and game, from its finished games."""
        from dicehall.tui.screens.hall.scores import HallScoresScreen

        self.push_screen(HallScoresScreen(hall))

    def open_hall_ratings(self, folder=None) -> None:
        """The hall's ratings (the scores screen's t); the ratings screen shares the scores' table,
        so the app opens it and the two screens never import each other."""
        from dicehall.tui.screens.hall.ratings import HallRatingsScreen

        self.push_screen(HallRatingsScreen(folder))

    def open_hall_viewer(self, game) -> None:
        """The live viewer on a hall game this process watches (a HallGame from Hall.watch); it
        closes the game when it is left."""
        from dicehall.tui.screens.hall.watch import HallViewer

        self.push_screen(HallViewer(game))

    def watch_hall_game(self, game_id: str, hall=None) -> str | None:
        """Watch a hall game: live while it is played, as a replay once it is over (its dice
        re-derived from the revealed seed). Returns the one line saying why not, or None."""
        from dicehall.engine.errors import DicehallError
        from dicehall.saves import error_line
        from dicehall.saves.hall import Hall

        hall = hall or Hall()
        try:
            game = hall.watch(game_id)
        except (DicehallError, OSError) as error:  # HallError, a damaged or vanished game: one line
            return error_line(error)
        if not game.finished:
            self.open_hall_viewer(game)
            return None
        game.close()
        try:
            session = hall.finished_session(game_id)
        except (DicehallError, OSError) as error:  # never revealed, or a die that is not the seed's
            return error_line(error)
        self.open_viewer(session)
        return None

    def open_bookshelf(self) -> None:
        from dicehall.tui.screens.bookshelf import BookshelfScreen

        self.push_screen(BookshelfScreen())

    def open_rules(self, game) -> None:
        from dicehall.tui.screens.rules import RulesScreen

        self.push_screen(RulesScreen(game))

    def open_practice(self) -> None:
        """Practice: the marked decisions of your analysed games, one at a time (issue #22)."""
        from dicehall.tui.screens.practice import PracticeScreen

        self.push_screen(PracticeScreen())

    def open_stats(self) -> None:
        from dicehall.tui.screens.stats import StatsScreen

        self.push_screen(StatsScreen())

    def open_saves(self) -> None:
        from dicehall.tui.screens.saves import SavesScreen

        self.push_screen(SavesScreen())

    def game_screens(self, game_id: str):
        """What the terminal shows of a game (tui/screens/games.py's GameScreens): the replay viewer's
        board drawer, how wide the board is, what the reveal shows."""
        from dicehall.tui.screens.games import game_screens

        return game_screens(game_id)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.terminal.box_lines or shown.isascii():
            return shown
        from dicehall.tui.screens.dialogs import key_label  # words for the arrows and the Enter sign

        modifiers, key = binding.parse_key()
        return "+".join(modifiers + [key_label(key).title() if len(key) > 1 else key])

    def on_resize(self, event: events.Resize) -> None:
        self.fit_size_notice(event.size)

    def fit_size_notice(self, size: Size) -> None:
        """Cover the screen with a notice while the terminal is too small for it; lift it once it fits."""
        notice = self.screen if isinstance(self.screen, TooSmallScreen) else None
        beneath = next((s for s in reversed(self.screen_stack) if not isinstance(s, TooSmallScreen)
                        and hasattr(s, "help_title")), self.screen)
        message = size_notice(size, beneath)
        if message is None:
            if notice is not None:
                self.pop_screen()
        elif notice is not None:
            notice.say(message)
        else:
            self.push_screen(TooSmallScreen(message))

    def end_if_orphaned(self) -> None:
        """The process that started this one is gone (`su` or sshd killed, its terminal perhaps still
        open): the session has ended, as at a hang-up, even if no SIGHUP came."""
        if os.getppid() != self.parent_pid:
            self.end_on_signal(signal.SIGHUP)

    def end_on_signal(self, signum: int) -> None:
        """The link dropped (SIGHUP, or the driver found the terminal gone) or the box is going down:
        release every save and leave. Once: a dropped link can say so twice."""
        if self.signalled is not None:
            return
        self.signalled = signum
        if not self.is_headless:
            self.ignore_further_signals()
        self.close_saves()
        self.close_hall()
        for screen in self.screen_stack:  # the games watched: a viewer may not have finished opening, and
            if hasattr(screen, "leave_game"):  # one that has not will never be unmounted to leave its own
                screen.leave_game()
        watchdog = threading.Timer(EXIT_WATCHDOG_SECONDS, os._exit, args=(128 + signum,))
        watchdog.daemon = True
        watchdog.start()
        self.exit(return_code=128 + signum)

    def ignore_further_signals(self) -> None:
        """The app is ending: a later hang-up (the kernel's own, which comes a moment after the
        terminal closes, or sshd's after the driver saw the terminal go) must not kill the process
        by the default action once asyncio's loop closes, which puts SIG_DFL back for the handlers it
        holds. The loop lets them go now, ignored instead; the watchdog still ends the process."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)

    def _handle_exception(self, error: Exception) -> None:
        """Once the app is ending on a hang-up or a signal, an error in a screen torn down as it was
        still being opened (the hall's viewer, opened just before the link dropped, finds its widgets
        gone) is no crash: the saves and the hall are closed already, the exit status stays the
        signal's, and a traceback would go to a terminal that is gone. (Textual's hook for an error
        no handler caught.)"""
        if self.signalled is not None:
            return
        super()._handle_exception(error)

    def close_saves(self) -> None:
        for screen in self.screen_stack:
            keep_draft = getattr(screen, "keep_draft", None)  # a writer's words go to the save first
            if callable(keep_draft):
                keep_draft()
            session = getattr(screen, "session", None)
            if session is not None:
                from dicehall.saves import close_save  # here: leaving the launcher alone loads no saves module

                close_save(session)

    def on_unmount(self) -> None:
        self.close_saves()
        self.close_hall()
