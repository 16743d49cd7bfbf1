"""The text record (.dht): written, read back and verified for a whole game of every game through
the command line; a snapshot per game; a changed die named by event and line; comments that are not
the game; bad moves named by line and column with what was expected."""
from __future__ import annotations

import random
from pathlib import Path
from types import MappingProxyType

import pytest

from dicehall import engine, replays, saves
from dicehall.cli import main
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE
from dicehall.replays import text as records
from dicehall.replays.text import read_record, read_text, write_text

SNAPSHOTS = Path(__file__).parent / "snapshots"
EVERY_GAME = [entry.id for entry in CATALOGUE if entry.playable]
DATE = "2026-01-02T03:04:05+00:00"


def players_for(game: str) -> list[Player]:
    """A person and, for a game of several, a bot of a style the game has (its first)."""
    entry = next(e for e in CATALOGUE if e.id == game)
    if entry.seats[0] == 1:
        return [Player("Ada")]
    probe = engine.get_game(game)
    for style in ("", "random", "easy", "best", "general", "cautious"):
        try:
            probe.check_players((Player("Ada"), Player("Bot", True, style)))
            return [Player("Ada"), Player("Bot", True, style)]
        except ValueError:
            continue
    raise AssertionError(f"no bot style found for {game}")


def whole_game(session, seed: int = 1, limit: int = 3000):
    """Random legal commands to the end (or `limit` decisions)."""
    pick = random.Random(seed)
    for _ in range(limit):
        if session.outcome is not None:
            break
        session.play(pick.choice(session.commands()))
    return session


def saved_game(game: str, seed: int = 4):
    session = saves.new_save(game, name=f"{game} night", seed=seed, players=players_for(game))
    return whole_game(session, seed)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_round_trip_of_a_whole_game_through_the_command_line(game, tmp_path, capsys):
    session = saved_game(game)
    assert session.outcome is not None
    if session.can_undo:
        session.undo()
        session.redo()
    events = list(session.events)
    save_id = session.labels.save_id
    saves.close_save(session)

    path = tmp_path / "game.dht"
    assert main(["export", save_id, "--text", "-o", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.split("\n", 1)[1]  # after "wrote ..."
    assert out.startswith("ok: ") and "comments, marks and analysis notes are not covered by the seed" in out

    text = path.read_text(encoding="utf-8")
    read = read_record(path)
    assert list(read.events) == events  # text -> events
    assert write_text(read) == text  # -> text: identical, the date and the claims included
    assert read.undos == 1
    # the host's comments and assists (kept with the save, not game events) go both ways too
    read.labels.comments = MappingProxyType({0: "a friendly game", len(events): "well played {really}"})
    read.labels.assists = (("hint", 2),)
    text = write_text(read)
    read = read_text(text, "again")
    assert read.labels.comments == {0: "a friendly game", len(events): "well played {really}"}
    assert read.labels.assists == (("hint", 2),) and write_text(read) == text

    # binary -> text -> binary: the same events and digests
    binary = replays.read_replay(replays.write_replay(read, tmp_path / "game.dhr"))
    again = read_text(write_text(binary), "again")
    first, second = replays.replay_document(binary), replays.replay_document(again)
    assert first["events"] == second["events"] and first["digests"] == second["digests"]
    assert first["marks"] == second["marks"]

    assert main(["export", save_id, "--text", "-"]) == 0  # standard output: the same record but its date
    printed = capsys.readouterr().out.splitlines()
    written = path.read_text(encoding="utf-8").splitlines()
    date = next(i for i, line in enumerate(written) if line.startswith("[Date "))
    assert printed[:date] == written[:date] and printed[date + 1:] == written[date + 1:]


@pytest.mark.parametrize("game", EVERY_GAME)
def test_snapshot_of_a_text_record_per_game(game, snapshot):
    session = whole_game(engine.new_session(game, seed=7, players=players_for(game)), seed=7, limit=12)
    session.labels.record_date = DATE  # the one line that would change from run to run
    session.labels.save_name = f"{game} snapshot"
    session.labels.comments = MappingProxyType({1: "the first event, commented"})
    text = write_text(session)
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, f"text_record_{game}.dht")
    assert write_text(read_text(text, "snap")) == text


def tower_record(tmp_path, pulls: int = 6, **kwargs) -> tuple[Path, object]:
    session = engine.new_session("dicetower", seed=3, players=["Ada"], **kwargs)
    for _ in range(pulls):
        session.play(engine.get_game("dicetower").PullBlock())
    session.labels.comments = MappingProxyType({2: "nice roll"})
    path = tmp_path / "tower.dht"
    path.write_text(write_text(session), encoding="utf-8")
    return path, session


def test_a_die_changed_is_named_by_its_event_and_its_line(tmp_path, capsys):
    path, session = tower_record(tmp_path)
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("   * ") and i > 20)
    faces = lines[number - 1][5:8]
    changed = "1 1" if faces != "1 1" else "2 2"
    lines[number - 1] = lines[number - 1].replace(faces, changed, 1)
    path.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    event = sum(1 for line in lines[:number] if line.startswith("   ") and not line.startswith("   {"))
    assert err.startswith(f"dicehall: {path}: line {number}, col 6: event {event}: not what the seed gives")
    assert "the seed gives" in err and len(err.splitlines()) == 1


def test_a_comment_edited_still_verifies_and_verify_says_comments_are_not_covered(tmp_path, capsys):
    path, _ = tower_record(tmp_path)
    text = path.read_text()
    assert "{nice roll}" in text
    path.write_text(text.replace("{nice roll}", "{a terrible roll, said nobody}"))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not covered by the seed" in out and "1 comment here" in out
    assert read_record(path).labels.comments == {2: "a terrible roll, said nobody"}


def test_ruling_a_comment_belongs_to_the_event_line_before_it_and_a_decisions_to_its_first_event(tmp_path):
    path, _ = tower_record(tmp_path)
    lines = path.read_text().splitlines()
    assert lines[12] == "1. Ada: pull" and lines[16] == "2. Ada: pull"
    lines[13] = lines[13] + " {on the first pull}"  # "   pull 1: pull a block", event 1
    lines[16] = lines[16] + " {the second pull}"  # a decision's line: its first event, event 3
    lines.insert(12, "{the start}")  # before the first move: the whole game
    session = read_text("\n".join(lines) + "\n", "x")
    assert session.labels.comments == {0: "the start", 1: "on the first pull", 2: "nice roll", 3: "the second pull"}


def test_a_comment_on_an_event_inside_a_move_round_trips():
    """A troll move makes several events (the move, the flight, the next turn's start): a comment on
    one inside it (the viewer's ; at that event) is written on a line of its own between them, and
    the reader took that line for the next event's and refused the record dicehall wrote."""
    from dicehall.replays.text import read_text

    session = engine.new_session("troll", seed=5)
    whole_game(session, limit=6)
    starts = session.turn_starts()
    inside = next(start + 1 for start, end in zip(starts, starts[1:] + [len(session.events)]) if end - start > 2)
    session.labels.comments = {inside: "on an event inside a move", 0: "the start"}
    text = write_text(session)
    read = read_text(text, "x")
    assert read.labels.comments == {inside: "on an event inside a move", 0: "the start"}
    assert list(read.events) == list(session.events) and write_text(read) == text


def test_typed_dice_round_trip_and_are_marked_on_their_line(tmp_path):
    session = engine.new_session("dicetower", seed=3, players=["Ada"], dice=[6, 5, 2, 2])
    game = engine.get_game("dicetower")
    session.play(game.PullBlock())
    session.play(game.PullBlock())
    text = write_text(session)
    assert "   * typed 6 5 = " in text and "[Typed 2]" in text
    read = read_text(text, "x")
    assert list(read.events) == list(session.events) and write_text(read) == text
    forged = text.replace("* typed 6 5 = 6 5", "* typed 6 6 = 6 5")
    with pytest.raises(records.TextRecordError, match=r"line \d+, col 6: event 2: not what the typed dice give \('6 6"):
        read_text(forged, "x")


def test_ruling_a_bad_move_is_named_by_line_and_column_with_what_was_expected():
    session = engine.new_session("troll", seed=5)
    whole_game(session, limit=3)
    text = write_text(session)
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("2. Player: "))
    lines[number - 1] = "2. Player: move sideways"
    with pytest.raises(records.TextRecordError) as caught:
        read_text("\n".join(lines), "x")
    message = str(caught.value)
    assert message.startswith(f"line {number}, col 12: not a move of Angry Troll versus Magic Bridge here")
    assert "sideways" not in message  # the file's own words are never shown: it may be anything
    legal = [str(c) for c in engine.get_game("troll").legal_commands(session.state_at(session.turn_starts()[1]))]
    assert message.endswith(f"; expected {', '.join(legal)}") and "\n" not in message


def test_the_wrong_player_and_a_move_after_the_end_are_refused_in_one_line():
    session = whole_game(engine.new_session("wager", seed=2, players=players_for("wager")))
    text = write_text(session)
    with pytest.raises(records.TextRecordError, match=r"line 14, col 1: expected '1. Ada:' \(turn 1 is Ada's\)"):
        read_text(text.replace("1. Ada: ", "1. Bot: ", 1), "x")
    last = text.rstrip("\n").splitlines()
    cut = last[:-1] + ["99. Ada: roll", last[-1]]
    with pytest.raises(records.TextRecordError, match=r"col 1: (a move after the game ended|expected)"):
        read_text("\n".join(cut), "x")


def test_unknown_tags_are_kept_as_written_and_never_acted_on():
    session = whole_game(engine.new_session("dicetower", seed=3, players=["Ada"]), limit=2)
    text = write_text(session)
    lines = text.splitlines()
    lines.insert(12, '[Event "[bold red]club night[/bold red] [@click=app.quit]x"]')
    read = read_text("\n".join(lines) + "\n", "x")
    assert read.labels.record_extra_tags == (("Event", '"[bold red]club night[/bold red] [@click=app.quit]x"'),)
    assert write_text(read).splitlines()[12] == lines[12]


def test_the_digest_line_and_the_result_tag_are_checked():
    session = whole_game(engine.new_session("dicetower", seed=3, players=["Ada"]))
    text = write_text(session)
    with pytest.raises(records.TextRecordError, match="the Result tag"):
        read_text(text.replace(session.outcome.summary, "won by a mile"), "x")
    with pytest.raises(records.TextRecordError, match="before its digest line"):
        read_text(text.rsplit("digest", 1)[0], "x")
    digest = engine.digest(session.state)
    with pytest.raises(records.TextRecordError, match="the digest does not match"):
        read_text(text.replace(digest, "0" * 32), "x")


def test_analysis_marks_and_figures_are_written_as_comments_and_kept():
    from dicehall.engine import analysis

    session = whole_game(engine.new_session("wager", seed=2, players=[Player("Ada"), Player("Bob")]))
    result = analysis.analyse(session, samples=50)
    text = write_text(session, result)
    assert "{analysis: win chance " in text
    marked = [d for d in result.decisions if d.mark]
    for d in marked:
        assert any(line.endswith(f" {d.mark}") for line in text.splitlines())
    read = read_text(text, "x")
    assert read.labels.comments == {}  # the analysis' notes are not the players' comments
    assert write_text(read) == text


def test_a_binary_replay_and_a_text_record_are_told_apart_by_their_content(tmp_path):
    session = whole_game(engine.new_session("towers", seed=3, players=players_for("towers")), limit=10)
    binary = replays.write_replay(session, tmp_path / "named.dht")  # a binary file with the text's suffix
    assert list(read_record(binary).events) == list(session.events)
    text = tmp_path / "named.dhr"
    text.write_text(write_text(session))
    assert list(read_record(text).events) == list(session.events)


def test_replay_analyse_and_the_launchers_continue_from_here_read_a_text_record(tmp_path, capsys):
    import json

    from dicehall.tui.app import DicehallApp
    from tests.apphelpers import drive

    session = whole_game(engine.new_session("wager", seed=3, players=[Player("Ada"), Player("Bob")]))
    path = tmp_path / "shared.dht"
    path.write_text(write_text(session))
    assert main(["analyse", str(path), "--json", "--samples", "20"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "wager"
    broken = tmp_path / "broken.dht"
    broken.write_text(path.read_text().replace("1. Ada: roll", "1. Ada: fly"))
    for command in ("replay", "analyse", "verify"):
        assert main([command, str(broken)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"dicehall: {broken}: line 14, col 9: not a move of Dead Man's Wager here")
        assert "\n" not in err

    async def steps(pilot):
        app = pilot.app
        await pilot.press("o")
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter", "home", "right", "right", "right", "c")
        return app.screen.session

    branch = drive(DicehallApp(), steps)
    assert list(branch.events)[:3] == list(session.events)[:3] and branch.labels.save_id


def test_a_finished_hall_game_exports_as_a_text_record(tmp_path, monkeypatch, capsys):
    from dicehall.saves.hall import Hall
    from tests.test_hall import finished_wager

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    hall = Hall(tmp_path / "hall")
    ann, bob = finished_wager(hall)
    assert main(["--hall", str(hall.folder), "export", ann.id, "--text", "-o", str(tmp_path)]) == 0
    exported = tmp_path / f"hall-{ann.id}.dht"
    read = read_record(exported)
    assert read.seed == ann.fold.revealed and read.labels.save_name == "Ann v Bob"
    assert list(read.events) == list(hall.finished_session(ann.id).events)
    assert main(["verify", str(exported)]) == 0
    ann.close(), bob.close()


def test_a_seeded_outcome_re_marked_as_typed_is_named_on_its_own_line(tmp_path):
    path, session = tower_record(tmp_path)
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("   * "))
    game, before = session.game, session.state_at(1)  # the first roll is event 2
    typed = game.chance_event(before, game.chance_draws(session.events[1]), True)
    faces = " ".join(str(d + 1) for d in game.chance_draws(typed))
    lines[number - 1] = f"   * typed {faces} = {game.describe(before, typed, True)}"  # the mark and its words both
    text = "\n".join(lines).replace("[Typed 0]", "[Typed 1]")
    with pytest.raises(records.TextRecordError, match=rf"^line {number}, col 4: event 2: marked as typed, but these are "
                                                      r"the seed's own dice \(the mark was changed\)$"):
        read_text(text, "x")


def test_export_text_analysed_writes_the_marks_and_figures_and_still_verifies(tmp_path, capsys):
    session = saves.new_save("dicetower", name="judged", seed=2)
    whole_game(session, seed=2, limit=8)
    save_id = session.labels.save_id
    saves.close_save(session)
    assert main(["export", save_id, "--text", "-", "--analysed"]) == 0
    text = capsys.readouterr().out
    assert "{analysis: luck " in text  # the Dice Tower's figure: each roll's luck, in pulls
    read = read_text(text, "x")
    assert list(read.events) == list(saves.load_readonly(save_id).events) and read.labels.comments == {}
    with pytest.raises(SystemExit):  # a binary replay carries no analysis: the usage and one line
        main(["export", save_id, "--analysed"])
    assert "--analysed goes with --text" in capsys.readouterr().err


def test_the_setup_line_heads_the_chance_before_the_first_move():
    session = whole_game(engine.new_session("troll", seed=5), limit=2)
    text = write_text(session)
    assert "\n0. setup\n   * shuffled and dealt" in text
    with pytest.raises(records.TextRecordError, match=r"^line 13, col 1: expected '0. setup': the game starts with chance$"):
        read_text(text.replace("0. setup\n", ""), "x")
