"""The hall's commands: `hall` (the listing and its printer), `host`, `join` and `watch`. On a
terminal, host and join open the game's screen; otherwise they print the game's id and the seat
taken and leave (the seat then shows as disconnected, and `join ID` with the same name takes it
back). watch opens the live viewer on a terminal; elsewhere it prints each event as it is played."""
from __future__ import annotations

import argparse
import os
import signal
from datetime import datetime

import dicehall.cli.terminal as terminal
from dicehall.cli.args import Parser, UsageError, game, game_options, hall_seat, option, positive
from dicehall.engine.errors import DeckError, RulingError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted


def hall_arguments(parser: Parser) -> None:
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--scores", action="store_true",
                        help="per player name and game, from the finished games: games, wins, win %%, best result")


def host_arguments(parser: Parser) -> None:
    parser.add_argument("game")
    parser.add_argument("--players", type=positive, help="how many seats (Dead Man's Wager: 2 to 6; default 2)")
    parser.add_argument("--seat", type=hall_seat, action="append", default=[], metavar="N=open|bot[:STYLE]",
                        help="seat N left open for another player (the default) or given to a bot; you take the first "
                             "seat not named")
    parser.add_argument("--name", default="", help="your name at the table (default: your login name)")
    parser.add_argument("--option", type=option, action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--watchers", choices=("open", "quiet", "none"), default="open",  # saves.hall WATCHER_POLICIES
                        help="open: anyone may watch and write messages (the default); quiet: watchers read the "
                             "messages but write none; none: nobody watches until the game is over")


def join_arguments(parser: Parser) -> None:
    parser.add_argument("id")
    parser.add_argument("--seat", type=positive, metavar="N", help="the seat (from 1); default: your own, else the first open")
    parser.add_argument("--name", default="", help="your name at the table (default: your login name)")


def watch_arguments(parser: Parser) -> None:
    parser.add_argument("id")
    parser.add_argument("--follow", action="store_true",
                        help="off a terminal: after the moves so far, print each new one until the game is over")


def hall_command(args: argparse.Namespace) -> int:
    from dicehall.saves.hall import Hall

    if args.scores:
        return list_scores(Hall(), args.json)
    return list_hall(Hall(), args.json)


def host_command(args: argparse.Namespace) -> int:
    from dicehall.saves.hall import Hall

    hall = Hall()
    module = game(args.game)
    from dicehall.engine.games import entry_of

    seats = entry_of(module.ID).seats  # (fewest, most); a game of more than one size takes --players
    count = seats[0] if seats[0] == seats[1] else args.players or seats[0]
    if args.players is not None and seats[0] == seats[1]:
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
    from dicehall.saves.decks import deck_options

    try:
        options = deck_options(module.ID, game_options(module.ID, args.option))  # a deck named: read here, never by the rules
        hosted = hall.host(args.game, kinds, player_name(args.name), options=options, watchers=args.watchers)
    except (DeckError, RulingError):
        raise  # a deck's file or a ruling, not the command's arguments: its one line, without the usage
    except ValueError as error:
        raise UsageError(str(error)) from None
    if terminal.on_terminal():
        return play_in_hall(hosted)
    from dicehall.saves.box import JOIN_KEY, command_hint

    assert hosted.seat is not None  # a host takes a seat
    with hosted:
        print(f"hosted {hosted.module.TITLE} as {hosted.id} {hall.in_the_hall()}; "
              f"you hold seat {hosted.seat + 1} as {clean_text(hosted.fold.seats[hosted.seat].name)}")
        print(f"seats: {seat_words(hosted.seats())}; others join with: {command_hint(f'join {hosted.id}', key=JOIN_KEY)}")
    return 0


def join_command(args: argparse.Namespace) -> int:
    from dicehall.saves.hall import Hall, check_id

    joined = Hall().join(check_id(args.id), None if args.seat is None else args.seat - 1, player_name(args.name))
    if terminal.on_terminal():
        return play_in_hall(joined)
    assert joined.seat is not None  # a joiner takes a seat
    with joined:
        print(f"joined {joined.module.TITLE} {joined.id}: you hold seat {joined.seat + 1} as "
              f"{clean_text(joined.fold.seats[joined.seat].name)}; seats: {seat_words(joined.seats())}")
    return 0


def watch_command(args: argparse.Namespace) -> int:
    from dicehall.saves.hall import Hall, check_id

    hall = Hall()
    if terminal.on_terminal():
        return watch_app(hall, check_id(args.id))
    return watch_lines(hall, check_id(args.id), args.follow)


def player_name(given: str) -> str:
    from dicehall.saves.hall import login_name

    return given or login_name()


def watch_app(hall, game_id: str) -> int:
    """On a terminal: the replay viewer, live on a game in progress, or a finished game as a replay."""
    watched = hall.watch(game_id)  # a missing or damaged game: one line, before the screen opens
    start = {"watch": watched}
    if watched.finished:
        watched.close()
        start = {"replay": hall.finished_session(game_id)}
    from dicehall.tui.app import DicehallApp

    app = DicehallApp(**start)
    app.run()
    return app.return_code or 0


def play_in_hall(hall_game) -> int:
    """Open the hall game's screen (the app follows the log and releases the seat when it ends)."""
    from dicehall.tui.app import DicehallApp

    try:
        app = DicehallApp(hall_game=hall_game)
        app.run()
    finally:
        hall_game.close()  # already closed by the app, unless it never started
    return app.return_code or 0


def seat_words(views) -> str:
    return ", ".join(clean_text(view.words(), 60) for view in views)


def watch_lines(hall, game_id: str, follow: bool = False) -> int:
    """A hall game off a terminal, one line per event and one per message said in it (as "say: Ann:
    hi"): what has happened so far, then (`follow`) each new one until the game ends, the reader of a
    pipe goes away, ctrl+c, or the session that started it ends (a hang-up, its parent gone, its
    terminal closed: exit 129). Without `follow` it never waits, so `dicehall watch ID > file` and
    `ssh -T box dicehall watch ID` end at once."""
    from dicehall.saves.box import command_hint
    from dicehall.saves.hall.rating_change import change_at_end

    link = terminal.SessionEnd()  # its parent noted before the watcher's mark says it watches: a
    watched = hall.watch(game_id)  # parent killed once the mark is seen is always a parent gone
    chat = watched.chat()
    shown, told = 0, set()
    with watched, link:
        print(f"watching {watched.module.TITLE} {watched.id}: {seat_words(watched.seats())}", flush=True)
        settings_problem(hall)
        while True:
            while True:  # every message so far, a slice of each file at a time (bounded memory)
                for message in chat.follow():
                    print(clean_text(f"say: {message.words()}", 300), flush=True)
                if not chat.behind:
                    break
            for problem in [p for p in chat.problems.values() if p not in told]:  # said once; the game goes on
                told.add(problem)
                print(clean_text(f"messages: {problem}", 300), flush=True)
            session = watched.session
            if session is not None:
                events = session.events
                if len(events) < shown:  # a takeback
                    print(f"(taken back to event {len(events)})", flush=True)
                    shown = len(events)
                for n in range(shown, len(events)):
                    print(clean_text(f"{n + 1:>4}  {session.describe(n, reveal=False)}", 200), flush=True)
                shown = len(events)
            if watched.finished:
                rated = change_at_end(watched) if watched.fold.revealed is not None else ""
                rated = f"; {clean_text(rated, 300)}" if rated else ""  # as the players' screens say it at the end
                print(clean_text(f"over: {watched.fold.result}", 200) + rated)  # still one line: the last
                return 0
            if not follow:
                print(f"in progress: {command_hint(f'watch {watched.id} --follow')} prints each move until it is over")
                return 0
            ended = link.why()  # a pipe whose reader left while nothing was played: no write would tell
            if ended is not None:
                return 0 if ended == "output" else 128 + signal.SIGHUP  # the reader's choice; else as a hang-up
            if watched.wait(1.0):
                watched.follow()


def list_hall(hall, as_json: bool) -> int:
    """The hall's games under a header row; a file that is not a good game is one line."""
    import json

    from dicehall.saves.hall.match_book import MatchBook
    from dicehall.saves.hall.news import latest_news

    entries = hall.listing()
    MatchBook(hall).note(entries)  # a match's game: its running score
    settings = hall.settings()
    if as_json:
        print(json.dumps({"hall": hall.shown(), "news": latest_news(hall, entries), "motd": settings.motd, "settings_problem": settings.problem,
                          "games": [entry.as_json() for entry in entries]}, indent=1))
        return 0
    if settings.motd:  # cleaned and cut when read: never a file's escape on the terminal
        print(f"{settings.motd}\n")
    settings_problem(hall, settings)
    loose = hall.folder_warnings()
    if loose:
        print(loose)
    if not entries:
        from dicehall.saves.box import NEW_GAME_KEY, command_hint

        print(f"no games {hall.in_the_hall()} ({command_hint('host GAME', key=NEW_GAME_KEY)} opens one)")
        return 0
    print(f"{counted(len(entries), 'game')} {hall.in_the_hall()}, the latest move first")
    news = latest_news(hall, entries)  # as the lobby's news line says it, text cleaned of any escape
    print(f"{clean_text(news, 300)}\n" if news else "")
    print(f"{'ID':<6}  {'GAME':<10}  {'MOVES':>5}  {'WATCH':>5}  {'LAST MOVE':<16}  SEATS")
    for entry in entries:  # every field is cleaned already; cleaned again so no file reaches the terminal
        if entry.problem:
            print(f"{clean_text(entry.id, 6):<6}  DAMAGED: {clean_text(entry.problem, 300)}")
            continue
        when = datetime.fromtimestamp(entry.last_move).strftime("%Y-%m-%d %H:%M") if entry.last_move else "-"
        state = f"over: {clean_text(entry.result, 100)}" if entry.finished else f"in progress: {clean_text(entry.progress, 100)}"
        if entry.watching_words() and not entry.finished:
            state += f"; {entry.watching_words()}"
        copies = f"; {entry.copies_said()}" if entry.copies else ""
        copies += f"; {clean_text(entry.match, 200)}" if entry.match else ""
        print(f"{entry.id:<6}  {clean_text(entry.game, 10):<10}  {entry.moves:>5}  {entry.watchers:>5}  {when:<16}  "
              f"{seat_words(entry.seats)}; {state}{copies}")
    return 0


def settings_problem(hall, settings=None) -> None:
    """Print why the admin's hall.toml was ignored, or what in it was, if anything: one line."""
    problem = (settings or hall.settings()).problem
    if problem:
        print(clean_text(problem, 300), flush=True)


def list_scores(hall, as_json: bool) -> int:
    """The hall's scores, a line per player and game under a header row (saves/hall/scores.py)."""
    import json

    from dicehall.saves.hall import hall_scores

    found = hall_scores(hall)
    if as_json:
        print(json.dumps({"hall": hall.shown(), "settings_problem": hall.settings().problem, **found.as_json()}, indent=1))
        return 0
    settings_problem(hall)
    left_out = found.left_out()
    print(f"scores from {counted(found.counted, 'finished game')} {hall.in_the_hall()}"
          + (f" (not counted: {left_out})" if left_out else ""))
    print(f"{found.names_note}; bots' seats are not counted\n")
    if not found.scores:
        print("no finished game with a person seated yet")
        return 0
    print(f"{'GAME':<10}  {'PLAYER':<20}  {'GAMES':>5}  {'WINS':>5}  {'WIN %':>5}  BEST")
    for score in found.scores:  # names come from other players' files: cleaned again, cut to the column
        best = clean_text(score.best.words, 60) if score.best is not None else "-"
        print(f"{clean_text(score.game, 10):<10}  {clean_text(score.player, 20):<20}  {score.games:>5}  "
              f"{score.wins:>5}  {score.win_percent:>4}%  {best}")
    return 0


def hall_game_named(name: str, file_first: bool = False, save_first: bool = False) -> bool:
    """Whether `verify NAME`, `replay NAME`, `export NAME` or `analyse NAME` means a hall game: NAME
    is a hall game's id, names no file (verify, replay, analyse) or save (export, analyse) of that
    name, and the hall holds that game."""
    from dicehall.saves.hall import LOG_SUFFIX, Hall, is_id

    if not is_id(name):
        return False
    if file_first:
        from dicehall.saves.player_files import names_record

        if names_record(name):  # on a box: a file of the player's replays folder
            return False
    if save_first:
        from dicehall import saves

        try:
            saves.find_save(name)
            return False
        except saves.SaveError:
            pass
    return os.path.lexists(Hall().games / f"{name}{LOG_SUFFIX}")


def finished_hall_game(name: str):
    """`replay NAME`: the finished hall game NAME as a replay's session when NAME is a hall game's id
    and no file has that name, else None; HallError (not over, never revealed) is one line, from main."""
    if not hall_game_named(name, file_first=True):
        return None
    from dicehall.saves.hall import Hall

    return Hall().finished_session(name)
