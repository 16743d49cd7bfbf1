"""Issue #13, the saves side: what used to grow with the game's length, measured before and after
at 1k, 10k and 100k events, side by side in one run (this machine is shared and noisy).

    python tests/perf/bench_saves.py            # prints a table; --sizes 1000,10000 for a shorter run

Not a test: nothing here fails a build. "before" runs the code as it was (kept below, verbatim in
what it does), "after" the code as it is.

How a 100k-event game is made: every Dice Tower roll takes at least 1 from the countdown, and a
start is capped at 10,000, so no real tower has more than about 20,000 events. This script raises
the cap in its own process (dicetower.MAX_START) and plays a tower from N/2 + 100 with scripted
dice of 1 and 1 (each pull takes exactly 1: two events, never the fall), then rolls from the seed.
Undo/redo records would make a long file but not a long game: they leave the events as they were.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["DICEHALL_HOME"] = tempfile.mkdtemp(prefix="bench-saves-")

from dicehall import engine  # noqa: E402
from dicehall import saves  # noqa: E402
from dicehall.engine.games import dicetower  # noqa: E402
from dicehall.engine.games.dicetower import PullBlock  # noqa: E402

dicetower.MAX_START = 10_000_000  # this process only: see the module's notes


def long_tower(events: int):
    """An in-memory tower of exactly `events` events, standing, its dice from the seed from now on."""
    pulls = events // 2
    session = engine.new_session("dicetower", seed=1, options={"start": pulls + 100}, dice=[1, 1] * pulls)
    for _ in range(pulls):
        session.play(PullBlock())
    session.resume_seeded()
    assert len(session.events) == events and session.outcome is None
    return session


# ----- before: the code as it was -----
def branch_save_before(session, upto: int, name: str = ""):
    """saves.branch_save before: a new save, then one durable append per turn, each turn's events
    sliced from a fresh copy of the whole log."""
    parent = session.labels.save_name or session.game.TITLE
    branch_of = {"name": parent, "event": upto}
    new = saves.new_save(session.game.ID, name=name or f"{parent[:31]} (branch)", branch_of=branch_of,
                         seed=session.seed, options=session.options, players=list(session.players), dice=[])
    upto = session.settle(upto)
    marks = [m for m in session.marks if m.start < upto]
    first = marks[0].start if marks else upto
    if first:
        new.replay_batch(list(session.events[:first]), None)
    bounds = [m.start for m in marks] + [upto]
    for mark, end in zip(marks, bounds[1:]):
        new.replay_batch(list(session.events[mark.start:end]), mark.player)
    new.resume_seeded()
    return new


def list_saves_before():
    """list_saves before: every save rebuilt from its records (as now with no index to trust)."""
    (saves.saves_dir() / saves.INDEX_NAME).unlink(missing_ok=True)
    return saves.list_saves()


def old_tower_screen():
    """The Dice Tower screen before: each key drew the log from every event of the game."""
    from rich.text import Text

    from dicehall.engine.words import counted
    from dicehall.tui.screens.dicetower import DiceTowerScreen, pull_log
    from dicehall.tui.widgets import Plain, title_line

    class OldDiceTowerScreen(DiceTowerScreen):
        def redraw(self) -> None:
            from dicehall.tui.screens.dicetower import draw_board

            session = self.session
            state = session.state
            name = session.labels.save_name
            title = title_line("Dice Tower: ", name, f"   (seed {session.seed}, undos {session.undos})", self.size.width - 2)
            self.query_one("#title", Plain).show(Text(title, style="bold"))
            self.query_one("#board", Plain).show(draw_board(state))
            self.query_one("#figures", Plain).show(self.figures(state))
            log = self.query_one("#log", Plain)
            lines = pull_log([session.state_at(i) for i in range(len(session.events))], list(session.events), log.size.width)
            room = max(1, log.size.height - 1) if log.size.height else 10
            shown = lines[-room:]
            header = f"LOG ({counted(len(lines), 'roll')}; v reviews all)" if lines else "LOG: no pulls yet"
            log.show(Text(header + "\n", style="bold") + Text("\n".join(shown)))

        def after_pull(self) -> None:
            self.redraw()
            state = self.session.state
            last = pull_log([self.session.state_at(i) for i in range(len(self.session.events))], list(self.session.events))
            self.status(f"pull {state.pulls}: rolled " + " ".join(last[-1].split()[2:]) if last else "pulled")

    return OldDiceTowerScreen


# ----- the measures -----
def best_of(rounds: int, work) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def branch_times(session, rounds: int) -> tuple[float, float]:
    """Continue from here at the middle of the game: the old way, then the new."""
    middle = len(session.events) // 2

    def made(branch) -> None:
        saves.close_save(branch)
        branch.journal.path.unlink()

    before = best_of(rounds, lambda: made(branch_save_before(session, middle)))
    after = best_of(rounds, lambda: made(saves.branch_save(session, middle)))
    return before, after


def key_times(session, screen_type, presses: int) -> float:
    """The median time from a key (p, then u to take it back, in turn) to the next frame drawn."""
    from dicehall.tui.app import DicehallApp

    class TimedApp(DicehallApp):
        frames: list[float] = []

        def _display(self, screen, renderable) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
            super()._display(screen, renderable)

    async def run() -> list[float]:
        app = TimedApp()
        timings = []
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(screen_type(session))
            await pilot.pause()
            for i in range(presses):
                app.frames.clear()
                started = time.perf_counter()
                await pilot.press("u" if i % 2 else "p")
                after = [t for t in app.frames if t > started]
                timings.append(after[0] - started)
        return timings

    return statistics.median(asyncio.run(run()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="game lengths in events, comma separated")
    parser.add_argument("--presses", type=int, default=20, help="keys timed per screen and size")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    from dicehall.tui.screens.dicetower import DiceTowerScreen

    rows: dict[str, dict[int, tuple[float, float]]] = {"branch": {}, "list": {}, "key": {}}
    listed = {}
    for size in sizes:
        session = long_tower(size)
        rows["branch"][size] = branch_times(session, rounds=1 if size >= 100_000 else 3)
        kept = saves.branch_save(session, size)  # the whole game as a save, for the list
        saves.close_save(kept)
        listed[size] = kept.journal.path
        rows["key"][size] = (key_times(long_tower(size), old_tower_screen(), args.presses),
                             key_times(long_tower(size), DiceTowerScreen, args.presses))
    for size in sizes:  # one save at a time in the folder, as in the figure
        time.sleep((saves.RACY_NS + 200_000_000) / 1e9)  # older than the racy window, so the index may hold it
        others = {path: path.with_suffix(".aside") for other, path in listed.items() if other != size}
        for path, aside in others.items():
            path.rename(aside)
        (saves.saves_dir() / saves.INDEX_NAME).unlink(missing_ok=True)
        truth = list_saves_before()
        saves.list_saves()  # builds the index
        assert saves.list_saves() == truth
        rows["list"][size] = (best_of(3, list_saves_before), best_of(5, saves.list_saves))
        for path, aside in others.items():
            aside.rename(path)

    names = {"branch": "continue from here, from the middle", "list": "list_saves, one save",
             "key": "Dice Tower screen, one key (p/u)"}
    print(f"{'what':<36} {'events':>7} {'before':>10} {'after':>10} {'before/after':>13}")
    for kind, by_size in rows.items():
        for size, (before, after) in by_size.items():
            print(f"{names[kind]:<36} {size:>7,} {before * 1000:>8.1f}ms {after * 1000:>8.2f}ms {before / after:>12.0f}x")
        if len(sizes) > 1:
            low, high = sizes[0], sizes[-1]
            growth = [by_size[high][i] / by_size[low][i] for i in (0, 1)]
            print(f"{'  growth: time at ' + f'{high:,} / at {low:,}':<44} {growth[0]:>9.1f}x {growth[1]:>9.1f}x")


if __name__ == "__main__":
    main()
