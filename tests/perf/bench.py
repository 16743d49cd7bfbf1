"""dicehall's speed goals, measured side by side in one run (this machine is shared and noisy).

    python tests/perf/bench.py            # prints each figure and its goal

Not a test: nothing here fails a build. The README quotes the figures.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FIRST_FRAME = """
import sys, time
started = time.perf_counter()
from textual.app import App
from textual.widgets import Static
if sys.argv[1] == "dicehall":
    from tui.app import DicehallApp as Base
else:
    class Base(App):
        def compose(self):
            yield Static("hello")
class Probe(Base):
    first = None
    def _display(self, screen, renderable):  # called with each composed frame, also when headless
        if renderable is not None and self.first is None:
            self.first = time.perf_counter()
        super()._display(screen, renderable)
async def leave(pilot):
    await pilot.pause()
    pilot.app.exit()
app = Probe()
app.run(headless=True, size=(80, 24), auto_pilot=leave)
print(app.first - started)
"""


def first_frame(rounds: int = 9) -> None:
    """From the first import to the first frame composed: dicehall's launcher against a one-widget Textual app."""
    env = dict(os.environ, DICEHALL_HOME=tempfile.mkdtemp(), PYTHONPATH=str(ROOT))
    times: dict[str, list[float]] = {"dicehall": [], "minimal": []}
    for _ in range(rounds):
        for which in times:  # alternate, so both see the same machine load
            out = subprocess.run([sys.executable, "-c", FIRST_FRAME, which], check=True, cwd=ROOT, env=env,
                                 capture_output=True, text=True).stdout
            times[which].append(float(out.strip().splitlines()[-1]))
    ours, base = statistics.median(times["dicehall"]), statistics.median(times["minimal"])
    print(f"first frame: dicehall {ours * 1000:.0f} ms, minimal Textual app {base * 1000:.0f} ms, "
          f"ratio {ours / base:.2f}x (goal <= 1.3x)")


def durable_append(rounds: int = 300) -> None:
    """A save's durable append (encode, frame, write, fsync) against a bare write+fsync of the same bytes;
    and a whole pull (engine, dice, and that append) for scale."""
    os.environ["DICEHALL_HOME"] = tempfile.mkdtemp()
    import saves
    from engine.games.dicetower import PullBlock

    session = saves.new_save("dicetower", name="bench", seed=1, options={"start": 10000})
    journal = session.journal
    bare = os.open(Path(os.environ["DICEHALL_HOME"]) / "bare.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    record = {"op": "play", "by": 0, "events": list(engine_events())}
    data = saves.frame(saves._encode_record(record))
    append, base, play = [], [], []
    for _ in range(rounds):
        started = time.perf_counter()
        journal.append(record)
        append.append(time.perf_counter() - started)
        started = time.perf_counter()
        os.write(bare, data)
        os.fsync(bare)
        base.append(time.perf_counter() - started)
        started = time.perf_counter()
        session.play(PullBlock())
        play.append(time.perf_counter() - started)
    os.close(bare)
    saves.close_save(session)
    a, b, p = statistics.median(append), statistics.median(base), statistics.median(play)
    print(f"durable append: save append {a * 1000:.3f} ms, bare write+fsync {b * 1000:.3f} ms, "
          f"ratio {a / b:.2f}x (goal <= 1.5x); a whole pull on a save {p * 1000:.3f} ms ({p / b:.2f}x)")


BIG_SAVE = """
import re, sys, time
import saves
started = time.perf_counter()
[info] = saves.list_saves()
listed = time.perf_counter()
session = saves.open_save(info.id)
opened = time.perf_counter()
assert info.problem is None and session.undos > 0
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1))  # this program's own peak
print(listed - started, opened - listed, peak / 1024)
"""


def big_save(mib: int = 64) -> None:
    """A save of MIB MiB of tiny valid records (one pull, then undo/redo pairs): the time to list it and
    to open it, and the peak memory of the process, against the same process with a one-pull save."""
    figures = {}
    for size in (0, mib << 20):
        home = tempfile.mkdtemp()
        env = dict(os.environ, DICEHALL_HOME=home, PYTHONPATH=str(ROOT))
        os.environ["DICEHALL_HOME"] = home
        import saves
        from engine.games.dicetower import PullBlock

        session = saves.new_save("dicetower", name="big", seed=3)
        session.play(PullBlock())
        session.undo()  # so the small save has an undo too
        session.redo()
        saves.close_save(session)
        pair = saves.frame({"op": "undo"}) + saves.frame({"op": "redo"})
        pairs = max(0, size - session.journal.path.stat().st_size) // len(pair)  # up to the size cap, not past it
        with open(session.journal.path, "ab") as handle:
            for start in range(0, pairs, 1 << 15):
                handle.write(pair * min(1 << 15, pairs - start))
        out = subprocess.run([sys.executable, "-c", BIG_SAVE], check=True, cwd=ROOT, env=env,
                             capture_output=True, text=True).stdout
        figures[size] = [float(x) for x in out.split()]
    listed, opened, rss = figures[mib << 20]
    print(f"big save: {mib} MiB of tiny records listed in {listed:.1f} s, opened in {opened:.1f} s, "
          f"peak memory {rss:.0f} MiB (a one-pull save: {figures[0][2]:.0f} MiB; goal: memory follows the game, not the file)")


def engine_events() -> tuple:
    from engine.games.dicetower import BlockPulled, DiceRolled

    return (BlockPulled(False), DiceRolled((2, 5)))


def viewer_steps(min_events: int = 5000, presses: int = 60) -> None:
    """From a key press in the replay viewer to the next frame composed, for a game of over 5,000 events."""
    import engine
    from engine.games.dicetower import PullBlock
    from tui.app import DicehallApp
    from tui.screens.viewer import ViewerScreen

    session = engine.new_session("dicetower", seed=3, options={"start": 10000})
    while session.outcome is None:
        session.play(PullBlock())
    assert len(session.events) >= min_events, len(session.events)

    class TimedApp(DicehallApp):
        frames: list[float] = []

        def _display(self, screen, renderable) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
            super()._display(screen, renderable)

    async def run() -> dict[str, list[float]]:
        app = TimedApp()
        timings: dict[str, list[float]] = {"step": [], "jump": []}
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(ViewerScreen(session, position=len(session.events) // 2))
            await pilot.pause()
            for i in range(presses):
                for kind, key in (("step", "right" if i % 2 else "left"), ("jump", "end" if i % 2 else "home")):
                    app.frames.clear()
                    started = time.perf_counter()
                    await pilot.press(key)
                    after = [t for t in app.frames if t > started]
                    timings[kind].append(after[0] - started)
        return timings

    timings = asyncio.run(run())
    for kind, values in timings.items():
        values.sort()
        print(f"viewer {kind} at {len(session.events)} events: key to frame median {statistics.median(values) * 1000:.1f} ms, "
              f"90th percentile {values[int(len(values) * 0.9)] * 1000:.1f} ms (goal <= 16 ms)")


def sim_speed(games: int = 2000) -> None:
    from tui.sim import sim_dicetower

    report = sim_dicetower(games, seed=1, remove_rate=0)
    print(f"sim dicetower: {games / report['seconds']:.0f} games per second ({games} games in {report['seconds']:.2f} s)")


def troll_playouts(games: int = 200) -> None:
    """Whole troll games of random legal moves through the engine, per second."""
    from tui.sim import play_troll

    started = time.perf_counter()
    for seed in range(games):
        play_troll(seed, {"difficulty": "standard"}, "random")
    elapsed = time.perf_counter() - started
    print(f"troll random playouts: {games / elapsed:.0f} games per second ({games} standard games)")


def troll_hint(games: int = 10) -> None:
    """The hint's time per turn: the adviser searching every legal pair of actions, timed at the
    start of each turn (the second action's hint searches single actions only)."""
    import engine
    from engine.bots import troll as adviser

    times = []
    for seed in range(games):
        for difficulty in ("standard", "sturdy", "tutorial"):
            session = engine.new_session("troll", seed=seed, options={"difficulty": difficulty})
            while session.outcome is None:
                full_turn = session.state.actions_left == 2  # a whole turn to plan: every pair of actions
                started = time.perf_counter()
                plan = adviser.best_turn(session.state)
                if full_turn:
                    times.append(time.perf_counter() - started)
                session.play(plan.commands[0])
    times.sort()
    print(f"troll hint: median {statistics.median(times) * 1000:.1f} ms, 90th percentile "
          f"{times[int(len(times) * 0.9)] * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms over {len(times)} turns "
          f"(goal: median under 200 ms)")


def wager_odds() -> None:
    """The wager's odds behind `h` and the best bot: the exact two-player tables once, then one
    question exact (two players) and one sampled (six players)."""
    from engine.bots import wager as bots
    from engine.games.wager import WagerState

    def decision(scores, seat=0):
        count = len(scores)
        return WagerState(names=tuple(f"P{i}" for i in range(count)), play_on=False, scores=tuple(scores),
                          out=(False,) * count, runs=((0, 0),) * count, seat=seat, normal_left=0, can_wager=True)

    started = time.perf_counter()
    bots.tables()
    built = time.perf_counter() - started
    started = time.perf_counter()
    bots.win_chances(decision((7, 11)))
    exact = time.perf_counter() - started
    started = time.perf_counter()
    bots.win_chances(decision((7, 11, 3, 14, 0, 9), seat=2))
    sampled = time.perf_counter() - started
    print(f"wager odds: tables {built:.2f} s once, then {exact * 1000:.2f} ms exact (2 players), "
          f"{sampled * 1000:.0f} ms sampled (6 players)")


def towers_bot(games: int = 2) -> None:
    """The Towers bot's time per answer at each searching level, over whole games against itself
    (goal: within 1 s at the default level, medium, on this 2-core machine)."""
    import engine
    from engine.bots import towers as bot

    for level in ("medium", "hard"):
        times = []
        for seed in range(games):
            session = engine.new_session("towers", seed=seed)
            while session.outcome is None:
                started = time.perf_counter()
                command = bot.choose(session.state, level, seed, len(session.events))
                times.append(time.perf_counter() - started)
                session.play(command)
        times.sort()
        print(f"towers bot, {level}: median {statistics.median(times) * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms "
              f"over {len(times)} answers" + (" (goal: within 1 s)" if level == "medium" else ""))


if __name__ == "__main__":
    first_frame()
    durable_append()
    viewer_steps()
    sim_speed()
    troll_playouts()
    troll_hint()
    wager_odds()
    towers_bot()
    big_save()
