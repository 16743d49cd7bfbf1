"""`summary` reads a text record (.dht) as `verify` does (issue #31: it once said "not a dicehall
replay" for a record verify accepts): for every game, off a box by path and on a box by name."""
from __future__ import annotations

import pytest

from dicehall import saves
from dicehall.cli import main
from tests.test_text_records import EVERY_GAME, saved_game


@pytest.mark.parametrize("game", EVERY_GAME)
def test_summary_reads_every_text_record_verify_accepts(game, tmp_path, capsys, monkeypatch):
    session = saved_game(game)
    saves.close_save(session)
    record = tmp_path / f"{game}.dht"
    assert main(["export", session.labels.save_id, "--text", "-o", str(record)]) == 0
    noted = tmp_path / f"{game} noted.dht"  # a BOM, Windows line ends and blank lines before it, as pasted
    noted.write_bytes(b"\xef\xbb\xbf\r\n" + record.read_bytes().replace(b"\n", b"\r\n"))
    capsys.readouterr()
    for path in (record, noted):
        assert main(["verify", str(path)]) == 0
        assert capsys.readouterr().out.startswith("ok: ")
        assert main(["summary", str(path)]) == 0, capsys.readouterr().err
        out = capsys.readouterr()
        assert out.err == "" and out.out.startswith(session.game.TITLE), out


def test_summary_reads_a_text_record_of_the_players_folder_by_name_on_a_box(home, capsys, monkeypatch):
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    session = saved_game("dicetower")
    saves.close_save(session)
    assert main(["export", session.labels.save_id, "--text", "-o", "tower.dht"]) == 0  # into ann's replays folder
    capsys.readouterr()
    assert main(["verify", "tower.dht"]) == 0 and capsys.readouterr().out.startswith("ok: ")
    assert main(["summary", "tower.dht"]) == 0
    assert capsys.readouterr().out.startswith("Dice Tower")
