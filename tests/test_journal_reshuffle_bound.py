"""A reshuffled deck reshuffles at most `reshuffles` times (3 by default; dicehall's bound, issue #30):
the next time the deck runs out the game ends, the deck's ending. The rules play it, the sim's playout
plays the same (checked against whole games through the engine, for each shape it takes: a tower no
pull can fell, salvation after it, the shortcuts for a tower that may fall), and a game saved before
the bound (its deck's record without the key) reshuffles without end as it did, so it still loads."""
from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from dicehall import engine, replays, saves
from dicehall.engine.errors import DeckError
from dicehall.engine.games import journal
from dicehall.engine.games.journal import deck_summary, odds, parse_deck
from tests.test_journal_rulings import rules_step

FULL_CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")]
ONE_PULL_A_PASS = {card: "pull" if card == "3S" else "no-pull" for card in FULL_CARDS if card != "AH"}
PULLS_AND_REMOVES = {card: "remove" if card[0] in "35" else "pull" if card[0] == "7" else "no-pull"
                     for card in FULL_CARDS if card != "AH"}
PULLS_AND_SKIPS = {"3S": "pull", "5S": "pull", "7S": "pull", "9S": "skip-pull", "2S": "no-pull", "4S": "no-pull"}
SALVATION_AND_PULLS = {card: "pull" if card[0] in "3579" else "salvation" if card == "AH" else "no-pull"
                       for card in FULL_CARDS}
KINGS_RETURNED = {**{card: "add-token" for card in FULL_CARDS[:19]}, **{card: "return-king" for card in FULL_CARDS[19:28]},
                  "KS": "king", "KH": "king"}  # two Kings of four, tokens added: once a game of hours
FEW_PULLS_SAVED = {"AH": "salvation", "3S": "pull", "AD": "salvation-4", "2S": "return-king",
                   **{rank + "C": "no-pull" for rank in "2345678"}}
SKIPS_SAVED = {"AH": "salvation", "3S": "pull", "9S": "skip-pull", "9H": "skip-pull", "9D": "skip-pull",
               "2S": "add-token", "4S": "no-pull"}  # skips after salvation, more of them than pulls


def record(tower_start: int, actions: dict[str, str], **settings) -> dict:
    return {"title": "Edge", "author": "", "licence": "", "intro": "", "deck": "listed", "tower_start": tower_start,
            "deck_out": "reshuffle", "cards": [[card, action, ""] for card, action in actions.items()], **settings}


def bounded(tower_start: int, actions: dict[str, str], reshuffles: int = 3, **settings) -> dict:
    return journal.check_options({"deck": record(tower_start, actions, reshuffles=reshuffles, **settings)})


def played(options: dict, seed: int) -> engine.Session:
    session = engine.new_session("journal", seed=seed, options=options)
    while session.outcome is None:
        session.play(session.commands()[0])
    return session


def test_the_deck_ends_the_game_the_time_it_runs_out_after_its_last_reshuffle():
    for most in (0, 1, 3):
        state = played(bounded(10_000, ONE_PULL_A_PASS, most), 1).state
        assert (state.ending, state.reshuffles, len(state.pages)) == ("deck", most, 47 * (most + 1))


def test_a_deck_file_reshuffles_three_times_at_most_and_says_so():
    deck = parse_deck(b'[game]\ntitle = "R"\ndeck_out = "reshuffle"\n', "r.toml")
    assert deck.settings["reshuffles"] == 3 and deck.record()["reshuffles"] == 3
    assert "reshuffled, 3 times at most, then it ends" in deck_summary(deck)[-1]
    assert parse_deck(b'[game]\ntitle = "R"\nreshuffles = 1\n', "r.toml").settings["reshuffles"] == 1
    with pytest.raises(DeckError, match="reshuffles"):
        parse_deck(b'[game]\ntitle = "R"\nreshuffles = 4\n', "r.toml")  # more is not dicehall's game
    assert journal.sample_deck().settings["reshuffles"] == 3
    game_file = Path(__file__).parent / "fixtures" / "dc-solo-rpg-lighthouse.game.md"  # read as a record: a new one
    assert journal.load_deck(game_file).settings["reshuffles"] == 3


def test_a_game_saved_before_the_bound_reshuffles_without_end_and_still_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path))
    old = journal.check_options({"deck": record(10_000, {"3S": "pull", "2S": "no-pull"})})  # no key: before the bound
    assert "reshuffles" not in old["deck"]
    session = saves.new_save("journal", name="old", seed=3, options=old)
    while session.state.reshuffles < 8:
        session.play(session.commands()[0])
    saves.close_save(session)
    loaded = saves.open_save(session.labels.save_id)
    try:
        assert loaded.state.reshuffles == 8 and loaded.outcome is None
        assert engine.digest(loaded.state) == engine.digest(session.state) and loaded.events == session.events
    finally:
        saves.close_save(loaded)
    path = replays.write_replay(session, tmp_path / "old.dhr")
    assert replays.read_replay(path).state.reshuffles == 8


def assert_the_engine_agrees(options: dict, games: int, seed: int = 9) -> None:
    """The playout's endings, days and pulls against whole games through the engine's session."""
    sessions = [played(options, number) for number in range(games)]
    rng = random.Random(seed)
    state = journal.initial_state(options, ())
    sampled = [odds.playout(state, rng) for _ in range(3000)]
    assert {s.state.ending for s in sessions} <= {play.ending for play in sampled}
    for ending in odds.ENDINGS:  # each ending as often, within the noise of 30 games
        real = sum(s.state.ending == ending for s in sessions) / games
        mine = sum(play.ending == ending for play in sampled) / 3000
        assert abs(real - mine) <= 4 * (mine * (1 - mine) / games) ** 0.5 + 1 / games, (ending, real, mine)
    for measure, real in (("days", [s.state.day for s in sessions]), ("pulls", [s.state.tower.pulls for s in sessions])):
        mine = [getattr(play, measure) for play in sampled]
        spread = 4 * (statistics.variance(real) / games + statistics.variance(mine) / 3000) ** 0.5 + 1e-9
        assert abs(statistics.mean(real) - statistics.mean(mine)) <= spread, (measure, statistics.mean(real),
                                                                              statistics.mean(mine))


@pytest.mark.parametrize("tower_start,actions,settings", [
    (10_000, ONE_PULL_A_PASS, {}),  # no pull can fell it: never rolled
    (10_000, PULLS_AND_REMOVES, {}),
    (10_000, PULLS_AND_SKIPS, {}),
    (10_000, SALVATION_AND_PULLS, {"tokens": 3}),
    (10_000, KINGS_RETURNED, {"tokens": 3}),
    (10_000, SKIPS_SAVED, {"tokens": 2}),
    (150, ONE_PULL_A_PASS, {}),  # a tower that may fall: the tower or the bound
    (40, PULLS_AND_SKIPS, {}),
    (62, FEW_PULLS_SAVED, {"tokens": 4, "final_check": "pull"}),
])
def test_a_bounded_deck_plays_as_in_the_engine(tower_start, actions, settings):
    assert_the_engine_agrees(bounded(tower_start, actions, **settings), 30)


def test_the_playout_ends_at_the_bound_and_never_past_it():
    options = bounded(10_000, KINGS_RETURNED, 2)
    state = journal.initial_state(options, ())
    rng = random.Random(1)
    plays = [odds.playout(state, rng) for _ in range(300)]
    assert {play.ending for play in plays} <= {"deck", "salvation"}
    # a pass is the 29 cards without the Ace (gone once drawn), and a King back each return at most
    assert max(play.cards for play in plays) <= 30 + 2 * (29 + 9)


def rules_game(state, rng: random.Random):
    """The rest of a game through the rules themselves (decide, chance and evolve), random chance."""
    while state.phase != "over":
        state = rules_step(state, rng)
    return state


SAVED_MID_GAME = {"AH": "salvation", "3S": "remove", "5S": "pull", "2S": "add-token", "4S": "no-pull",
                  "6S": "remove-token", "8S": "no-pull"}


def test_a_playout_from_the_middle_of_a_bounded_game_after_salvation_plays_as_the_rules():
    """The side panel's playouts (a deck with pull and remove: the tower's own) from a state after
    salvation under a tower none of the pulls left can fell: the tokens still count, card by card."""
    options = bounded(10_000, SAVED_MID_GAME, tokens=2)
    state, rng = journal.initial_state(options, ()), random.Random(4)
    while not (state.salvation and state.phase == "draw" and {"3S", "6S"} <= set(state.remaining)):
        if state.phase == "over":  # (a game that never came there: another)
            state = journal.initial_state(options, ())
        state = rules_step(state, rng)
    ends = [rules_game(state, rng) for _ in range(400)]
    plays = [odds.playout(state, rng) for _ in range(3000)]
    for ending in odds.ENDINGS:
        real = sum(end.ending == ending for end in ends) / 400
        mine = sum(play.ending == ending for play in plays) / 3000
        assert abs(real - mine) <= 4 * (mine * (1 - mine) / 400) ** 0.5 + 0.01, (ending, real, mine)
    for measure, real in (("days", [end.day for end in ends]), ("pulls", [end.tower.pulls for end in ends])):
        mine = [getattr(play, measure) for play in plays]
        spread = 4 * (statistics.variance(real) / 400 + statistics.variance(mine) / 3000) ** 0.5 + 1e-9
        assert abs(statistics.mean(real) - statistics.mean(mine)) <= spread, (measure, statistics.mean(real),
                                                                              statistics.mean(mine))


def test_a_text_record_written_before_the_bound_still_verifies():
    """A deck in a game recorded before the bound has no `reshuffles`: it is read as it was (without
    end) and its state's digests are the ones it was written with."""
    from dicehall.replays.text import verify_record

    path = Path(__file__).parent / "fixtures" / "text_record_journal_before_bound.dht"
    assert '"reshuffles"' not in path.read_text()
    assert verify_record(path).startswith("ok: Journal text record, seed 7, Ada, 19 events")
