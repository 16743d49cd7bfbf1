"""Speed work must not change a single result: sims, whole event logs, state digests and the
troll adviser's scores for fixed seeds are pinned here, as the engine produced them before it was
optimised (issue #13). A change to any figure below is a change to what players see."""
from hashlib import blake2b

import msgpack
import pytest

from dicehall import engine
from dicehall.engine.bots import troll as adviser
from dicehall.engine.chance import seeded_draw
from dicehall.engine.codec import encode_event
from dicehall.engine.games.dicetower import PullBlock
from dicehall.sims.bones import sim_bones
from dicehall.sims.dicetower import sim_dicetower
from dicehall.sims.towers import sim_towers
from dicehall.sims.troll import sim_troll
from dicehall.sims.wager import sim_wager


def without_time(report: dict) -> dict:
    return {key: value for key, value in report.items() if key not in ("seconds", "slowest_answer_s")}


def log_fingerprint(session, extra=()) -> str:
    """BLAKE2b of every event's encoding, the digest of every 25th state and the end, and `extra`."""
    h = blake2b(digest_size=12)
    for index, event in enumerate(session.events):
        h.update(msgpack.packb(encode_event(event), use_bin_type=True))
        if index % 25 == 0:
            h.update(engine.digest(session.state_at(index)).encode())
    h.update(engine.digest(session.state).encode())
    for item in extra:
        h.update(repr(item).encode())
    return h.hexdigest()


def test_sim_dicetower_results_are_pinned():
    assert without_time(sim_dicetower(300, 4, 0)) == {
        "game": "dicetower", "games": 300, "seed": 4, "remove_rate": 0, "mean": 29.713333333333335, "min": 22,
        "max": 37, "percentiles": {"p5": 25, "p25": 28, "p50": 30, "p75": 32, "p95": 35},
        "exact_mean": 29.947680261043853}
    assert without_time(sim_dicetower(300, 4, 0.5)) == {
        "game": "dicetower", "games": 300, "seed": 4, "remove_rate": 0.5, "mean": 19.14, "min": 12, "max": 26,
        "percentiles": {"p5": 15, "p25": 18, "p50": 19, "p75": 21, "p95": 23}}


@pytest.mark.parametrize("difficulty, variant, bot, expected", [
    ("standard", None, "random", (0.0, 0.0, 22.0, 9.75)),
    ("standard", None, "hint", (0.0, 0.0, 11.5, 28.875)),
    ("sturdy", None, "random", (0.0, 0.0, 8.125, 16.5)),
    ("sturdy", None, "hint", (0.75, 0.125, 0.125, 31.75)),
    ("tutorial", None, "random", (0.875, 0.375, 0.0, 17.0)),
    ("tutorial", None, "hint", (1.0, 1.0, 0.0, 8.125)),
    ("standard", "toys", "random", (0.0, 0.0, 19.625, 9.5)),
    ("standard", "toys", "hint", (1.0, 1.0, 0.0, 25.0)),
    ("standard", "starting_card", "random", (0.0, 0.0, 23.0, 7.125)),
    ("standard", "starting_card", "hint", (0.0, 0.0, 12.125, 26.75)),
])
def test_sim_troll_results_are_pinned(difficulty, variant, bot, expected):
    report = sim_troll(8, 5, difficulty, variant, bot)
    assert (report["win_rate"], report["perfect_rate"], report["mean_score"], report["mean_turns"]) == expected


def test_sim_wager_towers_and_bones_results_are_pinned():
    assert without_time(sim_wager(3, ["best", "cautious", "bold"], 10, 2)) == {
        "game": "wager", "games": 10, "seed": 2, "players": 3, "bots": ["best", "cautious", "bold"],
        "style_win_rate": {"best": 0.7, "cautious": 0.0, "bold": 0.3}, "seat_win_rate": [0.5, 0.4, 0.1]}
    assert without_time(sim_towers(["random", "easy"], 4, 3)) == {
        "game": "towers", "games": 4, "seed": 3, "bots": ["random", "easy"], "win_rate": {"random": 0.0, "easy": 1.0},
        "draw_rate": 0.0, "mean_margin": -10.25}
    assert without_time(sim_bones(["random", "random"], 4, 3)) == {
        "game": "bones", "games": 4, "seed": 3, "bots": ["random", "random"],
        "win_rate": {"random (first)": 0.5, "random (second)": 0.5}, "draw_rate": 0.0, "unfinished": 0, "mean_turns": 34.0}


def dicetower_game(seed: int, start: int) -> engine.Session:
    session = engine.new_session("dicetower", seed=seed, options={"start": start})
    pulls = 0
    while session.outcome is None:
        session.play(PullBlock(seeded_draw(seed, pulls, 3) == 0))
        pulls += 1
    return session


def troll_game(seed: int, options: dict, bot: str) -> tuple[engine.Session, list]:
    """A whole troll game, with the adviser's score and reason for every decision it made."""
    session = engine.new_session("troll", seed=seed, options=options)
    advice = []
    step = 0
    while session.outcome is None:
        if bot == "random":
            commands = session.commands()
            command = commands[seeded_draw(seed, step, len(commands))]
            advice.append([str(c) for c in commands])
        else:
            plan = adviser.best_turn(session.state)
            advice.append((plan.score, plan.reason, [str(c) for c in plan.commands]))
            command = plan.commands[0]
        session.play(command)
        step += 1
    return session, advice


def test_dicetower_event_logs_are_pinned():
    assert [log_fingerprint(dicetower_game(seed, start)) for seed, start in ((1, 100), (2, 400), (3, 2000))] == [
        "117c85275909fb5230528dde", "e3511adff9c1b980c1377998", "166e406900448ee3190b13bf"]


@pytest.mark.parametrize("seed, options, bot, expected", [
    (11, {"difficulty": "standard"}, "random", "e26b111f8364c9edc1f1dc6e"),
    (12, {"difficulty": "sturdy"}, "random", "d09863af964e00b4078f08b2"),
    (13, {"difficulty": "tutorial", "starting_card": True}, "random", "e8140d0e46f38553b3eb0d2d"),
    (14, {"difficulty": "standard", "reusable_diamond_ace": True}, "random", "44ca13255de4d0fceab62ee3"),
    (11, {"difficulty": "standard"}, "hint", "cd20bf41343021d861dbc830"),
    (12, {"difficulty": "sturdy"}, "hint", "81fc0832739e56875bd1e815"),
    (15, {"difficulty": "sturdy", "club_at_start": True}, "hint", "0a0a8126c6e844f26a55fcf2"),
    (16, {"difficulty": "standard", "toys": True}, "hint", "d7329108135fbb6295f65380"),
])
def test_troll_event_logs_and_advice_are_pinned(seed, options, bot, expected):
    session, advice = troll_game(seed, options, bot)
    assert log_fingerprint(session, advice) == expected
