"""The ratings in the app at 80x24: the change a hall game's screen shows at its end, and the
ratings table the scores screen's `t` opens, its names drawn as text, never markup."""
from __future__ import annotations

from dicehall.saves import MAGIC, frame, parse_save
from dicehall.saves.hall.rating_files import hall_ratings
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.hall.ratings import HallRatingsScreen, rating_row
from dicehall.tui.screens.hall.scores import HallScoresScreen
from tests.apphelpers import drive, drive_hall, screen_text, status, until
from tests.test_ratings import hall, towers  # noqa: F401  (hall: a fixture)
from tests.test_ratings_attacker import crafted, ratings_file


def keyed_towers(hall, monkeypatch):
    """A Towers game on a box between ann's key (hosting) and bob's; the player is ann after it."""
    monkeypatch.setenv("DICEHALL_HALL", str(hall.folder))
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    ann = hall.host("towers", ["player", "open"], "ann")
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    bob = hall.join(ann.id, name="bob")
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    return ann, bob


def play_out(ann, bob, moves: int = 1000) -> None:
    """Up to `moves` moves, both playing their last legal command (to the end: ann (Light) wins 3 to 2)."""
    while not ann.finished and moves > 0:
        for game in (ann, bob):
            game.follow()
        mover = ann if ann.my_turn else bob
        if mover.my_turn:
            mover.play(mover.session.commands()[-1])
            moves -= 1
    bob.follow()


def ratings_line(hall) -> str:
    found = hall_ratings(hall, catch_up=False)
    ann_now, bob_now = found.ratings[("towers", "ann")], found.ratings[("towers", "bob")]
    assert ann_now.value > 1500 > bob_now.value
    return f"Towers ratings: ann 1,500? -> {ann_now.words()}, bob 1,500? -> {bob_now.words()}"


def test_the_game_over_screen_shows_the_ratings_change(hall, monkeypatch):
    ann, bob = keyed_towers(hall, monkeypatch)
    play_out(ann, bob)
    bob.close()
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await until(pilot, lambda: "ratings" in status(pilot.app))
        return screen_text(pilot.app)

    screen = drive_hall(app, steps)
    assert ratings_line(hall) in screen.splitlines()[-2]  # above the footer, at 80 columns
    assert "ann (Light) wins 3 to 2" in screen


def test_a_watcher_sees_the_ratings_change_at_the_end_as_the_players_do(hall, monkeypatch, capsys):
    from dicehall.cli import main

    ann, bob = keyed_towers(hall, monkeypatch)
    play_out(ann, bob, moves=2)
    monkeypatch.setenv("DICEHALL_PLAYER", "carol")
    app = DicehallApp(watch=hall.watch(ann.id))

    async def steps(pilot):
        await until(pilot, lambda: "live" in status(pilot.app))
        play_out(ann, bob)  # the players end it while carol watches
        ann.close(), bob.close()  # the seed revealed
        await until(pilot, lambda: "ratings" in status(pilot.app))
        return screen_text(pilot.app)

    screen = drive_hall(app, steps)
    assert "the game is over: ann (Light) wins 3 to 2." in screen and ratings_line(hall) in " ".join(screen.split())
    assert main(["watch", ann.id]) == 0  # off a terminal: the line after the result
    assert capsys.readouterr().out.splitlines()[-1] == f"over: ann (Light) wins 3 to 2; {ratings_line(hall)}"


def test_the_scores_screen_t_opens_the_ratings_table_names_as_text(hall, monkeypatch):
    towers(hall, monkeypatch, "ann", "bob")
    own = ratings_file(hall)
    kept = parse_save(own.read_bytes(), "x")
    evil = "[@click=app.quit]eve[/]"  # a name in the box's own file: shown as typed, never run as markup
    own.write_bytes(MAGIC + frame(kept.header) + b"".join(frame(r) for r in [*kept.records, crafted(evil)]))
    monkeypatch.setenv("DICEHALL_HALL", str(hall.folder))
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: "s Scores" in screen_text(pilot.app))
        await pilot.press("s")
        await until(pilot, lambda: "t Ratings" in screen_text(pilot.app))
        await pilot.press("t")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallRatingsScreen)
                    and "rated games" in screen_text(pilot.app))
        shown = screen_text(pilot.app)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScoresScreen))
        return shown

    screen = drive(app, steps)
    found = hall_ratings(hall, catch_up=False)
    assert "The hall's ratings: 2 rated games" in screen
    for rating in found.table():
        assert rating_row(rating).plain in screen
    assert "[@click=app.quit]" in screen  # as text, cut to its column
    assert "t Ratings" not in screen.splitlines()[-1]  # here already
    assert max(len(line) for line in screen.splitlines()) <= 80

