"""`dicehall archive`: the hall's finished games, the latest first, one line each (its id, when it
ended, its result in words), filtered by player, game, days and result; `--json` as data. Each is
opened with `dicehall replay ID`, exported with `dicehall export ID` (`--text` for the .dht)."""
from __future__ import annotations

import argparse
import json

from dicehall.cli.args import Parser, UsageError, positive
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

DEFAULT_LIMIT = 100


def archive_arguments(parser: Parser) -> None:
    parser.add_argument("--player", metavar="NAME", help="the games NAME played (a seat's name, any case)")
    parser.add_argument("--game", metavar="GAME", help="the games of one game (towers, wager, ...)")
    parser.add_argument("--since", metavar="YYYY-MM-DD", help="the games that ended on that day or later")
    parser.add_argument("--until", metavar="YYYY-MM-DD", help="the games that ended on that day or earlier")
    parser.add_argument("--result", choices=("won", "lost", "drawn", "abandoned"),
                        help="with --player: the player's result; else the game's (won: someone won)")
    parser.add_argument("--limit", type=positive, default=DEFAULT_LIMIT, metavar="N",
                        help=f"list the latest N games that match (default {DEFAULT_LIMIT})")
    parser.add_argument("--json", action="store_true")


def archive_command(args: argparse.Namespace) -> int:
    from dicehall.saves.box import command_hint, on_box
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.archive import archive_line, check_game, hall_archive, parse_day

    try:
        check_game(args.game)
        since = parse_day(args.since) if args.since else None
        until = parse_day(args.until) + 86400 if args.until else None  # the whole of that day
    except ValueError as error:
        raise UsageError(str(error)) from None
    hall = Hall()
    archive = hall_archive(hall)
    player = clean_text(args.player, 60) if args.player else None
    chosen = archive.chosen(player, args.game, since, until, args.result)
    shown = chosen[: args.limit]
    if args.json:
        print(json.dumps({"hall": hall.shown(), **archive.as_json(shown), "matched": len(chosen)},
                         indent=1))
        return 0
    if archive.note:
        print(archive.note)
    left_out = archive.left_out()
    print(f"the archive: {counted(len(archive.games), 'finished game')} {hall.in_the_hall()}"
          + (f" (not listed: {left_out})" if left_out else ""))
    if not chosen:
        print("no finished game matches" if archive.games else "no game has finished in the hall yet")
        return 0
    matched = f"{len(chosen):,} match; the latest {len(shown):,}" if len(shown) < len(chosen) else f"{len(chosen):,} match"
    opens = command_hint("replay ID", key="Enter in the Hall screen's archive (a)")
    # on a box, where no file of the player's is in reach, the game comes out on standard output
    writes = command_hint("export ID -o -" if on_box() else "export ID", key="x or t there")
    print(f"{matched} ({opens} opens one, {writes} writes it)\n")
    for entry in shown:
        print(archive_line(entry))
    return 0
