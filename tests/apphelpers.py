"""Helpers for driving DicehallApp through Pilot and reading its screen as plain text."""
from __future__ import annotations

import asyncio
import os
import time

from textual._wait import wait_for_idle
from textual.app import ScreenStackError


def share_parsed_css() -> None:
    """Keep Textual's parsed CSS for the whole test process. Textual parses every stylesheet again
    for each App (a new Stylesheet, and its reparse() starts another with an empty cache), and a
    worker starts hundreds of apps: parsing the same CSS was about a tenth of an app test's CPU. A
    parse is a function of the CSS text, its place, its flags and the CSS variables (all in the key),
    and Textual never changes a parsed rule (its own cache and its copies share them), so what an
    app sees is the same; a CSS error is not kept and is raised as before. The variables' part of the
    key is made once an App (Textual gives a stylesheet a new dict of them, never changes one in
    place: its own tokens of them are cached so too). Called on import, so any test module that
    drives the app has it."""
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    if getattr(parse_rules, "shared", False):
        return
    parsed: dict[frozenset, dict[tuple, list]] = {}  # the CSS variables -> (the CSS, its place, flags) -> rules
    last: list = [None, {}]  # the variables dict last seen (kept, so its id is not another's) and its rules

    def shared(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        if last[0] is not self._variables:  # an App's variables: made a key once, not at each of its ~25 parses
            last[:] = [self._variables, parsed.setdefault(frozenset(self._variables.items()), {})]
        rules, key = last[1], (css, read_from, is_default_rules, tie_breaker, scope)
        if key not in rules:
            rules[key] = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        return list(rules[key])  # a list of its own for each caller: only the (never changed) rules are shared

    shared.shared = True
    Stylesheet._parse_rules = shared


share_parsed_css()


QUIET_CHECKS = 3  # looks in a row, each after a turn of the event loop, that find the app quiet


def app_busy(app) -> bool:
    """Whether the app has something to do now: a task or a timer of the event loop ready to run, a
    message queued or being handled by the app, a screen or a widget, a call_next waiting, an
    animation running or scheduled, a resize not yet sent to the screens, a message pump not waiting
    for its next message. What comes later (a timer not yet due, a thread, another process) is not:
    tests wait for that with `until`. Textual's private names are read directly, so a Textual
    that renames one fails here (tests/test_every_screen.py), never silently."""
    loop = asyncio.get_running_loop()
    if loop._ready or (loop._scheduled and loop._scheduled[0].when() <= loop.time()):
        return True
    animator = app._animator
    if animator._animations or animator._scheduled or app._resize_event is not None:
        return True  # a resize is sent to the screens by a timer 1/120 s on (App._on_resize)
    for pump in (app, *app._registry):
        if pump._closing or pump._closed:
            continue  # a widget on its way out: what it has left is never handled
        queue = pump._message_queue
        if queue.values or pump._pending_message is not None or pump._next_callbacks:
            return True
        if pump._task is not None and not pump._task.done() and not queue.ready_event._waiters:
            return True  # not waiting for a message: mounting, or handling one (which awaits something)
    return False


def screen_due(screen) -> bool:
    """Whether the screen (if any) has a layout, scroll, repaint or recompose, a widget to redraw or
    a call after refresh waiting for its update timer (Textual's Screen._on_idle)."""
    return screen is not None and bool(
        screen._layout_required or screen._scroll_required or screen._repaint_required
        or screen._recompose_required or screen._dirty_widgets or screen._callbacks
    )


def current_screen(app):
    """The app's screen, or None before its first and after its last."""
    try:
        return app.screen
    except ScreenStackError:
        return None


def paint_once_quiet() -> None:
    """Have a headless app's screen paint its frame once the app is quiet (wait_until_quiet), not at
    each update on the way there. Textual paints the top screen (Compositor.render_update) whenever
    its update comes due, and a headless driver throws the frame away: a key's messages came due
    two to seven times in a row, and painting was about a third of an app test's CPU. The layout is
    still made at each update (sizes, Resize and Show events, call_after_refresh): only the painting
    waits, and what came due meanwhile is painted in one update, so what a widget's render does (a
    Redrawn laid out again, an error) happens before a test looks. screen_text draws the screen
    itself. For the test process only; a terminal's app (tmux, sshd) paints every update."""
    from textual.screen import Screen

    paint = Screen._compositor_refresh
    if getattr(paint, "deferred", False):
        return

    def deferred(self) -> None:
        app = self.app
        if not app.is_headless or app.is_inline or self is not app.screen:
            return paint(self)
        self._dirty_widgets.clear()  # their regions are the compositor's dirty regions: painted later
        self._paint_owed = True

    deferred.deferred = True
    deferred.paint = paint
    Screen._compositor_refresh = deferred


paint_once_quiet()


def paint_owed(screen) -> bool:
    return getattr(screen, "_paint_owed", False)


def paint_now(screen) -> None:
    """The paint Textual would have made: of what came due since the last (see paint_once_quiet)."""
    screen._paint_owed = False
    if screen.is_current:
        from textual.screen import Screen

        Screen._compositor_refresh.paint(screen)


async def wait_until_quiet(min_sleep: float = 0, max_sleep: float = 1) -> bool | None:
    """What Pilot's key presses and pauses wait for in tests, instead of Textual's wait_for_idle
    (textual._wait), which sleeps 20 ms at least and then until the process used under 1 ms of CPU
    in 20 ms: at least 40 ms a key for nothing on an idle machine, and up to its 1 s cap (or too
    little) on a loaded one. Here: until the app has nothing to do now (app_busy) on QUIET_CHECKS
    turns of the event loop in a row, with the screen's pending update drawn at once rather than
    after its update timer (as Pilot.pause does), `min_sleep` at least and `max_sleep` at most.
    Timers that repeat (a cursor's blink, a screen's interval) do not hold it; what a thread or
    another process sends is not waited for (`until` is). Outside an app: Textual's own. True when
    the app was found quiet, False at `max_sleep`."""
    from textual._context import active_app

    try:
        app = active_app.get()
    except LookupError:
        return await wait_for_idle(min_sleep, max_sleep)
    start = time.monotonic()
    if min_sleep:
        await asyncio.sleep(min_sleep)
    quiet = 0
    while quiet < QUIET_CHECKS and time.monotonic() - start < max_sleep:
        await asyncio.sleep(0)
        if app_busy(app):
            quiet = 0
        elif not app._closed and screen_due(screen := current_screen(app)):  # closed: draws no more
            screen._on_timer_update()  # the update its timer would make a frame later
            quiet = 0
        elif not app._closed and screen is not None and paint_owed(screen):
            paint_now(screen)  # the frame of what came due on the way (it may bring more: looked at again)
            quiet = 0
        else:
            quiet += 1
    return quiet == QUIET_CHECKS


def wait_quietly_in_pilot() -> None:
    """Have Pilot's press and pause (and App._press_keys, which presses each key) wait with
    wait_until_quiet: the names textual.app and textual.pilot bound to textual._wait.wait_for_idle.
    For the test process only (this module is never imported by the app)."""
    import textual.app
    import textual.pilot

    for module in (textual.app, textual.pilot):
        module.wait_for_idle = wait_until_quiet


wait_quietly_in_pilot()


def screen_text(app) -> str:
    """What a player sees, as plain text lines (trailing spaces trimmed)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


def drive(app, steps):
    """Run `steps(pilot)` (an async function) against the app at 80x24 and return its result."""

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(main())


def drive_hall(app, steps):
    """`drive` for an app that may hold a hall seat: the seat and its follower are let go at the end,
    whatever `steps` did."""

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            try:
                return await steps(pilot)
            finally:
                app.close_hall()

    return asyncio.run(main())


async def until(pilot, condition, seconds: float = 60.0) -> None:
    """Let the app run until `condition()` holds (a follower thread wakes it, a worker reports). Fails
    with the screen after `seconds`: a guard against what never comes, generous because on a busy
    2-core machine a bot seat and the follower can take seconds; how fast a thing comes is
    tests/perf/bench.py's to measure, so no time is returned. The tests' one polling helper
    (`eventually` outside an app)."""
    start, wait = time.monotonic(), 0.02
    while not condition():
        assert time.monotonic() - start < seconds, screen_text(pilot.app)
        await pilot.pause(wait)
        wait = min(wait * 1.5, 0.1)  # a long wait looks less often: each look costs the app a pass over its widgets


def eventually(condition, what, seconds: float = 30.0, between=lambda: time.sleep(0.05)) -> None:
    """`until` outside an app (processes, files, terminals): look at `condition()`, calling `between()`
    between looks (a sleep, or reading a terminal so its writer never blocks), until it holds. Fails
    saying `what` (a string, or a function giving it then) after `seconds`: a guard against what
    never comes (an orphan that never ends), never a measure of speed."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, f"{what() if callable(what) else what}: not after {seconds} s"
        between()


def exited(pid: int, what: str, fd: int = -1, seconds: float = 30.0) -> int:
    """The wait status of child `pid` once it has exited, read off its terminal `fd` meanwhile (if
    open) so its drawing never blocks; it is killed and the test fails (saying `what`) if it outlives
    `seconds`, a guard against an orphan, not a measure of speed."""
    from tests.test_signals import read_for

    ended: list[int] = []

    def gone() -> bool:
        done, status = os.waitpid(pid, os.WNOHANG)
        ended.extend([status] if done else [])
        return bool(done)

    try:
        eventually(gone, what, seconds, (lambda: read_for(fd, 0.05)) if fd >= 0 else (lambda: time.sleep(0.05)))
    finally:
        if not ended:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    return ended[0]


async def join_from_the_hall_screen(pilot, name: str) -> None:
    """From the launcher: the Hall screen (h), then `j` on its first game, seated as `name`, until
    the game's screen is open."""
    from dicehall.tui.screens.hall.lobby import HallScreen

    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
    await until(pilot, lambda: "j Join" in footer(pilot.app))
    await pilot.press("j")
    await pilot.pause()
    await pilot.press(*name, "enter")
    await until(pilot, lambda: hasattr(pilot.app.screen, "session"))


def status(app) -> str:
    """The current screen's status line."""
    from dicehall.tui.widgets import StatusLine

    return app.screen.query_one(StatusLine).message


def footer(app) -> str:
    """The screen's last line: the footer's keys."""
    return screen_text(app).splitlines()[-1]


async def settled(pilot) -> str:
    """The screen's text once it is drawn whole: the footer's keys on the last row (Textual fills the
    footer a few messages after the screen, later still on a busy machine) and the same text twice
    in a row."""
    from dicehall.tui.widgets import KeysFooter

    seen: list[str] = []

    def drawn() -> bool:
        seen.append(screen_text(pilot.app))
        footed = bool(pilot.app.screen.query(KeysFooter))
        return len(seen) > 1 and seen[-1] == seen[-2] and (not footed or bool(seen[-1].split("\n")[-1].strip()))

    await until(pilot, drawn)
    return seen[-1]


async def open_deck_file(pilot, path) -> str:
    """On the journal's setup (the current screen): open the deck file `path` through its line, and
    return the screen then."""
    await pilot.press("down", "enter")  # open a deck file: the line under the deck's
    await pilot.pause()
    pilot.app.screen.query_one("Input").value = str(path)
    await pilot.press("enter")
    await pilot.pause()
    return screen_text(pilot.app)


def daily_day(save_name: str, began: str) -> str:
    """The day a daily deal was dealt for, as its save's name says it ("daily 2026-11-27, winnable"):
    the day the test began, or the next when midnight passed meanwhile (the app reads the clock)."""
    from datetime import date, timedelta

    day = save_name.split()[1].rstrip(",")
    assert day in {began, (date.fromisoformat(began) + timedelta(days=1)).isoformat()}, (save_name, began)
    return day
