"""The hall's archive (the Hall screen's `a`, what `dicehall archive` prints): every finished hall
game, the latest first, one line each (its id, the day it ended, its result in words), filtered by
keys, with no text box: `p` the player, `g` the game, `d` the days, `o` the result (each steps
through its values; shifted, backwards), `c` clears them. Enter opens the game in the viewer with
its analysis started; `x` writes it as a replay (.dhr) and `t` as a text record (.dht), by name
into the replays folder (on a box, the player's own). The hall is read in a worker (its progress in the
status line; leaving the screen stops it, keeping in the index what was read), through the
archive's index (saves/hall/archive.py); every name is another player's text, shown plain."""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from dicehall.engine.errors import DicehallError
from dicehall.engine.games import entry_of
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves import error_line
from dicehall.saves.files import home
from dicehall.saves.hall import Hall
from dicehall.saves.hall.archive import RESULTS, Archive, ArchiveEntry, ArchiveStopped, hall_archive
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, clip

COLUMNS = f"  {'ID':<6}  {'ENDED':<10}  RESULT"
ROW_WIDTH = 74  # inside the list's frame and padding at 80 columns
SHOWN = 1000  # rows the list holds at most: the latest that match (the title says how many match)
# one line of the help each (24 rows hold no more): a filter's key and its shifted key, which steps back
PLAYER, GAME = Binding.Group("the player: on / back"), Binding.Group("the game: on / back")
DAYS_KEYS, RESULT = Binding.Group("the days: on / back"), Binding.Group("the result: on / back")
HELP_LEAVE = Binding.Group("Help, back")
DAYS = ((None, "any day"), (1, "the last 24 hours"), (7, "the last 7 days"), (30, "the last 30 days"),
        (365, "the last year"))


def archive_row(entry: ArchiveEntry) -> Text:
    copies = f" ({counted(entry.copies, 'copy')})" if entry.copies else ""
    return Text(clip(f"{entry.id:<6}  {entry.date():<10}  {clean_text(entry.news, 300)}{copies}", ROW_WIDTH))


def stepped(values: list, current, step: int):
    """The value `step` away from `current` in `values`, round and round (None, "all", first)."""
    choices = [None, *values]
    at = choices.index(current) if current in choices else 0
    return choices[(at + step) % len(choices)]


class ReadProgress(Message):
    """How far the worker's reading is: `done` of the hall's `total` logs looked at."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done, self.total = done, total


class Throttled:
    """A reading's progress, posted to the screen at most once every `every` seconds (a first read
    of 10,000 logs tells of each: the screen is drawn a few times a second, not 10,000)."""

    def __init__(self, post: Callable[[ReadProgress], object], every: float = 0.25,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.post, self.every, self.clock = post, every, clock
        self.last: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.last is None or now - self.last >= self.every:
            self.last = now
            self.post(ReadProgress(done, total))


def read_archive(folder: Path, data: Path, post: Callable[[ReadProgress], object]) -> tuple[Archive | None, str]:
    """The hall's archive (in a worker: 10,000 logs are read once, then the index serves), or the
    line saying why the folder cannot be read. Its progress is posted (throttled); it stops between
    logs when the worker is cancelled (the screen left), keeping in the index what was read.
    Both folders come resolved: the thread can outlive the screen, and the environment with it."""
    worker = get_current_worker()
    try:
        return hall_archive(Hall(folder), Throttled(post), lambda: worker.is_cancelled, data), ""
    except ArchiveStopped:
        return None, ""
    except (DicehallError, OSError) as problem:
        return None, error_line(problem)


class HallArchiveScreen(KeyedScreen):
    BINDINGS = [
        Binding("enter,v", "open", "Open", priority=True, tooltip="the game in the viewer, its analysis started"),
        Binding("x", "export('dhr')", "Export", tooltip="write it as a replay (.dhr) into the replays folder"),
        Binding("t", "export('dht')", "Text", tooltip="write it as a text record (.dht) into the replays folder"),
        Binding("p", "player(1)", "Player", group=PLAYER),
        Binding("P", "player(-1)", "player back", show=False, group=PLAYER),
        Binding("g", "game(1)", "Game", group=GAME),
        Binding("G", "game(-1)", "game back", show=False, group=GAME),
        Binding("d", "days(1)", "Days", group=DAYS_KEYS),
        Binding("D", "days(-1)", "days back", show=False, group=DAYS_KEYS),
        Binding("o", "result(1)", "Result", group=RESULT),
        Binding("O", "result(-1)", "result back", show=False, group=RESULT),
        Binding("c", "clear", "Clear", show=False, tooltip="every game again: no filter"),  # named on the filters' line
        Binding("r", "refresh", "Refresh", show=False),
        Binding("question_mark", "help", "Help", group=HELP_LEAVE),
        Binding("q,escape", "back", "Back", group=HELP_LEAVE),
    ]
    HELP_NOTES = ("Every finished game of the hall, the latest first: its id, the day it ended and its result. "
                  "p, g, d and o step through the players, games, days and results (with a player, the player's "
                  "result); shifted, back; c clears them. Enter opens the game in the viewer with its analysis; x "
                  "and t write it into your replays folder by its name. Games in progress, copies of a log and "
                  "damaged files are not listed (the status line says how many). r reads the hall again.")

    def __init__(self, hall: Hall | None = None) -> None:
        super().__init__()
        self.hall = hall or Hall()
        self.reader: Worker | None = None
        self.archive: Archive | None = None
        self.shown: list[ArchiveEntry] = []
        self.player: str | None = None
        self.game: str | None = None
        self.days: int | None = None
        self.result: str | None = None

    def help_title(self) -> str:
        return "The hall's archive"

    def compose(self) -> ComposeResult:
        yield Plain(Text("The hall's archive", style="bold"), classes="title")
        yield Plain(self.filter_words(), id="archive-filters")
        yield Plain(COLUMNS, id="archive-columns")
        yield OptionList(id="archive-list")
        yield StatusLine("reading the hall's finished games...")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.read()

    def read(self) -> None:
        # the worker is the screen's: leaving the screen cancels it, and the reading stops at the next log
        self.reader = self.run_worker(partial(read_archive, self.hall.folder, home(), self.post_message), thread=True,
                                      group="hall-archive", exclusive=True, exit_on_error=False)

    def on_read_progress(self, message: ReadProgress) -> None:
        if self.reader is not None:  # (not after the reading's end)
            self.status(f"reading {message.done:,} of {message.total:,} game{'s' * (message.total != 1)}...")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.reader or event.state != WorkerState.SUCCESS:
            return
        self.reader = None
        archive, error = event.worker.result or (None, "")
        if archive is None:
            self.status(error, error=True)
            return
        self.archive = archive
        self.show_chosen()
        assert self.archive is not None  # read without an error
        left_out = self.archive.left_out()
        said = [self.archive.note] if self.archive.note else []  # the index was off and rebuilt: said once
        said.append(f"not listed: {left_out}" if left_out else "Enter opens a game; p, g, d and o filter")
        self.status("; ".join(said))

    # ----- the filters -----
    def filter_words(self) -> str:
        player = clean_text(self.player, 20) if self.player is not None else "all"
        game = entry_of(self.game).title if self.game else "all"
        days = dict(DAYS)[self.days]
        return clip(f"player: {player} (p)  game: {game} (g)  days: {days} (d)  result: {self.result or 'any'} (o)"
                    "  c clears", 78)

    def show_chosen(self) -> None:
        archive = self.archive
        if archive is None:
            return
        since = None if self.days is None else time.time() - self.days * 86400
        chosen = archive.chosen(self.player, self.game, since, None, self.result)
        self.shown = chosen[:SHOWN]
        menu = self.query_one(OptionList)
        menu.clear_options()
        menu.add_options(Option(archive_row(entry), id=f"game:{entry.id}") for entry in self.shown)
        if self.shown:
            menu.highlighted = 0
        matched = (f"{len(chosen):,} of {counted(len(archive.games), 'finished game')}" if len(chosen) != len(archive.games)
                   else counted(len(archive.games), "finished game"))
        latest = f"; the latest {SHOWN:,} listed" if len(chosen) > SHOWN else ""
        self.query_one(".title", Plain).show(Text(clip(f"The hall's archive: {matched}{latest}", 78), style="bold"))
        self.query_one("#archive-filters", Plain).show(self.filter_words())
        self.refresh_bindings()

    def filtered(self, said: str) -> None:
        self.show_chosen()
        self.status(f"{said}: {counted(len(self.shown), 'game')} listed" if self.shown else f"{said}: no game matches")

    def action_player(self, step: int) -> None:
        if self.archive is None:
            return
        self.player = stepped(self.archive.players(), self.player, step)
        self.filtered(f"player: {clean_text(self.player, 40)}" if self.player else "every player")

    def action_game(self, step: int) -> None:
        if self.archive is None:
            return
        self.game = stepped(self.archive.game_ids(), self.game, step)
        self.filtered(f"game: {entry_of(self.game).title}" if self.game else "every game")

    def action_days(self, step: int) -> None:
        self.days = stepped([days for days, _ in DAYS[1:]], self.days, step)
        self.filtered(f"ended {dict(DAYS)[self.days]}")

    def action_result(self, step: int) -> None:
        self.result = stepped(list(RESULTS), self.result, step)
        whose = f" ({clean_text(self.player, 40)}'s)" if self.player and self.result else ""
        self.filtered(f"result: {self.result}{whose}" if self.result else "any result")

    def action_clear(self) -> None:
        self.player = self.game = self.days = self.result = None
        self.filtered("no filter")

    # ----- a game -----
    def current(self) -> ArchiveEntry | None:
        index = self.query_one(OptionList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("open", "export"):
            return self.current() is not None or None
        return True

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if action in ("open", "export"):
            return "no game is listed: c clears the filters" if self.archive and self.archive.games else \
                "no game has finished in the hall yet"
        return super().why_disabled(action, parameters)

    def action_open(self) -> None:
        entry = self.current()
        if entry is None:
            return
        problem = self.app.watch_hall_game(entry.id, self.hall)  # a finished game: the viewer on its replay
        if problem:
            self.status(problem, error=True)
            return
        viewer = self.app.screen
        analyse = getattr(viewer, "action_analyse", None)
        if viewer is not self and analyse is not None:
            viewer.call_after_refresh(analyse)  # "with its analysis": as if a were pressed

    def action_export(self, kind: str) -> None:
        entry = self.current()
        if entry is None:
            return
        from dicehall import saves
        from dicehall.replays import text
        from dicehall.saves.box import on_box
        from dicehall.saves.manage import export_target

        default = f"hall-{entry.id}.{kind}"
        # on a box a file name in the player's replays folder (saves/player_files.py), never a path
        target = default if on_box() else str(saves.replays_dir() / default)

        def write(overwrite: bool) -> None:
            try:
                session = self.hall.finished_session(entry.id)
                if kind == "dht":
                    text.write_text_file(session, export_target(target, default), overwrite=overwrite)
                else:
                    saves.write_export(session, f"hall-{entry.id}", target, overwrite=overwrite)
            except (FileExistsError, saves.ExportExists):
                self.app.push_screen(ConfirmScreen(f"{default} is in your replays folder already. Replace it?"),
                                     lambda yes: write(True) if yes else self.status("not written: the file is kept"))
                return
            except (DicehallError, OSError) as error:
                self.status(f"not written: {error_line(error)}", error=True)
                return
            self.status(f"wrote {default} into your replays folder")

        write(False)

    def action_refresh(self) -> None:
        self.status("reading the hall's finished games...")
        self.read()

    def action_back(self) -> None:
        self.app.pop_screen()
