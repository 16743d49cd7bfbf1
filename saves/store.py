"""Playing on a save: a new one, opening one (locked, checked, a torn tail cut off), its durable
journal, closing, deleting, and reading one without a lock."""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from dicehall import engine
from dicehall.durable import open_regular, write_durably
from dicehall.engine.comments import with_notice
from dicehall.engine.session import Session
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves.errors import SaveDamaged, SaveError, SaveWriteFailed, os_reason
from dicehall.saves.files import (create_file, default_name, distinct_name, keep_torn, lock, recover_hint, save_label,
                         scanning, short_name)
from dicehall.saves.framing import FORMAT, MAGIC, encode_record, frame
from dicehall.saves.index import find_save
from dicehall.saves.rebuild import build_session



class SaveJournal:
    """The open, locked file a session appends to; every append is fsync'd before it returns.

    An append that fails (a full disk) cuts the file back to its last whole record and raises
    SaveWriteFailed before the session changes, so no fragment is left for later records to land
    after, and play goes on once the disk has room."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd = fd
        self.size = os.fstat(fd).st_size  # the end of the last whole record

    def append(self, record: dict) -> None:
        label = save_label(self.path)
        if self.fd < 0:  # a JournalError, so a game screen says it in one line
            raise SaveWriteFailed(f"save {label} is closed: leave the game and continue it", "save closed")
        data = frame(encode_record(record))
        try:
            write_durably(self.fd, data)
        except OSError as error:
            reason = os_reason(error)
            try:
                os.ftruncate(self.fd, self.size)
                os.fsync(self.fd)
            except OSError:
                self.close()  # never append after a fragment; reopening the save cuts its end off
                raise SaveWriteFailed(f"{reason}: nothing was saved or changed; leave, make room, continue {label}",
                                      reason) from None
            raise SaveWriteFailed(f"{reason}: nothing was saved or changed; make room and try again", reason) from None
        self.size += len(data)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = -1


def new_save(
    game: str,
    *,
    name: str = "",
    seed: int | None = None,
    options: dict | None = None,
    players: list | None = None,
    dice: list[int] | None = None,
    branch_of: dict | None = None,
) -> Session:
    """Create a save and return its session; every event played on it is appended durably.
    Without a name it is named after its players or options; a name another save has gets a number."""
    header, probe = new_header(game, name, seed, options, players, branch_of)
    path, fd = create_file(header["name"], MAGIC + frame(header), "create the save")
    try:
        journal = SaveJournal(path, fd)
        session = engine.new_session(game, seed=header["seed"], options=probe.options, players=probe.players, dice=dice,
                                     journal=journal)
    except (OSError, SaveError) as error:  # a full disk: leave no empty or half-written save behind
        os.close(fd)
        path.unlink(missing_ok=True)
        reason = os_reason(error) if isinstance(error, OSError) else getattr(error, "reason", str(error))
        raise SaveError(f"could not create the save ({reason}); no file was left behind") from None
    session.labels.save_name = header["name"]
    session.labels.save_id = path.stem
    return session


def new_header(game: str, name: str, seed: int | None, options: dict | None, players: list | None,
                branch_of: dict | None) -> tuple[dict, Session]:
    """A new save's header, with its name made distinct, and a probe session holding the checked
    options and players."""
    module = engine.get_game(game)
    seed = engine.new_seed() if seed is None else int(seed)
    probe = engine.new_session(game, seed=seed, options=options, players=players, dice=[])
    header = {
        "format": FORMAT,
        "dicehall": engine.VERSION,
        "game": game,
        "rules": module.RULES_VERSION,
        "seed": seed,
        "options": probe.options,
        "players": [p.record() for p in probe.players],
        "name": distinct_name(short_name(name) or default_name(module, probe.options, probe.players)),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if branch_of:
        header["branch_of"] = branch_of
    return header, probe


def open_save(name_or_id: str) -> Session:
    """Open a save to play on: locked, checked, a torn last record cut off (with `session.labels.notice`)
    after its bytes are copied to `<save>.dhs.torn`."""
    path = find_save(name_or_id)
    shown = save_label(path)
    try:
        fd = open_regular(path, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW)  # a link named like a save is refused, never written through
    except OSError as error:
        raise SaveError(f"{shown}: cannot open it ({os_reason(error)})") from None
    lock(fd, path)
    try:
        with scanning(path, shown) as scan:
            try:
                session = build_session(scan, shown)
            except SaveDamaged as error:
                raise SaveDamaged(f"{error}; {recover_hint(shown)}", error.good_records) from None
            if scan.damage:
                raise SaveDamaged(f"{shown}: {scan.damage}; {recover_hint(shown)}", scan.index - 1)
        notice = None
        if scan.torn:
            try:
                aside = keep_torn(path, os.pread(fd, scan.size - scan.good_end, scan.good_end))
                os.ftruncate(fd, scan.good_end)
                os.fsync(fd)
            except OSError as error:
                raise SaveError(f"{shown}: its last record was cut off while writing, and the cut-off bytes could not be "
                                f"kept aside ({os_reason(error)}); the file is left as it is") from None
            notice = (f"the last record of {shown} was cut off while writing ({counted(scan.size - scan.good_end, 'byte')}); "
                      f"it was removed, and its bytes kept in {clean_text(aside.name, 160)}")
    except BaseException:
        os.close(fd)
        raise
    session.journal = SaveJournal(path, fd)
    session.resume_seeded(resolve_pending=False)
    session.labels.save_id = shown
    session.labels.notice = with_notice(notice, session.labels.notice)  # the torn record's, and any comment cut to fit
    return session


def close_save(session: Session) -> None:
    journal = session.journal
    if isinstance(journal, SaveJournal):
        journal.close()


def delete_save(name_or_id: str) -> None:
    path = find_save(name_or_id)
    fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
    lock(fd, path)  # never delete a save another dicehall is playing
    try:
        path.unlink()
    finally:
        os.close(fd)


def load_readonly(name_or_id: str) -> Session:
    """The session of a save, for exporting or viewing, without locking or changing the file."""
    path = find_save(name_or_id)
    shown = save_label(path)
    with scanning(path, shown) as scan:
        session = build_session(scan, shown)
        if scan.damage:
            raise SaveDamaged(f"{shown}: {scan.damage}", scan.index - 1)
    session.labels.save_id = shown
    session.journal = ViewedSave(path)  # a comment written in its viewer goes to the save; a move never
    return session


class ViewedSave:
    """The journal of a save viewed, not played (load_readonly): it takes a player's comment and an
    assist asked in the viewer, and nothing else. Each append locks the save (refused while another
    dicehall plays it), reads its records again and checks that the event commented on is still
    there (it may have been played on, or undone, since it was read), gives an assist the save's
    length as it is now, then appends durably."""

    def __init__(self, path: Path):
        self.path = path

    def append(self, record: dict) -> None:
        shown = save_label(self.path)
        if record.get("op") not in ("comment", "assist"):  # a JournalError: said in one line, the session unchanged
            raise SaveWriteFailed(f"{shown} is open to view only: continue it to play", "view only")
        try:
            fd = open_regular(self.path, os.O_RDWR | os.O_APPEND)
        except OSError as error:
            raise SaveError(f"{shown}: cannot open it to write the {record['op']} ({os_reason(error)})") from None
        lock(fd, self.path)  # closes fd and raises SaveInUse while another dicehall holds it
        journal = SaveJournal(self.path, fd)  # closing it closes fd and releases the lock
        try:
            with scanning(self.path, shown) as scan:
                session = build_session(scan, shown)
                if scan.damage or scan.torn:
                    raise SaveError(f"{shown}: the save is damaged at its end; the {record['op']} was not written")
            if record["op"] == "assist":
                record = dict(record, at=len(session.events))  # another dicehall may have played on since
            elif record["event"] > len(session.events):
                raise SaveError(f"{shown} has only {len(session.events)} events now; the comment was not written")
            journal.append(record)
        finally:
            journal.close()
