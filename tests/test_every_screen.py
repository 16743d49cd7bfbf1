"""Every screen at 80x24, as a new player meets it (issue #10): its help fits without scrolling
(a help that cannot fit says "more below" and which keys scroll it), no key has two meanings in the
help or the footer, and the footer names the key to press (Enter, PgUp), even where the focused list
or scroller has a binding of its own for it."""
from __future__ import annotations

from pathlib import Path

import pytest

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE
from tests.apphelpers import drive, screen_text, settled, wait_until_quiet
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.bones import BonesScreen
from dicehall.tui.screens.dialogs import HelpScreen
from dicehall.tui.screens.games import SCREENS as GAME_SCREENS
from dicehall.tui.screens.games import setup_screen
from dicehall.tui.screens.rules import RulesScreen
from dicehall.tui.screens.saves import SavesScreen
from dicehall.tui.screens.towers import TowersScreen
from dicehall.tui.widgets import KeysFooter

GAMES = tuple(entry.id for entry in CATALOGUE if entry.playable)
PLAYERS = {"wager": [Player("Ada"), Player("Bot 2", True, "best")], "towers": [Player("Ada"), Player("Bo")],
           "bones": [Player("Ada"), Player("Bo")]}


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch):
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 0)  # a new battle's landings drawn at once


def game(game_id: str):
    return saves.new_save(game_id, name=f"every {game_id}", seed=3, players=PLAYERS.get(game_id))


# (what, the app, the keys that reach the screen from where it opens)
SCREENS = (
    [("launcher", lambda: DicehallApp(), []),
     ("saves list", lambda: game("dicetower") and DicehallApp(), ["c"]),
     ("rules", lambda: DicehallApp(), ["i"])]
    + [(game_id, lambda game_id=game_id: DicehallApp(session=game(game_id)), []) for game_id in GAMES]
    + [(f"{game_id} viewer", lambda game_id=game_id: DicehallApp(session=game(game_id)), ["v"]) for game_id in GAMES]
    + [(f"{game_id} setup", lambda game_id=game_id: DicehallApp(setup=setup_screen(game_id)), [])
       for game_id in GAMES if GAME_SCREENS[game_id].setup is not None]
    + [("hall", lambda: DicehallApp(), ["h"]), ("hall new game", lambda: DicehallApp(), ["h", "n"]),
       ("hall scores", lambda: DicehallApp(), ["h", "s"]), ("hall ratings", lambda: DicehallApp(), ["h", "s", "t"]),
       ("hall matches", lambda: DicehallApp(), ["h", "m"]), ("hall archive", lambda: DicehallApp(), ["h", "a"])])


def footer_keys(app) -> list[str]:
    return [key.key for key in app.screen.query_one(KeysFooter).shown]


@pytest.mark.parametrize("what, make_app, keys", SCREENS, ids=[what for what, _, _ in SCREENS])
def test_help_fits_80x24_unscrolled_and_every_key_has_one_meaning(what, make_app, keys):
    async def steps(pilot):
        await pilot.press(*keys)
        screen = pilot.app.screen
        footer = footer_keys(pilot.app)
        # the longest the help gets: every key but ? marked "(not now)"
        screen.binding_possible = lambda binding: binding.action == "help"
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen), what
        box = help_screen.query_one("#help-box")
        return footer, help_screen.rows, box.max_scroll_y, box.border_subtitle, screen_text(pilot.app), help_screen.title_text

    footer, rows, scroll, said, text, title = drive(make_app(), steps)
    assert scroll == 0 and said == "", f"{what}: the help needs scrolling\n{text}"
    assert (title == "dicehall") == (what == "launcher"), f"{what}: the help is titled {title!r}"  # it names its screen
    lines = text.splitlines()
    above = lines[next(i for i, line in enumerate(lines) if "\u2570" in line and "\u256f" in line) - 1]
    inside = above[above.index("\u2502") + 1:above.rindex("\u2502")]  # between the box's sides
    assert inside.strip() != "", f"{what}: a blank line at the bottom of the help"
    assert "(not now)" in text  # the rows were drawn at their longest
    keys = [key for shown, _ in rows for key in (["Up", "Down", "Left", "Right"] if shown == "Arrows" else shown.split(" / "))]
    assert len(keys) == len(set(keys)), f"{what}: a key on two lines of the help: {keys}"
    assert len(footer) == len(set(footer)), f"{what}: a key twice in the footer: {footer}"


def test_a_help_too_long_for_the_screen_says_more_is_below_and_pgdn_scrolls_it():
    long = "a message far longer than two lines of the status line " * 12

    async def steps(pilot):
        pilot.app.screen.status(long)  # cut on the status line: ? shows it whole above the keys
        await pilot.press("question_mark")
        await pilot.pause()
        box = pilot.app.screen.query_one("#help-box")
        top = box.border_subtitle, screen_text(pilot.app)
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        return top, (box.scroll_y, box.max_scroll_y, box.border_subtitle)

    (said, text), (scrolled, most, end) = drive(DicehallApp(session=game("troll")), steps)
    assert said == "more below: PgDn or Down" and "more below: PgDn or Down" in text
    assert scrolled == most > 0 and end == "the end: PgUp or Up goes back"


@pytest.mark.parametrize("game_id", ["troll", "towers", "bones"])
def test_a_setup_footer_names_enter_which_changes_the_line(game_id):
    async def steps(pilot):
        screen = pilot.app.screen
        before = screen.rows()
        footer = (await settled(pilot)).splitlines()[-1]
        await pilot.press("enter")  # the first line: a choice that Enter changes
        return footer, before, screen.rows()

    footer, before, after = drive(DicehallApp(setup=setup_screen(game_id)), steps)
    assert "\u23ce Change" in footer and "space" not in footer
    assert before[0] != after[0]


def test_the_wager_setup_footer_names_enter_which_names_a_seat():
    async def steps(pilot):
        footer = (await settled(pilot)).splitlines()[-1]
        await pilot.press("enter")
        return footer, type(pilot.app.screen).__name__

    footer, dialog = drive(DicehallApp(setup=setup_screen("wager")), steps)
    assert "\u23ce Name" in footer and dialog == "AskScreen"


def test_the_saves_footer_names_enter_which_continues():
    session = game("dicetower")
    saves.close_save(session)

    async def steps(pilot):
        await pilot.press("c")
        assert isinstance(pilot.app.screen, SavesScreen)
        footer = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("enter")
        return footer, getattr(pilot.app.screen, "session", None)

    footer, opened = drive(DicehallApp(), steps)
    assert footer.strip().startswith("\u23ce Continue")
    assert opened is not None and opened.labels.save_id == session.labels.save_id


def test_the_rules_footer_names_pgup_and_pgdn_which_scroll_it():
    async def steps(pilot):
        await pilot.press("i")
        screen = pilot.app.screen
        assert isinstance(screen, RulesScreen)
        scroll = screen.query_one("#rules-scroll")
        footer = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("pagedown", "down")
        down = scroll.scroll_y
        await pilot.press("up", "pageup")
        return footer, down, scroll.scroll_y

    footer, down, up = drive(DicehallApp(), steps)
    assert "pgup Page up" in footer and "pgdn Page down" in footer
    assert down == 16 and up == 0  # the screen's keys: a page is 15 lines


def test_towers_footer_shows_esc_only_while_a_pick_is_held():
    from dicehall.engine.games.towers import Place

    session = saves.new_save("towers", name="esc", seed=1, players=[Player("Ada"), Player("Bo")])
    for _ in range(16):  # every tower placed: the movement phase
        session.play(Place(session.commands()[0].square))

    async def steps(pilot):
        screen = pilot.app.screen
        assert isinstance(screen, TowersScreen)
        idle = screen_text(pilot.app).splitlines()[-1]
        screen.cursor = session.commands()[0].source  # a tower that can move
        await pilot.press("enter")
        picked = screen_text(pilot.app).splitlines()[-1], screen.selected
        await pilot.press("escape")
        dropped = screen_text(pilot.app).splitlines()[-1], screen.selected, pilot.app.screen is screen
        return idle, picked, dropped

    idle, (picked, selected), (dropped, after, still) = drive(DicehallApp(session=session), steps)
    assert "q Back" in idle and "esc" not in idle
    assert selected is not None and "esc Drop the pick" in picked and "q Back" in picked
    assert after is None and still and "esc" not in dropped  # Esc dropped the pick and nothing else
    assert "/ back" not in idle + picked + dropped  # one meaning per key


def test_an_app_that_ended_keeps_nothing_its_widgets_drew():
    """Textual's cache of StylesCache.get_inner_outer held the last 1,024 widgets' StylesCaches with
    every line they drew (tui/textual_fixes.py): once an app has drawn its screens and ended, none is kept."""
    import gc
    import weakref

    async def steps(pilot):
        await pilot.press("i")  # the rules, over the launcher
        await settled(pilot)
        return [weakref.ref(widget._styles_cache) for screen in pilot.app.screen_stack
                for widget in screen.walk_children(with_self=True)]

    drawn = drive(DicehallApp(), steps)
    gc.collect()
    assert len(drawn) > 10 and [ref for ref in drawn if ref() is not None] == []


def test_css_shared_between_apps_keeps_each_themes_colours():
    """tests/apphelpers.py shares Textual's parsed CSS between the apps of a test process, keyed by
    the CSS variables: an app of another theme gets its own theme's colours from the same CSS, and
    one of the first theme its first colours again, however often the same CSS was parsed before."""
    from textual.app import App
    from textual.color import Color
    from textual.widgets import Static

    class Themed(App):
        CSS = "Static { background: $primary; }"

        def __init__(self, theme: str) -> None:
            super().__init__()
            self.theme = theme

        def compose(self):
            yield Static("x")

    async def colours(pilot):
        return pilot.app.query_one(Static).styles.background, Color.parse(pilot.app.current_theme.primary)

    seen = [drive(Themed(theme), colours) for theme in ("textual-dark", "textual-light", "textual-dark")]
    assert all(background == primary for background, primary in seen)
    assert seen[0][0] != seen[1][0] and seen[0][0] == seen[2][0]


def test_a_nodes_screen_is_found_as_textual_finds_it_without_an_import_at_each_look():
    """tui/textual_fixes.py: DOMNode.screen walks up to the node's screen as Textual's own does (a
    mounted widget's screen, a screen's itself; NoScreen for a widget not mounted) with Screen
    imported once, not at each of the thousand looks of a launcher test."""
    from textual.dom import DOMNode, NoScreen
    from textual.widgets import Static

    from dicehall.tui.textual_fixes import find_screens_without_importing

    fixed = DOMNode.__dict__["screen"]
    assert "textual.screen" not in fixed.fget.__code__.co_names  # applied to this Textual's
    find_screens_without_importing()
    assert DOMNode.__dict__["screen"] is fixed  # once a process

    async def steps(pilot):
        await pilot.press("i")  # the rules, over the launcher
        await settled(pilot)
        return [(node.screen, screen) for screen in pilot.app.screen_stack for node in screen.walk_children(with_self=True)]

    found = drive(DicehallApp(), steps)
    assert len({id(screen) for _, screen in found}) == 2 and all(node_screen is screen for node_screen, screen in found)
    with pytest.raises(NoScreen):
        _ = Static("not mounted").screen


def test_a_strip_makes_its_caches_at_their_second_use_and_draws_as_textuals_does():
    """tui/textual_fixes.py: a Strip is born with no cache (applied to this Textual's); a method's
    first call on it is worked out, its second kept in the cache made then, its third the kept one;
    and a screen drawn by strips so made reads as before (tests/snapshots: the launcher's)."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from dicehall.tui import textual_fixes

    assert getattr(Strip.__init__, "lazy_caches", False)  # the app applied it to this Textual's Strip
    strip = Strip([Segment("hello "), Segment("world", Style(bold=True))])
    assert strip._crop_cache is textual_fixes.UNUSED and strip._style_cache is textual_fixes.UNUSED
    first, second, third = (strip.crop(2, 9) for _ in range(3))
    assert first.text == second.text == third.text == "llo wor" and first is not second and third is second
    styled = [strip.apply_style(Style(italic=True)) for _ in range(3)]
    assert styled[2] is styled[1] and styled[0] is not styled[1] and strip._divide_cache is textual_fixes.UNUSED
    assert [piece.text for piece in strip.divide([3, 8, 11])] == ["hel", "lo wo", "rld"]

    text = drive(DicehallApp(), settled)
    assert text == (Path(__file__).parent / "snapshots" / "launcher.txt").read_text()


def test_pilot_waits_until_the_app_has_nothing_to_do_now_not_for_the_cpu_to_idle():
    """tests/apphelpers.py: Textual's App._press_keys (after each key) and Pilot.pause wait through
    the name `wait_for_idle` of their modules, and in tests that is wait_until_quiet: a key whose
    action awaits a sleep and then has a label redrawn a message later is drawn when press returns,
    and a timer that repeats every 10 ms and an input's blinking cursor do not keep it from ending
    quiet (not at its 1 s cap). It reads Textual's private names (the event loop's, the message
    pumps', the screen's, the animator's): a Textual that renamed one fails here."""
    import asyncio

    import textual.app
    import textual.pilot
    from textual.app import App
    from textual.binding import Binding
    from textual.pilot import Pilot
    from textual.widgets import Input, Static

    assert "wait_for_idle" in App._press_keys.__code__.co_names and "wait_for_idle" in Pilot.pause.__code__.co_names
    assert textual.app.wait_for_idle is wait_until_quiet and textual.pilot.wait_for_idle is wait_until_quiet

    class Slow(App):
        BINDINGS = [Binding("f5", "slow", priority=True)]
        ticks = 0

        def compose(self):
            yield Input()
            yield Static("before", id="said")

        def on_mount(self) -> None:
            self.set_interval(0.01, self.tick)

        def tick(self) -> None:
            self.ticks += 1

        async def action_slow(self) -> None:
            await asyncio.sleep(0.05)
            self.call_later(self.query_one("#said", Static).update, "after")

    async def steps(pilot):
        await pilot.press("f5")
        drawn = screen_text(pilot.app)
        ticks = pilot.app.ticks
        quiet = await wait_until_quiet()
        return drawn, ticks, quiet, pilot.app.ticks

    drawn, ticks, quiet, ticks_later = drive(Slow(), steps)
    assert "after" in drawn and "before" not in drawn
    # quiet, not at the cap; app_busy is not asked again after: on a loaded machine the 10 ms
    # timer can come due between wait_until_quiet's last look and the next line
    assert quiet and ticks_later >= ticks > 0  # the timer ran on meanwhile


def test_a_headless_screen_paints_once_quiet_and_what_painting_does_happens_before_a_test_looks():
    """tests/apphelpers.py's paint_once_quiet: a key that changes the layout, whose Resize has a
    widget write its new width, is painted once, when the app is quiet (Textual painted the layout's
    update, then the width's); after the wait nothing is left to paint, and a widget whose render
    fails fails the test at that key (as a terminal's frame would), not later or never."""
    from textual._compositor import Compositor
    from textual.app import App
    from textual.binding import Binding
    from textual.containers import Horizontal
    from textual.widgets import Static

    from tests.apphelpers import paint_owed

    class Width(Static):
        broken = False

        def on_resize(self) -> None:
            self.update(f"width {self.size.width}")

        def render(self):
            if self.broken:
                raise RuntimeError("a render that fails")
            return super().render()

    class Panel(App):
        BINDINGS = [Binding("f5", "panel", priority=True), Binding("f6", "break", priority=True)]
        CSS = "#side { width: 20; } Width { width: 1fr; }"

        def compose(self):
            with Horizontal():
                yield Width("")
                yield Static("side", id="side")

        def action_panel(self) -> None:
            side = self.query_one("#side")
            side.display = not side.display

        def action_break(self) -> None:
            said = self.query_one(Width)
            said.broken = True
            said.refresh()

    paints = []
    render_update = Compositor.render_update

    def counted(self, *args, **kwargs):
        paints.append(1)
        return render_update(self, *args, **kwargs)

    async def steps(pilot):
        before = len(paints)
        await pilot.press("f5")
        return len(paints) - before, paint_owed(pilot.app.screen), screen_text(pilot.app)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Compositor, "render_update", counted)
        painted, owed, text = drive(Panel(), steps)
    assert painted == 1 and not owed and text.startswith("width 80")

    async def breaking(pilot):
        await pilot.press("f6")
        return "not raised"

    with pytest.raises(RuntimeError, match="a render that fails"):
        drive(Panel(), breaking)
