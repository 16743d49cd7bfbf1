"""The lines of a text record (.dht): its caps, its tag lines, `{comments}` and the escapes that keep
a player's name or comment from being read as a comment's end. Writer and reader both use these, so
what one writes the other reads back character for character.

Every value of a tag is JSON (`[Seed 7]`, `[Game "troll"]`, `[Options {"start": 100}]`); a line of
the record holds printable characters only, and is at most MAX_LINE characters long.
"""
from __future__ import annotations

import json
from typing import Any, Sequence

from dicehall.replays import ReplayError

SUFFIX = ".dht"
MAX_BYTES = 16 * 1024 * 1024  # as a binary replay's cap
MAX_LINE = 8192  # a comment of 2,000 characters, escaped, fits with room
MAX_LINES = 600_000  # an event a line for the longest replay (200,000 events), its comments and tags
MAX_TAGS = 64
MAX_COMMENT = 2000  # as the saves' comment records cap them
MAX_TAG_NESTING = 5  # the journal's deck in its Options: {deck: {cards: [[card, ...]]}}
MAX_TAG_LINE = 256 * 1024  # a tag line: the journal's whole deck (40,000 bytes of text, escaped) is its Options
SETUP_LINE = "0. setup"  # the chance before the first decision (the troll's deal, War of Bones' landings)
TYPED = "typed"
ANALYSIS_NOTE = "analysis: "  # a comment the analysis wrote, not a player's: kept apart from session.labels.comments  # [Player1 ["Ada", "person"]], an option's list


class TextRecordError(ReplayError):
    """A line of a text record that cannot be read: `line` (from 1) and `col` (from 1, or 0) say where."""

    def __init__(self, message: str, line: int = 0, col: int = 0):
        where = f"line {line}, col {col}: " if line and col else f"line {line}: " if line else ""
        super().__init__(f"{where}{message}")
        self.line, self.col = line, col


def escape(text: str) -> str:
    r"""Text outside a comment, or inside one, with `\`, `{` and `}` escaped so none ends or starts one."""
    return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def comment(text: str) -> str:
    return "{" + escape(text) + "}"


def split_comments(line: str, number: int) -> tuple[str, list[str], Sequence[int]]:
    """The line's text without its `{comments}` (unescaped), the comments, and for each character of
    the text the column (from 1) it came from. An unclosed comment or a stray `}` is an error naming
    the column. A line without a backslash is cut at its braces by str.find (in C: 16 MiB of comment
    lines took 4 s a character at a time); one with a backslash is read a character at a time
    (_split_escaped), the same way."""
    if "\\" in line:
        return _split_escaped(line, number)
    if "{" not in line and "}" not in line:  # nearly every line of a record
        return line, [], range(1, len(line) + 1)
    texts: list[str] = []
    columns: list[int] = []
    comments: list[str] = []
    start = 0
    while True:
        opened, closed = line.find("{", start), line.find("}", start)
        if closed != -1 and (opened == -1 or closed < opened):
            raise TextRecordError("a } with no comment open (write \\})", number, closed + 1)
        if opened == -1:
            texts.append(line[start:])
            columns.extend(range(start + 1, len(line) + 1))
            return "".join(texts), comments, columns
        texts.append(line[start:opened])
        columns.extend(range(start + 1, opened + 1))
        inner, closed = line.find("{", opened + 1), line.find("}", opened + 1)
        if inner != -1 and (closed == -1 or inner < closed):
            raise TextRecordError("a { inside a comment (write \\{)", number, inner + 1)
        if closed == -1:
            raise TextRecordError("a comment is not closed (a { with no })", number, opened + 1)
        comments.append(line[opened + 1:closed])
        start = closed + 1


def _split_escaped(line: str, number: int) -> tuple[str, list[str], list[int]]:
    """split_comments a character at a time, for a line with escapes. One pass, no backtracking: a
    line of braces costs what its length does."""
    text: list[str] = []
    columns: list[int] = []
    comments: list[str] = []
    inside: list[str] | None = None
    opened = 0
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if ch == "\\":
            if i + 1 >= n or line[i + 1] not in "\\{}":
                raise TextRecordError("a backslash must be followed by \\, { or }", number, i + 1)
            target = inside if inside is not None else text
            target.append(line[i + 1])
            if inside is None:
                columns.append(i + 1)
            i += 2
            continue
        if ch == "{":
            if inside is not None:
                raise TextRecordError("a { inside a comment (write \\{)", number, i + 1)
            inside, opened = [], i + 1
        elif ch == "}":
            if inside is None:
                raise TextRecordError("a } with no comment open (write \\})", number, i + 1)
            comments.append("".join(inside))
            inside = None
        elif inside is not None:
            inside.append(ch)
        else:
            text.append(ch)
            columns.append(i + 1)
        i += 1
    if inside is not None:
        raise TextRecordError("a comment is not closed (a { with no })", number, opened)
    return "".join(text), comments, columns


def tag_line(key: str, value: Any) -> str:
    return f"[{key} {json.dumps(value, ensure_ascii=False)}]"


def parse_tag(text: str, number: int) -> tuple[str, Any, str]:
    """A tag line's key, its JSON value, and the value as written. The key is letters and digits;
    the value is parsed by json (never evaluated), nested at most MAX_TAG_NESTING deep."""
    if not text.endswith("]") or " " not in text:
        raise TextRecordError("a tag line is [Key value]", number, 1)
    key, _, raw = text[1:-1].partition(" ")
    if not key or len(key) > 32 or not key.isascii() or not key.isalnum() or not key[0].isalpha():
        raise TextRecordError("the tag's name is not letters and digits", number, 2)
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:  # counted before json reads it: json itself recurses
        if in_string:
            in_string = escaped or ch != '"'
            escaped = not escaped and ch == "\\"
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_TAG_NESTING:
        raise TextRecordError(f"the {key} tag nests more than {MAX_TAG_NESTING} levels", number, len(key) + 3)
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as error:
        reason = str(error).split(":")[0][:60]
        raise TextRecordError(f"the {key} tag's value is not readable ({reason})", number, len(key) + 3) from None
    return key, value, raw
