"""The commands on saves and replay files that never open a screen: `saves` (the listing and its
printer), `export`, `recover` and `verify` (a save, a replay file, or a finished hall game's id)."""
from __future__ import annotations

import argparse
import shlex
import sys
from datetime import datetime

from dicehall.cli.args import Parser, UsageError, fail
from dicehall.cli.hall import hall_game_named
from dicehall.cli.images import export_image, image_arguments, image_asked
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted


def export_arguments(parser: Parser) -> None:
    parser.add_argument("save")
    parser.add_argument("-o", "--output", metavar="FILE|FOLDER", help="the replay file, or a folder for SAVE_ID.dhr; - writes it on standard output")
    parser.add_argument("--force", action="store_true", help="replace the file if it exists")
    parser.add_argument("--text", nargs="?", const="", metavar="-",
                        help="write the text record (.dht) a person reads instead; --text - prints it")
    parser.add_argument("--analysed", action="store_true",
                        help="with --text: analyse the game first, its marks and figures written as comments")
    parser.add_argument("--markdown", action="store_true",
                        help="the journal as Markdown (the journal game): to -o FILE, else printed")
    parser.add_argument("--html", action="store_true",
                        help="the journal as a web page (the journal game): to -o FILE, else SAVE_ID.html; -o - prints it")
    image_arguments(parser)


def file_argument(parser: Parser) -> None:
    parser.add_argument("file")


def save_argument(parser: Parser) -> None:
    parser.add_argument("save")


def needs_a_file(command: str, name: str) -> None:
    if not name.strip():
        raise UsageError(f"{command} needs the name of a replay file (.dhr)")


def saves_command(args: argparse.Namespace) -> int:
    return list_saves()


def export_command(args: argparse.Namespace) -> int:
    from dicehall import saves

    if image_asked(args):
        return export_image(args, exported_session)
    if args.markdown or args.html:
        return export_document(args)
    if args.text is not None or args.analysed:
        return export_text(args)
    if args.output == "-":
        return export_to_stdout(args.save)
    try:
        if hall_game_named(args.save, save_first=True):
            from dicehall.saves.hall import Hall

            written = Hall().export(args.save, args.output, overwrite=args.force)
        else:
            written = saves.export_save(args.save, args.output, overwrite=args.force)
    except saves.ExportExists as error:
        return fail(f"{error}; add --force to replace it")
    print(f"wrote {clean_text(str(written), 300)}")
    return 0


def exported_session(name: str):
    """The session `export NAME` writes and the stem of its file's name: a finished hall game's, or a save's."""
    from dicehall import saves

    if hall_game_named(name, save_first=True):
        from dicehall.saves.hall import Hall

        return Hall().finished_session(name), f"hall-{name}"
    session = saves.load_readonly(name)
    return session, session.labels.save_id


def export_text(args: argparse.Namespace) -> int:
    """`export SAVE --text [-o FILE]`: the text record, to a file (SAVE_ID.dht by default) or with
    `--text -` (or `-o -`) to standard output."""
    import sys

    from dicehall.replays import text
    from dicehall.saves.manage import export_target

    if args.analysed and args.text is None:
        raise UsageError("--analysed goes with --text: a binary replay carries no analysis")
    if args.text not in ("", "-"):
        raise UsageError(f"--text takes nothing, or - for standard output (not {clean_text(args.text, 40)!r}): "
                         "name the file with -o FILE")
    session, stem = exported_session(args.save)
    analysis = None
    if args.analysed:
        from dicehall.engine import analysis as judged

        analysis = judged.analyse(session)  # NoAnalyser, a DicehallError: one line, from main
    if args.text == "-" or args.output == "-":
        sys.stdout.write(text.write_text(session, analysis))
        return 0
    path = export_target(args.output, f"{stem}{text.SUFFIX}")  # on a box: a name in the player's replays folder
    shown = clean_text(str(path), 300)
    try:
        text.write_text_file(session, path, overwrite=args.force, analysis=analysis)
    except FileExistsError:
        return fail(f"{shown} already exists; add --force to replace it")
    except OSError as error:
        return fail(f"cannot write {shown}: {error.strerror or type(error).__name__}")
    print(f"wrote {shown}")
    return 0


def export_to_stdout(name: str) -> int:
    """`export NAME -o -`: the replay (.dhr) on standard output, so it can leave a box over ssh
    (`ssh play@box dicehall export ID -o - > game.dhr`). Never onto a terminal: it is binary."""
    import sys

    from dicehall import replays

    if sys.stdout.isatty():
        from dicehall.saves.box import command_hint

        return fail(f"a replay is binary: send it to a file ({command_hint(f'export {shlex.quote(name)} -o -')} > game.dhr)")
    data = replays.replay_bytes(exported_session(name)[0])
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    return 0


def export_document(args: argparse.Namespace) -> int:
    """`export SAVE --markdown` or `--html`: the journal as a document a person posts or opens. The
    Markdown is printed unless -o names a file; the web page goes to SAVE_ID.html unless -o names
    one (on a box: a name in the player's replays folder); `-o -` prints either."""
    import sys

    from dicehall import saves

    if args.markdown and args.html:
        raise UsageError("--markdown or --html: one document at a time")
    if args.text is not None or args.analysed:
        raise UsageError("--text and --analysed are for the text record, not with --markdown or --html")
    kind = "markdown" if args.markdown else "html"
    session, stem = exported_session(args.save)
    if args.output == "-" or (kind == "markdown" and args.output is None):
        sys.stdout.write(saves.document_text(session, kind))
        return 0
    try:
        written = saves.write_document(session, stem, kind, args.output, overwrite=args.force)
    except saves.ExportExists as error:
        return fail(f"{error}; add --force to replace it")
    print(f"wrote {clean_text(str(written), 300)}")
    return 0


def verify_command(args: argparse.Namespace) -> int:
    from dicehall.saves.box import on_box
    from dicehall.saves.hall import is_id
    from dicehall.saves.player_files import names_record, record_file

    # on a box: a record of the player's own replays folder by name, else a hall game's id (no path is read)
    if is_id(args.file) and not names_record(args.file) if on_box() else hall_game_named(args.file, file_first=True):
        from dicehall.saves.hall import Hall

        print(Hall().verify(args.file))  # HallError: one line, from main
        return 0
    needs_a_file("verify", args.file)
    from dicehall import replays
    from dicehall.replays.text import verify_record

    try:
        print(verify_record(record_file(args.file)))
    except replays.ReplayError as error:
        return fail(f"{clean_text(args.file, 200)}: {error}")
    return 0


def recover_command(args: argparse.Namespace) -> int:
    from dicehall import saves

    try:
        new_id = saves.recover_save(args.save)
    except saves.SaveHealthy as healthy:  # nothing to do, and nothing was written
        print(clean_text(str(healthy), 400))
        return 0
    print(f"recovered into save {new_id}; the damaged file is kept")
    return 0


def saved_deal(path) -> str | None:
    """The deal code of a save, from its header alone (game, seed, options); None if it has none."""
    from dicehall import saves
    from dicehall.engine.deals import deal_code

    header = saves.read_header(path)
    try:
        if not isinstance(header, dict) or type(header.get("seed")) is not int:
            return None
        return deal_code(header["game"], header["seed"], header["options"])
    except (DicehallError, ValueError, KeyError, TypeError):
        return None  # a header the list reads as damaged says so itself


def list_saves() -> int:
    """Every save as a block of lines under a header row: when it was last played, its game and whole
    name; below them its progress (or what is wrong with it), what it branched from, and its id, the
    handle `continue`, `export` and `recover` take. Long text wraps; nothing is cut."""
    import textwrap

    from dicehall import saves

    infos = saves.list_saves(warn=lambda line: print(f"dicehall: {line}", file=sys.stderr))
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
        code = None if info.problem else saved_deal(info.path)
        print(first)
        for detail in details + ([f"deal {code}"] if code else []):  # a deal code is never broken: it is copied whole
            print(textwrap.fill(detail, 79, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False,
                                break_long_words=not detail.startswith("deal ")))
    return 0
