"""What a new player trips over in the saves list, the launcher, the command line and the status line
(issue #10): saves told apart, renaming, a refused delete that says why, exports into the replays
folder, Esc that asks, long messages that wrap or say they were cut, and counts in the right form."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games.dicetower import PullBlock
from dicehall.engine.words import counted
from tests.apphelpers import drive, screen_text
from dicehall.tui.app import DicehallApp
from dicehall.cli import main
from dicehall.tui.screens.dialogs import ConfirmScreen, HelpScreen
from dicehall.tui.screens.saves import SavesScreen
from dicehall.tui.widgets import StatusLine, title_line


def two_towers_and_a_branch():
    first = saves.new_save("dicetower", seed=1)
    second = saves.new_save("dicetower", seed=2)
    for _ in range(3):
        first.play(PullBlock())
    branch = saves.branch_save(first, 2)
    for session in (first, second, branch):
        saves.close_save(session)
    return first, second, branch


def test_saves_of_one_game_are_told_apart_by_name_branch_and_progress():
    first, second, branch = two_towers_and_a_branch()
    assert (first.labels.save_name, second.labels.save_name, branch.labels.save_name) == (
        "Tower from 100", "Tower from 100 (2)", "Tower from 100 (branch)")

    async def steps(pilot):
        await pilot.press("c")
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    lines = text.splitlines()
    assert "GAME" in lines[1] and "NAME" in lines[1] and "LAST PLAYED" in lines[1]
    for session in (first, second, branch):
        row = next(line for line in lines if f"{session.labels.save_name}  " in line)
        assert "Dice Tower" in row and "20" in row  # the game and the year it was last played
    assert "branch of Tower from 100 at event 2" in text
    assert "countdown 100, 0 pulls" in text  # the second tower, untouched
    assert sum(f"countdown {first.state.countdown}, 3 pulls" in line for line in lines) == 1


def test_a_long_name_shows_whole_in_the_list_and_ends_in_a_mark_when_cut_on_entry():
    long = "A long evening with the tower, chapter 12"  # 41 characters: one over the limit
    session = saves.new_save("dicetower", name=long)
    saves.close_save(session)
    assert session.labels.save_name == long[:37] + "..."
    forty = saves.new_save("wager", players=[Player("Alexandra the Great"), Player("Bartholomew the Second")])
    saves.close_save(forty)
    assert forty.labels.save_name.endswith("...") and len(forty.labels.save_name) == 40

    async def steps(pilot):
        await pilot.press("c")
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert session.labels.save_name in text and forty.labels.save_name in text


def test_rename_a_save_from_the_list_and_a_taken_name_is_refused():
    first, second, _ = two_towers_and_a_branch()

    async def steps(pilot):
        app = pilot.app
        await pilot.press("c")
        screen = app.screen
        screen.query_one("OptionList").highlighted = [i.id for i in screen.infos].index(first.labels.save_id)
        await pilot.press("n")
        app.screen.query_one("Input").value = "Night of the long tower"
        await pilot.press("enter")
        renamed = screen_text(app)
        await pilot.press("n")
        app.screen.query_one("Input").value = second.labels.save_name
        await pilot.press("enter")
        return renamed, screen_text(app)

    renamed, refused = drive(DicehallApp(), steps)
    assert "renamed to Night of the long tower" in renamed
    assert any(line.startswith("▊ Dice Tower        Night of the long tower  ") for line in renamed.splitlines())
    assert "Not now: another save is named 'Tower from 100 (2)' already" in refused
    reopened = saves.load_readonly(first.labels.save_id)
    assert reopened.labels.save_name == "Night of the long tower"
    assert reopened.events == first.events  # only the name changed
    assert saves.load_readonly(second.labels.save_id).labels.save_name == "Tower from 100 (2)"


def test_rename_is_refused_while_another_dicehall_plays_the_save():
    session = saves.new_save("dicetower", name="busy")
    with pytest.raises(saves.SaveInUse):
        saves.rename_save("busy", "other")
    saves.close_save(session)
    assert saves.rename_save("busy", "other") == "other"
    assert [info.name for info in saves.list_saves()] == ["other"]
    assert not list(saves.saves_dir().glob("*.renaming"))


def test_deleting_a_save_in_use_elsewhere_says_why_and_keeps_it():
    playing = saves.new_save("dicetower", name="played elsewhere")  # holds the lock, as another terminal would

    async def steps(pilot):
        await pilot.press("c", "d", "y")
        await pilot.pause()
        return screen_text(pilot.app), pilot.app.screen

    text, screen = drive(DicehallApp(), steps)
    saves.close_save(playing)
    assert isinstance(screen, SavesScreen)
    assert "Not now: not deleted: save" in text and "is in use by another dicehall" in " ".join(text.split())
    assert [info.name for info in saves.list_saves()] == ["played elsewhere"]


def test_export_from_the_list_asks_where_and_defaults_to_the_replays_folder(home):
    from dicehall import replays

    session = saves.new_save("dicetower", name="to share", seed=4)
    session.play(PullBlock())
    saves.close_save(session)

    async def steps(pilot):
        await pilot.press("c", "e")
        asked = screen_text(pilot.app), pilot.app.screen.query_one("Input").value
        await pilot.press("enter")
        return asked, screen_text(pilot.app)

    (asked, value), done = drive(DicehallApp(), steps)
    target = home / "replays" / f"{session.labels.save_id}.dhr"
    assert "Export as a replay file. Enter writes it into the replays folder" in asked
    assert Path(value).expanduser() == target
    assert replays.read_replay(target).events == session.events
    assert "exported to" in done and not (home.parent / f"{session.labels.save_id}.dhr").exists()


def test_escape_on_the_launcher_asks_before_leaving():
    async def steps(pilot):
        app = pilot.app
        left = []
        app.exit = lambda *args, **kwargs: left.append(True)
        await pilot.press("escape")
        asked = isinstance(app.screen, ConfirmScreen), screen_text(app)
        await pilot.press("n")
        stayed = (not left, screen_text(app))
        await pilot.press("escape", "y")
        return asked, stayed, left

    (is_question, question), (stayed, after_no), left = drive(DicehallApp(), steps)
    assert is_question and "Leave dicehall?" in question
    assert stayed and "still here: q leaves at once" in after_no
    assert left == [True]


def test_a_dice_tower_name_another_save_has_is_refused_when_asked():
    saves.close_save(saves.new_save("dicetower", name="Night 1"))

    async def steps(pilot):
        await pilot.press("enter")
        pilot.app.screen.query_one("Input").value = "Night 1"
        await pilot.press("enter")
        return screen_text(pilot.app)

    assert "Not accepted: another save is named 'Night 1' already" in drive(DicehallApp(), steps)


def test_a_long_status_message_wraps_and_one_too_long_says_so_and_shows_whole_in_help():
    long = "word " * 25  # 125 characters: two lines at 80 columns
    too_long = " ".join(f"part{n}" for n in range(60))  # about 340: more than two lines

    async def steps(pilot):
        app = pilot.app
        app.screen.status(long.strip())
        await pilot.pause()
        wrapped = screen_text(app)
        app.screen.status(too_long, error=True)
        await pilot.pause()
        cut = screen_text(app)
        await pilot.press("question_mark")
        help_screen = app.screen
        help_text = str(help_screen.query_one("Plain").render())
        return wrapped, cut, help_screen, help_text

    wrapped, cut, help_screen, help_text = drive(DicehallApp(), steps)
    status = [line for line in wrapped.splitlines() if line.startswith(" word")]
    assert len(status) == 2 and " ".join(" ".join(status).split()) == long.strip()
    assert "part59" not in cut and " ... (? shows all)" in cut
    assert all(len(line) <= 80 for line in cut.splitlines())
    assert isinstance(help_screen, HelpScreen)
    assert f"The last message, whole: Not now: {too_long}" in " ".join(help_text.split())


def test_the_status_line_refits_when_the_terminal_is_resized():
    message = "z" * 200  # more than two lines at 80 columns, less than two at 120

    async def steps(pilot):
        pilot.app.screen.status(message)
        await pilot.pause()
        narrow = pilot.app.screen.query_one(StatusLine).cut
        await pilot.resize_terminal(120, 24)
        await pilot.pause()
        return narrow, pilot.app.screen.query_one(StatusLine).cut, screen_text(pilot.app)

    async def run():
        async with DicehallApp().run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot)

    import asyncio

    narrow_cut, wide_cut, text = asyncio.run(run())
    assert narrow_cut and not wide_cut and text.count("z") == len(message) and "? shows all" not in text


def test_a_screen_title_gives_way_with_a_mark():
    assert title_line("Dice Tower: ", "short", "  (undos 0)") == "Dice Tower: short  (undos 0)"
    line = title_line("Dice Tower: ", "n" * 40, f"   (seed {2**63 - 1}, undos 12)")
    assert len(line) == 78 and "n..." in line and line.endswith("undos 12)")
    session = saves.new_save("dicetower", name="n" * 40, seed=2**63 - 1)

    async def steps(pilot):
        return screen_text(pilot.app)

    title = drive(DicehallApp(session=session), steps).splitlines()[0]
    assert "..." in title and title.endswith(f"(seed {2**63 - 1}, undos 0)")


def test_counts_say_one_in_the_singular():
    assert counted(1, "roll") == "1 roll" and counted(2, "roll") == "2 rolls" and counted(0, "pull") == "0 pulls"
    assert counted(1, "die") == "1 die" and counted(3, "die") == "3 dice"
    session = saves.new_save("dicetower", seed=3)
    session.play(PullBlock())

    async def steps(pilot):
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "LOG (1 roll;" in text
    assert session.game.progress(session.state).endswith(", 1 pull")


def test_sim_of_one_game_says_one_game(capsys):
    assert main(["sim", "dicetower", "--games", "1", "--seed", "1"]) == 0
    assert "dicetower: 1 game, seed 1" in capsys.readouterr().out


def test_the_saves_command_has_a_header_and_cuts_nothing(capsys):
    first, second, branch = two_towers_and_a_branch()
    long = saves.new_save("wager", players=[Player("Alexandra the Great"), Player("Bot 2", True, "best"),
                                            Player("Bot 3", True, "bold"), Player("Bartholomew Jr.")])
    saves.close_save(long)
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("LAST PLAYED"))
    assert "GAME" in header and "NAME" in header
    assert all(len(line) <= 79 for line in lines[lines.index(header):])  # the first line names the folder
    for session in (first, second, branch, long):
        assert f"  {session.labels.save_name}" in out and f"id {session.labels.save_id}" in out
    assert "branch of Tower from 100 at event 2" in out
    assert " ".join(out.split()).count("Bartholomew Jr. 0") == 1  # a long progress line wraps, whole


def test_version_flag(capsys):
    from dicehall.engine import VERSION

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"dicehall {VERSION}"


def test_the_saves_command_still_imports_no_textual(tmp_path):
    code = "import sys; from dicehall.cli import main; main(['saves']); print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, DICEHALL_HOME=str(tmp_path / "h")))
    assert result.stdout.strip().endswith("CLEAN"), result.stdout + result.stderr


def test_the_rules_screen_says_how_far_the_reader_is_and_where_they_end():
    async def steps(pilot):
        await pilot.press("i")
        await pilot.pause()
        start = screen_text(pilot.app)
        await pilot.press(*["pagedown"] * 6)
        await pilot.pause()
        return start, screen_text(pilot.app)

    start, end = drive(DicehallApp(), steps)
    assert "% read: PgDn or Space for more" in start
    assert "the end of the rules: PgUp or Up goes back up, q leaves" in end


def test_wager_names_too_long_for_a_column_end_in_a_mark():
    from dicehall.tui.screens.wager import WagerScreen

    long = "Alexandra the Great of Macedon"
    session = saves.new_save("wager", seed=3, players=[Player(long), Player("Bot 2", True, "best")])

    async def steps(pilot):
        pilot.app.push_screen(WagerScreen(session))
        await pilot.pause()
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert "> Alexandra the...  " in text  # the table's 16 columns
    assert "round Alexandra the Great  Bot 2" not in text and "round Alexandra the Gr..." in text
    title = text.splitlines()[0]
    assert title.startswith(" Dead Man's Wager: Alexandra the Great of Macedon v Bot 2") and title.endswith("(undos 0)")


def test_saves_list_snapshot(snapshot):
    from datetime import datetime

    from tests.test_app import SNAPSHOTS

    sessions = two_towers_and_a_branch()
    wager = saves.new_save("wager", seed=5, players=[Player("Ann"), Player("Bot 2", True, "best")])
    saves.close_save(wager)
    for minute, (session, stem) in enumerate(zip((*sessions, wager), ("tower-a", "tower-b", "tower-a-branch", "wager"))):
        path = saves.saves_dir() / f"{session.labels.save_id}.dhs"
        fixed = path.with_name(f"{stem}.dhs")  # ids hold the time they were made: fixed ones for the snapshot
        path.rename(fixed)
        stamp = datetime(2026, 11, 23, 9, 41 + minute).timestamp()
        os.utime(fixed, (stamp, stamp))

    async def steps(pilot):
        await pilot.press("c")
        return screen_text(pilot.app)

    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(drive(DicehallApp(), steps), "saves.txt")


def test_a_tower_of_thousands_keeps_each_log_line_on_one_line():
    session = saves.new_save("dicetower", seed=3, options={"start": 10000})
    for _ in range(3):
        session.play(PullBlock(True))

    async def steps(pilot):
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    log = [line.split("│", 1)[1].strip() for line in text.splitlines() if "│" in line]
    rolls = [line for line in log if line[:1].isdigit()]
    assert len(rolls) == 3 and rolls[0].startswith("1 remove") and ">" in rolls[0] and rolls[0].split(">")[0].endswith("10000")
