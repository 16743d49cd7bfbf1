"""The War of Bones battlefield: the map, the side panel (the players, the rolls, what the one to
act decides and how) and the log, with every roll into the area stepped through at a readable pace.
The screen composes its parts (the map drawing, the troop choice, the attack builder, the
defender's assignment, the offers, the log) and plays what they build; bots think in a worker
thread."""
from __future__ import annotations

import textwrap

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical


from dicehall.engine.games import bones
from dicehall.engine.games.bones import SIDES, BonesState, Keep, TroopLanded, troop_name
from dicehall.tui.screens.base import GameScreen, with_deal
from dicehall.tui.screens.bones.area import WIDE, draw_area, inches
from dicehall.tui.screens.bones.attack import AttackBuilder
from dicehall.tui.screens.bones.bots import PacedBots
from dicehall.tui.screens.bones.defence import DefenceAssignment
from dicehall.tui.screens.bones.log import batch_words, event_words, log_text
from dicehall.tui.screens.bones.offers import OFFER_STAGES, OfferMenu
from dicehall.tui.screens.bones.orders import order
from dicehall.tui.screens.bones.panel import rolls_line, sides_text
from dicehall.tui.screens.bones.troops import ReengagePicks, nearest_troop, own_troops, troop_at, troop_words
from dicehall.tui.screens.stepping import SteppedBatches
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, title_line

STAGE_WORDS = {
    "landing": "troops rolling into the area", "rolloff": "the roll-off", "choose": "Reengage or First Strike",
    "reengage": "Reengage: troops to roll back in", "action": "an action", "attack_roll": "attack dice",
    "attack_reroll": "reroll an attack die?", "defence_roll": "defence dice",
    "defence_reroll": "reroll a defence die?", "assign": "assign the defence dice",
    "reinforce_roll": "the reinforce roll", "reinforce_reroll": "reroll the reinforce die?",
    "reinforce_choice": "which troops roll in", "reroll": "a die rerolled", "over": "game over",
}


class BonesScreen(PacedBots, SteppedBatches, GameScreen):
    ARROWS = "the nearest troop that way; in a list: line, value"
    BINDINGS = [
        Binding("up", "arrow('up')", "Up", show=False, tooltip=ARROWS),
        Binding("down", "arrow('down')", "Down", show=False, tooltip=ARROWS),
        Binding("left", "arrow('left')", "Left", show=False, tooltip=ARROWS),
        Binding("right", "arrow('right')", "Right", show=False, tooltip=ARROWS),
        Binding("tab", "cycle(1)", "Next troop", show=False, tooltip="next troop (in the attack builder: a new line)"),
        Binding("shift+tab", "cycle(-1)", "Previous troop", show=False, tooltip="previous troop"),
        Binding("a", "attack", "Attack", tooltip="attack: Up/Down target, Left/Right strength, Enter"),
        Binding("r", "ask('reinforce')", "Reinforce", tooltip="reinforce (it says what happens first)"),
        Binding("s", "ask('resupply')", "Resupply", tooltip="resupply with the chosen troop (it says first)"),
        Binding("c", "ask('converge')", "Converge", tooltip="converge (it says what happens first)"),
        Binding("enter,y", "confirm", "Confirm",
                tooltip="yes: attack, do it, take the offer, assign"),
        Binding("n", "keep", "No / keep", show=False, tooltip="no: keep the dice, or cancel the question"),
        Binding("space", "space", "Pick / hurry bots", show=False, tooltip="pick a troop in Reengage; hurry the bots"),
        Binding("l", "labels", "Faces/numbers", show=False, tooltip="the map in troop numbers (a#5) or faces (a5)"),
        Binding("escape", "cancel", "Cancel",
                tooltip="cancel the attack or question; else leave, like q"),
    ]
    # two lines, so the help fits 80x24 unscrolled: the marks on the map are in the rules (i)
    HELP_NOTES = ("Map: a5 is an A troop showing 5. Words: B#5 is B's troop number 5. The panel gives "
                  "each step's keys; the rules (i) explain the map's marks.")

    STEP_SECONDS = 0.45  # between the steps of a batch of events (0: show a batch at once)
    SETUP_SECONDS = 0.3  # between the troops rolled into the area when a game starts

    def __init__(self, session) -> None:
        super().__init__(session)
        self.selected: tuple[int, int] | None = None
        self.names = False
        self.mode = ""  # "", "builder", "confirm"
        self.pending = None  # the command a confirmation line would play
        self.pending_words = ""
        self.builder = AttackBuilder()
        self.offer = OfferMenu()
        self.defence = DefenceAssignment()
        self.picks = ReengagePicks()
        self.ui_state = None  # the state the choices above were made for

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Horizontal(id="bones-body"):
            yield Plain("", id="bones-map")
            with Vertical(id="bones-side"):
                yield Plain("", id="bones-info")
                yield Plain("", id="bones-log")
        yield StatusLine("Tab/arrows: troop  a attack  r reinforce  s resupply  c converge  ?: all keys")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sync_ui()
        if not self.session.marks and self.session.events and self.STEP_SECONDS > 0:
            self.shown = 1  # a new game: the troops roll into the area one by one
            self.stepper = self.set_interval(self.SETUP_SECONDS, self.step)
            self.say_step()
            self.redraw()
        self.schedule_bot()

    def on_key(self, event: events.Key) -> None:
        """While a batch is stepped through, any key shows the rest at once (Space also hurries the
        bots); it does nothing else, so no one acts on a battlefield they have not seen. q then
        leaves all the same (stepping.py)."""
        if self.stepper is not None and event.key == "space":
            self.hurry = True
        if self.key_while_stepping(event):
            return
        super().on_key(event)

    # ----- reading -----
    def view_state(self) -> BonesState:
        return self.session.state_at(self.shown) if self.shown is not None else self.session.state

    def human(self) -> int | None:
        """The human seat to decide now (None: a bot, dice, stepping or the end)."""
        seat = self.session.to_act
        if seat is None or self.session.players[seat].bot or self.stepper is not None:
            return None
        return seat

    def sync_ui(self) -> None:
        """New position: reset the choices made for the old one; keep a chosen troop that is still there."""
        state = self.session.state
        if self.ui_state is state:
            return
        self.ui_state = state
        self.mode, self.pending = "", None
        self.builder.clear()
        self.offer.index = 0
        self.defence.reset(state)
        self.picks.clear()
        seat = self.session.to_act
        if seat is None:
            return
        if self.selected is None or self.selected[0] != seat or state.troops[seat][self.selected[1]] is None:
            mine = state.in_play(seat)
            self.selected = (seat, mine[0]) if mine else None

    # the parts' choices, as tests and the help read them
    @property
    def lines(self) -> list[list[int]]:
        return self.builder.lines

    @property
    def line(self) -> int:
        return self.builder.line

    @property
    def assign(self) -> list[int]:
        return self.defence.dice

    def builder_targets(self) -> list[int]:
        return self.builder.targets(self.session.state)

    # ----- drawing -----
    def marks(self, state: BonesState) -> tuple[dict, tuple[int, int] | None]:
        marks: dict = {}
        range_of = None
        if self.shown is not None:  # a troop that has just landed stands out for a moment
            event = self.session.events[self.shown - 1]
            if isinstance(event, TroopLanded):
                marks[(event.seat, event.troop)] = (">", "<", "reverse")
                return marks, None
        if state.stage == "reengage" and self.human() is not None and self.shown is None:
            marks.update(self.picks.marks())
            if self.selected is not None:
                marks[self.selected] = ("[", "]", "reverse")
            return marks, None
        if state.attack is not None and state.attack.groups and state.stage not in ("action", "over"):
            seat = state.player
            marks[(seat, state.attack.troop)] = ("[", "]", "reverse")
            marks[(1 - seat, state.attack.target)] = (">", "<", "reverse")
            return marks, None
        if state.stage in ("reinforce_reroll", "reinforce_choice") and state.reinforce_troop is not None:
            marks[(state.player, state.reinforce_troop)] = ("[", "]", "reverse")
            return marks, None
        if state.stage != "action" or self.human() is None or self.shown is not None:
            return marks, None
        if self.selected is not None and state.troops[self.selected[0]][self.selected[1]] is not None:
            seat, number = self.selected
            if not state.no_premeasure:
                range_of = self.selected
                for target in bones.targets_of(state, seat, number):
                    marks[(1 - seat, target)] = ("", "*", "underline")
            if self.mode == "builder":
                marks.update(self.builder.marks())
            marks[self.selected] = ("[", "]", "reverse")
        return marks, range_of

    def redraw(self) -> None:
        if self.gone:
            return
        if self.shown is None:
            self.sync_ui()
        session = self.session
        state = self.view_state()
        name = session.labels.save_name
        outcome = bones.outcome(state)
        head = outcome.summary if outcome else (f"turn {state.turn}" if state.turn else "setup")
        title = title_line("War of Bones: ", name, f"  {head}  (undos {session.undos})", self.size.width - 2)
        self.query_one("#title", Plain).show(Text(with_deal(title, session, self.size.width - 2), style="bold"))
        marks, range_of = self.marks(state)
        self.query_one("#bones-map", Plain).show(draw_area(state, *WIDE, names=self.names, marks=marks, range_of=range_of))
        info = self.info(state)
        info.rstrip()
        self.query_one("#bones-info", Plain).show(info)
        self.query_one("#bones-log", Plain).show(self.log_text(info))
        self.refresh_bindings()

    def side_width(self) -> int:
        return max(24, self.query_one("#bones-info", Plain).size.width or 38)

    def info(self, state: BonesState) -> Text:
        session = self.session
        width = self.side_width()
        acting = bones.to_act(state) if self.shown is None else None
        text = sides_text(state, session.players, width, acting)
        if self.shown is None and session.outcome is not None:
            text.append("\n" + "\n".join(textwrap.wrap(f"{session.outcome.summary}. v reviews, q goes back", width)) + "\n",
                        style="bold reverse")
            return text
        for line in self.prompt(state):
            style = "bold" if line.startswith(">") or line.startswith("*") else ""
            for piece in textwrap.wrap(line, width, subsequent_indent="  ") or [""]:
                text.append(piece + "\n", style=style)
        return text

    def rolls_line(self, state: BonesState) -> str:
        return rolls_line(state)

    def prompt(self, state: BonesState) -> list[str]:
        """What the one to act decides now, with the keys; the chosen troop's range."""
        session = self.session
        if self.shown is not None:
            return ["", "Rolling... any key shows the rest"]
        seat = session.to_act
        if seat is None:
            need = session.chance_needed
            return ["", f"Waiting for dice: {need.prompt}" if need else ""]
        player = session.players[seat]
        if player.bot:
            return ["", f"{player.name} ({SIDES[seat]}, bot) is thinking: {STAGE_WORDS[state.stage]}",
                    "Space: bots play at once"]
        lines = ["", f"* {player.name} ({SIDES[seat]}): {STAGE_WORDS[state.stage]}"]
        stage = state.stage
        if stage == "reengage":
            return lines + self.picks.describe(state, seat, self.selected)
        if stage in OFFER_STAGES:
            return lines + self.offer.describe(state, session.commands)
        if stage == "assign":
            return lines + self.defence.describe(state)
        # an action
        if self.selected is None:
            return lines + ["c converges (no troop to act with)"]
        mine, number = self.selected
        troop = troop_at(state, mine, number)
        where = "" if state.no_premeasure else f", at ({inches(troop.x)}, {inches(troop.y)})"
        lines.append(f"Chosen: {troop_name(mine, number)}, face {troop.face}{where}")
        if not state.no_premeasure:
            targets = bones.targets_of(state, mine, number)
            lines.append("In range: " + (" ".join(troop_words(state, 1 - mine, t) for t in targets) or "none"))
        if self.mode == "builder":
            lines += self.builder.describe(state)
        elif self.mode == "confirm":
            lines += [f"> {self.pending_words}", "Enter/y: do it  Escape/n: cancel"]
        else:
            lines.append("a attack  r reinforce  s resupply  c converge")
        return lines

    def log_text(self, info: Text) -> Text:
        """The log under the info, in the room the info leaves."""
        count = self.shown if self.shown is not None else len(self.session.events)
        side = self.query_one("#bones-side", Vertical).size.height or 21
        room = max(1, side - len(info.plain.splitlines()) - 1)
        return log_text(self.session, count, self.side_width(), room)

    # ----- playing -----
    def play(self, command) -> bool:
        before = len(self.session.events)
        seat = self.session.to_act
        if not self.attempt(lambda: self.session.play(command)):
            self.redraw()
            return False
        self.after_change(before, seat)
        return True

    def after_change(self, before: int, seat: int | None) -> None:
        """Show what the last play caused: one event at a time at a readable pace, then the bot."""
        total = len(self.session.events)
        self.mode = ""
        if total - before > 1 and self.STEP_SECONDS > 0 and not self.hurry:
            self.start_steps(before + 1)
        else:
            self.say_batch(before)
        self.redraw()
        if self.stepper is None:
            self.schedule_bot()

    def steps_done(self) -> None:
        self.say_batch(self.batch_start())
        self.redraw()
        self.schedule_bot()

    def words(self, index: int) -> str:
        return event_words(self.session, index)

    def next_shown(self) -> None:
        """Steps are not paused on missed landings: straight on to the next event that is not one."""
        events = self.session.events
        assert self.shown is not None  # called while stepping
        while self.shown < len(events) and isinstance(events[self.shown - 1], bones.LandingMissed):
            self.shown += 1

    def say_step(self) -> None:
        assert self.shown is not None  # called while stepping
        text = self.words(self.shown - 1)
        self.status(f"{text} (a key shows the rest)")

    def say_batch(self, before: int) -> None:
        words = batch_words(self.session, before)
        if words is not None:
            self.status(words)

    # ----- keys -----
    def refuse(self, message: str) -> None:
        self.status(message, error=True)

    def why_not_now(self) -> str:
        session = self.session
        if session.outcome is not None:
            return f"the game is over: {session.outcome.summary}"
        if self.bot_to_act():
            assert session.to_act is not None
            return f"{session.players[session.to_act].name} (a bot) is deciding; Space lets it play at once"
        if session.to_act is None:
            return "the dice are still rolling"
        return ""

    ACTIONS = ("attack", "ask", "cycle")

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("attack", "ask"):
            if self.human() is None or self.session.state.stage != "action" or self.mode:
                return None
        return True

    def footer_shows(self, action: str, parameters: tuple) -> bool:
        """Enter while there is something to confirm; Esc while there is something to cancel
        (otherwise Esc goes back, like q)."""
        if action == "confirm":
            stage = self.session.state.stage
            return self.human() is not None and (bool(self.mode) or stage in OFFER_STAGES or stage in ("assign", "reengage"))
        if action == "cancel":
            return bool(self.mode)
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        reason = self.why_not_now()
        if reason:
            return reason
        if self.stepper is not None:
            return "the dice are still rolling"
        if self.mode == "builder":
            return "finish the attack (Enter) or cancel it (Escape) first"
        if self.mode == "confirm":
            return "answer the question first: Enter or y does it, Escape or n cancels"
        stage = self.session.state.stage
        what = parameters[0] if parameters else action
        return f"{what} is for your turn's action; now: {STAGE_WORDS.get(stage, stage)}"

    def action_cycle(self, step: int) -> None:
        seat = self.human()
        state = self.session.state
        if self.mode == "builder" and step == 1:
            said = self.builder.tab(state)
            if said:
                self.status(said)
            self.redraw()
            return
        if seat is None or state.stage not in ("action", "reengage"):
            self.refuse(self.why_not_now() or f"troops are chosen for an action or for Reengage; now: {STAGE_WORDS[state.stage]}")
            return
        if self.mode:
            self.refuse("finish or cancel (Escape) the attack or confirmation first")
            return
        troops = own_troops(state, seat)
        if not troops:
            self.refuse("you have no troop in the area")
            return
        index = troops.index(self.selected) if self.selected in troops else -step
        self.selected = troops[(index + step) % len(troops)]
        self.status(f"chose {troop_words(state, *self.selected)}")
        self.redraw()

    def action_arrow(self, direction: str) -> None:
        seat = self.human()
        state = self.session.state
        if seat is None:
            self.refuse(self.why_not_now() or "the dice are still rolling")
            return
        stage = state.stage
        vertical = direction in ("up", "down")
        sign = 1 if direction in ("down", "right") else -1
        if self.mode == "builder":
            refused = self.builder.arrow(state, vertical, sign)
            if refused:
                self.refuse(refused)
                return
            self.redraw()
        elif stage in OFFER_STAGES:
            if not vertical:
                self.refuse("Up/Down choose an offer")
                return
            self.offer.move(state, self.session.commands, sign)
            self.redraw()
        elif stage == "assign":
            self.defence.arrow(vertical, sign)
            self.redraw()
        elif self.mode:
            self.refuse("Enter or y does it, Escape or n cancels")
        else:
            self.nearest(state, seat, direction)

    def nearest(self, state: BonesState, seat: int, direction: str) -> None:
        troops = own_troops(state, seat)
        if self.selected not in troops:
            if troops:
                self.selected = troops[0]
                self.redraw()
            return
        best = nearest_troop(state, self.selected, troops, direction)
        if best is None:
            self.refuse(f"no troop further {direction} of {troop_name(*self.selected)}")
            return
        self.selected = best
        self.status(f"chose {troop_words(state, *best)}")
        self.redraw()

    # the attack builder
    def action_attack(self) -> None:
        state = self.session.state
        if self.selected is None:
            self.refuse("you have no troop to attack with")
            return
        seat, number = self.selected
        targets = bones.targets_of(state, seat, number)
        if not targets:
            self.refuse(f"no enemy troop is in range of {troop_words(state, seat, number)}: choose another troop")
            return
        self.mode = "builder"
        self.status(self.builder.open(state, self.selected))
        self.redraw()

    # reinforce, resupply, converge: one key and a confirmation line
    def action_ask(self, what: str) -> None:
        state = self.session.state
        seat = self.session.to_act
        if self.mode == "builder":
            self.refuse("finish or cancel (Escape) the attack first")
            return
        assert seat is not None  # check_action: a person is to act
        asked = order(state, seat, what, self.selected[1] if self.selected is not None else None)
        if isinstance(asked, str):
            self.refuse(asked)
            return
        command, words = asked
        self.mode, self.pending, self.pending_words = "confirm", command, words
        self.status(f"{words}? Enter or y: yes, Escape or n: no")
        self.redraw()

    def action_confirm(self) -> None:
        seat = self.human()
        state = self.session.state
        if seat is None:
            self.refuse(self.why_not_now() or "the dice are still rolling")
            return
        stage = state.stage
        if self.mode == "builder":
            self.play(self.builder.command())
        elif self.mode == "confirm":
            self.play(self.pending)
        elif stage in OFFER_STAGES:
            self.play(self.offer.chosen(state, self.session.commands))
        elif stage == "assign":
            self.play(self.defence.command())
        elif stage == "reengage":
            self.play(self.picks.command(seat))
        else:
            self.refuse("nothing to confirm: press a, r, s or c first")

    def action_keep(self) -> None:
        state = self.session.state
        if self.mode:
            self.action_cancel()
        elif self.human() is not None and state.stage.endswith("_reroll"):
            self.play(Keep())
        else:
            self.refuse(self.why_not_now() or "n keeps dice after a roll, or cancels a confirmation")

    def action_space(self) -> None:
        state = self.session.state
        if self.human() is not None and state.stage == "reengage" and self.selected is not None:
            self.status(self.picks.toggle(self.selected))
            self.redraw()
            return
        if self.bot_to_act():
            self.hurry = True
            self.status("the bots play at once")
            if self.bot_timer is not None:
                self.bot_timer.stop()
                self.bot_timer = None
            self.start_bot()  # unless it is already thinking
            return
        self.refuse(self.why_not_now() or "Space picks a troop in Reengage, or hurries the bots")

    def action_labels(self) -> None:
        self.names = not self.names
        self.status("the map shows troop numbers (B#5: B's troop number 5)" if self.names
                    else "the map shows faces (B5: a B troop showing 5)")
        self.redraw()

    def action_back(self) -> None:
        self.leave_bots()  # q while the bots play at once: their next move is not played
        super().action_back()

    def action_cancel(self) -> None:
        if self.mode:
            self.mode, self.pending = "", None
            self.builder.clear()
            self.status("cancelled")
            self.redraw()
        else:
            self.action_back()

    def action_undo(self) -> None:
        self.stop_bot()
        super().action_undo()
        self.ui_state = None
        self.redraw()
        self.schedule_bot()

    def action_redo(self) -> None:
        self.stop_bot()
        super().action_redo()
        self.ui_state = None
        self.redraw()
        self.schedule_bot()
