"""What the terminal says it can do: colour, and lines drawn with box-drawing characters.

Textual paints in colour and with box-drawing characters whatever TERM says; a vt100 (or a serial
console, or `TERM=dumb`) then shows escape codes and wrong characters. The terminfo entry says how
many colours a terminal has: one without colours predates Unicode too, so it also gets plain ASCII
lines (+ - |). `NO_COLOR` (https://no-color.org) takes the colour away and leaves the lines. A TERM
with no terminfo entry here tells nothing, so Textual's defaults stand. Imports no Textual.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

PLAIN_TERMS = ("dumb", "unknown")  # names that mean "nothing but text", terminfo or not


@dataclass(frozen=True)
class Terminal:
    colour: bool = True
    box_lines: bool = True  # False: borders and rules in plain ASCII

    def describe(self) -> str:
        return ("colour" if self.colour else "no colour") + ", " + ("box-drawing lines" if self.box_lines else "ASCII lines")


FULL = Terminal()
PLAIN = Terminal(colour=False, box_lines=False)


def terminfo_colours(term: str) -> int | None:
    """The terminfo `colors` of `term` (-1 when it has none), or None when there is no entry.

    curses.setupterm reads terminfo without starting curses; it reads it once per process (later
    calls are ignored), which is fine for the one TERM a process runs under."""
    try:
        import curses
    except ImportError:  # a Python built without curses: no way to know
        return None
    fd = os.open(os.devnull, os.O_WRONLY)
    try:
        curses.setupterm(term, fd)
        return curses.tigetnum("colors")
    except curses.error:
        return None
    finally:
        os.close(fd)


def choose_terminal(term: str | None, colours: int | None, no_color: bool) -> Terminal:
    """The choice itself, from TERM, its terminfo colours (None: no entry) and whether NO_COLOR is set."""
    term = (term or "").strip().lower()
    if term in PLAIN_TERMS or (colours is not None and colours < 8):
        return PLAIN
    return Terminal(colour=not no_color, box_lines=True)


def detect_terminal(environ: Mapping[str, str] | None = None) -> Terminal:
    """The terminal this process runs in, from its environment."""
    environ = os.environ if environ is None else environ
    term = environ.get("TERM", "")
    colours = terminfo_colours(term) if term and term.lower() not in PLAIN_TERMS else None
    return choose_terminal(term, colours, "NO_COLOR" in environ)
