"""Reading a text record (.dht): every text is hostile. It is capped in size, in lines and in line
length; a control character anywhere refuses it; tags are JSON read by json, never evaluated, and an
unknown tag is kept as text (written back, never executed, never shown as markup). The moves are
read by the rules: a decision line is parsed by the game's `parse_command` and checked by `decide`,
every line after it must be exactly the game's words for the event the rules and the seed give
there, so a changed die is named by its event and its line. The work is one pass over the lines,
each line costing what the game's own move does: no backtracking, no recursion on the text.
"""
from __future__ import annotations

import unicodedata
from types import MappingProxyType
from typing import Any, Sequence

from dicehall import engine
from dicehall.engine.chance import seeded_draws
from dicehall.engine.comments import COMMENT_LIMIT, clean_comment, comment_overflow, cut_note
from dicehall.engine.core import Handover, IllegalCommand, Player
from dicehall.engine.session import LogError, Session
from dicehall.engine.text import clean_text
from dicehall.replays.handovers import MAX_ABANDONED, hand_over
from dicehall.replays.text_lines import (ANALYSIS_NOTE, MAX_BYTES, MAX_COMMENT, MAX_LINE, MAX_LINES, MAX_TAG_LINE, MAX_TAGS, SETUP_LINE,
                                         TYPED, TextRecordError, parse_tag, split_comments)

KNOWN_TAGS = ("Game", "Rules", "Dicehall", "Seed", "Options", "Name", "Result", "Date", "Undos", "Typed", "Assists")
OPTIONAL_TAGS = ("Abandoned",)  # why a hall game was ended before its end
MARKS = ("??", "?!", "!?", "!!", "?", "!")
ASSIST_KINDS = ("hint", "reveal", "hindsight")
EXPECTED_SHOWN = 8  # legal commands listed in a bad move's message


def _shown(text: str, limit: int = 40) -> str:
    return clean_text(text, limit)


def _differing(given: str, expected: str, limit: int = 50) -> tuple[str, str]:
    """Both texts shown from a little before where they first differ, so a long line's change is seen."""
    same = 0
    for a, b in zip(given, expected):
        if a != b:
            break
        same += 1
    start = max(0, same - 12)
    cut = "..." if start else ""
    return cut + _shown(given[start:], limit), cut + _shown(expected[start:], limit)


# A place's own comments are read up to four times a comment's limit (engine/comments.py): those that come
# after that much are dropped as read (the comment is cut to fit all the same)
OWN_READ = COMMENT_LIMIT * 4


class _Lines:
    """The record's lines, with comments taken out as they are read and kept by event number."""

    def __init__(self, text: str):
        if len(text) > MAX_BYTES:
            raise TextRecordError(f"too large for a record (the limit is {MAX_BYTES} bytes)")
        # each line cut from the text as it is read (a list of 600,000 lines cost 50 MB more than the text)
        self.text = text
        self.count = text.count("\n") + (0 if not text or text.endswith("\n") else 1)  # (a last newline ends no line)
        if self.count > MAX_LINES:
            raise TextRecordError(f"more than {MAX_LINES} lines: not a dicehall record")
        self.at = 0  # the next line's index
        self.start = self.previous = 0  # where the next line starts, and the line before it
        self.comments: dict[int, list[str]] = {}
        self.own: dict[int, int] = {}  # the players' own comments' length at each place, kept, a line break each

    def next(self) -> tuple[int, str, list[str], Sequence[int]] | None:
        """The next line: its number (from 1), its text without comments, its comments, its columns."""
        if self.at >= self.count:
            return None
        end = self.text.find("\n", self.start)
        end = len(self.text) if end < 0 else end
        raw = self.text[self.start:end]
        self.previous, self.start = self.start, end + 1
        self.at += 1
        number = self.at
        if raw.endswith("\r"):
            raw = raw[:-1]  # a record pasted through a Windows clipboard
        longest = MAX_TAG_LINE if raw.startswith("[") else MAX_LINE
        if len(raw) > longest:
            raise TextRecordError(f"longer than {longest} characters", number)
        if not raw.isprintable():  # slow path only for a line with something unusual in it
            for col, ch in enumerate(raw, 1):
                if unicodedata.category(ch).startswith("C"):
                    raise TextRecordError(f"a control character (U+{ord(ch):04X}) where only text may be", number, col)
        if raw.startswith("["):  # a tag line: its JSON may hold braces, so no comments in it
            return number, raw.rstrip(), [], list(range(1, len(raw) + 1))
        text, comments, columns = split_comments(raw, number)
        return number, text.rstrip(), comments, columns

    def back(self) -> None:
        """The line just read is read again next (once: the tags' end)."""
        self.at -= 1
        self.start = self.previous

    def keep(self, position: int, comments: list[str]) -> None:
        if comments:
            kept = self.comments.setdefault(position, [])
            for comment in comments:
                if comment.startswith(ANALYSIS_NOTE):
                    kept.append(comment)
                elif self.own.get(position, 0) <= OWN_READ + 1:  # (past it: cut to fit, as a longer one is)
                    kept.append(comment)
                    self.own[position] = self.own.get(position, 0) + len(comment) + 1


def _tag(value: Any, key: str, kinds: tuple, what: str, number: int) -> Any:
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise TextRecordError(f"the {key} tag is not {what}", number)
    return value


def _player(value: Any, number: int) -> Player:
    if (not isinstance(value, list) or not 2 <= len(value) <= 3 or not all(isinstance(v, str) for v in value)
            or value[1] not in ("person", "bot")):
        raise TextRecordError('a player tag is ["name", "person"] or ["name", "bot", "style"]', number)
    return Player(clean_text(value[0]), value[1] == "bot", clean_text(value[2], 20) if len(value) == 3 else "")


def _read_tags(lines: _Lines) -> tuple[dict[str, tuple[Any, int]], list[Player], list[tuple[str, str]]]:
    tags: dict[str, tuple[Any, int]] = {}
    players: list[Player] = []
    extra: list[tuple[str, str]] = []
    first = True
    while True:
        line = lines.next()
        if line is None:
            break
        number, text, comments, _ = line
        if not text and comments:
            lines.keep(0, comments)
            continue
        if not text:
            continue
        # the moves begin (a seat a bot took over before the first move begins them with its line)
        if not text.startswith("[") or text.startswith("[Handover ") and not first:
            if first:
                raise TextRecordError("not a dicehall text record (it starts with a tag line such as [Game \"troll\"])",
                                      number, 1)
            lines.back()
            break
        lines.keep(0, comments)
        key, value, raw = parse_tag(text, number)
        if first and key != "Game":
            raise TextRecordError("the first tag is not Game", number, 2)
        first = False
        if len(tags) + len(players) + len(extra) >= MAX_TAGS:
            raise TextRecordError(f"more than {MAX_TAGS} tags", number)
        if key.startswith("Player") and key[6:].isdigit():
            if key != f"Player{len(players) + 1}":
                raise TextRecordError(f"another tag where Player{len(players) + 1} was expected", number, 2)
            players.append(_player(value, number))
        elif key in KNOWN_TAGS or key in OPTIONAL_TAGS:
            if key in tags:
                raise TextRecordError(f"a second {key} tag", number, 2)
            tags[key] = (value, number)
        else:
            extra.append((key, raw))  # kept as written (printable text), never acted on
    if first:
        raise TextRecordError("the record is empty")
    missing = [key for key in KNOWN_TAGS if key not in tags]
    if missing:
        raise TextRecordError(f"the {missing[0]} tag is missing")
    return tags, players, extra


def _session(tags: dict[str, tuple[Any, int]], players: list[Player]) -> Session:
    game_id, number = tags["Game"]
    try:
        module = engine.get_game(_tag(game_id, "Game", (str,), "a game's name", number))
    except ValueError as error:
        raise TextRecordError(str(error), number) from None
    rules, number = tags["Rules"]
    if _tag(rules, "Rules", (int,), "a number", number) < 1:
        raise TextRecordError("the Rules tag is not a rules version", number)
    if rules > module.RULES_VERSION:
        raise TextRecordError(f"made for newer {module.TITLE} rules (version {rules})", number)
    seed = _tag(tags["Seed"][0], "Seed", (int,), "a number", tags["Seed"][1])
    if not -(1 << 63) <= seed < 1 << 64:  # what a save and a .dhr hold (msgpack): a branch of it is saved
        raise TextRecordError("the Seed tag is not a seed a save can hold (64 bits)", tags["Seed"][1])
    options = _tag(tags["Options"][0], "Options", (dict,), "a map", tags["Options"][1])
    try:
        return Session(module, seed=seed, options=dict(options), players=players, dice=[])
    except ValueError as error:
        raise TextRecordError(f"the tags do not fit {module.TITLE}: {error}") from None


class _Reader:
    """The moves, read by the rules: each line re-derived and compared."""

    def __init__(self, session: Session, lines: _Lines):
        self.session, self.lines = session, lines
        self.game = session.game
        assert session.seed is not None  # the record's Seed tag, a number (_session)
        self.seed: int = session.seed
        self.state = session.state
        self.events: list[Any] = []  # every event read so far
        self.event_lines: list[int] = []  # the line of each
        self.batches: list[tuple[int, int | None]] = []  # (first event, deciding seat or None)
        self.used = 0  # seeded draws used so far
        self.turn = 0
        self.marks: dict[int, str] = {}
        self.typed: list[tuple[int, Any, Any, int, tuple]] = []  # (event index, event, state before, seeded used, spec)
        self.players = list(session.players)  # who plays each seat now: a [Handover] line changes one
        self.handovers: list[Handover] = []

    def read(self) -> int:
        """Reads up to the digest line; returns its line number."""
        game, lines = self.game, self.lines
        setup_due = game.outcome(self.state) is None and game.chance_needed(self.state) is not None
        while True:
            line = lines.next()
            if line is None:
                raise TextRecordError("the record ends before its digest line (cut off?)", lines.count)
            number, text, comments, columns = line
            if not text:
                lines.keep(len(self.events), comments)
                continue
            if setup_due:
                if text != SETUP_LINE:
                    raise TextRecordError(f"expected '{SETUP_LINE}': the game starts with chance", number, 1)
                setup_due = False
                self.batches.append((0, None))
                lines.keep(1, comments)
                continue
            if text.startswith(" "):
                self.chance_line(number, text, columns)
                lines.keep(len(self.events), comments)
                continue
            if text.startswith("["):
                self.handover(number, text)
                continue
            if text.startswith("digest "):
                self.digest(number, text)
                lines.keep(len(self.events), comments)
                return number
            if text[:1].isdigit():
                self.decision(number, text, columns, comments)
                continue
            raise TextRecordError("not a move, an event (indented), a comment or the digest line",
                                  number, columns[0] if columns else 1)

    def decision(self, number: int, text: str, columns: Sequence[int], comments: list[str]) -> None:
        """A decision line (its comments belong to its first event) and the lines of the events it makes."""
        game, state = self.game, self.state
        if game.outcome(state) is not None:
            raise TextRecordError(f"a move after the game ended ({game.outcome(state).summary})", number, 1)
        need = game.chance_needed(state)
        if need is not None:
            raise TextRecordError(f"a move where the rules wait for chance: {need.prompt}", number, 1)
        seat = game.to_act(state)
        self.turn += 1
        head = f"{self.turn}. {self.players[seat].name}: "
        if not text.startswith(head):
            raise TextRecordError(f"expected '{_shown(head)}' (turn {self.turn} is "
                                  f"{_shown(self.players[seat].name)}'s)", number, 1)
        words = text[len(head):]
        for mark in MARKS:
            if words.endswith(" " + mark):
                words = words[: -len(mark) - 1].rstrip()
                self.marks[len(self.events) + 1] = mark
                break
        col = columns[len(head)] if len(head) < len(columns) else len(text) + 1
        try:
            command = game.parse_command(words)
            batch = list(game.decide(state, command))
        except IllegalCommand:
            legal = [str(c) for c in game.legal_commands(state)]
            shown = ", ".join(legal[:EXPECTED_SHOWN]) + (f" (or {len(legal) - EXPECTED_SHOWN} more)"
                                                         if len(legal) > EXPECTED_SHOWN else "")
            raise TextRecordError(f"not a move of {game.TITLE} here; "
                                  f"expected {shown}", number, col) from None
        self.batches.append((len(self.events), seat))
        self.lines.keep(len(self.events) + 1, comments)
        for event in batch:
            line = self.lines.next()
            while line is not None and not line[1]:  # a comment on the event before, between a move's events
                self.lines.keep(len(self.events), line[2])
                line = self.lines.next()
            if line is None:
                raise TextRecordError("the record ends inside a move", number)
            at, event_text, comments, columns = line
            expected = "   " + game.describe(self.state, event, True)
            if event_text != expected:
                raise TextRecordError(f"event {len(self.events) + 1}: expected '{_shown(expected.strip(), 80)}'",
                                      at, 1)
            self.add(event, at)
            self.lines.keep(len(self.events), comments)

    def handover(self, number: int, text: str) -> None:
        """A `[Handover {"seat": 2, "to": ["Bot", "bot"], "why": "..."}]` line: from here the seat's
        turns are headed by its new player."""
        key, value, _ = parse_tag(text, number)
        if key != "Handover":
            raise TextRecordError(f"a {_shown(key, 32)} tag among the moves (only [Handover ...] lines may be here)",
                                  number, 2)
        if not isinstance(value, dict) or set(value) != {"seat", "to", "why"} or type(value["seat"]) is not int:
            raise TextRecordError('a Handover is {"seat": N, "to": ["name", "bot"], "why": "..."}', number, 11)
        try:
            hand_over(self.game, self.state, self.players, self.handovers, len(self.events), value["seat"] - 1,
                      _player(value["to"], number), value["why"])
        except ValueError as error:
            raise TextRecordError(str(error), number, 11) from None

    def chance_line(self, number: int, text: str, columns: Sequence[int]) -> None:
        game, state = self.game, self.state
        words = text.lstrip(" ")
        col = columns[len(text) - len(words)]
        if not words.startswith("* "):
            raise TextRecordError("an event line that is not the move's own (a chance outcome starts with '* ')",
                                  number, col)
        need = game.chance_needed(state) if game.outcome(state) is None else None
        if need is None:
            raise TextRecordError(f"event {len(self.events) + 1}: a chance outcome where the rules expect none",
                                  number, col)
        words = words[2:]
        if words.startswith(TYPED + " "):
            faces_text, sep, words = words[len(TYPED) + 1:].partition(" = ")
            faces = faces_text.split(" ")
            if not sep or not all(f in ("1", "2", "3", "4", "5", "6") for f in faces):
                raise TextRecordError(f"typed dice are written '* {TYPED} 4 6 = ...' (faces 1 to 6)", number, col + 2)
            if not need.dice:
                raise TextRecordError(f"event {len(self.events) + 1}: only dice can be typed, not this ({need.prompt})",
                                      number, col + 2)
            if len(faces) != len(need.spec):
                raise TextRecordError(f"event {len(self.events) + 1}: {len(need.spec)} dice here, not {len(faces)}",
                                      number, col + 2)
            event = game.chance_event(state, tuple(int(f) - 1 for f in faces), True)
            self.typed.append((len(self.events), event, state, self.used, need.spec))
            source = "the typed dice give"
        else:
            draws = seeded_draws(self.seed, self.used, need.spec)
            event = game.chance_event(state, draws, False)
            self.used += len(need.spec)
            source = "the seed gives"
        expected = game.describe(state, event, True)
        if words != expected and source == "the seed gives":
            self.re_marked(words, need)
        if words != expected:
            _, derived = _differing(words, expected)  # from where they differ; the file's own words are not shown
            raise TextRecordError(f"event {len(self.events) + 1}: not what {source} ('{derived}')",
                                  number, col + 2)
        if not self.batches:
            self.batches.append((0, None))
        self.add(event, number)

    def re_marked(self, words: str, need: Any) -> None:
        """A seeded outcome re-marked as typed shifts every later seeded draw, so the first seeded line
        after it fails: when an earlier typed outcome holds exactly the seed's own dice and counting
        it as seeded makes this line right, that line is the one changed, and the error names it."""
        game, seed = self.game, self.seed
        for index, event, before, used, spec in reversed(self.typed):
            if game.chance_event(before, seeded_draws(seed, used, spec), True) != event:
                continue
            later = seeded_draws(seed, self.used - len(need.spec) + len(spec), need.spec)
            if game.describe(self.state, game.chance_event(self.state, later, False), True) == words:
                raise TextRecordError(f"event {index + 1}: marked as typed, but these are the seed's own dice "
                                      "(the mark was changed)", self.event_lines[index], 4)

    def add(self, event: Any, number: int) -> None:
        self.events.append(event)
        self.event_lines.append(number)
        self.state = self.game.evolve(self.state, event)

    def digest(self, number: int, text: str) -> None:
        parts = text.split(" ")
        expected = f"digest {engine.digest(self.state)} after {len(self.events)} events"
        if len(parts) != 5 or parts[2] != "after" or parts[4] != "events":
            raise TextRecordError("the digest line is 'digest HEX after N events'", number, 1)
        if parts[3] != str(len(self.events)):
            raise TextRecordError(f"the digest line's count of events is not the record's, "
                                  f"{len(self.events)}", number, 1)
        if text != expected:
            raise TextRecordError("the digest does not match the game the lines give (the record was changed)",
                                  number, 8)

    def build(self) -> None:
        """The session, refolded batch by batch through the engine's own checks of a recorded log."""
        bounds = [start for start, _ in self.batches] + [len(self.events)]
        try:
            for (start, seat), end in zip(self.batches, bounds[1:]):
                if start < end:
                    self.session.replay_batch(self.events[start:end], seat)
        except LogError as error:
            raise TextRecordError(str(error), self.event_lines[error.index]) from None
        self.session.players, self.session.labels.handovers = tuple(self.players), tuple(self.handovers)


def read_text(text: str, label: str) -> Session:
    """See replays.text.read_text."""
    del label  # the caller names the file in front of the message
    lines = _Lines(text)
    tags, players, extra = _read_tags(lines)
    session = _session(tags, players)
    reader = _Reader(session, lines)
    reader.read()
    while (line := lines.next()) is not None:  # after the digest: comments and blank lines only
        number, rest, line_comments, columns = line
        if rest:
            raise TextRecordError("text after the digest line (only comments may follow it)", number,
                                  columns[len(rest) - len(rest.lstrip())])  # its first character not a space
        lines.keep(len(reader.events), line_comments)
    reader.build()
    _claims(session, tags, len(reader.events))
    comments: dict[int, str] = {}
    notes: dict[int, list[str]] = {}
    cut: list[int] = []
    for position, texts in lines.comments.items():
        players_own = [t for t in texts if not t.startswith(ANALYSIS_NOTE)]
        kept = [clean_text(t, MAX_COMMENT) for t in texts if t.startswith(ANALYSIS_NOTE)]
        if kept:
            notes[position] = kept
        own = "\n".join(players_own)  # the comments at one place: a line each, as the writer puts a comment's lines
        text = clean_comment(own)
        if text:
            comments[position] = text
        if comment_overflow(own):
            cut.append(position)  # cut to fit, and said
    session.labels.comments = MappingProxyType(comments)
    session.labels.notice = cut_note(cut)
    session.labels.record_notes = notes
    session.labels.record_marks = reader.marks
    session.labels.record_extra_tags = tuple(extra)
    return session


def _claims(session: Session, tags: dict[str, tuple[Any, int]], events: int) -> None:
    """The tags no rule can check, read as claims (as a binary replay's header is)."""
    outcome = session.outcome
    result, number = tags["Result"]
    given = outcome.summary if outcome else "*"
    if result != given:
        raise TextRecordError(f"the Result tag is not what the moves give "
                              f"({_shown(given, 60)})", number)
    typed = sum(1 for e in session.events if getattr(e, "typed", False))
    if tags["Typed"][0] != typed:
        raise TextRecordError(f"the Typed tag is not the record's count: it has "
                              f"{typed} typed outcomes", tags["Typed"][1])
    undos = _tag(tags["Undos"][0], "Undos", (int,), "a number", tags["Undos"][1])
    if not 0 <= undos < 1 << 40:  # a claim shown as it is: a count a game could have, not 400 digits
        raise TextRecordError("the Undos tag is not a count", tags["Undos"][1])
    assists, number = tags["Assists"]
    if not isinstance(assists, list) or len(assists) > 10_000:
        raise TextRecordError('the Assists tag is a list of ["hint", EVENTS]', number)
    kept = []
    for entry in assists:
        if (not isinstance(entry, list) or len(entry) != 2 or entry[0] not in ASSIST_KINDS
                or type(entry[1]) is not int or not 0 <= entry[1] <= events):
            raise TextRecordError(f"an assist is [KIND, EVENTS] (kinds: {', '.join(ASSIST_KINDS)})", number)
        kept.append((entry[0], entry[1]))
    if "Abandoned" in tags:
        abandoned, number = tags["Abandoned"]
        _tag(abandoned, "Abandoned", (str,), "text", number)
        if outcome is not None:
            raise TextRecordError("the Abandoned tag on a game that reached its end", number)
        session.labels.abandoned = clean_text(abandoned, MAX_ABANDONED)
    session.undos = undos
    session.labels.assists = tuple(kept)
    session.labels.save_name = clean_text(_tag(tags["Name"][0], "Name", (str,), "text", tags["Name"][1]))
    session.labels.recorded_result = clean_text(given, 120)
    session.labels.header_claimed = True  # the viewer marks the undo count as claimed
    session.labels.record_date = clean_text(_tag(tags["Date"][0], "Date", (str,), "text", tags["Date"][1]), 40)
    session.labels.record_dicehall = clean_text(_tag(tags["Dicehall"][0], "Dicehall", (str,), "text", tags["Dicehall"][1]), 40)
