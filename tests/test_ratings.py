"""The hall's ratings (saves/hall/ratings.py, rating_files.py, `dicehall ratings`): rated games
between two identities and bots played through the public API, checked against openskill computed
here from the same results; a rebuild from the logs gives the same numbers; `ratings --json`."""
from __future__ import annotations

import json
import os
import random

import pytest
from openskill.models import PlackettLuce

from dicehall.cli import main
from dicehall.saves.hall import Hall
from dicehall.saves.hall.rating_files import hall_ratings, read_results, rebuild
from dicehall.saves.hall.ratings import BOT_MU, BOT_SIGMA, PROVISIONAL_GAMES, RatedGame, RatedSeat, rate_all, shown
from tests.hallhelpers import play_last_commands, play_until_over


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")  # a box: names are the keys'
    return Hall(tmp_path / "hall")


def towers(hall, monkeypatch, light: str, dark: str) -> str:
    """A whole Towers game between two keys (each its own terminal), each playing its last legal
    command: the same moves every time, and Light wins 3 to 2."""
    monkeypatch.setenv("DICEHALL_PLAYER", light)
    first = hall.host("towers", ["player", "open"], light)
    monkeypatch.setenv("DICEHALL_PLAYER", dark)
    play_last_commands({0: first, 1: hall.join(first.id, name=dark)})
    return first.id


def against_bots(hall, monkeypatch, who: str, game: str, styles: list[str], seed: int) -> str:
    """A whole game of `who` against bots of these styles, every seat's move a random legal one."""
    monkeypatch.setenv("DICEHALL_PLAYER", who)
    table = hall.host(game, ["player", *(f"bot:{style}" for style in styles)], who)
    play_until_over({0: table}, random.Random(seed))
    table.close()
    return table.id


class Expected:
    """openskill's ratings, worked out here from each game's seats and the engine's winners."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[tuple[str, str], tuple[float, float, int]] = {}

    def played(self, hall, game_id: str, seats: list[str]) -> None:
        """`seats`: a person's name, or "bot:STYLE"."""
        session = hall.finished_session(game_id)
        winners = set(session.outcome.winners)
        game = session.game.ID
        teams = []
        for who in seats:
            if who.startswith("bot:"):
                teams.append([self.model.rating(mu=BOT_MU[game][who[4:]], sigma=BOT_SIGMA)])
            else:
                mu, sigma, _ = self.ratings.get((game, who), (25.0, 25 / 3, 0))
                teams.append([self.model.rating(mu=mu, sigma=sigma)])
        ranks = [0 if n in winners or not winners else 1 for n in range(len(seats))]
        for who, team in zip(seats, self.model.rate(teams, ranks=ranks)):
            if not who.startswith("bot:"):
                games = self.ratings.get((game, who), (0, 0, 0))[2]
                self.ratings[(game, who)] = (team[0].mu, team[0].sigma, games + 1)


def figures(found) -> dict:
    return {(r.game, r.player): (pytest.approx(r.mu, abs=1e-9), pytest.approx(r.sigma, abs=1e-9), r.games)
            for r in found.table()}


def rated_hall(hall, monkeypatch) -> Expected:
    """Ann and Bob at Towers (each wins as Light), each against a Towers bot, and Ann in a wager of
    three seats with two bots: every game rated when it ends."""
    expected = Expected()
    for light, dark in (("ann", "bob"), ("bob", "ann"), ("ann", "bob")):
        expected.played(hall, towers(hall, monkeypatch, light, dark), [light, dark])
    expected.played(hall, against_bots(hall, monkeypatch, "ann", "towers", ["hard"], 1), ["ann", "bot:hard"])
    expected.played(hall, against_bots(hall, monkeypatch, "bob", "towers", ["easy"], 2), ["bob", "bot:easy"])
    expected.played(hall, against_bots(hall, monkeypatch, "ann", "wager", ["cautious", "best"], 3),
                    ["ann", "bot:cautious", "bot:best"])
    return expected


def test_rated_games_between_two_keys_and_bots_are_openskills_ratings(hall, monkeypatch):
    expected = rated_hall(hall, monkeypatch)
    results, problems = read_results(hall)
    assert len(results) == 6 and problems == []  # each game rated when it ended, by its revealing terminal
    found = hall_ratings(hall)
    assert figures(found) == {key: (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9), games)
                              for key, (mu, sigma, games) in expected.ratings.items()}
    assert set(figures(found)) == {("towers", "ann"), ("towers", "bob"), ("wager", "ann")}  # bots are not rated
    ann = found.ratings[("towers", "ann")]
    assert ann.games == 4 and ann.provisional and ann.words() == f"{shown(ann.mu):,}?"
    # the change each game made: the first game moved both from the start
    first = found.history[0]
    assert found.change_words(first.commitment) == (
        f"Towers ratings: ann 1,500? -> {found.changes[first.commitment][0].after.words()}, "
        f"bob 1,500? -> {found.changes[first.commitment][1].after.words()}")


def test_a_rebuild_from_the_logs_gives_the_same_numbers(hall, monkeypatch):
    rated_hall(hall, monkeypatch)
    before = figures(hall_ratings(hall))
    rebuilt = rebuild(hall)
    assert (rebuilt.rated, rebuilt.not_rated) == (6, 0)
    assert figures(rebuilt.ratings) == before
    (hall.folder / "ratings" / str(os.getuid())).unlink()  # the history gone: the games themselves remain
    assert figures(rebuild(hall).ratings) == before
    assert figures(hall_ratings(hall)) == before


def test_a_game_not_rated_at_its_end_is_rated_at_the_next_look(hall, monkeypatch):
    towers(hall, monkeypatch, "ann", "bob")
    (hall.folder / "ratings" / str(os.getuid())).unlink()  # as if its terminal went before it could
    found = hall_ratings(hall)
    assert [(r.player, r.games) for r in found.table()] == [("ann", 1), ("bob", 1)]
    assert len(read_results(hall)[0]) == 1  # and kept


def test_a_rating_is_provisional_until_enough_games():
    seats = (RatedSeat("ann", 0), RatedSeat("Bot", 1, bot="easy"))
    results = [RatedGame(f"game{n:02d}", f"{n:064x}", "towers", 1000.0 + n, seats) for n in range(PROVISIONAL_GAMES)]
    before = rate_all(results[:-1]).ratings[("towers", "ann")]
    after = rate_all(results).ratings[("towers", "ann")]
    assert before.provisional and before.words() == f"{before.value:,}?"
    assert not after.provisional and after.words() == f"{after.value:,}" and after.games == PROVISIONAL_GAMES
    # the order is the games' end, whatever order the results were written in; a copy counts once
    shuffled = rate_all(list(reversed(results)) + results[:1])
    assert shuffled.ratings[("towers", "ann")] == after and shuffled.copies == 1


def test_every_bots_style_has_its_measured_rating_and_the_docs_table_agrees():
    """BOT_MU is measured (tests/perf/bot_ratings.py): each style of a game of two seats or more has a
    value, and docs/hall.md's table of the measurement shows the same numbers."""
    import pathlib
    import re

    from dicehall import engine
    from dicehall.engine.games import CATALOGUE

    styles = {(entry.id, style) for entry in CATALOGUE if entry.playable and entry.several_players
              for style in getattr(engine.get_game(entry.id), "BOT_STYLES", ())}
    fixed = {(game, style) for game, by_style in BOT_MU.items() for style in by_style}
    assert styles and styles == fixed  # a new style gets a measured rating, never the default by chance
    docs = (pathlib.Path(__file__).parents[1] / "docs" / "hall.md").read_text(encoding="utf-8")
    docs = docs.split("\n## Ratings\n")[1].split("\n## ")[0]
    titles = {entry.title: entry.id for entry in CATALOGUE}
    table = {(titles[title], style): int(value.replace(",", ""))
             for title, style, value in re.findall(r"^\| ([^|]+?) \| `(\w+)` \| ([\d,]+) \|", docs, re.M)}
    assert table == {(game, style): shown(BOT_MU[game][style]) for game, style in fixed}


def test_off_a_box_the_identity_is_the_account_and_only_its_games_against_bots_are_rated(hall, monkeypatch):
    import pwd

    monkeypatch.setenv("DICEHALL_PLAYER", "")
    account = pwd.getpwuid(os.getuid()).pw_name
    alone = hall.host("towers", ["player", "bot:medium"], "Zed (typed)")
    play_until_over({0: alone}, random.Random(1))
    alone.close()
    both = hall.host("towers", ["player", "open"], "Ann")  # two typed names, one account: not two identities
    other = hall.join(both.id, name="Bob")
    play_until_over({0: both, 1: other}, random.Random(2))
    both.close(), other.close()
    found = hall_ratings(hall)
    assert [(r.player, r.games) for r in found.table()] == [(account, 1)]


def test_ratings_json_and_table_on_the_command_line(hall, monkeypatch, capsys):
    rated_hall(hall, monkeypatch)
    capsys.readouterr()
    assert main(["--hall", str(hall.folder), "ratings", "towers", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rated_games"] == 6 and data["problems"] == []
    assert [(r["player"], r["games"], r["provisional"]) for r in data["ratings"]] == [
        (r.player, r.games, True) for r in hall_ratings(hall).table("towers")]
    assert {r["game"] for r in data["ratings"]} == {"towers"} and len(data["games"]) == 5
    assert all(isinstance(r["rating"], int) for r in data["ratings"])
    assert main(["--hall", str(hall.folder), "ratings"]) == 0
    out = capsys.readouterr().out
    assert "ratings from 6 rated games" in out and "Wager" in out and "RATING" in out
    assert main(["--hall", str(hall.folder), "ratings", "--rebuild"]) == 0
    assert "rebuilt from 6 verified games" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # a usage error, as argparse's own
        main(["--hall", str(hall.folder), "ratings", "chess"])
    assert "no game 'chess'" in capsys.readouterr().err


def test_a_person_whose_seat_went_to_a_bot_for_being_idle_comes_last_and_the_bot_is_not_rated(hall, monkeypatch):
    from tests.test_hall_social import Clock, set_idle

    set_idle(hall, 5)
    clock = Clock(monkeypatch)
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    ann = hall.host("towers", ["player", "open"], "ann")
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    bob = hall.join(ann.id, name="bob")
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    ann.follow()
    if ann.to_act != ann.seat:
        bob.play(bob.session.commands()[0])
        ann.follow()
    ann.play(ann.session.commands()[0])  # bob's turn now, and bob does not move
    clock.now += 6 * 60
    ann.claim_idle("bot")
    bob.close()
    play_last_commands({0: ann})  # ann plays on against the bot in bob's seat
    found = hall_ratings(hall)
    rated = found.history[0]
    assert [(seat.who, seat.bot) for seat in rated.seats] == [("ann", None), ("bob", None)]
    assert rated.seats[1].place > rated.seats[0].place  # bob last, whatever the bot did for him
    model = PlackettLuce()
    ann_now, bob_now = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert (found.ratings[("towers", "ann")].mu, found.ratings[("towers", "bob")].mu) == pytest.approx(
        (ann_now[0].mu, bob_now[0].mu))


def test_a_result_appended_while_a_rebuild_renames_the_file_lands_in_the_new_file(hall, monkeypatch):
    from dicehall.saves.hall import rating_files

    towers(hall, monkeypatch, "ann", "bob")
    kept = read_results(hall)[0]
    monkeypatch.setattr(rating_files, "rate_at_end", lambda *args: None)
    later = towers(hall, monkeypatch, "bob", "ann")  # not rated at its end
    append = rating_files._append_once
    raced = []

    def rebuilt_meanwhile(log, rated):
        if not raced:  # the file this append holds is replaced under it, without this game
            raced.append(rating_files._write_all(hall, kept))
        return append(log, rated)

    monkeypatch.setattr(rating_files, "_append_once", rebuilt_meanwhile)
    assert rating_files.rate_finished(hall, later) is not None
    assert [rated.id for rated in read_results(hall)[0]] == [kept[0].id, later]
