"""Branching ("continue from here"): the branch is written in one go, and holds exactly the records
the old way (a new save, then one durable append per turn) wrote, so it loads and verifies as before."""
from __future__ import annotations

import random

import pytest

from dicehall import saves
from dicehall.engine.core import Player


def played(game: str, moves: int, players=None):
    """A save of `game` with up to `moves` random legal moves, closed: as a viewer would branch from it."""
    session = saves.new_save(game, seed=11, players=players)
    rng = random.Random(3)
    for _ in range(moves):
        commands = session.commands()
        if session.outcome is not None or not commands:
            break
        session.play(rng.choice(commands))
    saves.close_save(session)
    return session


def branch_the_old_way(session, upto: int):
    """branch_save as it was before it built the file in memory: a new save, then one append per turn."""
    parent = session.labels.save_name
    new = saves.new_save(session.game.ID, name=f"{parent} (old way)", branch_of={"name": parent, "event": upto},
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
    saves.close_save(new)
    return new


def records_after_the_header(session) -> bytes:
    data = session.journal.path.read_bytes()
    header_length = saves.FRAME.unpack_from(data, len(saves.MAGIC))[0]
    return data[len(saves.MAGIC) + saves.FRAME.size + header_length:]


GAMES = {
    "dicetower": dict(moves=30),
    "troll": dict(moves=25),  # a shuffle before the first move, actions with automatic consequences
    "towers": dict(moves=20),
    "wager": dict(moves=40, players=[Player("Ada"), Player("Bot", True, "bold")]),  # bots' turns in between
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_branch_holds_the_records_the_old_way_wrote_byte_for_byte(game):
    trunk = played(game, **GAMES[game])
    total = len(trunk.events)
    assert total > 10
    for upto in sorted({0, 1, 2, 3, total // 3, total // 2 + 1, total - 1, total}):
        branch = saves.branch_save(trunk, upto)
        saves.close_save(branch)
        old = branch_the_old_way(trunk, upto)
        assert records_after_the_header(branch) == records_after_the_header(old), (game, upto)
        header = saves.read_header(branch.journal.path)
        assert header["branch_of"] == {"name": trunk.labels.save_name, "event": upto, "save": trunk.labels.save_id}
        reopened = saves.open_save(branch.labels.save_id)  # loads, every record checked against the rules and the seed
        assert reopened.events == branch.events == trunk.events[:len(branch.events)]
        assert len(branch.events) >= min(upto, total)
        saves.close_save(reopened)


def test_a_branch_is_one_write_of_the_whole_file(monkeypatch):
    trunk = played("dicetower", 30)
    writes = []
    real_write_durably = saves.write_durably

    def counting(fd, data):
        writes.append(len(data))
        real_write_durably(fd, data)

    for room in (saves.files, saves.store, saves.manage):  # every durable write of the saves modules
        monkeypatch.setattr(room, "write_durably", counting)
    branch = saves.branch_save(trunk, len(trunk.events) // 2)
    assert writes == [branch.journal.path.stat().st_size]  # header and records, written once
    branch.play(branch.commands()[0])  # and the branch is open for play, appending as usual
    assert len(writes) == 2
    saves.close_save(branch)
    assert saves.open_save(branch.labels.save_id).events == branch.events
