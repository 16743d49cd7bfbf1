"""DicehallApp: the Textual app. It stays thin: screens own behaviour, the engine owns the games.

A dropped SSH link sends SIGHUP, a shutdown SIGTERM. Textual does not handle either, so the app
does: every event is already fsync'd, so it releases the saves and exits. It never ignores SIGHUP
(an orphan reading a dead terminal spins the CPU), and a watchdog ends the process if a dead
terminal makes the normal exit hang.
"""
from __future__ import annotations

import asyncio
import os
import signal
import threading
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from engine import Session
from tui.screens.launcher import LauncherScreen

EXIT_WATCHDOG_SECONDS = 3.0


class DicehallApp(App):
    CSS_PATH = Path(__file__).with_name("dicehall.tcss")
    TITLE = "dicehall"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, session: Session | None = None, replay: Session | None = None, setup: Screen | None = None) -> None:
        super().__init__()
        self.start_session = session
        self.start_replay = replay
        self.start_setup = setup  # a game's setup screen (who plays) to open first
        self.signalled: int | None = None

    def get_default_screen(self) -> LauncherScreen:
        return LauncherScreen()

    def on_mount(self) -> None:
        if self.start_session is not None:
            from tui.screens.games import game_screen

            self.push_screen(game_screen(self.start_session))
        elif self.start_setup is not None:
            self.push_screen(self.start_setup)
        elif self.start_replay is not None:
            from tui.screens.viewer import ViewerScreen

            self.push_screen(ViewerScreen(self.start_replay))
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(signum, self.end_on_signal, signum)

    def end_on_signal(self, signum: int) -> None:
        """The link dropped or the box is going down: release every save and leave."""
        self.signalled = signum
        self.close_saves()
        watchdog = threading.Timer(EXIT_WATCHDOG_SECONDS, os._exit, args=(128 + signum,))
        watchdog.daemon = True
        watchdog.start()
        self.exit(return_code=128 + signum)

    def close_saves(self) -> None:
        from saves import close_save

        for screen in self.screen_stack:
            session = getattr(screen, "session", None)
            if session is not None:
                close_save(session)

    def on_unmount(self) -> None:
        self.close_saves()
