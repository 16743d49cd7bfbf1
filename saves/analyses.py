"""Stored analyses (issue #22): an analysis is kept under the data folder (DATA/analyses/), keyed by
the game's content (its digest: the game, rules, seed, options, players and events, so a save and
its exported replay share it), the analyser's version (ANALYSER_VERSION of its module, bumped when
its marks change) and the samples it used, so nothing is analysed twice and practice starts at once.

A stored analysis is a file: it is read as hostile. Its size is capped, its schema checked field by
field against the game it claims to judge (events, seats, figures within range, marks known, text
cleaned and cut); anything off and it is ignored with one line, analysed again and stored anew."""
from __future__ import annotations

import json
import math
import os
from hashlib import blake2b
from importlib import import_module
from pathlib import Path
from typing import Any, Callable

import msgpack

from dicehall.durable import open_regular
from dicehall.engine import analysis
from dicehall.engine.analysis import MARKS, Analysis, Decision, Luck, Point
from dicehall.engine.analysis.shape import ShapeError, ascending, maybe, number, rows, text, whole
from dicehall.engine.codec import encode_event
from dicehall.engine.text import clean_text
from dicehall.saves.errors import os_reason
from dicehall.saves.files import home, make_dirs, write_new

FORMAT = 3  # 2: a decision also keeps the equity played and best and the noise (the troll marks by equity); 3: its words
MAX_STORED = 8 * 1024 * 1024  # bytes: a long game's analysis is far below this
MAX_TEXT = 400  # a move's words
MAX_NOTES, MAX_NOTE = 20, 600
MAX_EXTRA_ITEMS = 200_000  # values in the per-game figures (the Dice Tower's odds: a few per event)
MAX_DEPTH = 6
FIGURE_LIMIT = 40


StoredAnalysisError = ShapeError  # a stored analysis that cannot be trusted: what and where, in one line


def analyses_dir() -> Path:
    folder = home() / "analyses"
    make_dirs(folder, 0o700)
    return folder


def content_digest(session) -> str:
    """32 hex digits of the game's content: what it is and every event, not its name or dates."""
    content = [session.game.ID, session.game.RULES_VERSION, session.seed, session.options,
               [p.record() for p in session.players], [encode_event(e) for e in session.events],
               [[m.start, m.player] for m in session.marks]]
    return blake2b(msgpack.packb(content, use_bin_type=True, default=repr), digest_size=16).hexdigest()


def analyser_version(game: str) -> int:
    return int(getattr(import_module(analysis.ANALYSERS[game]), "ANALYSER_VERSION", 0))


def samples_used(session, samples: int | None, budget: float | None) -> int | None:
    """The samples an analysis will use, as engine.analysis.analyse chooses them (None: the game's own)."""
    module = import_module(analysis.ANALYSERS[session.game.ID])
    if budget is not None and samples is None and hasattr(module, "samples_for_budget"):
        samples = module.samples_for_budget(session, budget)
    return samples if samples is not None else getattr(module, "SAMPLES", None)


def stored_path(session, samples: int | None) -> Path:
    game = session.game.ID
    tail = "exact" if samples is None else f"s{samples}"
    return analyses_dir() / f"{content_digest(session)}-{game}-v{analyser_version(game)}-{tail}.json"


# ----- writing -----
def to_document(result: Analysis, session, samples: int | None) -> dict:
    return {
        "format": FORMAT, "game": result.game, "analyser_version": analyser_version(result.game),
        "digest": content_digest(session), "samples": samples, "figure": result.figure,
        "decisions": [[d.event, d.seat, d.played, d.best, d.chance_played, d.chance_best, d.mark,
                       d.equity_played, d.equity_best, d.noise, d.words] for d in result.decisions],
        "chance": [[c.event, c.luck, c.seat] for c in result.chance],
        "curve": [[p.event, p.value] for p in result.curve],
        "notes": list(result.notes),
        "extra": result.extra,
    }


def store(result: Analysis, session, samples: int | None) -> Path:
    """Keep `result` for `session` (written whole, then put in place: never half a file)."""
    path = stored_path(session, samples)
    data = json.dumps(to_document(result, session, samples), allow_nan=False).encode()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write_new(temporary, data, 0o600)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


# ----- reading, as hostile -----
def _plain(value, depth: int, budget: list) -> Any:
    """JSON data of bounded depth and size (the per-game figures), checked all through."""
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise StoredAnalysisError("the per-game figures are nested too deep or too large")
    if isinstance(value, dict):
        return {text(key, 60, "a per-game figure's name"): _plain(item, depth + 1, budget) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item, depth + 1, budget) for item in value]
    if isinstance(value, str):
        return text(value, MAX_NOTE, "a per-game figure")
    if isinstance(value, float) and not math.isfinite(value):
        raise StoredAnalysisError("a per-game figure is not a finite number")
    if value is None or isinstance(value, (bool, int, float)):
        return value
    raise StoredAnalysisError("a per-game figure is of an unknown kind")


def from_document(document, session, samples: int | None) -> Analysis:
    """The Analysis a stored document holds, checked against `session`; StoredAnalysisError if not."""
    if not isinstance(document, dict):
        raise StoredAnalysisError("not a stored analysis")
    keys = {"format", "game", "analyser_version", "digest", "samples", "figure", "decisions", "chance", "curve",
            "notes", "extra"}
    if set(document) != keys:
        raise StoredAnalysisError("its fields are not a stored analysis's")
    game = session.game.ID
    if type(document["format"]) is not int or document["format"] != FORMAT:
        raise StoredAnalysisError(f"format {clean_text(repr(document['format']), 20)} is not {FORMAT}")
    if document["game"] != game or document["digest"] != content_digest(session):
        raise StoredAnalysisError("it is of another game")
    if (type(document["analyser_version"]) is not int or document["analyser_version"] != analyser_version(game)
            or type(document["samples"]) is not type(samples) or document["samples"] != samples):
        raise StoredAnalysisError("it is of another analyser version or samples")
    events, seats = len(session.events), len(session.players)
    figure = text(document["figure"], FIGURE_LIMIT, "the figure")
    if figure != analysis.figure_for(game):  # another game's figure: the report would read it as that game's
        raise StoredAnalysisError(f"its figure is not {analysis.figure_for(game)}")
    win_chance = figure != analysis.PULLS_LEFT
    top = 1.0 if win_chance else 1e6
    decisions = []
    for n, (event, seat, played, best, chance_played, chance_best, mark, equity_played, equity_best, noise,
            words) in enumerate(rows(document["decisions"], 11, events, "decision"), start=1):
        if mark not in ("",) + MARKS:
            raise StoredAnalysisError(f"decision {n}'s mark is not one of {' '.join(MARKS)}")
        decisions.append(Decision(whole(event, 1, events, f"decision {n}'s event"),
                                  whole(seat, 0, seats - 1, f"decision {n}'s seat"),
                                  text(played, MAX_TEXT, f"decision {n}'s move"),
                                  text(best, MAX_TEXT, f"decision {n}'s best move"),
                                  number(chance_played, 0.0, 1.0, f"decision {n}'s chance"),
                                  number(chance_best, 0.0, 1.0, f"decision {n}'s best chance"), mark,
                                  maybe(equity_played, 0.0, 1.0, f"decision {n}'s equity"),
                                  maybe(equity_best, 0.0, 1.0, f"decision {n}'s best equity"),
                                  maybe(noise, 0.0, 1.0, f"decision {n}'s noise"),
                                  text(words, MAX_TEXT, f"decision {n}'s words")))
    chance = [Luck(whole(event, 1, events, f"luck {n}'s event"), number(luck, -top, top, f"luck {n}"),
                   whole(seat, 0, seats - 1, f"luck {n}'s seat"))
              for n, (event, luck, seat) in enumerate(rows(document["chance"], 3, events, "luck"), start=1)]
    curve = [Point(whole(event, 0, events, f"point {n}'s event"), number(value, 0.0, top, f"point {n}"))
             for n, (event, value) in enumerate(rows(document["curve"], 2, events + 1, "point"), start=1)]
    notes = document["notes"]
    if not isinstance(notes, list) or len(notes) > MAX_NOTES:
        raise StoredAnalysisError(f"the notes are not a list of at most {MAX_NOTES}")
    notes = tuple(text(note, MAX_NOTE, "a note") for note in notes)
    extra = document["extra"]
    if not isinstance(extra, dict):
        raise StoredAnalysisError("the per-game figures are not a table")
    extra = _plain(extra, 0, [MAX_EXTRA_ITEMS])
    for d in decisions:  # the marks use the equity where both are given, else the win chance: never one
        if (d.equity_played is None) != (d.equity_best is None):
            raise StoredAnalysisError(f"decision at event {d.event} has one equity of the two")
    ascending([point.event for point in curve], "curve's points")
    _decisions_of_the_game(decisions, session)
    result = Analysis(game, figure, tuple(decisions), tuple(chance), tuple(curve), notes, extra,
                      names=tuple(p.name for p in session.players))
    analysis.check_stored(result, session)  # the game's own figures, by the checker beside its analyser
    return result


def _within_what_an_analysis_holds(data: bytes, events: int) -> None:
    """Before it is parsed, so that a crafted file costs at most a few times its bytes: an empty list
    costs 2 bytes and 56 in memory, a number 2 bytes and 32, a string 3 bytes and 52. What the
    analysers write has a few rows an event (decisions, luck, curve, figures: at most 30 values), a
    list or table in 8 bytes or fewer, and few strings that are not a table's names (a decision's
    three). Separators and quotes inside the texts are counted too: the slack is theirs."""
    containers = data.count(b"[") + data.count(b"{")
    most = min(len(data) // 8, 16 * (events + 1)) + 64
    if containers > most:
        raise StoredAnalysisError(f"more lists and tables ({containers:,}) than an analysis of this game holds ({most:,})")
    texts, most = data.count(b'"') // 2 - data.count(b'":'), 8 * (events + 1) + 1024  # names are shared once parsed
    if texts > most:
        raise StoredAnalysisError(f"more texts ({texts:,}) than an analysis of this game holds ({most:,})")
    values, most = data.count(b",") + data.count(b":") + containers + 1, 32 * (events + 1) + 4096
    if values > most:
        raise StoredAnalysisError(f"more values ({values:,}) than an analysis of this game holds ({most:,})")


def _decisions_of_the_game(decisions: list[Decision], session) -> None:
    """Each decision one the game had: its seat to act just before its event, its move played and
    its best among the choices there (in practice's words, the analyser's own). Within range is not
    enough: a die roll's event passed, and practice offered a decision with nothing to choose."""
    from dicehall.engine.analysis import practice

    for d in decisions:
        state = session.state_at(d.event - 1)
        if session.game.to_act(state) != d.seat:
            raise StoredAnalysisError(f"the decision at event {d.event} is not seat {d.seat + 1}'s to make")
        words = {choice for choice, _ in practice.choices(session, d)}
        if d.played not in words or d.best not in words:
            raise StoredAnalysisError(f"the decision at event {d.event} names a move that was not a choice there")


def read_stored(path: Path, session, samples: int | None) -> Analysis:
    """A stored analysis, checked; FileNotFoundError if there is none, StoredAnalysisError if bad."""
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise StoredAnalysisError(os_reason(error)) from None
    try:
        with os.fdopen(fd, "rb") as file:
            data = file.read(MAX_STORED + 1)
    except OSError as error:
        raise StoredAnalysisError(os_reason(error)) from None
    if len(data) > MAX_STORED:
        raise StoredAnalysisError(f"larger than {MAX_STORED // (1024 * 1024)} MiB")
    _within_what_an_analysis_holds(data, len(session.events))
    try:
        document = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise StoredAnalysisError(f"not JSON ({clean_text(str(error), 80)})") from None
    try:
        return from_document(document, session, samples)
    except (ArithmeticError, LookupError, TypeError, AttributeError) as error:  # a check that missed a kind of value:
        raise StoredAnalysisError(f"its figures do not hold together ({type(error).__name__})") from None  # still one line


def stored(session, samples: int | None = None, budget: float | None = None,
           warn: Callable[[str], None] | None = None) -> Analysis | None:
    """The stored analysis of `session` with these samples, if a sound one is kept; a damaged one
    is reported through `warn` (one line) and ignored."""
    if not analysis.has_analyser(session.game.ID):
        return None
    used = samples_used(session, samples, budget)
    path = stored_path(session, used)
    try:
        return read_stored(path, session, used)
    except FileNotFoundError:
        return None
    except StoredAnalysisError as error:
        if warn:
            warn(f"stored analysis {clean_text(path.name, 120)}: {error}; analysing again")
        return None


def analyse_stored(session, samples: int | None = None, budget: float | None = None,
                   warn: Callable[[str], None] | None = None, analyse=None, **reports) -> Analysis:
    """The stored analysis of `session` if a sound one is kept, else a new one, stored (a folder it
    cannot write is said through `warn`, and the analysis is still given). `analyse` stands in for
    engine.analysis.analyse; `reports` (progress, partial) go to it."""
    found = stored(session, samples, budget, warn)
    if found is not None:
        return found
    used = samples_used(session, samples, budget)
    result = (analyse or analysis.analyse)(session, samples=used, **reports)
    try:
        store(result, session, used)
    except (OSError, ValueError) as error:
        if warn:
            warn(f"the analysis could not be stored ({clean_text(str(error), 120)})")
    return result


__all__ = ["StoredAnalysisError", "analyse_stored", "analyses_dir", "content_digest", "read_stored", "store",
           "stored", "stored_path"]
