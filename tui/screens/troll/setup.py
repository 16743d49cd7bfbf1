"""A new troll game: difficulty, variant, deal (a fresh shuffle or the day's deal) and whether the
deal must be one the hindsight solver proves winnable (searched in a worker: engine/analysis/winnable.py)."""
from __future__ import annotations

from datetime import datetime

from textual.message import Message
from textual.worker import Worker, get_current_worker

from dicehall.engine.chance import daily_seed
from dicehall.engine.errors import DicehallError
from dicehall.engine.games import troll
from dicehall.engine.text import clean_text
from dicehall.tui.screens.base import SetupScreen


class WinnableFound(Message):
    """The winnable search's answer: a WinnableDeal, or the one line saying why there is none."""

    def __init__(self, worker, deal=None, error: str = "") -> None:
        super().__init__()
        self.worker, self.deal, self.error = worker, deal, error


class TrollSetupScreen(SetupScreen):
    """A new troll game: difficulty, variant, deal and winnable."""

    HEADING = "Angry Troll versus Magic Bridge: a new game"
    LIST_ID = "troll-setup"
    HELP_NOTES = ("Up/Down pick a line; Enter, Space or Left/Right change it. standard is the game as "
                  "designed (rarely won); sturdy and tutorial have taller stacks. The day's deal is the "
                  "same for everyone on that date. Winnable: yes deals only a deal the hindsight solver "
                  "proves winnable (it looks at the cards and dice to choose; the game then plays as "
                  "usual). s starts the game.")
    CHOICES = {"difficulty": ("standard", "sturdy", "tutorial"), "variant": ("none",) + troll.VARIANTS,
               "deal": ("a new shuffle", "today's deal"), "winnable": ("no", "yes")}

    def __init__(self, seed: int | None = None, name: str = "", **options) -> None:
        super().__init__()
        self.seed = seed
        self.save_name = clean_text(name)
        variant = next((v for v in troll.VARIANTS if options.get(v)), "none")
        self.values = {"difficulty": options.get("difficulty", "standard"), "variant": variant,
                       "deal": "a new shuffle", "winnable": "yes" if options.get("winnable") else "no"}
        self.searching: Worker | None = None  # the winnable search's worker while it runs

    def help_title(self) -> str:
        return "Angry Troll: a new game"

    def rows(self) -> list[tuple[str, str]]:
        rows = [(key, f"{title + ':':<12}{self.values[key].replace('_', ' ')}")
                for key, title in (("difficulty", "Difficulty"), ("variant", "Variant"), ("deal", "Deal"),
                                   ("winnable", "Winnable"))]
        return rows + [("start", "Start the game (s)")]

    def action_change(self, step: int = 1) -> None:
        key = self.current()
        if key == "start":
            self.action_start()
            return
        values = self.CHOICES[key]
        self.values[key] = values[(values.index(self.values[key]) + step) % len(values)]
        self.redraw()

    def options(self) -> dict:
        options = {"difficulty": self.values["difficulty"]}
        if self.values["variant"] != "none":
            options[self.values["variant"]] = True
        return options

    def action_start(self) -> None:
        if self.searching is not None:
            self.status("still searching for a winnable deal: the game opens when one is proved")
            return
        seed, name = self.seed, self.save_name
        if self.values["deal"] == "today's deal":
            today = datetime.now().date().isoformat()
            seed, name = daily_seed(troll.ID, today), name or f"daily {today}"
        if self.values["winnable"] == "yes":
            self.search_winnable(seed, name)
            return
        self.open_new(seed, name, self.options())

    def search_winnable(self, seed: int | None, name: str) -> None:
        from dicehall import engine
        from dicehall.engine.analysis import winnable

        start, options = engine.new_seed() if seed is None else seed, self.options()
        name = f"{name}, winnable" if name and not self.save_name else name  # the day's winnable deal is another deal

        def work() -> None:
            worker = get_current_worker()
            try:
                deal = winnable.choose(troll.ID, start, options, should_stop=lambda: worker.is_cancelled)
            except DicehallError as error:
                self.post_message(WinnableFound(worker, error=str(error)))
                return
            self.post_message(WinnableFound(worker, deal=(deal, name)))

        self.searching = self.run_worker(work, thread=True, group="winnable", exclusive=True, exit_on_error=False)
        self.status(f"searching for a winnable deal from seed {start} (at most {winnable.MAX_SEEDS} seeds)...")

    def on_winnable_found(self, found: WinnableFound) -> None:
        if found.worker is not self.searching:
            return
        self.searching = None
        if found.error:
            self.status(found.error, error=True)
            return
        deal, name = found.deal
        self.open_new(deal.seed, name, deal.options, notice=deal.notice())

    def open_new(self, seed: int | None, name: str, options: dict, notice: str | None = None) -> None:
        from dicehall import saves

        try:  # no name: saves names it after its options, numbered if taken ("Standard (2)")
            session = saves.new_save(troll.ID, name=name, seed=seed, options=options, players=saves.solo_players())
        except (DicehallError, OSError, ValueError) as error:
            self.status(saves.error_line(error), error=True)
            return
        if notice:
            session.labels.notice = notice
        self.app.open_game(session, replace=True)
