"""On a shared box each player's saves, replays, stats, stored analyses and practice are their own
(DATA/players/NAME): bob never lists, continues, exports, deletes or counts alice's, through the
command line (DICEHALL_PLAYER, as --player sets it) or the app; and a deck, an export or a record is
named, never given by a path."""
from __future__ import annotations

import json

import pytest

from dicehall import saves
from dicehall.cli import main
from dicehall.engine.games import dicetower
from dicehall.saves import analyses, practice
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text

ALICE_SAVE = "alices tower"


@pytest.fixture
def alice_and_bob(monkeypatch, home, capsys):
    """Alice's save (played, analysed, exported) on the box; then the box's player is bob."""
    monkeypatch.setenv("DICEHALL_PLAYER", "alice")
    session = saves.new_save("dicetower", name=ALICE_SAVE, seed=3, players=saves.solo_players())
    for _ in range(6):
        session.play(dicetower.PullBlock(False))
    saves.close_save(session)
    assert main(["analyse", session.labels.save_id]) == 0  # stored in alice's analyses
    assert main(["export", session.labels.save_id]) == 0  # into alice's replays folder
    capsys.readouterr()
    alice = {"id": session.labels.save_id, "save": saves.find_save(session.labels.save_id),
             "analyses": sorted(analyses.analyses_dir().iterdir()), "replays": sorted(saves.replays_dir().iterdir())}
    assert alice["analyses"] and alice["replays"]
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    return alice


def test_bob_never_reaches_alices_saves_through_the_command_line(alice_and_bob, capsys):
    alice = alice_and_bob
    assert saves.home().name == "bob" and alice["save"].parent.parent.name == "alice"
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no saves yet") and ALICE_SAVE not in out and alice["id"] not in out
    for command in (["continue", alice["id"]], ["export", alice["id"]], ["export", alice["id"], "--text", "-"],
                    ["recover", alice["id"]], ["analyse", alice["id"]], ["summary", alice["id"]],
                    ["continue", ALICE_SAVE], ["export", ALICE_SAVE, "-o", "-"]):
        assert main(command) == 1, command
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith("dicehall: no save named"), (command, captured)
    exported = alice["replays"][0].name
    for command in (["verify", exported], ["replay", exported], ["analyse", exported]):  # alice's replays: not bob's
        assert main(command) == 1, command
        err = capsys.readouterr().err
        assert "no such file in your replays folder" in err or "no save named" in err, err
    assert main(["stats", "--json"]) == 0
    assert ALICE_SAVE not in capsys.readouterr().out
    assert practice.positions() == ([], 0)
    assert list(analyses.analyses_dir().iterdir()) == []
    assert alice["save"].exists() and sorted(alice["replays"][0].parent.iterdir()) == alice["replays"]


def test_bob_sees_only_his_own_in_the_app(alice_and_bob):
    bobs = saves.new_save("dicetower", name="bobs tower", seed=4, players=saves.solo_players())
    saves.close_save(bobs)

    async def steps(pilot):
        await pilot.press("c")
        await pilot.pause()
        listed = screen_text(pilot.app)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")  # bob deletes the one save he sees: his own
        await pilot.pause()
        await pilot.press("escape", "s")
        await pilot.pause()
        stats = screen_text(pilot.app)
        await pilot.press("escape", "p")
        await pilot.pause()
        return listed, stats, screen_text(pilot.app)

    listed, stats, practised = drive(DicehallApp(), steps)
    assert "bobs tower" in listed and ALICE_SAVE not in listed
    assert ALICE_SAVE not in stats and ALICE_SAVE not in practised
    assert saves.list_saves() == [] and alice_and_bob["save"].exists()  # alice's is where it was


def test_the_players_stats_are_their_own(alice_and_bob, monkeypatch, capsys):
    assert main(["stats", "--json"]) == 0
    bob = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("DICEHALL_PLAYER", "alice")
    assert main(["stats", "--json"]) == 0
    alice = json.loads(capsys.readouterr().out)
    assert json.dumps(alice) != json.dumps(bob) and "1" in json.dumps(alice)
