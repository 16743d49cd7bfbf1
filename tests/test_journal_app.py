"""The journal through the keys at 80x24: a whole day played and written, typed dice and typed cards,
an entry undone, an earlier entry rewritten, markup shown as text, the setup with a deck file, and a
snapshot."""
from __future__ import annotations

from dicehall import saves
from dicehall.engine.games import journal
from dicehall.engine.games.journal import EntryAmended, EntryWritten
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.journal import JournalScreen
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from tests.apphelpers import drive, footer, screen_text, status


def new_game(seed=7):
    return saves.new_save("journal", name="night watch", seed=seed, players=saves.solo_players())


async def type_text(pilot, text):
    for ch in text:
        await pilot.press({" ": "space", ".": "full_stop", "[": "left_square_bracket", "]": "right_square_bracket",
                           "/": "slash", ",": "comma"}.get(ch, ch))


async def answer(pilot, text):
    await type_text(pilot, text)
    await pilot.press("enter")
    await pilot.pause()


async def play_card(pilot, entry=None):
    """Draw; pull if the card says so; write `entry` (None: skip it)."""
    await pilot.press("d")
    await pilot.pause()
    state = pilot.app.screen.session.state
    if state.phase == "pull":
        await pilot.press("r" if state.pull_due == "remove" else "p")
        await pilot.pause()
        if not isinstance(pilot.app.screen, JournalScreen):  # typed dice: the two faces are asked for
            await answer(pilot, "25")
    if entry is None:
        await pilot.press("s")
    else:
        await pilot.press("w")  # the box takes the keys only when asked
        await type_text(pilot, entry)
        await pilot.press("ctrl+s")
    await pilot.pause()


def test_a_whole_day_played_and_written_with_typed_dice(snapshot):
    session = new_game()

    async def steps(pilot):
        await pilot.press("t", "n")  # typed dice: the day's die is asked for
        await answer(pilot, "2")
        assert pilot.app.screen.session.state.to_draw == 2
        await play_card(pilot, "The dog came back. I let it in.")
        mid = screen_text(pilot.app)
        await play_card(pilot, None)
        return mid, screen_text(pilot.app), footer(pilot.app)

    mid, end, keys = drive(DicehallApp(session=session), steps)
    state = session.state
    assert state.day == 1 and len(state.pages) == 2 and state.phase in ("day", "day-end")
    assert state.pages[0].entry == "The dog came back. I let it in." and state.pages[1].skipped
    assert "The dog came back. I let it in." in end and "(skipped)" in end and "Day 1" in end
    assert "Tower" in end and "Kings     0 of 4" in end and "Deck      50 cards left" in end
    assert "Next pull falls" in end and "(simulated, 1,000 games)" in end
    snapshot.assert_match(mid, "journal_mid_day.txt")
    assert "n Next" in keys


def test_undo_takes_back_an_entry_and_the_screen_follows():
    session = new_game()

    async def steps(pilot):
        await pilot.press("n")
        await play_card(pilot, "first words")
        written = screen_text(pilot.app)
        await pilot.press("u")
        await pilot.pause()
        return written, screen_text(pilot.app), pilot.app.screen.query_one("#journal-entry").text

    written, undone, box = drive(DicehallApp(session=session), steps)
    # the journal no longer has the words; the box does (they are the draft again, issue #30)
    assert "first words" in written and undone.count("first words") == 1 and "(not written yet)" in undone
    assert box == "first words"
    assert session.state.phase == "entry" and session.state.pages[0].entry is None and session.undos == 1


def test_an_earlier_entry_is_rewritten_as_a_new_event():
    session = new_game()

    async def steps(pilot):
        await pilot.press("n")
        await play_card(pilot, "old words")
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")  # the last written entry is offered
        await pilot.pause()
        box = pilot.app.screen.query_one("#journal-entry")
        box.text = ""
        await type_text(pilot, "new words")
        await pilot.press("ctrl+s")
        await pilot.pause()
        return screen_text(pilot.app)

    shown = drive(DicehallApp(session=session), steps)
    assert session.state.pages[0].entry == "new words" and session.state.pages[0].amended == 1
    assert EntryAmended(1, "new words") in list(session.events) and EntryWritten(1, "old words") in list(session.events)
    assert "new words (amended)" in shown.replace("\n", " ") or "(amended)" in shown


def test_a_typed_card_and_a_card_already_drawn_refused_in_one_line():
    session = new_game()

    async def steps(pilot):
        await pilot.press("n", "c")
        await answer(pilot, "2h")
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("c")
        await answer(pilot, "2h")
        return status(pilot.app)

    said = drive(DicehallApp(session=session), steps)
    assert session.state.pages[0].card == "2H" and session.state.pages[0].skipped
    assert "the 2 of hearts was already drawn: draw another" in said


def test_markup_in_an_entry_is_shown_as_typed():
    session = new_game()

    async def steps(pilot):
        await pilot.press("n")
        await play_card(pilot, "[bold]loud[/bold]")
        return screen_text(pilot.app)

    assert "[bold]loud[/bold]" in drive(DicehallApp(session=session), steps)


def test_keys_not_possible_now_say_why():
    session = new_game()

    async def steps(pilot):
        await pilot.press("d")
        first = status(pilot.app)
        await pilot.press("n", "d")
        await pilot.pause()
        return first, status(pilot.app)

    first, later = drive(DicehallApp(session=session), steps)
    assert first == "Not now: n: start the next day"
    assert later == "card 1: 7 of hearts (pull): press p to pull" or later.startswith("Not now:")


def test_the_launcher_setup_opens_a_deck_file(tmp_path):
    deck = tmp_path / "tide.csv"
    deck.write_text("card,suite,action,description\nA,hearts,salvation,The rescue boat.\n")

    async def steps(pilot):
        await pilot.press("down", "down", "down", "down", "down", "enter")  # the launcher: the journal is sixth
        assert isinstance(pilot.app.screen, JournalSetupScreen)
        await pilot.press("down", "enter")  # open a deck file
        await pilot.pause()
        await pilot.press("n", "o", "enter")  # a path that is no file: refused in the dialog
        await pilot.pause()
        refused = screen_text(pilot.app)
        pilot.app.screen.query_one("Input").value = str(deck)
        await pilot.press("enter")
        await pilot.pause()
        setup = screen_text(pilot.app)
        await pilot.press("s")
        await pilot.pause()
        return refused, setup, pilot.app.screen

    refused, setup, screen = drive(DicehallApp(), steps)
    assert "no: cannot be read" in refused
    assert "Deck:  " in setup and "deck: tide" in setup
    assert isinstance(screen, JournalScreen) and screen.session.state.deck.title == "tide"
    assert screen.session.state.deck.prompt("AH") == "The rescue boat."
    assert journal.check_options({"deck": "sample"})["deck"]["title"] == "The Last Watch at Harrow Pass"
