"""The troll screen driven by keys at 80x24: a whole game played by the keys a person would press
(following the adviser), the end, the review with reveal, branching, and why a key is refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from dicehall import saves
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll
from tests.apphelpers import daily_day, drive, screen_text
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.troll import TrollScreen
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.widgets import StatusLine

SNAPSHOTS = Path(__file__).parent / "snapshots"
ARROW = {"up": "up", "down": "down", "left": "left", "right": "right"}


@pytest.fixture(autouse=True)
def batches_at_once(monkeypatch):
    """Keys pressed as fast as a test presses them: each batch is drawn whole (the stepping through
    a batch has its own tests, which turn it back on)."""
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 0)


def keys_for(command) -> list[str]:
    """The keys a player presses for one troll command."""
    if isinstance(command, troll.Move):
        return [ARROW[command.direction]]
    if isinstance(command, troll.Stomp):
        return ["s"]
    if isinstance(command, troll.Wait):
        return ["w"]
    if isinstance(command, troll.PickUp):
        return ["p", ARROW[command.direction]]
    if isinstance(command, troll.LayDown):
        return ["l", ARROW[command.direction]]
    return ["e", ARROW[command.direction]]  # club, diamond or spade: the carried card decides


def test_a_whole_game_by_keys_then_review_reveal_and_branch():
    session = saves.new_save("troll", name="by keys", seed=21, options={"difficulty": "tutorial"})

    async def steps(pilot):
        app = pilot.app
        screen = app.screen
        assert isinstance(screen, TrollScreen)
        presses = 0
        while session.outcome is None and presses < 400:
            command = adviser.choose(session.state)
            before = len(session.events)
            await pilot.press(*keys_for(command))
            presses += 1
            assert len(session.events) > before, f"{command} was not played by its keys"
        end = screen_text(app)
        await pilot.press("s")
        refused = screen_text(app)
        await pilot.press("v")
        viewer = app.screen
        assert isinstance(viewer, ViewerScreen) and viewer.position == len(session.events)
        await pilot.press("home", "right")  # after the shuffle
        hidden = screen_text(app)
        await pilot.press("r", "y")  # reveal asks first: it is a spoiler
        revealed = screen_text(app)
        await pilot.press("pagedown", "pagedown", "c")
        branch = app.screen
        assert isinstance(branch, TrollScreen) and branch.session is not session
        assert branch.session.events == session.events[: len(branch.session.events)]
        return end, refused, hidden, revealed

    end, refused, hidden, revealed = drive(DicehallApp(session=session), steps)
    assert session.outcome is not None
    assert session.outcome.summary.upper() in end and f"score {len(session.state.deck)}" in end
    assert "Not now: the game is over" in refused
    assert "deck order" not in hidden and "REVEALED" not in hidden and "##" in hidden
    assert "deck order, top first" in revealed and "REVEALED" in revealed


def test_bad_keys_say_why_and_aiming_can_be_cancelled():
    session = saves.new_save("troll", name="keys", seed=5)

    async def steps(pilot):
        await pilot.press("l")
        lay = screen_text(pilot.app)
        await pilot.press("x")
        unknown = screen_text(pilot.app)
        await pilot.press("w")
        wait = screen_text(pilot.app)
        await pilot.press("h")
        hint = screen_text(pilot.app)
        return lay, unknown, wait, hint

    lay, unknown, wait, hint = drive(DicehallApp(session=session), steps)
    assert "Not now: nothing to lay down now: it carries no dormant card" in lay
    assert "Not now: 'x' does nothing here" in unknown
    assert "Not now: the troll can still act" in wait
    assert "hint: " in hint


def test_troll_screen_snapshot(snapshot):
    session = saves.new_save("troll", name="snapshot", seed=5)

    async def steps(pilot):
        await pilot.press("left")
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "LEFT  U" in text and "BANK  L" in text and "river" in text and ">" in text
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "troll.txt")


def test_viewer_steps_by_game_turn_and_reveal_shows_the_deck(tmp_path):
    from dicehall import replays
    from dicehall.engine.bots.troll import choose

    session = saves.new_save("troll", name="turns", seed=8, options={"difficulty": "sturdy"})
    for _ in range(8):
        session.play(choose(session.state))
    turn_starts = [i for i, e in enumerate(session.events) if troll.is_turn_start(e)]
    path = saves.export_save(session.labels.save_id, tmp_path / "t.dhr")
    assert replays.verify(path).startswith("ok: Angry Troll versus Magic Bridge")

    async def steps(pilot):
        await pilot.press("v", "home", "pagedown")
        first = pilot.app.screen.position, screen_text(pilot.app)
        await pilot.press("pagedown")
        second = pilot.app.screen.position, screen_text(pilot.app)
        second_status = pilot.app.screen.query_one(StatusLine).message
        await pilot.press("pagedown", "pageup")
        back = pilot.app.screen.position, screen_text(pilot.app)
        await pilot.press("r", "y")
        return first, second, back, screen_text(pilot.app), second_status

    (first, first_text), (second, second_text), (back, back_text), revealed, status = drive(DicehallApp(session=session), steps)
    # PgDn lands where the player decides: after the turn's awakening, before its first action
    decisions = session.turn_starts()
    wanted = [next(d for d in decisions if d > start) for start in turn_starts[:2]]
    assert (first, second, back) == (wanted[0], wanted[1], wanted[1])
    for position, text, turn in ((first, first_text, 1), (second, second_text, 2), (back, back_text, 2)):
        assert session.game.to_act(session.state_at(position)) == 0 and session.state_at(position).phase == "actions"
        assert not troll.is_turn_start(session.events[position - 1])  # the awakening is behind, not ahead
        current = next(line for line in text.splitlines() if line.startswith(" >"))
        assert f"{position:>4} " in current  # the awakening that led here is the highlighted line
        assert f"turn {turn}  " in text and f"event {position}/" in text
    assert status == f"turn 2: Player to decide, after: {session.describe(second - 1, False)}"
    deck = session.state_at(back).deck
    assert f"deck order, top first ({len(deck)}): " + " ".join(deck[:5]) in revealed


def test_reveal_shows_every_buried_card_and_the_whole_deck_at_80x24():
    session = saves.new_save("troll", name="reveal", seed=8)  # standard: 26 cards in the deck
    state = session.state
    tokens = lambda text: text.replace("!", " ").split()  # noqa: E731

    async def steps(pilot):
        await pilot.press("v", "r", "y")
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    lines = text.splitlines()
    assert len(lines) <= 24 and "REVEALED stacks, bottom card first" in text
    assert lines[0].rstrip().endswith("(Player; unfinished)")  # the title keeps its end
    for row in troll.ROWS:
        for col in troll.COLUMNS:  # each stack listed whole, bottom card first
            label = f"{row[0].upper()}{col}:"
            line = next(line for line in lines if label in line)
            listed = tokens(line.split(label)[1])[: len(state.stack((row, col)))]
            assert listed == [card.code for card in state.stack((row, col))], label
    deck_lines = text.split("deck order, top first")[1].split("\n")
    assert f"({len(state.deck)}):" in deck_lines[0]
    shown = tokens(" ".join(deck_lines[: 1 + len(state.deck) // 15 + 1]).split(":", 1)[1])
    assert shown[: len(state.deck)] == list(state.deck)  # the whole deck, in order, no "..."
    assert "r H Spoilers" in lines[-1]  # the footer offers it (beside hindsight, H), and says what it is


def test_the_launcher_asks_difficulty_variant_and_deal():
    from datetime import date

    from dicehall.engine.chance import daily_seed
    from dicehall.tui.screens.troll import TrollSetupScreen

    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "down", "enter")  # the launcher: the troll is the third game
        assert isinstance(app.screen, TrollSetupScreen)
        await pilot.press("right")  # difficulty: standard -> sturdy
        await pilot.press("down", "left")  # variant: none -> toys (backwards)
        await pilot.press("down", "enter")  # deal: today's
        setup = screen_text(app)
        await pilot.press("s")
        assert isinstance(app.screen, TrollScreen)
        return app.screen.session, setup, screen_text(app)

    began = date.today().isoformat()
    session, setup, screen = drive(DicehallApp(), steps)
    assert "Difficulty: sturdy" in setup and "Variant:    toys" in setup and "Deal:       today's deal" in setup
    assert session.options["difficulty"] == "sturdy" and session.options["toys"] is True
    assert session.seed == daily_seed("troll", daily_day(session.labels.save_name, began))
    assert "sturdy, toys: turn 1" in screen  # the title says which game this is


def test_game_label_names_difficulty_variants_and_custom_heights():
    assert troll.game_label(troll.check_options({})) == "standard"
    assert troll.game_label(troll.check_options({"difficulty": "tutorial", "starting_card": True})) == "tutorial, starting card"
    assert troll.game_label(troll.check_options({"heights": [2, 2, 2, 2, 2, 2]})) == "custom 222222"


def test_a_troll_from_the_launcher_is_named_by_its_options_numbered_not_dated_and_played_by_the_login(monkeypatch):
    monkeypatch.setenv("LOGNAME", "ann\x1b[31m")  # a login name is cleaned like every name

    async def steps(pilot):
        played = []
        for keys in (["down", "down"], []):  # back at the launcher, the troll is still highlighted
            await pilot.press(*keys, "enter", "s")  # the troll, its setup as offered
            assert isinstance(pilot.app.screen, TrollScreen)
            played.append(pilot.app.screen.session)
            await pilot.press("q")
        return played

    first, second = drive(DicehallApp(), steps)
    names = {info.id: info.name for info in saves.list_saves()}
    assert (names[first.labels.save_id], names[second.labels.save_id]) == ("Standard", "Standard (2)")
    assert [p.name for p in first.players] == ["ann[31m"] and [p.name for p in second.players] == ["ann[31m"]
