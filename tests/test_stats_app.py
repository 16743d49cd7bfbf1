"""The Stats screen at 80x24 (issue #25): opened from the launcher with s, counted in a worker, each
game's recent results as letters and its measure as a text chart, p and g choosing a player and a
game, keyboard only."""
from __future__ import annotations

import os
import time
from pathlib import Path

from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games.wager import EndTurn, Roll, Wager
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.stats import StatsScreen
from tests.apphelpers import drive, footer, screen_text, status, until

SNAPSHOTS = Path(__file__).parent / "snapshots"
KEYS = {"r": Roll(), "w": Wager(), "e": EndTurn()}
NOW = time.time()


def wager(name, dice, keys, days_ago, ann="Ann"):
    session = saves.new_save("wager", name=name, seed=1, players=[Player(ann), Player("Bob", True, "bold")],
                             dice=list(dice))
    for key in keys.replace(" ", ""):
        session.play(KEYS[key])
    saves.close_save(session)
    path = saves.find_save(session.labels.save_id)
    os.utime(path, (NOW - days_ago * 86400, NOW - days_ago * 86400))


def folder():
    win, loss = ([5, 5, 1, 4, 5, 1, 1], "rw re rw re r"), ([2, 6, 1, 6, 6], "rw re rw")
    for n, (script, ann) in enumerate([(win, "Ann"), (loss, "Ann"), (win, "Cy"), (win, "Ann"), (loss, "Cy")]):
        wager(f"g{n}", *script, days_ago=5 - n, ann=ann)
    (saves.saves_dir() / "junk.dhs").write_bytes(b"junk")


async def opened(pilot):
    await pilot.press("s")
    await until(pilot, lambda: isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.counted)
    await pilot.pause()


def test_s_opens_the_stats_with_each_games_chart_and_snapshot(snapshot):
    folder()

    async def steps(pilot):
        await opened(pilot)
        return screen_text(pilot.app), footer(pilot.app), status(pilot.app)

    text, keys, said = drive(DicehallApp(), steps)
    lines = text.splitlines()
    assert lines[0].strip() == "Statistics: every game, everyone"
    assert "   played 5: won 3, lost 2; win 60.0% of 5 finished" in lines
    assert "   recent (oldest first): W L W W L" in lines  # letters: no colour carries the result
    assert "   winning total (oldest first): [.-..-] from 20 to 20" in lines  # '-': a loss has no winning total
    assert all(len(line) <= 80 for line in lines) and len(lines) == 24
    assert "p Player" in keys and "g Game" in keys and "q Back" in keys
    assert said == "PgDn for more; p a player, g a game; q goes back"
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "stats.txt")


def test_p_and_g_choose_a_player_and_a_game_and_come_back_to_everyone():
    folder()

    async def steps(pilot):
        await opened(pilot)
        seen = []
        for key in ("p", "p", "p", "g", "g"):
            await pilot.press(key)
            await until(pilot, lambda: pilot.app.screen.counted and "counting" not in status(pilot.app))
            await pilot.pause()
            seen.append(screen_text(pilot.app))
        await pilot.press("q")
        return seen, type(pilot.app.screen).__name__

    (ann, cy, everyone, tower, wager_only), after = drive(DicehallApp(), steps)
    assert ann.splitlines()[0].strip() == "Statistics: every game, player Ann"
    assert "   played 3: won 2, lost 1; win 66.7% of 3 finished" in ann.splitlines()
    assert cy.splitlines()[0].strip() == "Statistics: every game, player Cy"
    assert "   played 2: won 1, lost 1; win 50.0% of 2 finished" in cy.splitlines()
    assert everyone.splitlines()[0].strip() == "Statistics: every game, everyone"
    assert tower.splitlines()[0].strip() == "Statistics: game dicetower, everyone"
    assert "no finished or unfinished game of a person to count yet" in tower
    assert wager_only.splitlines()[0].strip() == "Statistics: game wager, everyone"
    assert after == "LauncherScreen"


def test_the_help_says_how_the_saves_are_counted_and_how_the_chart_reads():
    async def steps(pilot):
        await opened(pilot)
        await pilot.press("question_mark")
        return screen_text(pilot.app)

    text = " ".join(line.strip(" \u2502") for line in drive(DicehallApp(), steps).splitlines())
    assert "untouched for 14 days is abandoned, not lost" in text
    assert "W won, L lost, D drawn" in text and "- where a game has none" in text


def test_nothing_to_count_and_no_player_to_choose():
    async def steps(pilot):
        await opened(pilot)
        await pilot.press("p")
        return screen_text(pilot.app), status(pilot.app)

    text, said = drive(DicehallApp(), steps)
    assert "no finished or unfinished game of a person to count yet" in text
    assert said == "Not now: no player to choose: no person's game is saved yet"


def test_hostile_names_are_shown_as_text_never_as_markup():
    wager("hostile", [5, 5, 1, 4, 5, 1, 1], "rw re rw re r", 1, ann="[bold]Ann[/bold] [@click=app.quit]x[/]")

    async def steps(pilot):
        await opened(pilot)
        await pilot.press("p")
        await until(pilot, lambda: "player [" in screen_text(pilot.app))
        return screen_text(pilot.app), pilot.app.is_running

    text, running = drive(DicehallApp(), steps)
    assert running and "[bold]Ann[/bold] [@click=app.quit]x[/]" in text
