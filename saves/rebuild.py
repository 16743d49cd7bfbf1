"""A session rebuilt from a save's header and records, every record checked against the rules."""
from __future__ import annotations

from typing import Any

from dicehall import engine
from dicehall.engine.assists import checked_assist
from dicehall.engine.codec import DecodeError, decode_event
from dicehall.engine.comments import comment_of, comment_overflow, cut_note, with_comment
from dicehall.engine.core import player_from_record
from dicehall.engine.session import LogError, Session
from dicehall.engine.text import clean_text
from dicehall.saves.errors import SaveDamaged, SaveError
from dicehall.saves.draft_record import read_draft
from dicehall.saves.framing import ParsedSave, SaveScan, upcast_header


def _header_fields(header: dict, label: str) -> tuple:
    header = upcast_header(header, label)
    game = header.get("game")
    try:
        module = engine.get_game(game if isinstance(game, str) else "")
    except ValueError as error:
        raise SaveError(f"{label}: {error}") from None
    rules = header.get("rules")
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 1:  # rules versions count from 1
        raise SaveError(f"{label}: the header's rules version is not readable")
    if rules > module.RULES_VERSION:
        raise SaveError(f"{label}: made for newer {module.TITLE} rules (version {rules})")
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{label}: the header has no seed")
    options = header.get("options")
    players_raw = header.get("players")
    if not isinstance(options, dict) or not isinstance(players_raw, (list, tuple)) or len(players_raw) > 16:
        raise SaveError(f"{label}: the header is not readable")
    players = []
    for entry in players_raw:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise SaveError(f"{label}: a player in the header is not readable")
        try:
            players.append(player_from_record(entry, clean_text))
        except ValueError as error:
            raise SaveError(f"{label}: {error}") from None
    return module, seed, options, tuple(players)


def build_session(parsed: ParsedSave | SaveScan, label: str, journal: Any = None) -> Session:
    """Rebuild the session a save describes, checking every record; SaveDamaged names the first bad one.

    Whatever a record holds, the only errors are SaveError and SaveDamaged, one line each: an
    exception from a record the checks let through is that record's damage, so one bad file can
    never take down a list of saves or a command."""
    assert parsed.header is not None  # a scan has its header unless resumed past it (a hall follower's, never rebuilt)
    try:
        module, seed, options, players = _header_fields(parsed.header, label)
        session = Session(module, seed=seed, options=options, players=players, dice=[])
    except SaveError:
        raise
    except ValueError as error:
        raise SaveError(f"{label}: {error}") from None
    except Exception as error:
        raise SaveError(f"{label}: the header is not readable ({type(error).__name__})") from None
    session.labels.save_name = save_name_of(parsed.header, label)
    cut: dict[int, bool] = {}  # each event's latest comment: was it over the limits (a hand-edited file's)?
    for index, record in enumerate(parsed.records, start=1):
        try:
            _replay_record(session, record, module)
            if isinstance(record, dict) and record.get("op") == "comment":  # the latest per event wins
                cut[record["event"]] = bool(comment_overflow(str(record.get("text"))))
        except (LogError, DecodeError, ValueError) as error:
            raise SaveDamaged(f"{label}: record {index}: {error}", index - 1) from None
        except Exception as error:  # a wrongly typed field the decoder let through
            raise SaveDamaged(f"{label}: record {index}: not a valid record ({type(error).__name__})", index - 1) from None
    session.journal = journal
    session.labels.notice = cut_note([event for event, over in cut.items() if over])
    return session


def save_name_of(header: dict, label: str) -> str:
    return clean_text(header.get("name", "")) or label


def _replay_record(session: Session, record: Any, module: Any) -> None:
    if not isinstance(record, dict):
        raise ValueError("not a save record")
    op = record.get("op")
    if op == "undo":
        session.undo()
    elif op == "redo":
        session.redo()
    elif op == "assist":  # the host's, not the game's: the fold never sees it
        session.labels.assists = (*session.labels.assists, checked_assist(record.get("kind"), record.get("at"), len(session.events)))
    elif op in ("play", "dice"):
        raw = record.get("events")
        if not isinstance(raw, (list, tuple)):
            raise ValueError("no events in the record")
        events = [decode_event(e, module.EVENTS) for e in raw]
        by = record.get("by")
        if op == "play" and (not isinstance(by, int) or isinstance(by, bool)):
            raise ValueError("a move with no player")
        session.replay_batch(events, by if op == "play" else None)
    elif op == "comment":  # a player's comment, kept beside the game: the latest per event wins
        event, text = comment_of((record.get("event"), record.get("text")), len(session.events))
        session.labels.comments = with_comment(session.labels.comments, event, text)
    elif op == "draft":  # the words in the entry box, not yet an event: the latest wins
        read_draft(session, record)
    else:
        raise ValueError(f"unknown record {str(op)[:20]!r}")
