"""The replay viewer, for every game: step through a game event by event, see the board as it was,
branch a new save from any point ("continue from here"), analyse the game (tui/screens/viewer/analysis.py)
and, for the troll, ask the hindsight solver (tui/screens/viewer/hindsight.py)."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from textwrap import wrap

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer


from dicehall.engine import Session
from dicehall.engine.errors import DicehallError
from dicehall.engine.words import counted
from dicehall.saves.box import command_hint
from dicehall.tui.screens.viewer.comments import (COMMENT_ACTIONS, COMMENT_BINDINGS, MARKER, CommentedViewer,
                                                  CommentPanel)
from dicehall.tui.screens.viewer.analysis import AnalysedViewer, AnalysisPanel, thresholds_note
from dicehall.tui.screens.viewer.hindsight import HINDSIGHT_ACTIONS, HindsightPanel, HindsightViewer
from dicehall.tui.screens.viewer.picture import PicturedViewer
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen, ConfirmScreen
from dicehall.tui.widgets import clip, KeysFooter, Plain, Redrawn, StatusLine

SPEEDS = (0.5, 1, 2, 4, 8, 16, 32)  # events per second while autoplaying
EVENT_KEYS = Binding.Group("Event", compact=True)
TURN_KEYS = Binding.Group("Turn")
ENDS = Binding.Group("the start / the end")
MARKED_KEYS = Binding.Group("Marked")
SPEED_KEYS = Binding.Group("autoplay speed")
SPOILERS = Binding.Group("Spoilers")  # r and H both look at hidden cards, and ask first
LINE_KEYS = Binding.Group("the solver's line")
HELP_LEAVE = Binding.Group("help / leave")  # one line of the help: 24 rows hold no more
GOTO_COPY = Binding.Group("go to / copy")  # one line of the help for g and y: 24 rows hold no more
ANALYSIS_ACTIONS = {"analyse", "marked", "costliest", "report"}


def replay_title(game_title: str, name: str, players: str, result: str, width: int) -> str:
    """"Replay: GAME  NAME  (PLAYERS; RESULT)" in at most `width` columns: the save's name gives way
    first (cut with "..."), then the players; the game and the result stay."""
    name = name.removeprefix(game_title).strip()  # no title twice
    head, tail = f"Replay: {game_title}", f"({players}; {result})"
    room = width - len(head) - len(tail) - 4
    if name and room >= 8:
        return f"{head}  {clip(name, room)}  {tail}"
    room = width - len(head) - len(f"  (; {result})")
    if room >= 8:
        return f"{head}  ({clip(players, room)}; {result})"
    return clip(f"{head}  {tail}", width)


class EventWindow(Redrawn):
    """The events in words around the cursor; only the visible lines are ever described."""

    def lay_out(self, session: Session, position: int, reveal: bool, cache: dict, marks: dict | None = None) -> None:
        """`marks`: an analysis's marks by event index, written before the event's words."""
        height = max(3, self.size.height or 15)
        width = max(10, self.size.width or 80)
        total = len(session.events)
        current = position - 1  # the last event applied

        def line(index: int) -> str:
            key = (index, reveal)
            if key not in cache:
                cache[key] = session.describe(index, reveal)
            mark = marks.get(index, "") if marks else ""
            if index + 1 in session.labels.comments:  # a comment of the players' own on it
                mark = f"{mark} {MARKER}".strip()
            return f"{'>' if index == current else ' '}{index + 1:>4} {mark + ' ' if mark else ''}{cache[key]}"

        # the highlighted event is shown whole, wrapped at spaces under itself (its mark counted:
        # a mark that wrapped it once more pushed it out of sight); the others end in "..."
        whole = wrap(line(current), width, subsequent_indent=" " * 6, break_on_hyphens=False) if current >= 0 else []
        whole = whole[:height]  # a window too small for it keeps its first lines
        extra = max(0, len(whole) - 1)  # the highlighted event's lines beyond its first
        top = min(max(0, current - (height - extra) // 2), max(0, total - (height - extra)))
        text = Text()
        if position == 0:
            whole_game = f" {MARKER}" if 0 in session.labels.comments else ""
            text.append(f">   0 the start of the game{whole_game}\n", style="reverse")
            top = 0
            height -= 1
        rows = 0
        for index in range(top, total):
            pieces = whole if index == current else [clip(line(index), width)]
            if rows + len(pieces) > height:
                break
            rows += len(pieces)
            for piece in pieces:
                text.append(piece + "\n", style="reverse" if index == current else "")
        self.show(text, layout=False)


class ViewerScreen(HindsightViewer, AnalysedViewer, CommentedViewer, PicturedViewer, KeyedScreen):
    BINDINGS = [
        Binding("left", "step(-1)", "one event back", group=EVENT_KEYS),
        Binding("right", "step(1)", "one event on", group=EVENT_KEYS),
        Binding("pageup", "turn(-1)", "one turn back", group=TURN_KEYS),
        Binding("pagedown", "turn(1)", "one turn on", group=TURN_KEYS),
        Binding("home", "jump(0)", "the start", show=False, group=ENDS),
        Binding("end", "jump(-1)", "the end", show=False, group=ENDS),
        Binding("g", "goto", "go to event N", show=False, group=GOTO_COPY),  # short: the help gives g, y and e one line
        # through the terminal (OSC 52): over SSH and tmux it reaches the player's own clipboard
        Binding("y", "copy_record", "copy the text record", show=False, group=GOTO_COPY),
        Binding("e", "image", "SVG image", show=False, group=GOTO_COPY),  # tui/screens/viewer/picture.py
        Binding("space", "autoplay", "Auto", tooltip="autoplay on or off"),
        Binding("plus,equals_sign", "speed(1)", "autoplay faster", show=False, group=SPEED_KEYS),
        Binding("minus", "speed(-1)", "autoplay slower", show=False, group=SPEED_KEYS),  # one line of the help
        # one line of the help for both: "reveal what is hidden / hindsight: ... (spoilers: ...)"; r
        # alone (H searching, or the solver's own line) is "r Reveal": short, as 80 columns need
        Binding("r", "reveal", "Reveal", tooltip="reveal what is hidden", group=SPOILERS),
        Binding("H", "hindsight", "Hindsight", group=SPOILERS,
                tooltip="hindsight: was this deal winnable? (spoilers: each asks first)"),
        # named on the hindsight line under the events, once there is a line: the footer has no room
        Binding("l", "hindsight_line", "the solver's line", show=False, group=LINE_KEYS,
                tooltip="open the solver's line"),
        Binding("j", "hindsight_start", "where it starts", show=False, group=LINE_KEYS,
                tooltip="go to where it starts"),
        Binding("a", "analyse", "Analyse", tooltip="analyse the game; once done, show or hide it"),
        Binding("n", "marked(1)", "next", group=MARKED_KEYS),
        Binding("p", "marked(-1)", "previous marked decision", group=MARKED_KEYS),
        Binding("w", "costliest", "the costliest", group=MARKED_KEYS),
        # in the marked keys' line of the help (80x24 has no line to spare); never in the footer
        Binding("s", "report", "Report", show=False, group=MARKED_KEYS,
                tooltip="the report per player (accuracy, marks, luck)"),
        # "Branch", not "Continue" (the saves list's word for going on with the same save), and short
        Binding("c", "branch", "Branch", tooltip="continue from here: a new save, played at once"),
        *COMMENT_BINDINGS,
        Binding("question_mark", "help", "Help", tooltip="this help", group=HELP_LEAVE),
        Binding("q,escape", "back", "Leave", show=False, tooltip="leave the viewer", group=HELP_LEAVE),  # the status line names it
    ]
    VIEWER_NOTES = ("PgUp/PgDn, n, p and w land where the player decides: c there tries the better "
                    "move, with the same future dice.")

    def __init__(self, session: Session, live: bool = False, position: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.live = live  # opened from a game in progress: its events may grow while we are away
        self.position = len(session.events) if position is None else position
        self.reveal = False
        self.speed = 3
        self.timer: Timer | None = None
        self.descriptions: dict = {}
        self.starts: list[int] | None = None
        self.stops: list[int] | None = None
        self.facts = None  # what the terminal shows of this game (its board, how wide...), asked of the app once

    def help_title(self) -> str:
        return f"Replay viewer ({self.session.game.TITLE})"

    def game_screens(self):
        """This game's GameScreens (tui/screens/games.py), through the app: its board drawer, whether the
        board is wide, what the reveal shows, what else its analysis marks ??."""
        if self.facts is None:
            self.facts = self.app.game_screens(self.session.game.ID)
        return self.facts

    @property
    def wide(self) -> bool:
        return self.game_screens().wide_board

    def help_notes(self) -> str:  # this game's marks beside the viewer's notes
        note = thresholds_note(self.session.game.ID, self.session.game.TITLE)
        return f"{self.VIEWER_NOTES} {note}"

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        wide = self.wide  # the bridge needs the full width: events go below it
        with (Vertical if wide else Horizontal)(id="viewer-body", classes="wide" if wide else ""):
            yield Plain("", id="board", classes="board")
            with Vertical(id="viewer-side"):
                yield EventWindow("", id="events")
                yield Plain("", id="where")
                yield CommentPanel("", id="comment")
                yield AnalysisPanel("", id="analysis")
                yield HindsightPanel("", id="hindsight")
        yield StatusLine("Left/Right: an event  PgUp/PgDn: a turn  c: branch here  ?: keys  q: leave")
        yield KeysFooter()

    def on_mount(self) -> None:
        notice = self.session.labels.notice  # e.g. a file's comment cut to fit
        if notice:
            self.status(notice)
        self.redraw()
        self.prepare_analysis()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        session = self.session
        self.position = min(self.position, len(session.events))
        outcome = session.outcome
        players = ", ".join(session.labels.seat_name(session.players, seat) for seat in range(len(session.players)))  # "Bot for Bob"
        title = self.query_one("#title", Plain)
        width = max(20, title.across_width())
        text = replay_title(session.game.TITLE, session.labels.save_name, players,
                            outcome.summary if outcome else "unfinished", width)
        title.show(Text(text, style="bold"), layout=False)
        board = self.game_screens().board(session.state_at(self.position), self.reveal)
        self.query_one("#board", Plain).show(board, layout=self.wide)  # a wide board's height follows it
        self.query_one(EventWindow).draw(session, self.position, self.reveal, self.descriptions, self.event_marks())
        auto = f"  auto {SPEEDS[self.speed]}/s" if self.timer else ""  # off: the footer offers Space
        # a replay file's undo count is only its header's word (verify says so); a save's is counted
        claimed = " (claimed)" if session.labels.header_claimed else ""
        reveal = "  REVEALED" if self.reveal else ""
        where = self.query_one("#where", Plain)
        line = (f"event {self.position}/{len(session.events)}  turn {self.turn_at(self.position)}{auto}  "
                f"undos {session.undos}{claimed}{reveal}")
        where.show(clip(line, where.size.width or 48), layout=False)
        self.draw_comment()
        self.draw_analysis()
        self.draw_hindsight()

    def event_marks(self) -> dict[int, str] | None:
        """The marks of the analysis shown, by event index, for the event list."""
        if self.analysis is None or not self.analysis_shown:
            return None
        return {d.event - 1: d.mark for d in self.analysis.decisions if d.mark}

    def go(self, position: int) -> None:
        self.position = max(0, min(len(self.session.events), position))
        self.redraw()

    def action_step(self, delta: int) -> None:
        target = self.position + delta
        if not 0 <= target <= len(self.session.events):
            self.status("already at the " + ("start" if delta < 0 else "end"), error=True)
            return
        self.go(target)

    def turn_starts(self) -> list[int]:
        """Where each turn begins: the game's own turns if it marks them, else each decision."""
        if self.starts is None:
            is_start = getattr(self.session.game, "is_turn_start", None)
            if is_start is None:
                self.starts = self.session.turn_starts()
            else:
                self.starts = [i for i, event in enumerate(self.session.events) if is_start(event)]
        return self.starts

    def turn_stops(self) -> list[int]:
        """The positions PgUp/PgDn go to: where the player decides. A game that marks its turns stops
        at each turn's first decision, after the events that open the turn (the troll's awakening);
        a turn with no decision in it (the game ended first) stops at its end."""
        if self.stops is None:
            decisions = self.session.turn_starts()
            if getattr(self.session.game, "is_turn_start", None) is None:
                self.stops = decisions
            else:
                starts = self.turn_starts()
                ends = starts[1:] + [len(self.session.events)]
                stops = set()
                for start, end in zip(starts, ends):
                    first = bisect_left(decisions, start)
                    stops.add(decisions[first] if first < len(decisions) and decisions[first] < end else end)
                self.stops = sorted(stops)
        return self.stops

    def turn_at(self, position: int) -> int:
        """The turn shown at a position: the turn whose events are applied, or, where its player
        decides its first move, the turn about to be played."""
        return max(bisect_left(self.turn_starts(), position), bisect_right(self.turn_stops(), position))

    def action_turn(self, delta: int) -> None:
        stops = self.turn_stops()  # sorted: found by bisection, not by a scan of the whole game
        if delta > 0:
            next_stop = bisect_right(stops, self.position)
            later = stops[next_stop] if next_stop < len(stops) else len(self.session.events)
            if later <= self.position:
                self.status("already at the end", error=True)
                return
            self.go(later)
        else:
            before = bisect_left(stops, self.position)
            if before == 0 and self.position <= 0:
                self.status("already at the start", error=True)
                return
            self.go(stops[before - 1] if before > 0 else 0)
        turn = self.turn_at(self.position)
        at = bisect_left(stops, self.position)
        if self.position == 0:
            self.status("the start of the game")
        elif at < len(stops) and stops[at] == self.position and self.position < len(self.session.events):
            seat = self.session.game.to_act(self.session.state_at(self.position))
            known = seat is not None and seat < len(self.session.players)
            who = self.session.labels.holder(self.session.players, seat, self.position).name if known else "the player"
            after = self.session.describe(self.position - 1, self.reveal)
            took_over = "".join(f"{h.words(self.session.players[h.seat].name)}; " for h in self.session.labels.handovers
                                if h.at == self.position)
            self.status(f"turn {turn}: {took_over}{who} to decide, after: {after}")
        else:
            self.status(f"the end, in turn {turn}")

    def action_jump(self, where: int) -> None:
        self.go(len(self.session.events) if where < 0 else where)

    def action_goto(self) -> None:
        total = len(self.session.events)

        def check(text: str) -> str | None:
            number = text.strip()  # isdigit() alone lets "²" through to int()
            ok = number.isascii() and number.isdecimal() and 0 <= int(number) <= total
            return None if ok else f"a number from 0 to {total}"

        def chosen(answer: str | None) -> None:
            if answer is not None:
                self.go(int(answer.strip()))

        self.app.push_screen(AskScreen(f"Go to event number (0 to {total}):", check=check), chosen)

    def action_autoplay(self) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = None
            self.status("autoplay stopped")
        else:
            if self.position >= len(self.session.events):
                self.position = 0
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.autoplay_step)
            self.status(f"autoplay at {counted(SPEEDS[self.speed], 'event')} a second (+/- to change, space stops)")
        self.redraw()

    def autoplay_step(self) -> None:
        if self.position >= len(self.session.events):
            self.action_autoplay()
            return
        self.go(self.position + 1)

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.timer:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.autoplay_step)
        self.status(f"autoplay speed {counted(SPEEDS[self.speed], 'event')} a second")
        self.redraw()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "reveal" and not self.game_screens().hidden:
            return None  # nothing is hidden in this game: the key is left out of the footer
        if action in ANALYSIS_ACTIONS:
            return self.analysis_possible(action)
        if action in HINDSIGHT_ACTIONS:
            return self.hindsight_possible(action)
        if action in COMMENT_ACTIONS:
            return self.comment_possible(action)
        return True

    def footer_shows(self, action: str, parameters: tuple) -> bool:
        """80 columns hold only so many keys: a game with Reveal (the troll) leaves autoplay out of
        the footer, and once there are decisions to jump to, n p w take the room of `a` (which then
        only shows or hides the panel). ? lists every key."""
        if action == "autoplay":
            return not self.game_screens().hidden
        return not (action == "analyse" and self.analysis is not None and self.analysis.decisions)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action == "reveal":
            return f"nothing is hidden in {self.session.game.TITLE}: the viewer shows it all"
        if action in ANALYSIS_ACTIONS:
            return self.analysis_refusal(action)
        if action in HINDSIGHT_ACTIONS:
            return self.hindsight_refusal(action)
        if action in COMMENT_ACTIONS:
            return self.comment_refusal(action)
        return super().why_disabled(action, parameters)

    def action_copy_record(self) -> None:
        from dicehall.replays.text import clipboard_text, copied_words

        done = self.analysis if self.analysis is not None and not self.analysis_running else None
        hint = command_hint(f"export {self.session.labels.save_id} --text -") or "" if self.session.labels.save_id else ""
        try:
            text, what = clipboard_text(self.session, done, hint)
        except DicehallError as error:
            self.status(f"not copied: {error}", error=True)
            return
        self.app.copy_to_clipboard(text)
        self.status(copied_words(text, what))

    def action_reveal(self) -> None:
        if self.reveal:
            self.show_hidden(False)
            return
        question = (f"Reveal {self.game_screens().hidden}? That is a spoiler: the players could not "
                    "see it, and it tells what comes next.")
        self.app.push_screen(ConfirmScreen(question), lambda yes: self.show_hidden(True) if yes else None)

    def show_hidden(self, shown: bool) -> None:
        if shown and not self.assisted(self.session, "reveal"):
            return
        self.reveal = shown
        self.status("REVEALED: hidden information shown (r hides it)" if shown else "hidden information hidden again")
        self.redraw()

    def action_branch(self) -> None:
        """A new save from the position shown, opened at once; a name already taken asks first."""
        from dicehall import saves

        if self.timer:
            self.action_autoplay()
        base = self.session.labels.save_name or self.session.game.TITLE
        base = re.sub(r" \(branch(?: \d+)?\)$", "", base)  # a branch of a branch counts on, not nests
        try:
            taken = {info.name for info in saves.list_saves()}
        except (DicehallError, OSError) as error:
            self.status(saves.error_line(error), error=True)
            return
        name, number = f"{base} (branch)", 2
        if name not in taken:
            self.make_branch(name)
            return
        while f"{base} (branch {number})" in taken:
            number += 1
        question = (f'A save named "{name}" exists already. Make another branch, from event '
                    f'{self.position}, named "{base} (branch {number})"?')
        self.app.push_screen(ConfirmScreen(question),
                             lambda yes: self.make_branch(f"{base} (branch {number})") if yes else self.status("no branch made"))

    def make_branch(self, name: str) -> None:
        from dicehall import saves

        try:
            branch = saves.branch_save(self.session, self.position, name=name)
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        branch.labels.notice = f"a new save branched from event {self.position}: {branch.labels.save_name}"
        # the branch is a game of its own: leaving it goes back to the game list, not to this viewer
        self.app.open_game(branch, alone=True)

    def action_back(self) -> None:
        if self.timer:
            self.timer.stop()
        self.stop_analysis()  # it must not go on burning the CPU for a screen that is gone
        self.stop_hindsight()
        if getattr(self.app, "start_replay", None) is self.session:
            self.app.exit()  # `dicehall replay FILE`: leaving the replay leaves the program
            return
        self.app.pop_screen()
