"""The `dicehall` command. Headless subcommands (verify, analyse, sim, saves, export, rules, recover, hall, host,
join, watch) never import Textual."""
from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime

from engine.chance import daily_seed
from engine.errors import DicehallError
from engine.words import counted
from engine.text import clean_text  # text from files and arguments is data: no escape sequence reaches the terminal

USAGE_EPILOG = """commands:
  dicehall                         open the launcher
  dicehall play GAME [--seed N | --daily] [--name NAME] [--option KEY=VALUE]
  dicehall continue [SAVE]         resume a save (the latest unfinished one by default)
  dicehall saves                   list saves: last played, game, name, progress, id
  dicehall --version               print dicehall's version
  dicehall export SAVE [-o FILE|FOLDER] [--force]
                                   write a save as a shareable replay (.dhr)
  dicehall replay FILE             step through a replay
  dicehall verify FILE             check a replay against its seed and rules
  dicehall analyse FILE_OR_SAVE [--json] [--samples N] [--budget SECONDS]
                                   judge every decision and the luck of every roll
  dicehall analyse FILE_OR_SAVE --hindsight [--budget SECONDS] [--json]
                                   the troll: was this deal winnable? (looks at the hidden cards)
  dicehall sim dicetower --games N --seed S [--remove-rate P] [--json]
  dicehall sim troll [--difficulty D] [--variant V] [--bot hint|search|random] --games N --seed S [--json]
  dicehall sim wager --players N --bots best,cautious,bold --games G --seed S [--json]
  dicehall sim towers --bots L1,L2 --games N --seed S [--json]   (levels: random, easy, medium, hard)
  dicehall sim bones --bots A,B --games N --seed S [--json]      (levels: general, random)
  dicehall rules GAME              print a game's rules
  dicehall recover SAVE            copy the good part of a damaged save into a new save
  dicehall hall [--json]           list the hall's games: seats, moves, watchers
  dicehall host GAME [--players N] [--seat N=open|bot[:STYLE]] [--name NAME] [--option KEY=VALUE]
                                   open a game in the hall and take a seat
  dicehall join ID [--seat N] [--name NAME]
                                   take an open seat (or your own again) in a hall game
  dicehall watch ID [--follow]     a hall game, read only: on a terminal the live viewer; elsewhere
                                   its moves so far (--follow: and each new one until it is over)
  dicehall serve [--host 127.0.0.1] [--port 8000] [--public]
                                   run dicehall for a web browser (no authentication: reach it by ssh -L)
  dicehall --hall DIR COMMAND      use the hall in DIR (default: $DICEHALL_HALL, /var/games/dicehall, DATA/hall)
games: dicetower, wager, troll, towers, bones"""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and the usage, never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"dicehall: {clean_text(message, 400)}\n")  # argparse quotes unknown arguments raw


class UsageError(DicehallError, ValueError):
    """An argument the parser accepted but the command cannot use: reported like argparse's own errors."""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


MAX_GAMES = 1_000_000  # a sim's --games: minutes for the Dice Tower, longer for the bots' games (progress is shown)


def _games(text: str) -> int:
    value = _positive(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_GAMES:,}")
    return value


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError("must be from 0.1 to 3600 seconds")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("must be from 0 to 2**63-1")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("must be from 0 to 1")
    return value


def _option(text: str) -> tuple[str, object]:
    """KEY=VALUE: whole numbers, true/false, comma-separated lists, or a word."""
    key, sep, value = text.partition("=")
    if not sep or not key or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    def one(item: str) -> object:
        if re.fullmatch(r"-?[0-9]{1,30}", item):  # ASCII digits only: "¹".isdigit() is true but int() refuses it
            return int(item)
        if re.fullmatch(r"-?[0-9]+", item):
            raise argparse.ArgumentTypeError(f"{key}: the number {item[:12]}... is too long")
        return {"true": True, "false": False}.get(item.lower(), item)
    return key, [one(v) for v in value.split(",")] if "," in value else one(value)


def build_parser() -> Parser:
    parser = Parser(prog="dicehall", description="A terminal game parlor.", epilog=USAGE_EPILOG,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    parser.commands = sub.choices  # type: ignore[attr-defined]  # each command's parser, for its usage line
    from engine import VERSION

    parser.add_argument("--version", action="version", version=f"dicehall {VERSION}")
    parser.add_argument("--hall", metavar="DIR", help="the hall folder shared by the players on this box")
    play = sub.add_parser("play", help="start a new game")
    play.add_argument("game")
    play.add_argument("--seed", type=_seed)
    play.add_argument("--daily", action="store_true", help="today's deal, the same for everyone")
    play.add_argument("--name", default="")
    play.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE")
    cont = sub.add_parser("continue", help="resume a save")
    cont.add_argument("save", nargs="?")
    sub.add_parser("saves", help="list saves")
    export = sub.add_parser("export", help="write a save as a replay")
    export.add_argument("save")
    export.add_argument("-o", "--output", metavar="FILE|FOLDER", help="the replay file, or a folder for SAVE_ID.dhr")
    export.add_argument("--force", action="store_true", help="replace the file if it exists")
    replay = sub.add_parser("replay", help="step through a replay")
    replay.add_argument("file")
    verify = sub.add_parser("verify", help="check a replay")
    verify.add_argument("file")
    analyse = sub.add_parser("analyse", help="judge a game's decisions and luck", description=(
        "Judge every decision of a person and the luck of every roll. Marks by the drop in win chance: "
        "?! inaccuracy 5 points, ? mistake 10, ?? blunder 15 (Towers: by margin lost, 1, 2 and 4 points; "
        "the troll and War of Bones also mark ?? a move that loses at once when another plays on)."))
    analyse.add_argument("file", metavar="FILE_OR_SAVE")
    analyse.add_argument("--json", action="store_true")
    analyse.add_argument("--samples", type=_positive, help="sampled deals (the troll) or futures (War of Bones) per decision, the same figures every run")
    analyse.add_argument("--budget", type=_budget, metavar="SECONDS",
                         help="the troll, War of Bones: as many samples per decision as fit in about this many seconds, at a fixed rate; "
                              "with --hindsight, the solver's budget (default 10)")
    analyse.add_argument("--hindsight", action="store_true",
                         help="the troll: was this deal winnable? a solver that looks at the real deck order and dice")
    sim = sub.add_parser("sim", help="sample whole games")
    sim.add_argument("game")
    sim.add_argument("--games", type=_games, default=1000)
    sim.add_argument("--seed", type=_seed, default=1)
    sim.add_argument("--json", action="store_true")
    # the options below belong to some games only (SIM_OPTIONS); None means not given
    sim.add_argument("--remove-rate", type=_rate)
    sim.add_argument("--difficulty", choices=["standard", "sturdy", "tutorial"])
    sim.add_argument("--variant", choices=["starting_card", "reusable_diamond_ace", "club_at_start", "toys"])
    sim.add_argument("--bot", choices=["hint", "search", "random"])
    sim.add_argument("--players", type=_positive)
    sim.add_argument("--bots", help="wager: bot styles by seat (default best,cautious); towers: two levels (default hard,easy); "
                          "bones: two levels (default general,random)")
    rules = sub.add_parser("rules", help="print a game's rules")
    rules.add_argument("game")
    recover = sub.add_parser("recover", help="copy the good part of a damaged save")
    recover.add_argument("save")
    hall = sub.add_parser("hall", help="list the hall's games")
    hall.add_argument("--json", action="store_true")
    host = sub.add_parser("host", help="open a game in the hall")
    host.add_argument("game")
    host.add_argument("--players", type=_positive, help="how many seats (Dead Man's Wager: 2 to 6; default 2)")
    host.add_argument("--seat", type=_hall_seat, action="append", default=[], metavar="N=open|bot[:STYLE]",
                      help="seat N left open for another player (the default) or given to a bot; you take the first "
                           "seat not named")
    host.add_argument("--name", default="", help="your name at the table (default: your login name)")
    host.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE")
    join = sub.add_parser("join", help="take a seat in a hall game")
    join.add_argument("id")
    join.add_argument("--seat", type=_positive, metavar="N", help="the seat (from 1); default: your own, else the first open")
    join.add_argument("--name", default="", help="your name at the table (default: your login name)")
    watch = sub.add_parser("watch", help="follow a hall game, read only")
    watch.add_argument("id")
    watch.add_argument("--follow", action="store_true",
                       help="off a terminal: after the moves so far, print each new one until the game is over")
    serve = sub.add_parser("serve", help="run dicehall for a web browser (textual-serve; no authentication)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--public", action="store_true",
                       help="allow an address other than loopback (anyone who reaches it plays as you)")
    serve.add_argument("--hall", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    for command in (hall, host, join, watch, verify, export, replay, analyse):  # --hall DIR after the command works too
        command.add_argument("--hall", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _port(text: str) -> int:
    value = _positive(text)
    if value > 65535:
        raise argparse.ArgumentTypeError("must be a port number, 1 to 65535")
    return value


def _hall_seat(text: str) -> tuple[int, str]:
    """N=open, N=bot or N=bot:STYLE (seats from 1)."""
    number, sep, kind = text.partition("=")
    if not sep or not re.fullmatch(r"[1-9]", number) or not re.fullmatch(r"open|bot(:[a-z]{1,20})?", kind):
        raise argparse.ArgumentTypeError(f"{text!r} is not N=open, N=bot or N=bot:STYLE")
    return int(number) - 1, kind


# Which of sim's game-specific options each game takes, and their defaults; any other is refused.
SIM_OPTIONS = {
    "dicetower": {"remove_rate": 0.0},
    "troll": {"difficulty": "standard", "variant": None, "bot": "hint"},
    "wager": {"players": 2, "bots": None},
    "towers": {"bots": None},
    "bones": {"bots": None},
}
SIM_GAME_OPTIONS = ("remove_rate", "difficulty", "variant", "bot", "players", "bots")


def _sim_options(args: argparse.Namespace) -> dict:
    """The game-specific options of `sim`, with defaults; an option the game does not take, or a
    --bots that names no bot, is a UsageError."""
    known = SIM_OPTIONS.get(args.game, {})
    for name in SIM_GAME_OPTIONS:
        if getattr(args, name) is not None and name not in known:
            takes = ", ".join("--" + k.replace("_", "-") for k in known) or "no game options"
            raise UsageError(f"sim {args.game} does not take --{name.replace('_', '-')} (it takes {takes})")
    options = {name: default if getattr(args, name) is None else getattr(args, name) for name, default in known.items()}
    if args.bots is not None:
        options["bots"] = [s.strip() for s in args.bots.split(",") if s.strip()]
        if not options["bots"]:
            raise UsageError(f"--bots {clean_text(args.bots, 40)!r} names no bot")
    return options


def _fail(message: str) -> int:
    print(f"dicehall: {clean_text(message, 400)}", file=sys.stderr)
    return 1


def _refusal(error: BaseException) -> str:
    """A refusal's one line: dicehall's own words, or a system error without its errno or whole path."""
    from saves import error_line

    return error_line(error)


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:  # here, not at exit, so a reader that has gone is noticed while it can be caught (--help too)
            sys.stdout.flush()
    except BrokenPipeError:  # `dicehall hall | head -1`: the reader has all it wanted
        _drop_stdout()
        return 0


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush at exit has nowhere to fail
    ("Exception ignored ... BrokenPipeError")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # --help and --version print here: a closed pipe is caught in main
    try:
        return _dispatch(args)
    except UsageError as error:  # the usage of the command, then one line; exit 2, as argparse does
        parser.commands.get(args.command, parser).error(str(error))  # type: ignore[attr-defined]
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise  # main's: standard output is gone
    except (ValueError, OSError) as error:  # SaveError, ReplayError and option errors are one-liners
        return _fail(_refusal(error))
    except DicehallError as error:  # the rest of what dicehall refuses (SaveError, HallError): one line too
        return _fail(_refusal(error))


def _game(game: str):
    """The engine module of GAME; an unknown or unplayable game is an argument error."""
    import engine

    try:
        return engine.get_game(game)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _dispatch(args: argparse.Namespace) -> int:
    command = args.command
    if getattr(args, "hall", None):
        import os

        os.environ["DICEHALL_HALL"] = args.hall  # the app, and anything it starts, uses the same hall
    if command in ("hall", "host", "join", "watch"):
        return _hall_command(args)
    if command == "serve":
        return _serve(args)
    if command == "verify" and _hall_game_named(args.file, file_first=True):
        from saves.hall import Hall

        print(Hall().verify(args.file))  # HallError: one line, from main
        return 0
    if command == "export" and _hall_game_named(args.save, save_first=True):
        from saves.hall import Hall

        import saves

        try:
            written = Hall().export(args.save, args.output, overwrite=args.force)
        except saves.ExportExists as error:
            return _fail(f"{error}; add --force to replace it")
        print(f"wrote {clean_text(str(written), 300)}")
        return 0
    if command in ("verify", "replay", "analyse") and not args.file.strip():
        raise UsageError(f"{command} needs the name of a replay file (.dhr)")
    if command == "verify":
        import replays

        try:
            print(replays.verify(args.file))
        except replays.ReplayError as error:
            return _fail(f"{clean_text(args.file, 200)}: {error}")
        return 0
    if command == "analyse":
        return _analyse(args)
    if command == "sim":
        import engine
        from tui import sim

        _game(args.game)
        options = _sim_options(args)
        try:
            report = sim.run(args.game, args.games, args.seed, options.get("remove_rate", 0.0), args.json,
                             options.get("difficulty", "standard"), options.get("variant"), options.get("bot", "hint"),
                             options.get("players", 2), options.get("bots"))
        except (engine.IllegalCommand, engine.LogError):
            raise  # a bug, not a bad argument
        except ValueError as error:  # sim checks its arguments before it plays: unknown game, players, bot styles
            raise UsageError(str(error)) from None
        print(report)
        return 0
    if command == "rules":
        print(_game(args.game).RULES_TEXT)
        return 0
    if command == "saves":
        return _list_saves()
    if command == "export":
        import saves

        try:
            written = saves.export_save(args.save, args.output, overwrite=args.force)
        except saves.ExportExists as error:
            return _fail(f"{error}; add --force to replace it")
        print(f"wrote {clean_text(str(written), 300)}")
        return 0
    if command == "recover":
        import saves

        try:
            new_id = saves.recover_save(args.save)
        except saves.SaveHealthy as healthy:  # nothing to do, and nothing was written
            print(clean_text(str(healthy), 400))
            return 0
        print(f"recovered into save {new_id}; the damaged file is kept")
        return 0
    return _run_app(args)


def _serve(args: argparse.Namespace) -> int:
    """The app for a web browser, through textual-serve: one dicehall process per browser tab, run as
    this user. It has no authentication, so it listens on loopback only unless told --public."""
    import ipaddress
    import shlex

    host = args.host.strip()
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not args.public:
        raise UsageError(f"--host {host}: not a loopback address. dicehall serve has no authentication: keep it on "
                         f"127.0.0.1 and reach it with ssh -L {args.port}:127.0.0.1:{args.port} (--public overrides)")
    try:
        from textual_serve.server import Server
    except ImportError:
        return _fail("dicehall serve needs the textual-serve package: pip install 'dicehall[serve]'")
    command = f"{shlex.quote(sys.executable)} -m tui.cli"  # the launcher, with this hall (DICEHALL_HALL)
    Server(command, host=host, port=args.port, title="dicehall").serve()
    return 0


def _hall_game_named(name: str, file_first: bool = False, save_first: bool = False) -> bool:
    """Whether `verify NAME`, `replay NAME`, `export NAME` or `analyse NAME` means a hall game: NAME
    is a hall game's id, names no file (verify, replay, analyse) or save (export, analyse) of that
    name, and the hall holds that game."""
    import os

    from saves.hall import LOG_SUFFIX, Hall, is_id

    if not is_id(name):
        return False
    if file_first and os.path.exists(name):
        return False
    if save_first:
        import saves

        try:
            saves._find(name)
            return False
        except saves.SaveError:
            pass
    return os.path.lexists(Hall().games / f"{name}{LOG_SUFFIX}")


def _finished_hall_game(name: str):
    """`replay NAME`: the finished hall game NAME as a replay's session when NAME is a hall game's id
    and no file has that name, else None; HallError (not over, never revealed) is one line, from main."""
    if not _hall_game_named(name, file_first=True):
        return None
    from saves.hall import Hall

    return Hall().finished_session(name)


SEATS = {"dicetower": 1, "troll": 1, "towers": 2, "bones": 2}  # Dead Man's Wager: --players, 2 to 6


def _player_name(given: str) -> str:
    from saves.hall import login_name

    return given or login_name()


def _hall_command(args: argparse.Namespace) -> int:
    """hall, host, join and watch. On a terminal, host and join open the game's screen; otherwise
    they print the game's id and the seat taken and leave (the seat then shows as disconnected, and
    `join ID` with the same name takes it back). watch opens the live viewer on a terminal; elsewhere
    it prints each event as it is played until the game ends."""
    from saves.hall import Hall, check_id

    hall = Hall()
    if args.command == "hall":
        return _list_hall(hall, args.json)
    if args.command == "host":
        module = _game(args.game)
        count = SEATS.get(args.game, args.players or 2)
        if args.players is not None and args.game != "wager":
            raise UsageError(f"{module.TITLE} has {count} seat{'s' if count > 1 else ''}; --players is for Dead Man's Wager")
        kinds = ["?"] * count
        for seat, kind in args.seat:
            if seat >= count:
                raise UsageError(f"--seat {seat + 1}: {module.TITLE} has seats 1 to {count}")
            kinds[seat] = kind
        if "?" not in kinds:
            raise UsageError("every seat is open or a bot: leave one for yourself")
        host_seat = kinds.index("?")
        kinds = ["player" if n == host_seat else "open" if kind == "?" else kind for n, kind in enumerate(kinds)]
        try:
            game = hall.host(args.game, kinds, _player_name(args.name), options=dict(args.option))
        except ValueError as error:
            raise UsageError(str(error)) from None
        if _on_terminal():
            return _play_in_hall(game)
        with game:
            print(f"hosted {game.module.TITLE} as {game.id} in {clean_text(str(hall.folder), 200)}; "
                  f"you hold seat {game.seat + 1} as {clean_text(game.fold.seats[game.seat].name)}")
            print(f"seats: {_seat_words(game.seats())}; others join with: dicehall join {game.id}")
        return 0
    if args.command == "join":
        game = hall.join(check_id(args.id), None if args.seat is None else args.seat - 1, _player_name(args.name))
        if _on_terminal():
            return _play_in_hall(game)
        with game:
            print(f"joined {game.module.TITLE} {game.id}: you hold seat {game.seat + 1} as "
                  f"{clean_text(game.fold.seats[game.seat].name)}; seats: {_seat_words(game.seats())}")
        return 0
    if _on_terminal():
        return _watch_app(hall, check_id(args.id))
    return _watch_lines(hall, check_id(args.id), args.follow)


def _watch_app(hall, game_id: str) -> int:
    """On a terminal: the replay viewer, live on a game in progress, or a finished game as a replay."""
    game = hall.watch(game_id)  # a missing or damaged game: one line, before the screen opens
    start = {"watch": game}
    if game.finished:
        game.close()
        start = {"replay": hall.finished_session(game_id)}
    from tui.app import DicehallApp

    app = DicehallApp(**start)
    app.run()
    return app.return_code or 0


def _on_terminal() -> bool:
    return _missing_terminal() is None


STREAMS = ("standard input", "standard output", "standard error")  # file descriptors 0, 1, 2


def _missing_terminal() -> str | None:
    """The first of stdin, stdout and stderr that is not a terminal (Textual reads keys from stdin
    and draws on stderr; stdout must not be a file or a pipe the screen would be lost in), or None.
    Under `dicehall serve` the browser is the terminal: TEXTUAL_DRIVER names its driver."""
    import os

    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    return next((name for fd, name in enumerate(STREAMS) if not os.isatty(fd)), None)


def _refuse_without_terminal(command: str | None) -> int:
    """One line saying why a screen cannot be opened here, and exit 2. Without this, an app with no
    terminal draws into a file and, once its input ends, can never be told to stop."""
    stream = _missing_terminal()
    what = {None: "the launcher", "replay": "the replay viewer"}.get(command, f"dicehall {command}")
    print(f"dicehall: no terminal on {stream}: {what} needs one (run it in a terminal; over ssh: ssh -t box, "
          f"or a pty in authorized_keys: restrict,pty)", file=sys.stderr)
    return 2


def _play_in_hall(game) -> int:
    """Open the hall game's screen (the app follows the log and releases the seat when it ends)."""
    from tui.app import DicehallApp

    try:
        app = DicehallApp(hall_game=game)
        app.run()
    finally:
        game.close()  # already closed by the app, unless it never started
    return app.return_code or 0


def _seat_words(views) -> str:
    return ", ".join(clean_text(view.words(), 60) for view in views)


def _watch_lines(hall, game_id: str, follow: bool = False) -> int:
    """A hall game off a terminal, one line per event and one per message said in it (as "say: Ann:
    hi"): what has happened so far, then (`follow`) each new one until the game ends, the reader of a
    pipe goes away, or ctrl+c. Without `follow` it never waits, so `dicehall watch ID > file` and
    `ssh -T box dicehall watch ID` end at once."""
    from saves.hall import login_name
    from saves.hall_chat import HallChat

    game = hall.watch(game_id)
    chat = HallChat(hall, game_id, login_name(), None)
    shown, told = 0, ""
    with game:
        print(f"watching {game.module.TITLE} {game.id}: {_seat_words(game.seats())}", flush=True)
        while True:
            for message in chat.follow():
                print(clean_text(f"say: {message.words()}", 300), flush=True)
            if chat.problem and told != chat.problem:  # a damaged messages file: said once, the game goes on
                told = chat.problem
                print(clean_text(f"messages: {told}", 300), flush=True)
            session = game.session
            if session is not None:
                events = session.events
                if len(events) < shown:  # a takeback
                    print(f"(taken back to event {len(events)})", flush=True)
                    shown = len(events)
                for n in range(shown, len(events)):
                    print(clean_text(f"{n + 1:>4}  {session.describe(n, reveal=False)}", 200), flush=True)
                shown = len(events)
            if game.finished:
                print(clean_text(f"over: {game.fold.result}", 200))
                return 0
            if not follow:
                print(f"in progress: dicehall watch {game.id} --follow prints each move until it is over")
                return 0
            if _stdout_gone():  # a pipe whose reader left while nothing was played: no write would tell
                return 0
            if game.wait(1.0):
                game.follow()


def _stdout_gone() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll says POLLERR/POLLHUP)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), 0)  # no event asked for: only the errors are reported
        return any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _fd, mask in poller.poll(0))
    except (OSError, ValueError):
        return True


def _list_hall(hall, as_json: bool) -> int:
    """The hall's games under a header row; a file that is not a good game is one line."""
    import json

    entries = hall.listing()
    folder = clean_text(str(hall.folder), 300)
    if as_json:
        print(json.dumps({"hall": folder, "games": [entry.as_json() for entry in entries]}, indent=1))
        return 0
    if not entries:
        print(f"no games in the hall {folder} (dicehall host GAME opens one)")
        return 0
    print(f"{counted(len(entries), 'game')} in the hall {folder}, the latest move first\n")
    print(f"{'ID':<6}  {'GAME':<10}  {'MOVES':>5}  {'WATCH':>5}  {'LAST MOVE':<16}  SEATS")
    for entry in entries:  # every field is cleaned already; cleaned again so no file reaches the terminal
        if entry.problem:
            print(f"{clean_text(entry.id, 6):<6}  DAMAGED: {clean_text(entry.problem, 300)}")
            continue
        when = datetime.fromtimestamp(entry.last_move).strftime("%Y-%m-%d %H:%M")
        state = f"over: {clean_text(entry.result, 100)}" if entry.finished else f"in progress: {clean_text(entry.progress, 100)}"
        print(f"{entry.id:<6}  {clean_text(entry.game, 10):<10}  {entry.moves:>5}  {entry.watchers:>5}  {when:<16}  "
              f"{_seat_words(entry.seats)}; {state}")
    return 0


NO_ANALYSER = 2  # the exit code of `analyse` for a game that has no analysis yet


def _analyse(args: argparse.Namespace) -> int:
    """Analyse a replay file, or a save by name or id: one line per decision (per roll for the Dice
    Tower) and a summary, or the whole analysis as JSON."""
    import json
    from pathlib import Path

    from engine import analysis

    if args.samples is not None and args.budget is not None:
        raise UsageError("--samples and --budget do not go together: --budget chooses the samples")
    if args.hindsight and args.samples is not None:
        raise UsageError("--hindsight does not take --samples: it searches, within --budget SECONDS")
    if Path(args.file).is_file():
        import replays

        try:
            session = replays.read_replay(args.file)
        except replays.ReplayError as error:
            return _fail(f"{clean_text(args.file, 200)}: {error}")
    elif _hall_game_named(args.file, file_first=True, save_first=True):
        from saves.hall import Hall

        session = Hall().finished_session(args.file)  # HallError (not over, not revealed): one line, from main
    else:
        import saves

        session = saves.load_readonly(args.file)  # SaveError: one line, from main
    if args.hindsight:
        return _hindsight(session, args)
    if not analysis.has_analyser(session.game.ID):
        print(f"dicehall: {session.game.TITLE} has no analysis yet (analysed: "
              f"{', '.join(sorted(analysis.ANALYSERS))})", file=sys.stderr)
        return NO_ANALYSER
    result = analysis.analyse(session, samples=args.samples, budget=args.budget)
    if args.json:
        print(json.dumps(analysis.as_json(result), indent=1))
        return 0
    names = [p.name for p in session.players]
    if result.game == "dicetower":
        for luck in result.chance:
            after = result.curve[luck.event].value
            print(f"event {luck.event:>4}: luck {luck.luck:+.2f} pulls, then {after:.2f} expected pulls left")
    for d in result.decisions:
        who = clean_text(names[d.seat], 16) if len(names) > 1 else ""
        mark = f"  {d.mark} {analysis.MARK_WORDS[d.mark]}" if d.mark else ""
        print(clean_text(f"event {d.event:>4}: {who + ' ' if who else ''}played {d.played}, win {d.chance_played:.1%}; "
                         f"best {d.best}, win {d.chance_best:.1%}{mark}", 400))
    for note in result.notes:
        print(clean_text(f"note: {note}", 400))
    print(clean_text(result.summary(), 600))
    return 0


def _hindsight(session, args: argparse.Namespace) -> int:
    """The troll's hindsight solver: whether the deal was winnable, and the latest position the game
    could still be won from, with a line that wins, one command per line with its event number."""
    import json

    if session.game.ID != "troll":
        print(f"dicehall: {session.game.TITLE} has no hindsight solver (only the troll has one)", file=sys.stderr)
        return NO_ANALYSER
    from engine.analysis import troll_solver

    solution = troll_solver.solve(session, budget=troll_solver.DEFAULT_BUDGET if args.budget is None else args.budget)
    if args.json:
        print(json.dumps(troll_solver.as_json(solution), indent=1))
        return 0
    for line in solution.text_lines():  # the engine's own words and numbers; cleaned anyway, keeping the columns
        print(line if line.isprintable() else clean_text(line, 600))
    return 0


def _list_saves() -> int:
    """Every save as a block of lines under a header row: when it was last played, its game and whole
    name; below them its progress (or what is wrong with it), what it branched from, and its id, the
    handle `continue`, `export` and `recover` take. Long text wraps; nothing is cut."""
    import textwrap

    import saves

    infos = saves.list_saves()
    folder = clean_text(str(saves.saves_dir()), 300)
    if not infos:
        print(f"no saves yet (they live in {folder})")
        return 0
    print(f"{counted(len(infos), 'save')} in {folder}, most recently played first\n")
    when_width, game_width = 16, 10
    indent = " " * (when_width + 2 + game_width + 2)
    print(f"{'LAST PLAYED':<{when_width}}  {'GAME':<{game_width}}  NAME, then progress, branch and id")
    for info in infos:  # SaveInfo is cleaned already; cleaned again here so no file can reach the terminal
        when = datetime.fromtimestamp(info.last_played).strftime("%Y-%m-%d %H:%M")
        first = f"{when:<{when_width}}  {clean_text(info.game, game_width):<{game_width}}  {clean_text(info.name)}"
        details = [f"DAMAGED: {clean_text(info.problem, 300)}" if info.problem else clean_text(info.progress, 300)]
        if info.branch_of:
            details.append(clean_text(info.branch_of, 200))
        details.append(f"id {clean_text(info.id, 200)}")
        print(first)
        for detail in details:
            print(textwrap.fill(detail, 79, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False))
    return 0


def _run_app(args: argparse.Namespace) -> int:
    import engine
    import saves

    start: dict = {}
    if args.command == "play":
        _game(args.game)  # a bad game name fails here, before the screen opens
        if args.game in ("wager", "towers", "bones"):  # games of several players: the setup screen asks who plays
            module = engine.get_game(args.game)
            try:
                options = module.check_options(dict(args.option))
            except ValueError as error:
                raise UsageError(str(error)) from None
            if args.daily:
                raise UsageError(f"--daily is for the troll's deal; {module.TITLE} takes --seed")
            if _missing_terminal():
                return _refuse_without_terminal(args.command)
            from tui.app import DicehallApp
            from tui.screens.games import setup_screen

            app = DicehallApp(setup=setup_screen(args.game, seed=args.seed, name=args.name, **options))
            app.run()
            return app.return_code or 0
        seed = args.seed
        name = args.name
        if args.daily:
            if args.seed is not None:
                raise UsageError("--daily and --seed do not go together: the daily deal has its own seed")
            today = datetime.now().date().isoformat()
            seed = daily_seed(args.game, today)
            name = name or f"daily {today}"
        try:  # the options are checked before anything is written
            engine.new_session(args.game, seed=0 if seed is None else seed, options=dict(args.option), dice=[])
        except ValueError as error:
            raise UsageError(str(error)) from None
        if _missing_terminal():  # the arguments first; then refused before the save is made
            return _refuse_without_terminal(args.command)
        session = saves.new_save(args.game, name=name, seed=seed, options=dict(args.option), players=saves.solo_players())
        start = {"session": session}
    elif args.command == "continue":
        name = args.save
        if name is None:
            unfinished = [i for i in saves.list_saves() if not i.finished and not i.problem]
            if not unfinished:
                return _fail("no unfinished save to continue (dicehall saves lists them)")
            name = unfinished[0].id
        session = saves.open_save(name)  # a missing or damaged save is told first
        if _missing_terminal():
            saves.close_save(session)
            return _refuse_without_terminal(args.command)
        start = {"session": session}
    elif args.command == "replay":
        import replays

        try:
            start = {"replay": _finished_hall_game(args.file) or replays.read_replay(args.file)}
        except replays.ReplayError as error:
            return _fail(f"{clean_text(args.file, 200)}: {error}")
    if _missing_terminal():
        return _refuse_without_terminal(args.command)
    from tui.app import DicehallApp

    app = DicehallApp(**start)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
