"""The Hall screen's row of tests/perf/bench.py: its look every second (tui/screens/hall/lobby.py
`look`: the settings, the listing, the match book's score lines, the news line) over a hall of
1,000 finished games against one of 10, once the first look has read every log. The games are made
as the archive's row makes them (bench_archive.py): a few played, the rest those logs sealed again."""
from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace


def finished_hall(total: int, base: int = 10) -> Path:
    """A hall folder of `total` finished games (ids of 6 letters and digits)."""
    from dicehall.saves.hall import Hall
    from tests.perf.bench_archive import played_games, resealed

    folder = Path(tempfile.mkdtemp(prefix=f"dicehall-bench-lobby-{total}-"))
    hall = Hall(folder)
    ids = played_games(hall, min(base, total))
    logs = [(hall.games / f"{game_id}.dhh").read_bytes() for game_id in ids]
    rng = random.Random(total)
    made = set(ids)
    while len(made) < total:
        game_id = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6))
        if game_id not in made:
            made.add(game_id)
            (hall.games / f"{game_id}.dhh").write_bytes(resealed(rng.choice(logs), rng))
    return folder


def lobby_looks(ms, rounds: int = 15) -> tuple[str, str, str]:
    """(what, figure, goal): the lobby's look over 1,000 finished games against over 10, the median CPU
    of `rounds` each, alternating (this machine is shared and noisy); and the first look of 1,000."""
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.match_book import MatchBook
    from dicehall.tui.screens.hall.lobby import HallScreen

    looks, firsts = {}, {}
    for total in (10, 1000):
        hall = Hall(finished_hall(total))
        screen = SimpleNamespace(hall=hall, book=MatchBook(hall))  # what `look` uses of the screen
        looks[total] = lambda screen=screen: HallScreen.look(screen)  # type: ignore[arg-type]
        started = time.process_time()
        entries = looks[total]()[0]
        firsts[total] = time.process_time() - started
        assert len(entries) == total and all(entry.finished for entry in entries)
    times: dict[int, list[float]] = {10: [], 1000: []}
    for round_number in range(rounds):
        for total in ((10, 1000) if round_number % 2 == 0 else (1000, 10)):
            started = time.process_time()
            looks[total]()
            times[total].append(time.process_time() - started)
    small, large = statistics.median(times[10]), statistics.median(times[1000])
    return ("Hall screen: its look every second (listing, match lines, news) over 1,000 finished games against "
            f"over 10, CPU, median of {rounds}; the first look of 1,000 (reads every log, in the lobby's thread)",
            f"{ms(small)} vs {ms(large)}, **{large / small:.0f}x** ({ms(large / 1000)} a game); the first: "
            f"{ms(firsts[1000])}", "a look at 1,000 finished games within 100x of 10 (a stat a log, no reading)")
