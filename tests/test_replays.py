"""Replays: round trip, and damaged or hostile files rejected with one line naming what and where."""
import subprocess
import sys

import msgpack
import pytest

from dicehall import engine
from dicehall import replays
from dicehall.engine.games.dicetower import PullBlock


def finished_game(seed=7, name="Ada"):
    session = engine.new_session("dicetower", seed=seed, players=[name])
    while session.outcome is None:
        session.play(PullBlock())
    return session


def document(session=None):
    return replays.replay_document(session or finished_game())


def write(tmp_path, doc_or_bytes, name="r.dhr"):
    path = tmp_path / name
    data = doc_or_bytes if isinstance(doc_or_bytes, bytes) else msgpack.packb(doc_or_bytes, use_bin_type=True)
    path.write_bytes(data)
    return path


def test_round_trip_keeps_every_event_and_state(tmp_path):
    session = finished_game()
    session_path = replays.write_replay(session, tmp_path / "g.dhr")
    loaded = replays.read_replay(session_path)
    assert loaded.events == session.events and loaded.state == session.state
    assert [loaded.state_at(n) for n in range(len(loaded.events))] == [session.state_at(n) for n in range(len(session.events))]
    assert loaded.outcome == session.outcome


def test_header_records_what_the_issue_names(tmp_path):
    doc = document()
    for key in ("format", "dicehall", "game", "rules", "seed", "options", "players", "result", "undos", "created", "events", "digests"):
        assert key in doc
    assert doc["digests"][-1][0] == len(doc["events"])


def test_undos_are_shown_in_the_replay(tmp_path):
    session = engine.new_session("dicetower", seed=2)
    session.play(PullBlock())
    session.undo()
    session.play(PullBlock())
    path = replays.write_replay(session, tmp_path / "u.dhr")
    assert replays.read_replay(path).undos == 1
    assert "1 undo," in replays.verify(path)


def test_verify_summary(tmp_path):
    path = replays.write_replay(finished_game(), tmp_path / "g.dhr")
    summary = replays.verify(path)
    assert summary.startswith("ok: Dice Tower, seed 7, Ada,") and "the tower fell on pull" in summary


def tampered_dice(doc):
    events = [list(e) for e in doc["events"]]
    for index, (name, fields) in enumerate(events):
        if name == "DiceRolled" and index > 30:
            a, b = fields["faces"]
            events[index] = [name, dict(fields, faces=[a % 6 + 1, b])]
            return replays.seal(dict(doc, events=events)), index
    raise AssertionError("no dice to tamper with")


def test_dice_that_do_not_match_the_seed_are_named(tmp_path):
    doc, index = tampered_dice(document(finished_game(seed=5)))
    # events are numbered from 1, as the viewer numbers them: events[index] is "event index + 1"
    with pytest.raises(replays.ReplayError, match=f"^event {index + 1}: the dice do not match the seed$"):
        replays.verify(write(tmp_path, doc))


HOSTILE = {
    "empty": (b"", "the file is empty"),
    "random bytes": (bytes(range(256)) * 4, "not a dicehall replay"),
    "a list": (msgpack.packb([1, 2, 3]), "not a dicehall replay"),
    "a number": (msgpack.packb(12), "not a dicehall replay"),
    "ext type": (msgpack.packb({"format": 1, "events": msgpack.ExtType(5, b"xx")}), "extension type"),
    "deep nesting": (b"\x91" * 100_000 + b"\x00", None),
    "huge array claim": (b"\xdd\xff\xff\xff\xff", None),
    "huge string claim": (b"\xdb\xff\xff\xff\xff", None),
    "text file": (b"hello, this is not a replay\n", "not a dicehall replay"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bytes_get_one_line(tmp_path, name):
    data, expected = HOSTILE[name]
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(write(tmp_path, data))
    message = str(caught.value)
    assert message and "\n" not in message and len(message) < 200
    if expected:
        assert expected in message


def mutate(doc, **changes):
    """The document changed as a hostile writer would: with a header digest that fits the change."""
    return replays.seal(dict(doc, **changes))


DOC_CASES = {
    "newer format": (lambda d: mutate(d, format=6), "made by a newer dicehall (format 6)"),
    "unknown game": (lambda d: mutate(d, game="chess"), "unknown game"),
    "game not a string": (lambda d: mutate(d, game=5), "game"),
    "newer rules": (lambda d: mutate(d, rules=99), "newer Dice Tower rules"),
    "seed a string": (lambda d: mutate(d, seed="7"), "seed"),
    "bad options": (lambda d: mutate(d, options={"start": -5}), "start must be"),
    "unknown event": (lambda d: mutate(d, events=[["Exploded", {}]] + list(d["events"])), "event 1: unknown event type"),
    "event fields": (lambda d: mutate(d, events=[["BlockPulled", {"remove": False, "x": 1}]], marks=[[0, 0]]), "event 1: BlockPulled: fields do not match"),
    "event not a list": (lambda d: mutate(d, events=[7], marks=[[0, 0]]), "event 1: not an event record"),
    "events not a list": (lambda d: mutate(d, events=5), "events"),
    "marks out of order": (lambda d: mutate(d, marks=[[4, 0], [2, 0]]), "turn marks"),
    "wrong player": (lambda d: mutate(d, marks=[[m[0], 3] for m in d["marks"]]), "event 1: a move by a player whose turn it is not"),
    "changed digest": (lambda d: mutate(d, digests=[[n, "0" * 32] for n, _ in d["digests"]]), "state digest does not match"),
    "digest past the end": (lambda d: mutate(d, digests=[[10**6, "0" * 32]]), "past the end"),
    "result changed": (lambda d: mutate(d, result="I won"), "recorded result"),
    "events after the end": (lambda d: mutate(d, events=list(d["events"]) + [["BlockPulled", {"remove": False}]],
                                              marks=list(d["marks"]) + [[len(d["events"]), 0]]), "a move where none can be made"),
    "bool as seed": (lambda d: mutate(d, seed=True), "seed"),
    "players not a list": (lambda d: mutate(d, players="Ada"), "players"),
}


@pytest.mark.parametrize("name", sorted(DOC_CASES))
def test_damaged_documents_get_one_line_naming_the_problem(tmp_path, name):
    change, expected = DOC_CASES[name]
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(write(tmp_path, change(document())))
    assert expected in str(caught.value) and "\n" not in str(caught.value)


def test_truncated_file_says_where_it_was_cut(tmp_path):
    data = msgpack.packb(document(), use_bin_type=True)
    with pytest.raises(replays.ReplayError, match=f"cut off after {len(data) // 2} bytes"):
        replays.verify(write(tmp_path, data[: len(data) // 2]))


def test_stray_bytes_after_the_document(tmp_path):
    data = msgpack.packb(document(), use_bin_type=True)
    with pytest.raises(replays.ReplayError, match=f"3 stray bytes after the replay, at byte {len(data)}"):
        replays.verify(write(tmp_path, data + b"abc"))


def test_files_over_16_mib_are_refused_before_reading(tmp_path):
    path = tmp_path / "big.dhr"
    with open(path, "wb") as handle:
        handle.truncate(replays.MAX_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(replays.ReplayError, match="too large"):
        replays.verify(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(replays.ReplayError, match="cannot read"):
        replays.verify(tmp_path / "nope.dhr")
    with pytest.raises(replays.ReplayError, match="not a file"):
        replays.verify(tmp_path)


def test_names_from_files_are_data(tmp_path):
    doc = document()
    doc["players"] = [["[/bold]\x1b[2J[@click=app.quit]evil\x07" + "x" * 100, False, ""]]
    doc = replays.seal(doc)
    session = replays.read_replay(write(tmp_path, doc))
    name = session.players[0].name
    assert "\x1b" not in name and "\x07" not in name and len(name) <= 40
    assert name.startswith("[/bold][2J[@click=app.quit]evil")


def test_older_formats_are_upcast_by_registered_functions(tmp_path, monkeypatch):
    doc = document()
    old = dict(doc, format=0, events_v0=doc["events"])
    del old["events"], old["file_digest"]
    old["events"] = []  # format 0 (a made-up older layout for this test) kept events elsewhere

    def upcast_v0_v1(d):
        d = dict(d, format=1, events=d.pop("events_v0"))
        return d

    monkeypatch.setitem(replays.UPCASTS, 0, upcast_v0_v1)
    assert replays.read_replay(write(tmp_path, old)).events == finished_game().events
    monkeypatch.delitem(replays.UPCASTS, 0)
    with pytest.raises(replays.ReplayError, match="format 0 is too old"):
        replays.read_replay(write(tmp_path, old))


def test_verify_command_prints_one_line_and_never_a_traceback(tmp_path, capsys):
    from dicehall.cli import main

    bad = [write(tmp_path, data, f"{i}.dhr") for i, (data, _) in enumerate(HOSTILE.values())]
    doc, _ = tampered_dice(document(finished_game(seed=5)))
    bad.append(write(tmp_path, doc, "tampered.dhr"))
    for path in bad:  # the command's own code in this process: an escaping exception fails the test
        assert main(["verify", str(path)]) == 1, path
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, err
    # and once as a player runs it, a process of its own, where a traceback would be printed
    result = subprocess.run([sys.executable, "-m", "dicehall", "verify", str(bad[-1])], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    good = replays.write_replay(finished_game(), tmp_path / "good.dhr")
    assert main(["verify", str(good)]) == 0 and capsys.readouterr().out.startswith("ok: ")


def test_a_damaged_text_field_says_damaged_in_one_line(tmp_path):
    import msgpack

    path = tmp_path / "bad.dhr"
    path.write_bytes(msgpack.packb({"format": 2, "events": []})[:-1] + b"\xa1\x9a")  # a 1-byte string, not UTF-8
    with pytest.raises(replays.ReplayError, match=r"^damaged: a piece of text in it is not valid UTF-8$"):
        replays.read_replay(path)


def test_writing_a_replay_needs_no_saves_durable_writing_has_one_home(tmp_path):
    # saves -> replays, never back: replays write through dicehall.durable, below both, which saves use too
    code = ("import sys; from dicehall import engine, replays; s = engine.new_session('dicetower', seed=1); "
            f"replays.write_replay(s, {str(tmp_path / 'one.dhr')!r}); print('dicehall.saves' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "False"
    assert (tmp_path / "one.dhr").exists()
    from dicehall import durable, saves

    assert (saves.write_durably, saves.write_all) == (durable.write_durably, durable.write_all)
