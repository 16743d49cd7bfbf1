"""The footer of every game screen at 80x24: it lists only the keys that do something now, so no
key is told apart by its colour alone (the README's promise); Undo appears once there is a move to
take back; a key left out says why when pressed, and ? marks it "(not now)"."""
from __future__ import annotations

import pytest
from textual.actions import parse as parse_action

from dicehall import saves
from dicehall.engine.core import Player
from tests.apphelpers import drive, screen_text, settled, until
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.bones import BonesScreen
from dicehall.tui.screens.troll import TrollScreen
from dicehall.tui.widgets import FooterEntry, KeysFooter

PEOPLE = [Player("Ada"), Player("Bo")]
GAMES = {"dicetower": None, "troll": None, "wager": PEOPLE, "towers": PEOPLE, "bones": PEOPLE}


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch):
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 0)
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 0)


def footer_keys(screen) -> list[FooterEntry]:
    return list(screen.query_one(KeysFooter).shown)


@pytest.mark.parametrize("game", GAMES)
def test_the_footer_shows_only_keys_possible_now_and_undo_once_there_is_a_move(game):
    session = saves.new_save(game, name="footer", seed=3, players=GAMES[game])
    assert not session.can_undo

    async def steps(pilot):
        screen = pilot.app.screen
        footer = (await settled(pilot)).splitlines()[-1]
        keys = footer_keys(screen)
        shown = [(key.key, screen.possible_now(*parse_action(key.action)[1:])) for key in keys]
        greyed = [key.key for key in keys if not key.enabled]
        await pilot.press("u")
        refused = screen_text(pilot.app).splitlines()[-2]
        await pilot.press("question_mark")
        help_text = screen_text(pilot.app)
        await pilot.press("escape")
        # one legal move by the session's first command, then the footer follows
        session.play(session.commands()[0])
        screen.refresh_bindings()
        await until(pilot, lambda: "u Undo" in screen_text(pilot.app).splitlines()[-1])  # the footer follows
        return shown, greyed, footer, refused, help_text, screen_text(pilot.app).splitlines()[-1]

    shown, greyed, footer, refused, help_text, after = drive(DicehallApp(session=session), steps)
    assert shown and all(possible for _, possible in shown), shown  # everything listed works now
    assert greyed == []  # nothing is left for colour alone to tell apart
    assert "u Undo" not in footer and "v Review" in footer
    assert "Not now: nothing to undo" in refused
    assert "u / ctrl+z  undo your last move (not now)" in help_text
    assert session.can_undo and "u Undo" in after


def test_undo_leaves_the_footer_when_everything_is_undone():
    session = saves.new_save("dicetower", name="undo", seed=3)

    async def steps(pilot):
        await pilot.press("p")
        pulled = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("u")
        undone = screen_text(pilot.app).splitlines()[-1]
        await pilot.press("u")
        return pulled, undone, screen_text(pilot.app).splitlines()[-2]

    pulled, undone, again = drive(DicehallApp(session=session), steps)
    assert not session.can_undo and session.undos == 1
    assert "u Undo" in pulled and "u Undo" not in undone
    assert "Not now: nothing to undo" in again


def test_the_footer_lists_the_keys_while_the_app_has_no_focus():
    # a browser page (dicehall serve) blurs the app until it is clicked; Textual's Footer does not
    # follow the keys while the app is blurred, so a screen opened meanwhile had a blank footer
    from textual import events

    async def steps(pilot):
        app = pilot.app
        app.post_message(events.AppBlur())
        await pilot.pause()
        launcher = screen_text(app).splitlines()[-1]
        app.open_saves()
        await pilot.pause()
        await pilot.pause()
        return app.app_focus, launcher, screen_text(app).splitlines()[-1]

    focused, launcher, saves_list = drive(DicehallApp(), steps)
    assert not focused
    assert "c Continue" in launcher and "? Help" in launcher and "q Quit" in launcher
    assert "? Help" in saves_list and "q Back" in saves_list  # drawn with its keys from its first frame


def test_a_click_on_a_footer_key_presses_it_and_a_click_between_keys_does_nothing():
    from dicehall.tui.widgets import KeysFooter

    session = saves.new_save("dicetower", name="click", seed=3)

    async def steps(pilot):
        line = (await settled(pilot)).splitlines()[-1]
        footer = pilot.app.screen.query_one(KeysFooter)
        pull = next(start for start, _, key in footer.columns if key.key == "p")
        gap = line.index("Pull ") + len("Pull")  # the space after a description: no key's
        await pilot.click(KeysFooter, offset=(gap, 0))
        between = len(session.events)
        await pilot.click(KeysFooter, offset=(pull, 0))
        await until(pilot, lambda: len(session.events) > between)
        return line, between

    line, between = drive(DicehallApp(session=session), steps)
    assert " p Pull " in line and between == 0
