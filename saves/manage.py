"""What is done to a save as a whole: export it as a replay, recover its good part, rename it,
branch a new save from a point of it."""
from __future__ import annotations

import os
import shlex
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

from dicehall import engine
from dicehall.durable import write_all, write_durably, write_new_file
from dicehall.engine.session import Session
from dicehall.engine.text import NAME_LIMIT, clean_text
from dicehall.saves.box import SAVES_KEY, command_hint
from dicehall.saves.box import on_box
from dicehall.saves.comments import comment_record
from dicehall.saves.errors import ExportExists, SaveDamaged, SaveError, SaveHealthy, os_reason
from dicehall.saves.files import (create_file, fsync_dir, lock, names_in_use, read_header, save_label, saves_dir, scanning,
                         short_name, shown_path, slug)
from dicehall.saves.framing import FRAME, MAGIC, READ_CHUNK, SUFFIX, encode_record, frame
from dicehall.saves.index import find_save
from dicehall.saves.player_files import export_path
from dicehall.saves.rebuild import build_session, save_name_of
from dicehall.saves.store import SaveJournal, load_readonly, new_header


def export_save(name_or_id: str, target: str | Path | None = None, overwrite: bool = False) -> Path:
    """Write a save as a replay file (.dhr) and return its path.

    `target` may be a file or a folder (then the file is `<folder>/<save id>.dhr`); without it, the
    current folder. An existing file is never replaced unless `overwrite` is true: ExportExists
    (a SaveError whose `path` names the file) is raised instead, so the caller can ask first.
    Other failures raise SaveError with one line; no temporary file is left behind."""
    session = load_readonly(name_or_id)
    return write_export(session, session.labels.save_id, target, overwrite)


def write_export(session: Session, stem: str, target: str | Path | None, overwrite: bool) -> Path:
    """Write `session` as a replay to `target` (a file, or a folder: `<folder>/<stem>.dhr`; none: the
    current folder); ExportExists for a file already there unless `overwrite`, SaveError otherwise."""
    from dicehall import replays

    path = export_target(target, f"{stem}{replays.SUFFIX}")
    with writing_export(path):
        replays.write_replay(session, path, overwrite=overwrite)
    return path


# a document a person reads, as the option names it: (the game's hook that writes it, its file's suffix)
DOCUMENTS = {"markdown": ("markdown", ".md"), "html": ("html_page", ".html")}


def document_text(session: Session, kind: str) -> str:
    """`session`'s game as a document (`kind`: markdown, html), by its game's hook; SaveError in one
    line for a game that writes none."""
    hook = getattr(session.game, DOCUMENTS[kind][0], None)
    if hook is None:
        raise SaveError(f"{session.game.TITLE} keeps no journal: --{kind} is for games that write one")
    return hook(session)


def write_document(session: Session, stem: str, kind: str, target: str | Path | None, overwrite: bool) -> Path:
    """Write `session` as a document (document_text) to `target`, as write_export writes a replay
    (a folder or none: `<stem>.md` or `<stem>.html`)."""
    text = document_text(session, kind)
    path = export_target(target, stem + DOCUMENTS[kind][1])
    with writing_export(path):
        write_new_file(path, text.encode(), overwrite=overwrite)
    return path


@contextmanager
def writing_export(path: Path):
    """An export's failures in one line: ExportExists for a file already there, SaveError otherwise."""
    try:
        yield
    except FileExistsError:
        raise ExportExists(f"{shown_path(path)} already exists", path) from None
    except OSError as error:
        raise SaveError(f"cannot write {shown_path(path)}: {error.strerror or type(error).__name__}") from None


def export_target(target: str | Path | None, default: str) -> Path:
    """Where an export named `target` is written. On a box: the player's replays folder, by a file
    name (never a path: saves.player_files); off a box: the path given, a folder's `default` file,
    or `default` in the current folder."""
    if on_box():
        return export_path(os.fspath(target) if target else None, default)
    path = Path(target) if target else Path.cwd() / default
    return path / default if path.is_dir() else path


def recover_save(name_or_id: str) -> str:
    """Copy the good records of a damaged save into a new save; the damaged file is kept. Returns the
    new id. A save with nothing wrong raises SaveHealthy and nothing is written. The file is read
    twice, a record at a time: once to find where the good part ends, once to copy it."""
    path = find_save(name_or_id)
    shown = save_label(path)
    with scanning(path, shown) as scan:
        good = None  # how many records after the header to copy; None: all that can be read
        try:
            build_session(scan, shown)
        except SaveDamaged as error:
            good = error.good_records
        header = scan.header
        if good is None and not scan.damage and not scan.torn:
            raise SaveHealthy(f"{shown} is not damaged: nothing to recover ({command_hint(f'continue {shlex.quote(shown)}', key=SAVES_KEY)} opens it)")
    folder = saves_dir()
    header = dict(header, name=clean_text(f"{save_name_of(header, shown)} (recovered)"))
    base = slug(shown) if shown != path.stem else shown  # a file name with control characters is not copied
    for attempt in range(1000):
        new_path = folder / f"{base}-recovered{f'-{attempt + 1}' if attempt else ''}{SUFFIX}"
        try:
            fd = os.open(new_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise SaveError(f"{shown}: no free file name for the recovered save")
    try:
        with scanning(path, shown) as scan:
            chunk = bytearray(MAGIC + frame(header))
            for index, record in enumerate(scan.records):
                if good is not None and index >= good:
                    break
                chunk += frame(record)
                if len(chunk) >= READ_CHUNK:
                    write_all(fd, chunk)
                    chunk.clear()
            write_durably(fd, chunk)
    except BaseException as error:
        os.close(fd)
        new_path.unlink(missing_ok=True)  # never leave half a save behind
        if isinstance(error, OSError):
            raise SaveError(f"could not write the recovered save ({os_reason(error)}); nothing was written") from None
        raise
    os.close(fd)
    fsync_dir(folder)
    return new_path.stem


def rename_save(name_or_id: str, new_name: str) -> str:
    """Give a save a new name and return it. The file keeps its id; only the header changes, written
    with the same records into a new file that replaces the old one at once (never half a save).
    Refused while another dicehall plays it, for an empty name, and for a name another save has."""
    path = find_save(name_or_id)
    new_name = short_name(new_name)
    if not new_name:
        raise SaveError("a save needs a name")
    if new_name in names_in_use(besides=path):
        raise SaveError(f"another save is named {new_name!r} already")
    fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
    lock(fd, path)  # never rename under another dicehall's feet
    try:
        header = read_header(path)
        if header is None:
            raise SaveError(f"{save_label(path)}: the header is damaged or missing")
        temporary = path.with_name(path.name + ".renaming")
        out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)  # never through a link
        try:
            try:
                with open(path, "rb") as source:  # every record after the header, byte for byte, a chunk at a time
                    source.seek(len(MAGIC))
                    length = FRAME.unpack(source.read(FRAME.size))[0]
                    source.seek(length, os.SEEK_CUR)
                    write_all(out, MAGIC + frame(dict(header, name=new_name)))
                    while chunk := source.read(READ_CHUNK):
                        write_all(out, chunk)
                os.fsync(out)
            finally:
                os.close(out)
            os.replace(temporary, path)
        except BaseException as error:
            temporary.unlink(missing_ok=True)  # never leave half a save behind
            if isinstance(error, OSError):
                raise SaveError(f"{save_label(path)}: not renamed ({os_reason(error)}); the save is as it was") from None
            raise
        fsync_dir(path.parent)
    finally:
        os.close(fd)
    return new_name


def branch_save(session: Session, upto: int, name: str = "") -> Session:
    """A new save that replays `session`'s first `upto` events, ready to be played on from there.
    Its header names the save it branched from (`branch_of`), so the saves list can say so.

    The branch is played through the rules in memory, gathering the records a played game would
    have written, and the whole file is then written at once: linear in the events kept, one
    durable write, and no file at all if that write fails."""
    parent = session.labels.save_name or session.game.TITLE
    branch_of = {"name": parent, "event": upto}
    if session.labels.save_id:
        branch_of["save"] = session.labels.save_id
    header, probe = new_header(session.game.ID, name or f"{parent[: NAME_LIMIT - 9]} (branch)", session.seed,
                                session.options, list(session.players), branch_of)
    records: list[dict] = []  # a list is a journal: the session appends each record to it
    new = engine.new_session(session.game.ID, seed=session.seed, options=probe.options, players=probe.players, dice=[],
                             journal=records)
    engine.replay_upto(session, new, session.settle(upto))  # settle: never cut an action from its own consequences
    kept = {n: text for n, text in session.labels.comments.items() if n <= len(new.events)}  # the comments up to there go along
    records.extend(comment_record(n, text) for n, text in kept.items())
    data = b"".join([MAGIC, frame(header), *(frame(encode_record(record)) for record in records)])
    path, fd = create_file(header["name"], data, "make the branch")
    new.journal = SaveJournal(path, fd)
    new.labels.save_name = header["name"]
    new.labels.save_id = path.stem
    new.labels.comments = MappingProxyType(kept)
    return new
