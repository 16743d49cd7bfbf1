"""The War of Bones bots at a readable pace: a pause before each answer (Space hurries them), the
answer thought out in a worker thread so the screen keeps answering keys, and an answer for a
position that went away (undone, redone, left) dropped."""
from __future__ import annotations

from typing import TYPE_CHECKING

from textual.timer import Timer

from dicehall.engine import JournalError
from dicehall.engine.games import bones, entry_of
from dicehall.engine.games.bones import BonesState

if TYPE_CHECKING:
    from dicehall.tui.screens.stepping import SteppedBatches as BotsScreen
else:
    BotsScreen = object  # a mixin: the War of Bones screen gives the rest (the type checker sees it)


class PacedBots(BotsScreen):
    """For the War of Bones screen: it gives session, stepper, shown, redraw(), refuse() and
    after_change(); a bot's move is played through the same session as a person's."""

    BOT_PACE = 0.6  # before a bot answers, so people can follow
    bot_timer: Timer | None = None
    thinking = 0  # the current bot ticket: an answer for an older one is dropped
    hurry = False  # the bots play at once (Space) until a person is to act
    asking = False  # a bot's worker is thinking
    gone = False  # unmounted: nothing more is played or drawn
    if TYPE_CHECKING:  # the screen's
        def refuse(self, message: str) -> None: ...
        def after_change(self, before: int, seat: int | None) -> None: ...

    def bot_to_act(self) -> bool:
        seat = self.session.to_act
        return seat is not None and self.session.players[seat].bot

    def stop_bot(self) -> None:
        self.thinking += 1  # a bot thinking now answers a position that is going away
        self.hurry = False
        for timer in (self.bot_timer, self.stepper):
            if timer is not None:
                timer.stop()
        self.bot_timer = self.stepper = None
        self.shown = None

    def schedule_bot(self) -> None:
        if not self.bot_to_act() or self.bot_timer is not None or self.stepper is not None:
            if not self.bot_to_act():
                self.hurry = False
            return
        if self.hurry or self.BOT_PACE <= 0:
            # through the screen's queue, behind the drawing and the keys already posted: bots playing
            # at once never starve a player's key (q was handled only once the game was over)
            self.call_later(self.start_bot)
        else:
            self.bot_timer = self.set_timer(self.BOT_PACE, self.start_bot)

    def start_bot(self) -> None:
        self.bot_timer = None
        if not self.bot_to_act() or self.gone or self.asking:
            return
        self.asking = True
        self.thinking += 1
        ticket = self.thinking
        state = self.session.state
        assert self.session.to_act is not None  # bot_to_act()
        bot = entry_of(bones.ID).bots[self.session.players[self.session.to_act].style or bones.LEVELS[0]]
        seed, nonce = self.session.seed, len(self.session.events)
        self.redraw()

        def think() -> None:
            try:
                command = bot(state, seed, nonce)
            except Exception as error:  # shown, never swallowed: the game waits for a key
                command = error
            self.app.call_from_thread(self.bot_answered, ticket, state, command)

        self.run_worker(think, thread=True, group="bones-bot", exit_on_error=False)

    def leave_bots(self) -> None:
        """The screen is left (q): no bot plays on in the moment before it is unmounted."""
        self.stop_bot()
        self.gone = True

    def on_unmount(self) -> None:
        self.thinking += 1  # left while a bot thought: its answer must not touch the closed save
        self.gone = True
        for timer in (self.bot_timer, self.stepper):
            if timer is not None:
                timer.stop()
        super().on_unmount()

    def bot_answered(self, ticket: int, state: BonesState, command) -> None:
        self.asking = False
        if self.gone:
            return
        if isinstance(command, Exception):
            self.refuse(f"the bot failed: {command}; Space asks it again")
            return
        if ticket != self.thinking or self.session.state is not state or not self.bot_to_act():
            return  # undone, redone or left while it thought: that answer is for another position
        before = len(self.session.events)
        try:
            self.session.play(command)
        except JournalError as error:  # the save could not be written: the bot's move is not made
            self.hurry = False
            self.refuse(f"{error.reason}: the bot's move was not saved; make room, then press Space")
            return
        self.after_change(before, None)
