"""The `dicehall` command: a table of subcommands, each declared once (its help and its arguments,
from which argparse makes `dicehall --help` and `dicehall COMMAND --help`) and run by one function.
The commands that never open a screen (verify, analyse, sim, saves, stats, export, rules, recover, hall,
ratings, host, join, watch off a terminal) never import Textual; the others import `tui` when they run."""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Callable

import dicehall.cli.terminal as terminal
from dicehall.cli.analyse import DESCRIPTION as ANALYSE_DESCRIPTION, NO_ANALYSER, analyse_arguments, analyse_command
from dicehall.cli.archive import archive_arguments, archive_command
from dicehall.cli.args import Parser, UsageError, fail, refusal
from dicehall.cli.files import (export_arguments, export_command, file_argument, recover_command, save_argument,
                                saves_command, verify_command)
from dicehall.cli.games import rules_arguments, rules_command, sim_arguments, sim_command
from dicehall.cli.hall import (barred_at_door, hall_arguments, hall_command, host_arguments, host_command,
                               join_arguments, join_command, watch_arguments, watch_command)
from dicehall.cli.screens import (continue_arguments, continue_command, launcher_command, play_arguments, play_command,
                                  practice_command, replay_command)
from dicehall.cli.ratings import ratings_arguments, ratings_command
from dicehall.cli.serve import serve_arguments, serve_command
from dicehall.cli.summary import summary_arguments, summary_command
from dicehall.cli.stats import stats_arguments, stats_command
from dicehall.engine.errors import DicehallError, RulingError

__all__ = ["COMMANDS", "NO_ANALYSER", "UsageError", "build_parser", "main"]


def no_arguments(parser: Parser) -> None:
    pass


@dataclass(frozen=True)
class Command:
    name: str
    help: str  # its line in `dicehall --help`
    arguments: Callable[[Parser], None]
    run: Callable[[argparse.Namespace], int]
    description: str | None = None  # the paragraph of `dicehall NAME --help`; the help when None
    hall_after: bool = False  # `dicehall NAME --hall DIR` works too (not in its help)


COMMANDS = (
    Command("play", "start a new game", play_arguments, play_command),
    Command("continue", "resume a save (the latest unfinished one by default)", continue_arguments, continue_command),
    Command("saves", "list saves: last played, game, name, progress, id", no_arguments, saves_command),
    Command("export", "write a save as a shareable replay (.dhr)", export_arguments, export_command, hall_after=True),
    Command("replay", "step through a replay", file_argument, replay_command, hall_after=True),
    Command("verify", "check a replay against its seed and rules", file_argument, verify_command, hall_after=True),
    Command("analyse", "judge every decision and the luck of every roll (--hindsight: was the troll's deal winnable?)",
            analyse_arguments, analyse_command, ANALYSE_DESCRIPTION, hall_after=True),
    Command("practice", "replay the marked decisions of your analysed saves, the answer hidden, until you find the best",
            no_arguments, practice_command),
    Command("summary", "a game's summary, as a morgue file: result, deal, undos, assists; --analyse: its turning points",
            summary_arguments, summary_command, hall_after=True),
    Command("stats", "statistics of the saves: played, won, streaks, best results, per game and player (--json)",
            stats_arguments, stats_command),
    Command("sim", "sample whole games through the engine, with bots", sim_arguments, sim_command),
    Command("rules", "print a game's rules", rules_arguments, rules_command),
    Command("recover", "copy the good part of a damaged save into a new save", save_argument, recover_command),
    Command("hall", "list the hall's games: seats, moves, watchers", hall_arguments, hall_command, hall_after=True),
    Command("archive", "the hall's finished games by player, game, day and result (--json)", archive_arguments,
            archive_command, hall_after=True),
    Command("host", "open a game in the hall and take a seat", host_arguments, host_command, hall_after=True),
    Command("join", "take an open seat (or your own again) in a hall game", join_arguments, join_command,
            hall_after=True),
    Command("watch", "a hall game, read only: the live viewer on a terminal, else its moves as lines", watch_arguments,
            watch_command, hall_after=True),
    Command("ratings", "the hall's ratings per game and player (openskill); --rebuild: from the verified logs",
            ratings_arguments, ratings_command, hall_after=True),
    Command("serve", "run dicehall for a web browser (textual-serve; no authentication: reach it by ssh -L)",
            serve_arguments, serve_command, hall_after=True),
)
BY_NAME = {command.name: command for command in COMMANDS}

DESCRIPTION = "A terminal game parlor. Without a command: the launcher."
EPILOG = ("dicehall COMMAND --help tells a command's arguments. --hall DIR (before or after the command) uses the hall "
          "in DIR (default: $DICEHALL_HALL, /var/games/dicehall, DATA/hall). games: {games}")


def build_parser() -> Parser:
    from dicehall.engine import VERSION
    from dicehall.engine.games import CATALOGUE  # names the games without importing their rules

    parser = Parser(prog="dicehall", description=DESCRIPTION,
                    epilog=EPILOG.format(games=", ".join(entry.id for entry in CATALOGUE)))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    parser.commands = sub.choices  # type: ignore[attr-defined]  # each command's parser, for its usage line
    parser.add_argument("--version", action="version", version=f"dicehall {VERSION}")
    parser.add_argument("--hall", metavar="DIR", help="the hall folder shared by the players on this box")
    parser.add_argument("--player", metavar="NAME", dest="box_player",
                        help="on a shared box, the player the admin's key line names (their saves, their seat)")
    for command in COMMANDS:
        child = sub.add_parser(command.name, help=command.help, description=command.description or command.help)
        command.arguments(child)
        if command.hall_after:  # --hall DIR after the command works too
            child.add_argument("--hall", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:  # here, not at exit, so a reader that has gone is noticed while it can be caught (--help too)
            sys.stdout.flush()
    except BrokenPipeError:  # `dicehall hall | head -1`: the reader has all it wanted
        terminal.drop_stdout()
        return 0


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # --help and --version print here: a closed pipe is caught in main
    if args.box_player is not None:
        from dicehall.saves.box import NotAPlayerName, set_box_player

        try:
            set_box_player(args.box_player)  # the app, and anything it starts, plays as this player
        except NotAPlayerName as error:
            parser.error(f"--player: {error}")  # dicehall's own usage: --player is dicehall's option
    try:
        return _dispatch(args)
    except UsageError as error:  # the usage of the command, then one line; exit 2, as argparse does
        parser.commands.get(args.command, parser).error(str(error))  # type: ignore[attr-defined]
        return 2
    except RulingError as error:  # a bad ruling's value or key: one line naming it and its values, exit 2, no usage
        return fail(refusal(error), 2)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise  # main's: standard output is gone
    except (ValueError, OSError) as error:  # SaveError, ReplayError and option errors are one-liners
        return fail(refusal(error))
    except DicehallError as error:  # the rest of what dicehall refuses (SaveError, HallError): one line too
        return fail(refusal(error))


def _dispatch(args: argparse.Namespace) -> int:
    import os

    from dicehall.cli.box import ORIGINAL_COMMAND

    if args.command is None and ORIGINAL_COMMAND in os.environ:  # under an admin's forced command over ssh
        from dicehall.cli.box import run_typed

        return run_typed(args, os.environ[ORIGINAL_COMMAND], build_parser, _run)  # what the player typed, if the box allows it
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "hall", None):
        import os

        os.environ["DICEHALL_HALL"] = args.hall  # the app, and anything it starts, uses the same hall
    barred = barred_at_door()
    if barred:
        return fail(barred)
    if args.command is None:
        return launcher_command(args)
    return BY_NAME[args.command].run(args)
