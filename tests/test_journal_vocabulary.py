"""Every deck of the Wretched & Alone world, as it is (issue #30): dc-solo-rpg's CSV in both of its
column orders with its whole vocabulary, and the card actions published games use, each a ruling
tested by scripted cards and dice (the rules text: engine/games/journal/rules_text.py)."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from dicehall import engine
from dicehall.engine.games import journal
from dicehall.engine.games.journal import (
    ACTION_WORDS, ACTIONS, DeckError, DrawCard, PullBlock, RollSalvation, SalvationRolled, SkipEntry, StartDay,
    WriteEntry, deck_summary, load_deck, odds, parse_deck,
)

from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from tests.apphelpers import drive, open_deck_file

FIXTURES = Path(__file__).parent / "fixtures"
TEMPLATE = FIXTURES / "dc-solo-rpg-template.csv"  # card,suite,action,description
GAME = FIXTURES / "dc-solo-rpg-game.csv"  # card,suit,description,action


# ----- dc-solo-rpg's decks, both column orders -----

def test_dc_solo_rpgs_template_order_reads_with_its_whole_vocabulary():
    deck = load_deck(TEMPLATE)
    assert len(deck.cards) == 52 and len(deck.prompts) == 52
    assert deck.action("AH") == "salvation" and deck.prompt("AH").startswith("The radio crackles")
    assert [deck.action(ace) for ace in ("AD", "AC", "AS")] == ["salvation-5"] * 3  # success-bonus
    assert {deck.action(f"K{suit}") for suit in "HDCS"} == {"king"}  # failure-token
    assert {deck.action(f"{rank}S") for rank in ("3", "5", "7", "9", "J", "Q")} == {"pull"}  # failure-check
    assert {deck.action(f"{rank}D") for rank in ("2", "4", "6", "8", "10")} == {"no-pull"}  # blank: no effect


def test_dc_solo_rpgs_game_order_reads_with_its_modifiers():
    deck = load_deck(GAME)
    assert deck.action("AD") == "salvation-5" and deck.action("AC") == "skip-pull" and deck.action("AS") == "return-king"
    assert deck.action("QH") == "pull" and deck.action("10C") == "no-pull" and deck.prompt("10C").startswith("10 of clubs")
    assert load_deck(TEMPLATE).record()["cards"][1:] != deck.record()["cards"][1:]  # the prompts in their own column


def test_a_blank_action_is_no_effect_in_a_dc_solo_rpg_deck_and_the_ranks_rule_in_ours():
    dc = parse_deck(b"card,suite,action,description\nA,hearts,primary-success,Hope.\n7,clubs,,Quiet.\n", "dc.csv")
    ours = parse_deck(b"card,suit,action,description\nA,hearts,salvation,Hope.\n7,clubs,,Quiet.\n", "ours.csv")
    assert dc.action("7C") == "no-pull" and ours.action("7C") == "pull"


@pytest.mark.parametrize("spelt, action", [
    ("success-bonus", "salvation-5"), ("Change the salvation threshold", "salvation-5"),
    ("a 4 or more removes a token", "salvation-4"), ("skip-damage", "skip-pull"), ("Skip the next pull", "skip-pull"),
    ("return-king", "return-king"), ("shuffle a King back", "return-king"), ("remove a token", "remove-token"),
    ("add a token", "add-token"),
])
def test_the_published_games_card_actions_are_actions_a_deck_may_name(spelt, action):
    deck = parse_deck(f"card,suit,action,description\nA,spades,{spelt},A gift.\n".encode(), "deck.csv")
    assert deck.action("AS") == action and action in ACTION_WORDS


def test_a_king_keeps_to_a_kings_actions():
    with pytest.raises(DeckError, match="^deck.csv line 2: a King is kept face up"):
        parse_deck(b"card,suit,action,description\nK,spades,return-king,No.\n", "deck.csv")


def test_the_summary_says_which_cards_do_what_and_the_settings():
    lines = deck_summary(load_deck(GAME))
    assert lines[0] == "dc-solo-rpg-game: 52 cards"
    assert "3 5 7 9 J Q: pull from the tower" in lines and "K: a King: the last one ends the game" in lines
    assert f"AD: {ACTION_WORDS['salvation-5']}" in lines and f"AS: {ACTION_WORDS['return-king']}" in lines
    assert lines[-2:] == ["10 tokens; King 4 ends the game; tower from 100",
                          "after the last token: saved at once; the deck out: the game ends"]
    assert set(ACTION_WORDS) == set(ACTIONS)


def test_the_launchers_setup_shows_the_chosen_decks_summary_at_80x24(tmp_path):
    async def steps(pilot):
        await pilot.press("down", "down", "down", "down", "down", "enter")  # the launcher: the journal is sixth
        assert isinstance(pilot.app.screen, JournalSetupScreen)
        return await open_deck_file(pilot, GAME)

    shown = drive(DicehallApp(), steps)
    assert "Deck:  dc-solo-rpg-game" in shown
    for line in deck_summary(load_deck(GAME))[1:]:
        assert line in shown  # each on one line of the 80 columns


# ----- each action's effect, by scripted cards and dice -----

def game(cards, dice=(), **settings):
    record = journal.sample_deck().record()
    record["cards"] = [list(entry) for entry in cards]
    record.update(settings)
    return engine.new_session("journal", seed=1, options=journal.check_options({"deck": record}), dice=list(dice))


def card(session, code, faces=None):
    session.play(DrawCard(code))
    if session.state.phase == "pull":
        session.play(PullBlock(session.state.pull_due == "remove"), faces=faces)
    if session.state.phase in ("entry", "last-entry"):
        session.play(WriteEntry("words"))


def test_ruling_success_bonus_a_5_also_removes_a_token_from_then_on():
    for action, face, removed in (("salvation-5", 5, True), ("salvation-5", 4, False), ("salvation-4", 4, True),
                                  ("no-pull", 5, False)):
        session = game([["AD", action, "bonus"]], dice=[2, face])
        session.play(StartDay())
        card(session, "AH")
        card(session, "AD")
        session.play(RollSalvation())
        assert session.state.tokens == (9 if removed else 10), (action, face)
        assert session.events[-1] == SalvationRolled(face, typed=True)


def test_ruling_the_bonus_never_raises_the_threshold_again():
    session = game([["AD", "salvation-4", "a"], ["AC", "salvation-5", "b"]], dice=[3, 4])
    session.play(StartDay())
    for code in ("AH", "AD", "AC"):
        card(session, code)
    assert session.state.salvation_from == 4
    session.play(RollSalvation())
    assert session.state.tokens == 9


def test_ruling_skip_pull_the_next_pulling_card_pulls_nothing():
    session = game([["AC", "skip-pull", "skip"]], dice=[3, 2, 5])
    session.play(StartDay())
    card(session, "AC")
    session.play(DrawCard("3S"))
    assert session.state.phase == "entry" and session.state.tower.pulls == 0 and session.state.skips == 0
    assert "its pull is skipped" in session.describe(len(session.events) - 1)
    session.play(WriteEntry("spared"))
    card(session, "5S", faces=[2, 5])  # the next one pulls again
    assert session.state.tower.pulls == 1


def test_ruling_return_king_shuffles_the_last_king_back():
    session = game([["AS", "return-king", "back"]], dice=[4])
    session.play(StartDay())
    card(session, "KH")
    card(session, "KS")
    card(session, "AS")
    assert session.state.kings == ("KH",) and "KS" in session.state.remaining
    card(session, "KS")  # it can come up again
    assert session.state.kings == ("KH", "KS")


def test_ruling_return_king_with_no_king_up_does_nothing():
    session = game([["AS", "return-king", "back"]], dice=[1])
    session.play(StartDay())
    card(session, "AS")
    assert session.state.kings == () and session.state.phase == "day"


def test_ruling_remove_and_add_token_count_once_the_ace_is_out():
    session = game([["AS", "remove-token", "r"], ["AC", "add-token", "a"], ["AD", "remove-token", "r"]], dice=[4])
    session.play(StartDay())
    card(session, "AS")  # before the Ace of Hearts: no tokens to remove
    assert session.state.tokens == 0
    card(session, "AH")
    card(session, "AC")
    card(session, "AD")
    assert session.state.tokens == 10  # 10, +1, -1


def test_ruling_remove_token_taking_the_last_wins_after_its_entry_and_the_final_pull():
    session = game([["AS", "remove-token", "r"]], dice=[2], tokens=1)
    session.play(StartDay())
    card(session, "AH")
    session.play(DrawCard("AS"))
    assert session.state.ending == "salvation" and session.state.phase == "last-entry"
    session.play(WriteEntry("free"))
    assert session.outcome.winners == (0,) and session.state.pages[-1].entry == "free"
    pulled = game([["AS", "remove-token", "r"]], dice=[2, 2, 5], tokens=1, final_check="pull")
    pulled.play(StartDay())
    card(pulled, "AH")
    pulled.play(DrawCard("AS"))
    assert pulled.state.phase == "final-pull"
    pulled.play(PullBlock())
    assert pulled.state.ending == "salvation"
    pulled.play(SkipEntry())
    assert pulled.outcome.winners == (0,)


def test_ruling_queens_pull_in_dc_solo_rpgs_decks_and_not_by_dicehalls_default():
    assert journal.sample_deck().action("QH") == "no-pull"
    assert load_deck(TEMPLATE).action("QH") == "pull"


def test_the_sims_playouts_agree_with_the_engine_on_a_deck_of_every_action():
    """Every new action in one deck (a short tower, few tokens): the sim's playout and whole games
    through the engine end alike."""
    record = load_deck(GAME).record()
    changed = {"2S": "remove-token", "4S": "add-token", "6S": "salvation-4"}
    record["cards"] = [[code, changed.get(code, action), text] for code, action, text in record["cards"]]
    record.update(tower_start=60, tokens=3, final_check="pull")  # all three endings often
    options = journal.check_options({"deck": record})
    games = 200
    ended = Counter()
    for seed in range(games):
        session = engine.new_session("journal", seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])
        ended[session.state.ending] += 1
    rng = random.Random(7)
    start = journal.initial_state(options, ())  # a state is never changed: each playout starts from the one
    sampled = Counter(odds.playout(start, rng).ending for _ in range(20000))
    for ending in ("tower", "kings", "salvation"):
        p = sampled[ending] / 20000
        assert abs(ended[ending] / games - p) < 4 * (p * (1 - p) / games) ** 0.5 + 0.02, (ending, ended, sampled)


def test_the_markdown_counts_a_5_as_a_token_removed_after_a_success_bonus():
    session = game([["AD", "salvation-5", "bonus"]], dice=[2, 5])
    session.play(StartDay())
    card(session, "AH")
    card(session, "AD")
    session.play(RollSalvation())
    assert "salvation die 5: a token removed, 9 left" in journal.markdown(session)


# ----- the state's fields added for the card actions, and the digest -----

def test_the_added_fields_count_in_the_digest_only_once_set():
    """skips and salvation_from came with #30: at their defaults they are left out of the digest (so a
    text record written before them still verifies: tests/snapshots/text_record_journal.dht), and
    once a card sets them they count like any other field."""
    from dataclasses import replace

    state = journal.initial_state(journal.check_options({}), ())
    assert engine.digest(replace(state, skips=1)) != engine.digest(state)
    assert engine.digest(replace(state, salvation_from=5)) != engine.digest(state)
    assert engine.digest(replace(state, skips=1)) != engine.digest(replace(state, salvation_from=5))
    assert engine.digest(replace(state, skips=0)) == engine.digest(state)
