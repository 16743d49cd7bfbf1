"""Decks as hostile input (issue #30): nesting, FIFOs, links, thousands of dotted keys, huge rows
are each refused in one line naming the file, within the caps, before anything else happens; through
the command line (`sim`, `play` off a terminal) that line comes without the usage text."""
from __future__ import annotations

import os
import string
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall.cli import main
from dicehall.engine.games.journal import DeckError, load_deck, read_deck_file
from dicehall.engine.games.journal.deck import MAX_DEPTH, MAX_FILE, MAX_KEYS

ROOT = Path(__file__).parent.parent
LETTERS = string.ascii_letters

HOSTILE = [  # (file name, its text, what the one line says)
    ("nested.toml", "[game]\ntitle = " + "[" * 1000 + "]" * 1000 + "\n", f"nested.toml line 2: nested more than {MAX_DEPTH} deep"),
    ("inline.toml", "[game]\nx = " + "{a = " * 1000 + "1" + "}" * 1000 + "\n", "inline.toml line 2: nested more than"),
    ("dotted.toml", "[game]\na" + ".a" * 16_000 + " = 1\n", "dotted.toml line 2: a key of more than"),
    ("header.toml", "[" + "a." * 16_000 + "a]\n", "header.toml line 1: a table that is neither [game] nor [[card]]"),
    # 20,000 headers of five names each (the reviewer's hdr6.toml): refused at the first, before tomllib
    ("headers.toml", "".join(f"[{LETTERS[n // 52 % 52]}{LETTERS[n % 52]}.a.b.c.d]\n" for n in range(20_000))[:MAX_FILE],
     "headers.toml line 1: a table that is neither [game] nor [[card]]"),
    ("tables.toml", "[[card]]\n" * (MAX_KEYS + 1), f"tables.toml line {MAX_KEYS + 1}: more than {MAX_KEYS} keys and tables"),
    ("outside.toml", "x = [" + "1," * 100_000 + "]\n[game]\n", "outside.toml line 1: a key outside [game] and [[card]]"),
    ("keys.toml", "[game]\n" + "".join(f"k{n} = 1\n" for n in range(MAX_KEYS)), f"keys.toml line {MAX_KEYS + 1}: more than {MAX_KEYS} keys"),
    ("row.csv", "card,suite,action,description\nA,hearts,," + "x" * 200_000 + "\n", "row.csv line 2: not readable as CSV"),
    ("fields.csv", "card,suite,action,description\n" + "," * 100_000 + "\n", "fields.csv line 2: 100001 fields"),
    ("rows.csv", "card,suite,action,description\n" + "\n".join(f"{n}" for n in range(5000)) + "\n", "rows.csv line "),
    ("big.toml", "# " + "x" * MAX_FILE + "\n", "big.toml: larger than 256 KiB"),
    # a quote left open: csv took every row after it as one prompt (#30); named at the line it opens
    ("quote.csv", "card,suite,action,description\nA,hearts,primary-success,Hope\n2,hearts,,\"Stay, she said\n"
     "3,hearts,failure-check,The wall cracks\nA,spades,success-bonus,A friend\n",
     "quote.csv line 3: a quoted field begins here and is never closed"),
    ("after.csv", 'card,suite,action,description\n2,hearts,"no-\n\npull","""open\n3,hearts,,x\n',
     "after.csv line 4: a quoted field begins here and is never closed"),  # its own line, not its row's
]


@pytest.mark.parametrize("name, text, said", HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_hostile_deck_is_one_line_naming_the_file(tmp_path, name, text, said):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DeckError) as refused:
        load_deck(path)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


def test_brackets_and_dots_inside_a_decks_strings_are_its_text(tmp_path):
    path = tmp_path / "quoted.toml"
    path.write_text('[game]\ntitle = "[[[[[[[[[[ a.b.c.d.e.f.g = {{{{{{{{{{"\n'
                    "intro = '''\n[[[[[[[[[[[[\n'''\n# [[[[[[[[[[[[[[ a.b.c.d.e.f = 1\n")
    assert load_deck(path).title.startswith("[[[[[[[[[[ a.b.c.d")


def test_a_refusal_after_a_multi_line_string_names_its_own_line(tmp_path):
    path = tmp_path / "lines.toml"
    path.write_text('[game]\nintro = """one\ntwo\nthree"""\n[card]\n')
    with pytest.raises(DeckError, match="^lines.toml line 5: a table that is neither"):
        load_deck(path)


def test_quoted_csv_fields_that_close_read_whole_over_their_lines():
    from dicehall.engine.games.journal import parse_deck

    deck = parse_deck(b'card,suite,action,description\n2,hearts,,"Stay, she said\n\n""go"", he said"\n'
                      b'3,hearts,"pull","The wall\r\ncracks"\n4,hearts,,"""quoted"" at the end"', "closed.csv")
    assert deck.prompt("2H") == 'Stay, she said\n\n"go", he said' and deck.prompt("3H") == "The wall\ncracks"
    assert deck.prompt("4H") == '"quoted" at the end' and deck.action("3H") == "pull"
    assert parse_deck(b'card,suite,action,description\n5,hearts,,a "quote" inside', "inside.csv").prompt("5H") == (
        'a "quote" inside')  # a quote inside a field opens nothing


def test_a_link_to_a_deck_is_refused(tmp_path):
    (tmp_path / "real.toml").write_text('[game]\ntitle = "Real"\n')
    (tmp_path / "link.toml").symlink_to(tmp_path / "real.toml")
    with pytest.raises(DeckError, match="^link.toml: a link, not a deck file"):
        load_deck(tmp_path / "link.toml")


def test_a_fifo_deck_is_refused_at_once_never_waited_on(tmp_path):
    os.mkfifo(tmp_path / "fifo.toml")
    with pytest.raises(DeckError, match="^fifo.toml: not a regular file"):
        load_deck(tmp_path / "fifo.toml")  # opened without blocking: a writer never comes


def cli(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """dicehall in its own process, standard input not a terminal, with a guard on the time it may take."""
    env = dict(os.environ, DICEHALL_HOME=str(tmp_path / "home"))
    return subprocess.run([sys.executable, "-m", "dicehall", *argv], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, cwd=ROOT.parent, env=env)


CLI_DECKS = ["nested.toml", "dotted.toml", "fields.csv"]


@pytest.mark.parametrize("name", CLI_DECKS + ["fifo.toml", "link.toml"])
def test_sim_and_play_refuse_a_hostile_deck_in_one_line_without_the_usage(tmp_path, name):
    path = tmp_path / name
    if name == "fifo.toml":
        os.mkfifo(path)
    elif name == "link.toml":
        path.symlink_to(tmp_path / "elsewhere.toml")
    else:
        path.write_text(next(text for file, text, _ in HOSTILE if file == name))
    for argv in (["sim", "journal", "--games", "10", "--deck", str(path)],
                 ["play", "journal", "--option", f"deck={path}"]):
        done = cli(tmp_path, *argv)
        assert done.returncode == 1, (argv, done.stderr)
        assert done.stderr.startswith(f"dicehall: {name}") and done.stderr.count("\n") == 1, (argv, done.stderr)
        assert "usage" not in done.stderr and "Traceback" not in done.stderr and done.stdout == ""


def test_a_bad_deck_in_sim_is_one_line(tmp_path, capsys):
    path = tmp_path / "deck.csv"
    path.write_text("card,suite,action,description\nA,hearts,flee,Run.\n")
    assert main(["sim", "journal", "--deck", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dicehall: deck.csv line 2: action is not one of") and err.count("\n") == 1


def test_on_a_box_a_fifo_or_a_link_in_the_admins_decks_is_never_offered_nor_read(tmp_path, monkeypatch):
    from dicehall.saves.decks import hall_deck, hall_decks

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    decks = tmp_path / "hall" / "decks"
    decks.mkdir(parents=True, mode=0o755)
    (tmp_path / "hall").chmod(0o755)
    (decks / "tide.toml").write_text('[game]\ntitle = "Tide"\n')
    os.mkfifo(decks / "pipe.toml")
    (decks / "link.toml").symlink_to(decks / "tide.toml")
    assert hall_decks() == ["tide"]
    for name in ("pipe", "link"):
        with pytest.raises(DeckError, match=f"^'{name}': on this box a deck is one of sample, tide"):
            hall_deck(name)
    assert hall_deck("tide").title == "Tide"
    folder = os.open(decks, os.O_RDONLY)  # swapped in after the listing: the read itself refuses them
    try:
        for name, said in (("pipe.toml", "not a regular file"), ("link.toml", "a link")):
            with pytest.raises(DeckError, match=f"^{name}: {said}"):
                read_deck_file(name, name, dir_fd=folder)
    finally:
        os.close(folder)
