"""Where a journal's deck comes from (the `deck` option, the launcher's setup): the sample deck, a
deck pasted into the app's text box, and

- off a box, a deck file the person names by its path (their own account: theirs to choose);
- on a box, a deck of the admin's deck folder in the hall, `HALL/decks/NAME.toml`, `NAME.csv` or
  `NAME.game.md` (dc-solo-rpg's game file), or a folder `NAME` (dc-solo-rpg's older game folder),
  named by NAME, never a path. The folder counts only when it is the admin's: owned by root or by
  the hall folder's owner and writable by nobody else (the players may write in the hall folder,
  so one of them could make `decks` first); a link there is never followed.

Every deck, wherever it came from, is read as hostile (engine.games.journal.deck): capped, each
refusal naming the file and the line, never the file's text."""
from __future__ import annotations

import os
import stat

from dicehall.engine.games import journal
from dicehall.engine.text import clean_text
from dicehall.saves.box import on_box

DECKS = "decks"  # the admin's deck folder, in the hall folder
DECK_SUFFIXES = (".toml", ".csv", ".game.md")
MAX_DECKS = 200  # listed from the folder, by name
PASTED = "the pasted deck"


def _admins(info: os.stat_result, owner: int) -> bool:
    return info.st_uid in (0, owner) and not info.st_mode & 0o022


def _open_folder() -> int | None:
    """A descriptor on HALL/decks when it is the admin's (never through a link), else None."""
    from dicehall.saves.hall.files import DIR_FLAGS, hall_dir  # here: a deck file off a box needs no hall

    hall = hall_dir()
    try:
        owner = os.stat(hall).st_uid
        fd = os.open(hall / DECKS, DIR_FLAGS)
    except OSError:
        return None
    if _admins(os.fstat(fd), owner):
        return fd
    os.close(fd)
    return None


def hall_decks() -> list[str]:
    """The names of the admin's decks (HALL/decks/NAME.toml, NAME.csv or NAME.game.md, regular files, or
    NAME a game folder), sorted."""
    fd = _open_folder()
    if fd is None:
        return []
    try:
        names = set()
        for entry in sorted(os.listdir(fd))[: MAX_DECKS * 4]:
            suffix = next((suffix for suffix in DECK_SUFFIXES if entry.endswith(suffix)), "")
            stem = entry.removesuffix(suffix)
            if stem and not stem.startswith(".") and clean_text(stem, 60) == stem and stem != "sample":
                try:
                    mode = os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode
                except OSError:
                    continue
                if stat.S_ISREG(mode) if suffix else stat.S_ISDIR(mode) and _has_deck_csv(entry, fd):
                    names.add(stem)
        return sorted(names)[:MAX_DECKS]
    finally:
        os.close(fd)


def _has_deck_csv(folder: str, fd: int) -> bool:
    """Whether the folder `folder` (not a link) holds a deck.csv: a dc-solo-rpg game folder."""
    try:
        return stat.S_ISREG(os.stat(f"{folder}/deck.csv", dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def hall_deck(name: str) -> journal.Deck:
    """The admin's deck NAME (HALL/decks/NAME.toml, else NAME.csv, else NAME.game.md, else the folder
    NAME); DeckError in one line."""
    if name not in hall_decks():
        offered = ", ".join(["sample", *hall_decks()])
        raise journal.DeckError(f"{clean_text(name, 40)!r}: on this box a deck is one of {offered} "
                                "(the admin's decks, in the hall's decks folder), or one pasted in the app")
    fd = _open_folder()
    if fd is None:
        raise journal.DeckError(f"{name}: the hall's decks folder cannot be read")
    try:
        for suffix in DECK_SUFFIXES:
            try:
                os.stat(f"{name}{suffix}", dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            except OSError:
                pass  # read_deck_file says why in its one line
            return journal.read_deck_file(f"{name}{suffix}", f"{name}{suffix}", dir_fd=fd)
        return journal.read_deck_file(name, name, dir_fd=fd)  # the game folder NAME (never through a link)
    finally:
        os.close(fd)


def pasted_deck(text: str) -> journal.Deck:
    """A deck pasted into the app (TOML, CSV or a dc-solo-rpg game file, by its look), read as any deck file is."""
    return journal.parse_deck(text.encode("utf-8", "replace"), PASTED)


def named_deck(text: str) -> journal.Deck:
    """The deck the option `deck=TEXT` names: sample; on a box one of the admin's decks by name; off a
    box a file's path."""
    text = text.strip()
    if text == "sample":
        return journal.sample_deck()
    return hall_deck(text) if on_box() else journal.load_deck(text)


def deck_options(game_id: str, options: dict) -> dict:
    """`options` with a journal's `deck` named by text (the command line's --option deck=..., sim's
    --deck) read into the deck itself, so no game ever opens a file itself. A journal's rulings are
    checked first: a bad one is refused (RulingError, one line) before any file is opened."""
    if game_id != journal.ID:
        return options
    journal.check_rulings(options)
    deck = options.get("deck")
    if not isinstance(deck, str):
        return options
    return dict(options, deck=named_deck(deck).record())
