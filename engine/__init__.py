"""dicehall's engine: games as pure folds of immutable events, driven through sessions.

    s = engine.new_session("dicetower", seed=7, options={"start": 100}, players=["Ada"], dice=None)
    s.commands(); s.play(cmd); s.undo(); s.redo(); s.state; s.events; s.state_at(n); s.outcome
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from dicehall.engine.codec import digest
    from dicehall.engine.core import ChanceNeeded, IllegalCommand, Measure, Outcome, Player, Result
    from dicehall.engine.errors import DicehallError
    from dicehall.engine.games import CATALOGUE, get_game
    from dicehall.engine.session import Journal, JournalError, LogError, Mark, Session

__all__ = [
    "CATALOGUE", "ChanceNeeded", "DicehallError", "IllegalCommand", "Journal", "JournalError", "LogError", "Mark", "Measure",
    "Outcome", "Player", "Result", "Session", "digest", "get_game", "new_seed", "new_session", "replay_upto",
]

VERSION = "0.1.0"

# Each name above from its module, imported the first time it is asked for: importing any engine
# module runs this file first, and `dicehall --help`, `dicehall.engine.errors` or the launcher's
# first frame should not wait for the session, the codec (msgpack, hashlib) and the log to load.
_FROM = {"digest": ".codec", "DicehallError": ".errors", "CATALOGUE": ".games", "get_game": ".games"}
_FROM |= dict.fromkeys(("ChanceNeeded", "IllegalCommand", "Measure", "Outcome", "Player", "Result"), ".core")
_FROM |= dict.fromkeys(("Journal", "JournalError", "LogError", "Mark", "Session"), ".session")


def __getattr__(name: str) -> object:
    return name_later(globals(), name, _FROM)


def name_later(package: dict, name: str, where: dict[str, str]) -> object:
    """A package's `name` (its __getattr__, given its globals), imported the first time it is asked
    for: from its module (where[name], relative to the package: ".core", "..durable"), else the
    package's module of that name."""
    if name not in where:  # a module of the package, `engine.games` as `import dicehall.engine as engine` reads it
        try:
            return importlib.import_module(f"{package['__name__']}.{name}")  # (the import sets it there as well)
        except ModuleNotFoundError as error:
            if error.name != f"{package['__name__']}.{name}":
                raise
            raise AttributeError(f"module {package['__name__']!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(where[name], package["__name__"]), name)
    package[name] = value  # once: the next look-up is a plain attribute
    return value


def new_seed() -> int:
    import secrets  # only new games need it; keeps the app's start fast

    return secrets.randbits(32)


def as_players(players: Sequence[Player | str] | None) -> tuple[Player, ...]:
    from dicehall.engine.core import Player

    return tuple(p if isinstance(p, Player) else Player(str(p)) for p in (players or ()))


def new_session(
    game: str,
    seed: int | None = None,
    options: dict | None = None,
    players: Sequence[Player | str] | None = None,
    dice: Iterable[int] | None = None,
    journal: Journal | None = None,
) -> Session:
    """Start a game. `dice` (d6 faces in order) replaces the seeded source, as physical dice do."""
    from dicehall.engine.games import get_game
    from dicehall.engine.session import Session

    return Session(
        get_game(game),
        seed=new_seed() if seed is None else seed,
        options=options,
        players=as_players(players),
        dice=dice,
        journal=journal,
    )


def replay_upto(source: Session, into: Session, upto: int) -> Session:
    """Play `source`'s first `upto` events into the new session `into`, move by move (each checked
    against the rules and the seed, each mark kept), then let it draw the seed's dice from there on:
    a branch, and the hindsight solver's start of a line."""
    events = source.events  # read once: the log is copied once, not once per turn
    marks = [m for m in source.marks if m.start < upto]
    first = marks[0].start if marks else upto
    if first:
        into.replay_batch(events[:first], None)
    bounds = [m.start for m in marks] + [upto]
    for mark, end in zip(marks, bounds[1:]):
        into.replay_batch(events[mark.start:end], mark.player)
    into.resume_seeded()  # a pull cut off before its dice gets the same dice it had
    return into
