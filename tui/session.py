"""The session a game screen sees: one typing.Protocol, GameSession, for the two kinds a screen is
given. The engine's Session (a game on a save, or in memory) and the hall's HallSession (a seat at
a hall table: read from the fold, moves through the hall's log) both satisfy it; a screen is
annotated with it and uses nothing else of either. tests/test_session_protocol.py checks both at
run time, and mypy checks the two functions at the end of this module and of
tui/screens/hall/table.py.

The data are read-only properties here, so a session may keep any of them as a plain attribute
(Session's `seed` is an int or None, HallSession's always an int)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence, runtime_checkable

from dicehall.engine.core import ChanceNeeded, HostLabels, Outcome, Player

if TYPE_CHECKING:
    from types import ModuleType

    from dicehall.engine.session import Session
    from dicehall.saves.drafts import DraftFile


@runtime_checkable
class GameSession(Protocol):
    """What a game screen reads of the game it shows, and the changes it asks for."""

    @property
    def game(self) -> ModuleType: ...  # the game's module (engine/contract.py's GameModule)
    @property
    def seed(self) -> int | None: ...  # the bots' tie-breaks; never a hall game's secret seed
    @property
    def options(self) -> dict: ...
    @property
    def players(self) -> tuple[Player, ...]: ...
    @property
    def labels(self) -> HostLabels: ...  # what the host calls the game: its name, the notice on opening ...

    # ----- the game as it stands -----
    @property
    def state(self) -> Any: ...
    @property
    def events(self) -> Sequence[Any]: ...
    @property
    def marks(self) -> Sequence[Any]: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def chance_needed(self) -> ChanceNeeded | None: ...
    @property
    def undos(self) -> int: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def can_redo(self) -> bool: ...
    def commands(self) -> list: ...
    def describe(self, n: int, reveal: bool = True) -> str: ...
    def state_at(self, n: int) -> Any: ...
    def turn_starts(self) -> list[int]: ...
    @property
    def journal(self) -> object: ...  # where its records go (a journal's drafts: saves/drafts.py)
    @property
    def draft_file(self) -> DraftFile | None: ...  # where a writer's draft is kept apart from them (a hall table's)

    # ----- what the player asks (a hall table sends it through the hall) -----
    def play(self, command: Any, faces: Sequence[int] | None = None) -> tuple: ...
    def roll(self, faces: Sequence[int]) -> tuple: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...


if TYPE_CHECKING:
    def engine_session_is_one(session: Session) -> GameSession:
        return session  # mypy: the engine's Session satisfies the Protocol (HallSession: in its module)
