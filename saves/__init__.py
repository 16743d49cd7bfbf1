"""Saves: each game in progress is an append-only, fsync'd log of framed records on disk.

File layout: MAGIC, then framed records. A frame is a 4-byte big-endian length, the CRC32 of the
payload, and the msgpack payload. The first record is the header (format, game, rules version,
seed, options, players, name, created); the others are session operations: a decision with the
events it caused, typed dice, an undo, a redo. The session is rebuilt by replaying the operations,
each checked against the rules and the seed.

A save is held with an exclusive flock while open, so a second dicehall (a second SSH session)
is told it is in use instead of writing into it.

A frame whose declared end runs past the end of the file is a torn tail (the last append was cut
off) only when the bytes that are there are less than a whole record: a torn write is shorter than
its length says. If the rest of the file is exactly one whole record (its checksum matches those
bytes), or a whole record follows later, the length field is damaged: the load stops, as for a
checksum failure, and the record is kept. A torn tail is copied aside (`<save>.dhs.torn`) before it
is cut off, so no byte is thrown away unseen.

A save is read as a stream, one record at a time, so memory follows the game, not the file's size.

Format history: 1 stored players as [name, bot]; 2 stores [name, bot, style]. Older headers are
upcast one step at a time by UPCASTS.

The package is a room per concern: errors (the refusals), framing (bytes, records, torn tails,
upcasting), files (folders, ids, names, locks), rebuild (a session from a save's records), index
(the list and its cache), store (new/open/close/load), manage (export, recover, rename, branch),
hall (the shared hall). The names every caller uses are exported here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.engine import name_later

if TYPE_CHECKING:
    from dicehall.durable import open_regular, write_all, write_durably
    from dicehall.saves.comments import comment_record, write_comment
    from dicehall.saves.errors import (ExportExists, SaveDamaged, SaveError, SaveHealthy, SaveInUse, SaveUnreadable,
                                       SaveWriteFailed, error_line, os_reason)
    from dicehall.saves.files import (default_name, distinct_name, fsync_dir, home, keep_torn, make_dirs, names_in_use,
                                      read_header, replays_dir, save_label, saves_dir, short_name, solo_players, write_new)
    from dicehall.saves.framing import (FORMAT, FRAME, MAGIC, MAX_FILE, MAX_RECORD, MAX_UNPACKED, READ_CHUNK, SUFFIX,
                                        TORN_SCAN_BUDGET, TORN_SUFFIX, UNPACK_LIMITS, UPCASTS, ParsedSave, SaveScan, encode_record,
                                        frame, parse_save, upcast_header)
    from dicehall.saves.index import (FINGERPRINT_BYTES, INDEX_FORMAT, INDEX_NAME, MAX_INDEX, MAX_INDEX_SAVES, RACY_NS, Fingerprint,
                                      SaveInfo, branch_text, find_save, list_saves)
    from dicehall.saves.manage import (DOCUMENTS, branch_save, document_text, export_save, recover_save, rename_save,
                                       write_document, write_export)
    from dicehall.saves.assists import record_assist
    from dicehall.saves.rebuild import build_session
    from dicehall.saves.store import SaveJournal, ViewedSave, close_save, delete_save, load_readonly, new_save, open_save

__all__ = [
    "DOCUMENTS", "ExportExists", "FINGERPRINT_BYTES", "FORMAT", "FRAME", "Fingerprint", "INDEX_FORMAT", "INDEX_NAME", "MAGIC",
    "MAX_FILE", "MAX_INDEX", "MAX_INDEX_SAVES", "MAX_RECORD", "MAX_UNPACKED", "ParsedSave", "READ_CHUNK", "RACY_NS",
    "SUFFIX", "SaveDamaged", "SaveError", "SaveHealthy", "SaveInUse", "SaveInfo", "SaveJournal", "SaveScan",
    "SaveUnreadable", "SaveWriteFailed", "ViewedSave", "TORN_SCAN_BUDGET", "TORN_SUFFIX", "UNPACK_LIMITS", "UPCASTS",
    "branch_save", "branch_text", "comment_record", "build_session", "close_save", "default_name", "delete_save", "distinct_name",
    "document_text", "encode_record", "error_line", "export_save", "find_save", "frame", "fsync_dir", "home", "keep_torn",
    "list_saves", "load_readonly", "make_dirs", "names_in_use", "new_save", "open_regular", "open_save",
    "os_reason", "parse_save", "read_header", "record_assist", "recover_save", "rename_save", "replays_dir", "save_label",
    "saves_dir", "short_name", "solo_players", "upcast_header", "write_all", "write_comment", "write_durably",
    "write_document", "write_export", "write_new",
]

# Each name above from its module, imported the first time it is asked for (as dicehall.engine's are):
# importing any module of saves (saves.box, saves.decks) runs this file first, and a command that
# only reads a deck or checks the box (`dicehall sim journal`) should not wait for the store, the
# index and the session to load.
_FROM: dict[str, str] = {}
_FROM |= dict.fromkeys(("open_regular", "write_all", "write_durably"), "..durable")
_FROM |= dict.fromkeys(("comment_record", "write_comment"), ".comments")
_FROM |= dict.fromkeys(("ExportExists", "SaveDamaged", "SaveError", "SaveHealthy", "SaveInUse", "SaveUnreadable",
                        "SaveWriteFailed", "error_line", "os_reason"), ".errors")
_FROM |= dict.fromkeys(("default_name", "distinct_name", "fsync_dir", "home", "keep_torn", "make_dirs",
                        "names_in_use", "read_header", "replays_dir", "save_label", "saves_dir", "short_name",
                        "solo_players", "write_new"), ".files")
_FROM |= dict.fromkeys(("FORMAT", "FRAME", "MAGIC", "MAX_FILE", "MAX_RECORD", "MAX_UNPACKED", "READ_CHUNK", "SUFFIX",
                        "TORN_SCAN_BUDGET", "TORN_SUFFIX", "UNPACK_LIMITS", "UPCASTS", "ParsedSave", "SaveScan",
                        "encode_record", "frame", "parse_save", "upcast_header"), ".framing")
_FROM |= dict.fromkeys(("FINGERPRINT_BYTES", "INDEX_FORMAT", "INDEX_NAME", "MAX_INDEX", "MAX_INDEX_SAVES", "RACY_NS",
                        "Fingerprint", "SaveInfo", "branch_text", "find_save", "list_saves"), ".index")
_FROM |= dict.fromkeys(("DOCUMENTS", "branch_save", "document_text", "export_save", "recover_save", "rename_save",
                        "write_document", "write_export"), ".manage")
_FROM |= dict.fromkeys(("record_assist",), ".assists")
_FROM |= dict.fromkeys(("build_session",), ".rebuild")
_FROM |= dict.fromkeys(("SaveJournal", "ViewedSave", "close_save", "delete_save", "load_readonly", "new_save",
                        "open_save"), ".store")


def __getattr__(name: str) -> object:
    return name_later(globals(), name, _FROM)
