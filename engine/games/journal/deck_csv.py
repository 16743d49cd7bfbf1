"""A CSV deck's rows as the csv module reads them (excel's dialect), each with the line it starts
on, refused in one line where a file is no deck: a row past MAX_ROWS, one of more than MAX_COLUMNS
fields, a field csv cannot read, and a quoted field still open at the end of the file (csv would
take the rest of the file into it: every row after its quote would be one card's prompt)."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from dicehall.engine.errors import DeckError
from dicehall.engine.text import clean_text

MAX_ROWS = 200  # rows read before a file is refused as no deck (52 cards and blank lines)
MAX_COLUMNS = 16  # fields of one CSV row before it is refused (a deck has 4)


def csv_rows(text: str, name: str) -> Iterator[tuple[int, list[str]]]:
    lines = list(io.StringIO(text, newline=""))  # the lines csv reads (its line_num counts them)
    reader = csv.reader(lines)
    start = count = last = 0
    while True:
        start, count = reader.line_num + 1, count + 1
        try:
            row = next(reader)
        except StopIteration:
            opened = open_quote(lines[last - 1:]) if last else None
            if opened is not None:
                raise DeckError(f"{name} line {last + opened}: a quoted field begins here and is never closed "
                                "(a closing \" is missing)") from None
            return
        except csv.Error as error:  # the row from its first line: a field of 128 KiB, a stray quote
            raise DeckError(f"{name} line {start}: not readable as CSV ({clean_text(str(error), 60)})") from None
        if count > MAX_ROWS + 1:
            raise DeckError(f"{name} line {start}: more rows than any deck has (at most {MAX_ROWS})")
        if len(row) > MAX_COLUMNS:
            raise DeckError(f"{name} line {start}: {len(row)} fields, a deck's rows have 4")
        last = start
        yield start, row


def open_quote(lines: list[str]) -> int | None:
    """Where a quoted field left open at the end of `lines` (a row's, from its start) begins: its line
    counted from 0; None when every quoted field closes. As csv reads them: a quote opens a field only
    at the field's start, two quotes in it are one, and its quote closes it."""
    opened: int | None = None  # the line of the quoted field being read
    field_start, closing = True, False  # closing: a quote in the field, which closes it unless another follows
    for number, line in enumerate(lines):
        for char in line:
            if opened is not None:
                if closing:
                    closing = False
                    if char == '"':
                        continue  # "" in a quoted field: one quote, still in it
                    opened = None  # closed: this character is after the field (csv keeps it, not strict)
                elif char == '"':
                    closing = True
                    continue
                else:
                    continue
            if char == '"' and field_start:
                opened, field_start = number, False
            else:
                field_start = char in ",\r\n"
    return None if closing else opened
