"""A hall game where a seat went to a bot (a person idle on their turn, `I` then `b` at the table; or
a bot seated at hosting) and one ended as abandoned (`I` then `e`): its records verify and replay,
say where the bot took over and keep the person's name on the moves before it (replays format 5,
the text record's [Handover] line); the lobby and `j` say what became of the person's seat."""
from __future__ import annotations

import json
import random
import re
from functools import partial

import msgpack
import pytest

from dicehall import replays
from dicehall.cli import main
from dicehall.engine import digest
from dicehall.engine.analysis import bones as bones_analysis
from dicehall.engine.analysis import towers as towers_analysis
from dicehall.replays.text import player_tag, read_record, read_text, write_text
from dicehall.saves.hall import Hall, SeatHeld
from dicehall.saves.hall import folder as folder_module
from tests.apphelpers import drive, screen_text, status
from tests.hallhelpers import play_until_over
from tests.test_hall_social import Clock, set_idle

IDLE = 30  # the hall's idle minutes in these tests
HEADING = re.compile(r"^[0-9]+\. (.+?): ")  # a turn's line of a text record: its player's name


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


def bobs_seat_idle(hall, monkeypatch, game: str, moves: int = 4, seed: int = 3):
    """Alice and Bob at `game`, `moves` random moves played, then Bob idle on his turn for IDLE
    minutes. Returns (alice, bob, rng). The hall's dice are its own (a secret seed): a game they
    end first (a wager won on three threes) is left and another opened."""
    set_idle(hall, IDLE)
    clock = Clock(monkeypatch)
    rng = random.Random(seed)
    dice = random.Random(seed)  # the hall's secret seeds, pinned: the same game every run
    monkeypatch.setattr(folder_module.secret_source, "randbits", lambda bits: dice.getrandbits(bits))
    for _ in range(10):
        alice = hall.host(game, ["player", "open"], "Alice")
        bob = hall.join(alice.id, name="Bob")
        games, played = {alice.seat: alice, bob.seat: bob}, 0
        alice.follow()
        while not alice.finished and (played < moves or alice.to_act != bob.seat):
            mover = games[alice.to_act]
            mover.play(rng.choice(mover.session.commands()))
            played += 1
            for each in games.values():
                each.follow()
        if not alice.finished:
            clock.now += IDLE * 60 + 1
            return alice, bob, rng
        alice.close(), bob.close()
    raise AssertionError("ten games ended before Bob's turn came")


def handed_over(hall, monkeypatch, game: str, **kwargs):
    """A finished game whose Bob went idle and whose seat Alice handed to a bot (`I`, `b`)."""
    alice, bob, rng = bobs_seat_idle(hall, monkeypatch, game, **kwargs)
    at = len(alice.session.events)
    alice.claim_idle("bot")
    bob.close()
    play_until_over({alice.seat: alice}, rng)
    return alice, bob.seat, at


def exported(tmp_path, game_id: str, capsys) -> tuple:
    """The game exported through the command line as a .dhr and a .dht; returns both paths."""
    binary, text = tmp_path / "game.dhr", tmp_path / "game.dht"
    assert main(["export", game_id, "-o", str(binary)]) == 0
    assert main(["export", game_id, "--text", "-o", str(text)]) == 0
    capsys.readouterr()
    return binary, text


# War of Bones' seed whose handed-over game analyses fastest of seeds 1-12 (its analysis 1.5 s of CPU, seed 3's 2.5 s)
SHORTEST = {"bones": 6}


@pytest.mark.parametrize("game", ["towers", "wager", "bones"])
def test_a_handed_over_game_verifies_replays_and_analyses_in_both_records(hall, monkeypatch, tmp_path, capsys, game):
    # what is checked is that each record analyses, not its figures: Towers' search looks at fewer
    # positions (its node budget, as the viewer's tests shrink the hindsight's), War of Bones is
    # analysed at its fewest samples (--samples 1 below) over the general's one best candidate
    # besides the move played and the general's own (every decision still judged: a quarter of the CPU)
    monkeypatch.setattr(towers_analysis, "judge", partial(towers_analysis.judge, nodes=400))
    monkeypatch.setattr(bones_analysis, "CANDIDATES", 1)
    alice, seat, at = handed_over(hall, monkeypatch, game, seed=SHORTEST.get(game, 3))
    said = f"seat {seat + 1} went to Bot for Bob after event {at} (idle for {IDLE} minutes)"
    assert main(["verify", alice.id]) == 0
    assert f"seat {seat + 1} handed to Bot" in capsys.readouterr().out
    binary, text = exported(tmp_path, alice.id, capsys)
    for path in (binary, text):
        assert main(["verify", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.startswith("ok: ") and said in out.splitlines()
        session = read_record(path)
        assert session.players[seat].bot and session.players[seat].name == "Bot"
        assert session.labels.first_players(session.players)[seat].name == "Bob" and not session.labels.first_players(session.players)[seat].bot
        assert [(h.at, h.seat, h.before.name) for h in session.labels.handovers] == [(at, seat, "Bob")]
        assert digest(session.state) == digest(alice.session.state)
        assert session.outcome == alice.session.outcome
        assert main(["analyse", str(path), "--samples", "1"] if game == "bones" else ["analyse", str(path)]) == 0
        assert main(["summary", str(path)]) == 0
        assert f"Handed over: {said}" in " ".join(capsys.readouterr().out.split())
    # the person's name on the moves before the bot took over, the bot's after; the line between
    lines = text.read_text().splitlines()
    handover = next(n for n, line in enumerate(lines) if line.startswith("[Handover "))
    assert json.loads(lines[handover][len("[Handover "):-1]) == {
        "seat": seat + 1, "to": player_tag(read_record(text).players[seat]), "why": f"idle for {IDLE} minutes"}
    before = {m.group(1) for m in map(HEADING.match, lines[:handover]) if m}
    after = {m.group(1) for m in map(HEADING.match, lines[handover:]) if m}
    assert before == {"Alice", "Bob"} and after == {"Alice", "Bot"}
    # both records say the same, and each written again from the other is the same
    assert write_text(read_record(binary)).split("[Date")[0] == text.read_text().split("[Date")[0]
    assert write_text(read_text(text.read_text(), "game.dht")).split("[Undos")[1] == text.read_text().split("[Undos")[1]
    alice.close()


def test_a_bot_seated_at_hosting_exports_as_it_played(hall, tmp_path, capsys):
    alice = hall.host("towers", ["player", "bot:easy"], "Alice")
    play_until_over({alice.seat: alice}, random.Random(5))
    binary, text = exported(tmp_path, alice.id, capsys)
    for path in (binary, text):
        assert main(["verify", str(path)]) == 0
        session = read_record(path)
        assert session.labels.handovers == () and [p.name for p in session.players] == ["Alice", "Bot"]
    assert "[Handover" not in text.read_text() and "2. Bot: " in text.read_text()
    alice.close()


def test_an_abandoned_game_says_so_in_both_records_and_the_summary(hall, monkeypatch, tmp_path, capsys):
    alice, bob, _ = bobs_seat_idle(hall, monkeypatch, "towers")
    alice.claim_idle("abandon")
    why = f"Bob (seat {bob.seat + 1}) did not move for {IDLE} minutes"
    binary, text = exported(tmp_path, alice.id, capsys)
    assert f'[Abandoned "{why}"]' in text.read_text().splitlines()
    for path in (binary, text):
        assert main(["verify", str(path)]) == 0
        assert f"abandoned: {why}" in capsys.readouterr().out.splitlines()[0]
        assert read_record(path).labels.abandoned == why
        assert main(["summary", str(path)]) == 0
        assert f"Result: abandoned after {len(alice.session.events)} events: {why}" in capsys.readouterr().out
    alice.close(), bob.close()


def test_a_takeback_past_the_handover_leaves_the_seat_the_bots_from_there(hall, monkeypatch, tmp_path, capsys):
    alice, bob, rng = bobs_seat_idle(hall, monkeypatch, "towers")
    alice.claim_idle("bot")
    bob.close()
    at = len(alice.session.events)
    alice.play(alice.session.commands()[0])  # the bot's move (Alice's process plays it)
    alice.ask_takeback()  # Alice's last move, before the handover: against a bot alone, taken back at once
    assert len(alice.session.events) < at and alice.session.labels.handovers[0].at == len(alice.session.events)
    assert alice.session.labels.holder(alice.session.players, bob.seat, len(alice.session.events)).bot
    play_until_over({alice.seat: alice}, rng)
    binary, text = exported(tmp_path, alice.id, capsys)
    for path in (binary, text):
        assert main(["verify", str(path)]) == 0
    alice.close()


def sealed(tmp_path, document) -> str:
    path = tmp_path / "crafted.dhr"
    path.write_bytes(msgpack.packb(replays.seal(document), use_bin_type=True))
    return str(path)


def test_a_crafted_handover_is_one_line_naming_what_is_wrong(hall, monkeypatch, tmp_path, capsys):
    alice, seat, at = handed_over(hall, monkeypatch, "towers")
    binary, text = exported(tmp_path, alice.id, capsys)
    document = msgpack.unpackb(binary.read_bytes())
    entry = document["handovers"][0]
    bot = ["Bot", True, "medium"]
    for handovers, why in (("x", "the handovers are not a list"),
                           ([entry] * 3, "the handovers are not a list of at most one per seat"),
                           ([entry, entry], "a handover of seat 2, which a bot plays already"),
                           ([[at, 7, bot, ""]], "a handover names a seat the game does not have (7)"),
                           ([[at, seat, ["Eve", False, ""], ""]], "to a person: only a bot takes a seat over"),
                           ([[10 ** 6, seat, bot, ""]], "a handover after event 1000000, past the end"),
                           ([[at, seat, bot, 5]], "does not say why in words"),
                           ([[at, seat, ["Bot", True, "giant"], ""]], "giant"),
                           ([[at, seat, bot]], "a handover is not readable")):
        with pytest.raises(replays.ReplayError, match=re.escape(why)):
            replays.verify(sealed(tmp_path, dict(document, handovers=handovers)))
    # the seat a bot took over starts as the person's: a file that starts it as a bot's is refused
    players = [list(p) for p in document["players"]]
    players[seat] = ["Bob", True, "medium"]  # the same name: the state and its digests are the same
    with pytest.raises(replays.ReplayError, match="which a bot plays already"):
        replays.verify(sealed(tmp_path, dict(document, players=players)))
    with pytest.raises(replays.ReplayError, match="a game that reached its end says it was abandoned"):
        replays.verify(sealed(tmp_path, dict(document, abandoned="Bob did not move")))
    # in the text record: a handover line of another shape, another tag among the moves, a bot's seat
    record = text.read_text()
    line = next(n for n, text_line in enumerate(record.splitlines(), 1) if text_line.startswith("[Handover"))
    for changed, why in (('"why": "idle', '"how": "idle'), ("[Handover", "[Seat2")):
        with pytest.raises(replays.ReplayError, match=f"^line {line}"):
            read_text(record.replace(changed, why, 1), "x.dht")
    handover = record.splitlines()[line - 1]
    twice = record.replace(handover, f"{handover}\n{handover}")
    with pytest.raises(replays.ReplayError, match=f"^line {line + 1}, col 11: a handover of seat {seat + 1}, which a"):
        read_text(twice, "x.dht")
    alice.close()


def test_the_lobby_names_whose_seat_the_bot_plays_and_bobs_j_says_why(hall, monkeypatch, tmp_path):
    alice, bob, _ = bobs_seat_idle(hall, monkeypatch, "towers")
    alice.claim_idle("bot")
    bob.close()
    entry = hall.entry(alice.id)
    assert entry.seats[bob.seat].words() == "Bot (for Bob, idle)"
    assert entry.as_json()["seats"][bob.seat] == {"seat": bob.seat + 1, "status": "bot", "name": "Bot", "for": "Bob"}
    refusal = f"your seat in {alice.id} went to Bot when you were idle for {IDLE} minutes: the game goes on without you"
    with pytest.raises(SeatHeld, match=f"^{refusal}$"):
        hall.join(alice.id, name="Bob")
    with pytest.raises(SeatHeld, match=f"^{refusal}$"):
        hall.join(alice.id, seat=bob.seat, name="Bob")
    with pytest.raises(SeatHeld, match="has no open seat"):
        hall.join(alice.id, name="Carol")  # not hers: the seat is simply taken
    monkeypatch.setenv("LOGNAME", "Bob")  # Bob's login (on a box, his key's name): the lobby knows him
    from dicehall.tui.app import DicehallApp

    async def steps(pilot):
        await pilot.press("h", "j")  # the lobby, then j on its one game
        await pilot.pause()
        return screen_text(pilot.app), status(pilot.app)

    shown, said = drive(DicehallApp(), steps)
    assert "Bot (for Bob, idle)" in shown
    assert said.endswith(refusal)
    alice.close()


def test_the_result_names_the_bot_that_won_for_the_person(hall, monkeypatch):
    alice, seat, _ = handed_over(hall, monkeypatch, "towers")
    outcome = alice.session.outcome
    entry = hall.entry(alice.id)
    if seat in outcome.winners:
        assert entry.result == f"{outcome.summary} (Bot for Bob)"
    else:
        assert entry.result == outcome.summary
    assert "Bot (for Bob, idle)" in [view.words() for view in entry.seats]
    alice.close()


def test_the_viewer_names_the_person_before_the_handover_and_the_bot_after(hall, monkeypatch, tmp_path, capsys):
    from dicehall.tui.app import DicehallApp

    alice, seat, at = handed_over(hall, monkeypatch, "towers")
    binary, _ = exported(tmp_path, alice.id, capsys)
    session = replays.read_replay(binary)
    stops = session.turn_starts()

    bobs = [start for start, mark in zip(stops, session.marks) if mark.player == seat and start < at]
    assert bobs and at in stops

    async def steps(pilot):
        title = screen_text(pilot.app).splitlines()[0]
        seen = {}
        for stop in (bobs[-1], at):  # Bob's last turn, then the bot's first: PgDn onto each from the turn before
            before = max([start for start in stops if start < stop], default=0)
            await pilot.press("g", *str(before), "enter", "pagedown")
            await pilot.pause()
            seen[pilot.app.screen.position] = status(pilot.app)
        return title, seen

    title, seen = drive(DicehallApp(replay=session), steps)
    assert "Bot for Bob" in title
    assert f"seat {seat + 1} went to Bot for Bob after event {at} (idle for {IDLE} minutes); Bot to decide" in seen[at]
    assert "Bob to decide" in seen[bobs[-1]]
    alice.close()


def test_a_seat_handed_over_before_its_first_move_reads_back_from_the_text(hall, monkeypatch, tmp_path, capsys):
    set_idle(hall, IDLE)
    clock = Clock(monkeypatch)
    alice = hall.host("towers", ["open", "player"], "Alice")  # Bob, in seat 1, moves first
    bob = hall.join(alice.id, name="Bob")
    alice.follow()
    clock.now += IDLE * 60 + 1
    alice.claim_idle("bot")
    bob.close()
    play_until_over({alice.seat: alice}, random.Random(2))
    binary, text = exported(tmp_path, alice.id, capsys)
    lines = text.read_text().splitlines()
    moves = lines.index("[Assists []]") + 1  # the last tag line, then the moves
    assert lines[moves].startswith('[Handover {"seat": 1, ') and lines[moves + 1].startswith("1. Bot: ")
    for path in (binary, text):
        assert main(["verify", str(path)]) == 0
        assert "seat 1 went to Bot for Bob after event 0 (idle for 30 minutes)" in capsys.readouterr().out
    alice.close()
