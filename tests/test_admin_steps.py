"""The admin steps of docs/hall.md ("Setting up a hall (for a box's admin)") parse and name real commands,
options and paths. tests/box/admin_steps.sh runs the same blocks for real in a fresh Debian root
(slow, root and network: by hand); tests/test_sshd.py logs in with the same authorized_keys line."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.box import readme_steps
from dicehall.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
OPTIONS = 'command="umask 007; dicehall --hall /var/games/dicehall --player ann",restrict,pty'


def commands() -> list[list[str]]:
    """Each command of the section's shell blocks, split as sh would (one per line; none continues),
    without its redirections."""
    found = []
    for block in readme_steps.shell_blocks():
        for line in block.splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
            lexer.whitespace_split = True
            command, redirect = [], False
            for token in lexer:
                if token in (";", "&&", "||", "|"):
                    found.append(command)
                    command = []
                elif token in (">", ">>", "<"):
                    redirect = True
                elif redirect:
                    redirect = False
                else:
                    command.append(token)
            found.append(command)
    return [c for c in found if c]


def test_the_section_has_its_blocks_and_they_are_valid_sh():
    assert len(readme_steps.shell_blocks()) >= 4
    script = "\n".join(readme_steps.shell_blocks())
    assert subprocess.run(["sh", "-n", "-c", script]).returncode == 0
    assert "\\\n" not in script  # one command a line, so commands() reads them as sh does


def test_the_steps_avoid_what_broke_on_debian():
    script = "\n".join(readme_steps.shell_blocks())
    users = [c[-1] for c in commands() if c[0] == "useradd"]
    assert users == ["play"]  # not "games": Debian and Ubuntu have that user already
    assert not re.search(r"(^|\s)(sudo )?pip3? install", script, re.MULTILINE)  # PEP 668 refuses it
    assert "python3 -m venv /opt/dicehall" in script
    assert "ln -sf /opt/dicehall/bin/dicehall /usr/local/bin/dicehall" in script
    # useradd locks the new account ("play:!"), which an sshd with UsePAM no refuses even for a key
    lines = [c for c in commands() if c[0] in ("useradd", "usermod") and c[-1] == "play"]
    assert [c[0] for c in lines] == ["useradd", "usermod"] and lines[1][1:] == ["-p", "*", "play"]


def test_every_command_is_on_this_machine_and_takes_the_options_given():
    tools = {"apt-get", "python3", "ln", "groupadd", "install", "useradd", "usermod", "chown", "chmod", "printf"}
    named = {c[0] for c in commands() if not c[0].startswith("/opt/") and c[0] != "dicehall"}
    assert named == tools, "a new command in the admin's steps: check it here"
    for command in commands():
        if command[0] not in tools or command[0] == "printf":
            continue
        path = shutil.which(command[0], path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
        assert path, f"{command[0]} is not on this machine"
        if command[0] == "apt-get":  # its --help lists no options: it takes them for real, simulating
            options = [o for o in command[1:] if o.startswith("-")]
            assert subprocess.run([path, *options, "-s", "check"], capture_output=True).returncode == 0
            continue
        usage = subprocess.run([path, "--help"], capture_output=True, text=True, env={"LC_ALL": "C", "PATH": os.environ["PATH"]})
        usage_text = usage.stdout + usage.stderr
        for option in command[1:]:
            if option.startswith("-") and option != "-":
                flag = option if option.startswith("--") else option[:2]
                assert re.search(rf"(^|[\s,\[]){re.escape(flag)}\b", usage_text), f"{command[0]} has no {flag}"


def test_the_install_names_this_package_and_its_command():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["name"] == "dicehall" and "dicehall" in project["scripts"]
    section = readme_steps.section()
    assert f"dicehall-{project['version']}-py3-none-any.whl" in section
    # run from inside the checkout, as the section says: "./dicehall" there is the package folder, not installable
    assert ["/opt/dicehall/bin/pip", "install", "."] in commands()
    assert "from inside it" in section
    script = REPO / "tests" / "box" / "admin_steps.sh"
    assert os.access(script, os.X_OK) and "tests/box/admin_steps.sh" in section


def test_every_dicehall_command_in_the_section_parses():
    parser = build_parser()
    lines = [c[1:] for c in commands() if c[0] == "dicehall"]
    assert lines == [["--version"]]
    parsed = parser.parse_args(shlex.split(readme_steps.forced_command().split(";")[-1])[1:])
    assert parsed.hall == "/var/games/dicehall" and parsed.command is None  # the launcher (or the box's gate)
    assert parsed.box_player == "ann"  # the key line names its player
    assert "ForceCommand" not in readme_steps.match_block()  # one command for every key could name no one


def test_the_key_line_gives_a_terminal_and_the_printf_writes_exactly_it(tmp_path):
    line = readme_steps.key_line()
    assert readme_steps.key_options() == OPTIONS
    options = re.sub(r'command="[^"]*"', "", readme_steps.key_options()).strip(",").split(",")
    assert "restrict" in options and "pty" in options  # restrict alone forbids the terminal
    assert readme_steps.forced_command().startswith("umask 007; ")
    # the block's printf, given the documentation's placeholder key as ann.pub, writes the line shown
    printf = next(line for block in readme_steps.shell_blocks() for line in block.splitlines()
                  if line.startswith("printf "))
    (tmp_path / "ann.pub").write_text(line[len(OPTIONS) + 1:] + "\n")
    written = subprocess.run(["sh", "-c", printf.split(" >> ")[0]], cwd=tmp_path, capture_output=True, text=True)
    assert written.returncode == 0 and written.stdout == line + "\n"
    assert printf.split(" >> ")[1] == "~play/.ssh/authorized_keys"


def test_the_match_block_is_for_the_shared_account_and_forbids_forwarding():
    match = readme_steps.match_block().splitlines()
    assert match[0] == "Match User play"
    settings = dict(line.split(None, 1) for line in match[1:])
    assert settings == {"DisableForwarding": "yes", "PermitTunnel": "no", "PermitUserRC": "no", "ExposeAuthInfo": "yes"}


def test_the_extractor_refuses_a_section_without_its_line():
    text = "## Setting up a hall (for a box's admin)\n\n```sh\ntrue\n```\n\n## Next\n"
    assert readme_steps.shell_blocks(text) == ["true\n"]
    with pytest.raises(ValueError, match="one authorized_keys line"):
        readme_steps.key_line(text)
