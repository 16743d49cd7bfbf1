"""The journal drawn as text, shared by its screens: the board (the game's panel and the replay
viewer's), and the journal's pages (the game screen's journal so far, the bookshelf's reading).
Every text from a deck or a player is put in as text (rich Text, never markup)."""
from __future__ import annotations

import textwrap
import threading
from typing import Callable

from rich.text import Text

from dicehall.engine.games import journal
from dicehall.engine.games.journal import JournalState, card_name
from dicehall.engine.words import counted


def percent(chance: float) -> str:
    if chance <= 0:
        return "0%"
    if chance < 0.00005:
        return "<0.01%"
    return f"{chance * 100:.2f}%"


def card_line(state: JournalState, card: str) -> str:
    return journal.card_words(state, card)


BOARD_WIDTH = 26  # the board column's text (tui/dicehall.tcss .board) in the viewer and the game
PROMPT_SHOWN = 130  # a prompt's characters the board shows at 80x24 (about 6 lines); o shows it whole


WORKING = -1.0  # the tower's figure is still being simulated (a long deck's): the board says so
ODDS_WAIT = 3.0  # seconds a key waits for the figure (any usual deck's takes a fraction of one)


# (compute, key) -> figure, the newest KNOWN_MOST: kept for the process, not the screen, so a journal
# opened again (continue, a hall game joined again) shows a state's figure without simulating it again
_KNOWN: dict = {}
KNOWN_MOST = 64
_KNOWN_LOCK = threading.Lock()


class BackgroundOdds:
    """The "tower ends it" figure, simulated in a thread of its own so that no deck's figure (a
    reshuffling deck's can take minutes) holds the keys: a key waits up to ODDS_WAIT for it, after
    which the board shows WORKING and `ready(key, figure)` is called on the app's thread once it is
    known. One simulation at a time: states asked for meanwhile wait, and only the newest is run.
    The thread is a daemon: leaving the app (a hang-up included) never waits for it. A key names all
    the figure depends on: figures known are shared by every screen of the process."""

    def __init__(self, compute: Callable, ready: Callable, call_later: Callable) -> None:
        self.compute, self.ready, self.call_later = compute, ready, call_later
        self.lock = _KNOWN_LOCK
        self.known = _KNOWN
        self.running = False
        self.waiting: tuple | None = None  # (key, state) asked for while one ran
        self.late: set = set()  # keys a key stopped waiting for: `ready` is called for them

    def figure(self, key, state) -> float:
        key = (self.compute, key)  # the figure's own function's: another's (a test's stand-in) is never read
        with self.lock:
            if key in self.known:
                return self.known[key]
            if self.running:  # this state waits for the running one; its figure is told when known
                self.waiting = (key, state)
                self.late.add(key)
                return WORKING
            self.running = True
        done = threading.Event()
        threading.Thread(target=self._run, args=(key, state, done), daemon=True, name="journal-odds").start()
        done.wait(ODDS_WAIT)
        with self.lock:
            if key in self.known:
                return self.known[key]
            self.late.add(key)
            return WORKING

    def _run(self, key, state, done: threading.Event) -> None:
        while True:
            figure = self.compute(state)
            with self.lock:
                if len(self.known) >= KNOWN_MOST:
                    del self.known[next(iter(self.known))]  # the oldest
                self.known[key] = figure
                tell = key in self.late
                self.late.discard(key)
                key, state = self.waiting or (None, None)
                self.waiting = None
                self.running = key is not None
            done.set()
            if tell:
                try:
                    self.call_later(self.ready)
                except Exception:  # the app has gone (a hang-up): nobody to tell
                    pass
            if key is None:
                return
            done = threading.Event()


def draw_board(state: JournalState, reveal: bool = True, odds: float | None = None, cut_prompt: bool = False) -> Text:
    """Where the game stands, as a player sees it (the game screen's panel and the replay viewer's
    board): day, tower, its odds, Kings, tokens, cards left, and the current card with its prompt,
    every line wrapped at a word to the board's width. `cut_prompt`: a long prompt ends in "..." and
    names the key that shows it whole (the game screen's o; the viewer has no such key)."""
    drawn = _board(state, odds, cut_prompt)
    text = Text()
    for line in drawn.split("\n"):
        if len(line.plain) <= BOARD_WIDTH:
            text.append_text(line)
            text.append("\n")
            continue
        for piece in textwrap.wrap(line.plain, BOARD_WIDTH, break_long_words=True, break_on_hyphens=False):
            text.append(piece + "\n", style=line.style)
    return text


def _board(state: JournalState, odds: float | None, cut_prompt: bool) -> Text:
    settings = state.deck.settings
    text = Text()
    text.append(f"DAY {state.day}" if state.day else "BEFORE THE FIRST DAY", style="bold")
    if state.to_draw and state.phase not in ("over",):
        text.append(f"  ({state.to_draw} to draw)")
    text.append("\n")
    tower = state.tower
    text.append(f"Tower     {tower.countdown} of {tower.start}" + (" FALLEN" if tower.fell else "") + "\n")
    if not tower.fell:
        text.append(f"Next pull falls {percent(float(journal.next_pull_chance(state)))}\n")
    if odds == WORKING:
        text.append("Tower ends it   ...\n")
        text.append(" (being simulated)\n")
    elif odds is not None:
        if state.ending:
            shown = "100%" if state.ending == "tower" else "0%"
        elif odds == 0:  # none of the playouts: rare, not impossible
            shown = f"<{100 / journal.ODDS_GAMES:.1g}%"
        else:
            shown = f"{odds * 100:.1f}%"
        text.append(f"Tower ends it   {shown}\n")
        text.append(f" (simulated, {journal.ODDS_GAMES:,} games)\n")
    kings = " ".join(state.kings) or "none"
    text.append(f"Kings     {len(state.kings)} of {settings['kings']}: {kings}\n")
    if state.salvation:
        text.append(f"Tokens    {state.tokens} of {settings['tokens']}\n")
    else:
        text.append("Salvation not yet (AH)\n")
    text.append(f"Deck      {counted(len(state.remaining), 'card')} left")
    text.append(f", reshuffled {state.reshuffles}\n" if state.reshuffles else "\n")
    if state.pages:
        page = state.pages[-1]
        text.append(f"\nCard {len(state.pages)}: ", style="bold")
        text.append(card_line(state, page.card) + "\n")
        prompt = state.deck.prompt(page.card)
        if cut_prompt:
            prompt = _cut_prompt(prompt)
        text.append((prompt or "(no prompt: this card only has its rule)") + "\n")
    if state.phase == "over":
        outcome = journal.outcome(state)
        text.append("\n" + (outcome.summary if outcome else "") + "\n", style="bold reverse")
    return text


def _cut_prompt(prompt: str) -> str:
    """The prompt as far as the board has room for it at 80x24 (its line breaks kept: each one ends a
    board line), ending in "..." and the key that shows the rest, when there is a rest."""
    kept, room = [], PROMPT_SHOWN
    for line in prompt.split("\n"):
        if len(line) > room:
            kept.append(line[: max(room, 0)].rsplit(" ", 1)[0] + "... (o: the whole prompt)")
            return "\n".join(kept)
        kept.append(line)
        room -= max(1, -(-len(line) // BOARD_WIDTH)) * BOARD_WIDTH  # the board lines it takes, whole
    return prompt


def journal_text(state: JournalState, prompts: bool = False) -> Text:
    """The journal so far: a heading per day, each card and its entry; `prompts`: each card's prompt
    before its entry, as the exports have it (the bookshelf's reading; the game screen's room at
    80x24 is the entries', its card's prompt is on the board)."""
    text = Text()
    day = None
    for number, page in enumerate(state.pages, start=1):
        if page.day != day:
            day = page.day
            text.append(f"Day {day}\n", style="bold underline")
        text.append(f"{number}. {card_name(page.card)}", style="bold")
        text.append(" (amended)\n" if page.amended else "\n")
        if prompts and state.deck.prompt(page.card):
            text.append("> " + state.deck.prompt(page.card) + "\n", style="italic")  # a quote, as the Markdown
        if page.entry:
            text.append(page.entry + "\n")
        elif page.skipped:
            text.append("(skipped)\n", style="italic")
        else:
            text.append("(not written yet)\n", style="italic")
    if state.last_words:
        text.append("Last words\n", style="bold underline")
        text.append(state.last_words + "\n")
    outcome = journal.outcome(state)
    if outcome and state.deck.ending(bool(outcome.winners)):  # the game's own words for its end
        text.append("The end\n", style="bold underline")
        text.append(state.deck.ending(bool(outcome.winners)) + "\n", style="italic")
    return text or Text("The journal is empty: n starts the first day.")
