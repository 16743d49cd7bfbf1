"""Replay format versions and required digests.

tests/fixtures/format1-dicetower.dhr was written by dicehall at 939191d^, the last code that wrote
format 1 with two-field players (see tests/fixtures/README.txt)."""
from pathlib import Path

import msgpack
import pytest

from dicehall import engine
from dicehall import replays
from dicehall.engine.games.dicetower import PullBlock

FIXTURE = Path(__file__).parent / "fixtures" / "format1-dicetower.dhr"


def test_the_fixture_really_is_format_1_with_two_field_players():
    document = msgpack.unpackb(FIXTURE.read_bytes())
    assert document["format"] == 1 and document["players"] == [["Ada", False]]


def test_a_format_1_replay_is_upcast_and_verifies():
    summary = replays.verify(FIXTURE)
    assert summary.splitlines() == [
        "ok: Dice Tower, seed 5, Ada, 13 events, 1 digest checked, 1 undo, the tower fell on pull 6, "
        "1 typed dice outcome (not from the seed)",
        "header not checked (a format 2 replay has no file digest); only claimed, no replay can prove them: "
        "the name, the players' names, the assists and the undo count, when it was made and by which dicehall"]
    session = replays.read_replay(FIXTURE)
    expected = engine.new_session("dicetower", seed=5, options={"start": 30}, players=["Ada"])
    expected.play(PullBlock())
    expected.undo()
    expected.play(PullBlock(), faces=[4, 1])
    while expected.outcome is None:
        expected.play(PullBlock())
    assert session.events == expected.events and session.state == expected.state
    assert session.players == (engine.Player("Ada", False, ""),) and session.labels.save_name == "format one replay"


def test_without_its_upcast_format_1_is_not_read(monkeypatch):
    monkeypatch.delitem(replays.UPCASTS, 1)
    with pytest.raises(replays.ReplayError, match="format 1 is too old to read"):
        replays.verify(FIXTURE)


def test_the_upcast_adds_an_empty_style_and_keeps_three_field_players():
    upcast = replays.UPCASTS[1]
    assert upcast({"format": 1, "players": [["Ada", False], ["Bo", True]]}) == {
        "format": 2, "players": [["Ada", False, ""], ["Bo", True, ""]]}
    assert upcast({"format": 1, "players": [["b", True, "bold"]]})["players"] == [["b", True, "bold"]]


def session_with_events():
    session = engine.new_session("dicetower", seed=3, players=["Ada"])
    for _ in range(3):
        session.play(PullBlock())
    return session


def write(tmp_path, document):
    """The document as a file, its file digest fitting whatever the test changed."""
    path = tmp_path / "r.dhr"
    if document.get("format") == replays.FORMAT:
        document = replays.seal(document)
    path.write_bytes(msgpack.packb(document, use_bin_type=True))
    return path


def test_new_replays_are_format_5_with_three_field_players_comments_handovers_and_a_file_digest():
    document = replays.replay_document(session_with_events())
    assert replays.FORMAT == 5 and document["format"] == 5 and document["players"] == [["Ada", False, ""]]
    assert document["comments"] == [] and document["handovers"] == [] and document["abandoned"] == ""
    assert list(document)[-1] == "file_digest" and document["file_digest"] == replays.file_digest(document)


def test_three_field_players_are_needed(tmp_path):
    document = dict(replays.replay_document(session_with_events()), players=[["Ada", False]])
    with pytest.raises(replays.ReplayError, match="a player entry is not readable"):
        replays.verify(write(tmp_path, document))


def test_a_newer_format_is_refused_with_its_version(tmp_path):
    document = dict(replays.replay_document(session_with_events()), format=6)
    with pytest.raises(replays.ReplayError, match=r"^made by a newer dicehall \(format 6\); this one reads format 5$"):
        replays.verify(write(tmp_path, document))


def test_a_format_4_replay_has_no_handovers_and_reads(tmp_path):
    document = replays.replay_document(session_with_events())
    old = {key: value for key, value in document.items() if key not in ("handovers", "abandoned", "file_digest")}
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(replays.seal(dict(old, format=4)), use_bin_type=True))
    session = replays.read_replay(path)
    assert session.labels.handovers == () and session.labels.abandoned == "" and len(session.events) == 6
    assert replays.verify(path).startswith("ok: Dice Tower")


@pytest.mark.parametrize("version", [3, 4])
def test_a_format_3_or_4_replay_without_its_file_digest_is_one_line(tmp_path, version, capsys):
    """Formats 3 and later were always written with a file digest: one without it was relabelled
    (a format 5 file flipped down, its digest dropped) to get its header past the check; `verify`
    ended in a KeyError and every other command read the file as sound."""
    from dicehall.cli import main

    document = replays.replay_document(session_with_events())
    old = {key: value for key, value in document.items() if key not in ("handovers", "abandoned", "file_digest")}
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(dict(old, format=version, comments=[]), use_bin_type=True))
    for command in ("verify", "summary", "analyse"):
        assert main([command, str(path)]) != 0, command
        err = capsys.readouterr().err
        assert err.strip().endswith("the file digest is missing") and len(err.splitlines()) == 1, (command, err)


@pytest.mark.parametrize("digests, expected", [
    (None, "the state digests are missing"),
    ([], "the final state digest (after event 6) is missing"),
    ("nope", "the state digests are not a list"),
])
def test_digests_are_required(tmp_path, digests, expected):
    document = replays.replay_document(session_with_events())
    if digests is None:
        del document["digests"]
    else:
        document["digests"] = digests
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(write(tmp_path, document))
    assert str(caught.value) == expected


def test_the_final_digest_is_required_even_when_others_are_there(tmp_path):
    session = engine.new_session("dicetower", seed=1, options={"start": 1000})
    for _ in range(60):
        session.play(PullBlock())
    document = replays.replay_document(session)
    final = len(session.events)
    assert final > 100 and [n for n, _ in document["digests"]] == [100, final]
    document["digests"] = document["digests"][:1]
    with pytest.raises(replays.ReplayError, match=rf"^the final state digest \(after event {final}\) is missing$"):
        replays.verify(write(tmp_path, document))


def test_a_replay_without_events_needs_no_final_digest_but_the_list(tmp_path):
    document = replays.replay_document(engine.new_session("dicetower", seed=1))
    document["digests"] = []
    assert replays.verify(write(tmp_path, document)).startswith("ok: Dice Tower, seed 1")
    del document["digests"]
    with pytest.raises(replays.ReplayError, match="the state digests are missing"):
        replays.verify(write(tmp_path, document))


@pytest.mark.parametrize("undos", [1 << 40, 1 << 63, -1])
def test_an_undos_claim_beyond_any_game_is_one_line(tmp_path, undos):
    """As the text record's Undos tag: a count at most 2^40, never 19 digits shown as a claim."""
    document = dict(replays.replay_document(session_with_events()), undos=undos)
    document.pop("file_digest")
    with pytest.raises(replays.ReplayError, match="the header's undos is missing or not a number"):
        replays.verify(write(tmp_path, replays.seal(document)))
