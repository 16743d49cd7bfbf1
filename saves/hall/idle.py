"""Idle seats (a part of HallGame): a person on their turn longer than the admin's idle time, and the
other players handing that seat to a bot or ending the game as abandoned (an `idle` record)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from dicehall.engine.core import IllegalCommand
from dicehall.engine.session import Session
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves.hall.fold import HallFold


class IdleSeats:
    """HallGame's idle seats: it uses the game's `fold`, `session`, `seat`, `to_act`, `hall`,
    `_append` and `settle`."""

    hall: Any
    fold: HallFold
    seat: int | None

    if TYPE_CHECKING:  # HallGame's
        @property
        def session(self) -> Session | None: ...
        @property
        def to_act(self) -> int | None: ...
        def _append(self, record: dict) -> None: ...
        def settle(self) -> None: ...

    def idle_for(self, seat: int, now: float | None = None) -> int | None:
        """The hall's idle time in minutes if `seat` is a person's, on its turn, and has not moved
        for that long (by the log's last time); else None. Off (None) unless the admin set it."""
        fold = self.fold
        if (fold.last_at is None or fold.over or self.session is None or seat != self.session.to_act
                or fold.seats[seat].kind != "player"):
            return None
        minutes = self.hall.idle_minutes()
        if not minutes:
            return None
        now = time.time() if now is None else now
        return minutes if now - fold.last_at >= minutes * 60 else None

    def idle_seat(self) -> int | None:
        """Another person's seat that is idle now (what this player may hand to a bot or end the game over)."""
        seat = self.to_act
        return seat if seat is not None and seat != self.seat and self.idle_for(seat) else None

    def claim_idle(self, then: str) -> None:
        """Hand the idle seat to move to a bot (`then` "bot") or end the game as abandoned ("abandon").
        IllegalCommand (one line) unless another person's seat is idle now by the hall's setting."""
        if self.seat is None:
            raise IllegalCommand("only the game's players can act on an idle seat")
        seat = self.to_act
        minutes = self.hall.idle_minutes()
        if not minutes:
            raise IllegalCommand("idle seats are off in this hall (its admin sets idle_minutes in hall.toml)")
        if seat is None or seat == self.seat or self.fold.seats[seat].kind != "player":
            raise IllegalCommand("no other player's turn is waiting: no seat is idle")
        now = time.time()
        if self.idle_for(seat, now) is None:
            left = max(1, int((self.fold.last_at or now) + minutes * 60 - now + 59) // 60)
            raise IllegalCommand(f"{clean_text(self.fold.seat_name(seat), 40)} is not idle yet: "
                                 f"{counted(left, 'minute')} to go (idle after {minutes})")
        self._append({"op": "idle", "by": self.seat, "seat": seat, "then": then, "after": minutes, "at": round(now, 3)})
        self.settle()
