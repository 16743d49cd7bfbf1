"""The archive's row of tests/perf/bench.py: 10,000 finished hall games, listed once indexed.

How 10,000 games are made cheaply: 40 games are played through the hall's own API (Towers between
two people, the wager of a person against a bot), each about 70 ms; the rest are those logs
sealed again under another seed: the same moves, a new commitment in the header and its seed in
the `reveal`, the people renamed from a pool of 12 and the times moved back by up to a year. The
archive counts logs of one commitment once (copies), so plain copies would list as 40 games; these
list as 10,000, every one read and folded to build the index. (Their dice are not the new seed's,
which `verify` would say: the archive, like the scores, folds the logs against the rules and does
not re-derive the dice.)"""
from __future__ import annotations

import os
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")


def played_games(hall, count: int) -> list[str]:
    """`count` finished hall games played through the Hall API; their ids."""
    rng = random.Random(7)
    ids = []
    for n in range(count):
        if n % 2:
            first = hall.host("towers", ["player", "open"], NAMES[n % 12])
            second = hall.join(first.id, name=NAMES[(n + 1) % 12])
            games = {0: first, 1: second}
            while not first.finished:
                for game in games.values():
                    game.follow()
                mover = next((game for game in games.values() if game.my_turn), None)
                if mover is not None:
                    mover.play(rng.choice(mover.session.commands()))
            second.follow()
            second.close()
        else:
            first = hall.host("wager", ["player", "bot:cautious"], NAMES[n % 12])
            while not first.finished:
                first.follow()
                if first.my_turn:
                    first.play(first.session.commands()[-1])
        first.follow()
        first.close()
        ids.append(first.id)
    return ids


def resealed(data: bytes, rng: random.Random) -> bytes:
    """A finished log sealed again under a new seed (see the module's notes)."""
    from dicehall.saves import MAGIC, frame, parse_save
    from dicehall.saves.hall import commitment

    parsed = parse_save(data, "base")
    seed = secrets.randbits(63)
    back = rng.randrange(365 * 86400)
    header = dict(parsed.header, commitment=commitment(seed))
    records = []
    for record in parsed.records:
        record = dict(record)
        if "at" in record:
            record["at"] = record["at"] - back
        if record.get("op") == "seat" and record.get("kind") == "player":
            record["name"] = rng.choice(NAMES)
        if record.get("op") == "reveal":
            record["seed"] = seed
        records.append(record)
    return MAGIC + frame(header) + b"".join(frame(record) for record in records)


def archive_listing(ms, total: int = 10_000, base: int = 40, rounds: int = 7) -> tuple[str, str, str]:
    """(what, figure, goal): the archive of `total` finished games, listed by a fresh Hall through
    its index (the fastest and the median of `rounds`), and the first listing that builds the index."""
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.archive import hall_archive

    os.environ["DICEHALL_HOME"] = tempfile.mkdtemp(prefix="dicehall-bench-archive-home-")
    folder = Path(tempfile.mkdtemp(prefix="dicehall-bench-archive-"))
    hall = Hall(folder)
    ids = played_games(hall, base)
    logs = [(hall.games / f"{game_id}.dhh").read_bytes() for game_id in ids]
    rng = random.Random(11)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    made = set(ids)
    while len(made) < total:
        game_id = "".join(rng.choice(alphabet) for _ in range(6))
        if game_id in made:
            continue
        made.add(game_id)
        (hall.games / f"{game_id}.dhh").write_bytes(resealed(rng.choice(logs), rng))
    started = time.perf_counter()
    first = hall_archive(Hall(folder))
    indexing = time.perf_counter() - started
    assert len(first.games) == total, (len(first.games), first.left_out())
    return listed_through_the_index(folder, ms, total, rounds, indexing)


def listed_through_the_index(folder, ms, total: int, rounds: int, indexing: float) -> tuple[str, str, str]:
    """The row's figures: the listing through the index built already, beside a look at every log's file."""
    from dicehall.saves.hall import Hall
    from dicehall.saves.hall.archive import hall_archive

    hall = Hall(folder)
    listing, stating = [], []  # (wall, CPU) of each: the archive's listing, and a look at every log's file
    for round_number in range(rounds):  # side by side, alternating (this machine is shared and noisy)
        for which in (("archive", "stat") if round_number % 2 == 0 else ("stat", "archive")):
            wall, cpu = time.perf_counter(), time.process_time()
            if which == "archive":
                listed = hall_archive(Hall(folder))
                listed.chosen(player="Ann", game="towers")  # a filter, as the screen and `archive --player` apply
            else:
                stat_every_log(hall)
            (listing if which == "archive" else stating).append((time.perf_counter() - wall, time.process_time() - cpu))
    assert len(listed.games) == total and not listed.note
    best, base = min(listing), min(stating)
    return (f"archive: {total:,} finished hall games listed (and filtered) through the index, against a look at "
            "every log's file (listdir and stat: what any listing does); the first listing, which reads every log",
            f"**{ms(min(cpu for _, cpu in listing))}** of CPU ({ms(best[0])} wall, median "
            f"{ms(statistics.median(wall for wall, _ in listing))}) vs {ms(base[0])}, **{best[0] / base[0]:.1f}x**; "
            f"the first: {ms(indexing)}", "within 200 ms once indexed")


def stat_every_log(hall) -> None:
    games = hall.folder_fd("games")
    try:
        for name in os.listdir(games):
            os.stat(name, dir_fd=games, follow_symlinks=False)
    finally:
        os.close(games)
