"""Players' comments beside the game: `comment` records in a save (the latest per event wins, empty
text removes, text cleaned and capped), `comments` in a format 4 replay (covered by the file
digest, upcast from format 3 with none, hostile entries one line each), never game events."""
from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from dicehall import engine, replays, saves
from dicehall.engine.comments import COMMENT_LIMIT, clean_comment, with_comment
from dicehall.engine.games.dicetower import PullBlock
from dicehall.saves.framing import frame

FORMAT_3 = Path(__file__).parent / "fixtures" / "format3-dicetower.dhr"


def tower(pulls: int = 3):
    session = saves.new_save("dicetower", name="noted", seed=7, players=saves.solo_players())
    for _ in range(pulls):
        session.play(PullBlock())
    return session


def test_comments_are_records_of_their_own_and_the_latest_wins():
    session = tower()
    digest = engine.digest(session.state)
    saves.write_comment(session, 2, "first")
    saves.write_comment(session, 2, "second")
    saves.write_comment(session, 0, "the whole game")
    saves.write_comment(session, 4, "gone soon")
    saves.write_comment(session, 4, "")
    assert session.labels.comments == {0: "the whole game", 2: "second"}
    assert engine.digest(session.state) == digest and session.undos == 0 and not session.can_redo
    saves.close_save(session)
    again = saves.load_readonly(session.labels.save_id)
    assert again.labels.comments == {0: "the whole game", 2: "second"}
    assert engine.digest(again.state) == digest and again.undos == 0


def test_comment_text_is_cleaned_and_capped():
    assert clean_comment("\x1b]52;c;aGk=\x07 ok\n\n line two \n\n") == "]52;c;aGk= ok\n\nline two"
    assert len(clean_comment("x" * 5000)) == COMMENT_LIMIT
    assert clean_comment(["not", "text"]) == ""
    assert with_comment({}, 3, "  \n ") == {}


def test_a_comment_past_the_end_is_refused_and_nothing_written():
    session = tower()
    with pytest.raises(saves.SaveError, match="there is no event 7 to comment on"):
        saves.write_comment(session, 7, "later")
    saves.close_save(session)
    assert saves.load_readonly(session.labels.save_id).labels.comments == {}


def test_a_comment_over_the_limits_is_refused_whole_with_why_never_cut():
    session = tower()
    saves.write_comment(session, 1, "x" * COMMENT_LIMIT)  # at the limit: kept whole
    with pytest.raises(saves.SaveError, match="at most 2,000 characters .*: this one has 2,001$"):
        saves.write_comment(session, 2, "x" * (COMMENT_LIMIT + 1))
    with pytest.raises(saves.SaveError, match="at most 20 lines: this one has 21$"):
        saves.write_comment(session, 2, "line\n" * 21)
    saves.close_save(session)
    assert saves.load_readonly(session.labels.save_id).labels.comments == {1: "x" * COMMENT_LIMIT}


@pytest.mark.parametrize("record, expected", [
    ({"op": "comment", "event": "2", "text": "x"}, "a comment is not [event number, text]"),
    ({"op": "comment", "event": 2, "text": 5}, "a comment is not [event number, text]"),
    ({"op": "comment", "event": 99, "text": "x"}, "a comment names event 99, past the end (6 events)"),
    ({"op": "comment", "event": True, "text": "x"}, "a comment is not [event number, text]"),
])
def test_a_bad_comment_record_is_damage_named_by_record(record, expected):
    session = tower()
    path = saves.find_save(session.labels.save_id)
    saves.close_save(session)
    with open(path, "ab") as handle:
        handle.write(frame(record))
    with pytest.raises(saves.SaveDamaged) as caught:
        saves.load_readonly(session.labels.save_id)
    assert str(caught.value) == f"{session.labels.save_id}: record 4: {expected}"


def test_undo_leaves_comments_and_comments_leave_undo_alone():
    session = tower()
    saves.write_comment(session, 6, "last pull")
    session.undo()
    assert session.labels.comments == {6: "last pull"} and session.undos == 1 and session.can_redo
    session.redo()
    saves.close_save(session)
    again = saves.open_save(session.labels.save_id)
    assert again.labels.comments == {6: "last pull"} and again.undos == 1 and len(again.events) == 6
    saves.close_save(again)


def test_a_branch_keeps_the_comments_up_to_its_point():
    session = tower()
    saves.write_comment(session, 2, "kept")
    saves.write_comment(session, 6, "after the branch")
    branch = saves.branch_save(session, 4, name="b")
    assert branch.labels.comments == {2: "kept"}
    saves.close_save(branch)
    assert saves.load_readonly(branch.labels.save_id).labels.comments == {2: "kept"}
    saves.close_save(session)


def test_a_replay_carries_the_comments_under_its_file_digest(tmp_path):
    session = tower()
    saves.write_comment(session, 0, "a game to share")
    saves.write_comment(session, 4, "line one\nline two")
    path = replays.write_replay(session, tmp_path / "g.dhr")
    document = msgpack.unpackb(path.read_bytes())
    assert document["format"] == replays.FORMAT and document["comments"] == [[0, "a game to share"], [4, "line one\nline two"]]
    read = replays.read_replay(path)
    assert read.labels.comments == {0: "a game to share", 4: "line one\nline two"}
    first = replays.verify(path).splitlines()[0]
    assert first.endswith("2 comments (the comments are the players' own words, not covered by the seed)")
    document["comments"][0][1] = "changed"  # not resealed: the digest finds it
    path.write_bytes(msgpack.packb(document))
    with pytest.raises(replays.ReplayError, match="does not match its file digest"):
        replays.verify(path)
    saves.close_save(session)


def test_a_format_3_replay_upcasts_with_no_comments():
    assert msgpack.unpackb(FORMAT_3.read_bytes())["format"] == 3
    assert "comments" not in msgpack.unpackb(FORMAT_3.read_bytes())
    assert replays.UPCASTS[3]({"format": 3}) == {"format": 4, "comments": []}
    session = replays.read_replay(FORMAT_3)
    assert session.labels.comments == {} and session.labels.save_name == "format three replay"
    assert replays.verify(FORMAT_3).startswith("ok: Dice Tower, seed 5, Ada, 13 events")


def test_a_replay_without_the_comments_field_reads_with_none(tmp_path):
    document = replays.replay_document(engine.new_session("dicetower", seed=1))
    del document["comments"]
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(replays.seal(document)))
    assert replays.read_replay(path).labels.comments == {}


@pytest.mark.parametrize("comments, expected", [
    ("nope", "the comments are not a list"),
    ([[1]], "a comment is not readable"),
    ([["1", "x"]], "a comment is not readable"),
    ([[1, 5]], "a comment is not [event number, text]"),
    ([[99, "x"]], "a comment names position 99, past the end"),
    ([[2, "a"], [1, "b"]], "the comments are out of order (position 1 after 2)"),
    ([[1, "a"], [1, "b"]], "the comments are out of order (position 1 after 1)"),
])
def test_hostile_comments_in_a_replay_get_one_line(tmp_path, comments, expected):
    session = engine.new_session("dicetower", seed=1)
    for _ in range(3):
        session.play(PullBlock())
    document = replays.seal(dict(replays.replay_document(session), comments=comments))
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(document))
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(path)
    assert str(caught.value) == expected


def test_comment_text_from_a_replay_is_cleaned(tmp_path):
    session = engine.new_session("dicetower", seed=1)
    session.play(PullBlock())
    document = replays.seal(dict(replays.replay_document(session), comments=[[1, "[red]x\x1b[2J" + "y" * 9000]]))
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(document))
    text = replays.read_replay(path).labels.comments[1]
    assert text.startswith("[red]x[2Jyyy") and "\x1b" not in text and len(text) == COMMENT_LIMIT


def test_comments_stay_on_their_event_number_after_an_undo():
    session = tower()
    saves.write_comment(session, 6, "on the last pull")
    session.undo()
    session.play(PullBlock())  # a new event 5 and 6: the comment is the players', not the game's
    assert session.labels.comments == {6: "on the last pull"}
    saves.close_save(session)
    assert saves.load_readonly(session.labels.save_id).labels.comments == {6: "on the last pull"}


CUT = "a comment longer than 2,000 characters or 20 lines was cut to fit"


def test_a_files_comment_over_the_limits_is_cut_to_fit_and_said_in_one_line(tmp_path):
    """A save, a replay or a text record edited by hand may hold a longer comment than dicehall
    writes: it is cut to fit as it is read, and the player is told which, never silently."""
    from dicehall.replays.text import read_text, write_text

    session = tower()
    saves.write_comment(session, 1, "x" * COMMENT_LIMIT)  # at the limit: whole, nothing said
    assert saves.load_readonly(session.labels.save_id).labels.notice is None
    session.journal.append({"op": "comment", "event": 2, "text": "y" * (COMMENT_LIMIT + 1)})
    session.journal.append({"op": "comment", "event": 0, "text": "\n".join("line" for _ in range(21))})
    saves.close_save(session)
    viewed = saves.load_readonly(session.labels.save_id)
    assert viewed.labels.notice == f"{CUT} (the whole game, event 2)" and viewed.labels.comments[2] == "y" * COMMENT_LIMIT
    reopened = saves.open_save(session.labels.save_id)
    assert reopened.labels.notice == viewed.labels.notice
    saves.write_comment(reopened, 0, "short again")  # the latest comment on the game fits: only event 2 is said
    saves.close_save(reopened)
    reopened = saves.open_save(session.labels.save_id)
    assert reopened.labels.notice == f"{CUT} (event 2)"
    text = write_text(reopened)
    saves.close_save(reopened)

    document = replays.seal(dict(replays.replay_document(viewed), comments=[[1, "z" * (COMMENT_LIMIT + 1)]]))
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(document))
    assert replays.read_replay(path).labels.notice == f"{CUT} (event 1)"

    assert read_text(text, "t.dht").labels.notice is None  # the record wrote the comments as kept
    longer = text.replace("y" * COMMENT_LIMIT, "y" * (COMMENT_LIMIT + 1))
    assert read_text(longer, "t.dht").labels.notice == f"{CUT} (event 2)"


def test_the_viewer_says_a_comment_was_cut_to_fit(tmp_path):
    from dicehall.tui.app import DicehallApp
    from tests.apphelpers import drive, status

    session = tower()
    document = replays.seal(dict(replays.replay_document(session), comments=[[3, "z" * (COMMENT_LIMIT + 1)]]))
    saves.close_save(session)
    path = tmp_path / "r.dhr"
    path.write_bytes(msgpack.packb(document))

    async def steps(pilot):
        await pilot.pause()
        return status(pilot.app)

    assert drive(DicehallApp(replay=replays.read_replay(path)), steps) == f"{CUT} (event 3)"
