"""Every journal ruling (engine/games/journal/rules_text.py), each test named after it, with a scripted
deck (typed cards) and scripted dice reaching each ending; the pulls are the Dice Tower's."""
from __future__ import annotations

import pytest

from dicehall import engine
from dicehall.engine import IllegalCommand
from dicehall.engine.games import dicetower, journal
from dicehall.engine.games.journal import (
    AmendEntry, BlockPulled, DayRolled, DayStarted, DiceRolled, Draw, DrawCard, EntryAmended, EntrySkipped,
    EntryWritten, PullBlock, RollSalvation, SalvationRolled, SkipEntry, StartDay, WriteEntry,
)


def options(cards=None, **settings):
    """The sample deck's options with some cards' actions and some settings changed."""
    record = journal.sample_deck().record()
    if cards is not None:
        record["cards"] = [list(entry) for entry in cards]
    record.update(settings)
    return journal.check_options({"deck": record})


def game(dice=(), seed=1, **kwargs):
    return engine.new_session("journal", seed=seed, options=options(**kwargs), dice=list(dice))


def day(session, face=None):
    session.play(StartDay(), faces=None if face is None else [face])


def card(session, code, pull_faces=None, entry="words"):
    """Draw a typed card; pull if it says so (with typed dice); write its entry (None: skip)."""
    session.play(DrawCard(code))
    if session.state.phase == "pull":
        session.play(PullBlock(session.state.pull_due == "remove"), faces=pull_faces)
    if session.state.phase in ("entry", "last-entry"):
        session.play(SkipEntry() if entry is None else WriteEntry(entry))


# ----- the four endings, scripted -----

def test_ending_the_fourth_king_ends_the_game_lost():
    session = game(dice=[3, 4])
    day(session)
    for king in ("KH", "KS", "KD"):
        card(session, king)
    day(session)
    session.play(DrawCard("KC"))
    assert session.state.phase == "last-entry" and session.outcome is None  # the last entry is still to write
    session.play(WriteEntry("It is over."))
    assert session.outcome.winners == () and session.outcome.summary == "the last King came up on day 2"
    assert session.state.pages[-1].entry == "It is over."


def test_ending_the_tower_falls_on_a_pull():
    session = game(dice=[2, 5, 6], tower_start=4)
    day(session)
    card(session, "3C", entry="first")  # odd: pull; 5 and 6 at disadvantage take 6 from 4
    assert session.state.tower.fell and session.outcome is not None
    assert session.outcome.summary == "the tower fell on day 1"
    assert [type(e) for e in session.events][-3:] == [BlockPulled, DiceRolled, EntryWritten]


def test_ending_salvation_the_last_token_wins():
    session = game(dice=[1, 6], tokens=1)
    day(session)
    card(session, "AH")  # the Ace of Hearts: salvation, 1 token
    assert session.state.salvation and session.state.tokens == 1 and session.state.phase == "day-end"
    session.play(RollSalvation())
    assert session.state.phase == "last-entry"
    session.play(WriteEntry("A voice on the radio."))
    assert session.outcome.winners == (0,) and session.outcome.summary.startswith("salvation")
    assert session.state.last_words == "A voice on the radio."


def test_ending_the_deck_runs_out():
    session = game(dice=[3], cards=[["2H", "no-pull", "a"], ["4H", "no-pull", "b"]], deck="listed")
    day(session)
    card(session, "2H")
    card(session, "4H")
    assert session.state.ending == "deck" and session.state.phase == "last-entry"
    session.play(SkipEntry())
    assert session.outcome.winners == () and session.outcome.summary == "the deck ran out on day 1"


# ----- the rulings -----

def test_ruling_a_card_left_out_or_without_action_pulls_on_odd_ranks_only():
    deck = journal.parse_deck(b"card,suit,action,description\n", "empty.csv")
    assert [deck.action(c) for c in ("AS", "2S", "3S", "9D", "10D", "JC", "QC", "KC", "AH")] == [
        "pull", "no-pull", "pull", "pull", "no-pull", "pull", "no-pull", "king", "salvation"]


def test_ruling_a_king_counts_whatever_its_action_and_a_pulling_king_pulls():
    session = game(dice=[6, 1, 2], cards=[["KS", "pull", "a pulling King"]])
    day(session)
    session.play(DrawCard("KS"))
    assert session.state.kings == ("KS",) and session.state.phase == "pull"
    session.play(PullBlock())
    assert session.state.tower.countdown == 99


def test_ruling_the_last_king_ends_at_once_without_its_pull():
    session = game(dice=[6], kings=1, cards=[["KS", "pull", "a pulling King"]])
    day(session)
    session.play(DrawCard("KS"))
    assert session.state.phase == "last-entry" and session.state.tower.pulls == 0


def test_ruling_the_ace_of_hearts_starts_salvation_and_also_pulls_if_its_action_says():
    session = game(dice=[6, 4, 5], cards=[["AH", "pull", "salvation and a pull"]])
    day(session)
    session.play(DrawCard("AH"))
    assert session.state.salvation and session.state.tokens == 10 and session.state.phase == "pull"
    session.play(PullBlock())
    assert session.state.tower.countdown == 96


def test_ruling_the_salvation_die_is_rolled_at_the_end_of_the_day_the_ace_came_up():
    session = game(dice=[2, 3, 1, 6])
    day(session)
    card(session, "AH")
    card(session, "2D")
    assert session.state.phase == "day-end" and session.commands() == [RollSalvation()]
    session.play(RollSalvation())
    assert session.state.tokens == 10 and session.events[-1] == SalvationRolled(3, typed=True)
    assert session.state.phase == "day"
    day(session)
    card(session, "4D")
    session.play(RollSalvation())  # the 6 from the script
    assert session.state.tokens == 9


def test_ruling_a_6_only_removes_a_token():
    for face in range(1, 7):
        session = game(dice=[1, face])
        day(session)
        card(session, "AH")
        session.play(RollSalvation())
        assert session.state.tokens == (9 if face == 6 else 10)


def test_ruling_deck_out_ends_by_default_and_is_no_win():
    assert journal.sample_deck().settings["deck_out"] == "end"
    session = game(dice=[2], cards=[["2H", "no-pull", "a"]], deck="listed")
    day(session)
    card(session, "2H")
    session.play(SkipEntry())
    assert session.outcome.winners == ()


def test_ruling_deck_out_reshuffle_puts_back_all_but_the_kings_and_the_ace():
    cards = [["2H", "no-pull", "a"], ["KH", "king", "k"], ["AH", "salvation", "s"]]
    session = game(dice=[5], cards=cards, deck="listed", deck_out="reshuffle")
    day(session)
    for code in ("2H", "KH", "AH"):
        card(session, code)
    assert session.state.reshuffles == 1 and session.state.remaining == ("2H",) and session.state.phase == "draw"
    card(session, "2H")
    assert session.state.reshuffles == 2
    with pytest.raises(IllegalCommand, match="is face up among the Kings"):
        session.play(DrawCard("KH"))


def test_ruling_deck_out_reshuffle_with_nothing_to_put_back_ends():
    session = game(dice=[3], cards=[["KH", "king", "k"]], deck="listed", deck_out="reshuffle")
    day(session)
    card(session, "KH")
    assert session.state.ending == "deck"


def test_ruling_final_check_none_wins_at_once_after_the_last_token():
    session = game(dice=[1, 6], tokens=1)
    day(session)
    card(session, "AH")
    session.play(RollSalvation())
    assert session.state.ending == "salvation" and session.state.tower.pulls == 0


def test_ruling_final_check_pull_one_last_pull_that_must_not_fell_the_tower():
    won = game(dice=[1, 6, 2, 5], tokens=1, final_check="pull")
    day(won)
    card(won, "AH")
    won.play(RollSalvation())
    assert won.state.phase == "final-pull" and won.commands() == [PullBlock(False)]
    won.play(PullBlock())
    assert won.state.ending == "salvation" and won.state.tower.countdown == 98
    lost = game(dice=[1, 6, 6, 6], tokens=1, final_check="pull", tower_start=5)
    day(lost)
    card(lost, "AH")
    lost.play(RollSalvation())
    lost.play(PullBlock())
    assert lost.state.ending == "tower"
    lost.play(SkipEntry())
    assert lost.outcome.winners == ()


def test_ruling_every_ending_leaves_one_last_entry():
    session = game(dice=[1, 6], tokens=1)
    day(session)
    card(session, "AH")
    session.play(RollSalvation())
    assert session.outcome is None and session.commands() == [SkipEntry()]
    with pytest.raises(IllegalCommand, match="the game waits for you to write the last entry, or skip it"):
        session.play(StartDay())


def test_ruling_remove_cards_pull_and_remove():
    session = game(dice=[1, 1, 4], cards=[["10D", "remove", "remove it"]])
    day(session)
    session.play(DrawCard("10D"))
    assert session.commands() == [PullBlock(True)]
    with pytest.raises(IllegalCommand, match="the card says pull and remove"):
        session.play(PullBlock(False))
    session.play(PullBlock(True))
    assert session.state.tower.countdown == 95  # both dice


def test_the_pulls_are_the_dice_towers_rules_and_events():
    session = game(dice=[1, 3, 3, 2, 5], tower_start=75)  # the seed's third example: 75, double threes, 2 and 5
    day(session)
    session.play(DrawCard("3S"))
    batch = session.play(PullBlock())
    assert batch == (BlockPulled(False), DiceRolled((3, 3), True), DiceRolled((2, 5), True))  # scripted dice count as typed
    assert session.state.tower.countdown == 67
    assert journal.odds.next_pull_chance(session.state) == dicetower.topple_chance(67)


def test_a_day_rolls_a_die_for_its_cards():
    session = game(dice=[4])
    batch = session.play(StartDay())
    assert batch == (DayStarted(1), DayRolled(4, typed=True)) and session.state.to_draw == 4
    assert session.commands() == [Draw()]


def test_a_typed_card_already_drawn_is_refused():
    session = game(dice=[3, 2, 5])
    day(session)
    card(session, "7H")
    with pytest.raises(IllegalCommand, match="the 7 of hearts was already drawn: draw another"):
        session.play(DrawCard("7H"))
    with pytest.raises(IllegalCommand, match="not a card"):
        session.play(journal.parse_command("draw 7X"))
    assert journal.parse_command("draw 10\u2660") == DrawCard("10S")
    assert journal.parse_command("draw queen of hearts") == DrawCard("QH")


def test_a_card_not_in_a_listed_deck_is_refused():
    session = game(dice=[3], cards=[["2H", "no-pull", "a"]], deck="listed")
    day(session)
    with pytest.raises(IllegalCommand, match="the 5 of spades is not in this deck"):
        session.play(DrawCard("5S"))


def test_a_drawn_card_comes_from_the_cards_left_and_undo_cannot_redraw():
    session = game(seed=7, dice=[6, 6])
    day(session)
    session.play(Draw())
    first = session.state.pages[-1].card
    session.undo()
    session.play(Draw())
    assert session.state.pages[-1].card == first
    assert first not in session.state.remaining and len(session.state.remaining) == 51


def test_entries_are_events_amended_as_new_events_and_undone():
    session = game(dice=[3, 1, 2])
    day(session)
    card(session, "2H", entry="first thoughts")
    card(session, "4H", entry=None)
    assert session.state.pages[1].skipped and session.events[-1] == EntrySkipped(2)
    session.play(AmendEntry(1, "second thoughts"))
    assert session.events[-1] == EntryAmended(1, "second thoughts")
    assert session.state.pages[0].entry == "second thoughts" and session.state.pages[0].amended == 1
    assert EntryWritten(1, "first thoughts") in list(session.events)  # the old words stay in the log
    session.undo()
    assert session.state.pages[0].entry == "first thoughts"
    session.undo()  # the skip
    assert session.state.phase == "entry" and session.state.pages[1].entry is None
    session.undo()  # the draw of the 4 of hearts
    assert len(session.state.pages) == 1 and "4H" in session.state.remaining


def test_an_amend_names_an_earlier_entry():
    session = game(dice=[3])
    day(session)
    with pytest.raises(IllegalCommand, match="no earlier entry to amend yet"):
        session.play(AmendEntry(1, "x"))
    card(session, "2H")
    session.play(DrawCard("4H"))
    with pytest.raises(IllegalCommand, match="no earlier entry 2: amend one of pages 1 to 1"):
        session.play(AmendEntry(2, "x"))


def test_an_entry_is_cleaned_capped_and_kept_as_text():
    session = game(dice=[3])
    day(session)
    session.play(DrawCard("2H"))
    with pytest.raises(IllegalCommand, match="an empty entry"):
        session.play(WriteEntry(" \x1b \n "))
    with pytest.raises(IllegalCommand, match=f"at most {journal.ENTRY_LIMIT} characters"):
        session.play(WriteEntry("x" * (journal.ENTRY_LIMIT + 1)))
    session.play(WriteEntry("[bold]Day one[/bold]\x1b[2J\n\n\n\nline\ttwo"))
    assert session.state.pages[0].entry == "[bold]Day one[/bold][2J\n\nline two"


def test_commands_print_as_words_and_parse_back():
    for command in (StartDay(), Draw(), DrawCard("10S"), PullBlock(), PullBlock(True), RollSalvation(), SkipEntry(),
                    WriteEntry('two "lines"\nhere'), AmendEntry(3, "new")):
        assert journal.parse_command(str(command)) == command


def test_golden_seed_7_the_first_days_cards_and_dice():
    session = engine.new_session("journal", seed=7)
    for _ in range(12):
        session.play(session.commands()[0])
    assert [str(e) for e in list(session.events)[:4]] == [
        "DayStarted(day=1)", "DayRolled(face=6, typed=False)", "DrawBegan()", "CardDrawn(card='7H', typed=False)"]
    assert [p.card for p in session.state.pages] == GOLDEN_CARDS
    assert session.state.tower.countdown == GOLDEN_COUNTDOWN


GOLDEN_CARDS = ['7H', 'AH', '4S', '8D', '10S']  # pinned: draws through engine/chance.py
GOLDEN_COUNTDOWN = 98
