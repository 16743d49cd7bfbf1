"""Statistics as a projection of the saves (issue #25): a folder of scripted saves (wins, losses,
streaks across days, abandoned games, bots' games, a daily deal, damaged and copied files) gives
exact figures, in words and through --json; hostile saves and a hostile index never crash the
counts nor count twice."""
from __future__ import annotations

import json
import os
import shutil
import time

import msgpack
import pytest

from dicehall import saves
from dicehall.cli import main
from dicehall.engine.bots import troll as troll_bot
from dicehall.engine.chance import daily_seed
from dicehall.engine.core import Player
from dicehall.engine.games.wager import EndTurn, Roll, Wager
from dicehall.saves import results as results_module
from dicehall.saves.stats import ABANDONED_DAYS, collect, measure_chart, sequence_chart

KEYS = {"r": Roll(), "w": Wager(), "e": EndTurn()}
DAY = 86400
NOW = time.time()
# Scripted wagers for Ann (seat 0) against Bob (each with the dice and keys that end it so):
WIN_FORTUNE = ([3, 3, 1, 3], "rw re r")  # Ann wins by Outrageous Fortune with 9
WIN_20 = ([5, 5, 1, 4, 5, 1, 1], "rw re rw re r")  # Ann wins with 20
LOSS = ([2, 6, 1, 6, 6], "rw re rw")  # Ann's mark of the beast: Bob wins by default
UNFINISHED = ([4], "r")


def wager(name, script, days_ago, bob_bot=True, ann=Player("Ann"), hint=False):
    """A save of a scripted wager, last played `days_ago` days before NOW."""
    dice, keys = script
    bob = Player("Bob", True, "bold") if bob_bot else Player("Bob")
    session = saves.new_save("wager", name=name, seed=1, players=[ann, bob], dice=list(dice))
    keys = keys.replace(" ", "")
    for n, key in enumerate(keys):
        if hint and n == 1:
            saves.record_assist(session, "hint")
        session.play(KEYS[key])
    saves.close_save(session)
    path = saves.find_save(session.labels.save_id)
    os.utime(path, (NOW - days_ago * DAY, NOW - days_ago * DAY))
    return path


def figures(tally):
    streaks = tally.streaks()
    return (tally.played, tally.won, tally.lost, tally.drawn, tally.abandoned, tally.in_progress, tally.win_percent,
            tally.won_no_assist, streaks["current"]["kind"], streaks["current"]["length"], streaks["longest_won"],
            streaks["longest_lost"], tally.best)


@pytest.fixture
def folder():
    """Ann's wagers over ten days, oldest first: W W L L L W W(hinted) W (against Bob, a person), one abandoned (20 days
    untouched) and one in progress; a game of bots only; a copy of one save; two damaged files."""
    paths = [
        wager("w1", WIN_FORTUNE, 10),
        wager("w2", WIN_20, 9),
        wager("l1", LOSS, 8),
        wager("l2", LOSS, 7),
        wager("l3", LOSS, 6),
        wager("w3", WIN_FORTUNE, 5),
        wager("w4", WIN_20, 4, hint=True),
        wager("w5", WIN_FORTUNE, 3, bob_bot=False),  # two people: Bob loses this one
        wager("old", UNFINISHED, ABANDONED_DAYS + 6),
        wager("fresh", UNFINISHED, 0.5),
        wager("bots", WIN_20, 2, ann=Player("Cy", True, "best")),
    ]
    shutil.copy2(paths[0], paths[0].with_name("copied-w1.dhs"))  # the same game under another name
    saves.saves_dir().joinpath("junk.dhs").write_bytes(b"not a save at all")
    bad = saves.saves_dir() / "cut.dhs"
    bad.write_bytes(paths[2].read_bytes()[:-3] + b"\xff\xff\xff")  # the last record's bytes damaged
    return paths


def test_exact_figures_from_a_folder_of_scripted_saves(folder):
    stats = collect(now=NOW)
    [game] = stats.games
    assert game.game == "wager" and game.variant == ""
    # 8 finished: W W L L L W W W (w5 counts for Ann; Bob is a person there and lost)
    assert figures(game) == (10, 5, 3, 0, 1, 1, 62.5, 4, "won", 3, 3, 3, 20)
    assert [sequence_chart(game)] == ["W W L L L W W W"]
    ann, bob = stats.players
    assert ann.player == "Ann" and figures(ann) == (10, 5, 3, 0, 1, 1, 62.5, 4, "won", 3, 3, 3, 20)
    assert bob.player == "Bob" and figures(bob) == (1, 0, 1, 0, 0, 0, 0.0, 0, "lost", 1, 0, 1, None)
    assert stats.bots_only == {"wager": 1}
    assert stats.counted == 11  # the copy counts once, the damaged never
    assert sorted(d["id"] for d in stats.damaged) == ["cut", "junk"]


def test_a_hinted_win_is_not_a_win_without_assist(folder):
    stats = collect(now=NOW)
    hinted = saves.load_readonly("w4")
    assert hinted.outcome.winners == (0,) and [k for k, _ in hinted.labels.assists] == ["hint"]
    assert stats.games[0].won == 5 and stats.games[0].won_no_assist == 4


def test_an_undo_is_an_assist_too():
    session = saves.new_save("wager", name="undone", seed=1, players=[Player("Ann"), Player("Bob", True, "bold")],
                             dice=[3, 3, 1, 3])
    session.play(Roll())
    session.undo()
    for key in "rwrer":
        session.play(KEYS[key])
    assert session.outcome.winners == (0,) and session.undos == 1
    tally = collect().games[0]
    assert (tally.won, tally.won_no_assist) == (1, 0)


def test_the_same_figures_through_json(folder, capsys):
    assert main(["stats", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [game] = report["games"]
    assert {key: game[key] for key in ("played", "finished", "won", "lost", "abandoned", "in_progress", "win_percent",
                                        "won_no_assist", "current", "longest_won", "longest_lost", "recent")} == {
        "played": 10, "finished": 8, "won": 5, "lost": 3, "abandoned": 1, "in_progress": 1, "win_percent": 62.5,
        "won_no_assist": 4, "current": {"kind": "won", "length": 3}, "longest_won": 3, "longest_lost": 3,
        "recent": "WWLLLWWW"}
    assert game["best"] == {"measure": "winning total", "fewest_best": False, "value": 20}
    assert [p["player"] for p in report["players"]] == ["Ann", "Bob"]
    assert report["bots_only"] == {"wager": 1} and report["abandoned_after_days"] == ABANDONED_DAYS
    assert [d["id"] for d in report["damaged"]] == ["cut", "junk"]


def test_one_player_and_one_game(folder, capsys):
    assert main(["stats", "wager", "--player", "Bob", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [p["player"] for p in report["players"]] == ["Bob"]
    assert report["games"][0]["played"] == 1  # the one game Bob played
    assert main(["stats", "troll", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == []


def test_the_words(folder, capsys):
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= 79 for line in lines)
    assert "Dead Man's Wager" in lines
    assert "  played 10: won 5, lost 3, abandoned 1, in progress 1; win 62.5% of 8 finished" in lines
    assert "  won with no assist 4" in lines
    assert "  streaks: now won 3; longest won 3, lost 3" in lines
    assert "  best: 20 winning total (most is best)" in lines
    assert "  recent (oldest first): W W L L L W W W" in lines
    assert "Games of bots only (not counted above): wager 1" in lines
    assert "DAMAGED SAVES (listed, not counted)" in lines


def test_a_bad_argument_gets_the_usage(capsys):
    for argv, said in ((["stats", "chess"], "dicehall: no game 'chess' (games: dicetower"),
                       (["stats", "--player", " "], "dicehall: --player needs a name")):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        err = capsys.readouterr().err
        assert exited.value.code == 2 and err.startswith("usage: dicehall stats") and said in err


def test_nothing_yet(capsys):
    assert main(["stats"]) == 0
    assert "no finished or unfinished game of a person to count yet" in capsys.readouterr().out


def test_the_daily_deal_is_known_by_its_seed_and_listed_by_date():
    day = "2026-11-20"
    session = saves.new_save("troll", name=f"daily {day}", seed=daily_seed("troll", day))
    while session.outcome is None:
        session.play(troll_bot.choose(session.state))
    fake = saves.new_save("troll", name="daily 2026-11-21", seed=5)  # the name alone is no daily deal
    fake.play(troll_bot.choose(fake.state))
    stats = collect()
    [deal] = stats.daily
    cards = len(session.state.deck)
    assert deal["date"] == day and deal["game"] == "troll" and deal["players"] == ["Player"]
    assert deal["result"] == ("won" if session.outcome.winners else "lost") and deal["measure"] == cards
    troll = stats.games[0]
    assert troll.variant == "standard" and troll.best == cards and troll.measures == [cards]
    assert measure_chart(troll) == f"cards left (oldest first): [.] from {cards} to {cards}"


def test_todays_winnable_deal_is_that_days_daily_deal_too():
    # its seed is the one the search chose; the search began at the day's seed (winnable_from)
    from dicehall.engine.analysis import winnable

    day = "2026-11-20"
    deal = winnable.choose("troll", daily_seed("troll", day), {})
    session = saves.new_save("troll", name=f"daily {day}, winnable", seed=deal.seed, options=deal.options)
    session.play(troll_bot.choose(session.state))
    [daily] = collect().daily
    assert daily["date"] == day and daily["game"] == "troll" and daily["result"] == "in progress"


def test_the_index_makes_a_second_count_read_no_save(folder, monkeypatch):
    for path in saves.saves_dir().glob("*.dhs"):  # old enough to be indexed
        os.utime(path, (NOW - 3 * DAY, NOW - 3 * DAY))
    monkeypatch.setattr(results_module, "RACY_NS", 0)
    first = collect(now=NOW).as_dict()
    assert (saves.saves_dir() / results_module.RESULTS_NAME).is_file()
    monkeypatch.setattr(results_module, "build_session", lambda *a, **k: pytest.fail("a save was read again"))
    assert collect(now=NOW).as_dict() == first


NESTED: list = [1]
for _ in range(40):
    NESTED = [NESTED]


@pytest.mark.parametrize("crafted", [
    b"\xc1" * 10,
    msgpack.packb({"format": 1, "saves": []}),
    msgpack.packb({"format": 99, "saves": {}}),
    msgpack.packb(NESTED),
])
def test_a_damaged_or_crafted_index_is_read_again_from_the_saves(folder, crafted):
    expected = collect(now=NOW).as_dict()
    (saves.saves_dir() / results_module.RESULTS_NAME).write_bytes(crafted)
    assert collect(now=NOW).as_dict() == expected


def test_crafted_index_entries_are_never_trusted(folder, monkeypatch):
    monkeypatch.setattr(results_module, "RACY_NS", 0)
    for path in saves.saves_dir().glob("*.dhs"):
        os.utime(path, (NOW - 3 * DAY, NOW - 3 * DAY))
    expected = collect(now=NOW).as_dict()
    index_path = saves.saves_dir() / results_module.RESULTS_NAME
    index = msgpack.unpackb(index_path.read_bytes())
    wrong = [("winners", [0, 0]), ("winners", [7]), ("players", [["Ann", "yes"], ["Bob", True]]),
             ("players", [["\x1b[31mAnn", False], ["Bob", True]]), ("measures", ["20", None]), ("undos", -1),
             ("assists", {"cheat": 1}), ("game", "chess"), ("summary", 5), ("finished", 1), ("undos", 2 ** 50)]
    good = sorted(name for name, entry in index["saves"].items() if entry[-1] is None)  # no problem
    assert len(good) >= len(wrong)
    for (field, value), name in zip(wrong, good):
        index["saves"][name][1 + results_module.ENTRY_FIELDS.index(field)] = value
    index_path.write_bytes(msgpack.packb(index))
    assert collect(now=NOW).as_dict() == expected


def test_hostile_saves_never_crash_the_counts_nor_count_twice(folder):
    folder_path = saves.saves_dir()
    os.symlink(folder[0], folder_path / "link.dhs")  # a link to a save is not a second game
    os.link(folder[1], folder_path / "hard.dhs")  # nor a second name of the same file
    os.mkfifo(folder_path / "fifo.dhs")  # never waited on
    (folder_path / "dir.dhs").mkdir()
    (folder_path / "empty.dhs").write_bytes(b"")
    (folder_path / "\udcff.dhs").write_bytes(b"x")  # a name that is not UTF-8
    stats = collect(now=NOW)
    assert figures(stats.games[0])[:3] == (10, 5, 3)
    assert stats.counted == 11


def test_ruling_an_abandoned_game_is_no_loss_and_breaks_no_streak():
    wager("a", WIN_20, 30)
    wager("b", UNFINISHED, 29)  # abandoned between two wins
    wager("c", WIN_FORTUNE, 1)
    tally = collect(now=NOW).games[0]
    assert (tally.won, tally.lost, tally.abandoned, tally.streaks()["longest_won"]) == (2, 0, 1, 2)


def test_ruling_the_dice_tower_always_falls_so_it_counts_as_lost_and_its_figure_is_the_most_pulls():
    from dicehall.engine.games.dicetower import PullBlock

    pulls = []
    for seed in (1, 2):
        session = saves.new_save("dicetower", name=f"t{seed}", seed=seed, options={"start": 10})
        while session.outcome is None:
            session.play(PullBlock())
        pulls.append(session.state.pulls)
    [tally] = collect().games
    assert (tally.won, tally.lost, tally.best, tally.variant) == (0, 2, max(pulls), "tower from 10")


def test_ruling_a_name_holding_two_seats_counts_once_for_that_player():
    session = saves.new_save("wager", name="self", seed=1, players=[Player("Ann"), Player("Ann")], dice=WIN_20[0])
    for key in WIN_20[1].replace(" ", ""):
        session.play(KEYS[key])
    [game], [ann] = collect().games, collect().players
    assert (game.played, game.won, ann.player, ann.played, ann.won) == (1, 1, "Ann", 1, 1)


def test_one_save_is_one_save_in_the_words(capsys):
    session = saves.new_save("troll", name="only", seed=5)
    session.play(troll_bot.choose(session.state))
    saves.close_save(session)
    assert main(["stats"]) == 0
    assert "from 1 save in " in capsys.readouterr().out
