"""The admin's settings (hall.toml in the hall folder), trusted only from the admin.

Any member of the hall's group can make files in the hall folder, so hall.toml is read only when it
is a regular file (no link, no FIFO, one name), owned by root or by the hall folder's owner, and
writable by its owner alone; anything else, and a file that cannot be read (not UTF-8, not TOML,
nested too deep, too big, a setting of the wrong type), gives the defaults for what it could not
give and one line (`problem`) saying why, never a traceback. Nothing of a refused file's text is
ever shown: a problem names the file, the setting or the line."""
from __future__ import annotations

import errno
import os
import re
import stat
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

from dicehall.engine.text import clean_text
from dicehall.saves.errors import os_reason
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import MAX_IDLE_MINUTES, SETTINGS
from dicehall.saves.hall.fold import is_int

MAX_SETTINGS = 64 * 1024  # bytes: far above any real settings file
MOTD_LINES = 3  # the message of the day's lines in the lobby, at most
MOTD_WIDTH = 76  # and their width (inside the lobby's frame at 80 columns)
MAX_BARRED_NAME = 40  # a seat name's length in the hall
KNOWN = ("idle_minutes", "motd", "barred")
KEY_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")  # as `ssh-keygen -lf KEY.pub` prints it


@dataclass(frozen=True)
class HallSettings:
    idle_minutes: int | None = None  # a seat idle on its turn that long may be handed over; None: off
    motd: str = ""  # the message of the day: plain text, at most MOTD_LINES lines of MOTD_WIDTH
    barred: frozenset[str] = frozenset()  # the names the admin refuses, casefolded
    problem: str | None = None  # why the file was ignored, or what in it was, in one line
    barred_keys: frozenset[str] = frozenset()  # the keys the admin refuses, by fingerprint ("SHA256:...")


def read_settings(folder: str | Path) -> HallSettings:
    """The settings in `folder`/hall.toml; the defaults when there is none (no problem), or when it
    cannot be trusted or read (with the problem)."""
    try:
        text = _trusted_text(Path(folder))
    except _Ignored as ignored:
        return HallSettings(problem=f"{SETTINGS}: {ignored}: ignored")
    if text is None:
        return HallSettings()
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line ([0-9]+)", str(error))  # tomllib's words may quote the file: only its line
        return HallSettings(problem=f"{SETTINGS}: not valid TOML{f' (line {line[1]})' if line else ''}: ignored")
    except RecursionError:  # arrays or tables nested hundreds deep
        return HallSettings(problem=f"{SETTINGS}: nested too deep to read: ignored")
    except Exception as error:  # the boundary of a file the lobby reads every second: never a traceback
        return HallSettings(problem=f"{SETTINGS}: cannot be read ({type(error).__name__}): ignored")
    return _settings_of(table)


class _Ignored(HallError):
    """Why hall.toml is not read (its words, without the file's name); caught in read_settings."""


def _trusted_text(folder: Path) -> str | None:
    """hall.toml's text if the admin's, None if there is none; _Ignored says why it is not read."""
    try:
        top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None  # no hall yet (or none readable: the listing says so): nothing to read
    try:
        try:
            owner = os.fstat(top).st_uid
            fd = os.open(SETTINGS, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=top)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _Ignored("a symbolic link" if error.errno == errno.ELOOP
                           else f"cannot be read ({os_reason(error).lower()})") from None
    finally:
        os.close(top)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Ignored("not a regular file")
        if info.st_uid not in (0, owner):
            raise _Ignored(f"owned by uid {info.st_uid}, not the hall's owner")
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise _Ignored("writable by others than its owner")
        if info.st_nlink != 1:  # another name of one of the admin's files, linked in by a member
            raise _Ignored("a file with another name too")
        if info.st_size > MAX_SETTINGS:
            raise _Ignored(f"larger than {MAX_SETTINGS // 1024} KiB")
        data = os.read(fd, MAX_SETTINGS + 1)
    except OSError as error:
        raise _Ignored(f"cannot be read ({os_reason(error).lower()})") from None
    finally:
        os.close(fd)
    if len(data) > MAX_SETTINGS:  # grew since fstat
        raise _Ignored(f"larger than {MAX_SETTINGS // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _Ignored("not UTF-8 text") from None


def _settings_of(table: dict) -> HallSettings:
    """The settings the table gives; each one that is wrong is left at its default and named."""
    wrong = [f"{clean_text(key, 30)!r} is not a setting (known: {', '.join(KNOWN)})"  # the admin's own file
             for key in table if key not in KNOWN]
    minutes = table.get("idle_minutes", 0)
    if not (is_int(minutes) and 0 <= minutes <= MAX_IDLE_MINUTES):
        wrong.append(f"idle_minutes is not a whole number from 0 to {MAX_IDLE_MINUTES}: ignored")
        minutes = 0
    motd = table.get("motd", "")
    if not isinstance(motd, str):
        wrong.append("motd is not text: ignored")
        motd = ""
    lines = motd_lines(motd)
    if len(lines) > MOTD_LINES:
        wrong.append(f"motd is longer than {MOTD_LINES} lines of {MOTD_WIDTH} characters: cut")
        lines = lines[:MOTD_LINES]
    barred = table.get("barred", [])
    if not isinstance(barred, list):
        wrong.append("barred is not a list of names: ignored")
        barred = []
    keys = frozenset(entry for entry in barred if isinstance(entry, str) and KEY_FINGERPRINT.fullmatch(entry))
    names = frozenset(clean_text(name, MAX_BARRED_NAME).casefold() for name in barred
                      if isinstance(name, str) and name not in keys)
    if not all(isinstance(name, str) for name in barred):
        wrong.append("barred holds something that is not a name: that is ignored")
    problem = clean_text(f"{SETTINGS}: {'; '.join(wrong)}", 300) if wrong else None
    return HallSettings(minutes or None, "\n".join(lines), names - {""}, problem, barred_keys=keys)


def motd_lines(text: str) -> list[str]:
    """The message of the day as the lobby shows it: each of its lines cleaned of control characters
    (escapes) and wrapped at MOTD_WIDTH, blank lines at its ends dropped; one line more than
    MOTD_LINES at most (which says it was longer)."""
    lines: list[str] = []
    for line in text.strip().splitlines():
        lines.extend(textwrap.wrap(clean_text(line, MOTD_WIDTH * (MOTD_LINES + 1)), MOTD_WIDTH) or [""])
        if len(lines) > MOTD_LINES:
            break
    return lines


def barred_refusal(settings: HallSettings, player: str | None, keys: frozenset[str] = frozenset()) -> str | None:
    """The one line refusing `player` if the admin has barred that name from the hall, or one of
    `keys` (the fingerprints of the key this login was made with), else None."""
    if player and clean_text(player, MAX_BARRED_NAME).casefold() in settings.barred:
        return f"the admin has barred {clean_text(player, MAX_BARRED_NAME)} from this hall"
    if keys & settings.barred_keys:
        return "the admin has barred the key you logged in with from this hall"
    return None
