"""The text record (.dht): a game a person reads, pastes into a chat and annotates, that still
verifies to the last die. docs/formats.md describes it; this module writes it and gathers the rest:

    write_text(session, analysis=None) -> str      # tag lines, numbered turns, comments, the digest
    read_text(text, label) -> Session              # every line checked against the rules and the seed
    read_record(path) -> Session                   # a .dht or a .dhr, told apart by their first bytes
    verify_record(path) -> str                     # `dicehall verify` for either

The notation is the games' own words: a decision is `str(command)` (what `parse_command` reads, the
words the hint uses), every event after it is the game's `describe` (the log's words), and a chance
outcome is marked `*` (`* typed 4 6 = ...` for dice a player typed). The reader re-derives each line
and compares: a line it cannot produce is named by line and column (text_read.py).
"""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dicehall import engine, replays
from dicehall.durable import write_new_file
from dicehall.engine.matching import matched_command
from dicehall.engine.session import Session
from dicehall.engine.words import counted
from dicehall.replays import read_capped, text_read
from dicehall.replays.handovers import abandoned_result, handover_lines
from dicehall.replays.text_lines import (ANALYSIS_NOTE, MAX_BYTES, SETUP_LINE, SUFFIX, TYPED, TextRecordError, comment,
                                         escape, tag_line)

__all__ = ["SUFFIX", "TextRecordError", "is_text_record", "read_record", "read_text", "verify_record", "write_text",
           "decision_commands", "ANALYSIS_NOTE", "SETUP_LINE", "TYPED"]

# not game events, so neither the seed nor the digest covers them; `verify` says so
NOT_COVERED = "comments, marks and analysis notes are not covered by the seed"


def decision_commands(game: Any, state: Any, events: Any) -> tuple[object, int]:
    """The command that made a decision's first events, and how many events it made itself (the
    rest of the decision's events are chance). Asks the game's `command_of` hook first, as a replay
    does, then every legal command: the first whose `decide` gives these events."""
    found = matched_command(game, state, events)
    if found is None:
        raise TextRecordError("a decision in this game matches no legal command (the session is not a real game)")
    return found[0], len(found[1])


def player_tag(player: Any) -> list:
    if player.bot:
        return [player.name, "bot", player.style] if player.style else [player.name, "bot"]
    return [player.name, "person", player.style] if player.style else [player.name, "person"]


def _percent_or_value(figure: str, value: float) -> str:
    return f"{value:.1%}" if figure == "win chance" else f"{value:.2f}"


def _analysis_notes(analysis: Any) -> tuple[dict[int, str], dict[int, list[str]]]:
    """Marks by the decision's first event (numbered from 1) and analysis comments by event number."""
    marks: dict[int, str] = {}
    notes: dict[int, list[str]] = {}
    figure = getattr(analysis, "figure", "win chance")
    for d in getattr(analysis, "decisions", ()):
        if d.mark:
            marks[d.event] = d.mark
        notes.setdefault(d.event, []).append(
            f"{ANALYSIS_NOTE}{figure} {_percent_or_value(figure, d.chance_played)} played; best {d.best}, "
            f"{_percent_or_value(figure, d.chance_best)}")
    for luck in getattr(analysis, "chance", ()):
        shown = f"{luck.luck:+.1%}" if figure == "win chance" else f"{luck.luck:+.2f}"
        notes.setdefault(luck.event, []).append(f"{ANALYSIS_NOTE}luck {shown}")
    return marks, notes


def write_text(session: Session, analysis: Any = None) -> str:
    """The text record of a session: tag lines, then its decisions and chance in the game's words,
    the players' comments, the analysis (given, or kept from a record read before), the digest."""
    if session.seed is None:
        raise TextRecordError("a game without its seed (a hall game still being played) has no text record yet")
    game = session.game
    events = session.events
    starts = list(session.turn_starts())
    seats = [mark.player for mark in session.marks]
    typed = sum(1 for e in events if getattr(e, "typed", False))
    outcome = session.outcome
    if analysis is not None:
        marks, notes = _analysis_notes(analysis)
    else:
        marks = dict(session.labels.record_marks)
        notes = {n: list(texts) for n, texts in session.labels.record_notes.items()}
    out = [
        tag_line("Game", game.ID),
        tag_line("Rules", game.RULES_VERSION),
        tag_line("Dicehall", session.labels.record_dicehall or engine.VERSION),
        tag_line("Seed", session.seed),
        tag_line("Options", session.options),
    ]
    # the players the game began with (whose names its state keeps); a handover line changes one
    out += [tag_line(f"Player{seat + 1}", player_tag(p)) for seat, p in enumerate(session.labels.first_players(session.players))]
    out += [
        tag_line("Name", session.labels.save_name),
        tag_line("Result", outcome.summary if outcome else "*"),
        tag_line("Date", session.labels.record_date or datetime.now(timezone.utc).isoformat(timespec="seconds")),
        tag_line("Undos", session.undos),
        tag_line("Typed", typed),
        tag_line("Assists", [[kind, at] for kind, at in session.labels.assists]),
    ]
    if session.labels.abandoned:
        out.append(tag_line("Abandoned", session.labels.abandoned))
    out += [f"[{key} {raw}]" for key, raw in session.labels.record_extra_tags]
    comments = session.labels.comments

    def annotate(n: int) -> None:
        for text in notes.get(n, ()):
            out.append("   " + comment(text))
        if n in comments and comments[n]:  # a line of its own for each of its lines: a record's line holds no break
            out.extend("   " + comment(line) for line in comments[n].split("\n"))

    annotate(0)
    describe, evolve = game.describe, game.evolve
    state = session.state_at(0)
    position = 0

    def emit(end: int, decided: int) -> None:
        """The events up to `end`: the first `decided` made by the decision, the rest chance."""
        nonlocal state, position
        while position < end:
            event = events[position]
            words = escape(describe(state, event, True))
            if decided > 0:
                out.append(f"   {words}")
                decided -= 1
            elif getattr(event, "typed", False):
                faces = " ".join(str(d + 1) for d in _draws_of(game, state, event))
                out.append(f"   * {TYPED} {faces} = {words}")
            else:
                out.append(f"   * {words}")
            state = evolve(state, event)
            position += 1
            annotate(position)

    if len(events) and (not starts or starts[0] > 0):
        out.append(SETUP_LINE)
        emit(starts[0] if starts else len(events), 0)
    def hand_over(at: int) -> None:
        """The seats a bot took over after `at` events, each a line of its own."""
        out.extend(handover_line(session, h) for h in session.labels.handovers if h.at == at)

    for turn, start in enumerate(starts, 1):
        end = starts[turn] if turn < len(starts) else len(events)
        command, decided = decision_commands(game, state, events[start:end])
        mark = marks.get(start + 1, "")
        hand_over(start)
        name = session.labels.holder(session.players, seats[turn - 1], start).name
        out.append(escape(f"{turn}. {name}: {command}") + (f" {mark}" if mark else ""))
        emit(end, decided)
    hand_over(len(events))
    out.append(f"digest {engine.digest(state)} after {len(events)} events")
    return "\n".join(out) + "\n"


def handover_line(session: Session, handover: Any) -> str:
    """`[Handover {"seat": 2, "to": ["Bot", "bot", "medium"], "why": "idle for 30 minutes"}]`: from
    here the seat's turns are its new player's (a tag line among the moves: an older reader refuses
    it there, naming its line)."""
    to = player_tag(session.players[handover.seat])
    return tag_line("Handover", {"seat": handover.seat + 1, "to": to, "why": handover.why})


def _draws_of(game: Any, state: Any, event: Any) -> tuple[int, ...]:
    recorded = getattr(game, "recorded_draws", None)
    return tuple(recorded(state, event) if recorded else game.chance_draws(event))


def read_text(text: str, label: str) -> Session:
    """The session a text record describes, every line checked; TextRecordError (a ReplayError)
    with one line naming the line and column otherwise. `label` names the record in messages."""
    return text_read.read_text(text, label)


def is_text_record(data: bytes) -> bool:
    """Whether a file's first bytes are a text record's (a tag line) rather than a binary replay's
    (a msgpack map, whose first byte is never '[')."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"["


def read_file(path: str | Path) -> bytes:
    """A record's bytes, size-capped before reading; ReplayError with one line otherwise."""
    return read_capped(path, MAX_BYTES, "record")


def _decoded(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TextRecordError("not UTF-8 text (a damaged or binary file?)", line) from None


def read_record(path: str | Path) -> Session:
    """A replay file of either kind: a text record (.dht) or a binary replay (.dhr)."""
    if Path(path).suffix != SUFFIX and not Path(path).is_file():
        return replays.read_replay(path)  # its own words for a missing file, a folder, a FIFO
    data = read_file(path)
    if not is_text_record(data):
        return replays.read_replay(path)
    return read_text(_decoded(data), Path(path).name)


def verify_record(path: str | Path) -> str:
    """`dicehall verify` on either kind of replay file."""
    if Path(path).suffix != SUFFIX and not Path(path).is_file():
        return replays.verify(path)
    data = read_file(path)
    if not is_text_record(data):
        return replays.verify(path)
    session = read_text(_decoded(data), Path(path).name)
    typed = sum(1 for e in session.events if getattr(e, "typed", False))
    outcome = session.outcome
    result = outcome.summary if outcome else abandoned_result(session)
    dice = f", {counted(typed, 'typed dice outcome')} (not from the seed)" if typed else ""
    players = ", ".join(p.name for p in session.players)
    notes = len(session.labels.comments) + sum(len(v) for v in session.labels.record_notes.values())
    return (f"ok: {session.game.TITLE} text record, seed {session.seed}, {players}, "
            f"{counted(len(session.events), 'event')} and the digest checked, {counted(session.undos, 'undo')}, "
            f"{result}{dice}{handover_lines(session)}\n"
            f"every line was re-derived from the seed and the rules; {NOT_COVERED} "
            f"({counted(notes, 'comment')} here); only claimed: {replays.CLAIMS}")


def write_text_file(session: Session, path: str | Path, overwrite: bool = False, analysis: Any = None) -> Path:
    """Write the text record durably (a temporary file beside it, fsync'd, then moved into place).
    Without `overwrite` an existing file is never replaced: FileExistsError instead."""
    path = Path(path)
    write_new_file(path, write_text(session, analysis).encode("utf-8"), overwrite)
    return path


# What one OSC 52 sequence may carry: terminals and tmux cap it (xterm and hterm near 100,000 bytes
# of base64), so a longer record is copied as its tag lines only.
CLIPBOARD_LIMIT = 60_000


def clipboard_text(session: Session, analysis: Any = None, hint: str = "") -> tuple[str, str]:
    """The text to copy and what it is, in words: the whole record, or for a game too long for a
    clipboard its tag lines (the seed and options replay its deal) and a line saying what was left out
    (`hint`: how to get the whole record)."""
    record = write_text(session, analysis)
    if len(record.encode("utf-8")) <= CLIPBOARD_LIMIT:
        return record, "the text record"
    tags = [line for line in record.splitlines() if line.startswith("[")]
    left_out = f"{len(session.events):,} events left out: a long game"
    tags.append(comment(f"{left_out}{'; ' + hint if hint else ''}"))
    if session.seed is not None:  # one line of chat: the same deal, from its start
        from dicehall.engine.deals import deal_code

        try:
            tags.append(comment(f"the deal: dicehall play --deal {deal_code(session.game.ID, session.seed, session.options)}"))
        except ValueError:
            pass  # options no code says (a dealt deck): the tag lines hold them
    return "\n".join(tags) + "\n", "the tag lines (a long game)"


def copied_words(text: str, what: str) -> str:
    """The status line after a copy: what was copied and how long it is."""
    lines = text.count("\n")
    return f"copied {what} through OSC 52: {len(text):,} characters, {lines:,} lines"
