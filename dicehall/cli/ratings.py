"""`dicehall ratings [GAME] [--json] [--rebuild]`: the hall's ratings per game and player identity
(saves/hall/ratings.py, rating_files.py), the finished games not yet rated rated first; --rebuild
rates every finished hall game again from its verified log and rewrites this account's ratings file."""
from __future__ import annotations

import argparse

from dicehall.cli.args import Parser, UsageError
from dicehall.engine.text import clean_text


def ratings_arguments(parser: Parser) -> None:
    parser.add_argument("game", nargs="?", help="one game's ratings (its id: dicehall rules lists them)")
    parser.add_argument("--json", action="store_true", help="every rating as JSON")
    parser.add_argument("--rebuild", action="store_true",
                        help="rate every finished hall game again from its log, verified, and rewrite the ratings file")


def ratings_command(args: argparse.Namespace) -> int:
    from dicehall.engine.games import CATALOGUE

    if args.game is not None and args.game not in {entry.id for entry in CATALOGUE}:
        raise UsageError(f"no game {clean_text(args.game, 30)!r} (games: {', '.join(e.id for e in CATALOGUE)})")
    from dicehall.engine.words import counted
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.rating_files import hall_ratings, rebuild
    from dicehall.saves.hall.ratings import PROVISIONAL_GAMES

    hall = Hall()
    said = ""
    if args.rebuild:
        rebuilt = rebuild(hall)
        found = rebuilt.ratings
        said = (f"rebuilt from {counted(rebuilt.rated, 'verified game')}"
                + (f" ({counted(rebuilt.not_rated, 'finished game')} not rated)" if rebuilt.not_rated else ""))
    else:
        found = hall_ratings(hall)
    if args.json:
        import json

        print(json.dumps({"hall": hall.shown(), **found.as_json(args.game)}, indent=1, ensure_ascii=True))
        return 0
    for problem in found.problems:
        print(clean_text(problem, 300))
    if said:
        print(said)
    print(f"ratings from {counted(len(found.history), 'rated game')} {hall.in_the_hall()}; "
          f"? marks a rating of fewer than {PROVISIONAL_GAMES} games")
    rows = found.table(args.game)
    if not rows:
        from dicehall.saves.box import on_box

        print("no rated game yet: " + ("a finished hall game is rated when each seat is a bot or a player's key" if on_box()
                                       else "off a box, your own finished hall games against the bots are rated"))
        return 0
    print(f"\n{'GAME':<16}  {'PLAYER':<20}  {'RATING':>7}  {'GAMES':>5}")
    for rating in rows:  # names come from the hall's files: cleaned again, cut to the column
        print(f"{clean_text(rating.title, 16):<16}  {clean_text(rating.player, 20):<20}  {rating.words():>7}  {rating.games:>5}")
    return 0
