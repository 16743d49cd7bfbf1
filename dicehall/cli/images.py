"""`dicehall export SAVE --svg [--at N] [--graph]` (issue #32): an image to share. SAVE is what
`export` takes (a save, a finished hall game's id) or a replay or text record, as `replay` takes
it. The image is the replay viewer's screen at event N (the end by default) as a terminal of 80x24
shows it, with the marks and figures of a stored analysis if there is one; --graph draws the
analysis's graph along the game instead (analysing the game first, and storing it, if none is
stored). Written as SAVE_ID.svg (SAVE_ID-event-N.svg, SAVE_ID-graph.svg) where every export goes:
-o FILE or a folder off a box, a file name in the player's replays folder on a box, -o - printed."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dicehall.cli.args import Parser, UsageError, fail
from dicehall.engine.text import clean_text

OTHER_KINDS = ("text", "analysed", "markdown", "html")  # export's other kinds, none of which goes with --svg


def image_arguments(parser: Parser) -> None:
    parser.add_argument("--svg", action="store_true",
                        help="an image (SVG) of the replay viewer's screen at 80x24, with a stored analysis's marks")
    parser.add_argument("--at", type=int, metavar="N", help="with --svg: at event N (0 is the start; default the end)")
    parser.add_argument("--graph", action="store_true", help="with --svg: the analysis's graph and its marks instead")


def image_asked(args: argparse.Namespace) -> bool:
    return bool(args.svg or args.graph or args.at is not None)


def image_session(name: str, exported_session):
    """The session SAVE names and the stem of its image's name: a hall game's or a save's (as
    `export` takes them: `exported_session`), else a replay or text record's (as `replay` takes one)."""
    from dicehall import saves
    from dicehall.cli.hall import hall_game_named
    from dicehall.saves.player_files import names_record

    if hall_game_named(name, save_first=True) or not names_record(name):
        return exported_session(name)
    try:
        saves.find_save(name)
        return exported_session(name)  # a save of that name comes first, as for export
    except saves.SaveError:
        pass
    from dicehall.replays.text import read_record
    from dicehall.saves.player_files import record_file

    return read_record(record_file(name)), Path(name).stem


def stored_analysis(session):
    """The stored analysis of `session` if a sound one is kept (a damaged one is said in one line)."""
    from dicehall.saves.analyses import stored

    return stored(session, warn=lambda line: print(f"dicehall: {line.removesuffix('; analysing again')}; "
                                                   "the image has no analysis", file=sys.stderr))


def graph_analysis(session):
    """The analysis --graph draws: the stored one, else one made now (and stored, as `analyse` does)."""
    from dicehall.engine import analysis
    from dicehall.saves.analyses import analyse_stored

    if not analysis.has_analyser(session.game.ID):
        raise UsageError(f"{session.game.TITLE} has no analysis yet: --graph draws a game's analysis")
    found = stored_analysis(session)
    if found is not None:
        return found
    print("analysing the game for its graph (kept for next time)...", file=sys.stderr)
    return analyse_stored(session, warn=lambda line: print(f"dicehall: {line}", file=sys.stderr))


def export_image(args: argparse.Namespace, exported_session) -> int:
    """`exported_session`: export's own reading of SAVE (cli/files.py), a save's or a hall game's."""
    from dicehall import replays, saves

    if not args.svg:
        raise UsageError("--at and --graph go with --svg")
    given = [f"--{kind}" for kind in OTHER_KINDS if getattr(args, kind) not in (None, False)]
    if given:
        raise UsageError(f"--svg is an export of its own: not with {' or '.join(given)}")
    try:
        session, stem = image_session(args.save, exported_session)
    except replays.ReplayError as error:
        return fail(f"{clean_text(args.save, 200)}: {error}")
    total = len(session.events)
    if args.at is not None and not 0 <= args.at <= total:
        raise UsageError(f"--at {args.at}: this game has events 0 (the start) to {total}")
    position = total if args.at is None else args.at
    path = None
    if args.output != "-":  # where it goes is checked before it is drawn
        from dicehall.saves.images import image_name, image_target

        try:
            path = image_target(args.output, image_name(stem, args.at, args.graph), args.force)
        except saves.ExportExists as error:
            return fail(f"{error}; add --force to replace it")
    from dicehall.tui import images

    if args.graph:
        svg = images.graph_svg(session, graph_analysis(session), position)
    else:
        svg = images.viewer_svg(session, position, stored_analysis(session))
    if path is None:
        sys.stdout.write(svg)
        return 0
    from dicehall.saves.images import write_image

    try:
        write_image(svg, path, overwrite=args.force)
    except saves.ExportExists as error:
        return fail(f"{error}; add --force to replace it")
    print(f"wrote {clean_text(str(path), 300)}")
    return 0
