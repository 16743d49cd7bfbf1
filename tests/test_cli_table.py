"""The command line's one source of truth: every subcommand the parser knows has a row in the
command table of docs/playing.md (README.md's summary has one of its own), and every row names a subcommand the parser knows."""
from __future__ import annotations

import re
from pathlib import Path

from dicehall.cli import COMMANDS, build_parser

ROOT = Path(__file__).parent.parent
COMMAND_TABLE = ROOT / "docs" / "playing.md"  # the file holding the table of commands (`| \`dicehall ...\` | ... |`)


def table_commands() -> set[str]:
    """The subcommand of each row of the command table: the word after `dicehall` (the launcher's row,
    `dicehall`, and the rows that start with an option, `dicehall --version`, name none)."""
    named = set()
    for line in COMMAND_TABLE.read_text().splitlines():
        row = re.match(r"\| `dicehall((?: [^`]*)?)` \|", line)
        if row:
            words = row.group(1).split()
            if words and not words[0].startswith("-"):
                named.add(words[0])
    return named


def test_every_subcommand_has_a_row_in_the_command_table_and_every_row_a_subcommand():
    parser = build_parser()
    assert set(parser.commands) == {command.name for command in COMMANDS}  # type: ignore[attr-defined]
    assert table_commands() == set(parser.commands)  # type: ignore[attr-defined]


def test_the_help_lists_every_subcommand_from_the_table(capsys):
    import pytest

    from dicehall.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert re.search(rf"^\s+{command.name}\s", out, re.MULTILINE), command.name
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    assert "  wager: --players, --bots" in capsys.readouterr().out  # from the game's catalogue entry


def test_the_readme_summary_names_every_subcommand_too():
    parser = build_parser()
    global COMMAND_TABLE
    kept = COMMAND_TABLE
    COMMAND_TABLE = ROOT / "README.md"
    try:
        assert table_commands() == set(parser.commands)  # type: ignore[attr-defined]
    finally:
        COMMAND_TABLE = kept
