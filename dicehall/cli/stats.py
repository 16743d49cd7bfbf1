"""`dicehall stats [GAME] [--player NAME] [--json]`: the statistics of the saves (saves/stats.py),
per game and variant, per player, the bots' games apart, the daily deals by date and the damaged
saves that were not counted."""
from __future__ import annotations

import argparse
import textwrap

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
    from dicehall.saves.stats import collect

    stats = collect(args.game, args.player)
    if args.json:
        import json

        print(json.dumps(stats.as_dict(), indent=1, ensure_ascii=True))
        return 0
    for line in stats_text(stats, clean_text(str(saves.saves_dir()), 200), args.player):
        print(line)
    return 0


def stats_text(stats, folder: str, player: str | None) -> list[str]:
    """The statistics as lines of at most 79 columns."""
    from dicehall.saves.stats import ABANDONED_DAYS, heading, measure_chart, sequence_chart, tally_lines

    def wrap(text: str, indent: str = "  ") -> list[str]:
        return textwrap.wrap(clean_text(text, 600), 79, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_on_hyphens=False) or [indent]

    who = f" of {clean_text(player, 60)}" if player else ""
    lines = wrap(f"Statistics{who} from {stats.counted} saves in {folder} (a copy counts once; a game unfinished and "
                 f"untouched for {ABANDONED_DAYS} days is abandoned, not lost; bots' seats are no players)", "")
    if not stats.games:
        lines.append("no finished or unfinished game of a person to count yet")
    for tally in stats.games:
        lines += ["", *wrap(heading(tally), "")]
        for line in tally_lines(tally):
            lines += wrap(line)
        lines += wrap(f"recent (oldest first): {sequence_chart(tally)}")
        if measure_chart(tally):
            lines += wrap(f"{measure_chart(tally)}")
    if stats.players:
        lines += ["", "PLAYERS (people only)"]
    for tally in stats.players:
        lines += wrap(f"{tally.player}: {heading(tally)}", "")
        for line in tally_lines(tally):
            lines += wrap(line)
    if stats.bots_only:
        lines += ["", *wrap("Games of bots only (not counted above): " + ", ".join(
            f"{game} {count}" for game, count in stats.bots_only.items()), "")]
    if stats.daily:
        lines += ["", "DAILY DEALS"]
        for deal in stats.daily:
            measure = f", {deal['measure']}" if deal["measure"] is not None else ""
            summary = f" ({deal['summary']}{measure})" if deal["summary"] else ""
            lines += wrap(f"{deal['date']}  {deal['game']}  {', '.join(deal['players'])}: {deal['result']}{summary}")
    if stats.damaged:
        lines += ["", "DAMAGED SAVES (listed, not counted)"]
        for damaged in stats.damaged:
            lines += wrap(f"{damaged['id']}: {damaged['problem']}")
    return lines
