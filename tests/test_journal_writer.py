"""A writer's journal at 80x24: the entry box takes keys only when asked (command keys after a card
never become text), a draft survives leaving, a hang-up and undo (kept in the save, back in the box
on continue), a rewrite starts at the end of the old words, a long prompt is readable whole, the
footer and the title fit; and the rulings chosen at setup or by --option rule the game."""
from __future__ import annotations

import os

import pytest

from dicehall import saves
from dicehall.engine.errors import OptionError
from dicehall.engine.games import journal
from dicehall.saves.drafts import draft_of, rewrite_of
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.journal import JournalScreen
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from tests.apphelpers import drive, footer, screen_text, status
from tests.test_journal_app import answer, type_text
from tests.test_signals import dicehall_in_a_terminal, hang_up, read_for

LONG_PROMPT = ("The wind came down off the pass before dawn. " * 9).strip()  # 404: cut to the limit below


def new_game(name="night watch", deck=None):
    options = journal.check_options({"deck": deck} if deck else {})
    return saves.new_save("journal", name=name, seed=7, options=options, players=saves.solo_players())


def box(pilot):
    return pilot.app.screen.query_one("#journal-entry")


async def write(pilot, text):
    """Open the entry box (w) and type `text` into it."""
    await pilot.press("w")
    await type_text(pilot, text)


async def typed_card(pilot, card="2h"):
    """Start the day and type a card drawn from a real deck (2H: no pull, its entry is due at once)."""
    await pilot.press("n", "c")
    await answer(pilot, card)


def at_a_card(session, card="2H"):
    """typed_card's position played before the app opens, where reaching it by keys is not the point
    (about a quarter of a second of CPU a test): the day started, `card` drawn, its entry due."""
    from dicehall.engine.games.journal import DrawCard, StartDay

    session.play(StartDay())
    session.play(DrawCard(card))
    assert session.state.phase == "entry"
    return session


def test_command_keys_after_a_no_pull_card_stay_commands():
    session = new_game()

    async def steps(pilot):
        await typed_card(pilot)
        assert session.state.phase == "entry"
        await pilot.press("d")
        refused = status(pilot.app)
        await pilot.press("u")  # undo: the card goes back
        await pilot.pause()
        return refused, box(pilot).text, isinstance(pilot.app.screen, JournalScreen)

    refused, text, still_here = drive(DicehallApp(session=session), steps)
    assert text == "" and refused.startswith("Not now:") and still_here
    assert session.undos == 1 and session.state.phase == "draw"


def burst(pilot, keys: str) -> None:
    """`keys` as a terminal sends them in one chunk (a paste, type-ahead over ssh): each key posted
    to the app, as its driver does, before the app has handled the first."""
    from textual._xterm_parser import XTermParser

    for event in XTermParser().feed(keys):
        pilot.app.post_message(event)


@pytest.mark.parametrize("opener", ["w", "\r"])
def test_keys_in_the_burst_that_opens_the_box_are_all_words(opener):
    """Issue #30: a, d, u, w, Enter and o typed right behind the w (or Enter) that opens the box are
    text, however fast they come; and the keys right behind the Escape that leaves it are commands."""
    from textual import events

    session = at_a_card(new_game())

    async def steps(pilot):
        entry = box(pilot)
        burst(pilot, opener + "dear diary, we saw\ra quiet undo")
        await pilot.pause()
        typed = entry.text, type(pilot.app.screen), session.state.phase, session.undos
        pilot.app.post_message(events.Key("escape", "\x1b"))
        burst(pilot, "o")  # the card's prompt
        await pilot.pause()
        return typed, entry.text, type(pilot.app.screen).__name__

    typed, after, shown = drive(DicehallApp(session=session), steps)
    assert typed == ("dear diary, we saw\na quiet undo", JournalScreen, "entry", 0)
    assert after == typed[0] and shown == "HelpScreen"


def test_a_draft_left_with_escape_and_q_is_kept_and_back_on_continue():
    session = at_a_card(new_game())

    async def steps(pilot):
        await write(pilot, "the lamp, q and u")  # q and u typed in the box are words
        await pilot.press("escape")
        kept = status(pilot.app)
        await pilot.press("q")
        await pilot.pause()
        return kept

    kept = drive(DicehallApp(session=session), steps)
    assert "draft kept" in kept
    resumed = saves.open_save("night watch")

    async def again(pilot):
        return box(pilot).text, status(pilot.app), screen_text(pilot.app)

    text, said, _ = drive(DicehallApp(session=resumed), again)
    assert text == "the lamp, q and u" and "draft is back" in said
    assert resumed.state.pages[0].entry is None  # a draft is no event


def test_a_draft_survives_undo_and_saving_the_entry_clears_it():
    session = at_a_card(new_game())

    async def steps(pilot):
        await write(pilot, "half a thought")
        await pilot.press("escape", "u")  # the card is undone: the words stay in the box and the save
        await pilot.pause()
        after_undo = box(pilot).text
        await pilot.press("c")
        await answer(pilot, "4h")
        await pilot.press("enter")
        await type_text(pilot, " more")
        await pilot.press("ctrl+s")
        await pilot.pause()
        return after_undo

    after_undo = drive(DicehallApp(session=session), steps)
    assert after_undo == "half a thought"
    assert session.state.pages[0].entry == "half a thought more"
    saves.close_save(session)
    assert draft_of(saves.load_readonly("night watch")) == ""


def test_undoing_a_saved_entry_puts_its_words_back_in_the_box():
    """Issue #30: u after ctrl+s takes the entry back and its words are the draft again (in the save
    too); the draft kept for later follows them; ctrl+y writes the entry again and clears them."""
    session = at_a_card(new_game())

    async def steps(pilot):
        await write(pilot, "the lamp went out")
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = session.state.pages[0].entry
        await pilot.press("u")
        await pilot.pause()
        back = box(pilot).text, draft_of(session), status(pilot.app), session.state.pages[0].entry
        await pilot.press("ctrl+y")
        await pilot.pause()
        redone = box(pilot).text, draft_of(session), session.state.pages[0].entry
        await pilot.press("u", "w")
        await type_text(pilot, " again")
        await pilot.press("ctrl+s")
        await pilot.pause()
        return saved, back, redone

    saved, back, redone = drive(DicehallApp(session=session), steps)
    assert saved == "the lamp went out"
    assert back[:2] == (saved, saved) and "entry 1's words are back in the box" in back[2] and back[3] is None
    assert redone == ("", "", saved)
    assert session.state.pages[0].entry == "the lamp went out again" and draft_of(session) == ""


def test_a_draft_survives_a_hang_up():
    pid, fd = dicehall_in_a_terminal("play", "journal", "--seed", "7", "--name", "link")
    try:
        assert b"DAY" in read_for(fd, 60, until=b"DAY"), "the app did not draw its screen"
        for keys, until in ((b"n", b"to draw"), (b"c", b"The card"), (b"2h\r", b"2 of hearts")):
            os.write(fd, keys)
            assert until in read_for(fd, 30, until=until), keys
        for keys, until in ((b"w", b"Escape leaves"), (b"storm coming", b"coming")):  # the box open, the words drawn
            os.write(fd, keys)
            assert until in read_for(fd, 30, until=until), keys
    except BaseException:
        os.close(fd)
        raise
    hang_up(pid, fd)
    assert draft_of(saves.load_readonly("link")) == "storm coming"


async def rewrite_first(pilot, old, more):
    """Write entry 1 as `old` (its card drawn: at_a_card), then rewrite it (e, Enter) typing `more`
    where the cursor starts."""
    await write(pilot, old)
    await pilot.press("ctrl+s")
    await rewrite_entry(pilot, more)


async def rewrite_entry(pilot, more):
    """e, Enter (the entry the question offers: the last written, or the one whose rewrite is kept),
    then type `more`."""
    await pilot.press("e")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    await type_text(pilot, more)


def test_a_rewrite_starts_at_the_end_of_the_old_words():
    session = at_a_card(new_game())

    async def steps(pilot):
        await rewrite_first(pilot, "First draft.", " Revised.")
        await pilot.press("ctrl+s")
        await pilot.pause()

    drive(DicehallApp(session=session), steps)
    assert session.state.pages[0].entry == "First draft. Revised."


def test_undoing_a_saved_rewrite_keeps_its_words_as_the_rewrite_and_redo_saves_them_again():
    """Issue #30, a writer never loses a word: u after a rewrite's ctrl+s takes the amendment back,
    and its words are entry 1's rewrite kept for later (in the save too), e then Enter opens them;
    ctrl+y amends again and no rewrite is left kept."""
    session = at_a_card(new_game())

    async def steps(pilot):
        await rewrite_first(pilot, "First draft.", " Revised.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        amended = session.state.pages[0].entry
        await pilot.press("u")
        await pilot.pause()
        undone = session.state.pages[0].entry, rewrite_of(session), status(pilot.app)
        await pilot.press("ctrl+y")
        await pilot.pause()
        redone = session.state.pages[0].entry, rewrite_of(session)
        await pilot.press("u")
        await rewrite_entry(pilot, " Again.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        return amended, undone, redone

    amended, undone, redone = drive(DicehallApp(session=session), steps)
    assert amended == "First draft. Revised."
    assert undone[:2] == ("First draft.", (1, amended)) and "your rewrite of entry 1 is kept" in undone[2]
    assert redone == (amended, (0, ""))
    assert session.state.pages[0].entry == "First draft. Revised. Again." and rewrite_of(session) == (0, "")


def test_an_undone_rewrite_goes_in_the_box_when_another_entrys_rewrite_is_kept():
    """The app keeps one rewrite for later: with entry 2's kept, entry 1's undone rewrite follows the
    draft in the box (and in the save), and entry 2's stays kept."""
    from dicehall.engine.games.journal import DrawCard, WriteEntry

    session = at_a_card(new_game())
    session.play(WriteEntry("One."))
    session.play(DrawCard("4H"))
    assert session.state.phase == "entry"
    session.play(WriteEntry("Two."))

    async def steps(pilot):
        await rewrite_entry_one(pilot, " Amended.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await rewrite_entry(pilot, " Later.")  # the question offers the last written: entry 2
        await pilot.press("escape")  # kept for later
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        return box(pilot).text, status(pilot.app)

    text, said = drive(DicehallApp(session=session), steps)
    assert session.state.pages[0].entry == "One." and text == "One. Amended." == draft_of(session)
    assert rewrite_of(session) == (2, "Two. Later.") and "your rewrite of entry 1 is in the box (a rewrite of entry 2 is kept)" in said


def test_an_undone_rewrite_never_takes_the_place_of_other_words_kept_for_the_same_entry():
    """Entry 1 amended, then rewritten again and kept for later (Escape), then u: the amendment's
    words follow the draft in the box and the rewrite kept stays as it was."""
    session = at_a_card(new_game())

    async def steps(pilot):
        await rewrite_first(pilot, "First.", " Amended.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await rewrite_entry(pilot, " Later.")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        return box(pilot).text

    text = drive(DicehallApp(session=session), steps)
    assert session.state.pages[0].entry == "First." and text == "First. Amended." == draft_of(session)
    assert rewrite_of(session) == (1, "First. Amended. Later.")


def test_a_long_prompt_is_cut_with_a_key_and_read_whole_with_it():
    deck = journal.parse_deck(("card,suite,action,description\n2,hearts,no-pull," + LONG_PROMPT[:400] + "\n").encode(),
                              "wind.csv").record()
    session = at_a_card(new_game(deck=deck))

    async def steps(pilot):
        board = screen_text(pilot.app)
        await pilot.press("o")
        await pilot.pause()
        return board, screen_text(pilot.app)

    board, whole = drive(DicehallApp(session=session), steps)
    assert "(o: the whole" in board
    read = " ".join(whole.replace("│", " ").split())  # the dialog's lines, its frame taken off
    assert LONG_PROMPT[:400] in read


def test_a_prompts_line_breaks_show_in_the_card_panel():
    deck = journal.parse_deck(b'card,suite,action,description\n2,hearts,no-pull,"The door is shut.\nThe lamp is out."\n',
                              "door.csv").record()
    session = at_a_card(new_game(deck=deck))

    async def steps(pilot):
        board = screen_text(pilot.app)
        await pilot.press("o")  # the whole prompt: its lines kept there too
        await pilot.pause()
        return board, screen_text(pilot.app)

    for shown in drive(DicehallApp(session=session), steps):
        lines = [line.strip(" │") for line in shown.splitlines()]
        assert any(line.endswith("The door is shut.") for line in lines)  # its own line, not run into the next
        assert any(line.endswith("The lamp is out.") and "shut" not in line for line in lines)


def test_the_footer_fits_and_the_title_says_the_deck_once():
    deck = journal.parse_deck(b"card,suite,action,description\n2,hearts,no-pull,Cold.\n", "gnome-fixed.csv").record()
    session = new_game(name="Gnome-fixed", deck=deck)

    async def steps(pilot):
        lines = [footer(pilot.app)]
        await typed_card(pilot)
        lines.append(footer(pilot.app))
        await pilot.press("w")
        lines.append(footer(pilot.app))
        return lines, screen_text(pilot.app).splitlines()[0]

    lines, title = drive(DicehallApp(session=session), steps)
    for line in lines:
        assert len(line) <= 80 and not line.rstrip().endswith(("Rewrit", "earlie"))
    assert lines[1].rstrip().endswith("w Write  s Skip")  # the last key shown whole
    assert title.count("nome-fixed") == 1


def test_rulings_override_the_deck_and_the_save_records_them():
    options = journal.check_options({"tokens": 3, "final_check": "pull", "kings": 2, "deck_out": "reshuffle"})
    state = journal.initial_state(options, ())
    assert {key: state.deck.settings[key] for key in journal.RULINGS} == {
        "tokens": 3, "final_check": "pull", "kings": 2, "deck_out": "reshuffle"}
    assert journal.initial_state(journal.check_options({}), ()).deck.settings["tokens"] == 10
    pulling = journal.parse_deck(b'[game]\ntitle = "Pull"\nfinal_check = "pull"\n', "pull.toml").record()
    assert journal.initial_state(journal.check_options({"deck": pulling}), ()).deck.settings["final_check"] == "pull"
    overruled = journal.check_options({"deck": pulling, "final_check": "none"})  # the player's choice wins
    assert overruled["final_check"] == "none" and overruled["deck"]["final_check"] == "pull"  # both recorded
    assert journal.initial_state(overruled, ()).deck.settings["final_check"] == "none"
    with pytest.raises(OptionError, match="kings is not a whole number from 1 to 4"):
        journal.check_options({"kings": 9})
    with pytest.raises(OptionError, match="final_check is not one of none, pull"):
        journal.check_options({"final_check": "[bold]x"})


async def to_line(pilot, key):
    """Move the setup's cursor down to the line `key`."""
    await pilot.pause()
    while pilot.app.screen.current() != key:
        await pilot.press("down")
    await pilot.pause()


def test_the_setup_offers_the_rulings_with_the_srd_words():
    async def steps(pilot):
        app = pilot.app
        app.push_screen(JournalSetupScreen())
        await to_line(pilot, "final_check")
        shown = screen_text(app)
        await pilot.press("right")
        await to_line(pilot, "tokens")
        await pilot.press("left", "left")
        await pilot.pause()
        chosen = screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        return shown, chosen, app.screen

    shown, chosen, screen = drive(DicehallApp(), steps)
    assert "Final pull on salvation:  none  (the deck's)" in shown and "salvation may come with a final pull" in shown
    assert "Final pull on salvation:  pull  (yours; the deck's: none)" in chosen and "Tokens:  8" in chosen
    assert isinstance(screen, JournalScreen)
    assert screen.session.options["final_check"] == "pull" and screen.session.options["tokens"] == 8
    assert screen.session.state.deck.settings["final_check"] == "pull"


def finish_by_kings(session, entry="The last night.") -> None:
    """Play a journal to its end by typed cards: the four Kings, then the last entry."""
    from dicehall.engine.games.journal import DrawCard, StartDay, WriteEntry

    session.play(StartDay(), faces=[6])
    for card in ("KH", "KD", "KC", "KS"):
        session.play(DrawCard(card))
        if session.outcome is None and session.state.phase in ("entry", "last-entry"):
            session.play(WriteEntry(f"{card} came up. {entry}"))
    while session.outcome is None:
        session.play(WriteEntry(entry))


def test_the_bookshelf_lists_finished_journals_and_reads_one():
    done = new_game(name="the [bold]long[/bold] winter")
    finish_by_kings(done)
    saves.close_save(done)
    saves.close_save(new_game(name="still going"))

    async def steps(pilot):
        app = pilot.app
        app.push_screen(JournalSetupScreen())
        await to_line(pilot, "shelf")
        await pilot.press("enter")
        await pilot.pause()
        shelf = screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        read = screen_text(app)
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        return shelf, read, status(app)

    shelf, read, said = drive(DicehallApp(), steps)
    assert "the [bold]long[/bold] winter" in shelf and "still going" not in shelf
    assert "Reading: the [bold]long[/bold] winter" in read and "Day 1" in read and "KH came up." in read
    assert "the end of the journal" in said or "fits on the screen" in said
    assert saves.load_readonly("the [bold]long[/bold] winter").outcome is not None  # read, nothing changed


def test_a_hostile_draft_record_is_read_as_text_within_its_cap():
    from dicehall.saves.draft_record import DRAFT_LIMIT
    from dicehall.saves.drafts import write_draft

    session = new_game(name="hostile")
    write_draft(session, "\x1b[31m[bold]red[/bold]\x07 " + "x" * (DRAFT_LIMIT * 3))
    session.journal.append({"op": "draft", "text": ["not", "text"]})  # a damaged or hostile file's record
    saves.close_save(session)
    assert draft_of(saves.load_readonly("hostile")) == ""
    session = saves.open_save("hostile")
    write_draft(session, "\x1b[31m[bold]red[/bold]\x07 " + "x" * (DRAFT_LIMIT * 3))
    saves.close_save(session)
    kept = draft_of(saves.load_readonly("hostile"))
    assert kept.startswith("[31m[bold]red[/bold] x") and len(kept) <= DRAFT_LIMIT and "\x1b" not in kept


def test_after_a_king_the_keys_stay_commands():
    session = new_game()

    async def steps(pilot):
        await typed_card(pilot, "kh")
        await pilot.press("q")  # a command: the game is left, nothing typed
        await pilot.pause()
        return pilot.app.screen

    screen = drive(DicehallApp(session=session), steps)
    assert not isinstance(screen, JournalScreen) and session.state.kings == ("KH",)
    assert draft_of(saves.load_readonly("night watch")) == ""


def test_a_rewrite_under_way_survives_leaving_and_escape_keeps_it():
    session = at_a_card(new_game())

    async def steps(pilot):
        await rewrite_first(pilot, "Old.", " New.")

    drive(DicehallApp(session=session), steps)  # the test ends with the rewrite in the box: the app closes
    resumed = saves.open_save("night watch")

    async def again(pilot):
        back = box(pilot).text, status(pilot.app)
        await pilot.press("w", "escape")  # Escape keeps the rewrite for later, and says so
        await pilot.pause()
        return back, status(pilot.app)

    (text, said), kept = drive(DicehallApp(session=resumed), again)
    assert text == "Old. New." and "rewrite of entry 1 is back" in said and "rewrite of entry 1 is kept" in kept
    assert resumed.state.pages[0].entry == "Old."
    assert rewrite_of(saves.load_readonly("night watch")) == (1, "Old. New.")


def to_the_last_entry(session) -> None:
    """Entry 1 written (2H), then the four Kings: the last King's entry closes the journal."""
    from dicehall.engine.games.journal import DrawCard, StartDay, WriteEntry

    session.play(StartDay(), faces=[6])
    session.play(DrawCard("2H"))
    session.play(WriteEntry("Old."))
    for card in ("KH", "KD", "KC", "KS"):
        session.play(DrawCard(card))
        if session.state.phase == "entry":
            session.play(WriteEntry(f"{card} came up."))
    assert session.state.phase == "last-entry" and session.outcome is None


async def rewrite_entry_one(pilot, more):
    """e, 1, Enter: entry 1's rewrite (the kept one, else its old words) in the box; then type `more`."""
    await pilot.press("e")
    await pilot.pause()
    await pilot.press("backspace", "1", "enter")
    await pilot.pause()
    await type_text(pilot, more)


@pytest.mark.parametrize("close", ["ctrl+s", "s"])
def test_closing_the_journal_asks_first_when_a_rewrite_is_kept_unsaved(close):
    session = new_game()
    to_the_last_entry(session)

    async def steps(pilot):
        await rewrite_entry_one(pilot, " New.")
        await pilot.press("escape")  # the rewrite is set aside, kept
        await pilot.pause()
        if close == "ctrl+s":
            await write(pilot, "The end.")
        await pilot.press(close)
        await pilot.pause()
        asked = screen_text(pilot.app)
        await pilot.press("n")  # no: nothing closes, the rewrite stays kept
        await pilot.pause()
        kept = status(pilot.app), session.outcome
        if close == "ctrl+s":
            await pilot.press("escape")  # out of the last entry's box (its words stay, a draft)
        await rewrite_entry_one(pilot, "")  # e, Enter: the kept rewrite is back in the box
        await pilot.press("ctrl+s")
        await pilot.pause()
        if close == "ctrl+s":
            await pilot.press("w")
        await pilot.press(close)  # nothing kept now: it closes without asking
        await pilot.pause()
        return asked, kept

    asked, (said, outcome) = drive(DicehallApp(session=session), steps)
    assert "Your rewrite of entry 1 is kept, not saved" in asked and "no entry can be rewritten" in asked
    assert outcome is None and "e then 1 opens your rewrite" in said
    assert session.state.pages[0].entry == "Old. New." and session.outcome is not None


def test_closing_the_journal_can_drop_a_kept_rewrite():
    session = new_game()
    to_the_last_entry(session)

    async def steps(pilot):
        await rewrite_entry_one(pilot, " New.")
        await pilot.press("escape", "s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()

    drive(DicehallApp(session=session), steps)
    assert session.outcome is not None and session.state.pages[0].entry == "Old."
