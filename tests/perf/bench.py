"""dicehall's speed goals, measured side by side in one run (this machine is shared and noisy, so
every figure that has a baseline is measured beside it, alternating, and given as a ratio).

    python tests/perf/bench.py                    # every row, then the Speed table
    python tests/perf/bench.py --only sim,troll   # some rows (names: see SECTIONS)
    python tests/perf/bench.py --docs             # every row, and rewrite the table in docs/performance.md

Rows that can grow with the game are measured at 1k, 10k and 100k events (a Dice Tower started high
enough; only here is its start raised past the rules' 10,000). Not a test: nothing here fails a build.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SIZES = (1_000, 10_000, 100_000)
ROWS: list[tuple[str, str, str]] = []  # (what, figure, goal) for docs/performance.md's table


def row(what: str, figure: str, goal: str = "") -> None:
    ROWS.append((what, figure, goal))
    print(f"{what}: {figure}" + (f"   [goal: {goal}]" if goal else ""), flush=True)


def ms(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3g} s"
    return f"{seconds * 1000:.3g} ms" if seconds >= 0.001 else f"{seconds * 1e6:.3g} us"


def growth(figures: dict[int, float], unit=ms) -> str:
    """Figures at each size, then how much the 100k figure is of the 1k one."""
    parts = " / ".join(unit(figures[n]) for n in SIZES if n in figures)
    first, last = figures.get(SIZES[0]), figures.get(SIZES[-1])
    ratio = f" ({last / first:.1f}x from 1k to 100k)" if first and last else ""
    return f"{parts} at 1k / 10k / 100k{ratio}"


def scratch_home() -> None:
    os.environ["DICEHALL_HOME"] = tempfile.mkdtemp(prefix="dicehall-bench-")


# ----- long games: a Dice Tower started high enough -----
def raise_tower_start() -> None:
    from dicehall.engine.games import dicetower

    dicetower.MAX_START = 1_000_000  # here only: the rules stop at 10,000


def long_tower(events: int, seed: int = 3):
    """A Dice Tower session (no save) of at least `events` events, still standing."""
    from dicehall import engine
    from dicehall.engine.games.dicetower import PullBlock

    raise_tower_start()
    session = engine.new_session("dicetower", seed=seed, options={"start": events * 2})
    pull = PullBlock()
    while len(session.events) < events:
        session.play(pull)
    return session


class Collect:
    """A journal that keeps the records, so a long save is written in one go."""

    def __init__(self):
        self.records: list[dict] = []

    def append(self, record: dict) -> None:
        self.records.append(record)


def long_save(events: int, seed: int = 3):
    """A save of at least `events` events, open for play (its records written with one write)."""
    from dicehall import saves
    from dicehall.engine.games.dicetower import PullBlock

    raise_tower_start()
    session = saves.new_save("dicetower", name=f"bench {events}", seed=seed, options={"start": events * 2})
    journal, collect = session.journal, Collect()
    session.journal = collect
    pull = PullBlock()
    while len(session.events) < events:
        session.play(pull)
    saves.write_durably(journal.fd, b"".join(saves.frame(saves.encode_record(r)) for r in collect.records))
    session.journal = journal
    return session


# ----- the rows -----
FIRST_FRAME = """
import sys, time
started = time.perf_counter()
from textual.app import App
from textual.widgets import Static
if sys.argv[1] == "dicehall":
    from dicehall.tui.app import DicehallApp as Base
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

BUSY = "import time\nend = time.time() + 120\nwhile time.time() < end: pass\n"


def first_frame(rounds: int = 15) -> None:
    """From the first import to the first frame composed: dicehall's launcher against a one-widget
    Textual app; on the machine as it is, then with both cores kept busy by two spinning processes.

    dicehall's own modules are compiled to bytecode first, as a player's Python has them from the
    second start on (and Textual's from its install): a shell that sets PYTHONDONTWRITEBYTECODE, as
    this workplace's does, would otherwise compile dicehall's source at every start, and the figure
    would be that compiling (about 1.4x), not what a player waits for."""
    import compileall

    for package in ("dicehall", "engine", "tui", "saves", "replays"):  # every folder the name maps (pyproject.toml)
        compileall.compile_dir(ROOT / package, quiet=1)
    env = dict(os.environ, DICEHALL_HOME=tempfile.mkdtemp(), PYTHONPATH=str(ROOT))
    for loaded in (False, True):
        load = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2 if loaded else 0)]
        try:
            times: dict[str, list[float]] = {"dicehall": [], "minimal": []}
            for _ in range(rounds):
                for which in times:  # alternate, so both see the same machine load
                    out = subprocess.run([sys.executable, "-c", FIRST_FRAME, which], check=True, cwd=ROOT, env=env,
                                         capture_output=True, text=True).stdout
                    times[which].append(float(out.strip().splitlines()[-1]))
        finally:
            for process in load:
                process.kill()
                process.wait()
        ours, base = statistics.median(times["dicehall"]), statistics.median(times["minimal"])
        row(f"first frame of `dicehall` against a one-widget Textual app{', both cores busy' if loaded else ''}",
            f"{ms(ours)} vs {ms(base)}, **{ours / base:.2f}x**", "<= 1.3x")


def reference_tower(seed: int) -> int:
    """The Dice Tower's rules as a direct loop over the same BLAKE2b draws the engine uses (start 100,
    plain pulls): the pulls until it falls."""
    from dicehall.engine.chance import seeded_draws

    countdown, pulls, k = 100, 0, 0
    while True:
        pulls += 1
        while True:  # one pull: roll until it is not double threes
            a, b = seeded_draws(seed, k, (6, 6))  # the engine's own draw routine: the same draws, the same cost
            a, b, k = a + 1, b + 1, k + 2
            if a == 3 and b == 3:
                countdown -= 6
                if countdown <= 0:
                    return pulls
                continue
            countdown -= min(a, b) if countdown >= 51 else max(a, b)
            if countdown <= 0:
                return pulls
            break


def side_by_side(ours, base, items: list, per_run: int, rounds: int = 9) -> tuple[float, float]:
    """Games per CPU second of two ways of playing the same games. The games are cut into short
    runs, each run played both ways in turn (which way first alternates), `rounds` times; a run's
    time is its fastest (another process on this shared machine can only add time, so the fastest
    is the least disturbed), and the rate is the games over the sum of those times."""
    runs = [items[i : i + per_run] for i in range(0, len(items), per_run)]
    fastest = {ours: [float("inf")] * len(runs), base: [float("inf")] * len(runs)}
    for round_number in range(rounds):
        for i, run in enumerate(runs):
            for play in (ours, base) if (round_number + i) % 2 == 0 else (base, ours):
                started = time.process_time()
                for item in run:
                    play(item)
                fastest[play][i] = min(fastest[play][i], time.process_time() - started)
    return len(items) / sum(fastest[ours]), len(items) / sum(fastest[base])


def sim_dicetower(games: int = 1500) -> None:
    """`sim dicetower`'s games through the engine against the reference loop, CPU time, side by side."""
    from dicehall.engine.chance import seeded_draw
    from dicehall.sims.dicetower import play_dicetower

    seeds = [seeded_draw(1, i, 2**32) for i in range(games)]
    engine_pulls = [play_dicetower(s, 0) for s in seeds]
    assert engine_pulls == [reference_tower(s) for s in seeds], "the reference loop disagrees with the engine"
    ours, base = side_by_side(lambda s: play_dicetower(s, 0), reference_tower, seeds, per_run=50)
    row("`sim dicetower` through the engine against a direct loop of the same rules and draws (same pulls, checked)",
        f"{ours:,.0f} vs {base:,.0f} games/s CPU, **{ours / base:.2f}x**", ">= 0.5x")


def reference_troll(seed: int, options: dict) -> tuple[str, int, int]:
    """A random troll playout with the game module folded directly (no Session): the same seeded
    draws and the same random choices as `sim troll --bot random`."""
    from dicehall.engine.chance import seeded_draw, seeded_draws
    from dicehall.engine.games import troll as game

    checked = game.check_options(dict(options))
    state = game.initial_state(checked, game.check_players(()))
    used = step = 0

    def chance(state):
        nonlocal used
        while game.outcome(state) is None and (need := game.chance_needed(state)) is not None:
            draws = seeded_draws(seed, used, need.spec)
            used += len(need.spec)
            state = game.evolve(state, game.chance_event(state, draws, False))
        return state

    state = chance(state)
    while game.outcome(state) is None:
        commands = game.legal_commands(state)
        command = commands[seeded_draw(seed ^ 0x52414E44, step, len(commands))]
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        state = chance(state)
        step += 1
    result = game.result(state, 0)  # the rules' score: the cards left
    return "perfect" if result.perfect else "won" if result.won else "lost", result.value, state.turn


def troll_playouts(games: int = 200) -> None:
    """Random troll playouts (standard) through Session against the game module folded directly."""
    from dicehall.sims.troll import play_troll

    options = {"difficulty": "standard"}
    assert [play_troll(s, options, "random") for s in range(20)] == [reference_troll(s, options) for s in range(20)]
    ours, base = side_by_side(lambda s: play_troll(s, options, "random"), lambda s: reference_troll(s, options),
                              list(range(games)), per_run=10)
    row("troll random playouts through `Session` against the game module folded directly",
        f"{ours:,.0f} vs {base:,.0f} games/s CPU, **{ours / base:.2f}x**", ">= 0.9x, and both 2x faster than before")


def branch_middle() -> None:
    """"Continue from here" (branch) from the middle of a game, the new save written and closed."""
    from dicehall import saves

    scratch_home()
    figures = {}
    for n in SIZES:
        session = long_tower(n)
        started = time.perf_counter()
        branch = saves.branch_save(session, len(session.events) // 2)
        figures[n] = time.perf_counter() - started
        saves.close_save(branch)
    row("\"continue from here\" (branch) from the middle of a game", growth(figures), "linear, one durable write")


def tower_screen_keys(presses: int = 6) -> None:
    """The Dice Tower screen: from a pull key and from an undo key to the next frame, on a save."""
    from dicehall import saves
    from dicehall.tui.app import DicehallApp

    scratch_home()

    class TimedApp(DicehallApp):
        frames: list[float] = []

        def _display(self, screen, renderable) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
            super()._display(screen, renderable)

    async def run(session) -> dict[str, list[float]]:
        app = TimedApp(session=session)
        timings: dict[str, list[float]] = {"p": [], "u": []}
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(presses):
                for key in ("p", "u"):
                    app.frames.clear()
                    started = time.perf_counter()
                    await pilot.press(key)
                    await pilot.pause()
                    after = [t for t in app.frames if t > started]
                    timings[key].append((after[0] if after else time.perf_counter()) - started)
        return timings

    pulls, undos = {}, {}
    for n in SIZES:
        session = long_save(n)
        timings = asyncio.run(run(session))
        saves.close_save(session)
        pulls[n], undos[n] = statistics.median(timings["p"]), statistics.median(timings["u"])
    row("Dice Tower screen, pull key to frame", growth(pulls), "constant, well under a frame (16 ms)")
    row("Dice Tower screen, undo key to frame", growth(undos), "constant, well under a frame (16 ms)")


def saves_list() -> None:
    """`list_saves` (behind `continue`, `saves` and the launcher) with one save of each length."""
    from dicehall import saves

    figures, first = {}, {}
    for n in SIZES:
        scratch_home()
        saves.close_save(long_save(n))
        time.sleep(saves.RACY_NS / 1e9)  # a save changed this recently is always re-read, not taken from the index
        started = time.perf_counter()
        saves.list_saves()  # the first listing reads the save and writes its summary to the index
        first[n] = time.perf_counter() - started
        times = []
        for _ in range(3):
            started = time.perf_counter()
            saves.list_saves()
            times.append(time.perf_counter() - started)
        figures[n] = statistics.median(times)
    row("`list_saves` with one save (from the index; the first listing after a change reads the save: "
        f"{' / '.join(ms(first[n]) for n in SIZES)})", growth(figures), "constant per save")


def stats_folder(count: int) -> Path:
    """A saves folder of `count` finished saves (Dice Towers and wagers, each its own name), written
    directly from two played templates (no fsync each), and indexed once by a first count."""
    from dicehall import saves
    from dicehall.engine.core import Player
    from dicehall.engine.games.dicetower import PullBlock
    from dicehall.engine.games.wager import EndTurn, Roll, Wager
    from dicehall.saves.stats import collect

    scratch_home()
    tower = saves.new_save("dicetower", name="tower", seed=1, options={"start": 20})
    while tower.outcome is None:
        tower.play(PullBlock())
    wager = saves.new_save("wager", name="wager", seed=1, players=[Player("Ann"), Player("Bob", True, "bold")],
                           dice=[5, 5, 1, 4, 5, 1, 1])
    for command in (Roll(), Wager(), Roll(), EndTurn(), Roll(), Wager(), Roll(), EndTurn(), Roll()):
        wager.play(command)
    templates = []
    for session in (tower, wager):
        saves.close_save(session)
        parsed = saves.parse_save(session.journal.path.read_bytes(), "template")
        templates.append((parsed.header, b"".join(saves.frame(r) for r in parsed.records)))
        session.journal.path.unlink()
    folder = saves.saves_dir()
    for n in range(count):
        header, rest = templates[n % 2]
        data = saves.MAGIC + saves.frame(dict(header, name=f"bench {n}")) + rest
        (folder / f"bench-{n:05d}.dhs").write_bytes(data)
    time.sleep(saves.RACY_NS / 1e9 + 0.1)  # a save changed this recently is always read again
    collect()  # the first count reads every save and writes the index
    return folder


def stats_counts(rounds: int = 7) -> None:
    """`dicehall stats`' count (saves.stats.collect) once indexed: 10 saves against 10,000, alternating."""
    from dicehall.saves.stats import collect

    folders = {n: stats_folder(n) for n in (10, 10_000)}
    times: dict[int, list[float]] = {10: [], 10_000: []}
    cpu: dict[int, list[float]] = {10: [], 10_000: []}
    for _ in range(rounds):
        for n, folder in folders.items():
            os.environ["DICEHALL_HOME"] = str(folder.parent)
            started, started_cpu = time.perf_counter(), time.process_time()
            stats = collect()
            times[n].append(time.perf_counter() - started)
            cpu[n].append(time.process_time() - started_cpu)
            assert stats.counted == n
    small, large = statistics.median(times[10]), statistics.median(times[10_000])
    load = os.getloadavg()[0]
    row(f"`dicehall stats` count from its index: 10 saves against 10,000, median of {rounds} (load average "
        f"{load:.1f} on {os.cpu_count()} cores)",
        f"{ms(small)} vs {ms(large)} ({ms(statistics.median(cpu[10]))} vs {ms(statistics.median(cpu[10_000]))} CPU), "
        f"{ms(large / 10_000)} a save", "at most 200 ms for 10,000 saves")


def ratings_hall(count: int):
    """A hall whose ratings file holds `count` rated Towers games among 20 keys and the bots, written
    directly (one write, no game played: the rating, not the verifying, is measured)."""
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.rating_files import rebuild
    from dicehall.saves.hall.ratings import RatedGame, RatedSeat

    os.environ["DICEHALL_PLAYER"] = "bench"
    hall = Hall(Path(tempfile.mkdtemp(prefix="dicehall-bench-ratings-")))
    rebuild(hall)  # this account's ratings file, empty
    chooser = random.Random(count)
    players = [f"player{n}" for n in range(20)]
    records = []
    for n in range(count):
        first, second = chooser.sample(players, 2)
        other = RatedSeat("Bot", 1, bot=chooser.choice(["easy", "hard"])) if n % 3 == 0 else RatedSeat(second, 1)
        rated = RatedGame(f"{n:06d}"[-6:], f"{n:064x}", "towers", 1e9 + n, (RatedSeat(first, 0), other))
        records.append(rated.as_record())
    from dicehall.saves import frame

    with open(hall.folder / "ratings" / str(os.getuid()), "ab") as file:
        file.write(b"".join(frame(record) for record in records))
    return hall


def ratings_speed(rounds: int = 5) -> None:
    """`dicehall ratings`' reading and rating (openskill, every game in order): 10 games against 10,000."""
    from dicehall.saves.hall.rating_files import hall_ratings

    halls = {n: ratings_hall(n) for n in (10, 10_000)}
    times: dict[int, list[float]] = {10: [], 10_000: []}
    for _ in range(rounds):
        for n, hall in halls.items():
            started = time.process_time()
            found = hall_ratings(hall, catch_up=False)
            times[n].append(time.process_time() - started)
            assert len(found.history) == n and not found.problems
    del os.environ["DICEHALL_PLAYER"]
    small, large = statistics.median(times[10]), statistics.median(times[10_000])
    row(f"`dicehall ratings` read and rated from the ratings file: 10 games against 10,000, CPU, median of {rounds}",
        f"{ms(small)} vs {ms(large)}, {ms(large / 10_000)} a game", "at most 2 s for 10,000 games")


def events_length() -> None:
    """`len(session.events)`, which the screens ask on every key."""
    figures = {}
    for n in SIZES:
        session = long_tower(n)
        count = 2000
        started = time.perf_counter()
        for _ in range(count):
            len(session.events)
        figures[n] = (time.perf_counter() - started) / count
    row("`len(session.events)`", growth(figures), "O(1)")


def memory_and_stepping(probes: int = 2000) -> None:
    """What a session keeps per event, and what reading any state then costs (the viewer's steps)."""
    figures, typical, slow = {}, {}, {}
    long_tower(100)  # imports and one-time tables are not the log's
    for n in SIZES:
        gc.collect()
        tracemalloc.start()
        session = long_tower(n)
        gc.collect()
        size, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        figures[n] = size / len(session.events)
        total = len(session.events)
        chooser = random.Random(n)
        times = []
        for _ in range(probes):  # any position, in no order: the worst case for a fold from a kept state
            n_at = chooser.randrange(total + 1)
            started = time.perf_counter()
            session.state_at(n_at)
            times.append(time.perf_counter() - started)
        times.sort()
        typical[n], slow[n] = statistics.median(times), times[int(len(times) * 0.99)]
    row("memory per event (a Dice Tower)", " / ".join(f"{figures[n]:.0f} B" for n in SIZES) + " at 1k / 10k / 100k",
        "keep what stepping needs")
    row("`state_at` any position (the viewer's steps and jumps), median", growth(typical), "within a frame")
    row("`state_at` any position, 99th percentile", growth(slow), "within a frame")


def durable_append(rounds: int = 300) -> None:
    """A save's durable append (encode, frame, write, fsync) against a bare write+fsync of the same bytes;
    and a whole pull (engine, dice, and that append) for scale."""
    scratch_home()
    from dicehall import saves
    from dicehall.engine.games.dicetower import BlockPulled, DiceRolled, PullBlock

    session = saves.new_save("dicetower", name="bench", seed=1, options={"start": 10000})
    journal = session.journal
    bare = os.open(Path(os.environ["DICEHALL_HOME"]) / "bare.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    record = {"op": "play", "by": 0, "events": [BlockPulled(False), DiceRolled((2, 5))]}
    data = saves.frame(saves.encode_record(record))
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
    row("durable append of one record against a bare write+fsync of the same bytes",
        f"{ms(a)} vs {ms(b)}, **{a / b:.2f}x**", "<= 1.5x")
    row("a whole pull on a save (engine, dice, and the append) against that bare write+fsync",
        f"{ms(p)}, {p / b:.2f}x", "(for scale)")


def viewer_steps(presses: int = 30) -> None:
    """From a key press in the replay viewer to the next frame composed: one step, and a jump to an end."""
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.screens.viewer import ViewerScreen

    class TimedApp(DicehallApp):
        frames: list[float] = []

        def _display(self, screen, renderable) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
            super()._display(screen, renderable)

    async def run(session) -> dict[str, list[float]]:
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

    steps, jumps = {}, {}
    for n in SIZES:
        timings = asyncio.run(run(long_tower(n)))
        steps[n], jumps[n] = statistics.median(timings["step"]), statistics.median(timings["jump"])
    row("replay viewer, key to frame: one step", growth(steps), "<= 16 ms")
    row("replay viewer, key to frame: jump to the start or end", growth(jumps), "<= 16 ms")


def troll_hint(games: int = 10) -> None:
    """The hint's time per turn: the adviser searching every legal pair of actions, timed at the
    start of each turn (the second action's hint searches single actions only)."""
    from dicehall import engine
    from dicehall.engine.bots import troll as adviser

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
    row("troll hint, time per turn (a whole turn's pairs of actions)",
        f"{ms(statistics.median(times))} median, {ms(times[int(len(times) * 0.9)])} at the 90th percentile, "
        f"{ms(times[-1])} worst", "median < 200 ms")


def wager_odds() -> None:
    """The wager's odds behind `h` and the best bot: the exact two-player tables once, then one
    question exact (two players) and one sampled (six players)."""
    from dicehall.engine.bots import wager as bots
    from dicehall.engine.games.wager import WagerState

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
    row("wager odds (`h` and the best bot): the exact tables once, then a question with two / six players",
        f"{built:.2f} s once, then {ms(exact)} / {ms(sampled)}")


def towers_bot(games: int = 2) -> None:
    """The Towers bot's time per answer at each searching level, over whole games against itself."""
    from dicehall import engine
    from dicehall.engine.bots import towers as bot

    figures = {}
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
        figures[level] = (statistics.median(times), times[-1])
    (medium, medium_worst), (hard, hard_worst) = figures["medium"], figures["hard"]
    row("Towers bot, time per answer, *medium* (the default) / *hard*",
        f"{ms(medium)} / {ms(hard)} median, {ms(medium_worst)} / {ms(hard_worst)} worst", "medium within 1 s")


def towers_analysis_speed(games: int = 12) -> None:
    """`dicehall analyse` of whole Towers games, both sides people (every move judged: the most work),
    played by the easy bot against the medium: CPU time (the machine is shared), and how many of each
    game's decisions the exact solver judged (engine/analysis/towers_exact.py, EXACT_TOWERS left)."""
    from dicehall import engine
    from dicehall.engine import analysis
    from dicehall.engine.analysis.towers import EXACT_TOWERS
    from dicehall.engine.bots import towers as bot
    from dicehall.engine.core import Player

    times, exact = [], []
    for seed in range(1, games + 1):
        session = engine.new_session("towers", seed=seed, players=[Player("A"), Player("B")])
        while session.outcome is None:
            session.play(bot.choose(session.state, "easy" if session.to_act == 0 else "medium", seed, len(session.events)))
        started = cpu_seconds(False)
        result = analysis.analyse(session)
        times.append(cpu_seconds(False) - started)
        exact.append(sum(1 for row in result.extra["margins"] if row["exact"]))
    row(f"`dicehall analyse` of a Towers game, both sides people ({games} games; the positions with at most "
        f"{EXACT_TOWERS} towers left to move solved exactly: {min(exact)} to {max(exact)} exact decisions a game), "
        "CPU time", f"{statistics.median(times):.1f} s median, {max(times):.1f} s worst", "within 10 s")


BIG_SAVE = """
import re, sys, time
from dicehall import saves
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
    from dicehall import saves
    from dicehall.engine.games.dicetower import PullBlock

    figures = {}
    for size in (0, mib << 20):
        home = tempfile.mkdtemp(prefix="dicehall-bench-")
        env = dict(os.environ, DICEHALL_HOME=home, PYTHONPATH=str(ROOT))
        os.environ["DICEHALL_HOME"] = home
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
    scratch_home()
    listed, opened, rss = figures[mib << 20]
    row(f"a hostile save: {mib} MiB of tiny valid records (undo/redo pairs), listed / opened, and peak memory "
        "against a one-pull save", f"{listed:.1f} s / {opened:.1f} s, {rss:.0f} MiB vs {figures[0][2]:.0f} MiB",
        "memory follows the game, not the file")



def crafted_caches() -> None:
    """The caches beside the saves crafted to cost (issue #31): a 32 MiB stats.dhi of empty arrays and
    a 15.5 MiB index.dhi of empty maps, under other saves' names and under the one save's name again
    and again; the time to count or list the one save through each, and the peak memory (tracemalloc)
    beyond the same work without a cache."""
    from dicehall import saves
    from dicehall.saves import results
    from dicehall.saves.stats import collect
    from tests.test_caches_hostile import EMPTY_ARRAYS, EMPTY_MAPS, a_save, crafted, peak_of

    scratch_home()
    saves.index.RACY_NS = results.RACY_NS = 0  # the save is trusted at once (here only)
    path = a_save()
    for what, name, work, entry, mib, was in (
            ("stats.dhi of empty arrays", results.RESULTS_NAME, collect, EMPTY_ARRAYS, 32, "35 s and 2.17 GB"),
            ("index.dhi of empty maps", saves.INDEX_NAME, saves.list_saves, EMPTY_MAPS, 15.5, "68 s and 1.27 GB")):
        base = peak_of(work)[1]  # no cache yet: the save read
        figures = []
        for names in (lambda n: f"{n:07d}.dhs", lambda n: path.name):
            data = crafted(int(mib * (1 << 20)), names, entry)
            (path.parent / name).write_bytes(data)
            started = time.perf_counter()
            work()
            took = time.perf_counter() - started
            (path.parent / name).write_bytes(data)
            figures.append(f"{ms(took)} ({took / (len(data) / (1 << 20)) * 1000:.0f} ms a MiB), "
                           f"{max(0, peak_of(work)[1] - base) / (1 << 20):.1f} MiB beyond the save's own")
        row(f"a crafted {mib:g} MiB {what} (issue #31: was {was}): under other saves' names / "
            "under the save's own name again and again", " / ".join(figures),
            "within a second a MiB; memory at most a few times its bytes")

def analysis_speed(games: int = 3) -> None:
    """`dicehall analyse` at its default budget: whole standard troll games (played by the adviser),
    a two-player wager and a Dice Tower from 100."""
    import random

    from dicehall import engine
    from dicehall.engine import analysis
    from dicehall.engine.bots import troll as adviser
    from dicehall.engine.bots import wager as wager_bots
    from dicehall.engine.core import Player
    from dicehall.engine.games.dicetower import PullBlock

    troll_times, turns = [], []
    for seed in range(1, games + 1):
        session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
        while session.outcome is None:
            session.play(adviser.choose(session.state))
        started = time.perf_counter()
        result = analysis.analyse(session)
        troll_times.append(time.perf_counter() - started)
        turns.append(len(result.decisions))
    wager_bots.tables()  # built once per process, measured in its own row
    session = engine.new_session("wager", seed=1, players=[Player("A"), Player("B")])
    rng = random.Random(1)
    while session.outcome is None:
        session.play(rng.choice(session.commands()))
    started = time.perf_counter()
    analysis.analyse(session)
    wager_time = time.perf_counter() - started
    tower = engine.new_session("dicetower", seed=1)
    while tower.outcome is None:
        tower.play(PullBlock(False))
    started = time.perf_counter()
    analysis.analyse(tower)
    tower_time = time.perf_counter() - started
    from dicehall.engine.bots import towers as towers_bot

    board = engine.new_session("towers", seed=1, players=[Player("A"), Player("B", True, "medium")])
    while board.outcome is None:
        board.play(towers_bot.choose(board.state, "easy" if board.to_act == 0 else "medium", seed=1,
                                     nonce=len(board.events)))
    started = time.perf_counter()
    analysis.analyse(board)
    towers_time = time.perf_counter() - started
    row(f"`dicehall analyse` at the default budget: a standard troll game ({min(turns)} to {max(turns)} turns) / "
        "a two-player wager / a Dice Tower / a Towers game (a person against the bot)",
        f"{statistics.median(troll_times):.1f} s median, {max(troll_times):.1f} s worst / {ms(wager_time)} / "
        f"{ms(tower_time)} / {towers_time:.1f} s", "troll within 30 s, others within 10 s")
    bones_analysis_speed()


def bones_analysis_speed(seeds: tuple[int, ...] = (1, 2, 3, 4, 5)) -> None:
    """`dicehall analyse` on War of Bones games at the default samples: a person (her moves the
    general's) against the general, as `sim bones` plays them (46 to 364 turns on these seeds)."""
    from dicehall import engine
    from dicehall.engine import analysis
    from dicehall.engine.bots import bones as general
    from dicehall.engine.core import Player

    times, turns = [], []
    for seed in seeds:
        session = engine.new_session("bones", seed=seed, players=[Player("A"), Player("B", True, "general")])
        while session.outcome is None:
            session.play(general.choose(session.state, "general", seed, len(session.events)))
        started = time.perf_counter()
        analysis.analyse(session)
        times.append(time.perf_counter() - started)
        turns.append(session.state.turn)
    row(f"`dicehall analyse` at the default budget: a War of Bones game, a person against the general "
        f"({min(turns)} to {max(turns)} turns, {len(seeds)} games)",
        f"{statistics.median(times):.1f} s median, {max(times):.1f} s worst", "within 10 s")


def troll_analysis(games: int = 3) -> None:
    """The troll's analysis at its default samples (every legal pair, raced and confirmed on paired
    samples, issue #22; 48 samples within 10 s wall on 2 cores, issue #33): whole standard games of a
    human-like player (the adviser's pair three turns in four, a random pair otherwise;
    tests/perf/troll_judge.py) and of the adviser. The machine is shared, so its wall says little:
    each task's CPU is measured on one core, in this process, and handed to two idle workers as the
    pool hands them out (`idle_wall`); the wall measured on two cores, with the load, is beside it."""
    sys.path.insert(0, str(ROOT / "tests" / "perf"))
    from troll_judge import human_like_game

    from dicehall.engine.analysis import troll as troll_analysis

    adviser_turns, uncount = count_calls(troll_analysis.adviser, "best_line")  # the playouts' turns (the adviser's)
    for who in ("a human-like player", "the adviser"):
        cpus, idle_walls, walls, turns, loads = [], [], [], [], []
        for seed in range(1, games + 1):
            session = adviser_troll_game(seed) if who == "the adviser" else human_like_game(seed)[0]
            jobs = troll_jobs(session)
            begun = time.process_time()
            idle_walls.append(idle_wall(troll_analysis._playouts, jobs, workers=2))
            cpus.append(time.process_time() - begun)
            turns.append(len(jobs))
            walls.append(timed(lambda: troll_analysis.analyse(session, cores=2))[0])
            loads.append(os.getloadavg()[0])
        row(f"troll analysis at the default ({troll_analysis.SAMPLES} fresh samples per confirmed pair, every legal "
            f"pair): whole standard games of {who} ({min(turns)} to {max(turns)} turns): CPU on one core / wall on an "
            f"idle 2-core machine (the tasks' CPU handed to 2 workers as the pool does) / wall measured on 2 cores "
            f"(load average {min(loads):.1f} to {max(loads):.1f})",
            f"{statistics.median(cpus):.1f} s median, {max(cpus):.1f} s worst / **{statistics.median(idle_walls):.1f} s** "
            f"median, **{max(idle_walls):.1f} s** worst ({statistics.median(c / 2 / w for c, w in zip(cpus, idle_walls)):.0%} "
            f"of two cores used) / {statistics.median(walls):.1f} s median, {max(walls):.1f} s worst",
            "within 10 s wall on 2 cores")
        row(f"troll analysis: its playouts' turns (the adviser's every legal pair to the turn's end, judged), games of {who}",
            f"{adviser_turns[0]:,} turns, {ms(sum(cpus) / adviser_turns[0])} of CPU each, the analysis's other work included")
        adviser_turns[0] = 0
    uncount()


def count_calls(module, name: str):
    """module.name wrapped to count its calls: (the count, in a list the caller may reset; what
    puts the function back)."""
    count, inner = [0], getattr(module, name)

    def counted(*args):
        count[0] += 1
        return inner(*args)

    setattr(module, name, counted)
    return count, lambda: setattr(module, name, inner)


def troll_jobs(session) -> list:
    """The troll analysis's jobs for the pool (engine/analysis/pool.py), one a turn, as `analyse` makes them."""
    from dicehall.engine.analysis import troll as troll_analysis

    return troll_analysis.turn_jobs(session, troll_analysis._turns(session), troll_analysis.SAMPLES)


def idle_wall(function, jobs: list, workers: int) -> float:
    """The wall `workers` idle cores would take for pool.staged(function, jobs): each task run here,
    its CPU measured, and handed out in the pool's order (a free worker takes the earliest job's
    next task, a job's next step once its step's tasks are all done)."""
    import heapq
    import itertools

    from dicehall.engine.analysis import pool

    todo = [pool._Job(job) for job in jobs]
    free = [0.0] * workers  # when each worker is next free
    running: list = []  # (when it ends, the order it was given out, its job, its index, its result)
    order = itertools.count()
    now = 0.0
    while running or not all(job.finished for job in todo):
        for worker in range(workers):
            chosen = pool._next_tasks(todo, 1) if free[worker] <= now else []
            for job, index in chosen:
                begun = time.process_time()
                result = function(job.tasks[index])
                free[worker] = now + time.process_time() - begun
                heapq.heappush(running, (free[worker], next(order), job, index, result))
        if running:
            now, _, job, index, result = heapq.heappop(running)
            job.results[index] = result
            if len(job.results) == len(job.tasks):
                job.advance()
    return now


def adviser_troll_game(seed: int):
    from dicehall import engine
    from dicehall.engine.bots import troll as adviser

    session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
    while session.outcome is None:
        session.play(adviser.choose(session.state))
    return session


def cpu_seconds(children: bool = True) -> float:
    """This process's CPU seconds, and those of the children it waited for (forked pool workers are;
    the forkserver's are not its children)."""
    import resource

    used = [resource.getrusage(resource.RUSAGE_SELF)] + ([resource.getrusage(resource.RUSAGE_CHILDREN)] if children else [])
    return sum(usage.ru_utime + usage.ru_stime for usage in used)


def timed(work, children: bool = True) -> tuple[float, float]:
    """Wall and CPU seconds of `work()`."""
    wall, before = time.perf_counter(), cpu_seconds(children)
    work()
    return time.perf_counter() - wall, cpu_seconds(children) - before


def troll_cores(seed: int = 1, rounds: int = 3, samples: int | None = None) -> None:
    """The troll analysis on one core against both (engine/analysis/pool.py), alternating which goes
    first, the same figures asserted; then `dicehall analyse` (analyse_stored, as the command line
    runs it) against the viewer's `a` on the same game, each from an empty store. Medians of `rounds`;
    the machine is shared, so the wall ratio is given beside each side's CPU (one core's CPU is what
    an idle core would take: its wall over its CPU says how busy the machine was)."""
    from dicehall.engine import analysis
    from dicehall.engine.analysis import troll as troll_analysis

    session = adviser_troll_game(seed)
    figures: dict[str, list[tuple[float, float]]] = {"one core": [], "two cores": []}
    results = {}
    for round_number in range(rounds):
        order = [("one core", 1), ("two cores", 2)]
        for name, cores in order if round_number % 2 == 0 else reversed(order):
            box = {}
            figures[name].append(timed(lambda: box.update(r=troll_analysis.analyse(session, samples, cores=cores))))
            results[name] = analysis.as_json(box["r"])
    assert results["one core"] == results["two cores"], "two cores gave other figures"
    one, two = (statistics.median(w for w, _ in figures[k]) for k in ("one core", "two cores"))
    one_cpu, two_cpu = (statistics.median(c for _, c in figures[k]) for k in ("one core", "two cores"))
    row(f"troll analysis of a standard game ({len(session.marks)} actions), one core against two: wall (CPU, "
        f"the forked workers' included)", f"{one:.1f} s ({one_cpu:.1f} s) vs {two:.1f} s ({two_cpu:.1f} s), "
        f"**{one / two:.2f}x** faster", "near 2x on an idle machine, CPU alike")
    viewer_against_command_line(session, rounds, samples)


def viewer_against_command_line(session, rounds: int, samples: int | None) -> None:
    """The same analysis from `dicehall analyse` and from the viewer's `a` (its worker thread, the
    panel redrawn as each turn comes), each from an empty store of analyses."""
    from dicehall.saves.analyses import analyse_stored
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.screens.viewer import ViewerScreen

    ViewerScreen.ANALYSIS_SAMPLES = samples

    def command_line() -> None:
        scratch_home()
        analyse_stored(session, samples=samples)

    async def viewer(timings: list) -> None:
        app = DicehallApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(ViewerScreen(session, position=0))
            await pilot.pause()
            scratch_home()

            wall, before = time.perf_counter(), cpu_seconds(False)  # from the key: the app's start is not the analysis's
            await pilot.press("a")
            while app.screen.analysis_running:  # a plain sleep: Pilot.pause asks every widget each time,
                await asyncio.sleep(0.05)  # CPU of the harness's, not the viewer's (a player's has none)
            timings.append((time.perf_counter() - wall, cpu_seconds(False) - before))
            assert app.screen.analysis is not None, "the viewer's analysis failed"

    figures: dict[str, list[tuple[float, float]]] = {"command line": [], "viewer": []}
    for round_number in range(rounds):
        order = [("command line", lambda: figures["command line"].append(timed(command_line, children=False))),
                 ("viewer", lambda: asyncio.run(viewer(figures["viewer"])))]
        for _, work in order if round_number % 2 == 0 else reversed(order):
            work()
    cli, view = (statistics.median(w for w, _ in figures[k]) for k in ("command line", "viewer"))
    cli_cpu, view_cpu = (statistics.median(c for _, c in figures[k]) for k in ("command line", "viewer"))
    row("troll analysis from `dicehall analyse` against the viewer's `a` (the same game, every core): wall "
        "(CPU of this process, the workers' not counted)",
        f"{cli:.1f} s ({cli_cpu:.1f} s) vs {view:.1f} s ({view_cpu:.1f} s), **{view / cli:.2f}x**", "<= 1.1x")


POOL_START = """
import json, sys, threading, time
from dicehall.cli import main  # the installed `dicehall` script's top level, which a forkserver worker runs again
from dicehall.engine.analysis import pool


def square(n):
    return n * n


def started(times):
    begun = time.perf_counter()
    pool.in_order(square, [1, 2, 3, 4], cores=2)
    times.append(time.perf_counter() - begun)


def in_a_thread(times):
    thread = threading.Thread(target=started, args=(times,))
    thread.start()
    thread.join()


if __name__ == "__main__":
    threading.Thread(target=pool.warm).start()  # as the viewer does when it opens
    in_a_thread([])  # the server's first start and preload: the viewer's warm() takes it off the key
    fork, forkserver = [], []
    for _ in range(int(sys.argv[1])):
        started(fork)  # one thread: the command line's forked workers
        in_a_thread(forkserver)  # the viewer's worker thread: the forkserver's workers
    print(json.dumps([fork, forkserver]))
"""


def pool_start(rounds: int = 15) -> None:
    """What the pool costs to start and end around an analysis (four trivial tasks on two workers):
    from the viewer's worker thread (the forkserver's workers, each running the `dicehall` script's
    top level again) against from the command line's one thread (forked workers), alternating, in a
    process whose main module imports as the installed script does."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "dicehall_like.py"
        script.write_text(POOL_START)
        out = subprocess.run([sys.executable, str(script), str(rounds)], check=True, capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    fork, forkserver = (statistics.median(times) for times in json.loads(out.splitlines()[-1]))
    row(f"the troll analysis's pool started and ended (4 trivial tasks, 2 workers), from the viewer's thread "
        f"(forkserver) against from the command line (fork), median of {rounds} (load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", f"{ms(forkserver)} vs {ms(fork)}, "
        f"**{ms(forkserver - fork)}** more", "a small part of the analysis (a whole game takes 10 s or more)")


def judged_others_speed(seeds: tuple[int, ...] = (2, 4, 6)) -> None:
    """`dicehall analyse` as issue #22 judges them: a Towers game of two persons (both sides' every
    move, each against every legal move), medium against medium; and the time to the first decision
    shown (partial results), of that and of a War of Bones game (every legal choice a candidate)."""
    from dicehall import engine
    from dicehall.engine import analysis
    from dicehall.engine.bots import bones as general
    from dicehall.engine.bots import towers as towers_bot
    from dicehall.engine.core import Player

    times, cpus, firsts, counts = [], [], [], []  # wall clock, and this process's CPU (the machine is shared)
    for seed in seeds:
        board = engine.new_session("towers", seed=seed, players=[Player("A"), Player("B")])
        while board.outcome is None:
            board.play(towers_bot.choose(board.state, "medium", seed=seed, nonce=len(board.events)))
        shown = []
        started, cpu = time.perf_counter(), time.process_time()
        result = analysis.analyse(board, partial=lambda _: shown.append(time.perf_counter()) if not shown else None)
        times.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        firsts.append(shown[0] - started)
        counts.append(len(result.decisions))
    row(f"`dicehall analyse` a Towers game of two persons, every move against every legal move "
        f"({min(counts)} to {max(counts)} decisions, {len(seeds)} games): whole / first decision shown",
        f"{statistics.median(times):.1f} s median, {max(times):.1f} s worst (CPU {statistics.median(cpus):.1f} s, "
        f"{max(cpus):.1f} s) / {ms(max(firsts))} worst",
        "within 10 s, partial results live")
    session = engine.new_session("bones", seed=1, players=[Player("A"), Player("B", True, "general")])
    while session.outcome is None:
        session.play(general.choose(session.state, "general", 1, len(session.events)))
    shown = []
    started, cpu = time.perf_counter(), time.process_time()
    analysis.analyse(session, partial=lambda _: shown.append(time.perf_counter()) if not shown else None)
    row("`dicehall analyse` a War of Bones game (seed 1, 46 turns): first decision shown / whole",
        f"{ms(shown[0] - started)} / {time.perf_counter() - started:.1f} s (CPU {time.process_time() - cpu:.1f} s)",
        "within 10 s, partial results live")


def troll_search_turn(games: int = 3) -> None:
    """The deeper player's time per turn (`H`, `sim troll --bot search`): both decisions of a turn,
    on standard deals played by it."""
    from dicehall import engine
    from dicehall.engine.bots import troll_search

    times = []
    for seed in range(games):
        session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
        while session.outcome is None:
            turn, spent = session.state.turn, 0.0
            while session.outcome is None and session.state.turn == turn:
                started = time.perf_counter()
                command = troll_search.choose(session.state, seed)
                spent += time.perf_counter() - started
                session.play(command)
            times.append(spent)
    times.sort()
    row("troll deeper player (search), time per turn (both decisions)",
        f"{ms(statistics.median(times))} median, {ms(times[int(len(times) * 0.9)])} at the 90th percentile, "
        f"{ms(times[-1])} worst", "at most 2 s")


def hindsight_solver(games: int = 50) -> None:
    """`dicehall analyse --hindsight` at its default budget: standard deals from the start, and whole
    standard games played by the adviser (searched from their last decision backwards)."""
    from dicehall import engine
    from dicehall.engine.analysis import troll_solver
    from dicehall.engine.bots import troll as adviser

    figures = {}
    for kind in ("deal", "played"):
        times, answered, positions = [], 0, []
        for seed in range(1, games + 1):
            session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
            while kind == "played" and session.outcome is None:
                session.play(adviser.choose(session.state))
            started = time.perf_counter()
            solution = troll_solver.solve(session)
            times.append(time.perf_counter() - started)
            answered += solution.winnable is not None and not solution.undecided
            positions.append(solution.searched)
        figures[kind] = (answered, statistics.median(times), max(times), max(positions))
    budget = int(troll_solver.DEFAULT_BUDGET * troll_solver.NODES_PER_SECOND)
    row(f"`analyse --hindsight` at the default budget ({troll_solver.DEFAULT_BUDGET:g} s, {budget:,} positions): "
        f"{games} standard deals from the start / {games} standard games played by the adviser",
        " / ".join(f"{a} of {games} answered, {ms(median)} median, {ms(worst)} worst ({most:,} positions)"
                   for a, median, worst, most in figures.values()),
        "answers within the budget")



def winnable_deals(games: int = 50) -> None:
    """`--option winnable=true`: choosing the deal (seeds tried in order, each searched by the
    solver up to its bound) beside dealing the same difficulty's plain deal, seed by seed alternating."""
    from dicehall import engine
    from dicehall.engine.analysis import winnable

    for difficulty in ("standard", "sturdy"):
        chosen, plain, tried, positions = [], [], [], []
        for seed in range(1, games + 1):
            start = 1_000_003 * seed  # spread out: neighbouring seeds can share a chosen deal
            started = time.perf_counter()
            engine.new_session("troll", seed=start, options={"difficulty": difficulty})
            plain.append(time.perf_counter() - started)
            started = time.perf_counter()
            deal = winnable.choose("troll", start, {"difficulty": difficulty})
            chosen.append(time.perf_counter() - started)
            tried.append(deal.tried)
            positions.append(deal.searched)
        median, base = statistics.median(chosen), statistics.median(plain)
        row(f"a winnable {difficulty} deal (`--option winnable=true`, at most {winnable.MAX_SEEDS} seeds of "
            f"{winnable.SEED_BUDGET:,} positions), {games} seeds, against dealing the plain deal",
            f"{ms(median)} median, {ms(max(chosen))} worst ({max(positions):,} positions; "
            f"{sum(t > 1 for t in tried)} of {games} needed a second seed, at most {max(tried)}) vs {ms(base)}, "
            f"**{median / base:.0f}x** at the median",
            "within a second at the median, bounded worst")
    winnable.forget()  # searched now, not remembered from a deal above
    started = time.perf_counter()  # the bound: standard seed 98 is not proved within its budget
    unproved = winnable.prove("troll", 98, {})
    row("a winnable deal's bound: one standard seed searched to its whole budget without a proof (seed 98), "
        f"so at most {winnable.MAX_SEEDS} times this", f"{ms(time.perf_counter() - started)} "
        f"({unproved.searched:,} positions)", "bounded: a clear line after the last seed")

HALL_WATCHER = r"""
import asyncio, sys, time
sys.path.insert(0, sys.argv[4])
from dicehall.saves.hall import Hall
mode, folder, game_id = sys.argv[1:4]
game = Hall(folder).watch(game_id)
if mode == "read":  # a watcher reading each move (HallGame.wait, then follow)
    seen = len(game.session.events)
    print("ready", flush=True)
    while not game.finished:
        if game.wait(5.0):
            game.follow()
            if len(game.session.events) != seen:
                seen = len(game.session.events)
                print(time.time(), seen, flush=True)
    sys.exit(0)
from dicehall.tui.app import DicehallApp  # a watcher's screen: the live viewer, timed at the frame that shows the move
from dicehall.tui.screens.hall.watch import HallViewer
shown = [0]
class TimedApp(DicehallApp):
    def _display(self, screen, renderable):
        super()._display(screen, renderable)
        if renderable is not None and isinstance(screen, HallViewer) and screen.position != shown[0]:
            shown[0] = screen.position
            print(time.time(), shown[0], flush=True)
async def main():
    app = TimedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_hall_viewer(game)
        await pilot.pause()
        print("ready", flush=True)
        while not game.finished:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
asyncio.run(main())
"""


def hall_latency(moves: int = 50) -> None:
    """From one process making a move in a hall game (HallGame.play: the decision, its durable append)
    to a watcher process having read it, and to the watcher's live viewer showing it in a frame;
    against the same kind of move made in one process on a save and drawn there (its replay viewer,
    live, moved to the new end). Samples of the two alternate, move by move."""
    from dicehall import saves
    from dicehall.engine.core import Player
    from dicehall.saves.hall import Hall
    from dicehall.tui.app import DicehallApp
    from dicehall.tui.screens.viewer import ViewerScreen

    folder = tempfile.mkdtemp(prefix="dicehall-bench-hall-")
    hall = Hall(folder)

    def choose(session):
        return session.commands()[-1]  # roll, else end the turn, as tests/hallhelpers.step does

    class TimedApp(DicehallApp):
        frames: list[float] = []

        def _display(self, screen, renderable) -> None:
            super()._display(screen, renderable)
            if renderable is not None:
                self.frames.append(time.time())

    async def measure(mode: str) -> tuple[list[float], list[float]]:
        hall_times, local_times = [], []
        app = TimedApp()
        async with app.run_test(size=(80, 24)) as pilot:
            local = None
            game = watcher = None
            while len(hall_times) < moves:
                if game is None or game.finished:
                    if watcher is not None:
                        watcher.kill()
                        await watcher.wait()
                    game = hall.host("wager", ["player", "bot:bold"], "Ann")
                    watcher = await asyncio.create_subprocess_exec(
                        sys.executable, "-c", HALL_WATCHER, mode, folder, game.id, str(ROOT),
                        stdout=asyncio.subprocess.PIPE)
                    assert (await watcher.stdout.readline()).strip() == b"ready"
                if local is None or local.outcome is not None:
                    local = saves.new_save("wager", name="bench", players=[Player("Ann"), Player("Bot", True, "bold")])
                    app.push_screen(ViewerScreen(local, live=True))
                    await pilot.pause()
                # the hall: a move here, read (or drawn) in the watcher's process
                started = time.time()
                game.play(choose(game.session))
                total = len(game.session.events)
                while True:
                    line = (await asyncio.wait_for(watcher.stdout.readline(), 10)).split()
                    if int(line[1]) >= total:
                        break
                hall_times.append(float(line[0]) - started)
                # one process: the same kind of move on a save, known at once (read) or drawn
                viewer = app.screen
                app.frames.clear()
                started = time.time()
                local.play(choose(local))
                if mode == "read":
                    local_times.append(time.time() - started)
                else:
                    viewer.go(len(local.events))
                    while not [t for t in app.frames if t > started]:
                        await asyncio.sleep(0.0005)
                    local_times.append(min(t for t in app.frames if t > started) - started)
            watcher.kill()
            await watcher.wait()
            game.close()
        return hall_times, local_times

    def quantiles(values: list[float]) -> tuple[float, float]:
        return statistics.median(values), statistics.quantiles(values, n=10)[-1]

    for mode, words in (("read", "read by a watcher process"), ("drawn", "drawn by a watcher's live viewer")):
        hall_times, local_times = asyncio.run(measure(mode))
        (hm, h90), (lm, l90) = quantiles(hall_times), quantiles(local_times)
        local_words = "made" if mode == "read" else "made and drawn"
        row(f"hall: a move {words}, against one {local_words} in one process (median / 90th percentile)",
            f"{ms(hm)} / {ms(h90)} vs {ms(lm)} / {ms(l90)}, **{hm / lm:.1f}x** at the median",
            "within a second" if mode == "read" else "within a second on the watcher's screen")


def hall_listing(games: int = 50, plays: int = 30, rounds: int = 7) -> None:
    """The lobby's look at the hall (Hall.listing, every second): 50 games of 30 decisions each,
    listed by a fresh Hall (every log read and folded) and again by the same Hall with nothing
    changed (each log's fold kept: only the seats' locks and the watchers are looked at), and
    after one game has moved (that log read from where it stopped). Fastest of `rounds` each,
    the fresh and the kept listing alternating."""
    from dicehall.saves.hall import Hall

    folder = tempfile.mkdtemp(prefix="dicehall-bench-listing-")
    hall = Hall(folder)
    played = []
    rng = random.Random(5)
    for _ in range(games):
        game = hall.host("towers", ["player", "bot"], "Ann")
        for _ in range(plays):
            game.play(rng.choice(game.session.commands()))  # a Towers game lasts longer than this
        played.append(game)
    kept = Hall(folder)
    kept.listing()
    fresh_times, kept_times, moved_times = [], [], []
    for round_number in range(rounds):
        for which in (("fresh", "kept") if round_number % 2 == 0 else ("kept", "fresh")):
            started = time.perf_counter()
            (Hall(folder) if which == "fresh" else kept).listing()
            (fresh_times if which == "fresh" else kept_times).append(time.perf_counter() - started)
        mover = next(game for game in played if not game.finished)
        mover.play(rng.choice(mover.session.commands()))
        started = time.perf_counter()
        kept.listing()
        moved_times.append(time.perf_counter() - started)
    for game in played:
        game.close()
    fresh, again, moved = min(fresh_times), min(kept_times), min(moved_times)
    row(f"hall: listing {games} games of {plays} decisions, from scratch / again with nothing changed / "
        "after one game moved", f"{ms(fresh)} / {ms(again)} / {ms(moved)}, **{fresh / again:.0f}x** less again",
        "a second listing costs almost nothing")


def hall_archive_listing() -> None:
    """The archive of 10,000 finished hall games, listed through its index (tests/perf/bench_archive.py)."""
    from tests.perf.bench_archive import archive_listing

    row(*archive_listing(ms))


def hall_lobby_looks() -> None:
    """The Hall screen's look over 1,000 finished games against over 10 (tests/perf/bench_lobby.py)."""
    from tests.perf.bench_lobby import lobby_looks

    row(*lobby_looks(ms))


def text_records(rounds: int = 3) -> None:
    """Export and import of a text record (.dht) against a binary replay (.dhr) of the same game, at
    each length, alternating (the best of `rounds` each): write_text then read_text, replay_document
    packed then read back."""
    import msgpack

    from dicehall import replays
    from dicehall.replays.text import read_text, write_text

    out: dict[str, dict[int, float]] = {"export": {}, "import": {}, "bexport": {}, "bimport": {}}
    for n in SIZES:
        session = long_tower(n)
        best = {key: float("inf") for key in out}
        for _ in range(rounds):
            started = time.perf_counter()
            text = write_text(session)
            best["export"] = min(best["export"], time.perf_counter() - started)
            started = time.perf_counter()
            data = msgpack.packb(replays.replay_document(session), use_bin_type=True)
            best["bexport"] = min(best["bexport"], time.perf_counter() - started)
            started = time.perf_counter()
            read_text(text, "bench")
            best["import"] = min(best["import"], time.perf_counter() - started)
            started = time.perf_counter()
            replays.session_from_document(replays.unpack(data))
            best["bimport"] = min(best["bimport"], time.perf_counter() - started)
        for key in out:
            out[key][n] = best[key]
    at = SIZES[1]
    row("text record export (write_text)", growth(out["export"]) +
        f"; {out['export'][at] / out['bexport'][at]:.1f}x a binary replay's at 10k", "10,000 events within 1 s")
    row("text record import (read_text, every line re-derived)", growth(out["import"]) +
        f"; {out['import'][at] / out['bimport'][at]:.1f}x a binary replay's at 10k", "10,000 events within 1 s")


def journal_sim(games: int = 10_000) -> None:
    """`sim journal --deck sample --games 10000` as a command (start-up included, wall time), and the
    journal's playouts against whole games through the engine's session, side by side."""
    import random as random_module

    from dicehall import engine
    from dicehall.engine.games import journal

    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dicehall", "sim", "journal", "--deck", "sample", "--games", str(games)],
                   check=True, capture_output=True, cwd=ROOT)
    row(f"`dicehall sim journal --deck sample --games {games:,}` (the command, start-up included, wall time)",
        ms(time.perf_counter() - started), "within 10 s")
    options = journal.check_options({})
    state = journal.initial_state(options, ())

    def through_session(seed: int) -> None:
        session = engine.Session(journal, seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])

    def playout(seed: int) -> None:
        journal.playout(state, random_module.Random(seed))

    ours, base = side_by_side(playout, through_session, list(range(40)), per_run=10, rounds=3)
    row("a journal game by the sim's playout against the same game through the engine's session",
        f"{ours:,.0f} vs {base:,.0f} games/s CPU, **{ours / base:.0f}x**", "the sim needs >= 1,000 games/s")


WORST_DECK = """
import resource, sys, time
from dicehall.engine.games.journal import DeckError, load_deck
started = time.process_time()
try:
    load_deck(sys.argv[1])
except DeckError:
    pass
print(time.process_time() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def worst_decks(size: int = 256 * 1024) -> dict[str, str]:
    """Deck files of `size` bytes that push each check to its cap (issue #30): the text of each."""
    one_array = "x = " + "[" * 7 + ",".join(["[1]"] * (size // 4)) + "]" * 7
    return {
        "the sample deck": "",
        "nesting 8 deep, one array": one_array[: size - 16] + "]" * 8,
        "2,000 keys, long strings": "".join(f'k{n} = "{"x" * (size // 2000 - 16)}"\n' for n in range(2000)),
        "2,000 dotted keys, 4 dots": "".join(f"a{n}.b.c.d.e = 1\n" for n in range(2000)).ljust(size, "#"),
        "one CSV row of commas": "card,suite,action,description\n" + "," * (size - 40),
        "one CSV field": "card,suite,action,description\nA,hearts,,\"" + "x" * (size - 40) + "\"",
        "nested 1,000 deep": "x = " + "[" * 1000 + "]" * 1000,
        "blank lines": "\n" * (size - 1),
        "a line of tabs and a key": "\t" * (size - 8) + "a.b = 1",
        "2,000 card headers": "[[card]]\n" * 2000 + "#" * (size - 18000),
        "20,000 table headers of five names": "".join(f"[{string.ascii_letters[n // 52 % 52]}{string.ascii_letters[n % 52]}"
                                                      ".a.b.c.d]\n" for n in range(size // 11))[:size],
        "game file: 52 cards of long stories": game_file_of_stories(size),
        "game file: a heading of spaces": "---\ntitle: x\n---\n## Card Deck\n### " + " " * (size - 40) + "x\n",
        "game file: empty comments": "---\ntitle: x\n---\n" + "<!---->" * ((size - 20) // 7),
    }


def game_file_of_stories(size: int) -> str:
    """dc-solo-rpg's game file at the cap: all 52 cards, each with a story of about size/52 bytes."""
    story = "word " * (size // 52 // 5 - 20)
    kinds = ["Primary Success"] + ["Failure Counter"] * 4 + ["Narrative"] * 3 + ["Challenge"] * 16 + ["Event"] * 28
    return "---\ntitle: x\n---\n## Card Deck\n" + "".join(f"### {kind}\n**A card**\n{story}\n---\n" for kind in kinds)


def deck_reading() -> None:
    """The worst 256 KiB deck read (each in its own process): CPU and peak memory, beside the sample's."""
    from dicehall.engine.games.journal import sample_path

    folder = Path(tempfile.mkdtemp(prefix="dicehall-bench-"))
    figures = {}
    for number, (what, text) in enumerate(worst_decks().items()):
        suffix = "game.md" if "game file" in what else "csv" if "CSV" in what else "toml"
        path = sample_path() if not text else folder / f"deck{number}.{suffix}"
        if text:
            path.write_text(text)
        out = subprocess.run([sys.executable, "-c", WORST_DECK, str(path)], check=True, cwd=ROOT,
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
        figures[what] = [float(x) for x in out.split()]
    worst = max((name for name in figures if name != "the sample deck"), key=lambda name: figures[name][0])
    heaviest = max(figures, key=lambda name: figures[name][1])
    row("the worst 256 KiB deck read (each hostile shape at its cap, own process): CPU and peak memory, "
        "against the sample deck", f"{ms(figures[worst][0])} ({worst}), {figures[heaviest][1]:.0f} MiB ({heaviest}) "
        f"vs {ms(figures['the sample deck'][0])}, {figures['the sample deck'][1]:.0f} MiB",
        "within 1 s and 100 MB")


def edge_decks() -> dict[str, str]:
    """Valid decks at the edges of the settings (engine/games/journal/deck.py SETTINGS), as TOML: the
    tallest tower, reshuffled decks that only the tower (or twenty tokens) can end, the actions
    that keep such a game to one card at a time (pull and remove, skips), the shapes that took
    hours before the reshuffles' bound (#30): Kings returned to a deck of too few, tokens added, and
    skips after salvation that outnumber the pulls; and the slowest we know since each reshuffled
    pass plays at once: tokens taken about as often as added (its passes walked card by card while
    the tokens could run out), Kings that pull returned; and since the first pass plays at once
    where the Kings cannot end the game, the adversary's: Kings that pull returned with skip cards
    (their order counts: every card drawn one by one)."""
    cards = [rank + suit for suit in "HDCS" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")]

    def listed(title: str, action, settings: str = "", tower: int = 10000) -> str:
        text = f'[game]\ntitle = "{title}"\ndeck = "listed"\ntower_start = {tower}\ndeck_out = "reshuffle"\n{settings}'
        return text + "".join(f'\n[[card]]\ncard = "{card}"\naction = "{action(card)}"\n' for card in cards if action(card))

    def first(*kinds: tuple[str, int]):  # the Ace salvation, then so many of each action, the rest of no effect
        actions = ["salvation"] + [action for action, count in kinds for _ in range(count)]
        return lambda card: actions[cards.index(card)] if cards.index(card) < len(actions) else "no-pull"

    def kings(action: str) -> str:
        return "".join(f'\n[[card]]\ncard = "{king}"\naction = "{action}"\n' for king in ("KS", "KH", "KD"))

    def odd(kind: str):
        return lambda card: kind if card[0] in "3579" else "salvation" if card == "AH" else "no-pull"

    return {
        "tower 10,000, full deck": '[game]\ntitle = "Tall"\ntower_start = 10000\n',
        "tower 10,000, full deck, reshuffled": '[game]\ntitle = "Tall"\ntower_start = 10000\ndeck_out = "reshuffle"\n',
        "tower 10,000, every card a pull, reshuffled": listed("Pulls", lambda card: "pull" if card == "3S" else ""),
        "tower 10,000, one pull in 47 cards, reshuffled": listed("One", lambda card: "" if card == "AH" else "pull" if card == "3S" else "no-pull"),
        "tower 10,000, 20 tokens, reshuffled": listed("Tokens", odd("pull"), "tokens = 20\n"),
        "tower 10,000, pull and remove, reshuffled": listed("Removes", lambda card: "" if card == "AH" else odd("remove")(card)),
        "tower 10,000, pulls and skips, reshuffled": listed("Skips", lambda card: "" if card == "AH" else "skip-pull" if card[0] == "9" else odd("pull")(card)),
        "2 Kings of 4 returned (9 cards), 19 tokens added (the Ace's too), reshuffled":
            listed("Kings", lambda card: "add-token" if cards.index(card) < 19 else "return-king" if cards.index(card) < 28
                   else "") + "".join(f'\n[[card]]\ncard = "{king}"\naction = "king"\n' for king in ("KS", "KH")),
        "salvation, 3 pulls, 8 skips, 18 tokens added, reshuffled":
            listed("Saved", lambda card: "salvation" if card == "AH" else "pull" if cards.index(card) < 4 else "skip-pull"
                   if cards.index(card) < 12 else "add-token" if cards.index(card) < 30 else ""),
        "salvation, 1 pull, 22 tokens added, 22 taken, 20 tokens, tower 300, reshuffled":
            listed("Level", first(("pull", 1), ("add-token", 22), ("remove-token", 22)), "tokens = 20\n", 300),
        "salvation, 3 Kings of 4 returned by 40 cards, 3 pulls, tower 300, reshuffled":
            listed("Returned", first(("pull", 3), ("return-king", 40)), "", 300) + kings("king"),
        "salvation, 3 Kings of 4 that pull, returned by 40 cards, 3 pulls, reshuffled":
            listed("Pulling", first(("pull", 3), ("return-king", 40))) + kings("pull"),
        "salvation, 3 Kings of 4 that pull, returned by 40 cards, 3 pulls, a remove, reshuffled":
            listed("Mixed", first(("pull", 3), ("remove", 1), ("return-king", 40))) + kings("pull"),
        "salvation, 3 Kings of 4 that pull, returned by 40 cards, 3 pulls, 3 skips, reshuffled (the worst we reasoned of)":
            listed("Skipped", first(("pull", 3), ("skip-pull", 3), ("return-king", 40))) + kings("pull"),
        # a search's slowest (tests/perf/journal_judge.py --slowest 300): no salvation (the Ace returns a King),
        # Kings that pull and one that does not returned, pulls and removes mixed, a skip: every card one by one
        "tower 300, 2 Kings that pull and 1 not, returned by 13 cards, 6 pulls, 6 removes, a skip, reshuffled (a search's slowest)":
            '[game]\ntitle = "Searched"\ndeck = "listed"\ntokens = 19\ntower_start = 300\nfinal_check = "pull"\n'
            'deck_out = "reshuffle"\n' + "".join(f'\n[[card]]\ncard = "{card}"\naction = "{action}"\n' for action, named in (
                ("return-king", "AH 4H 9H 2D 4D 9D 3C QC AS 2S 5S JS QS"), ("pull", "3H KH KD AC 8C 10C 7S 9S"),
                ("remove", "JH QD 2C 5C 9C 3S"), ("skip-pull", "5H"), ("add-token", "6H 5D 6D 8D 8S"), ("no-pull", "7H"),
                ("salvation-5", "QH JD JC"), ("remove-token", "7C 4S"), ("king", "KS")) for card in named.split()),
        # where Kings that pull are returned by nearly every card: a pass at once draws its Kings first (its
        # tower rolls only their pulls), but the Ace of Hearts that returns one walks the first pass
        "tower 300, 3 Kings that pull returned by 48 cards, the Ace of Hearts among them, reshuffled":
            listed("Returns", lambda card: "return-king", "", 300) + kings("pull"),
        # the adversary's, by hand: Kings that do three things, returned by nearly every card, a skip, no Ace
        # of Hearts: every card walked, some 235 a game (the sample deck's: about 60)
        "tower 1,500, 3 Kings (a pull, a pull and remove, nothing) returned by 46 cards, a skip, no Ace of Hearts, reshuffled":
            '[game]\ntitle = "Walked"\ndeck = "listed"\ntower_start = 1500\ndeck_out = "reshuffle"\n' + "".join(
                f'\n[[card]]\ncard = "{card}"\naction = "{action}"\n' for card, action in
                [(card, "skip-pull" if card == "2C" else "return-king") for card in cards if card != "AH"]
                + [("KS", "pull"), ("KH", "remove"), ("KD", "king")]),
    }


PYCACHE = Path(tempfile.gettempdir()) / "dicehall-bench-pycache"


def command_cpu(deck: str, games: int) -> float:
    """`dicehall sim journal --deck DECK --games N` in its own process: its CPU seconds, start-up included,
    the bytecode cached as an installed dicehall's is (pip compiles it; PYTHONDONTWRITEBYTECODE in the
    environment would otherwise compile every module at each start, 0.15 s)."""
    import resource

    command = [sys.executable, "-m", "dicehall", "sim", "journal", "--deck", deck, "--games", str(games)]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    subprocess.run(command[:-1] + ["1"], check=True, capture_output=True, cwd=ROOT, env=env)  # the cache written
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def journal_sim_cpu(games: int = 10_000) -> None:
    """`sim journal` of 10,000 games as a command: its CPU time, with the sample deck and a dc-solo-rpg
    deck, then a row for each deck at the edges of the settings (a deck slower than 10 s for a tenth
    of the games is measured on that tenth and scaled: marked "est."). Each the best of three: this
    machine's speed drifts by a third within minutes, and load only ever adds CPU time."""
    def best(deck: str) -> float:
        return min(command_cpu(deck, games) for _ in range(3))

    figures = [best(deck) for deck in ("sample", str(ROOT / "tests" / "fixtures" / "dc-solo-rpg-game.csv"))]
    row(f"`dicehall sim journal --games {games:,}` CPU time (start-up included, bytecode cached): the sample deck / "
        "a dc-solo-rpg deck",
        f"{ms(figures[0])} / {ms(figures[1])}", "within 1 s of CPU")
    with tempfile.TemporaryDirectory() as folder:
        for number, (what, text) in enumerate(edge_decks().items()):
            path = Path(folder) / f"edge{number}.toml"
            path.write_text(text)
            trial = command_cpu(str(path), games // 10)
            figure = f"{ms(trial * 10)} est." if trial > 10 else ms(best(str(path)))
            row(f"`dicehall sim journal --games {games:,}` CPU time: {what}", figure, "within 1 s of CPU")


def journal_card_floor(games: int = 2000) -> None:
    """Why the decks that walk every card miss 1 s: the playout's CPU a card drawn on them, against the
    draw alone (a card popped at random from a pass of the same size, as the card loop draws: no rule),
    side by side, each the best of three."""
    from math import floor

    from dicehall.engine.games import journal
    from dicehall.engine.games.journal import odds
    from dicehall.engine.games.journal.deck import parse_toml

    decks = edge_decks()
    for what in list(decks)[-3:]:
        deck = parse_toml(decks[what], "bench")
        state = journal.initial_state(journal.check_options({"deck": deck.record()}), ())
        rng = random.Random(1)
        odds.playout(state, rng)  # its tables made
        played, drawn = [], 0
        for _ in range(3):
            start = time.process_time()
            drawn = sum(odds.playout(state, rng).cards for _ in range(games))
            played.append(time.process_time() - start)
        bare = []
        for _ in range(3):
            uniform, size, left = rng.random, len(deck.cards), drawn
            start = time.process_time()
            while left > 0:
                remaining = list(range(size))
                while remaining:
                    remaining.pop(floor(uniform() * len(remaining)))
                left -= size
            bare.append(time.process_time() - start)
        card, floor_card = min(played) / drawn, min(bare) / drawn
        row(f"`sim journal`'s playout, {what}: CPU a card drawn ({drawn / games:.0f} a game) / the draw alone",
            f"{card * 1e9:.0f} ns / {floor_card * 1e9:.0f} ns ({card / floor_card:.1f}x)",
            "10,000 games in 1 s: (1 s - start-up) / 10,000 / cards a game")


SECTIONS = {
    "frame": first_frame, "sim": sim_dicetower, "troll": troll_playouts, "branch": branch_middle,
    "tower": tower_screen_keys, "saves": saves_list, "len": events_length, "memory": memory_and_stepping,
    "append": durable_append, "viewer": viewer_steps, "hint": troll_hint, "wager": wager_odds, "towers": towers_bot,
    "bigsave": big_save, "caches": crafted_caches, "analysis": analysis_speed, "troll_analysis": troll_analysis,
    "cores": troll_cores, "pool_start": pool_start,
    "search": troll_search_turn, "hindsight": hindsight_solver, "hall": hall_latency, "hall_listing": hall_listing,
    "archive": hall_archive_listing, "lobby": hall_lobby_looks,
    "journal": journal_sim, "journal_cpu": journal_sim_cpu, "journal_floor": journal_card_floor, "decks": deck_reading, "stats": stats_counts,
    "judged_others": judged_others_speed, "ratings": ratings_speed,
    "towers_analysis": towers_analysis_speed,
    "text": text_records,
    "winnable": winnable_deals,
}
TABLE_BEGIN = "<!-- speed table: written by tests/perf/bench.py --docs -->"
TABLE_END = "<!-- end of speed table -->"
PERFORMANCE_DOC = ROOT / "docs" / "performance.md"


def table() -> str:
    lines = ["| what | figure | goal |", "| --- | --- | --- |"]
    lines += [f"| {what} | {figure} | {goal} |" for what, figure, goal in ROWS]
    return "\n".join(lines)


def write_table(text: str) -> None:
    content = PERFORMANCE_DOC.read_text()
    begin, end = content.index(TABLE_BEGIN) + len(TABLE_BEGIN), content.index(TABLE_END)
    PERFORMANCE_DOC.write_text(content[:begin] + "\n" + text + "\n" + content[end:])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated rows: " + ", ".join(SECTIONS))
    parser.add_argument("--samples", type=int, help="the troll analysis's samples in the cores row (default: its own)")
    parser.add_argument("--docs", "--readme", dest="docs", action="store_true",
                        help="rewrite the Speed table in docs/performance.md (--readme: its old name)")
    args = parser.parse_args()
    chosen = args.only.split(",") if args.only else list(SECTIONS)
    scratch_home()
    for name in chosen:
        if name == "cores" and args.samples:
            troll_cores(samples=args.samples)
        else:
            SECTIONS[name]()
    print()
    print(table())
    if args.docs:
        write_table(table())
