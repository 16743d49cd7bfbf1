"""A hall journal's draft (issue #30): kept as the player types in a file of the PLAYER's own folder
(never in the hall's shared log, never seen by another player or a watcher), back in the box when
the player takes the seat again (q and `join ID`, a hang-up and back), gone once the entry is
saved; a damaged, huge or linked draft file is one line and an empty draft; on a box bob never
reads alice's."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from dicehall import saves
from dicehall.saves.hall import Hall
from dicehall.saves.hall.drafts import FOLDER, MAX_DRAFT_FILE, HallDraft
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.games import HallJournalScreen
from dicehall.tui.screens.hall.lobby import HallScreen
from tests.apphelpers import drive_hall, join_from_the_hall_screen, screen_text, settled, status, until
from tests.test_journal_app import type_text
from tests.test_signals import dicehall_in_a_terminal, hang_up, read_for

# no card asks for a pull: every card drawn is written about at once
DECK = {"title": "Harrow", "deck": "listed",
        "cards": [[f"{rank}C", "no-pull", f"Prompt {rank}."] for rank in range(2, 11)]}


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


def host(hall, name="ann"):
    return hall.host("journal", ["player"], name, options={"deck": DECK})


def host_at_an_entry(hall, name="ann"):
    """host's game with its first card drawn, played before the app opens where reaching an entry by
    keys is not the point (to_an_entry's keys cost about a fifth of a second of CPU a test)."""
    from dicehall.engine.games.journal import Draw, StartDay

    game = host(hall, name)
    game.play(StartDay())
    game.play(Draw())  # every card of DECK is written about at once
    assert game.session.state.phase == "entry"
    return game


def draft_files(home: Path) -> list[Path]:
    folder = home / FOLDER
    return sorted(folder.iterdir()) if folder.is_dir() else []


def box(pilot):
    return pilot.app.screen.query_one("#journal-entry")


async def to_an_entry(pilot):
    """Start days and draw until an entry is due (the day's die may ask for no card at first)."""
    for _ in range(20):
        phase = pilot.app.screen.session.state.phase
        if phase == "entry":
            return
        await pilot.press("d" if phase == "draw" else "n")
        await pilot.pause()
    raise AssertionError(screen_text(pilot.app))


async def write_and_leave(pilot, words):
    """Write `words` in the entry box, then q and yes: the draft is kept on the way out."""
    await to_an_entry(pilot)
    await pilot.press("w")
    await type_text(pilot, words)
    await pilot.press("escape", "q")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ConfirmScreen)
    await pilot.press("y")
    await pilot.pause()


async def shown(pilot):
    return box(pilot).text, status(pilot.app), isinstance(pilot.app.screen, HallJournalScreen)


def test_a_hall_journals_draft_survives_leaving_and_is_back_on_join_and_never_in_the_hall(hall, home):
    game = host_at_an_entry(hall)

    async def leave(pilot):
        await write_and_leave(pilot, "the lamp, q and u")

    drive_hall(DicehallApp(hall_game=game), leave)
    files = draft_files(home)
    assert [f.name for f in files] == [f"{game.id}-{game.fold.commitment[:12]}-seat1.json"]
    assert oct(files[0].stat().st_mode & 0o777) == "0o600"
    for path in hall.folder.rglob("*"):  # the shared hall holds no word of it: others read that folder
        assert not path.is_file() or b"the lamp" not in path.read_bytes(), path
    again = hall.join(game.id, name="ann")
    text, said, on_screen = drive_hall(DicehallApp(hall_game=again), shown)
    assert on_screen and text == "the lamp, q and u" and "draft is back" in said
    assert again.session.state.pages[-1].entry is None  # a draft is no event


def test_saving_the_entry_removes_the_draft_file_and_a_rewrite_is_kept_apart(hall, home):
    game = host_at_an_entry(hall)

    async def steps(pilot):
        await to_an_entry(pilot)
        await pilot.press("w")
        await type_text(pilot, "First.")
        await until(pilot, lambda: draft_files(home))  # the draft is written a moment after the last key (DRAFT_SECONDS)
        kept = [json.loads(f.read_bytes())["draft"] for f in draft_files(home)]
        await pilot.press("ctrl+s")
        await pilot.pause()
        after_save = draft_files(home)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await type_text(pilot, " Later.")  # the app closes with the rewrite under way
        return kept, after_save

    kept, after_save = drive_hall(DicehallApp(hall_game=game), steps)
    assert kept == ["First."] and after_save == []
    again = hall.join(game.id, name="ann")
    text, said, _ = drive_hall(DicehallApp(hall_game=again), shown)
    assert text == "First. Later." and "rewrite of entry 1 is back" in said
    assert again.session.state.pages[0].entry == "First."


def test_a_draft_survives_a_takeback(hall):
    game = host_at_an_entry(hall)

    async def steps(pilot):
        await to_an_entry(pilot)
        await pilot.press("w")
        await type_text(pilot, "half a thought")
        await pilot.press("escape", "u")  # a solo hall game's takeback is made at once
        await pilot.pause()
        return box(pilot).text, pilot.app.screen.session.state.phase, pilot.app.screen.session.labels.draft

    text, phase, kept = drive_hall(DicehallApp(hall_game=game), steps)
    assert phase == "draw" and kept == "half a thought" and text == "half a thought"


@pytest.mark.parametrize("content, line", [
    (b"{not json", "damaged (not dicehall's JSON)"),
    (b"[" * 60000, "damaged (not dicehall's JSON)"),  # nested past the recursion limit
    (b"\xff\xfe", "damaged (not dicehall's JSON)"),
    (json.dumps({"format": 9, "draft": "x"}).encode(), "a format unknown here"),
    (json.dumps({"format": 1, "draft": ["not", "text"]}).encode(), "damaged (its words are not text)"),
    (json.dumps({"format": 1, "draft": "x", "rewrite": [True, "y"]}).encode(), "damaged (its words are not text)"),
    (b" " * (MAX_DRAFT_FILE + 1), "larger than 64 KiB"),
])
def test_a_damaged_draft_file_is_one_line_and_an_empty_box(hall, home, content, line):
    game = host(hall)
    keeper = HallDraft(game.id, game.fold.commitment, 0)
    keeper.write("to be damaged", (0, ""))
    (draft_files(home)[0]).write_bytes(content)
    text, said, on_screen = drive_hall(DicehallApp(hall_game=game), shown)
    assert on_screen and text == ""
    assert said == f"your draft of game {game.id} was not read: {line}" and len(said) <= 78  # one line at 80x24


def test_hostile_words_in_a_draft_file_are_read_as_text_within_the_cap(hall, home):
    from dicehall.saves.draft_record import DRAFT_LIMIT

    game = host(hall)
    HallDraft(game.id, game.fold.commitment, 0).write("x", (0, ""))
    hostile = {"format": 1, "draft": "\x1b[31m[bold]red[/bold]\x07 [@click=app.quit]q[/]\n" + "y" * DRAFT_LIMIT * 3,
               "rewrite": [3, "\x1b]0;title\x07z"]}
    draft_files(home)[0].write_text(json.dumps(hostile))
    kept = HallDraft(game.id, game.fold.commitment, 0).read()
    assert kept.draft.startswith("[31m[bold]red[/bold] [@click=app.quit]q[/]\nyyy") and len(kept.draft) <= DRAFT_LIMIT
    assert "\x1b" not in kept.draft + kept.rewrite[1] and kept.rewrite == (3, "]0;titlez") and not kept.problem

    async def steps(pilot):
        waiting = status(pilot.app)
        await to_an_entry(pilot)
        box(pilot).move_cursor((0, 0))  # the box shows a draft from its end (the cursor there): look at its start
        await pilot.pause()
        return waiting, box(pilot).text, screen_text(pilot.app), isinstance(pilot.app.screen, HallJournalScreen)

    waiting, text, screen, still_here = drive_hall(DicehallApp(hall_game=game), steps)
    assert still_here and text == kept.draft  # a rewrite of a page not written yet is not taken up
    assert "it waits for the next entry" in waiting  # no entry was due when the seat was taken
    assert "[31m[bold]red[/bold]" in screen and "[@click=app.quit]q[/]" in screen  # shown as typed: no markup ran


def test_a_draft_file_or_folder_that_is_a_link_or_a_fifo_is_never_read_nor_written_through(hall, home, tmp_path):
    game = host(hall)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"format": 1, "draft": "someone else's words"}))
    keeper = HallDraft(game.id, game.fold.commitment, 0)
    (home / FOLDER).mkdir(parents=True)
    (home / FOLDER / keeper.name).symlink_to(secret)
    kept = keeper.read()
    assert kept.draft == "" and kept.problem == f"your draft of game {game.id} was not read: a symbolic link: refused"
    keeper.write("mine", (0, ""))  # the link is replaced by a file, the file it named untouched
    assert not (home / FOLDER / keeper.name).is_symlink() and "someone else" in secret.read_text()
    assert keeper.read().draft == "mine"
    (home / FOLDER / keeper.name).unlink()
    os.mkfifo(home / FOLDER / keeper.name)  # a FIFO in its place: refused at once, never waited on
    assert keeper.read().problem.endswith("was not read: not a regular file")
    (home / FOLDER / keeper.name).unlink()
    (home / FOLDER).rmdir()
    (home / FOLDER).symlink_to(tmp_path)  # the folder itself a link: refused, nothing written there
    assert keeper.read().problem.endswith("was not read: hall-drafts: a symbolic link: refused")
    with pytest.raises(saves.SaveError, match="a symbolic link: refused"):
        keeper.write("mine", (0, ""))
    assert not (tmp_path / keeper.name).exists()


def test_two_writers_of_one_draft_leave_one_whole_file_the_last_ones(hall, home):
    game = host(hall)
    first, second = (HallDraft(game.id, game.fold.commitment, 0) for _ in range(2))
    for n in range(30):  # the two take turns: each reads back whole what the other wrote last
        (first if n % 2 else second).write(f"words {n} " * 200, (n % 3, f"page {n}"))
        kept = (second if n % 2 else first).read()
        assert kept.draft == (f"words {n} " * 200).strip() and not kept.problem
        assert kept.rewrite == ((n % 3, f"page {n}") if n % 3 else (0, ""))
    assert [f.name for f in draft_files(home)] == [first.name]  # no temporary file left behind


def test_on_a_box_alices_draft_is_in_her_folder_and_bob_never_reads_it(hall, monkeypatch, home):
    monkeypatch.setenv("DICEHALL_PLAYER", "alice")
    game = host_at_an_entry(hall, "alice")

    async def leave(pilot):
        await write_and_leave(pilot, "alice only")

    drive_hall(DicehallApp(hall_game=game), leave)
    alices = home / "players" / "alice" / FOLDER
    assert [json.loads(f.read_bytes())["draft"] for f in alices.iterdir()] == ["alice only"]
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    assert HallDraft(game.id, game.fold.commitment, 0).read().draft == ""  # bob's own folder: nothing
    assert not (home / "players" / "bob" / FOLDER).exists()
    watched = drive_hall(DicehallApp(watch=hall.watch(game.id)), settled)
    assert "Journal" in watched and "alice only" not in watched  # bob watching sees the game, not her words
    with pytest.raises(saves.SaveError):  # nor can bob take alice's seat to read it
        hall.join(game.id, name="bob")


def state_of(hall_dir: Path, game_id: str):
    """The game's state as a watcher reads it from the log."""
    with Hall(hall_dir).watch(game_id) as watcher:
        return watcher.session.state


def test_a_hall_journals_draft_survives_a_hang_up(tmp_path, home):
    hall_dir = tmp_path / "hall"
    deck = tmp_path / "harrow.csv"
    deck.write_text("card,suite,action,description\n" + "".join(f"{r},clubs,no-pull,Prompt {r}.\n" for r in range(2, 11)))
    pid, fd = dicehall_in_a_terminal("--hall", str(hall_dir), "host", "journal", "--name", "ann",
                                     "--option", f"deck={deck}")
    try:
        assert b"DAY" in read_for(fd, 60, until=b"DAY"), "the app did not draw its screen"
        game_id = next((hall_dir / "games").glob("*.dhh")).stem
        deadline = time.monotonic() + 60
        state = state_of(hall_dir, game_id)
        while state.phase != "entry":  # each key once, when the game has taken the last (a busy machine is slow)
            os.write(fd, {"draw": b"d", "pull": b"r" if state.pull_due == "remove" else b"p"}.get(state.phase, b"n"))
            before = state
            while state == before:
                assert time.monotonic() < deadline, f"the game stayed at {state.phase}"
                read_for(fd, 0.2)
                state = state_of(hall_dir, game_id)
        os.write(fd, b"w")
        assert b"Escape leaves" in read_for(fd, 30, until=b"Escape leaves"), "the box did not open"
        os.write(fd, b"storm coming")
        assert b"coming" in read_for(fd, 30, until=b"coming"), "the words were not typed"  # the box's line drawn
    except BaseException:
        os.close(fd)
        raise
    hang_up(pid, fd)  # soon after the last key: before the draft's moment (DRAFT_SECONDS) is up
    game = Hall(hall_dir).join(game_id, name="ann")
    try:
        assert HallDraft(game_id, game.fold.commitment, 0).read().draft == "storm coming"
    finally:
        game.close()


def test_a_draft_that_cannot_be_kept_says_so_in_one_line_and_the_box_keeps_it(hall, home):
    game = host_at_an_entry(hall)
    home.mkdir(parents=True, exist_ok=True)
    (home / FOLDER).write_text("a file where the folder should be")

    async def steps(pilot):
        await to_an_entry(pilot)
        await pilot.press("w")
        await type_text(pilot, "still here")
        await pilot.press("escape")
        await pilot.pause()
        said = status(pilot.app)
        await pilot.press("q")  # leaving says the words would be lost
        await pilot.pause()
        asked = pilot.app.screen.question
        await pilot.press("n")
        await pilot.pause()
        return box(pilot).text, said, asked

    text, said, asked = drive_hall(DicehallApp(hall_game=game), steps)
    assert text == "still here" and said == "Not now: the draft was not kept: hall-drafts: not a folder: refused"
    assert asked.startswith("Your draft could not be kept (the status line said why): leaving loses it. Leave game")
    assert (home / FOLDER).read_text() == "a file where the folder should be"


def test_back_to_the_hall_screen_and_j_again_the_draft_is_back(hall):
    host_at_an_entry(hall, "Ann").close()  # Ann's seat waits: she takes it from the Hall screen
    app = DicehallApp()

    async def steps(pilot):
        await join_from_the_hall_screen(pilot, "Ann")
        await write_and_leave(pilot, "by the lamp")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        await pilot.press("escape")  # out of the Hall screen, then in again
        await pilot.pause()
        await join_from_the_hall_screen(pilot, "Ann")
        return await shown(pilot)

    text, said, _ = drive_hall(app, steps)
    assert text == "by the lamp" and "draft is back" in said


def test_the_draft_of_a_game_that_is_over_is_removed(hall, home):
    from dicehall.engine.games.journal import Draw, StartDay, WriteEntry

    game = hall.host("journal", ["player"], "ann", options={"deck": {
        "title": "Tide", "deck": "listed", "cards": [["2C", "no-pull", "What washed up?"]]}})
    HallDraft(game.id, game.fold.commitment, 0).write("left over", (0, ""))
    for command in (StartDay(), Draw(), WriteEntry("A bottle.")):  # the deck's one card, then it runs out
        game.play(command)
    while not game.finished:
        game.play(game.session.commands()[0])
    text, _, on_screen = drive_hall(DicehallApp(hall_game=game), shown)
    assert on_screen and text == "" and draft_files(home) == []
