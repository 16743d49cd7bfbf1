"""Save format versions: format 1 (players as [name, bot]) is upcast, a newer format is refused.

tests/fixtures/format1-dicetower.dhs was written by dicehall at 939191d^, the last code that wrote
format 1 with two-field players (see tests/fixtures/README.txt)."""
import shutil
from pathlib import Path

import msgpack
import pytest

from dicehall import engine
from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock

FIXTURE = Path(__file__).parent / "fixtures" / "format1-dicetower.dhs"
SAVE_ID = "format1-dicetower"


def header_of(path):
    return saves.parse_save(path.read_bytes(), "x").header


def install(home):
    folder = saves.saves_dir()
    shutil.copy(FIXTURE, folder / FIXTURE.name)
    return folder / FIXTURE.name


def the_same_game_today():
    session = engine.new_session("dicetower", seed=11, options={"start": 40})
    session.play(PullBlock())
    session.play(PullBlock(True))
    session.undo()
    session.play(PullBlock(), faces=[2, 5])
    session.play(PullBlock())
    return session


def test_the_fixture_really_is_format_1_with_two_field_players():
    header = header_of(FIXTURE)
    assert header["format"] == 1 and header["players"] == (("Player", False),)


def test_a_format_1_save_opens_and_plays_on(home):
    path = install(home)
    loaded = saves.open_save(SAVE_ID)
    expected = the_same_game_today()
    assert loaded.events == expected.events and loaded.state == expected.state and loaded.undos == 1
    assert engine.digest(loaded.state) == "dc146fb8dff3da8aaee1fe2601fb1f4b"  # what dicehall 939191d^ computed
    assert loaded.players == (engine.Player("Player", False, ""),) and loaded.labels.save_name == "format one night"
    loaded.play(PullBlock())
    saves.close_save(loaded)
    expected.play(PullBlock())
    assert saves.load_readonly(SAVE_ID).state == expected.state
    assert header_of(path)["format"] == 1  # appending never rewrites the header
    [info] = saves.list_saves()
    assert info.problem is None and info.name == "format one night"


def test_without_its_upcast_format_1_is_not_read(home, monkeypatch):
    install(home)
    monkeypatch.delitem(saves.UPCASTS, 1)
    with pytest.raises(saves.SaveError, match="save format 1 is too old to read"):
        saves.load_readonly(SAVE_ID)


def test_the_upcast_adds_an_empty_style_and_keeps_three_field_players():
    two = saves.UPCASTS[1]({"format": 1, "players": [["Ada", 1], ["Bot", False]], "seed": 3})
    assert two == {"format": 2, "players": [["Ada", True, ""], ["Bot", False, ""]], "seed": 3}
    # written between the style's arrival and format 2: already [name, bot, style]
    three = saves.UPCASTS[1]({"format": 1, "players": [["Ada", False, ""], ["b", True, "bold"]]})
    assert three["players"] == [["Ada", False, ""], ["b", True, "bold"]]


def rewrite_header(path, **changes):
    data = path.read_bytes()
    start = len(saves.MAGIC)
    end = start + 8 + int.from_bytes(data[start:start + 4], "big")
    header = msgpack.unpackb(data[start + 8:end])
    path.write_bytes(saves.MAGIC + saves.frame(dict(header, **changes)) + data[end:])


def test_new_saves_are_format_2_with_three_field_players():
    session = saves.new_save("dicetower", name="new", seed=1)
    saves.close_save(session)
    header = header_of(session.journal.path)
    assert saves.FORMAT == 2 and header["format"] == 2 and header["players"] == (("Player", False, ""),)


def test_format_2_needs_three_field_players(home):
    session = saves.new_save("dicetower", name="strict", seed=1)
    saves.close_save(session)
    rewrite_header(session.journal.path, players=[["Player", False]])
    with pytest.raises(saves.SaveError, match="a player in the header is not readable"):
        saves.load_readonly(session.labels.save_id)


def test_a_newer_format_is_refused_with_its_version(home):
    session = saves.new_save("dicetower", name="future", seed=1)
    saves.close_save(session)
    rewrite_header(session.journal.path, format=3)
    with pytest.raises(saves.SaveError, match=r"made by a newer dicehall \(save format 3\); this one reads format 2"):
        saves.open_save(session.labels.save_id)
