"""The journal's screens at 80x24 as a reviewer found them: a kept rewrite is what e opens and
continue puts back (cursor at its end), Escape and undo keep a typed rewrite, a draft comes back
with the cursor after it, every footer of the game fits, the status says what comes next on
continue, the bookshelf reads each card's prompt, the deck's actions and settings come before the
first day (the panel, `a`, sim), and leaving with a draft the save could not take asks first."""
from __future__ import annotations

import re


from dicehall import saves
from dicehall.engine.games import journal
from dicehall.engine.games.journal import DrawCard, PullBlock, RollSalvation, StartDay, WriteEntry
from dicehall.saves.drafts import draft_of, rewrite_of, write_rewrite
from dicehall.sims.journal import format_journal, sim_journal
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.journal import JournalScreen
from dicehall.tui.screens.journal_pages import journal_text
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from dicehall.tui.widgets import KeysFooter
from tests.apphelpers import drive, footer, screen_text, settled, status, until
from tests.test_journal_app import type_text
from tests.test_journal_writer import (
    at_a_card, box, finish_by_kings, new_game, rewrite_entry, to_line, write,
)


def resumed(steps, name="night watch"):
    """Continue the save `name` (as `dicehall continue` does) and run `steps` on its screen."""
    return drive(DicehallApp(session=saves.open_save(name)), steps)


def at_end(pilot) -> bool:
    entry = box(pilot)
    return entry.cursor_location == entry.document.end


def left_rewriting(old, more):
    """A new game whose entry 1 (`old`) is being rewritten (`more` typed) when it is left, as at a
    hang-up: built through the session and the save's rewrite record (typing it and leaving is
    tests/test_journal_writer.py's test_a_rewrite_under_way_survives_leaving_and_escape_keeps_it)."""
    session = new_game()
    session.play(StartDay())  # n: the day's die from the seed
    session.play(DrawCard("2H"))  # c, 2h: a card with no pull, its entry due at once
    session.play(WriteEntry(old))
    write_rewrite(session, 1, old + more)  # e, Enter, `more` typed after the old words
    saves.close_save(session)


def test_a_kept_rewrite_is_what_e_opens_and_escape_keeps_it():
    left_rewriting("First words.", " A long revision")

    async def again(pilot):
        back = box(pilot).text, at_end(pilot), status(pilot.app)
        await rewrite_entry(pilot, " more")  # e on that entry opens the kept rewrite, cursor at its end
        await pilot.press("escape")
        await pilot.pause()
        return back, box(pilot).text, status(pilot.app)

    (text, cursor_at_end, said), in_box, kept = resumed(again)
    assert text == "First words. A long revision" and cursor_at_end and "rewrite of entry 1 is back" in said
    assert in_box == "" and "rewrite of entry 1 is kept" in kept  # the box holds the (empty) draft again
    assert rewrite_of(saves.load_readonly("night watch")) == (1, "First words. A long revision more")

    async def third(pilot):
        await pilot.press("w", "ctrl+s")
        await pilot.pause()

    resumed(third)
    assert saves.load_readonly("night watch").state.pages[0].entry == "First words. A long revision more"
    assert rewrite_of(saves.load_readonly("night watch")) == (0, "")


def test_undo_keeps_a_rewrite_and_emptying_it_drops_it():
    left_rewriting("Old.", " New.")

    async def undo(pilot):
        await pilot.press("u")  # the rewrite is in the box, unfocused: undo sets it aside, kept
        await pilot.pause()
        return status(pilot.app)

    said = resumed(undo)
    assert "rewrite of entry 1 is kept" in said
    assert rewrite_of(saves.load_readonly("night watch")) == (1, "Old. New.")

    async def empty(pilot):
        await pilot.press("ctrl+y")  # redo the entry: its rewrite is then opened by e and emptied
        await pilot.pause()
        await rewrite_entry(pilot, "")
        await pilot.press(*["backspace"] * len("Old. New."), "escape")
        await pilot.pause()
        return status(pilot.app)

    assert "not amended" in resumed(empty)
    assert rewrite_of(saves.load_readonly("night watch")) == (0, "")


def test_a_rewrite_for_another_entry_asks_before_dropping_the_kept_one():
    session = new_game()
    session.play(StartDay(), faces=[2])
    for card in ("2H", "4H"):
        session.play(DrawCard(card))
        session.play(WriteEntry(f"Entry {card}."))

    async def steps(pilot):
        await rewrite_entry(pilot, " Changed.")  # entry 2, the default
        await pilot.press("escape", "e")
        await pilot.pause()
        await pilot.press("backspace", "1", "enter")
        await pilot.pause()
        asked = pilot.app.screen.question
        await pilot.press("n")
        await pilot.pause()
        return asked, status(pilot.app)

    asked, said = drive(DicehallApp(session=session), steps)
    assert asked.startswith("Your rewrite of entry 2 is kept, not saved.") and "is kept" in said
    assert rewrite_of(session) == (2, "Entry 4H. Changed.")


def test_a_draft_comes_back_with_the_cursor_after_it():
    session = at_a_card(new_game())

    async def steps(pilot):
        await write(pilot, "Hangup draft words")

    drive(DicehallApp(session=session), steps)

    async def again(pilot):
        await write(pilot, "X")
        return box(pilot).text

    assert resumed(again) == "Hangup draft wordsX"


def footer_fits(pilot) -> str | None:
    """None if the footer's line shows each of its keys whole within 80 columns, else the line."""
    line = footer(pilot.app)
    keys = pilot.app.screen.query_one(KeysFooter).shown
    whole = len(line) < 80 and all(f"{key.display} {key.description}" in line for key in keys)
    return None if whole and keys else line


def test_every_footer_of_the_journal_fits_80_columns():
    options = journal.check_options({"tokens": 1, "final_check": "pull"})
    session = saves.new_save("journal", name="walk", seed=7, options=options, players=saves.solo_players())

    async def steps(pilot):
        screen, cut = pilot.app.screen, []

        async def look(what):
            screen.redraw()
            screen.refresh_bindings()
            await settled(pilot)  # the footer as drawn: Textual fills it a few messages later
            if (line := footer_fits(pilot)) is not None:
                cut.append((what, session.state.phase, line))

        async def rewrite_in_the_box(what):  # a rewrite put back on continue: in the box, the box unfocused
            screen.amending = 1
            screen.set_focus(None)
            await look(what)
            screen.amending = None

        await look("before the first day")
        session.play(StartDay(), faces=[2])
        await look("draw")
        session.play(DrawCard("3H"))
        await look("pull")
        session.play(PullBlock(False), faces=[3, 3])  # double threes: the next two faces are waited for
        await look("waiting for the dice")
        session.roll([1, 2])
        await look("entry")
        await pilot.press("w")
        await look("writing")
        await type_text(pilot, "a")
        await pilot.press("ctrl+s")
        await look("draw, an entry to rewrite")
        await rewrite_in_the_box("draw with a rewrite in the box")
        await pilot.press("e", "enter")
        await look("rewriting")
        await pilot.press("escape")
        session.play(DrawCard("AH"))
        await look("entry, an entry to rewrite")
        await rewrite_in_the_box("entry with a rewrite in the box")
        session.play(WriteEntry("y"))
        await look("day-end")
        session.play(RollSalvation(), faces=[6])
        await look("final pull")
        await rewrite_in_the_box("final pull with a rewrite in the box")
        session.play(PullBlock(False), faces=[1, 2])
        await look("last entry")
        session.play(WriteEntry("z"))
        await look("over")
        return cut

    assert drive(DicehallApp(session=session), steps) == []
    assert session.outcome is not None


def test_the_status_says_what_comes_next_on_continue():
    session = new_game()
    session.play(StartDay(), faces=[3])  # mid-day 1: cards still to draw
    saves.close_save(session)

    async def steps(pilot):
        return status(pilot.app), screen_text(pilot.app)

    said, shown = resumed(steps)
    assert said.startswith("d: draw a card") and "d: draw a card" in shown


def test_the_bookshelf_reads_each_cards_prompt_before_its_entry():
    done = new_game(name="winter")
    finish_by_kings(done)
    state = done.state
    saves.close_save(done)
    prompt = state.deck.prompt("KH")

    async def steps(pilot):
        pilot.app.push_screen(JournalSetupScreen())
        await to_line(pilot, "shelf")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        return " ".join(screen_text(pilot.app).split())

    read = drive(DicehallApp(), steps)
    assert prompt and f"1. King of hearts > {prompt[:30]}" in read  # the card, its prompt, then its entry
    assert prompt not in journal_text(state).plain  # the game screen's journal so far: the entries' room


def test_the_decks_actions_and_settings_come_before_the_first_day():
    session = new_game()
    summary = journal.deck_summary(session.state.deck)

    async def steps(pilot):
        panel = " ".join(screen_text(pilot.app).replace("│", " ").split())  # the board column blank below its lines
        await pilot.press("question_mark")
        await pilot.pause()
        listed = screen_text(pilot.app)
        await pilot.press("escape", "a")  # the deck at any point of the game
        await pilot.pause()
        return panel, listed, screen_text(pilot.app)

    panel, listed, dialog = drive(DicehallApp(session=session), steps)
    deck_shown = " ".join(dialog.replace("│", " ").split())
    starts = [line.strip(" │") for line in dialog.splitlines()]
    assert all(any(start.startswith(line[:20]) for start in starts) for line in summary)  # a line each, never run together
    assert summary[2] in panel and "The journal is empty. n: start the first day" in panel
    assert "a  the deck: which cards do what, its settings" in listed
    assert all(line in deck_shown for line in summary)
    report = format_journal(sim_journal(20, 1, "sample"))
    assert all(f"  {line}" in report.splitlines() for line in summary)


def test_leaving_with_a_draft_the_save_could_not_take_asks_first(monkeypatch):
    from dicehall.saves import SaveError
    from dicehall.saves import drafts

    session = at_a_card(new_game())
    room = {"left": True}
    write_draft = drafts.write_draft

    def full_disk(session, text):
        if room["left"]:
            return write_draft(session, text)
        raise SaveError("night watch: no room left on the disk")

    monkeypatch.setattr(drafts, "write_draft", full_disk)

    async def steps(pilot):
        room["left"] = False
        await write(pilot, "still here")
        await pilot.press("escape")
        await pilot.pause()
        said = status(pilot.app)
        await pilot.press("q")
        await pilot.pause()
        asked = pilot.app.screen.question
        await pilot.press("n")
        await pilot.pause()
        stayed = isinstance(pilot.app.screen, JournalScreen) and box(pilot).text == "still here"
        room["left"] = True  # room again: q keeps the draft and leaves without asking
        await pilot.press("q")
        await pilot.pause()
        return said, asked, stayed, isinstance(pilot.app.screen, JournalScreen)

    said, asked, stayed, still_there = drive(DicehallApp(session=session), steps)
    assert "the draft was not kept: night watch: no room left on the disk" in said
    assert asked == "Your draft could not be kept (the status line said why): leaving loses it. Leave the game?"
    assert stayed and not still_there
    assert draft_of(saves.load_readonly("night watch")) == "still here"


# ----- the tower's figure in the background: no deck's simulation holds the keys -----

def test_a_figure_that_takes_long_is_shown_as_working_and_only_the_newest_state_waits():
    import threading

    from dicehall.tui.screens import journal_pages

    gate, told, asked = threading.Event(), [], []

    def slow(state):
        asked.append(state)
        gate.wait(10)
        return {"a": 0.25, "b": 0.5, "c": 0.75}[state]

    odds = journal_pages.BackgroundOdds(slow, lambda: told.append(len(told)), lambda callback: callback())
    journal_pages_wait, journal_pages.ODDS_WAIT = journal_pages.ODDS_WAIT, 0.05
    try:
        assert odds.figure("a", "a") == journal_pages.WORKING  # still simulating: the key is not held
        assert odds.figure("b", "b") == journal_pages.WORKING  # waits for a's simulation to end
        assert odds.figure("c", "c") == journal_pages.WORKING  # and replaces b: only the newest is run
        gate.set()
        for _ in range(200):
            if len(told) == 2:
                break
            threading.Event().wait(0.02)
    finally:
        journal_pages.ODDS_WAIT = journal_pages_wait
    assert asked == ["a", "c"] and len(told) == 2  # a and c were each told once known; b never ran
    assert odds.figure("a", "a") == 0.25 and odds.figure("c", "c") == 0.75


def test_the_board_says_the_figure_is_being_simulated_then_draws_it(monkeypatch):
    import threading

    from dicehall.tui.screens import journal_pages

    gate = threading.Event()
    real = journal.tower_odds

    def slow(state):
        gate.wait(10)
        return real(state)

    monkeypatch.setattr(journal, "tower_odds", slow)
    monkeypatch.setattr(journal_pages, "ODDS_WAIT", 0.05)
    session = new_game()

    async def steps(pilot):
        await pilot.pause()
        working = screen_text(pilot.app)
        await pilot.press("n")  # a key while the figure is still being simulated: it is played at once
        await pilot.pause()
        started = pilot.app.screen.state.day
        gate.set()
        await until(pilot, lambda: "Tower ends it   ..." not in screen_text(pilot.app))
        return working, started, screen_text(pilot.app)

    working, started, known = drive(DicehallApp(session=session), steps)
    assert "Tower ends it   ..." in working and "(being simulated)" in working
    assert started == 1
    figure = re.search(r"Tower ends it +(\S+)", known)
    assert figure and re.fullmatch(r"<?[0-9.]+%", figure.group(1)), known  # the simulated figure, drawn once known
