"""`dicehall summary SAVE_OR_FILE`: a game's summary, as roguelikes' morgue files (the result, the
deal, undos and assists, comments; with --analyse its turning points, with --hindsight the troll's
verdict), read from a replay file, a save or a finished hall game."""
from __future__ import annotations

import argparse
import sys

from dicehall.cli.args import Parser, UsageError, budget, fail, positive
from dicehall.cli.files import needs_a_file
from dicehall.cli.hall import hall_game_named
from dicehall.engine.text import clean_text

NO_SOLVER = 2  # the exit code for --hindsight on a game without a hindsight solver (as `analyse`)


def summary_arguments(parser: Parser) -> None:
    parser.add_argument("file", metavar="SAVE_OR_FILE")
    parser.add_argument("--analyse", action="store_true",
                        help="judge the game first: the costliest decision, the luckiest and unluckiest rolls")
    parser.add_argument("--samples", type=positive, help="with --analyse: sampled deals or futures per decision")
    parser.add_argument("--hindsight", action="store_true",
                        help="the troll: was this deal winnable? (the solver looks at the hidden cards)")
    parser.add_argument("--budget", type=budget, metavar="SECONDS", help="with --hindsight: the solver's budget")


def read_game(name: str):
    """The session of a replay file, a finished hall game or a save (by name or id), in that order,
    as `analyse` reads them; a refusal raises its own one-line error (ReplayError, HallError, SaveError)."""
    from dicehall.saves.player_files import names_record, record_file

    if names_record(name):  # on a box: a file of the player's replays folder, by its name
        from dicehall.replays.text import read_record  # a FIFO or a link: the reader says why not

        return read_record(record_file(name))  # a .dhr or a .dht
    if hall_game_named(name, file_first=True, save_first=True):
        from dicehall.saves.hall import Hall

        return Hall().finished_session(name)
    from dicehall import saves

    return saves.load_readonly(name)


def summary_command(args: argparse.Namespace) -> int:
    from dicehall import replays
    from dicehall.engine import analysis
    from dicehall.engine.analysis.summary import game_summary
    from dicehall.engine.games import entry_of

    needs_a_file("summary", args.file)
    if args.samples is not None and not args.analyse:
        raise UsageError("--samples goes with --analyse")
    if args.budget is not None and not args.hindsight:
        raise UsageError("--budget goes with --hindsight")
    try:
        session = read_game(args.file)
    except replays.ReplayError as error:
        return fail(f"{clean_text(args.file, 200)}: {error}")
    solver = entry_of(session.game.ID).solver
    if args.hindsight and not solver:
        print(f"dicehall: {session.game.TITLE} has no hindsight solver (only the troll has one)", file=sys.stderr)
        return NO_SOLVER
    result = analysis.analyse(session, samples=args.samples) if args.analyse else None  # NoAnalyser: one line
    solution = None
    if args.hindsight:
        from importlib import import_module

        module = import_module(solver)  # the one the catalogue names
        solution = module.solve(session, budget=module.DEFAULT_BUDGET if args.budget is None else args.budget)
    print(game_summary(session, result, solution))
    return 0
