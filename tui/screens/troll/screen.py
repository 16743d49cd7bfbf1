"""The Angry Troll screen: the bridge (drawn by `bridge`), the log under it (`log`), the troll's
keys (an action, or p / e / l and an arrow to aim it) and every phase after an action stepped
through as it happens."""
from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical


from dicehall.engine.games import troll
from dicehall.engine.games.troll import LayDown, Move, PickUp, Stomp, ThrowDiamond, TrollState, UseClub, UseSpade, Wait
from dicehall.engine.words import counted
from dicehall.tui.screens.base import GameScreen, with_deal
from dicehall.tui.screens.stepping import SteppedBatches
from dicehall.tui.screens.troll.bridge import WIDTH, draw_board
from dicehall.tui.screens.troll.log import TrollLog, batch_words, step_words
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine


def title_line(name: str, where: str, undos: int, width: int = WIDTH) -> str:
    """"Troll: NAME  WHERE  (undos N)" in at most `width` columns: the name gives way first (a name that
    only repeats the game's title is left out), then the rest is cut."""
    name = name.removeprefix(troll.TITLE).strip()
    tail = f"  {where}  (undos {undos})"
    room = width - len("Troll: ") - len(tail)
    if name and room >= 10:
        name = name if len(name) <= room else name[: room - 3] + "..."
        return f"Troll: {name}{tail}"
    text = f"Troll:{tail[1:]}"
    return text if len(text) <= width else text[: width - 3] + "..."


class TrollScreen(SteppedBatches, GameScreen):
    BINDINGS = [
        Binding("up", "arrow('up')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("down", "arrow('down')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("left", "arrow('left')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("right", "arrow('right')", "Move", show=False, tooltip="move the troll (or aim p, e, l)"),
        Binding("s", "stomp", "Stomp", tooltip="stomp the awake card under the troll"),
        Binding("p", "aim('pick up')", "Pick up", tooltip="pick up, then an arrow: which card"),
        Binding("e", "aim('use')", "Use", tooltip="use the carried card, then an arrow: on which card"),
        Binding("l", "aim('lay down')", "Lay down", tooltip="lay down the carried card, then an arrow: where"),
        Binding("w", "wait", "Wait", tooltip="wait: only when no action is possible"),  # rarely in the footer
        Binding("h", "hint", "Hint", tooltip="hint: this turn's best two actions, and why"),
        Binding("H", "deep_hint", "Deeper hint", show=False,
                tooltip="deeper hint: the best lines played on over sampled deals (takes a moment)"),
    ]
    HELP_NOTES = ("On the bridge: ## dormant, a name with ! awake, >..< the troll, the number the "
                  "stack's height; a * after it: an awake card is buried in that stack (no win while "
                  "it is there). After an action the screen steps through what follows (the flight, "
                  "the checks, each awakening) one line at a time; any key shows the rest at once. "
                  "The log marks the last action's lines with >.")

    STEP_SECONDS = 0.7  # the pause between the steps of a batch (0: show a batch at once)

    def __init__(self, session) -> None:
        super().__init__(session)
        self.aiming: str | None = None
        self.hint: tuple[TrollState, str] | None = None  # the state a hint answers, and the hint in words

    def on_key(self, event: events.Key) -> None:
        """Runs before the key's binding. While a batch is being stepped through, any key shows the
        rest at once and does nothing else (the player acts on a board they have seen); q then
        leaves all the same (stepping.py). A key other
        than an arrow or Escape ends aiming, so the next arrow moves the troll."""
        if self.key_while_stepping(event):
            return
        if self.aiming is not None and event.key not in ("up", "down", "left", "right", "escape"):
            self.aiming = None
        super().on_key(event)

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Vertical(id="troll-body"):
            yield Plain("", id="bridge")
            yield TrollLog("", id="troll-log")
        yield StatusLine("arrows move; s stomp, p pick up, e use, l lay down; h or H hint; ? all keys")
        yield KeysFooter()

    def shown_count(self) -> int:
        return len(self.session.events) if self.shown is None else self.shown

    def redraw(self) -> None:
        session = self.session
        count = self.shown_count()
        state: TrollState = session.state_at(count)  # while stepping: as far as the words go
        name = session.labels.save_name
        outcome = troll.outcome(state)
        actions = f"{counted(state.actions_left, 'action')} left"  # short: the name needs room
        phase = {"actions": actions, "awakening": "awakening",
                 "checks": "flight done, checks"}.get(state.phase, state.phase)
        label = troll.game_label(session.options)
        where = troll.progress(state).upper() if outcome else f"{label}: turn {state.turn}, {phase}"
        title = with_deal(title_line(name, where, session.undos), session, WIDTH)
        self.query_one("#title", Plain).show(Text(title, style="bold"))
        self.query_one("#bridge", Plain).show(draw_board(state))
        hint = self.hint[1] if self.hint is not None and self.hint[0] is state else None  # until the bridge changes
        self.query_one(TrollLog).draw(session, count, state, self.batch_start(), hint)
        self.refresh_bindings()  # the footer greys out the actions that are not legal now

    def play(self, command) -> None:
        before = len(self.session.events)
        if self.attempt(lambda: self.session.play(command)):
            if len(self.session.events) - before > 1 and self.STEP_SECONDS > 0:
                self.start_steps(before + 1)  # the action first; the timer adds what follows, line by line
            else:
                self.say_batch()
        self.redraw()

    def steps_done(self) -> None:
        self.say_batch()
        self.redraw()

    def say_step(self) -> None:
        self.status(step_words(self.session, self.shown_count(), self.batch_start()))

    def say_batch(self) -> None:
        words = batch_words(self.session, self.batch_start())
        if words is not None:
            self.status(words)

    def action_arrow(self, direction: str) -> None:
        if self.aiming is None:
            self.play(Move(direction))
            return
        aiming, self.aiming = self.aiming, None
        if aiming == "pick up":
            self.play(PickUp(direction))
        elif aiming == "lay down":
            self.play(LayDown(direction))
        else:
            self.play(self.use_command(direction))

    def use_command(self, direction: str):
        """The carried card decides what "use" does; the engine says why if it cannot."""
        legal = [c for c in self.session.commands() if isinstance(c, (UseClub, ThrowDiamond, UseSpade))]
        for command in legal:
            if command.direction == direction:
                return command
        carried = [c for c in self.session.state.carried if c.awake]
        suit = carried[0].suit if carried else ""
        return {"C": UseClub, "D": ThrowDiamond, "S": UseSpade}.get(suit, UseClub)(direction)

    KINDS = {"pick up": (PickUp,), "use": (UseClub, ThrowDiamond, UseSpade), "lay down": (LayDown,),
             "stomp": (Stomp,), "wait": (Wait,)}

    def offered(self, what: str) -> list:
        return [c for c in self.session.commands() if isinstance(c, self.KINDS[what])]

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The actions that are not legal now are left out of the footer (only legal ones are offered)."""
        what = {"aim": parameters[0] if parameters else "", "stomp": "stomp", "wait": "wait"}.get(action)
        if what in self.KINDS and not self.offered(what):
            return None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        what = parameters[0] if action == "aim" else action
        if self.session.outcome is not None:
            return f"the game is over: {self.session.outcome.summary}; v reviews it"
        if self.session.to_act is None:
            return "the troll is not to act now"
        if what == "wait":
            return "the troll can still act: wait is only for when no action is possible"
        if what == "stomp":
            top = self.session.state.top(self.session.state.troll)
            return "the card under the troll is dormant already" if top and not top.awake else "nothing to stomp"
        return f"nothing to {what} now: " + self.why_not(what)

    def action_aim(self, what: str) -> None:
        options = self.offered(what)
        self.aiming = what
        self.status(f"{what}: which way? " + ", ".join(c.direction for c in options) + " (an arrow; Esc cancels)")

    def why_not(self, what: str) -> str:
        state: TrollState = self.session.state
        if what == "pick up":
            if state.club_held:
                return "THE CLUB fills the troll's hands"
            if state.carried:
                return "the troll's hands are full"
            return "no awake non-heart card next to it"
        if what == "lay down":
            return "it carries no dormant card" if not any(not c.awake for c in state.carried) else "no place"
        if not any(c.awake for c in state.carried):
            return "it carries no awake card"
        return "no awake card it could hit"

    def action_back(self) -> None:
        if self.aiming:
            self.aiming = None
            self.status("cancelled")
            return
        super().action_back()

    def action_stomp(self) -> None:
        self.play(Stomp())

    def action_wait(self) -> None:
        self.play(Wait())

    def action_hint(self) -> None:
        from dicehall.engine.bots import troll as troll_bot

        if self.session.to_act is None:
            self.status("no hint: the troll is not to act", error=True)
            return
        if self.assisted(self.session, "hint"):
            self.show_hint(self.session.state, troll_bot.best_turn(self.session.state), "hint")

    def show_hint(self, state: TrollState, plan, label: str) -> None:
        actions = " then ".join(str(c) for c in plan.commands)
        # the reason can be longer than a line: the whole hint goes above the log, wrapped
        self.hint = (state, f"{label.upper()}: {actions} ({plan.reason})")
        # a pointer, not a reason: "(why: under the bridge)" read as the reason itself
        self.status(f"{label}: {actions} (its reason is written above the log)")
        self.redraw()

    def action_deep_hint(self) -> None:
        """The deeper hint thinks in a worker; its answer is dropped if the bridge changed meanwhile."""
        if self.session.to_act is None:
            self.status("no hint: the troll is not to act", error=True)
            return
        if not self.assisted(self.session, "hint"):
            return
        state, seed = self.session.state, self.session.seed
        assert seed is not None  # a game played on a screen draws from its seed (only a follower's has none)
        self.status("deeper hint: thinking...")

        def think() -> None:
            from dicehall.engine.bots import troll_search

            plan = troll_search.best_turn(state, seed)
            self.app.call_from_thread(self.deep_hint_answered, state, plan)

        self.run_worker(think, thread=True, group="troll-deep-hint", exclusive=True, exit_on_error=False)

    def deep_hint_answered(self, state: TrollState, plan) -> None:
        if self.is_mounted and self.session.state is state:
            self.show_hint(state, plan, "deeper hint")
