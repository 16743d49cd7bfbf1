"""The commands that open a screen: the launcher (no command), `play`, `continue` and `replay`.
Their arguments are checked, and a save made, before Textual is imported (tui, lazily)."""
from __future__ import annotations

import argparse
from datetime import datetime

import dicehall.cli.terminal as terminal
from dicehall.cli.args import Parser, UsageError, fail, game, game_options, option, seed
from dicehall.cli.files import needs_a_file
from dicehall.cli.hall import finished_hall_game
from dicehall.engine.chance import daily_seed
from dicehall.engine.errors import DeckError, RulingError
from dicehall.engine.text import clean_text


def play_arguments(parser: Parser) -> None:
    parser.add_argument("game", nargs="?", help="the game (with --deal, the code names it)")
    parser.add_argument("--deal", metavar="CODE", help="open a deal by its code (troll:standard:123456), as shown in "
                        "a game's title and in `dicehall saves`")
    parser.add_argument("--seed", type=seed)
    parser.add_argument("--daily", action="store_true", help="today's deal, the same for everyone")
    parser.add_argument("--name", default="")
    parser.add_argument("--option", type=option, action="append", default=[], metavar="KEY=VALUE")


def continue_arguments(parser: Parser) -> None:
    parser.add_argument("save", nargs="?")


def run_app(args: argparse.Namespace, **start) -> int:
    """The app on this terminal, opening on `start` (the launcher when empty)."""
    if terminal.missing_terminal():
        return terminal.refuse_without_terminal(args.command)
    from dicehall.tui.app import DicehallApp

    app = DicehallApp(**start)
    app.run()
    return app.return_code or 0


def launcher_command(args: argparse.Namespace) -> int:
    return run_app(args)


def practice_command(args: argparse.Namespace) -> int:
    """The marked decisions of your analysed saves, one at a time, the answer hidden (issue #22)."""
    return run_app(args, practice=True)


def take_deal(args: argparse.Namespace) -> None:
    """--deal CODE: the game, seed and options the code names, in place of the arguments; the code
    alone says them, so --seed, --daily and --option do not go with it."""
    from dicehall.engine.deals import DealCodeError, read_deal

    if args.deal is None:
        if args.game is None:
            raise UsageError("name a game, or give a deal code with --deal CODE")
        return
    if args.seed is not None or args.daily or args.option:
        raise UsageError("--deal gives the seed and the options: no --seed, --daily or --option with it")
    try:
        deal = read_deal(args.deal)
    except DealCodeError as error:
        raise UsageError(str(error)) from None
    if args.game is not None and args.game != deal.game:
        raise UsageError(f"the deal code is for {deal.game}, not {clean_text(args.game, 20)}")
    args.game, args.seed, args.option = deal.game, deal.seed, list(deal.options.items())


def play_command(args: argparse.Namespace) -> int:
    from dicehall import saves

    take_deal(args)
    module = game(args.game)  # a bad game name fails here, before the screen opens
    from dicehall.saves.decks import deck_options

    try:
        args.option = list(deck_options(module.ID, game_options(module.ID, args.option)).items())  # a deck named: read here, once
    except (DeckError, RulingError):
        raise  # a deck's file or a ruling, not the command's arguments: its one line, without the usage
    except ValueError as error:
        raise UsageError(str(error)) from None
    from dicehall.engine.games import entry_of

    if entry_of(module.ID).several_players:  # games of several players: the setup screen asks who plays
        try:
            options = module.check_options(dict(args.option))
        except ValueError as error:
            raise UsageError(str(error)) from None
        if args.daily:
            raise UsageError(f"--daily is for the troll's deal; {module.TITLE} takes --seed")
        if terminal.missing_terminal():
            return terminal.refuse_without_terminal(args.command)
        from dicehall.tui.screens.games import setup_screen

        return run_app(args, setup=setup_screen(args.game, seed=args.seed, name=args.name, **options))
    from dicehall import engine

    game_seed = args.seed
    name = args.name
    options = dict(args.option)
    if args.daily:
        if args.seed is not None:
            raise UsageError("--daily and --seed do not go together: the daily deal has its own seed")
        today = datetime.now().date().isoformat()
        game_seed = daily_seed(args.game, today)
        name = name or f"daily {today}"
    chosen = None
    if winnable_wanted(options):  # the solver searches for the deal: its one line if none is proved
        from dicehall.engine.analysis import winnable

        try:
            chosen = winnable.choose(args.game, engine.new_seed() if game_seed is None else game_seed, options)
        except winnable.NoWinnableDeal as error:
            return fail(str(error))
        except ValueError as error:
            raise UsageError(str(error)) from None
        game_seed, options = chosen.seed, chosen.options
        name = f"{name}, winnable" if args.daily and not args.name else name
    try:  # the options are checked before anything is written
        engine.new_session(args.game, seed=0 if game_seed is None else game_seed, options=options, dice=[])
    except (DeckError, RulingError):
        raise  # a deck and rulings no card can end: its one line, without the usage
    except ValueError as error:
        raise UsageError(str(error)) from None
    if terminal.missing_terminal():  # the arguments first; then refused before the save is made
        return terminal.refuse_without_terminal(args.command)
    session = saves.new_save(args.game, name=name, seed=game_seed, options=options, players=saves.solo_players())
    if chosen is not None:
        session.labels.notice = chosen.notice()
    return run_app(args, session=session)


def winnable_wanted(options: dict) -> bool:
    if not options:  # the search's module is imported only when an option is given
        return False
    from dicehall.engine.analysis.winnable import wanted

    return wanted(options)


def continue_command(args: argparse.Namespace) -> int:
    from dicehall import saves
    from dicehall.saves.box import SAVES_KEY, command_hint

    name = args.save
    if name is None:
        unfinished = [i for i in saves.list_saves() if not i.finished and not i.problem]
        if not unfinished:
            return fail(f"no unfinished save to continue ({command_hint('saves', key=SAVES_KEY)} lists them)")
        name = unfinished[0].id
    session = saves.open_save(name)  # a missing or damaged save is told first
    if terminal.missing_terminal():
        saves.close_save(session)
        return terminal.refuse_without_terminal(args.command)
    return run_app(args, session=session)


def replay_command(args: argparse.Namespace) -> int:
    needs_a_file("replay", args.file)
    from dicehall import replays
    from dicehall.replays.text import read_record
    from dicehall.saves.player_files import record_file

    try:
        start = {"replay": finished_hall_game(args.file) or read_record(record_file(args.file))}
    except replays.ReplayError as error:
        return fail(f"{clean_text(args.file, 200)}: {error}")
    return run_app(args, **start)
