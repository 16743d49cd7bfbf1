"""Text records treated as hostile: random edits, huge lines, binary junk, deep braces and brackets,
each read in one line (or read correctly), never a traceback, within a second each."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from dicehall import engine, replays
from dicehall.cli import main
from dicehall.engine.games import CATALOGUE
from dicehall.replays.text import read_record, read_text, write_text
from dicehall.replays.text_lines import MAX_LINE
from tests.test_text_records import players_for, whole_game

EVERY_GAME = [entry.id for entry in CATALOGUE if entry.playable]
TAG_VALUES = ["1e999", "[[[]]]", "{}", "true", "-5", '""', '"x" "y"', "[1,2", "99999999999999999999", '{"start": [1]}']
JUNK = "{}[]\\\"'0123456789 :.*-?!\x00\x1b\u202e\u00a0\u2028\ufeffxyz"


def record(game: str) -> str:
    return write_text(whole_game(engine.new_session(game, seed=11, players=players_for(game)), seed=11, limit=40))


def mutate(text: str, pick: random.Random) -> str:
    lines = text.split("\n")
    kind = pick.randrange(9)
    at = pick.randrange(len(lines))
    line = lines[at]
    col = pick.randrange(len(line) + 1)
    if kind == 0:  # one character deleted
        lines[at] = line[:col] + line[col + 1:]
    elif kind == 1:  # one character inserted
        lines[at] = line[:col] + pick.choice(JUNK) + line[col:]
    elif kind == 2:  # a digit changed
        digits = [i for i, ch in enumerate(line) if ch.isdigit()]
        if digits:
            i = pick.choice(digits)
            lines[at] = line[:i] + str((int(line[i]) + pick.randrange(1, 10)) % 10) + line[i + 1:]
    elif kind == 3:  # a line dropped
        del lines[at]
    elif kind == 4:  # a line repeated
        lines.insert(at, line)
    elif kind == 5:  # two lines swapped
        other = pick.randrange(len(lines))
        lines[at], lines[other] = lines[other], line
    elif kind == 6:  # cut off
        return text[: pick.randrange(len(text))]
    elif kind == 7:  # a word replaced
        words = line.split(" ")
        words[pick.randrange(len(words))] = pick.choice(["sideways", "999999", "-1", "null", "[]", "{}", "\"x\""])
        lines[at] = " ".join(words)
    else:  # a tag's value replaced by another JSON value
        tags = [i for i, l in enumerate(lines) if l.startswith("[")] or [0]
        i = pick.choice(tags)
        key = lines[i][1:].split(" ")[0]
        value = pick.choice(TAG_VALUES)
        lines[i] = f"[{key} {value}]"
    return "\n".join(lines)


def read_once(data: bytes, tmp_path: Path) -> None:
    """Read `data` as a file: a session, or one line of ReplayError; never a hang (a read takes
    milliseconds; the guard is a hang's, as long as tests/apphelpers.py's `until` gives up after, not a
    measure of speed: that is bench.py's `text` row)."""
    path = tmp_path / "fuzz.dht"
    path.write_bytes(data)
    began = time.perf_counter()
    try:
        read_record(path)
    except replays.ReplayError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 400, message
        assert all(ch.isprintable() for ch in message), message
    took = time.perf_counter() - began
    assert took < 60.0, f"a hang: {took:.2f} s for {data[:80]!r}"


@pytest.mark.parametrize("game", EVERY_GAME)
def test_fuzz_random_edits_are_each_one_line_within_a_second(game, tmp_path):
    text = record(game)
    pick = random.Random(game)
    for _ in range(60):
        edited = text
        for _ in range(pick.randrange(1, 4)):
            edited = mutate(edited, pick)
        read_once(edited.encode("utf-8", "surrogatepass"), tmp_path)


HOSTILE = {
    "a huge line": lambda text: text.replace("[Rules 1]", "[Rules 1]\n" + "x" * (MAX_LINE * 50)),
    "a huge comment": lambda text: text.replace("[Rules 1]", "[Rules 1]\n{" + "x" * (MAX_LINE + 1) + "}"),
    "deep braces": lambda text: text.replace("[Rules 1]", "[Rules 1]\n" + "{" * 8000),
    "deep closing braces": lambda text: "}" * 8000 + text,
    "deep brackets in a tag": lambda text: text.replace("[Rules 1]", "[Rules " + "[" * 4000 + "1" + "]" * 4000 + "]"),
    "deep braces in a tag": lambda text: text.replace("[Rules 1]", "[Rules " + '{"a":' * 3000 + "1" + "}" * 3000 + "]"),
    "brackets in a string": lambda text: text.replace('[Name "', '[Name "[[[[[[[[[[ '),
    "many lines": lambda text: text + "\n" * 700_000,
    "many tags": lambda text: text.replace("[Rules 1]", "[Rules 1]\n" + "[Extra 1]\n" * 100),
    "an escape code": lambda text: text.replace("[Name \"", "[Name \"\x1b]0;pwned\x07"),
    "a bidi override": lambda text: text.replace("1. ", "1. \u202e", 1),
    "a stray backslash": lambda text: text.replace("1. ", "1. \\", 1),
    "huge numbers": lambda text: text.replace("[Seed 11]", "[Seed " + "9" * 5000 + "]"),
    "a newer rules version": lambda text: text.replace("[Rules 1]", "[Rules 99]"),
    "no game": lambda text: text.replace("[Game \"", "[Game \"nothing"),
    "the digest line gone": lambda text: text.rsplit("digest", 1)[0],
    "text after the digest": lambda text: text + "1. Ada: roll\n",
    "comments after the digest": lambda text: text + "{fine}\n",
}


@pytest.mark.parametrize("what", list(HOSTILE))
def test_hostile_texts_are_each_one_line_within_a_second(what, tmp_path):
    for game in EVERY_GAME:
        read_once(HOSTILE[what](record(game)).encode("utf-8"), tmp_path)


@pytest.mark.parametrize("junk", [
    b"[" + bytes(range(256)) * 40,  # binary junk behind a tag's bracket
    b"[Game \"dicetower\"]\n" + random.Random(3).randbytes(50_000),
    b"\xff\xfe[\x00G\x00",  # UTF-16
    b"[" * 3_000_000,
    b"",
    b"   \n\n",
])
def test_binary_junk_is_one_line_within_a_second(junk, tmp_path):
    read_once(junk, tmp_path)


def test_a_file_past_the_size_cap_is_refused_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "big.dht"
    with open(path, "wb") as handle:
        handle.write(b"[Game \"dicetower\"]\n")
        handle.truncate(17 * 1024 * 1024)
    assert main(["verify", str(path)]) == 1
    assert "too large for a record" in capsys.readouterr().err


def test_markup_in_names_and_comments_is_kept_as_text(tmp_path):
    from types import MappingProxyType

    from dicehall.engine.core import Player

    session = engine.new_session("wager", seed=2, players=[Player("[bold]Ann[/bold]"), Player("[@click=app.quit]B")])
    whole_game(session, limit=6)
    session.labels.comments = MappingProxyType({1: "[red]boo[/red] {not a comment} \\ back"})
    text = write_text(session)
    read = read_text(text, "x")
    assert [p.name for p in read.players] == ["[bold]Ann[/bold]", "[@click=app.quit]B"]
    assert read.labels.comments[1] == "[red]boo[/red] {not a comment} \\ back"
    assert write_text(read) == text


def test_an_undos_claim_beyond_any_game_is_refused_not_printed_whole(tmp_path, capsys):
    """A claim is shown as it is: 400 digits of undos are not a count any game had."""
    text = record("wager")
    assert "[Undos 0]" in text
    path = tmp_path / "undos.dht"
    path.write_text(text.replace("[Undos 0]", "[Undos 1" + "0" * 400 + "]"))
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "the Undos tag is not a count" in err and "0" * 40 not in err


@pytest.mark.parametrize("seed", [1 << 64, -(1 << 63) - 1, 10 ** 4000])
def test_a_seed_no_save_can_hold_is_the_tags_one_line_not_a_crash_when_branched(seed, tmp_path, capsys):
    """A record of a genuine game under a seed beyond 64 bits verified, then "continue from here" in
    the viewer crashed writing the branch's save (msgpack); a Towers record (no dice) took any seed
    and verify printed all its digits."""
    game = "towers"
    text = record(game)
    start = text.index("[Seed ")
    path = tmp_path / "seed.dht"
    path.write_text(text[:start] + f"[Seed {seed}]" + text[text.index("]", start) + 1:])
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "the Seed tag is not a seed a save can hold" in err and "0" * 40 not in err


def test_a_line_cut_at_its_braces_reads_as_the_character_reader_reads_it():
    """split_comments cuts a line without a backslash at its braces by str.find; the reader a
    character at a time (which lines with escapes still take) is the reference: the same text,
    comments and columns, or the same refusal at the same column, for 30,000 random lines of braces."""
    from dicehall.replays.text_lines import TextRecordError, _split_escaped, split_comments

    def read(reader, line):
        try:
            text, comments, columns = reader(line, 7)
            return text, comments, list(columns)
        except TextRecordError as error:
            return str(error)

    pick = random.Random(5)
    refusals = 0
    for _ in range(30_000):
        line = "".join(pick.choice("ab {}") for _ in range(pick.randrange(14)))
        fast = read(split_comments, line)
        assert fast == read(_split_escaped, line), line
        refusals += isinstance(fast, str)
    assert 5_000 < refusals < 25_000  # both kinds of line were drawn


def test_a_hundred_thousand_comment_lines_are_read_as_the_last_events_comments(tmp_path):
    """Comment lines after a whole game, cut at their braces: each is the last event's comment."""
    text = record("dicetower")
    path = tmp_path / "comments.dht"
    path.write_text(text + "{abc} {de}{}\n" * 100_000)
    session = read_record(path)
    kept = session.labels.comments[len(session.events)]
    assert kept.startswith("abc") and kept.count("abc") > 1 and "{" not in kept
    path.write_text(text + "{abc} {de}f{}\n")
    with pytest.raises(replays.ReplayError, match=r"^line \d+, col 11: text after the digest line"):
        read_record(path)


def test_comment_lines_cost_their_bytes_not_a_list_of_lines(tmp_path):
    """300,000 comment lines on the last event (8 MB): each line is cut from the text as it is read and
    a place's own comments are kept only as far as a comment is read (four times its limit), so the
    reader holds little more than the text (a list of the lines and of the comments: 95 MB)."""
    from tests.test_hall_files import peak_mb

    path = tmp_path / "comments.dht"
    path.write_text(record("dicetower") + "{abcdefghijklmnopqrstuvw}\n" * 300_000)
    peak, code, out = peak_mb(["verify", str(path)])
    assert code == 0 and "(1 comment here)" in out, out
    assert peak < 60, f"verify peaked at {peak} MiB"
