"""Stepping through a batch of events: after a move that sets off more (a troll's flight, troops
rolling into the area), the screen shows one event at a time so a player sees each thing happen;
any key shows the rest at once."""
from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.timer import Timer

if TYPE_CHECKING:
    from dicehall.tui.screens.base import GameScreen as SteppedScreen
else:
    SteppedScreen = object  # a mixin: the game screen it is mixed into gives the rest (the type checker sees it)


class SteppedBatches(SteppedScreen):
    """For a game screen that shows a batch of events one at a time, so a player sees each thing
    happen: while a timer steps on, only the first `shown` events are drawn; any key shows the
    rest at once and is used up, bar q, which then leaves. The screen gives say_step() and steps_done(), and may move past
    events not worth a pause in next_shown()."""

    STEP_SECONDS = 0.7  # the pause between steps (0: show a batch at once)
    shown: int | None = None  # while stepping: how many events are drawn
    stepper: Timer | None = None
    if TYPE_CHECKING:  # the screen's
        def say_step(self) -> None: ...
        def steps_done(self) -> None: ...

    def start_steps(self, first: int) -> None:
        self.shown = first
        self.next_shown()
        self.stepper = self.set_interval(self.STEP_SECONDS, self.step)
        self.say_step()

    def step(self) -> None:
        if self.shown is None or self.shown + 1 >= len(self.session.events):
            self.finish_steps()
            return
        self.shown += 1
        self.next_shown()
        self.say_step()
        self.redraw()

    def finish_steps(self) -> None:
        if self.stepper is not None:
            self.stepper.stop()
            self.stepper = None
        self.shown = None
        self.steps_done()

    def next_shown(self) -> None:
        """Move `shown` past events not worth a pause (none, unless a screen says otherwise)."""

    def key_while_stepping(self, event: events.Key) -> bool:
        """A key pressed while stepping shows the rest and does nothing else: True if it was. q is
        the exception: leaving acts on nothing on the board (the game is saved as played), so the
        rest is shown and q goes on to leave (a single q while bots played at once was used up)."""
        if self.stepper is None:
            return False
        self.finish_steps()
        if event.key == "q":
            return False
        event.stop()
        event.prevent_default()
        return True

    def batch_start(self) -> int:
        """Where the last decision's events begin (with everything that followed it)."""
        starts = self.session.turn_starts()
        return starts[-1] if starts else 0
