"""The `dicehall` command: a table of subcommands, each declared once (its help and its arguments,
from which argparse makes `dicehall --help` and `dicehall COMMAND --help`) and run by one function.
The commands that never open a screen (verify, analyse, sim, saves, stats, export, rules, recover, hall,
ratings, host, join, watch off a terminal) never import Textual; the others import `tui` when they run.
A command's module (dicehall/cli/NAME.py) is imported only when that command is parsed or run, so
`dicehall sim journal` starts without the others' imports (docs/performance.md)."""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from typing import Any, Callable

import dicehall.cli.terminal as terminal
from dicehall.cli.args import NO_ANALYSER, LateParser, Parser, UsageError, fail, refusal
from dicehall.engine.errors import DicehallError, RulingError

__all__ = ["COMMANDS", "NO_ANALYSER", "UsageError", "build_parser", "main"]


def later(name: str) -> Callable[..., Any]:
    """dicehall.cli's MODULE.FUNCTION (`name`), imported when it is first called."""
    module, _, function = name.rpartition(".")

    def call(*args: Any) -> Any:
        return getattr(import_module(f"dicehall.cli.{module}"), function)(*args)
    return call


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


# the paragraph of `dicehall analyse --help` (here: the parser is built without importing a command's module)
ANALYSE_DESCRIPTION = (
    "Judge every decision of a person and the luck of every roll. Marks by the drop in win chance: "
    "?! inaccuracy 5 points, ? mistake 10, ?? blunder 15 (the troll: of equity, half the win chance and half the share "
    "of the deck played before the end, beyond two standard errors of the paired difference; "
    "Towers: by margin lost, 1, 2 and 4 points; "
    "in every game by the loss alone; the troll and War of Bones say in words beside it when a move ends the "
    "game at once).")

COMMANDS = (
    Command("play", "start a new game", later("screens.play_arguments"), later("screens.play_command")),
    Command("continue", "resume a save (the latest unfinished one by default)", later("screens.continue_arguments"),
            later("screens.continue_command")),
    Command("saves", "list saves: last played, game, name, progress, id", no_arguments, later("files.saves_command")),
    Command("export", "write a save as a shareable replay (.dhr)", later("files.export_arguments"),
            later("files.export_command"), hall_after=True),
    Command("replay", "step through a replay", later("files.file_argument"), later("screens.replay_command"),
            hall_after=True),
    Command("verify", "check a replay against its seed and rules", later("files.file_argument"),
            later("files.verify_command"), hall_after=True),
    Command("analyse", "judge every decision and the luck of every roll (--hindsight: was the troll's deal winnable?)",
            later("analyse.analyse_arguments"), later("analyse.analyse_command"), ANALYSE_DESCRIPTION, hall_after=True),
    Command("practice", "replay the marked decisions of your analysed saves, the answer hidden, until you find the best",
            no_arguments, later("screens.practice_command")),
    Command("summary", "a game's summary, as a morgue file: result, deal, undos, assists; --analyse: its turning points",
            later("summary.summary_arguments"), later("summary.summary_command"), hall_after=True),
    Command("stats", "statistics of the saves: played, won, streaks, best results, per game and player (--json)",
            later("stats.stats_arguments"), later("stats.stats_command")),
    Command("sim", "sample whole games through the engine, with bots", later("games.sim_arguments"),
            later("games.sim_command")),
    Command("rules", "print a game's rules", later("games.rules_arguments"), later("games.rules_command")),
    Command("recover", "copy the good part of a damaged save into a new save", later("files.save_argument"),
            later("files.recover_command")),
    Command("hall", "list the hall's games: seats, moves, watchers", later("hall.hall_arguments"),
            later("hall.hall_command"), hall_after=True),
    Command("archive", "the hall's finished games by player, game, day and result (--json)",
            later("archive.archive_arguments"), later("archive.archive_command"), hall_after=True),
    Command("host", "open a game in the hall and take a seat", later("hall.host_arguments"),
            later("hall.host_command"), hall_after=True),
    Command("join", "take an open seat (or your own again) in a hall game", later("hall.join_arguments"),
            later("hall.join_command"), hall_after=True),
    Command("watch", "a hall game, read only: the live viewer on a terminal, else its moves as lines",
            later("hall.watch_arguments"), later("hall.watch_command"), hall_after=True),
    Command("ratings", "the hall's ratings per game and player (openskill); --rebuild: from the verified logs",
            later("ratings.ratings_arguments"), later("ratings.ratings_command"), hall_after=True),
    Command("serve", "run dicehall for a web browser (textual-serve; no authentication: reach it by ssh -L)",
            later("serve.serve_arguments"), later("serve.serve_command"), hall_after=True),
)
launcher_command = later("screens.launcher_command")  # no command: the launcher
BY_NAME = {command.name: command for command in COMMANDS}

DESCRIPTION = "A terminal game parlor. Without a command: the launcher."
EPILOG = ("dicehall COMMAND --help tells a command's arguments. --hall DIR (before or after the command) uses the hall "
          "in DIR (default: $DICEHALL_HALL, /var/games/dicehall, DATA/hall). games: {games}")


def build_parser() -> Parser:
    from dicehall.engine import VERSION
    from dicehall.engine.games import CATALOGUE  # names the games without importing their rules

    parser = Parser(prog="dicehall", description=DESCRIPTION,
                    epilog=EPILOG.format(games=", ".join(entry.id for entry in CATALOGUE)))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=LateParser)  # type: ignore[type-var]
    parser.commands = sub.choices  # type: ignore[attr-defined]  # each command's parser, for its usage line
    parser.add_argument("--version", action="version", version=f"dicehall {VERSION}")
    parser.add_argument("--hall", metavar="DIR", help="the hall folder shared by the players on this box")
    parser.add_argument("--player", metavar="NAME", dest="box_player",
                        help="on a shared box, the player the admin's key line names (their saves, their seat)")
    for command in COMMANDS:
        sub.add_parser(command.name, help=command.help, description=command.description or command.help,
                       arguments=partial(command_arguments, command))  # the parser made when the command is used
    return parser


def command_arguments(command: Command, parser: Parser) -> None:
    command.arguments(parser)
    if command.hall_after:  # --hall DIR after the command works too
        parser.add_argument("--hall", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


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
    from dicehall.cli.box import barred_at_door

    barred = barred_at_door()
    if barred:
        return fail(barred)
    if args.command is None:
        return launcher_command(args)
    return BY_NAME[args.command].run(args)
