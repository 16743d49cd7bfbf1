"""`dicehall stats [GAME] [--player NAME] [--json]`: the statistics of the saves (saves/stats.py),
per game and variant, per player, the bots' games apart, the daily deals by date and the damaged
saves that were not counted."""
from __future__ import annotations

import argparse
import sys

from dicehall.cli.args import Parser, UsageError
from dicehall.engine.text import clean_text


def stats_arguments(parser: Parser) -> None:
    parser.add_argument("game", nargs="?", help="one game's statistics (its id: dicehall rules lists them)")
    parser.add_argument("--player", metavar="NAME", help="only the games NAME played, and NAME's figures")
    parser.add_argument("--json", action="store_true", help="every figure as JSON")


def stats_command(args: argparse.Namespace) -> int:
    from dicehall.engine.games import CATALOGUE

    if args.game is not None and args.game not in {entry.id for entry in CATALOGUE}:
        raise UsageError(f"no game {clean_text(args.game, 30)!r} (games: {', '.join(e.id for e in CATALOGUE)})")
    if args.player is not None and not args.player.strip():
        raise UsageError("--player needs a name")
    from dicehall import saves
    from dicehall.saves.stats import collect, stats_lines

    stats = collect(args.game, args.player, warn=lambda line: print(f"dicehall: {line}", file=sys.stderr))
    if args.json:
        import json

        print(json.dumps(stats.as_dict(), indent=1, ensure_ascii=True))
        return 0
    for line in stats_lines(stats, clean_text(str(saves.saves_dir()), 200), args.player):
        print(line)
    return 0
