"""The admin's hall.toml (saves/hall/settings.py), trusted only from the admin (issue #29): a file
another member made or can change, a link, a FIFO, one nested 1,000 deep, of the wrong types, not
UTF-8 or of 1 MB gives the defaults and one line in `hall`, `hall --json`, `hall --scores`, `watch
ID` off a terminal and the Hall screen, never a traceback or a hang; the message of the day is shown
as plain text; a barred player is refused at the door and at a seat; the hall's folders are sticky."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall.cli import BY_NAME, main
from dicehall.saves.hall import Hall, HallError, HallSettings, barred_refusal, read_settings
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import AskScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from tests.apphelpers import drive, screen_text, status, until

ROOT = Path(__file__).parent.parent
OTHER_UID = 1001  # a second member of the hall's group, as the tests (run as root) make them
DEFAULTS = HallSettings()


@pytest.fixture
def hall(tmp_path, monkeypatch):
    folder = tmp_path / "hall"
    monkeypatch.setenv("DICEHALL_HALL", str(folder))
    monkeypatch.setenv("DICEHALL_PLAYER", "")  # off a box, unless a test says; restored after --player
    return Hall(folder)


@pytest.fixture
def game_id(hall):
    """A Towers game in progress between Ann and Bob (a person to move: what reads idle_minutes)."""
    ann = hall.host("towers", ["player", "open"], "Ann")
    hall.join(ann.id, name="Bob").close()
    ann.follow()
    assert ann.session is not None
    ann.close()
    return ann.id


@pytest.fixture
def an_hour_on(monkeypatch):
    """The hall's clock an hour on: a seat on its turn is idle by any idle_minutes the hall trusts."""
    import time

    from dicehall.saves import hall as hallmod

    monkeypatch.setattr(hallmod.idle, "time", type("Clock", (), {"time": staticmethod(lambda: time.time() + 3600)}))


def admins(path: Path, text: str | bytes) -> Path:
    """A settings file as the admin makes it: the hall's owner's (here root's, as the folder), 0644."""
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    os.chmod(path, 0o644)
    return path


def needs_chown():
    if os.geteuid() != 0:
        pytest.skip("giving a file to another uid needs root (os.chown); the tests run as root in CI")


# Each: how a second member (or a broken file) makes hall.toml, and the one line it gives. Every
# one of them sets idle_minutes = 1, which must not take effect (the others' seats after a minute).
def group_writable(path):
    admins(path, "idle_minutes = 1\n")
    os.chmod(path, 0o664)


def another_members(path):
    needs_chown()
    admins(path, "idle_minutes = 1\n")
    os.chown(path, OTHER_UID, -1)


def a_link(path):
    os.symlink(admins(path.parent.parent / "elsewhere.toml", "idle_minutes = 1\n"), path)


def a_hard_link(path):
    os.link(admins(path.parent.parent / "elsewhere.toml", "idle_minutes = 1\n"), path)


def a_fifo(path):
    os.mkfifo(path, 0o644)


def nested(path):
    admins(path, "idle_minutes = 1\nmotd = " + "[" * 1000 + "\n")


def wrong_types(path):
    admins(path, 'idle_minutes = "one"\nmotd = 5\nbarred = "eve"\n')


def a_megabyte(path):
    admins(path, "idle_minutes = 1\n# " + "x" * (1 << 20) + "\n")


def not_utf8(path):
    admins(path, b"idle_minutes = 1\nmotd = '\xff\xfe'\n")


def not_toml(path):
    admins(path, "idle_minutes = 1\nidle_minutes = = 2\n")


CRAFTED = {
    group_writable: "hall.toml: writable by others than its owner: ignored",
    another_members: f"hall.toml: owned by uid {OTHER_UID}, not the hall's owner: ignored",
    a_link: "hall.toml: a symbolic link: ignored",
    a_hard_link: "hall.toml: a file with another name too: ignored",
    a_fifo: "hall.toml: not a regular file: ignored",
    nested: "hall.toml: nested too deep to read: ignored",
    wrong_types: ("hall.toml: idle_minutes is not a whole number from 0 to 10080: ignored; motd is not text: ignored; "
                  "barred is not a list of names: ignored"),
    a_megabyte: "hall.toml: larger than 64 KiB: ignored",
    not_utf8: "hall.toml: not UTF-8 text: ignored",
    not_toml: "hall.toml: not valid TOML (line 2): ignored",
}
CRAFTED_IDS = [make.__name__ for make in CRAFTED]


def run(args, timeout=30):
    """dicehall in a child process, bounded in time: a hang fails the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "dicehall", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ}, stdin=subprocess.DEVNULL)


# ----- the file as read -----
@pytest.mark.parametrize("make", CRAFTED, ids=CRAFTED_IDS)
def test_a_crafted_hall_toml_gives_the_defaults_and_one_line(hall, game_id, make, an_hour_on):
    make(hall.folder / "hall.toml")
    settings = read_settings(hall.folder)
    assert settings == HallSettings(problem=CRAFTED[make])
    assert hall.idle_minutes() is None
    assert "idle" not in [view.status for view in hall.entry(game_id).seats]  # no one's seat is up for grabs


def test_the_admins_file_is_read(hall, game_id, an_hour_on):
    admins(hall.folder / "hall.toml", 'idle_minutes = 30\nmotd = "Tournament on Friday"\nbarred = ["eve", "Mallory"]\n')
    assert read_settings(hall.folder) == HallSettings(30, "Tournament on Friday", frozenset({"eve", "mallory"}))
    assert hall.idle_minutes() == 30
    assert "idle" in [view.status for view in hall.entry(game_id).seats]
    os.chmod(hall.folder / "hall.toml", 0o600)  # writable by its owner alone is as good
    assert read_settings(hall.folder).idle_minutes == 30


def test_a_file_owned_by_the_halls_owner_is_trusted_as_roots_is(hall):
    needs_chown()
    hall.folder.mkdir(parents=True)
    admins(hall.folder / "hall.toml", "idle_minutes = 5\n")
    for owner in (OTHER_UID, 0):  # the folder's owner (a separate admin account), or root
        os.chown(hall.folder, owner, -1)
        os.chown(hall.folder / "hall.toml", owner, -1)
        assert read_settings(hall.folder) == HallSettings(5)


def test_no_file_and_no_hall_are_the_defaults_without_a_word(hall):
    assert read_settings(hall.folder) == DEFAULTS  # no hall folder yet
    hall.folder.mkdir(parents=True)
    assert read_settings(hall.folder) == DEFAULTS
    admins(hall.folder / "hall.toml", "idle_minutes = 0\n")  # off, said so
    assert read_settings(hall.folder) == DEFAULTS


def test_the_good_settings_of_a_file_are_kept_and_the_wrong_one_named(hall):
    hall.folder.mkdir(parents=True)
    admins(hall.folder / "hall.toml", 'idle_minutes = 99999999\nmotd = "hi"\nbarred = ["eve", 3]\nidle_minute = 2\n')
    assert read_settings(hall.folder) == HallSettings(
        None, "hi", frozenset({"eve"}),
        "hall.toml: 'idle_minute' is not a setting (known: idle_minutes, motd, barred); idle_minutes is not a whole "
        "number from 0 to 10080: ignored; barred holds something that is not a name: that is ignored")


# ----- every place the lobby is shown -----
@pytest.mark.parametrize("make", CRAFTED, ids=CRAFTED_IDS)
def test_a_crafted_hall_toml_is_one_line_in_hall_json_scores_and_watch(hall, game_id, make, capsys, an_hour_on):
    make(hall.folder / "hall.toml")
    line = CRAFTED[make]
    for args in (["hall"], ["hall", "--scores"], ["watch", game_id]):
        assert main(["--hall", str(hall.folder), *args]) == 0, args
        out, err = capsys.readouterr()
        assert out.splitlines().count(line) == 1 and err == "", (args, out, err)
        assert "Traceback" not in out and "(idle)" not in out
    assert f"{game_id}  towers" in main_out(hall, capsys, "hall")
    for args in (["hall", "--json"], ["hall", "--scores", "--json"]):
        printed = json.loads(main_out(hall, capsys, *args))
        assert printed["settings_problem"] == line, args
    assert printed["in_progress"] == 1
    assert json.loads(main_out(hall, capsys, "hall", "--json"))["motd"] == ""


def main_out(hall, capsys, *args) -> str:
    assert main(["--hall", str(hall.folder), *args]) == 0
    return capsys.readouterr().out


def test_a_fifo_for_hall_toml_hangs_no_command(hall, game_id):
    a_fifo(hall.folder / "hall.toml")
    for args in (["hall"], ["hall", "--json"], ["hall", "--scores"], ["watch", game_id]):
        done = run(["--hall", str(hall.folder), *args])
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)
        assert CRAFTED[a_fifo] in done.stdout


@pytest.mark.parametrize("make", CRAFTED, ids=CRAFTED_IDS)
def test_a_crafted_hall_toml_is_one_line_in_the_hall_screen(hall, game_id, make, an_hour_on):
    make(hall.folder / "hall.toml")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and game_id in screen_text(pilot.app))
        screen = pilot.app.screen
        said = status(pilot.app)
        screen.announce(screen.current())  # the cursor's line; then the listing thread looks again
        looks = []
        shown = screen.show_listed
        screen.show_listed = lambda listed: (looks.append(listed), shown(listed))
        screen.wake.set()
        await until(pilot, lambda: len(looks) >= 1)
        return said, status(pilot.app), screen_text(pilot.app)

    said, later, text = drive(DicehallApp(), steps)
    assert said == CRAFTED[make]
    assert later.startswith(f"{game_id}: Towers, Ann v Bob, in progress")  # said once: not again at the next look
    assert "Traceback" not in text and "(idle)" not in text


# ----- the message of the day -----
HOSTILE_MOTD = 'motd = """Welcome! [@click=app.quit]quit[/] [bold red]x[/]\\u001b[2J\\u0007\nTowers at 8."""\n'


def test_the_message_of_the_day_is_plain_text_in_the_hall_screen(hall, game_id):
    admins(hall.folder / "hall.toml", HOSTILE_MOTD)

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and game_id in screen_text(pilot.app))
        await pilot.click("#hall-motd", offset=(12, 0))  # where the link would be, were it markup
        await pilot.pause()
        return screen_text(pilot.app), pilot.app.screen

    text, screen = drive(DicehallApp(), steps)
    lines = text.splitlines()
    assert lines[1] == " Welcome! [@click=app.quit]quit[/] [bold red]x[/][2J"  # as typed, the escape's ESC gone
    assert lines[2] == " Towers at 8."
    assert "ID" in lines[3] and "GAME" in lines[3]  # the columns follow
    assert "\x1b" not in text and "\x07" not in text
    assert isinstance(screen, HallScreen)  # nothing quit


def test_no_message_of_the_day_leaves_no_line(hall, game_id):
    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and game_id in screen_text(pilot.app))
        return screen_text(pilot.app)

    assert "ID" in drive(DicehallApp(), steps).splitlines()[1]


def test_the_message_of_the_day_in_hall_and_hall_json(hall, game_id, capsys):
    admins(hall.folder / "hall.toml", HOSTILE_MOTD)
    out = main_out(hall, capsys, "hall")
    assert out.startswith("Welcome! [@click=app.quit]quit[/] [bold red]x[/][2J\nTowers at 8.\n\n")
    assert "\x1b" not in out and "\x07" not in out and "hall.toml" not in out
    assert json.loads(main_out(hall, capsys, "hall", "--json"))["motd"] == (
        "Welcome! [@click=app.quit]quit[/] [bold red]x[/][2J\nTowers at 8.")


def test_a_long_message_of_the_day_is_cut_to_three_lines_of_76_and_said_so(hall):
    hall.folder.mkdir(parents=True)
    admins(hall.folder / "hall.toml", 'motd = """' + "word " * 40 + "\n\n\nmore\nand more\"\"\"\n")
    settings = read_settings(hall.folder)
    lines = settings.motd.splitlines()
    assert len(lines) == 3 and all(len(line) <= 76 for line in lines) and lines[0].startswith("word word")
    assert settings.problem == "hall.toml: motd is longer than 3 lines of 76 characters: cut"


# ----- barred players -----
def bar(hall, *names):
    hall.folder.mkdir(parents=True, exist_ok=True)
    admins(hall.folder / "hall.toml", f"barred = {json.dumps(list(names))}\n")


DOOR_ARGS = {  # every command (and the launcher, None), as a barred player might send it
    None: [], "play": ["play", "dicetower"], "continue": ["continue"], "saves": ["saves"],
    "export": ["export", "abcdef"], "replay": ["replay", "abcdef"], "verify": ["verify", "abcdef"],
    "analyse": ["analyse", "abcdef"], "practice": ["practice"], "summary": ["summary", "abcdef"],
    "stats": ["stats"], "sim": ["sim", "dicetower"], "rules": ["rules", "towers"], "recover": ["recover", "abcdef"],
    "hall": ["hall"], "archive": ["archive"], "ratings": ["ratings"], "host": ["host", "towers"], "join": ["join", "abcdef"], "watch": ["watch", "abcdef"],
    "serve": ["serve"],
}


def test_a_barred_player_is_refused_at_the_door_for_every_command_in_one_line(hall, capsys):
    assert set(DOOR_ARGS) - {None} == set(BY_NAME)  # a new command is checked here too
    bar(hall, "eve")
    for args in DOOR_ARGS.values():
        assert main(["--hall", str(hall.folder), "--player", "eve", *args]) == 1, args
        out, err = capsys.readouterr()
        assert (out, err) == ("", "dicehall: the admin has barred eve from this hall\n"), args
    assert not (hall.folder / "games").exists()  # nothing was hosted, joined or watched


def test_another_player_passes_the_door_and_a_bar_by_name_off_a_box_is_no_door(hall, capsys):
    bar(hall, "eve")
    assert main(["--hall", str(hall.folder), "--player", "ann", "hall"]) == 0
    assert capsys.readouterr().err == ""
    os.environ["DICEHALL_PLAYER"] = ""  # off the box again (the fixture restores it)
    assert main(["--hall", str(hall.folder), "rules", "towers"]) == 0  # a person's own account: their solo games


def test_a_player_barred_mid_session_cannot_take_a_seat_or_host(hall, monkeypatch, capsys):
    ann = hall.host("towers", ["player", "open"], "Ann")
    bar(hall, "bob", "eve")
    before = sorted(p.name for p in hall.games.iterdir())
    with pytest.raises(HallError, match="^the admin has barred Bob from this hall$"):
        hall.join(ann.id, name="Bob")
    assert main(["--hall", str(hall.folder), "join", ann.id, "--name", "Bob"]) == 1
    assert capsys.readouterr().err == "dicehall: the admin has barred Bob from this hall\n"
    monkeypatch.setenv("DICEHALL_PLAYER", "eve")  # on the box: the key's name, whatever name is given
    with pytest.raises(HallError, match="^the admin has barred eve from this hall$"):
        hall.join(ann.id, name="Someone")
    with pytest.raises(HallError, match="^the admin has barred eve from this hall$"):
        hall.host("towers", ["player", "bot"], "Someone")
    assert sorted(p.name for p in hall.games.iterdir()) == before  # no game, seat or lock made
    ann.follow()
    assert [view.status for view in ann.seats()] == ["player", "open"]
    ann.close()


def test_a_barred_player_is_refused_at_the_lobbys_join(hall):
    cat = hall.host("towers", ["player", "open"], "Cat")
    bar(hall, "dan")

    async def steps(pilot):
        pilot.app.push_screen(HallScreen())
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and cat.id in screen_text(pilot.app))
        await pilot.press("j")  # the name is asked: typed once its box is open (before, Enter watched the game)
        await until(pilot, lambda: isinstance(pilot.app.screen, AskScreen))
        await pilot.press("D", "a", "n", "enter")
        await pilot.pause()
        return status(pilot.app), pilot.app.screen

    try:
        said, screen = drive(DicehallApp(), steps)
        assert said == "Not now: the admin has barred Dan from this hall"
        assert isinstance(screen, HallScreen)
        cat.follow()
        assert [view.status for view in cat.seats()] == ["player", "open"]
    finally:
        cat.close()


def test_barred_refusal_names_the_player_as_given_and_cleaned():
    settings = HallSettings(barred=frozenset({"eve"}))
    assert barred_refusal(settings, "Eve") == "the admin has barred Eve from this hall"
    assert barred_refusal(settings, "ann") is None and barred_refusal(settings, None) is None
    assert barred_refusal(HallSettings(barred=frozenset({"[b]x"})), "[b]x\x1b") == "the admin has barred [b]x from this hall"


# ----- sticky folders -----
def test_an_older_halls_folders_of_ours_are_made_sticky_anothers_are_named_once(hall, game_id, capsys):
    for folder in (hall.folder, hall.games, hall.secrets):
        os.chmod(folder, 0o2770)  # as an older dicehall made them
    assert main_out(hall, capsys, "hall").count("not sticky") == 0  # ours: made sticky, without a word
    for folder in (hall.folder, hall.games, hall.secrets):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o3770
    needs_chown()
    os.chown(hall.games, OTHER_UID, -1)
    os.chmod(hall.games, 0o2770)  # another user's: not ours to change
    out = main_out(hall, capsys, "hall")
    assert out.splitlines().count("not sticky: games (members can rename or remove each other's files; "
                                  "the owner fixes it with chmod +t)") == 1
    assert stat.S_IMODE(os.stat(hall.games).st_mode) == 0o2770
    assert "not sticky" not in main_out(hall, capsys, "hall", "--json")
