"""Practice (issue #22): the marked decisions of your analysed games, one at a time, the answer
hidden. The position is drawn as the replay viewer draws it (the game's own board, nothing hidden
shown); the player picks a move from the decision's choices, in the analysis's words, and is told
whether it is as good as the best, what the best was, and why in the analysis's figures. Judging a
move the analysis did not judge runs its sampling in a worker, so the screen stays usable. What to
practise and what was solved: saves/practice.py; the judgement: engine/analysis/practice.py."""
from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from dicehall.engine.analysis import MARK_WORDS
from dicehall.engine.analysis import practice as judging
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.widgets import clip, KeysFooter, Plain, StatusLine

NOTHING = ("Nothing to practise yet: practice brings back the marked decisions (?!, ?, ??) of your "
           "analysed games. Analyse a finished game first: a in its replay viewer.")


class PracticeScreen(KeyedScreen):
    BINDINGS = [
        Binding("enter", "choose", "Play it", show=False, tooltip="play the highlighted move"),
        Binding("n", "next(1)", "Next", tooltip="the next position"),
        Binding("p", "next(-1)", "Previous", show=False, tooltip="the previous position"),
        Binding("question_mark", "help", "Help", tooltip="this help"),
        Binding("q,escape", "back", "Leave", tooltip="leave practice"),
    ]
    HELP_NOTES = ("Each position is a decision of yours that the analysis marked. Up/Down choose a move "
                  "among the choices, in the analysis's words; Enter plays it. A move is as good as the best "
                  "when it is the best found or loses less than the game's first mark (the noise). Solved "
                  "positions are remembered and come back last.")
    DEFAULT_CSS = """
    PracticeScreen #practice-body { height: 1fr; padding: 0 1; }
    PracticeScreen #practice-board { width: auto; height: auto; margin: 0 2 0 0; }
    PracticeScreen #practice-side { height: 1fr; }
    PracticeScreen #practice-prompt { height: auto; }
    PracticeScreen #practice-choices { height: 1fr; min-height: 3; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.found: list = []
        self.unanalysed = 0
        self.index = 0
        self.answer = ""  # the verdict shown for the current position ("" until a move is played)
        self.judging = False
        self.choices: list[tuple[str, tuple]] = []
        self.warnings: list[str] = []

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Vertical(id="practice-body"):
            yield Plain("", id="practice-board")
            with Vertical(id="practice-side"):
                yield Plain("", id="practice-prompt")
                yield OptionList(id="practice-choices")
        yield StatusLine("Up/Down: a move  Enter: play it  n: next  ?: keys  q: leave")
        yield KeysFooter()

    def on_mount(self) -> None:
        from dicehall.saves.practice import positions

        self.found, self.unanalysed = positions(warn=self.warnings.append)
        self.show_position()
        if self.warnings:
            self.status(self.warnings[0])  # a damaged file: said once, practice goes on

    # ----- drawing -----
    @property
    def position(self):
        return self.found[self.index] if self.found else None

    def show_position(self) -> None:
        title = self.query_one("#title", Plain)
        board = self.query_one("#practice-board", Plain)
        prompt = self.query_one("#practice-prompt", Plain)
        menu = self.query_one(OptionList)
        menu.clear_options()
        self.answer = ""
        position = self.position
        if position is None:
            title.show(Text("Practice", style="bold"))
            more = (f" {self.unanalysed} of your saves have no stored analysis yet." if self.unanalysed else "")
            board.show("")
            prompt.show(NOTHING + more)
            menu.display = False
            self.call_after_refresh(self.set_focus, None)  # Enter is the screen's then: it says why not
            return
        session, decision = position.session, position.decision
        body = self.query_one("#practice-body")
        shown = self.app.game_screens(session.game.ID)  # its board, and whether it is wide
        body.styles.layout = "vertical" if shown.wide_board else "horizontal"
        state = session.state_at(decision.event - 1)
        board.show(shown.board(state, False))
        self.choices = judging.choices(session, decision)
        menu.display = True
        menu.add_options([Option(Text(clean_text(words, 200)), id=str(n)) for n, (words, _) in enumerate(self.choices)])
        menu.highlighted = 0 if self.choices else None
        menu.focus()
        self.draw_prompt()

    def draw_prompt(self) -> None:
        position = self.position
        decision = position.decision
        session = position.session
        solved = sum(1 for p in self.found if p.solved)
        self.query_one("#title", Plain).show(Text(clip(
            f"Practice {self.index + 1} of {len(self.found)} ({solved} solved): {session.game.TITLE}, "
            f"{position.save}, event {decision.event}", 78), style="bold"))
        names = [p.name for p in position.session.players]
        who = f"{clean_text(names[decision.seat], 20)}, you" if len(names) > 1 else "You"
        mark = f"{decision.mark} {MARK_WORDS[decision.mark]}"
        head = f"{who} played {clean_text(decision.played, 120)} here: {mark}."
        if self.judging:
            line = f"{head}\nJudging your move over the analysis's samples..."
        elif self.answer:
            line = f"{head}\n{self.answer}\nn: the next position; or try another move."
        else:
            before = " (solved before)" if position.solved else ""
            line = f"{head}{before}\nFind a move as good as the best: Up/Down, then Enter."
        self.query_one("#practice-prompt", Plain).show(line)

    # ----- keys -----
    def action_choose(self) -> None:
        if self.position is None:
            self.status("nothing to practise: analyse a game first", error=True)
            return
        self.query_one(OptionList).action_select()

    @on(OptionList.OptionSelected, "#practice-choices")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        if self.judging:
            self.status("still judging the last move: a moment", error=True)
            return
        words, commands = self.choices[int(event.option.id or 0)]
        position = self.position
        self.judging = True
        self.draw_prompt()
        screen = self

        def work() -> None:
            worker = get_current_worker()
            try:
                verdict = judging.judge(position.session, position.decision, words, commands)
            except Exception as error:  # a figure the analyser cannot give: one line, never a traceback
                verdict = judging.Verdict(False, f"could not judge it: {clean_text(str(error), 80) or type(error).__name__}")
            if not worker.is_cancelled:
                screen.app.call_from_thread(screen.judged, position, verdict)

        self.run_worker(work, thread=True, group="practice", exclusive=True, exit_on_error=False)

    def judged(self, position, verdict) -> None:
        self.judging = False
        if position is not self.position:
            return  # the player moved on meanwhile
        self.answer = verdict.text
        if verdict.accepted and not position.solved:
            from dicehall.saves.practice import Position, mark_solved

            try:
                mark_solved(position.key, warn=self.warnings.append)
            except OSError as error:
                self.status(f"could not remember it as solved: {clean_text(str(error), 60)}", error=True)
            else:
                self.found[self.index] = Position(position.key, position.save, position.session,
                                                  position.decision, True)
        self.draw_prompt()
        self.status("solved: n for the next position" if verdict.accepted else "not the best: try another, or n")

    def action_next(self, step: int) -> None:
        if not self.found:
            self.status("nothing to practise: analyse a game first", error=True)
            return
        self.workers.cancel_group(self, "practice")
        self.judging = False
        self.index = (self.index + step) % len(self.found)
        self.show_position()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "practice")
        if getattr(self.app, "start_practice", False):
            self.app.exit()  # `dicehall practice`: leaving practice leaves the program
            return
        self.app.pop_screen()

    def help_title(self) -> str:
        return "Practice"
