"""`dicehall analyse`: a game judged decision by decision, read from a replay file, a save or a
finished hall game, and its printer; with --hindsight, the troll's solver."""
from __future__ import annotations

import argparse
import sys

from dicehall.cli.args import NO_ANALYSER, Parser, UsageError, budget, fail, positive
from dicehall.cli.files import needs_a_file
from dicehall.engine.games import CATALOGUE, entry_of
from dicehall.engine.text import clean_text


def analyse_arguments(parser: Parser) -> None:
    parser.add_argument("file", metavar="FILE_OR_SAVE")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--samples", type=positive, help="sampled deals (the troll) or futures (War of Bones) per decision, the same figures every run")
    parser.add_argument("--budget", type=budget, metavar="SECONDS",
                        help="the troll, War of Bones: as many samples per decision as fit in about this many seconds, at a fixed rate; "
                             "with --hindsight, the solver's budget (default 10)")
    parser.add_argument("--hindsight", action="store_true",
                        help="the troll: was this deal winnable? a solver that looks at the real deck order and dice")


def analyse_command(args: argparse.Namespace) -> int:
    """Analyse a replay file, or a save by name or id: one line per decision (per roll for the Dice
    Tower) and a summary, or the whole analysis as JSON."""
    import json

    from dicehall.engine import analysis
    from dicehall.engine.analysis import report

    needs_a_file("analyse", args.file)
    if args.samples is not None and args.budget is not None:
        raise UsageError("--samples and --budget do not go together: --budget chooses the samples")
    if args.hindsight and args.samples is not None:
        raise UsageError("--hindsight does not take --samples: it searches, within --budget SECONDS")
    from dicehall import replays
    from dicehall.cli.summary import read_game

    try:
        session = read_game(args.file)  # HallError, SaveError: one line, from main
    except replays.ReplayError as error:
        return fail(f"{clean_text(args.file, 200)}: {error}")
    if args.hindsight:
        return hindsight(session, args)
    if not analysis.has_analyser(session.game.ID):
        print(f"dicehall: {session.game.TITLE} has no analysis yet (analysed: "
              f"{', '.join(sorted(analysis.ANALYSERS))})", file=sys.stderr)
        return NO_ANALYSER
    from dicehall.saves.analyses import analyse_stored

    def warn(line: str) -> None:  # a damaged stored analysis: one line, then it is analysed again
        print(f"dicehall: {line}", file=sys.stderr)

    result = analyse_stored(session, samples=args.samples, budget=args.budget, warn=warn)
    per_player = report.report(result, session)
    if args.json:
        document = analysis.as_json(result)
        document["report"] = report.as_json(per_player)
        print(json.dumps(document, indent=1))
        return 0
    many = len(session.players) > 1
    if result.figure == analysis.PULLS_LEFT:  # a countdown: its rolls and the pulls they leave
        for luck in result.chance:
            after = result.curve[luck.event].value
            print(f"event {luck.event:>4}: luck {luck.luck:+.2f} pulls, then {after:.2f} expected pulls left")
    for d in result.decisions:
        who = clean_text(session.labels.holder(session.players, d.seat, d.event - 1).name, 16) if many else ""  # a person before a handover
        mark = f"  {d.mark} {analysis.MARK_WORDS[d.mark]}" if d.mark else ""
        equity = (lambda e: f", equity {e:.1%}") if d.equity_best is not None else (lambda e: "")  # the troll's
        win = analysis.figure_of(result, d.seat, "win")  # Towers names the side: "Light's chance"
        facts = f" ({d.words})" if d.words else ""  # what the figures do not say: "ends the game at once"
        print(clean_text(f"event {d.event:>4}: {who + ' ' if who else ''}played {d.played}, {win} {d.chance_played:.1%}"
                         f"{equity(d.equity_played)}{facts}; best {d.best}, {win} {d.chance_best:.1%}"
                         f"{equity(d.equity_best)}{mark}", 400))
    for note in result.notes:
        print(clean_text(f"note: {note}", 400))
    print(clean_text(result.summary(), 600))
    for line in per_player.lines():  # a player's name is data: cleaned, as above
        print(clean_text(line, 400))
    print(clean_text(f"luck: {per_player.luck_against}", 400))
    return 0


def hindsight(session, args: argparse.Namespace) -> int:
    """The troll's hindsight solver: whether the deal was winnable, and the latest position the game
    could still be won from, with a line that wins, one command per line with its event number."""
    import json

    declared = entry_of(session.game.ID).solver  # the catalogue names each game's solver
    if not declared:
        solved = ", ".join(entry.title for entry in CATALOGUE if entry.solver)
        print(f"dicehall: {session.game.TITLE} has no hindsight solver (only {solved} has one)", file=sys.stderr)
        return NO_ANALYSER
    from importlib import import_module

    solver = import_module(declared)
    solution = solver.solve(session, budget=solver.DEFAULT_BUDGET if args.budget is None else args.budget)
    if args.json:
        print(json.dumps(solver.as_json(solution), indent=1))
        return 0
    for line in solution.text_lines():  # the engine's own words and numbers; cleaned anyway, keeping the columns
        print(line if line.isprintable() else clean_text(line, 600))
    return 0
