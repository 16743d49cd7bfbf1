"""What the command line's arguments are: the argument types argparse checks, the usage error a
command raises for an argument it cannot use, and the one-line refusal."""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text  # text from files and arguments is data: no escape sequence reaches the terminal


NO_ANALYSER = 2  # the exit code of `analyse` for a game that has no analysis yet


class Parser(argparse.ArgumentParser):
    late_epilog: Callable[[], str] | None = None  # a function making the epilog when help is asked for (so the parser is quick to build)

    def format_help(self) -> str:
        if self.late_epilog is not None:
            self.epilog = self.late_epilog()
        return super().format_help()

    def error(self, message: str) -> NoReturn:  # one line and the usage, never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"dicehall: {clean_text(message, 400)}\n")  # argparse quotes unknown arguments raw



class LateParser:
    """A command's parser as argparse's subcommands hold it (add_subparsers(parser_class=LateParser)):
    made, and its arguments added by `arguments`, when it is first used. A run parses one command, so
    the others' parsers, and the modules that declare their arguments, are never made."""

    def __init__(self, arguments: Callable[[Parser], None], **kwargs: Any):
        self._arguments, self._kwargs = arguments, kwargs
        self._parser: Parser | None = None

    def __getattr__(self, name: str) -> Any:  # parse_known_args, error, format_help...: the parser's own
        if self._parser is None:
            self._parser = Parser(**self._kwargs)
            self._arguments(self._parser)
        return getattr(self._parser, name)

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


def option(text: str) -> tuple[str, str]:
    """KEY=VALUE, the value as typed (empty too: the game says what it takes); game_options reads it
    once the game is known. No = or no key is a malformed argument (the usage and one line)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key, value


def option_value(text: str) -> object:
    """An option's value read: whole numbers, true/false, comma-separated lists, else the words as
    typed (a number of more than 30 digits among them: the game's check refuses it in its words)."""
    def one(item: str) -> object:
        if re.fullmatch(r"-?[0-9]{1,30}", item):  # ASCII digits only: "¹".isdigit() is true but int() refuses it
            return int(item)
        return {"true": True, "false": False}.get(item.lower(), item)
    return [one(v) for v in text.split(",")] if "," in text else one(text)


def game_options(game_id: str, pairs: list[tuple[str, object]]) -> dict:
    """The --option pairs as the game takes them: a text option of the game (the journal's title and
    deck: engine.games' text_options) as typed, any other read by option_value. A value already read
    (a deal code's options) is kept."""
    from dicehall.engine.games import entry_of

    text = entry_of(game_id).text_options
    return {key: option_value(value) if isinstance(value, str) and key not in text else value for key, value in pairs}


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
