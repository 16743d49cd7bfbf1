"""The hall's ratings tested as an attacker (saves/hall/rating_files.py): a forged result, a copied
game, a game whose seats are not identities, a log edited after the end, and crafted, damaged or
foreign ratings files never move a rating; each bad file is one line and its good part is kept."""
from __future__ import annotations

import json
import os
import random

import pytest

from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves.box import NotAllowedHere, allowed_command
from dicehall.saves.hall import HallError, commitment
from dicehall.saves.hall.rating_files import hall_ratings, rate_finished, read_results, rebuild
from dicehall.saves.hall.ratings import RATINGS_MODEL
from tests.hallhelpers import play_until_over
from tests.test_box_gate import box, forced  # noqa: F401  (box: a fixture)
from tests.test_ratings import against_bots, figures, hall, towers  # noqa: F401  (hall: a fixture)

STRANGER = 4242  # another Unix account: a member with a shell of their own


def log_path(hall, game_id: str):
    return hall.games / f"{game_id}.dhh"


def ratings_file(hall, uid: int | None = None):
    return hall.folder / "ratings" / str(os.getuid() if uid is None else uid)


def rewrite(path, header=None, change=lambda record: record, target=None) -> None:
    """Write the log at `path` again (to `target`), its header replaced and each record changed,
    framed properly: only its content is forged, never its framing."""
    parsed = parse_save(path.read_bytes(), "x")
    records = [change(dict(record)) for record in parsed.records]
    (target or path).write_bytes(MAGIC + frame(header or parsed.header) + b"".join(frame(r) for r in records))


def test_a_forged_result_does_not_verify_and_moves_no_rating(hall, monkeypatch):
    towers(hall, monkeypatch, "ann", "bob")
    lost = against_bots(hall, monkeypatch, "ann", "wager", ["best"], 7)
    before = figures(hall_ratings(hall))
    # the wager's moves and dice as they were, under a seed of the forger's own: the log folds (every
    # die is a die, the reveal matches its commitment) but its dice are not that seed's
    header = dict(parse_save(log_path(hall, lost).read_bytes(), "x").header, commitment=commitment(999))
    rewrite(log_path(hall, lost), header, lambda r: dict(r, seed=999) if r.get("op") == "reveal" else r,
            target=log_path(hall, "forged"))
    with pytest.raises(HallError):
        rate_finished(hall, "forged")
    assert figures(hall_ratings(hall)) == before  # the next look does not rate it either
    rebuilt = rebuild(hall)
    assert (rebuilt.rated, rebuilt.not_rated) == (2, 1) and figures(rebuilt.ratings) == before


def test_a_copied_game_is_rated_once(hall, monkeypatch):
    game_id = towers(hall, monkeypatch, "ann", "bob")
    before = figures(hall_ratings(hall))
    log_path(hall, "copy01").write_bytes(log_path(hall, game_id).read_bytes())
    assert rate_finished(hall, "copy01") is not None  # it verifies: it is the same game
    assert len(read_results(hall)[0]) == 1  # and its result is not written twice
    assert figures(hall_ratings(hall)) == before
    assert figures(rebuild(hall).ratings) == before


def test_typed_names_are_not_identities_on_a_box(hall, monkeypatch):
    monkeypatch.setenv("DICEHALL_PLAYER", "")  # hosted off a box: names typed
    first = hall.host("towers", ["player", "open"], "ann")
    second = hall.join(first.id, name="bob")
    play_until_over({0: first, 1: second}, random.Random(1))
    first.close(), second.close()
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")  # read on the box
    assert rate_finished(hall, first.id) is None
    assert hall_ratings(hall).table() == [] and rebuild(hall).not_rated == 1


@pytest.mark.parametrize("how", ["a log another account owns", "seats another account took"])
def test_a_game_whose_seats_are_not_this_accounts_keys_is_not_rated(hall, monkeypatch, how):
    game_id = towers(hall, monkeypatch, "ann", "bob")
    ratings_file(hall).unlink()  # the game as if never rated
    if how == "a log another account owns":  # a member with a shell wrote it, its seats the keys'
        os.chown(log_path(hall, game_id), STRANGER, -1)
    else:  # the seats marked as keys', taken by another account
        rewrite(log_path(hall, game_id), change=lambda r: dict(r, uid=STRANGER) if r.get("op") == "seat" else r)
    assert rate_finished(hall, game_id) is None
    assert hall_ratings(hall).table() == []
    assert (rebuild(hall).rated, rebuild(hall).not_rated) == (0, 1)


def test_a_log_edited_after_the_end_moves_no_rating(hall, monkeypatch):
    game_id = towers(hall, monkeypatch, "ann", "bob")  # ann (Light) wins
    before = figures(hall_ratings(hall))
    log = log_path(hall, game_id)
    data = log.read_bytes()
    # the seats' names swapped in place (a member with a shell can write the box's logs): Towers has
    # no dice, so the edited log still verifies, and would make bob the winner
    swap = {"ann": "bob", "bob": "ann"}
    rewrite(log, change=lambda r: dict(r, name=swap[r["name"]]) if r.get("op") == "seat" else r)
    assert figures(hall_ratings(hall)) == before  # rated when it ended, as it was then
    rebuilt = rebuild(hall)
    assert (rebuilt.rated, rebuilt.not_rated) == (0, 1)  # its digest is not the one rated: left out
    assert ("towers", "bob") not in {(r.game, r.player) for r in rebuilt.ratings.table() if r.games}
    # a record appended after the reveal: the log no longer verifies
    log.write_bytes(data + frame({"op": "play", "by": 1, "events": [[0]]}))
    with pytest.raises(HallError):
        rate_finished(hall, game_id)


def write_ratings(path, records, header=None) -> None:
    head = header or {"format": 2, "ratings": 1, "model": RATINGS_MODEL}
    path.write_bytes(MAGIC + frame(head) + b"".join(frame(r) for r in records))
    os.chmod(path, 0o640)


def crafted(who: str, pledge: str = "cd" * 32) -> dict:
    return {"op": "rated", "id": "zzzzzz", "commitment": pledge, "game": "towers", "ended": 1.0,
            "seats": [{"who": who, "place": 0}, {"who": "Bot", "place": 1, "bot": "random"}], "log": ""}


def test_crafted_and_damaged_ratings_files_are_one_line_each_and_the_good_part_is_kept(hall, monkeypatch):
    towers(hall, monkeypatch, "ann", "bob")
    before = figures(hall_ratings(hall))
    folder = hall.folder / "ratings"
    # another account's file on the box: not the box's ratings, not read
    write_ratings(folder / str(STRANGER), [crafted("ann")])
    os.chown(folder / str(STRANGER), STRANGER, -1)
    (folder / "notes.txt").write_text("hello")
    assert figures(hall_ratings(hall)) == before
    assert hall_ratings(hall).problems == ["ratings/notes.txt: not a ratings file's name: left alone"]
    (folder / "notes.txt").unlink()
    # our own file with a damaged tail: its good part is kept
    own = ratings_file(hall)
    good = own.read_bytes()
    damaged = bytearray(frame(crafted("ann", "ef" * 32)))
    damaged[-3] ^= 0xFF  # its checksum no longer matches
    own.write_bytes(good + bytes(damaged) + frame(crafted("ann", "ab" * 32)))
    found = hall_ratings(hall, catch_up=False)
    assert figures(found) == before and len(found.problems) == 1
    assert found.problems[0].startswith(f"ratings/{os.getuid()}: record 2 at byte")
    # a record whose name holds escapes: one line, the records after it not read
    write_ratings(own, parse_save(good, "x").records + [crafted("\x1b[2Jann"), crafted("ann", "ef" * 32)])
    found = hall_ratings(hall, catch_up=False)
    assert figures(found) == before
    assert found.problems[0] == (f"ratings/{os.getuid()}: record 2: a seat with no readable name: the records after "
                                 "it are not read (the games after it count once dicehall ratings --rebuild rewrites it)")
    rebuilt = rebuild(hall).ratings
    assert figures(rebuilt) == before and rebuilt.problems == []
    # a file others may write, a file too large, a file of another model: not read, one line each
    for damage, line in ((lambda: os.chmod(own, 0o660), "not written by its own account alone: not read"),
                         (lambda: os.truncate(own, 17 * 1024 * 1024), "too large"),
                         (lambda: write_ratings(own, [], {"format": 2, "ratings": 1, "model": "elo"}), "another rating model")):
        write_ratings(own, parse_save(good, "x").records)
        damage()
        found = hall_ratings(hall, catch_up=False)
        assert found.table() == [] and len(found.problems) == 1 and line in found.problems[0]


def test_a_ratings_folder_that_is_a_link_or_a_flood_is_one_line(hall, monkeypatch, tmp_path, capsys):
    from dicehall.cli import main
    from dicehall.saves.hall import rating_files

    towers(hall, monkeypatch, "ann", "bob")
    folder = hall.folder / "ratings"
    monkeypatch.setattr(rating_files, "MAX_FILES", 3)
    for n in range(5):
        (folder / f"{n + 1}").write_bytes(b"")
    assert hall_ratings(hall, catch_up=False).problems[0] == "ratings: 6 files, more than 3: the rest are not read"
    folder.rename(tmp_path / "elsewhere")
    folder.symlink_to(tmp_path / "elsewhere")  # a member's link to a folder of their choice
    capsys.readouterr()
    assert main(["--hall", str(hall.folder), "ratings"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "dicehall: ratings: a symbolic link: refused\n"


def test_off_a_box_a_file_rates_only_its_own_account(hall, monkeypatch):
    monkeypatch.setenv("DICEHALL_PLAYER", "")
    folder = hall.folder / "ratings"
    folder.mkdir(parents=True)
    write_ratings(folder / str(STRANGER), [crafted("root-or-anyone-else")])
    os.chown(folder / str(STRANGER), STRANGER, -1)
    found = hall_ratings(hall, catch_up=False)
    assert found.table() == []
    assert found.problems == [f"ratings/{STRANGER}: record 1: a player who is not this file's account: "
                              "the records after it are not read"]


def test_the_box_runs_ratings_but_not_a_rebuild(box, monkeypatch, capsys):
    from dicehall.saves.hall import Hall

    hall = Hall(box["hall"])
    towers(hall, monkeypatch, "ann", "bob")
    capsys.readouterr()
    assert forced("dicehall ratings towers --json", box, monkeypatch) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["player"], r["games"]) for r in data["ratings"]] == [("ann", 1), ("bob", 1)]
    written = ratings_file(hall).read_bytes()
    for typed in ("ratings --rebuild", "ratings ../x", "ratings --json --hall /tmp"):
        assert forced(typed, box, monkeypatch) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith("dicehall: ")
    assert ratings_file(hall).read_bytes() == written
    for words in (["ratings"], ["ratings", "towers"], ["ratings", "--json"], ["ratings", "towers", "--json"]):
        assert allowed_command(words) == words
    with pytest.raises(NotAllowedHere):
        allowed_command(["ratings", "--rebuild"])
