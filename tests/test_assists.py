"""Assists in the record (issue #25): a hint, a reveal, the hindsight solver on a game not over are
`assist` records of the save, written before the answer is shown, kept beside the game (the fold
never sees them), carried into replays and named by `verify`."""
from __future__ import annotations

import msgpack
import pytest

from dicehall import engine, replays, saves
from dicehall.cli import main
from dicehall.engine.bots import troll as troll_bot
from dicehall.engine.core import Player
from dicehall.engine.games.dicetower import PullBlock
from dicehall.saves.framing import parse_save
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text, status, until


def records(session_or_path):
    path = session_or_path if not hasattr(session_or_path, "journal") else session_or_path.journal.path
    return parse_save(path.read_bytes(), "t").records


def troll_save(name="assisted", turns=2, seed=7):
    session = saves.new_save("troll", name=name, seed=seed)
    while session.state.turn <= turns:
        session.play(troll_bot.choose(session.state))
    return session


def test_a_hint_is_an_assist_record_of_the_save_before_it_is_shown():
    session = troll_save()
    at = len(session.events)

    async def steps(pilot):
        await pilot.press("h")
        return screen_text(pilot.app), records(session)[-1]

    shown, last = drive(DicehallApp(session=session), steps)
    assert "HINT: " in shown
    assert last == {"op": "assist", "kind": "hint", "at": at}
    assert session.labels.assists == (("hint", at),)
    assert saves.load_readonly(session.labels.save_id).labels.assists == (("hint", at),)


def test_a_hint_the_save_cannot_record_is_not_shown(monkeypatch):
    session = troll_save()

    def full(record):
        raise saves.SaveWriteFailed("disk full: nothing was saved or changed; make room and try again", "disk full")

    monkeypatch.setattr(session.journal, "append", full)

    async def steps(pilot):
        await pilot.press("h")
        return screen_text(pilot.app), status(pilot.app)

    shown, said = drive(DicehallApp(session=session), steps)
    assert "HINT: " not in shown and session.labels.assists == ()
    assert said == ("Not now: the hint is not shown: it could not be recorded in the save (disk full: nothing was "
                    "saved or changed; make room and try again)")


def test_ruling_the_wagers_odds_name_the_best_play_so_they_count_as_a_hint():
    session = saves.new_save("wager", name="odds", seed=12, players=[Player("Ada"), Player("Bo")])

    async def steps(pilot):
        await pilot.press("r")
        if session.state.normal_left:
            await pilot.press("r")
        await pilot.press("h")  # the first h in a process works the tables out in a thread: waited for
        await until(pilot, lambda: not status(pilot.app).startswith("working out the odds"))
        return status(pilot.app)

    said = drive(DicehallApp(session=session), steps)
    assert said.startswith("your chance of winning")
    assert [kind for kind, _ in saves.load_readonly(session.labels.save_id).labels.assists] == ["hint"]


def test_assists_leave_the_game_untouched():
    plain = troll_save("plain")
    helped = troll_save("helped")
    for kind in ("hint", "reveal", "hindsight"):
        saves.record_assist(helped, kind)
    saves.close_save(helped)
    again = saves.open_save(helped.labels.save_id)
    assert again.events == plain.events and engine.digest(again.state) == engine.digest(plain.state)
    assert again.undos == plain.undos == 0 and len(again.labels.assists) == 3
    again.undo()  # an assist is no event: undo takes back the last move, never an assist
    assert len(again.events) < len(plain.events) and len(again.labels.assists) == 3


def test_an_assist_after_the_end_is_no_assist():
    session = saves.new_save("dicetower", name="done", seed=1, options={"start": 10})
    while session.outcome is None:
        session.play(PullBlock())
    assert saves.record_assist(session, "reveal") is False
    assert session.labels.assists == () and all(r.get("op") != "assist" for r in records(session))


def test_reveal_in_the_live_viewer_is_recorded_and_after_the_end_is_not():
    session = troll_save()

    async def steps(pilot):
        await pilot.press("v", "r", "y")
        return pilot.app.screen.reveal

    assert drive(DicehallApp(session=session), steps) is True
    assert [r for r in records(session) if r["op"] == "assist"] == [
        {"op": "assist", "kind": "reveal", "at": len(session.events)}]


def test_an_assist_asked_in_the_saves_lists_viewer_is_appended_to_the_save_file():
    session = troll_save()
    saves.close_save(session)
    shown = saves.load_readonly(session.labels.save_id)
    assert saves.record_assist(shown, "reveal") is True
    assert saves.load_readonly(session.labels.save_id).labels.assists == (("reveal", len(session.events)),)
    held = saves.open_save(session.labels.save_id)  # another dicehall plays it: nothing is written, and it says so
    try:
        with pytest.raises(saves.SaveInUse):
            saves.record_assist(saves.load_readonly(session.labels.save_id), "hindsight")
    finally:
        saves.close_save(held)
    assert len(saves.load_readonly(session.labels.save_id).labels.assists) == 1


def test_a_replay_carries_its_hints_and_verify_reports_them(tmp_path, capsys):
    session = troll_save()
    saves.record_assist(session, "hint")
    session.play(troll_bot.choose(session.state))
    saves.record_assist(session, "hint")
    session.undo()
    saves.record_assist(session, "reveal")
    path = saves.export_save(session.labels.save_id, str(tmp_path / "r.dhr"))
    replay = replays.read_replay(path)
    assert replay.labels.assists == session.labels.assists and [k for k, _ in replay.labels.assists] == ["hint", "hint", "reveal"]
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert ", 2 hints, 1 reveal, 1 undo, unfinished" in out
    assert "only claimed, no replay can prove them: the name, the players' names, the assists and the undo count" in out


def test_verify_names_only_the_undos_when_no_assist_is_recorded(tmp_path):
    session = engine.new_session("dicetower", seed=3)
    session.play(PullBlock())
    assert ", 1 digest checked, 0 undos, " in replays.verify(replays.write_replay(session, tmp_path / "r.dhr"))


def test_a_format_3_replay_upcasts_with_no_assists(tmp_path):
    session = engine.new_session("dicetower", seed=3)
    session.play(PullBlock())
    document = replays.replay_document(session)
    del document["assists"], document["comments"], document[replays.FILE_DIGEST]
    document["format"] = 3
    path = tmp_path / "old.dhr"
    path.write_bytes(msgpack.packb(replays.seal(document), use_bin_type=True))
    assert replays.read_replay(path).labels.assists == ()
    assert replays.UPCASTS[3]({"format": 3, "name": "x"}) == {"format": 4, "name": "x", "comments": []}


@pytest.mark.parametrize("assists, reason", [
    ("hints", "the assists are not a list"),
    ([["cheat", 1]], "an assist of an unknown kind"),
    ([["hint", 200_001]], "an assist at no position of the game"),
    ([["hint", -1]], "an assist at no position of the game"),
    ([["hint", True]], "an assist at no position of the game"),
    ([["hint"]], "an assist is not readable"),
    ([["hint", 1]] * (100_001), "the assists are not a list"),
])
def test_hostile_assists_in_a_replay_are_one_line(tmp_path, assists, reason):
    session = engine.new_session("dicetower", seed=3)
    session.play(PullBlock())
    document = dict(replays.replay_document(session), assists=assists)
    path = tmp_path / "bad.dhr"
    path.write_bytes(msgpack.packb(replays.seal(document), use_bin_type=True))
    with pytest.raises(replays.ReplayError) as caught:
        replays.read_replay(path)
    assert str(caught.value) == reason


@pytest.mark.parametrize("record, reason", [
    ({"op": "assist", "kind": "cheat", "at": 0}, "an assist of an unknown kind"),
    ({"op": "assist", "kind": "hint", "at": 10**6}, "an assist at no position of the game"),
    ({"op": "assist", "kind": ["hint"], "at": 0}, "an assist of an unknown kind"),
    ({"op": "assist"}, "an assist of an unknown kind"),
])
def test_hostile_assist_records_in_a_save_are_one_line_and_keep_the_good_part(record, reason):
    session = troll_save()
    session.journal.append(record)
    saves.close_save(session)
    with pytest.raises(saves.SaveDamaged) as caught:
        saves.load_readonly(session.labels.save_id)
    assert str(caught.value).endswith(f"record {len(records(session.journal.path))}: {reason}")
    [info] = saves.list_saves()
    assert info.problem and reason in info.problem


def test_the_hindsight_solver_on_a_game_not_over_is_recorded_before_it_searches(monkeypatch):
    from dicehall.tui.screens.viewer import ViewerScreen

    monkeypatch.setattr(ViewerScreen, "HINDSIGHT_NODES", 40)
    session = troll_save()

    async def steps(pilot):
        await pilot.press("v", "H", "y")
        return [r for r in records(session) if r["op"] == "assist"]

    assert drive(DicehallApp(session=session), steps) == [
        {"op": "assist", "kind": "hindsight", "at": len(session.events)}]


def test_a_hint_in_the_hall_is_a_record_of_the_hall_log_before_it_is_shown(tmp_path, monkeypatch):
    from dicehall.saves.hall import Hall

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    hall = Hall(tmp_path / "hall")
    ann = hall.host("troll", ["player"], "Ann")
    watcher = hall.watch(ann.id)
    try:
        at = len(ann.session.events)

        async def steps(pilot):
            await pilot.press("h")
            return screen_text(pilot.app)

        shown = drive(DicehallApp(hall_game=ann), steps)
        assert "HINT: " in shown
        log = parse_save((hall.games / f"{ann.id}.dhh").read_bytes(), "x").records
        assert {k: v for k, v in log[-1].items() if k != "at"} == {"op": "assist", "by": 0, "kind": "hint", "event": at}
        watcher.follow()  # another terminal folds it too, beside the game
        assert watcher.session.labels.assists == ann.session.labels.assists == (("hint", at),)
        assert engine.digest(watcher.session.state) == engine.digest(ann.session.state)
    finally:
        watcher.close()
        ann.close()


@pytest.mark.parametrize("record, reason", [
    ({"op": "assist", "by": 0, "kind": "cheat", "event": 2}, "an assist that is not readable"),
    ({"op": "assist", "by": 0, "kind": "hint", "event": 10**6}, "an assist that is not readable"),
    ({"op": "assist", "by": 0, "kind": "hint", "event": True}, "an assist that is not readable"),
    ({"op": "assist", "by": 5, "kind": "hint", "event": 2}, "no seat named as its author"),
    ({"op": "assist", "kind": "hint", "event": 2}, "no seat named as its author"),
    ({"op": "assist", "by": 1, "kind": "hint", "event": 2}, "an assist asked for a bot"),
])
def test_hostile_assist_records_in_a_hall_log_are_refused_in_one_line(tmp_path, record, reason):
    from dicehall.saves.hall import Hall, HallFold, HallRecordError

    hall = Hall(tmp_path / "hall")
    ann = hall.host("wager", ["player", "bot"], "Ann")
    try:
        data = (hall.games / f"{ann.id}.dhh").read_bytes()
        fold = HallFold(parse_save(data, "x").header, "x")
        for old in parse_save(data, "x").records:
            fold.apply(old)
        record = dict(record, event=len(fold.session.events)) if record["event"] == 2 else record
        with pytest.raises(HallRecordError, match=reason):
            fold.apply(record)
        assert fold.session.labels.assists == ()
    finally:
        ann.close()
