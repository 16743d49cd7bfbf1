"""The box's gate (dicehall/cli/box.py): what a player types after `ssh play@box` reaches dicehall
as SSH_ORIGINAL_COMMAND while the admin's forced command (`dicehall --hall DIR --player ann`) runs.
Only the box's commands run; anything else is one line on standard error, exit 2, and nothing is
run or written. Played here as an attacker would, through main() with the environment sshd sets."""
from __future__ import annotations

import random
import re
import sys
from dataclasses import replace

import pytest

import dicehall.cli as cli
from dicehall import replays
from dicehall.cli import main
from dicehall.cli.box import box_words
from dicehall.saves.box import SSH_COMMANDS, NotAllowedHere, allowed_command, command_hint
from dicehall.saves.hall import Hall
from tests.hallhelpers import play_until_over

HOSTILE = [
    "rm -rf /",
    "sh -c id",
    "dicehall rm -rf /",
    "--hall /tmp hall",
    "hall --hall /tmp",
    "--player bob hall",
    "hall --player bob",
    "stats --player bob",
    "play --option deck=/etc/passwd",
    "play journal --option deck=/var/games/dicehall/secrets/abc123",
    "host journal --option deck=/etc/shadow",
    "continue",
    "saves",
    "replay /etc/passwd",
    "verify /etc/passwd",
    "verify ../../secrets/abc123",
    "verify ~/.ssh/authorized_keys",
    "verify .profile",
    "export abc123 -o /home/play/.ssh/authorized_keys",
    "export abc123 -o -- --force",
    "export abc123 -o - --force",
    "export abc123 --text /tmp/x",
    "export abc123 --text - --analysed",
    "export abc123",
    "export ../ann/saves/x -o -",
    "export 'a/b' --text -",
    "export '..' --text -",
    "join abc123 --name Bob",
    "join abc123 --seat 2",
    "watch abc123 --follow --follow",
    "rules",
    "rules ../../etc/passwd",
    "rules troll extra",
    "stats troll bones",
    "analyse abc123",
    "summary abc123",
    "sim troll --games 1000000",
    "serve --host 0.0.0.0",
    "recover x",
    "--version",
    "--help",
    "hall --help",
    "hall; rm -rf /",
    "hall && id",
    "hall | cat",
    "hall $(id)",
    "hall `id`",
    "hall > /tmp/x",
    "hall 'unbalanced",
    'hall "unbalanced',
    "hall \\",
    "hall\nrm -rf /",
    "hall\x1b[2J",
    "hall\x07",
    " ".join(["hall"] * 10_000),
    "a" * 1_000_000,
    "join " + "a" * 100,
    "archive --player bob",  # a free text: the Hall screen's archive filters by player with its p
    "archive --player '\x1b[2J[bold]x'",
    "archive --game ../../etc",
    "archive --game towers --limit 100000000",
    "archive --json --json",
]


@pytest.fixture
def box(tmp_path, monkeypatch):
    """A box's session: the forced command's hall, the current folder the shared account's home."""
    hall = tmp_path / "hall"
    hall.mkdir()
    account = tmp_path / "play"
    account.mkdir()
    monkeypatch.chdir(account)
    monkeypatch.delenv("DICEHALL_PLAYER", raising=False)
    monkeypatch.delenv("DICEHALL_HALL", raising=False)
    return {"hall": hall, "account": account}


@pytest.fixture
def ran(monkeypatch):
    """Every command's run (and the launcher's) replaced by a recorder: "nothing ran" is seen, not assumed."""
    calls = []
    for name, command in cli.BY_NAME.items():
        monkeypatch.setitem(cli.BY_NAME, name, replace(command, run=lambda args, name=name: calls.append((name, args)) or 0))
    monkeypatch.setattr(cli, "launcher_command", lambda args: calls.append(("launcher", args)) or 0)
    return calls


def forced(typed: str, box, monkeypatch) -> int:
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", typed)
    return main(["--hall", str(box["hall"]), "--player", "ann"])


def files_under(*folders) -> list[str]:
    return sorted(str(path) for folder in folders for path in folder.rglob("*"))


@pytest.mark.parametrize("typed", HOSTILE, ids=lambda typed: repr(typed[:40]))
def test_a_hostile_command_is_refused_in_one_line_and_nothing_runs(typed, box, ran, home, monkeypatch, capsys):
    before = files_under(box["hall"], box["account"])
    assert forced(typed, box, monkeypatch) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("dicehall: ") and "allowed here: join ID, watch ID" in err and len(err) < 500
    assert "\x1b" not in err and "\x07" not in err and "Traceback" not in err
    assert ran == []
    assert files_under(box["hall"], box["account"]) == before and not home.exists()


def test_a_nul_or_a_control_character_is_refused_before_it_is_split():
    # sshd cannot hand a NUL over in the environment; the gate refuses it anyway
    for typed in ["hall\0--json", "hall\r", "hall\x7f", "hall\u202e"]:
        with pytest.raises(NotAllowedHere, match="control characters"):
            box_words(typed)


@pytest.mark.parametrize("typed, words", [
    ("hall", ["hall"]),
    ("dicehall hall --scores", ["hall", "--scores"]),
    ("hall --scores --json", ["hall", "--scores", "--json"]),
    ("join ab12cd", ["join", "ab12cd"]),
    ("dicehall watch ab12cd --follow", ["watch", "ab12cd", "--follow"]),
    ("verify ab12cd", ["verify", "ab12cd"]),
    ("export 'Ann v Bot' --text -", ["export", "Ann v Bot", "--text", "-"]),
    ("export troll-20250101-120000 -o -", ["export", "troll-20250101-120000", "-o", "-"]),
    ("stats", ["stats"]),
    ("stats troll --json", ["stats", "troll", "--json"]),
    ("rules journal", ["rules", "journal"]),
    ("archive", ["archive"]),
    ("dicehall archive --game towers --json", ["archive", "--game", "towers", "--json"]),
    ("archive --json --game troll", ["archive", "--json", "--game", "troll"]),
])
def test_an_allowed_command_runs_with_the_admins_hall_and_player(typed, words, box, ran, monkeypatch, capsys):
    assert forced(typed, box, monkeypatch) == 0
    assert capsys.readouterr().err == ""
    [(name, args)] = ran
    assert name == words[0]
    assert args.hall == str(box["hall"]) and args.box_player == "ann"  # the forced command's, never typed


@pytest.mark.parametrize("typed", ["", "dicehall", "  "])
def test_nothing_typed_opens_the_launcher(typed, box, ran, monkeypatch):
    assert forced(typed, box, monkeypatch) == 0
    [(name, args)] = ran
    assert name == "launcher" and args.box_player == "ann"


def test_without_a_forced_command_the_arguments_are_the_command_line(box, ran, monkeypatch):
    monkeypatch.delenv("SSH_ORIGINAL_COMMAND", raising=False)
    assert main(["--hall", str(box["hall"]), "--player", "ann"]) == 0
    assert [name for name, _ in ran] == ["launcher"]
    # a command given by the admin's own line is not the player's: the gate does not read it
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "rm -rf /")
    assert main(["--hall", str(box["hall"]), "hall"]) == 0
    assert [name for name, _ in ran] == ["launcher", "hall"]


def test_every_form_on_the_list_passes_its_own_check_and_its_placeholders_are_checked():
    for form in SSH_COMMANDS:
        words = [{"ID": "ab12cd", "GAME": "troll", "N": "12"}.get(word, word) for word in form.split()]
        assert allowed_command(words) == words
    for words in (["join", "../x"], ["rules", "chess"], ["verify", "a/b"], ["export", "-o", "-", "x"],
                  ["export", "x", "--svg", "--at", "-1", "-o", "-"], ["export", "x", "--svg", "--at", "\u00b2", "-o", "-"]):
        with pytest.raises(NotAllowedHere):
            allowed_command(words)


def finished_game(hall_folder) -> str:
    hall = Hall(hall_folder)
    ann = hall.host("wager", ["player", "open"], "ann")
    bob = hall.join(ann.id, name="bob")
    play_until_over({0: ann, 1: bob}, random.Random(5))
    ann.close(), bob.close()
    return ann.id


def test_export_to_standard_output_is_the_replay_on_and_off_the_box(box, tmp_path, monkeypatch, capfdbinary):
    game_id = finished_game(box["hall"])
    assert forced(f"dicehall export {game_id} -o -", box, monkeypatch) == 0
    data = capfdbinary.readouterr().out
    (tmp_path / "game.dhr").write_bytes(data)
    assert "ok" in replays.verify(tmp_path / "game.dhr")
    assert files_under(box["account"]) == []  # nothing left on the box: it went out on standard output
    monkeypatch.delenv("SSH_ORIGINAL_COMMAND")
    monkeypatch.delenv("DICEHALL_PLAYER")
    assert main(["--hall", str(box["hall"]), "export", game_id, "-o", "-"]) == 0  # off a box too
    (tmp_path / "off.dhr").write_bytes(capfdbinary.readouterr().out)
    assert replays.read_replay(tmp_path / "off.dhr").events == replays.read_replay(tmp_path / "game.dhr").events


def test_a_replay_is_never_written_onto_a_terminal(box, monkeypatch, capsys):
    game_id = finished_game(box["hall"])
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["--hall", str(box["hall"]), "export", game_id, "-o", "-"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "binary" in err and err.count("\n") == 1


def test_a_hint_names_a_command_that_works_where_it_is_shown(monkeypatch):
    monkeypatch.delenv("DICEHALL_PLAYER", raising=False)
    assert command_hint("join ab12cd") == "dicehall join ab12cd"
    assert command_hint("host GAME", key="the Hall screen's n") == "dicehall host GAME"
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    assert command_hint("join ab12cd", key="the Hall screen's j").endswith(" dicehall join ab12cd")
    assert command_hint("join ab12cd").startswith("ssh ")
    assert command_hint("host GAME", key="the Hall screen's n") == "the Hall screen's n"
    assert command_hint("summary SAVE") is None


# ----- hints: every command dicehall names is one that works where it is shown -----
VERBS = "play|continue|saves|export|replay|verify|analyse|practice|summary|stats|sim|rules|recover|hall|host|join|watch|serve"
NOT_HINTS = {  # strings that name dicehall but tell no one to run a command where they are shown
    "not a dicehall replay", "a dicehall replay", "dicehall hall seed",  # words, and the seed's hash input
    "the deal: dicehall play --deal",  # inside a text record: read by whoever it is sent to, off the box
    "in `dicehall saves`", "dicehall rules lists them",  # argparse's help: no --help over the box's ssh
    "dicehall serve",  # serve's own refusals: serve does not run over the box's ssh
}


def test_no_hint_in_the_source_names_a_command_in_its_own_words():
    """Every hint goes through command_hint, which words it for the place: a string literal naming
    `dicehall VERB` (not a docstring, not one of NOT_HINTS) would print the same words on a box."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    named = re.compile(rf"\bdicehall ({VERBS})\b")
    found = []
    for top in ("tui", "saves", "replays", "dicehall"):
        for path in sorted((root / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                          and node.body and isinstance(node.body[0], ast.Expr)}
            found += [f"{path.relative_to(root)}:{node.lineno}: {node.value[:80]!r}" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                      and named.search(node.value) and not any(words in node.value for words in NOT_HINTS)]
    assert found == []


def commands_named(text: str) -> list[str]:
    """Each `dicehall ...` a text names, checked as a player on the box would take it: after the ssh
    login, and the longest run of its words that the box allows (AssertionError otherwise)."""
    from dicehall.saves.box import ssh_login

    import re

    named = []
    parts = re.split(rf"dicehall (?=(?:{VERBS})\b)", text)
    for before, after in zip(parts, parts[1:]):
        assert before.endswith(f"{ssh_login()} "), f"not a command over ssh: {text!r}"
        words = after.replace(")", " ").split()
        allowed = [n for n in range(1, min(len(words), 4) + 1) if _allowed(words[:n])]
        assert allowed, f"not a command the box allows: dicehall {after[:40]!r} in {text!r}"
        named.append(" ".join(words[:allowed[-1]]))
    return named


def _allowed(words: list[str]) -> bool:
    try:
        allowed_command(words)
        return True
    except NotAllowedHere:
        return False


def test_on_a_box_the_commands_hints_name_run_over_ssh_or_are_keys(box, monkeypatch, capsys):
    from dicehall.saves.hall import SeatHeld

    hall = Hall(box["hall"])
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    monkeypatch.setenv("DICEHALL_HALL", str(box["hall"]))
    assert main(["hall"]) == 0  # an empty hall: its n key, as host is no command of the box
    assert "(the Hall screen's n opens one)" in capsys.readouterr().out
    assert main(["join", "zz99zz"]) == 1
    assert commands_named(capsys.readouterr().err) == ["hall"]
    assert main(["export", "no-such-save", "--text", "-"]) == 1
    assert "(the launcher's Continue lists them)" in capsys.readouterr().err
    ann = hall.host("towers", ["player", "open"], "ann")
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")  # each player sits as their key's name
    bob = hall.join(ann.id)
    monkeypatch.setenv("DICEHALL_PLAYER", "carol")
    with pytest.raises(SeatHeld) as held:
        hall.join(ann.id)
    assert commands_named(str(held.value)) == [f"watch {ann.id}"]
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", f"watch {ann.id}")  # off a terminal, over ssh -T
    assert main(["--player", "carol"]) == 0
    assert commands_named(capsys.readouterr().out.splitlines()[-1]) == [f"watch {ann.id} --follow"]
    ann.close(), bob.close()


def test_on_a_box_the_hall_tables_hints_are_commands_over_ssh(box, monkeypatch):
    from tests.apphelpers import drive_hall, screen_text
    from dicehall.tui.app import DicehallApp

    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    ann = Hall(box["hall"]).host("towers", ["player", "open"], "ann")
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        return screen_text(pilot.app), pilot.app.hall_leave_words()

    waiting, leaving = drive_hall(app, steps)
    line = next(line for line in waiting.splitlines() if "waiting for seat 2" in line)
    assert commands_named(line) == [f"join {ann.id}"] and "on another terminal" in line
    assert commands_named(leaving) == [f"join {ann.id}"]


def test_a_file_after_o_is_refused_as_a_path_never_taken_for_a_save():
    with pytest.raises(NotAllowedHere, match=r"^export -o /etc/x: only -o - \(standard output\) here$"):
        allowed_command(["export", "ab12cd", "--svg", "-o", "/etc/x"])


def test_the_archive_over_ssh_lists_the_halls_games_and_says_how_one_comes_off_the_box(box, monkeypatch, capsys):
    game_id = finished_game(box["hall"])
    assert forced("archive --game wager", box, monkeypatch) == 0
    out = capsys.readouterr().out
    assert re.search(rf"\n{game_id}  .* (ann beat bob|bob beat ann) at Dead Man's Wager", out), out
    assert "dicehall export ID -o - writes it" in out and "ssh " in out  # the box's own command, not a key
    assert files_under(box["account"]) == []
