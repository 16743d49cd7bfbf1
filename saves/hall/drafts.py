"""A hall journal's draft, kept in the PLAYER's own folder (saves.home(): on a box DATA/players/NAME),
never in the hall: the game's log is read by the other players and its watchers, and a draft is no
game event. The launcher's games keep theirs in their save (saves/drafts.py); a hall game keeps
its words here, as the player types, and gets them back when the player takes the seat again.

    home()/hall-drafts/ID-COMMIT-seatN.json   {"format": 1, "draft": str, "rewrite": [page, str]}

ID is the game's id, COMMIT the start of its commitment (two halls may have a game of the same id),
N its seat. Written durably: a new file beside it (never through a link), fsync'd, moved over the
old one, the folder fsync'd. One terminal holds a seat at a time (its lock), and one whose link
dropped writes its last words before it lets the seat go, so the player coming back reads them.
Should two dicehalls of one player write it anyway (one killed outright while its timer ran), each
replaces the whole file: the last writer wins, and no reader ever sees half a file.

Read back as hostile input: at most MAX_DRAFT_FILE bytes, no link, no FIFO, each text cleaned and
capped as a save's draft record is; anything else is one line and an empty draft. Empty words
remove the file (the entry was saved or skipped, or the game is over)."""
from __future__ import annotations

import json
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from dicehall.saves.draft_record import clean_draft, is_page
from dicehall.saves.errors import SaveError, os_reason
from dicehall.saves.files import home, make_dirs, write_new
from dicehall.saves.hall.errors import HallError
from dicehall.saves.hall.files import check_id, open_dir

FOLDER = "hall-drafts"
DRAFT_FORMAT = 1
MAX_DRAFT_FILE = 64 * 1024  # two texts of DRAFT_LIMIT characters, 4 bytes each at most, with room to spare
NO_REWRITE = (0, "")


@dataclass(frozen=True)
class KeptWords:
    """What a draft file gave back: the entry's draft, the rewrite under way (page, words), and the
    one line saying why the file was not read ("" when it was, or there was none)."""

    draft: str = ""
    rewrite: tuple[int, str] = NO_REWRITE
    problem: str = ""


class HallDraft:
    """The draft file of one seat of one hall game, in this player's folder."""

    def __init__(self, game_id: str, commitment: str, seat: int) -> None:
        self.folder = home()
        self.game_id = check_id(game_id)
        self.name = f"{self.game_id}-{commitment[:12]}-seat{int(seat) + 1}.json"

    def _open_folder(self, create: bool) -> int | None:
        """The drafts folder, opened without following a link; None: there is none yet. SaveError in
        one line for a link, a file in its place, or a folder that cannot be opened or made."""
        try:
            if create:
                make_dirs(self.folder)
            top = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                return open_dir(top, FOLDER, FOLDER, create, mode=0o700)
            finally:
                os.close(top)
        except FileNotFoundError:
            if create:
                raise SaveError(f"no folder of yours to keep it in ({self.folder.name})") from None
            return None
        except (HallError, OSError) as error:
            raise SaveError(self._where(error)) from None

    def read(self) -> KeptWords:
        """The words kept, or empty ones and one line saying what is wrong with the file."""
        try:
            folder = self._open_folder(create=False)
        except SaveError as error:
            return self._unread(str(error))
        if folder is None:
            return KeptWords()
        try:
            fd = os.open(self.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO would hang the read
                    return self._unread("not a regular file")
                data = os.read(fd, MAX_DRAFT_FILE + 1)
            finally:
                os.close(fd)
        except FileNotFoundError:
            return KeptWords()
        except OSError as error:
            return self._unread(os_reason(error).lower())
        finally:
            os.close(folder)
        if len(data) > MAX_DRAFT_FILE:
            return self._unread(f"larger than {MAX_DRAFT_FILE // 1024} KiB")
        return self._parse(data)

    def _parse(self, data: bytes) -> KeptWords:
        try:
            kept = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return self._unread("damaged (not dicehall's JSON)")
        if not isinstance(kept, dict) or kept.get("format") != DRAFT_FORMAT:
            return self._unread("a format unknown here")
        draft, rewrite = kept.get("draft", ""), kept.get("rewrite", [0, ""])
        page, words = rewrite if isinstance(rewrite, list) and len(rewrite) == 2 else (None, None)
        if not isinstance(draft, str) or not isinstance(words, str) or not (page == 0 or is_page(page)):
            return self._unread("damaged (its words are not text)")
        words = clean_draft(words)
        return KeptWords(clean_draft(draft), (page, words) if page and words else NO_REWRITE)

    def write(self, draft: str, rewrite: tuple[int, str]) -> None:
        """Keep these words (both empty: remove the file). SaveError in one line if they cannot be
        kept; the file holds the words of the last write that succeeded."""
        draft, (page, words) = clean_draft(draft), rewrite
        words = clean_draft(words) if page else ""
        if not draft and not words:
            self.delete()
            return
        data = json.dumps({"format": DRAFT_FORMAT, "draft": draft, "rewrite": [page if words else 0, words]},
                          ensure_ascii=False).encode("utf-8")
        folder = self._open_folder(create=True)
        assert folder is not None  # made if missing
        temporary = f".{self.name}.{os.getpid()}.{secrets.token_hex(4)}"  # each writer its own: never half a file
        try:
            write_new(Path(temporary), data, 0o600, dir_fd=folder)
            os.replace(temporary, self.name, src_dir_fd=folder, dst_dir_fd=folder)  # a link there is replaced, not followed
            os.fsync(folder)
        except OSError as error:
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            raise SaveError(self._where(error)) from None
        finally:
            os.close(folder)

    def delete(self) -> None:
        """No words to keep: the file goes (none there: nothing to do)."""
        folder = self._open_folder(create=False)
        if folder is None:
            return
        try:
            os.unlink(self.name, dir_fd=folder)
            os.fsync(folder)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise SaveError(self._where(error)) from None
        finally:
            os.close(folder)

    def _unread(self, why: str) -> KeptWords:
        """An empty draft, and one line that fits 80 columns saying why the file was not read (never
        its words: they may be anything)."""
        return KeptWords(problem=f"your draft of game {self.game_id} was not read: {why}")

    @staticmethod
    def _where(error: HallError | OSError) -> str:
        """What went wrong and where, never a whole path: "disk full in your hall-drafts folder"."""
        if isinstance(error, HallError):  # a link or a non-folder, already said with the folder's name
            return str(error)
        return f"{os_reason(error).lower()} in your {FOLDER} folder"

