"""Images to share (issue #32) as files. `export --svg` writes where every export goes
(saves.manage.export_target: on a box a file name in the player's replays folder, never a path);
the viewer's key writes under a free name of the player's replays folder, on a box and off it
alike, and never replaces a file. The SVG itself is drawn by the TUI (tui/svg.py, tui/images.py)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from dicehall.durable import write_new_file
from dicehall.saves.errors import ExportExists, SaveError
from dicehall.saves.files import replays_dir, shown_path
from dicehall.saves.manage import export_target, writing_export

SUFFIX = ".svg"
STEM_LIMIT = 50  # with -graph-event-N-999.svg, within a box's longest file name (player_files.MAX_FILE_NAME)
MAX_NUMBER = 999  # STEM-2.svg ... STEM-999.svg: beyond, the player has a folder to tidy


def image_name(name: str, position: int | None = None, graph: bool = False) -> str:
    """An image's file name from a game's name (a save's id, a file's stem; only letters, digits,
    _ and - are kept, so it is a file name on a box too): NAME.svg at the end, NAME-event-N.svg at
    event N, NAME-graph.svg for the graph."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:STEM_LIMIT] or "game"
    return f"{stem}{'-graph' if graph else ''}{'' if position is None else f'-event-{position}'}{SUFFIX}"


def image_target(target: str | Path | None, default: str, overwrite: bool) -> Path:
    """Where `export --svg` writes, found before the image is drawn (export_target: a file, a
    folder's `default`, or `default` in the current folder; on a box a name in the replays folder,
    NotAFileName for anything else); ExportExists for a file already there unless `overwrite`."""
    path = export_target(target, default)
    if not overwrite and os.path.lexists(path):
        raise ExportExists(f"{shown_path(path)} already exists", path)
    return path


def write_image(svg: str, path: Path, overwrite: bool) -> None:
    """`svg` written durably as `path`: ExportExists for a file already there unless `overwrite`,
    SaveError for any other failure, one line each."""
    with writing_export(path):
        write_new_file(path, svg.encode("utf-8"), overwrite=overwrite)


def write_new_image(svg: str, name: str) -> Path:
    """The viewer's key: `svg` as `name` in the player's replays folder, or NAME-2.svg, NAME-3.svg,
    ... while that is taken. A file (or a link) already there is never replaced nor written through."""
    folder = replays_dir()
    stem = name.removesuffix(SUFFIX)
    for number in range(1, MAX_NUMBER + 1):
        path = folder / (name if number == 1 else f"{stem}-{number}{SUFFIX}")
        try:
            write_image(svg, path, overwrite=False)
        except ExportExists:
            continue
        return path
    raise SaveError(f"{name} and {MAX_NUMBER - 1} more of its names are taken in your replays folder")
