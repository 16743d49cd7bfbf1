"""The journal's game screen: the day, the card and its prompt, the tower and its odds, the Kings,
the tokens, the cards left, the entry being written and the journal so far (drawn by
journal_pages; its setup is journal_setup). Every text from a deck or a player is shown as text
(rich Text, never markup)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import TextArea

from dicehall.engine.games import journal
from dicehall.engine.games.journal import (
    AmendEntry, Draw, DrawCard, JournalState, PullBlock, RollSalvation, SkipEntry, StartDay, WriteEntry, parse_card,
)
from dicehall.tui.screens.base import GameScreen, with_deal
from dicehall.tui.screens.dialogs import AskScreen, ConfirmScreen, HelpScreen
from dicehall.tui.screens.journal_pages import BackgroundOdds, card_line, draw_board, journal_text
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine, title_line

PHASE_WORDS = {
    "day": "n: start the next day", "draw": "d: draw a card (c: type one)", "pull": "p: pull from the tower",
    "entry": "write the entry: ctrl+s saves it, s skips it", "day-end": "n: roll for salvation",
    "final-pull": "p: the final pull", "last-entry": "the last entry: ctrl+s saves it, s skips it",
    "over": "the game is over: v reviews it, q leaves",
}


def parse_die(text: str) -> list[int] | str:
    digits = [c for c in text if not c.isspace()]
    if len(digits) != 1 or digits[0] not in "123456":
        return "type the face you rolled, 1 to 6"
    return [int(digits[0])]


def parse_two(text: str) -> list[int] | str:
    digits = [c for c in text if not c.isspace() and c not in ",+"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        return "type the two faces, each 1 to 6, like: 3 5"
    return [int(c) for c in digits]


def entry_taken_back(before: JournalState, after: JournalState) -> tuple[int, str] | None:
    """The entry written in `before` and not in `after` (an undo took its write back): (its page, 0
    for the last words; its words), or None."""
    for number, (old, new) in enumerate(zip(before.pages, after.pages), start=1):
        if old.entry is not None and new.entry is None and not new.skipped:
            return number, old.entry
    if before.last_words and after.last_words is None:
        return 0, before.last_words
    return None


def rewrite_taken_back(before: JournalState, after: JournalState) -> tuple[int, str] | None:
    """The rewrite saved in `before` and not in `after` (an undo took its amendment back): (its page,
    the rewritten words), or None."""
    for number, (old, new) in enumerate(zip(before.pages, after.pages), start=1):
        if old.amended > new.amended and old.entry is not None:
            return number, old.entry
    return None


class JournalScreen(GameScreen):
    BINDINGS = [
        Binding("n", "next", "Next"),
        Binding("d", "draw", "Draw"),
        Binding("c", "type_card", "Type card"),
        Binding("p", "pull(False)", "Pull"),
        Binding("r", "pull(True)", "Pull+remove"),
        Binding("ctrl+s", "save_entry", "Save", priority=True),
        Binding("w,enter", "write", "Write", priority=True),
        Binding("s", "skip", "Skip"),
        Binding("e", "edit", "Rewrite"),
        Binding("o", "show_prompt", "Prompt", show=False),
        Binding("a", "show_deck", "Deck", show=False, tooltip="the deck: which cards do what, its settings"),
        Binding("escape", "leave_text", "Leave text", show=False, priority=True),
        Binding("t", "toggle_typed", "Typed dice", show=False),
    ]
    AUTO_FOCUS = ""  # nothing takes the keys by itself: the entry box only on w or Enter
    HELP_NOTES = "Next pull: exact (the tower's chain); tower ends it: simulated from here."  # one line: ? fits

    def __init__(self, session) -> None:
        super().__init__(session)
        self.typed_dice = False
        self.amending: int | None = None  # the page whose rewrite is in the box, if any
        self.odds = BackgroundOdds(journal.tower_odds, self.odds_known, self.odds_call_later)
        self._deck: object = None  # the deck whose fingerprint (_deck_key) the figures' keys hold
        self._deck_key = b""
        self._draft_timer: Timer | None = None  # the draft is kept a moment after the last key (DRAFT_SECONDS)
        self.draft = ""  # the entry box's words (kept here too: at a hang-up the box may be gone)
        self.rewrite_page = 0  # the page of the rewrite kept (in the box or set aside: e opens it again); 0: none
        self.rewrite = ""  # that rewrite's words, kept apart from the draft
        self.draft_unkept = False  # the last try to keep the box's words failed: leaving the hall asks about them

    DRAFT_SECONDS = 1.0

    def compose(self) -> ComposeResult:
        yield Plain("", id="title", classes="title")
        with Horizontal(id="journal-body"):
            yield Plain("", id="journal-panel", classes="board")
            with Vertical(id="journal-side"):
                yield Plain("", id="journal-hint")
                yield TextArea(id="journal-entry", soft_wrap=True, show_line_numbers=False)
                with VerticalScroll(id="journal-pages"):
                    yield Plain("", id="journal-so-far")
        yield StatusLine("")  # on_mount says what comes next, as the panel's hint does
        yield KeysFooter()

    @property
    def state(self) -> JournalState:
        return self.session.state

    def in_box(self) -> bool:
        """The entry box has the keys: the screen's focus, set at once (the widget's has_focus follows
        a message later, after keys already on their way)."""
        return self.focused is self.query_one("#journal-entry", TextArea)

    def writing(self) -> bool:
        return self.state.phase in ("entry", "last-entry") or self.amending is not None

    def tower_odds(self) -> float:
        """The simulated figure, worked out again only when what it depends on changes (WORKING while
        a long deck's is still being simulated: journal_pages.BackgroundOdds)."""
        state = self.state
        if state.deck is not self._deck:  # (one deck a game: its fingerprint made once)
            record = json.dumps(state.deck.record(), sort_keys=True).encode()
            self._deck, self._deck_key = state.deck, hashlib.blake2b(record, digest_size=16).digest()
        key = (self._deck_key, state.tower, state.remaining, state.kings, state.salvation, state.tokens, state.to_draw,
               state.phase, state.pull_due, state.ending, state.skips, state.salvation_from, state.reshuffles)
        return self.odds.figure(key, state)

    def odds_call_later(self, callback) -> None:
        self.app.call_from_thread(callback)

    def odds_known(self) -> None:
        """A figure the board showed as WORKING is known: drawn, if this screen is still up."""
        if self.is_current:
            self.redraw()

    def redraw(self) -> None:
        session, state = self.session, self.state
        name = session.labels.save_name
        head = f"Journal: {state.deck.title}"
        if name.casefold() == state.deck.title.casefold():  # a save named after its deck: said once
            head, name = head + " ", ""
        else:
            head += ": "
        title = title_line(head, name, f"   (seed {session.seed}, undos {session.undos})",
                           self.size.width - 2)
        self.query_one("#title", Plain).show(Text(with_deal(title, session, self.size.width - 2), style="bold"))
        self.query_one("#journal-panel", Plain).show(draw_board(state, odds=self.tower_odds(), cut_prompt=True))
        self.query_one("#journal-hint", Plain).show(Text(self.hint(), style="bold"))
        self.query_one("#journal-entry", TextArea).disabled = not self.writing()
        pages = self.query_one("#journal-pages", VerticalScroll)
        if state.pages:
            self.query_one("#journal-so-far", Plain).show(journal_text(state))
            pages.scroll_end(animate=False)
        else:  # before the first card: the deck's actions and settings (issue #30: shown before the game starts)
            self.query_one("#journal-so-far", Plain).show(Text("\n".join(
                [*journal.deck_summary(state.deck), "", "The journal is empty.", self.hint()])))
            pages.scroll_home(animate=False)

    def hint(self) -> str:
        """What to do next, in the panel's words (and the status line's on mount)."""
        state = self.state
        focused = self.in_box()
        if self.amending is not None:
            return (f"Rewriting entry {self.amending} (ctrl+s saves it as an amendment; Escape keeps it for later)"
                    if focused else f"Your rewrite of entry {self.amending}: w or Enter goes on with it, ctrl+s saves it")
        if self.writing():
            which = "the last entry" if journal.rules.pending_page(state) == 0 else f"entry {len(state.pages)}"
            return (f"Write {which}: ctrl+s saves it, Escape leaves the box"
                    if focused else f"w or Enter: write {which} (s skips it)")
        if self.session.chance_needed is not None:
            return "waiting for the dice: " + ("p types them" if state.phase.endswith("pulling") else "n types it")
        if state.phase == "day" and not state.day:
            return "n: start the first day"
        return PHASE_WORDS.get(state.phase, "")

    # ----- what is possible now -----
    def possible_now(self, action: str, parameters: tuple) -> bool:
        state, waiting = self.state, self.session.chance_needed is not None
        writing_box = self.in_box()
        if action in ("next", "draw", "type_card", "pull") and self.amending is not None:
            return False  # a rewrite in the box comes first (and the footer fits with it: u v ? q ^s w e)
        if action == "next":
            return state.phase in ("day", "day-end") or (waiting and state.phase in ("rolling-day", "day-end-rolling"))
        if action in ("draw", "type_card"):
            return state.phase == "draw" and not writing_box
        if action == "pull":
            if waiting and state.phase.endswith("pulling"):
                return not writing_box and not parameters[0]  # p types the faces, whichever pull began it
            remove = state.pull_due == "remove"
            return (state.phase == "pull" and parameters[0] == remove) or (state.phase == "final-pull" and not parameters[0])
        if action == "save_entry":
            return self.writing()
        if action == "write":
            return self.writing() and not writing_box
        if action == "skip":
            return state.phase in ("entry", "last-entry") and not writing_box and self.amending is None
        if action == "edit":
            return not writing_box and self.session.outcome is None and self.session.to_act is not None and any(
                p.entry is not None or p.skipped for p in state.pages)
        if action == "leave_text":
            return writing_box
        if action == "show_prompt":
            return bool(self.state.pages) and not writing_box
        if action == "toggle_typed":
            return self.session.outcome is None and not writing_box
        if writing_box and action in ("undo", "review", "rules", "back"):
            return False
        return super().possible_now(action, parameters)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("write", "leave_text"):  # priority: keys behind them in a burst go where they send them
            return self.possible_now(action, parameters)  # (when they do nothing, w and Enter are text)
        return super().check_action(action, parameters)

    def why_disabled(self, action: str, parameters: tuple) -> str:
        if self.in_box():
            return "you are writing: Escape leaves the box first"
        if self.amending is not None:
            return (f"your rewrite of entry {self.amending} is in the box: w goes on with it (Escape there keeps it "
                    "for later), ctrl+s saves it")
        if self.session.outcome is not None:
            return f"the game is over ({self.session.outcome.summary}): v reviews it, q leaves"
        return PHASE_WORDS.get(self.state.phase, "wait for the dice")

    # ----- the keys -----
    def play(self, command, faces=None, done: str = "") -> bool:
        ok = self.attempt(lambda: self.session.play(command, faces=faces))
        if ok:
            self.said_after(done)
        self.redraw()
        return ok

    def said_after(self, done: str) -> None:
        session = self.session
        last = session.describe(len(session.events) - 1)
        self.status(done or last)
        if session.outcome is not None:
            self.status(f"{session.outcome.summary}. The journal is closed: v reviews it, q leaves")

    def action_next(self) -> None:
        state = self.state
        if self.session.chance_needed is not None:
            self.ask_dice(parse_die, "Type the face you rolled", lambda faces: self.session.roll(faces))
            return
        command = StartDay() if state.phase == "day" else RollSalvation()
        if self.typed_dice:
            what = "the day's die" if state.phase == "day" else "the salvation die"
            self.ask_dice(parse_die, f"Type {what} you rolled (1 to 6)",
                          lambda faces: self.session.play(command, faces=faces))
            return
        self.play(command)

    def action_draw(self) -> None:
        self.play(Draw())
        self.after_card()

    def after_card(self) -> None:
        """The box waits for w or Enter: taking focus at once would turn the next command key into text."""
        state = self.state
        if state.phase == "pull":
            self.status(f"{self.session.describe(len(self.session.events) - 1)}: press "
                        f"{'r to pull and remove' if state.pull_due == 'remove' else 'p to pull'}")

    def action_type_card(self) -> None:
        def check(text: str) -> str | None:
            return None if parse_card(text) else "a card is a rank and a suit: 7H, 10S, QD, ace of hearts"

        def typed(answer: str | None) -> None:
            if answer is None:
                self.status("no card typed; nothing changed")
                return
            card = parse_card(answer)
            assert card is not None  # check() accepted it
            self.play(DrawCard(card))
            self.after_card()

        self.app.push_screen(AskScreen("The card you drew from your deck (like 7H, 10S, QD):", check=check), typed)

    def action_pull(self, remove: bool) -> None:
        if self.session.chance_needed is not None:
            self.ask_dice(parse_two, "Type the next two faces", lambda faces: self.session.roll(faces))
            return
        if self.typed_dice:
            self.ask_dice(parse_two, "Type the two faces you rolled (like 3 5)",
                          lambda faces: self.session.play(PullBlock(remove), faces=faces))
            return
        self.play(PullBlock(remove))
        self.after_pull()

    def after_pull(self) -> None:
        if self.session.chance_needed is not None:
            self.status("double threes: -6, type the next two faces (p)")

    def ask_dice(self, parse, question: str, run) -> None:
        def typed(answer: str | None) -> None:
            if answer is None:
                self.status("no dice typed; nothing changed" if self.session.chance_needed is None
                            else "still waiting for the dice: type them when you have rolled")
                return
            if self.attempt(lambda: run(parse(answer))):
                self.said_after("")
            self.redraw()
            self.after_pull()

        self.app.push_screen(AskScreen(question, check=lambda t: p if isinstance(p := parse(t), str) else None), typed)

    def action_save_entry(self) -> None:
        box = self.query_one("#journal-entry", TextArea)
        if self.amending is not None:
            page = self.amending
            if self.play(AmendEntry(page, box.text), done=f"entry {page} amended (the old words stay in the log)"):
                self.amending, self.rewrite_page, self.rewrite = None, 0, ""
                self.put_in_box(self.draft)  # the entry being written before the rewrite, if any
                self.keep_draft()
                self.focus_panel()
            return
        self.unless_rewrite_kept(self.write_entry)

    def write_entry(self) -> None:
        if self.play(WriteEntry(self.query_one("#journal-entry", TextArea).text), done="entry saved"):
            self.draft = ""
            self.put_in_box("")
            self.keep_draft()
            self.focus_panel()
            if self.session.outcome is None:
                self.status(f"entry saved; {PHASE_WORDS.get(self.state.phase, '')}")

    def action_skip(self) -> None:
        self.unless_rewrite_kept(self.skip_entry)

    def skip_entry(self) -> None:
        if self.play(SkipEntry(), done="entry skipped"):
            self.draft = ""
            self.put_in_box("")
            self.keep_draft()

    def unless_rewrite_kept(self, close: Callable[[], None]) -> None:
        """Run `close` (an entry written or skipped), asking first when it closes the journal while a
        rewrite is kept unsaved: once the game is over no entry can be rewritten, so it would be lost."""
        page = self.rewrite_page
        if self.state.phase != "last-entry" or not page or not self.rewritable(page):
            close()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                close()
            else:
                self.status(f"nothing changed: e then {page} opens your rewrite, ctrl+s saves it")

        self.app.push_screen(ConfirmScreen(f"Your rewrite of entry {page} is kept, not saved, and this entry closes the "
                                           "journal: after it no entry can be rewritten. Close it and drop the rewrite?"),
                             answered)

    def action_write(self) -> None:
        self.set_focus(self.query_one("#journal-entry", TextArea))
        self.refresh_bindings()
        self.call_after_refresh(self.redraw)

    # ----- the draft: kept in the save as it is typed (saves/drafts.py), back in the box on continue -----
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        # the box's words now (not when the event was sent): a late event after a rewrite ends is harmless
        if self.amending is None:
            self.draft = event.text_area.text
        else:
            self.rewrite = event.text_area.text
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(self.DRAFT_SECONDS, self.keep_draft)

    def keep_draft(self) -> bool:
        """Write the entry box's words to the save now: the draft, and the rewrite kept if any (none
        once it is saved, or emptied). A save that cannot take them says why in one line; the box
        keeps them (False)."""
        from dicehall.saves import SaveError
        from dicehall.saves.drafts import write_draft, write_rewrite

        if self._draft_timer is not None:
            self._draft_timer.stop()
            self._draft_timer = None
        try:
            write_draft(self.session, self.draft)
            write_rewrite(self.session, self.rewrite_page, self.rewrite)
        except (SaveError, OSError) as error:
            if self.query(StatusLine):  # gone once the screen is taken down: the line was shown when it began
                self.status(f"the draft was not kept: {error}", error=True)
            self.draft_unkept = True
            return False
        self.draft_unkept = False
        return True

    def put_in_box(self, words: str) -> None:
        """The entry box shows `words` (a draft, a rewrite), the cursor at their end: typing goes on from there."""
        box = self.query_one("#journal-entry", TextArea)
        box.text = words
        box.move_cursor(box.document.end)

    def on_mount(self) -> None:
        from dicehall.saves.drafts import draft_of, rewrite_of

        # (runs before GameScreen's on_mount draws the screen and says any notice)
        self.draft = draft_of(self.session)
        self.rewrite_page, self.rewrite = rewrite_of(self.session)  # kept even when its page is undone: never lost
        page = self.rewrite_page
        self.status(f"{self.hint()}   ?: all keys")  # where the game stands, as the panel says it
        if page and self.rewritable(page) and self.session.outcome is None:
            self.amending = page
            self.put_in_box(self.rewrite)
            self.status(f"your rewrite of entry {page} is back: w or Enter goes on, ctrl+s saves it")
        elif self.draft:  # (also when no entry is due: a takeback came first; it waits there for the next one)
            self.put_in_box(self.draft)
            self.status("your draft is back in the box: w or Enter writes on" if self.writing()
                        else "your draft is back in the box: it waits for the next entry")

    def on_unmount(self) -> None:
        self.keep_draft()  # before GameScreen's on_unmount closes the save (Textual runs this one first)

    def action_leave_text(self) -> None:
        if self.amending is not None:
            self.set_rewrite_aside()
        elif self.keep_draft():
            self.status("out of the box, the draft kept: w writes on, s skips, ? lists the keys")
        self.focus_panel()
        self.redraw()

    def set_rewrite_aside(self) -> None:
        """The rewrite in the box leaves it, kept in the save (e on its entry opens it again): words
        typed are never dropped silently. A rewrite emptied, or still the old words, is none."""
        page, self.amending = self.amending, None
        assert page is not None  # called while a rewrite is in the box
        pages = self.state.pages
        old = (pages[page - 1].entry or "") if page <= len(pages) else None
        if not self.rewrite.strip() or self.rewrite == old:
            self.rewrite_page, self.rewrite = 0, ""
            said = f"not amended: entry {page} is as it was"
        else:
            said = f"your rewrite of entry {page} is kept, not saved: e then {page} opens it again"
        self.put_in_box(self.draft)
        if self.keep_draft():  # (a failure says so instead)
            self.status(said)

    def focus_panel(self) -> None:
        self.set_focus(None)
        self.refresh_bindings()
        self.call_after_refresh(self.redraw)  # the hint follows the focus once it has moved

    def action_edit(self) -> None:
        pages = self.state.pages
        written = [n for n in range(1, len(pages) + 1) if self.rewritable(n)]

        def check(text: str) -> str | None:
            return None if text.strip().isdigit() and int(text) in written else f"type a page from 1 to {written[-1]}"

        def chosen(answer: str | None) -> None:
            if answer is None:
                self.status("nothing to edit; nothing changed")
                return
            page, kept = int(answer), self.rewrite_page
            if not kept or kept == page:
                self.open_rewrite(page)
                return

            def drop(yes: bool | None) -> None:
                if yes:
                    self.open_rewrite(page)
                else:
                    self.status(f"your rewrite of entry {kept} is kept: e then {kept} opens it")

            self.app.push_screen(ConfirmScreen(f"Your rewrite of entry {kept} is kept, not saved. Rewriting entry "
                                               f"{page} instead drops it. Drop it?"), drop)

        default = self.rewrite_page if self.rewritable(self.rewrite_page) else written[-1]
        self.app.push_screen(AskScreen(f"Which entry to rewrite (1 to {written[-1]})?", str(default), check=check),
                             chosen)

    def rewritable(self, page: int) -> bool:
        """Entry `page` is written or skipped (an undo may have taken it back since its rewrite was kept)."""
        pages = self.state.pages
        return 0 < page <= len(pages) and (pages[page - 1].entry is not None or pages[page - 1].skipped)

    def open_rewrite(self, page: int) -> None:
        """Entry `page`'s rewrite in the box: the one kept for it, else its old words; the cursor at the end."""
        if page != self.rewrite_page:
            self.rewrite_page, self.rewrite = page, self.state.pages[page - 1].entry or ""
        self.amending = page
        self.put_in_box(self.rewrite)
        self.redraw()
        self.set_focus(self.query_one("#journal-entry", TextArea))
        self.refresh_bindings()
        self.status(f"rewriting entry {page}: ctrl+s saves it, Escape keeps it for later")

    def action_back(self) -> None:
        """q leaves at once, the draft kept; a draft the save could not take asks first (as in the hall)."""
        if not self.draft_unkept or self.keep_draft():
            super().action_back()
            return
        self.app.push_screen(ConfirmScreen(self.app.with_unkept_draft("Leave the game?")),
                             lambda yes: super(JournalScreen, self).action_back() if yes else None)

    def action_show_deck(self) -> None:
        """The deck's actions and settings at any point of the game (the panel shows them before the first card)."""
        lines = "\n\n".join(journal.deck_summary(self.state.deck))  # the dialog flows a paragraph's lines: one each
        self.app.push_screen(HelpScreen("The deck", [], lines))

    def action_show_prompt(self) -> None:
        page = self.state.pages[-1]
        prompt = self.state.deck.prompt(page.card) or "(no prompt: this card only has its rule)"
        lines = "\n\n".join(line for line in prompt.split("\n") if line.strip())  # the dialog flows a paragraph's lines
        self.app.push_screen(HelpScreen(f"Card {len(self.state.pages)}: {card_line(self.state, page.card)}", [], lines))

    def action_toggle_typed(self) -> None:
        self.typed_dice = not self.typed_dice
        self.status("typed dice: n and p ask for the faces you rolled" if self.typed_dice
                    else "dicehall rolls the dice again")

    def action_undo(self) -> None:
        rewriting = self.amending is not None
        if rewriting:
            self.set_rewrite_aside()  # kept: the undone move may not be the rewritten entry's
        before = self.state
        super().action_undo()
        if rewriting and self.rewrite_page:
            self.status(f"{self.query_one(StatusLine).message}; your rewrite of entry {self.rewrite_page} is kept")
        undone = entry_taken_back(before, self.state)
        if undone is not None:  # its words are the draft again (a draft kept for later stays, after them)
            page, words = undone
            self.draft = words + "\n\n" + self.draft if self.draft.strip() else words
            self.put_in_box(self.draft)
            self.keep_draft()
            which = f"entry {page}'s words are" if page else "the last words are"
            self.status(f"{self.query_one(StatusLine).message}; {which} back in the box")
        unamended = rewrite_taken_back(before, self.state)
        if unamended is not None and self.amending is None:
            self.keep_rewrite_undone(*unamended)

    def keep_rewrite_undone(self, page: int, words: str) -> None:
        """An undone rewrite's words are never dropped: the rewrite kept for later (e then its page
        opens it again) when no other rewrite is kept (of another entry, or other words of this one),
        else in the box after the draft."""
        if not self.rewrite_page or not self.rewrite.strip() or (self.rewrite_page, self.rewrite) == (page, words):
            self.rewrite_page, self.rewrite = page, words
            said = f"your rewrite of entry {page} is kept, not saved: e then {page} opens it again"
        else:
            self.draft = self.draft + "\n\n" + words if self.draft.strip() else words
            self.put_in_box(self.draft)
            said = f"your rewrite of entry {page} is in the box (a rewrite of entry {self.rewrite_page} is kept)"
        if self.keep_draft():
            self.status(f"{self.query_one(StatusLine).message}; {said}")

    def action_redo(self) -> None:
        before = self.state
        super().action_redo()
        rewritten = rewrite_taken_back(self.state, before)
        if rewritten is not None and (self.rewrite_page, self.rewrite) == rewritten and self.amending is None:
            self.rewrite_page, self.rewrite = 0, ""  # saved again: no longer a rewrite kept for later
            self.keep_draft()
        redone = entry_taken_back(self.state, before)
        if redone is not None and self.amending is None:  # the words undo put back are the entry's again
            words = redone[1]
            if self.draft == words or self.draft.startswith(words + "\n\n"):
                self.draft = self.draft[len(words):].lstrip("\n")
                self.put_in_box(self.draft)
                self.keep_draft()
