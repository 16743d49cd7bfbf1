"""The box as an attacker tries it: bob, a player on the shared account, types into every text box
of the app (80x24, through Pilot) and gives every option and argument a path: the hall's secret of a
game in progress, `~/.ssh/authorized_keys` (a file standing for it), alice's save, `../` paths, and
links to the secret in his own folder. Nothing is read (the secret's text never shows, on the
screen or in a file), and nothing is written or replaced outside bob's own folder."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dicehall import replays, saves
from dicehall.cli import main
from dicehall.saves.hall import Hall
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen, PasteScreen
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from tests.apphelpers import drive, screen_text

ROOT = Path(__file__).parent.parent
KEY_TEXT = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKEYOFTHEADMIN admin@box"

# Every text box of the app (what makes one, per source file, in order), and how the test covers it:
# "driven" ones get every attack below through Pilot; the others take no path or file at all (a
# name, a number, a card, a message: text kept as data, their own tests give them hostile text).
TEXT_BOXES = {
    "tui/screens/launcher.py": ["driven: the new game's name", "driven: Open replay (a file name on a box)"],
    "tui/screens/saves.py": ["driven: Export on a box (a file name)", "not on a box: Export's path (off a box)",
                             "driven: Rename (a save's name, not its file)"],
    "tui/screens/viewer/comments.py": ["driven: a comment (Input)", "driven: x writes a copy (a file name on a box)"],
    "tui/screens/viewer/screen.py": ["driven: go to an event number"],
    "tui/screens/journal.py": ["driven: the journal's entry (TextArea)", "a card drawn (a card code)",
                               "dice typed (faces)", "which entry to rewrite (a number)"],
    "tui/screens/journal_setup.py": ["the game's name (a title: cleaned, capped, drawn as text; tests/test_journal_gamefile.py)",
                                     "not on a box: a deck file's path (off a box)", "driven: a pasted deck"],
    "tui/screens/dicetower.py": ["dice typed (faces)"],
    "tui/screens/base.py": ["a seat's name in a setup (a name)"],
    "tui/screens/wager/setup.py": ["a seat's name (a name)"],
    "tui/screens/hall/lobby.py": ["not on a box: the name at a hall table (on a box the key's name: nothing asked)"],
    "tui/screens/hall/host.py": ["not on a box: the name at a hall table (on a box the key's name: nothing asked)"],
    "tui/screens/hall/talk.py": ["a chat message (a message, appended to the hall's chat file)"],
    "tui/screens/hall/match.py": ["a round-robin's invited players (names: cleaned, capped; on a box each a player's name)",
                                  "not on a box: the name in a match (on a box the key's name: nothing asked)"],
    "tui/screens/dialogs.py": ["AskScreen's Input", "PasteScreen's TextArea"],
}
MAKES_A_TEXT_BOX = re.compile(r"\b(AskScreen|PasteScreen|Input|TextArea)\(")


def test_every_text_box_of_the_app_is_covered():
    found = {}
    for path in sorted((ROOT / "tui").rglob("*.py")):
        count = sum(1 for line in path.read_text().splitlines()
                    if MAKES_A_TEXT_BOX.search(line) and not line.lstrip().startswith(("class ", "#")))
        if count:
            found[str(path.relative_to(ROOT))] = count
    assert found == {name: len(boxes) for name, boxes in TEXT_BOXES.items()}, \
        "a text box was added or removed: give it the attacks below (or say why it takes no path) in TEXT_BOXES"


@pytest.fixture
def box(tmp_path, home, monkeypatch):
    """A hall with a game in progress (its secret in HALL/secrets), an admin's deck, alice's save, a
    file standing for authorized_keys; then the player is bob, with links to the secret in his folder."""
    hall_folder = tmp_path / "hall"
    monkeypatch.setenv("DICEHALL_HALL", str(hall_folder))
    hosted = Hall(hall_folder).host("towers", ["player", "open"], "carol")
    secret_path = hall_folder / "secrets" / hosted.id
    secret = secret_path.read_text().strip()
    (hall_folder / "decks").mkdir(mode=0o755)
    (hall_folder / "decks" / "tide.toml").write_text('[game]\ntitle = "Tide Station"\n[[card]]\ncard = "AH"\nprompt = "x"\n')
    (hall_folder / "decks" / "seed.csv").symlink_to(secret_path)  # a link among the admin's decks: never followed
    keys = tmp_path / "ssh" / "authorized_keys"
    keys.parent.mkdir()
    keys.write_text(KEY_TEXT + "\n")
    monkeypatch.setenv("DICEHALL_PLAYER", "alice")
    alices = saves.new_save("dicetower", name="alices tower", seed=3, players=saves.solo_players())
    saves.close_save(alices)
    alice_save = saves.find_save(alices.labels.save_id)
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    bobs = saves.new_save("dicetower", name="bobs tower", seed=4, players=saves.solo_players())
    saves.close_save(bobs)
    assert main(["export", "bobs tower", "-o", "bob"]) == 0  # bob's own replay, for the viewer's x
    saves.close_save(saves.new_save("journal", name="bobs journal", seed=4, players=saves.solo_players()))
    replays = saves.replays_dir()
    (replays / "seed.dhr").symlink_to(secret_path)
    (replays / "keys.dhr").symlink_to(keys)
    attacks = [str(secret_path), f"{hall_folder}/secrets/../secrets/{hosted.id}", str(keys), "~/.ssh/authorized_keys",
               str(alice_save), f"../../alice/saves/{alice_save.name}", f"../../../hall/secrets/{hosted.id}",
               "../x.dhr", "..", ".hidden.dhr", "seed.dhr", "keys.dhr", "seed", "keys", f"{'n' * 200}.dhr"]
    yield {"secret": secret, "secret_path": secret_path, "keys": keys, "attacks": attacks, "bob": saves.home(),
           "tmp": tmp_path}
    hosted.close()


def snapshot(top: Path, leave_out: Path) -> dict:
    """Every file, folder and link under `top` but `leave_out`, with its bytes or its target."""
    seen = {}
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(folder) / name
            if path == leave_out or leave_out in path.parents:
                continue
            if path.is_symlink():
                seen[path] = ("link", os.readlink(path))
            elif path.is_file():
                seen[path] = ("file", path.read_bytes())
            else:
                seen[path] = ("folder",)
    return seen


def bobs_own_files_hold_no_secret(box) -> None:
    bob = box["bob"]
    assert os.readlink(bob / "replays" / "seed.dhr") == str(box["secret_path"])  # the links are still links
    assert os.readlink(bob / "replays" / "keys.dhr") == str(box["keys"])
    for path in bob.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            assert box["secret"].encode() not in data and b"KEYOFTHEADMIN" not in data, path


def shows_nothing(box, text: str) -> None:
    assert box["secret"] not in text and "KEYOFTHEADMIN" not in text and "alices tower" not in text, text


async def answer(pilot, text: str) -> None:
    """Type `text` into the open dialog's box and take it; say yes if asked to replace a file."""
    screen = pilot.app.screen
    if isinstance(screen, PasteScreen):
        screen.query_one("TextArea").text = text
        await pilot.press("ctrl+s")
    else:  # AskScreen, the viewer's comment: one Input
        assert screen.query("Input"), screen_text(pilot.app)
        screen.query_one("Input").value = text
        await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, ConfirmScreen):
        await pilot.press("y")  # the worst case: the attacker says yes
        await pilot.pause()
    if pilot.app.screen.query("Input, #paste-input"):  # refused in the dialog: leave it
        await pilot.press("escape")
        await pilot.pause()


@dataclass
class Attacker:
    """Bob at the app: `attack(*keys)` opens a text box with `keys` and gives it every attack in turn;
    `seen` keeps each screen that followed."""
    pilot: Pilot
    box: dict
    seen: list[str] = field(default_factory=list)

    async def attack(self, *keys: str) -> None:
        for text in self.box["attacks"]:
            await self.pilot.press(*keys)
            await self.pilot.pause()
            await answer(self.pilot, text)
            self.seen.append(screen_text(self.pilot.app))


async def launcher_open(bob: Attacker):
    await bob.attack("o")  # the launcher's Open replay


async def to_a_save(bob: Attacker) -> None:
    await bob.pilot.press("c")  # the saves list: bob's one save
    await bob.pilot.pause()
    bob.seen.append(screen_text(bob.pilot.app))


async def saves_export(bob: Attacker):
    await to_a_save(bob)
    await bob.attack("e")


async def saves_rename(bob: Attacker):
    await to_a_save(bob)
    await bob.attack("n")


async def viewer_comment(bob: Attacker):
    await to_a_save(bob)
    await bob.pilot.press("v")  # the viewer of a save
    await bob.pilot.pause()
    await bob.attack("semicolon")


async def viewer_go_to(bob: Attacker):
    await to_a_save(bob)
    await bob.pilot.press("v")
    await bob.pilot.pause()
    await bob.attack("g")


async def viewer_copy(bob: Attacker):
    await bob.pilot.press("o")  # the viewer of bob's replay file: x writes a copy
    await bob.pilot.pause()
    await answer(bob.pilot, "bob.dhr")
    await bob.pilot.press("semicolon")  # x is for a replay with comments
    await bob.pilot.pause()
    await answer(bob.pilot, "a note")
    await bob.attack("x")


async def journal_pasted_deck(bob: Attacker):
    pilot = bob.pilot
    await pilot.press(*["down"] * 5, "enter")  # the journal's setup
    await pilot.pause()
    assert isinstance(pilot.app.screen, JournalSetupScreen)
    setup = screen_text(pilot.app)
    while pilot.app.screen.current() != "paste":
        await pilot.press("down")
    await pilot.press("enter")  # Paste a deck
    await pilot.pause()
    await answer(pilot, bob.box["attacks"][0])
    for text in bob.box["attacks"][1:] + [f"card,suite,action,description\n{bob.box['secret_path']},hearts,pull,x\n"]:
        await pilot.press("enter")
        await pilot.pause()
        await answer(pilot, text)
        bob.seen.append(screen_text(pilot.app))
    await pilot.press("home", "down", "enter")  # the hall's deck, by its name
    await pilot.pause()
    chosen = screen_text(pilot.app)
    await pilot.press("s")
    await pilot.pause()
    await pilot.press("n")  # the first day
    await pilot.pause()
    assert "type its path" not in setup and "The hall's deck: tide" in setup and "seed" not in setup
    assert "deck: Tide Station" in chosen
    assert pilot.app.screen.session.state.deck.title == "Tide Station"


# The driven text boxes of TEXT_BOXES, each reached from a new app: one test each, so they run apart.
DRIVEN = [launcher_open, saves_export, saves_rename, viewer_comment, viewer_go_to, viewer_copy, journal_pasted_deck]


@pytest.mark.parametrize("route", DRIVEN, ids=[route.__name__ for route in DRIVEN])
def test_every_text_box_given_paths_reads_and_writes_nothing_outside_the_players_folder(box, route):
    before = snapshot(box["tmp"], box["bob"])
    seen: list[str] = []

    async def steps(pilot):
        bob = Attacker(pilot, box, seen)
        await route(bob)

    drive(DicehallApp(), steps)
    assert len(seen) >= len(box["attacks"])
    for text in seen:
        shows_nothing(box, text)
    assert snapshot(box["tmp"], box["bob"]) == before  # nothing outside bob's folder changed
    bobs_own_files_hold_no_secret(box)


@pytest.fixture
def one_parser(monkeypatch):
    """dicehall's own parser, built once for the hundreds of commands below: main() builds it anew at
    each call (some milliseconds of argparse, most of these tests' time), and a parse leaves it as it was."""
    from dicehall import cli

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)


COMMANDS = [
    lambda path: ["play", "journal", "--option", f"deck={path}"],
    lambda path: ["host", "journal", "--option", f"deck={path}"],
    lambda path: ["sim", "journal", "--deck", path, "--games", "1"],
    lambda path: ["export", "bobs tower", "-o", path],
    lambda path: ["export", "bobs tower", "-o", path, "--force"],
    lambda path: ["export", "bobs tower", "--text", "-o", path, "--force"],
    lambda path: ["export", "bobs journal", "--markdown", "-o", path, "--force"],
    lambda path: ["export", "bobs journal", "--html", "-o", path, "--force"],
    lambda path: ["export", "bobs tower", "--svg", "-o", path, "--force"],  # an image: drawn only once its place is sound
    lambda path: ["export", path, "--svg", "--graph"],  # a record to draw: by name in bob's replays folder only
    lambda path: ["replay", path],
    lambda path: ["verify", path],
    lambda path: ["analyse", path],
    lambda path: ["summary", path],
    lambda path: ["continue", path],
    lambda path: ["recover", path],
    lambda path: ["archive", "--game", path],
]


def test_every_option_and_argument_given_paths_reads_and_writes_nothing(box, capsys, one_parser):
    before = snapshot(box["tmp"], box["bob"])
    for command in COMMANDS:
        for path in box["attacks"]:
            argv = command(path)
            try:
                code = main(argv)
            except SystemExit as leaving:  # an argument error: the usage and one line
                code = leaving.code
            captured = capsys.readouterr()
            shows_nothing(box, captured.out + captured.err)
            wrote = captured.out.startswith("wrote ")
            assert code != 0 or wrote, (argv, captured)
            if wrote:  # only a file name of bob's own replays folder is written
                assert Path(captured.out[6:].strip()).parent == box["bob"] / "replays", (argv, captured.out)
    assert snapshot(box["tmp"], box["bob"]) == before
    bobs_own_files_hold_no_secret(box)


def test_off_a_box_a_deck_refusal_names_the_file_and_line_never_its_text(box, monkeypatch, capsys):
    monkeypatch.delenv("DICEHALL_PLAYER")
    assert main(["play", "journal", "--option", f"deck={box['secret_path']}"]) == 1  # one line, no usage
    err = capsys.readouterr().err
    assert f"{box['secret_path'].name} line 1, column 1: not a deck's column" in err and box["secret"] not in err
    assert err.count("\n") == 1 and "usage" not in err


def test_an_export_never_replaces_a_link_and_a_record_is_never_read_through_one(box, capsys):
    assert main(["export", "bobs tower", "-o", "seed.dhr", "--force"]) == 1
    assert "a symbolic link in your replays folder: refused" in capsys.readouterr().err
    assert main(["verify", "keys.dhr"]) == 1
    assert "keys.dhr: a symbolic link in your replays folder: refused" in capsys.readouterr().err
    assert main(["export", "bobs tower", "-o", "mine"]) == 0  # a name: into bob's replays, .dhr added
    assert (box["bob"] / "replays" / "mine.dhr").is_file()
    assert main(["export", "bobs tower", "-o", "mine"]) == 1  # never replaced unasked
    assert "already exists; add --force" in capsys.readouterr().err
    assert main(["verify", "mine.dhr"]) == 0


def test_export_o_dash_prints_the_replay(box, capsysbinary):
    assert main(["export", "bobs tower", "-o", "-"]) == 0  # the replay on standard output: how it leaves the box
    printed = capsysbinary.readouterr().out
    copy = box["tmp"] / "printed.dhr"
    copy.write_bytes(printed)
    assert saves.load_readonly("bobs tower").events == replays.read_replay(copy).events


def box_command_words(form: str, game_id: str) -> str:
    return " ".join({"ID": game_id, "GAME": "wager", "N": "3"}.get(word, word) for word in form.split())


def test_no_command_on_a_box_shows_a_path_of_the_box_in_its_output_or_its_errors(tmp_path, home, monkeypatch, capfdbinary,
                                                                                   one_parser):
    """Every command of the box's list, typed after `ssh play@box` as the forced command runs it, on
    a finished game, a game in progress, an unknown id; then with the hall's folder missing and not a
    folder: nothing printed names a folder of the box (the hall's, the player's data)."""
    from dicehall.saves.box import SSH_COMMANDS
    from tests.hallhelpers import play_until_over

    hall_folder = tmp_path / "hall"
    monkeypatch.chdir(tmp_path)
    hall = Hall(hall_folder)
    ann = hall.host("wager", ["player", "open"], "ann")
    bob = hall.join(ann.id, name="bob")
    import random
    play_until_over({0: ann, 1: bob}, random.Random(5))
    ann.close(), bob.close()
    going = hall.host("wager", ["player", "bot:bold"], "carol")

    def shown(typed: str, folder: Path) -> str:
        monkeypatch.setenv("SSH_ORIGINAL_COMMAND", typed)
        try:
            main(["--hall", str(folder), "--player", "bob"])
        except SystemExit:
            pass
        captured = capfdbinary.readouterr()
        return (captured.out + captured.err).decode("utf-8", "replace")

    for game_id in (ann.id, going.id, "zz99zz"):
        for form in SSH_COMMANDS:
            if game_id != ann.id and form.startswith(("join", "watch ID --follow")):
                continue  # a seat taken, a follower waiting: each refused or ended where it can be
            said = shown(box_command_words(form, game_id), hall_folder)
            assert str(tmp_path) not in said, (form, game_id, said)
    (tmp_path / "file").write_text("x")
    for folder in (tmp_path / "missing", tmp_path / "file"):
        for form in ("hall", "hall --json", "hall --scores", "ratings", "ratings --json", "archive", "archive --json",
                     "verify ID", "watch ID", "join ID", "export ID -o -"):
            said = shown(box_command_words(form, ann.id), folder)
            assert said and str(tmp_path) not in said, (form, folder, said)
    going.close()
