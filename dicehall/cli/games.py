"""The commands about a game itself: `rules` and `sim`. Which of sim's options a game takes, and
their defaults, is the game's catalogue entry's `sim_options`; sim's help lists them from the games."""
from __future__ import annotations

import argparse

from dicehall.cli.args import Parser, UsageError, game, game_options, games, option, positive, rate, seed
from dicehall.engine.errors import DeckError, RulingError
from dicehall.engine.text import clean_text

SIM_GAME_OPTIONS = ("remove_rate", "difficulty", "variant", "bot", "players", "bots", "deck", "option")  # the options some games take


def sim_epilog() -> str:
    """The options each game takes, read from the games when sim's help is asked for (the launcher's
    start imports no game's rules)."""
    from dicehall.engine.games import CATALOGUE

    lines = [f"  {entry.id}: " + (", ".join("--" + name.replace("_", "-") for name in entry.sim_defaults)
                                  or "no game options")
             for entry in CATALOGUE if entry.playable]
    return "the options each game takes:\n" + "\n".join(lines)


def rules_arguments(parser: Parser) -> None:
    parser.add_argument("game")


def sim_arguments(parser: Parser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.late_epilog = sim_epilog
    parser.add_argument("game")
    parser.add_argument("--games", type=games, default=1000)
    parser.add_argument("--seed", type=seed, default=1)
    parser.add_argument("--json", action="store_true")
    # the options below belong to some games only (a game's catalogue entry's sim_options); None means not given
    parser.add_argument("--remove-rate", type=rate)
    parser.add_argument("--difficulty", choices=["standard", "sturdy", "tutorial"])
    parser.add_argument("--variant", choices=["starting_card", "reusable_diamond_ace", "club_at_start", "toys"])
    parser.add_argument("--bot", choices=["hint", "search", "random"])
    parser.add_argument("--players", type=positive)
    parser.add_argument("--bots", help="wager: bot styles by seat (default best,cautious); towers: two levels (default hard,easy); "
                                       "bones: two levels (default general,random); a game with bots and no sim of its own: "
                                       "its bots, one a seat in turn (default its first)")
    parser.add_argument("--deck", help="journal: a deck file (CSV or TOML), or sample (the default)")
    parser.add_argument("--option", type=option, action="append", metavar="KEY=VALUE",
                        help="journal: a ruling in the deck's place, as play's --option: final_check, tokens, kings, deck_out")


def rules_command(args: argparse.Namespace) -> int:
    print(game(args.game).RULES_TEXT)
    return 0


def sim_options(args: argparse.Namespace) -> dict:
    """The game-specific options of `sim`, with defaults; an option the game does not take, or a
    --bots that names no bot, is a UsageError."""
    from dicehall.engine.games import entry_of

    known = entry_of(game(args.game).ID).sim_defaults
    for name in SIM_GAME_OPTIONS:
        if getattr(args, name) is not None and name not in known:
            takes = ", ".join("--" + k.replace("_", "-") for k in known) or "no game options"
            raise UsageError(f"sim {args.game} does not take --{name.replace('_', '-')} (it takes {takes})")
    options = {name: default if getattr(args, name) is None else getattr(args, name) for name, default in known.items()}
    if args.option is not None:
        options["option"] = game_options(args.game, args.option)
    if args.bots is not None:
        options["bots"] = [s.strip() for s in args.bots.split(",") if s.strip()]
        if not options["bots"]:
            raise UsageError(f"--bots {clean_text(args.bots, 40)!r} names no bot")
    return options


def sim_command(args: argparse.Namespace) -> int:
    from dicehall import engine
    from dicehall import sims

    options = sim_options(args)  # an unknown game: the usage and one line
    try:
        report = sims.run(args.game, args.games, args.seed, options, args.json)
    except (engine.IllegalCommand, engine.LogError):
        raise  # a bug, not a bad argument
    except (DeckError, RulingError):
        raise  # a deck's file or a ruling, not the command's arguments: its one line, without the usage
    except ValueError as error:  # sim checks its arguments before it plays: unknown game, players, bot styles
        raise UsageError(str(error)) from None
    print(report)
    return 0
