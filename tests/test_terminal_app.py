"""The terminal as it is (issue #10): too small for a screen (a notice covers it until a resize),
without colour or box-drawing characters (TERM=vt100, NO_COLOR), and the mouse."""
from __future__ import annotations

import asyncio
import os
import pty
import re
import signal
import subprocess
import sys

import pytest

from dicehall import saves
from dicehall.engine.core import Player
from tests.apphelpers import exited, screen_text
from tests.test_signals import read_for
from dicehall.tui.app import DicehallApp, TooSmallScreen
from dicehall.tui.screens.bones import BonesScreen
from dicehall.tui.screens.launcher import LauncherScreen
from dicehall.tui.terminal import FULL, PLAIN, Terminal, choose_terminal

PEOPLE = [Player("Ada"), Player("Bo")]


@pytest.fixture(autouse=True)
def bones_at_once(monkeypatch):
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 0)
    monkeypatch.setattr(BonesScreen, "BOT_PACE", 0)


def run_at(app, size, steps):
    async def main():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(main())


async def settle(pilot):
    for _ in range(3):
        await pilot.pause()


# ----- too small -----
def test_a_game_in_a_small_terminal_is_covered_by_a_notice_until_it_is_resized():
    session = saves.new_save("bones", name="small", seed=5, players=PEOPLE)

    async def steps(pilot):
        small = screen_text(pilot.app)
        covered = isinstance(pilot.app.screen, TooSmallScreen)
        before = len(session.events)
        await pilot.press("down", "enter", "c")  # keys wait: nothing is played blind
        played = len(session.events) - before
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        fits = screen_text(pilot.app)
        screen = pilot.app.screen
        await pilot.resize_terminal(79, 24)
        await settle(pilot)
        narrow = screen_text(pilot.app)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        return small, covered, played, fits, screen, narrow, pilot.app.screen

    small, covered, played, fits, fitted, narrow, last = run_at(DicehallApp(session=session), (60, 20), steps)
    assert covered and "The terminal is 60x20; War of Bones needs 80x24." in small
    assert "B#" not in small  # the game itself is hidden, not cut off
    assert played == 0
    assert isinstance(fitted, BonesScreen)
    lines = fits.splitlines()
    assert lines[1].startswith(" +---") and lines[20].startswith(" +---")  # the map's whole frame shows
    assert "The terminal is 79x24; War of Bones needs 80x24." in narrow
    assert last is fitted  # one notice at a time: it went away again, and the game is as it was


def test_the_launcher_says_too_small_as_well_and_its_size_comes_from_the_screen():
    async def steps(pilot):
        small = screen_text(pilot.app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        return small, pilot.app.screen

    small, screen = run_at(DicehallApp(), (60, 20), steps)
    assert "The terminal is 60x20; dicehall needs 80x24." in small
    assert isinstance(screen, LauncherScreen)

    class Roomy(LauncherScreen):
        MIN_SIZE = (50, 16)  # a screen that states a smaller need is drawn at 60x20

    class RoomyApp(DicehallApp):
        def get_default_screen(self):
            return Roomy()

    async def roomy(pilot):
        return pilot.app.screen

    assert isinstance(run_at(RoomyApp(), (60, 20), roomy), Roomy)


# ----- plain terminals -----
@pytest.mark.parametrize("term, colours, no_color, expected", [
    ("vt100", -1, False, PLAIN),  # terminfo: no colours, so no box-drawing either
    ("vt220", -1, False, PLAIN),
    ("dumb", None, False, PLAIN),
    ("xterm-256color", 256, False, FULL),
    ("xterm", 8, False, FULL),
    ("xterm-256color", 256, True, Terminal(colour=False, box_lines=True)),  # NO_COLOR: colour only
    ("vt100", -1, True, PLAIN),
    ("", None, False, FULL),  # no TERM, or one without a terminfo entry: nothing is known
    ("someterm", None, False, FULL),
])
def test_the_terminal_choice(term, colours, no_color, expected):
    assert choose_terminal(term, colours, no_color) == expected


def detected(**env) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("TERM", "NO_COLOR")}
    environ.update(env)
    code = "from dicehall.tui.terminal import detect_terminal; print(detect_terminal().describe())"
    result = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_the_terminfo_entry_is_read():
    # one process per TERM: curses reads terminfo once per process
    assert detected(TERM="vt100") == "no colour, ASCII lines"
    assert detected(TERM="xterm-256color") == "colour, box-drawing lines"
    assert detected(TERM="xterm-256color", NO_COLOR="1") == "no colour, box-drawing lines"


def colours_used(app) -> set:
    found = set()
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            for colour in (style.color, style.bgcolor) if style is not None else ():
                if colour is not None and not colour.is_default:
                    found.add(colour.name)
    return found


def test_a_plain_terminal_gets_ascii_lines_and_no_colour():
    session = saves.new_save("bones", name="plain", seed=5, players=PEOPLE)

    async def steps(pilot):
        game = screen_text(pilot.app)
        game_colours = colours_used(pilot.app)
        await pilot.press("question_mark")
        await settle(pilot)
        help_text = screen_text(pilot.app)
        await pilot.press("escape", "q")
        await settle(pilot)
        launcher = screen_text(pilot.app)
        highlighted = [s for strip in pilot.app.screen._compositor.render_strips() for s in strip
                       if "Dice Tower" in s.text and s.style is not None and s.style.underline]
        return game, game_colours, help_text, launcher, colours_used(pilot.app), highlighted

    game, game_colours, help_text, launcher, launcher_colours, highlighted = run_at(
        DicehallApp(session=session, terminal=PLAIN), (80, 24), steps)
    for text in (game, help_text, launcher):
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
    assert "-+ |  A Ada (human)" in game  # the rule between the map and the side panel, in ASCII
    assert help_text.count("+----") >= 2  # the help box's corners
    assert launcher.splitlines()[1].startswith("+----")  # the menu's border
    assert game_colours == set() and launcher_colours == set()
    assert highlighted  # the menu's line is underlined, not marked by its colour alone


def test_a_full_terminal_keeps_its_lines_and_colours():
    async def steps(pilot):
        return screen_text(pilot.app), colours_used(pilot.app)

    text, colours = run_at(DicehallApp(terminal=FULL), (80, 24), steps)
    assert not text.isascii() and colours


def test_dicehall_under_term_vt100_writes_no_colour_and_no_box_drawing(home):
    pid, fd = pty.fork()
    if pid == 0:  # the child: dicehall in a terminal of its own, a vt100
        os.environ["TERM"] = "vt100"
        os.environ.pop("NO_COLOR", None)
        os.execv(sys.executable, [sys.executable, "-m", "dicehall", "play", "dicetower", "--seed", "7", "--name", "vt"])
    try:
        out = read_for(fd, 60, until=b"COUNTDOWN")
        out += read_for(fd, 1.0)
    finally:
        os.kill(pid, signal.SIGTERM)
        try:
            exited(pid, "dicehall did not leave on SIGTERM", fd)
        finally:
            os.close(fd)
    assert b"COUNTDOWN" in out, "the app did not draw its screen"
    text = out.decode("utf-8", "replace")
    assert not [c for c in text if 0x2500 <= ord(c) < 0x25A0], "box-drawing characters were written"
    colour_codes = [p for params in re.findall(r"\x1b\[([0-9;]*)m", text) for p in params.split(";")
                    if p and (30 <= int(p) <= 38 or 40 <= int(p) <= 48 or 90 <= int(p) <= 107)]
    assert colour_codes == []


def test_dicehall_does_not_take_the_mouse(home):
    """Keyboard only, everywhere alike: the app never turns on mouse reporting, so no menu, board or
    footer key pretends to take a click, and the terminal keeps its own selection."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "dicehall"])
    try:
        out = read_for(fd, 60, until=b"Dice Tower")
        out += read_for(fd, 1.0)
    finally:
        os.kill(pid, signal.SIGTERM)
        try:
            exited(pid, "dicehall did not leave on SIGTERM", fd)
        finally:
            os.close(fd)
    assert b"Dice Tower" in out, "the launcher did not draw"
    for mouse_on in (b"\x1b[?1000h", b"\x1b[?1003h", b"\x1b[?1006h"):
        assert mouse_on not in out
