"""The app driven through Pilot at 80x24: play a tower to its fall, undo, review, branch; snapshots."""
from __future__ import annotations

from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock
from pathlib import Path

from tests.apphelpers import drive, screen_text, settled, until
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dicetower import DiceTowerScreen
from dicehall.tui.screens.viewer import ViewerScreen

SNAPSHOTS = Path(__file__).parent / "snapshots"


def test_launcher_lists_the_six_games_and_snapshot(snapshot):
    async def steps(pilot):
        return await settled(pilot)

    text = drive(DicehallApp(), steps)
    for title in ("Dice Tower", "Dead Man's Wager", "Angry Troll versus Magic Bridge", "Towers", "War of Bones", "Journal"):
        assert title in text
    assert text.count("(coming)") == 0  # all six are playable
    assert "Continue a saved game" in text and "Open a replay file" in text and "Rules" in text
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "launcher.txt")


def test_coming_game_says_why_it_cannot_open(monkeypatch):
    from dicehall import engine
    from dicehall.tui.screens import launcher

    coming = engine.games.CatalogueEntry("chess", "Chess", "a board game", False)
    monkeypatch.setattr(launcher, "CATALOGUE", engine.games.CATALOGUE + (coming,))

    async def steps(pilot):
        await pilot.press(*["down"] * 6, "enter")
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert "(coming) a board game" in text
    assert "Not now: Chess is coming: it cannot be played yet" in text


def test_the_launcher_opens_war_of_bones_at_its_setup():
    from dicehall.tui.screens.bones import BonesSetupScreen

    async def steps(pilot):
        await pilot.press(*["down"] * 4, "enter")
        return pilot.app.screen

    assert isinstance(drive(DicehallApp(), steps), BonesSetupScreen)


def test_play_a_tower_to_its_fall_undo_review_and_branch():
    async def steps(pilot):
        app = pilot.app
        await pilot.press("enter")  # Dice Tower is first
        await pilot.press(*"ctrl+a".split())
        app.screen.query_one("Input").value = "Night 1"
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, DiceTowerScreen)
        session = screen.session
        pulls = 0
        while session.outcome is None:
            await pilot.press("p")
            pulls += 1
        assert session.state.fell and session.state.pulls == pulls
        fallen = screen_text(app)
        assert "THE TOWER HAS FALLEN" in fallen and f"on pull {pulls}" in fallen
        await pilot.press("p")
        assert "Not now: the tower has fallen" in screen_text(app)
        await pilot.press("u")
        assert not session.state.fell and session.undos == 1
        assert "undos 1" in screen_text(app) and "THE TOWER HAS FALLEN" not in screen_text(app)
        await pilot.press("p")  # undo cannot reroll: the same pull falls again
        assert session.state.fell and session.state.pulls == pulls
        await pilot.press("v")
        viewer = app.screen
        assert isinstance(viewer, ViewerScreen)
        assert viewer.position == len(session.events)
        await pilot.press("home")
        assert viewer.position == 0 and "the start of the game" in screen_text(app)
        await pilot.press("pagedown", "right")
        second_pull = session.marks[1].start  # 2, or 3 and more after double threes on the first pull
        assert viewer.position == second_pull + 1
        assert "COUNTDOWN" in screen_text(app)
        await pilot.press("c")
        branch_screen = app.screen
        assert isinstance(branch_screen, DiceTowerScreen) and branch_screen.session is not session
        branch = branch_screen.session
        # pull 2's dice completed as the seed gives them (more than one roll if it threw double threes)
        completed = len(branch.events)
        assert completed >= 4 and branch.events == session.events[:completed] and not branch.state.pulling
        assert f"branched from event {second_pull + 1}" in screen_text(app)
        await pilot.press("p")
        assert len(branch.events) > completed and branch.events == session.events[:len(branch.events)]  # the same future dice
        await pilot.press("q")
        return session.labels.save_id, branch.labels.save_id

    original, branched = drive(DicehallApp(), steps)
    names = {info.id: info for info in saves.list_saves()}
    assert names[original].finished and not names[branched].finished
    assert names[branched].name == "Night 1 (branch)"


def test_tower_screen_snapshot_and_gauge(snapshot):
    session = saves.new_save("dicetower", name="The Wretched, night 3", seed=7)

    async def steps(pilot):
        for key in "pprpp":
            await pilot.press(key)
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "COUNTDOWN" in text and "of 100" in text
    assert "100% ||||||||||" in text  # the first ten points are gone
    assert "Pulls left" in text and "expected (exact)" in text and "Falls next pull" in text
    assert "advantage, lower -3" in text and "removed, both -9" in text
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "dicetower.txt")


def test_viewer_snapshot(snapshot):
    session = saves.new_save("dicetower", name="Review me", seed=7)
    for _ in range(4):
        session.play(PullBlock())

    async def steps(pilot):
        await pilot.press("v", "left", "left")
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "event 6/8" in text and ">   6" in text
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "viewer.txt")


def test_typed_dice_with_double_threes():
    session = saves.new_save("dicetower", name="typed", seed=7)

    async def steps(pilot):
        await pilot.press("t", "p")
        await pilot.press(*"33", "enter")
        assert session.chance_needed is not None  # double threes: the dialog asks again
        assert "Double threes" in screen_text(pilot.app)
        await pilot.press("9", "9", "enter")
        assert "Not accepted: type the two faces" in screen_text(pilot.app)
        await pilot.press("backspace", "backspace", "2", "5", "enter")
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert session.state.countdown == 92 and session.chance_needed is None
    assert "3 3*" in text  # typed dice are marked in the log, not only coloured


def test_markup_in_names_shows_as_typed():
    evil = "[/bold][@click=app.quit]x"
    session = saves.new_save("dicetower", name=evil, seed=7)

    async def steps(pilot):
        await pilot.press("p", "v")
        viewer = screen_text(pilot.app)
        await pilot.press("q")
        return screen_text(pilot.app), viewer

    tower, viewer = drive(DicehallApp(session=session), steps)
    assert evil in tower and evil in viewer


def test_bad_key_says_why_and_help_lists_every_key():
    session = saves.new_save("dicetower", name="keys", seed=7)

    async def steps(pilot):
        await pilot.press("x")
        bad = screen_text(pilot.app)
        await pilot.press("question_mark")
        help_text = screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.press("ctrl+y")
        return bad, help_text, screen_text(pilot.app)

    bad, help_text, redo = drive(DicehallApp(session=session), steps)
    assert "Not now: 'x' does nothing here; press ? for the keys" in bad
    for line in ("p  Pull", "r  Pull+remove", "t  Typed dice", "u / ctrl+z  undo your last move (not now)",
                 "ctrl+y  redo what was undone (not now)", "v  review this game", "q / Esc  leave the game"):
        assert line in help_text
    assert "Not now: nothing to redo" in redo


def test_saves_screen_continue_and_delete_with_confirmation():
    first = saves.new_save("dicetower", name="keep me", seed=1)
    first.play(PullBlock())
    saves.close_save(first)

    async def steps(pilot):
        await pilot.press("c")
        listing = screen_text(pilot.app)
        await pilot.press("d", "n")
        assert len(saves.list_saves()) == 1
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, DiceTowerScreen)
        assert pilot.app.screen.session.events == first.events
        await pilot.press("q", "d", "y")
        return listing, screen_text(pilot.app)

    listing, after = drive(DicehallApp(), steps)
    assert "keep me" in listing and "countdown" in listing
    assert saves.list_saves() == [] and "deleted keep me" in after


def test_open_a_replay_from_the_launcher_and_step_autoplay_goto(tmp_path):
    from dicehall import replays

    session = saves.new_save("dicetower", name="shared game", seed=5)
    for _ in range(3):
        session.play(PullBlock())
    path = replays.write_replay(session, tmp_path / "shared.dhr")
    (tmp_path / "junk.dhr").write_bytes(b"junk")

    async def steps(pilot):
        app = pilot.app
        await pilot.press("o")
        app.screen.query_one("Input").value = str(tmp_path / "junk.dhr")
        await pilot.press("enter")
        junk = screen_text(app)
        await pilot.press("o")
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter")
        viewer = app.screen
        assert isinstance(viewer, ViewerScreen) and viewer.session.events == session.events
        await pilot.press("g")
        app.screen.query_one("Input").value = "99"
        await pilot.press("enter")
        refused = screen_text(app)
        app.screen.query_one("Input").value = "\u00b2"  # a superscript two: isdigit() but not a number
        await pilot.press("enter")
        assert "Not accepted: a number from 0" in screen_text(app)
        app.screen.query_one("Input").value = " 2 "
        await pilot.press("enter")
        assert viewer.position == 2
        for _ in range(len(session.events) - 1):
            await pilot.press("right")
        assert viewer.position == len(session.events)
        assert "Not now: already at the end" in screen_text(app)
        await pilot.press("home", "plus", "plus", "plus", "space")
        await until(pilot, lambda: viewer.position > 0)  # autoplay's timer steps on
        moved = viewer.position
        await pilot.press("space")
        return junk, refused, moved

    junk, refused, moved = drive(DicehallApp(), steps)
    assert "Not now: junk.dhr: not a dicehall replay" in junk
    assert f"Not accepted: a number from 0 to {len(session.events)}" in refused
    assert moved > 0  # autoplay stepped on by itself


def test_rules_screen_from_the_launcher():
    async def steps(pilot):
        await pilot.press("i")
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert "Rules: Dice Tower" in text and "Double threes" in text


def test_a_blank_name_gets_a_distinct_default():
    async def steps(pilot):
        await pilot.press("enter", "enter")
        first = pilot.app.screen.session
        await pilot.press("q", "enter", "enter")
        return first, pilot.app.screen.session

    first, second = drive(DicehallApp(), steps)
    assert first.labels.save_name == "Tower from 100"
    assert second.labels.save_name == "Tower from 100 (2)"  # two towers can be told apart in the saves list


def test_replay_command_opens_the_viewer_at_the_end(tmp_path):
    from dicehall import replays

    session = saves.new_save("dicetower", name="watch", seed=4)
    while session.outcome is None:
        session.play(PullBlock())
    loaded = replays.read_replay(replays.write_replay(session, tmp_path / "w.dhr"))

    async def steps(pilot):
        viewer = pilot.app.screen
        assert isinstance(viewer, ViewerScreen) and viewer.position == len(session.events)
        await pilot.press("pageup")
        return viewer.position, screen_text(pilot.app)

    position, text = drive(DicehallApp(replay=loaded), steps)
    assert position == session.marks[-1].start
    assert "the tower fell on pull" in text and "THE TOWER HAS FALLEN" not in text


def test_a_standing_tower_never_shows_a_zero_chance_to_fall():
    from dicehall.tui.screens.dicetower import percent

    assert percent(1e-25) == "<0.01%" and percent(0.0) == "<0.01%"  # underflow: still possible
    assert percent(1 / 3) == "33.33%"


def test_a_five_digit_countdown_keeps_its_digits_whole():
    from dicehall.tui.widgets import big_number

    session = saves.new_save("dicetower", name="long night", seed=3, options={"start": 10000})

    async def steps(pilot):
        return screen_text(pilot.app)

    lines = drive(DicehallApp(session=session), steps).splitlines()
    row = lines.index(next(line for line in lines if "COUNTDOWN" in line))
    board = [line.split("\u2502")[0].rstrip() for line in lines[row + 1:row + 5]]
    assert board[:3] == [f"  {digits}".rstrip() for digits in big_number(10000)]  # no row wrapped
    assert board[3].strip() == "of 10000"  # below the digits: beside them it would wrap


def test_escape_on_the_double_threes_prompt_says_the_pull_still_waits():
    session = saves.new_save("dicetower", name="threes", dice=[3, 3])  # double threes, then the script is empty

    async def steps(pilot):
        await pilot.press("p")
        prompt = screen_text(pilot.app)
        await pilot.press("escape")
        return prompt, screen_text(pilot.app)

    prompt, after = drive(DicehallApp(session=session), steps)
    assert "Double threes! Type the next two faces" in prompt
    assert "this pull still waits for its dice: press p to type them" in after
    assert session.chance_needed is not None and session.state.countdown == 94


def test_saves_screen_export_asks_before_replacing_a_file(tmp_path):
    session = saves.new_save("dicetower", name="share me", seed=1)
    session.play(PullBlock())
    saves.close_save(session)
    target = tmp_path / "shared.dhr"
    target.write_bytes(b"someone else's file")

    async def steps(pilot):
        app = pilot.app
        await pilot.press("c", "e")
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        asked = screen_text(app)
        await pilot.press("n")
        kept = target.read_bytes()
        await pilot.press("e")
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter", "y")
        return asked, kept, screen_text(app)

    asked, kept, done = drive(DicehallApp(), steps)
    assert "exists. Replace it?" in asked
    assert kept == b"someone else's file"
    assert "exported to" in done
    from dicehall import replays

    assert replays.read_replay(target).events == session.events


def test_the_tower_log_shows_the_last_rolls_and_counts_them_after_undo_and_redo():
    """The screen draws only the last screenful of the log, found from its end, and counts the rolls
    from the state: what it shows must be the tail of the whole log, as before, at every step."""
    from dicehall.engine.games.dicetower import DiceRolled
    from dicehall.engine.words import counted
    from dicehall.tui.screens.dicetower import pull_log

    # double threes roll again, so rolls and pulls differ; more rolls than the log has lines
    session = saves.new_save("dicetower", name="long log", seed=7, dice=[3, 3, 2, 5] + [1, 2, 6, 4] * 20)

    def shown_log(text: str) -> list[str]:
        lines = [line.split("\u2502", 1)[1][1:] for line in text.splitlines() if "\u2502" in line]
        start = next(i for i, line in enumerate(lines) if line.startswith("LOG"))
        return [line for line in lines[start:] if line.strip()]

    def whole_log_tail(rows: int) -> list[str]:
        events = session.events
        rolls = sum(isinstance(event, DiceRolled) for event in events)
        lines = pull_log([session.state_at(i) for i in range(len(events))], list(events), 50)
        return [f"LOG ({counted(rolls, 'roll')}; v reviews all)", *lines[-rows:]]

    async def steps(pilot):
        seen = []
        for keys in (["p"] * 25, ["u"], ["u", "u"], ["ctrl+y"], ["ctrl+y", "ctrl+y"], ["p"]):
            await pilot.press(*keys)
            log = shown_log(screen_text(pilot.app))
            seen.append((log, whole_log_tail(len(log) - 1), session.state.pulls, session.undos))
        return seen

    seen = drive(DicehallApp(session=session), steps)
    assert [(pulls, undos) for *_, pulls, undos in seen] == [(25, 0), (24, 1), (22, 3), (23, 3), (25, 3), (26, 3)]
    for log, expected, _, _ in seen:
        assert len(log) > 10  # the log is full: older rolls are left out
        assert log == expected  # the tail of the whole log, and the count of every roll
    assert seen[0][0][0] == "LOG (26 rolls; v reviews all)"  # 25 pulls: the first threw double threes


def test_a_fallen_tower_leaves_typed_dice_out_of_the_footer_and_t_says_why():
    session = saves.new_save("dicetower", name="fallen", seed=7, options={"start": 1})

    async def steps(pilot):
        await pilot.press("p")
        fallen = screen_text(pilot.app)
        await pilot.press("t")
        return fallen, screen_text(pilot.app)

    fallen, refused = drive(DicehallApp(session=session), steps)
    assert session.state.fell
    footer = fallen.splitlines()[-1]
    assert "Typed dice" not in footer and "Pull" not in footer and "Review" in footer
    assert "(t: type)" not in fallen and "rolled by dicehall" in fallen
    assert "Not now: the tower has fallen: no dice are left to type or roll" in refused


def test_a_new_tower_is_played_by_the_login_name_cleaned_and_capped(monkeypatch):
    monkeypatch.setenv("LOGNAME", "[b]ann[/b]\x07" + "n" * 60)

    async def steps(pilot):
        await pilot.press("enter", "enter")  # the Dice Tower, the name offered
        assert isinstance(pilot.app.screen, DiceTowerScreen)
        await pilot.press("p", "v")
        return pilot.app.screen_stack[-2].session, screen_text(pilot.app)

    session, review = drive(DicehallApp(), steps)
    player = ("[b]ann[/b]" + "n" * 60)[:40]
    assert [p.name for p in session.players] == [player]
    assert f"({player}" in review.splitlines()[0]  # the replay's title names the player, as typed


def spy_on_layouts(monkeypatch, widget_id: str) -> list[bool]:
    """Whether each update of the Plain `widget_id` asked for the screen to be laid out again."""
    from dicehall.tui.widgets import Plain

    asked: list[bool] = []
    update = Plain.update

    def spy(self, *args, **kwargs):
        if self.id == widget_id:
            asked.append(kwargs.get("layout", True))
        update(self, *args, **kwargs)

    monkeypatch.setattr(Plain, "update", spy)
    return asked


def test_the_tower_figures_are_not_laid_out_again_while_they_keep_their_number_of_lines(monkeypatch):
    """#figures has an auto height: a key that keeps its number of lines asks for no layout (the
    costliest redraw), and its height follows its text."""
    from dicehall.tui.widgets import Plain

    session = saves.new_save("dicetower", name="figures", seed=7)
    asked = spy_on_layouts(monkeypatch, "figures")

    async def steps(pilot):
        figures = pilot.app.screen.query_one("#figures", Plain)
        for key in "ppt":
            asked.clear()
            await pilot.press(key)
            await pilot.pause()
            assert asked == [False]
            assert figures.size.height == len(str(figures.render()).split("\n")) == 5  # its text ends in a break
            assert f"Pulls so far     {session.state.pulls}" in screen_text(pilot.app)
        return screen_text(pilot.app)

    assert "Dice             typed by you (t: roll)" in drive(DicehallApp(session=session), steps)


def test_a_plain_of_auto_height_is_laid_out_again_when_its_text_takes_another_number_of_lines(monkeypatch):
    from textual.app import App

    from dicehall.tui.widgets import Plain

    asked = spy_on_layouts(monkeypatch, "auto")

    class OnePlain(App):
        CSS = "#auto { height: auto; width: 20; }"

        def compose(self):
            yield Plain("", id="auto")

    async def steps(pilot):
        plain = pilot.app.query_one("#auto", Plain)
        heights = []
        for text in ("one\ntwo", "three\nfour", "five", "a line longer than twenty", "a line longer than twenty!", "six"):
            plain.show(text)
            await pilot.pause()
            heights.append(plain.size.height)
            assert screen_text(pilot.app).split()[:2] == text.split()[:2]
        return heights

    assert drive(OnePlain(), steps) == [2, 2, 1, 2, 2, 1]
    assert asked == [True, False, True, True, True, True]  # a line that may wrap: always laid out again


def test_a_plain_shown_the_same_text_again_is_not_drawn_again_and_any_difference_is(monkeypatch):
    """A redraw after each key re-shows every widget: text that would draw exactly the same (its
    characters, spans and styles) asks for no update; a style, a span or a character differs: it does."""
    from rich.text import Text

    from dicehall.tui.widgets import Plain, same_text

    session = saves.new_save("dicetower", name="same", seed=7)
    asked = spy_on_layouts(monkeypatch, "figures")

    async def steps(pilot):
        figures = pilot.app.screen.query_one("#figures", Plain)
        shown = figures.content
        asked.clear()
        figures.show(shown.copy())  # equal, another object
        same = list(asked)
        for other in (Text(shown.plain, style="bold"), Text(shown.plain + " "), Text(shown.plain)):
            figures.show(other)
        return same, list(asked), figures.content

    same, differing, last = drive(DicehallApp(session=session), steps)
    assert same == [] and len(differing) == 3 and last.plain.startswith("Pulls so far")
    text = Text("a", style="bold")
    assert not same_text(text, text)  # the same object may have been changed in place
    assert same_text(text, text.copy()) and not same_text("a", Text("a"))
    assert not same_text(Text("a", justify="right"), Text("a")) and not same_text(Text("ab"), Text.assemble("a", ("b", "red")))
