"""What the command line's arguments are: the argument types argparse checks, the usage error a
command raises for an argument it cannot use, and the one-line refusal."""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text  # text from files and arguments is data: no escape sequence reaches the terminal


NO_ANALYSER = 2  # the exit code of `analyse` for a game that has no analysis yet


class Parser(argparse.ArgumentParser):
    late_epilog: Callable[[], str] | None = None  # a function making the epilog when help is asked for (so the parser is quick to build)
    # a command's parser: a function adding its arguments, called when it is first used (a run parses
    # one command: the others' arguments, and the modules that declare them, are never needed)
    late_arguments: Callable[[Parser], None] | None = None

    def _add_late_arguments(self) -> None:
        if self.late_arguments is not None:
            add, self.late_arguments = self.late_arguments, None
            add(self)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]  # argparse's, one form
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._add_late_arguments()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._add_late_arguments()
        return super().format_usage()

    def format_help(self) -> str:
        self._add_late_arguments()
        if self.late_epilog is not None:
            self.epilog = self.late_epilog()
        return super().format_help()

    def error(self, message: str) -> NoReturn:  # one line and the usage, never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"dicehall: {clean_text(message, 400)}\n")  # argparse quotes unknown arguments raw


class UsageError(DicehallError, ValueError):
    """An argument the parser accepted but the command cannot use: reported like argparse's own errors."""


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


MAX_GAMES = 1_000_000  # a sim's --games: minutes for the Dice Tower, longer for the bots' games (progress is shown)


def games(text: str) -> int:
    value = positive(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_GAMES:,}")
    return value


def budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError("must be from 0.1 to 3600 seconds")
    return value


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("must be from 0 to 2**63-1")
    return value


def rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("must be from 0 to 1")
    return value


def option(text: str) -> tuple[str, object]:
    """KEY=VALUE: whole numbers, true/false, comma-separated lists, or a word."""
    key, sep, value = text.partition("=")
    if not sep or not key or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    def one(item: str) -> object:
        if re.fullmatch(r"-?[0-9]{1,30}", item):  # ASCII digits only: "¹".isdigit() is true but int() refuses it
            return int(item)
        if re.fullmatch(r"-?[0-9]+", item):
            raise argparse.ArgumentTypeError(f"{key}: the number {item[:12]}... is too long")
        return {"true": True, "false": False}.get(item.lower(), item)
    return key, [one(v) for v in value.split(",")] if "," in value else one(value)


def port(text: str) -> int:
    value = positive(text)
    if value > 65535:
        raise argparse.ArgumentTypeError("must be a port number, 1 to 65535")
    return value


def hall_seat(text: str) -> tuple[int, str]:
    """N=open, N=bot or N=bot:STYLE (seats from 1)."""
    number, sep, kind = text.partition("=")
    if not sep or not re.fullmatch(r"[1-9]", number) or not re.fullmatch(r"open|bot(:[a-z]{1,20})?", kind):
        raise argparse.ArgumentTypeError(f"{text!r} is not N=open, N=bot or N=bot:STYLE")
    return int(number) - 1, kind


def game(name: str):
    """The engine module of the game NAME; an unknown or unplayable game is an argument error."""
    from dicehall import engine

    try:
        return engine.get_game(name)
    except ValueError as error:
        raise UsageError(str(error)) from None


def fail(message: str, code: int = 1) -> int:
    print(f"dicehall: {clean_text(message, 400)}", file=sys.stderr)
    return code


def refusal(error: BaseException) -> str:
    """A refusal's one line: dicehall's own words, or a system error without its errno or whole path."""
    from dicehall.saves import error_line

    return error_line(error)
