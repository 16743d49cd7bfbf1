"""The journaling game's rules (the Wretched & Alone SRD's defaults, and the deck's settings): days,
cards, the tower, the Kings, salvation, and the journal as events.

A day: `start day` rolls a d6 for the cards to draw; `draw` draws one (chance over the cards left),
or `draw 7H` types the card drawn from a real deck; a card whose action pulls waits for `pull` (the
Dice Tower's own PullBlock, decided and folded by engine/games/dicetower.py); then the entry is
written (`write`) or skipped (`skip`). After the day's last card, once the Ace of Hearts is out,
`roll for salvation` rolls a d6 (a 6 removes a token). Any ending (the fourth King, the tower, the
last token, the deck out) leaves one last entry to write; then the game is over.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from dicehall.engine.codec import ADDED
from dicehall.engine.core import ChanceNeeded, IllegalCommand, Outcome, Player, Result
from dicehall.engine.errors import OptionError, RulingError
from dicehall.engine.games import dicetower, entry_of
from dicehall.engine.games.dicetower import BlockPulled, DiceRolled, PullBlock, TowerState
from dicehall.engine.games.journal.cards import FULL_DECK, SALVATION_CARD, card_name, is_king, parse_card
from dicehall.engine.games.journal.deck import ACTION_WORDS, UNBOUNDED, Deck, DeckError, deck_from_record, sample_deck
from dicehall.engine.games.journal.moves import (
    ENTRY_LIMIT, AmendEntry, CardDrawn, DayEnded, DayRolled, DayStarted, Draw, DrawBegan, DrawCard,
    EntryAmended, EntrySkipped, EntryWritten, RollSalvation, SalvationRolled, SkipEntry, StartDay, WriteEntry,
)
from dicehall.engine.games.journal.rulings import check_rulings, checked_title, endless, ruled_deck
from dicehall.engine.replace import replace  # a state per event: dataclasses.replace's checks were near half a game's CPU
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

PHASES_TO_ACT = ("day", "draw", "pull", "entry", "day-end", "final-pull", "last-entry")


# ----- the state -----

@dataclass(frozen=True)
class Page:
    """One card of the journal: when it came, what it is, and what was written for it."""

    day: int
    card: str
    entry: str | None = None  # None: not written yet (or skipped)
    skipped: bool = False
    amended: int = 0  # how often it was rewritten


@dataclass(frozen=True)
class JournalState:
    deck: Deck
    tower: TowerState
    remaining: tuple[str, ...]  # the cards still in the deck, in the canonical order
    phase: str = "day"
    day: int = 0
    to_draw: int = 0  # cards still to draw today
    pages: tuple[Page, ...] = ()
    kings: tuple[str, ...] = ()
    salvation: bool = False  # the Ace of Hearts is out: tokens count down
    tokens: int = 0
    pull_due: str = ""  # "pull" or "remove": the current card's action waits for the tower
    ending: str = ""  # "kings", "tower", "salvation", "deck": how the game ended (its last entry may be due)
    last_words: str | None = None  # the last entry, when no card's entry was pending at the end
    reshuffles: int = 0
    # added with the published games' card actions (#30): at their defaults, out of the digest (codec.ADDED)
    salvation_from: int = field(default=6, metadata=ADDED)  # the salvation die's face from which a token goes
    skips: int = field(default=0, metadata=ADDED)  # pulls to skip (skip-pull): the next cards that say pull pull nothing

    @property
    def tokens_start(self) -> int:
        return self.deck.settings["tokens"]


def check_options(options: dict) -> dict:
    """The options of a new game: the deck (already read), the rulings, and `title`, the game's name in
    the deck's place (a CSV deck's title is its file's name), kept as the deck's title."""
    rulings = check_rulings(options)  # an unknown key, a ruling's value or a title: one line, before the deck
    record = options.get("deck")
    if record is None or record == "sample":
        deck = sample_deck()
    elif isinstance(record, str):  # a deck's file is read before (saves.decks): the rules never open a path
        raise DeckError("the deck is the sample or a deck already read (from its file, the hall's decks or a paste)")
    else:
        deck = deck_from_record(record)
    if "title" in options:
        deck = replace(deck, title=checked_title(options["title"]))
    never = endless(deck, rulings)
    if never:
        raise RulingError(never)
    return {"deck": deck.record(), **rulings}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) > 1:
        raise OptionError("the journal is for one player")
    name = clean_text(players[0].name) if players else ""
    return (Player(name or "Player"),)


def initial_state(options: dict, players: tuple[Player, ...]) -> JournalState:
    deck = ruled_deck(options)
    tower = dicetower.initial_state(dicetower.check_options({"start": deck.settings["tower_start"]}), players)
    return JournalState(deck=deck, tower=tower, remaining=deck.cards)


def to_act(state: JournalState) -> int | None:
    return 0 if state.phase in PHASES_TO_ACT else None


def legal_commands(state: JournalState) -> list:
    """The commands a playout may choose (typed cards and entries' words are not listed)."""
    phase = state.phase
    if phase == "day":
        return [StartDay()]
    if phase == "draw":
        return [Draw()]
    if phase == "pull":
        return [PullBlock(state.pull_due == "remove")]
    if phase == "final-pull":
        return [PullBlock(False)]
    if phase in ("entry", "last-entry"):
        return [SkipEntry()]
    if phase == "day-end":
        return [RollSalvation()]
    return []


def parse_command(text: str) -> object:
    words = " ".join(text.split()) if not text.startswith(("write ", "amend ")) else text
    lower = words.lower()
    simple = {"start day": StartDay(), "day": StartDay(), "draw": Draw(), "roll for salvation": RollSalvation(),
              "salvation": RollSalvation(), "skip": SkipEntry()}
    if lower in simple:
        return simple[lower]
    try:
        return dicetower.parse_command(lower)
    except IllegalCommand:
        pass
    if lower.startswith("draw "):
        card = parse_card(words[5:])
        if card is None:
            raise IllegalCommand(f"not a card: {clean_text(words[5:], 20)!r} (a rank A, 2-10, J, Q, K and a suit: 7H, 10S, QD)")
        return DrawCard(card)
    try:
        if lower.startswith("write "):
            text_value = json.loads(words[6:])
            if isinstance(text_value, str):
                return WriteEntry(text_value)
        if lower.startswith("amend "):
            page, _, rest = words[6:].partition(" ")
            text_value = json.loads(rest)
            if page.isdigit() and isinstance(text_value, str):
                return AmendEntry(int(page), text_value)
    except (ValueError, RecursionError):
        pass
    raise IllegalCommand(f"not a journal command: {clean_text(text, 30)!r} (start day, draw, draw CARD, pull, "
                         "pull and remove, write \"TEXT\", skip, amend N \"TEXT\", roll for salvation)")


def command_of(event: object) -> object | None:
    """The command a decision's first event records (entries' words and typed cards are not listed)."""
    if type(event) is EntryWritten:
        return WriteEntry(event.text)
    if type(event) is EntryAmended:
        return AmendEntry(event.page, event.text)
    if type(event) is CardDrawn and event.typed:
        return DrawCard(event.card)
    return None


def clean_entry(text: object) -> str:
    """An entry as data: each line cleaned of control characters, blank runs kept to one."""
    if not isinstance(text, str):
        raise IllegalCommand("an entry is text")
    if len(text) > ENTRY_LIMIT * 2:
        raise IllegalCommand(f"an entry holds at most {ENTRY_LIMIT} characters (this one has {len(text)})")
    lines = [clean_text(line, ENTRY_LIMIT * 2) for line in text.splitlines()]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    cleaned = "\n".join(kept).strip()
    if len(cleaned) > ENTRY_LIMIT:
        raise IllegalCommand(f"an entry holds at most {ENTRY_LIMIT} characters (this one has {len(cleaned)})")
    return cleaned


def decide(state: JournalState, command: object) -> tuple:
    phase = state.phase
    if phase == "over":
        raise IllegalCommand("the journal is closed: the game is over")
    if to_act(state) is None:
        raise IllegalCommand("waiting for chance: " + (needed.prompt if (needed := chance_needed(state)) else "nothing"))
    if type(command) is AmendEntry:
        return _amend(state, command)
    wanted = {"day": "start the next day", "draw": "draw a card (or type the card you drew)",
              "pull": "pull from the tower: the card says so", "entry": "write the entry, or skip it",
              "day-end": "roll for salvation", "final-pull": "make the final pull",
              "last-entry": "write the last entry, or skip it"}[phase]
    if type(command) is StartDay and phase == "day":
        return (DayStarted(state.day + 1),)
    if type(command) is Draw and phase == "draw":
        return (DrawBegan(),)
    if type(command) is DrawCard and phase == "draw":
        if command.card not in FULL_DECK:
            raise IllegalCommand(f"not a card: {clean_text(command.card, 10)!r}")
        if command.card not in state.remaining:
            where = "is not in this deck" if command.card not in state.deck.cards else "was already drawn"
            if is_king(command.card) and command.card in state.kings:
                where = "is face up among the Kings"
            raise IllegalCommand(f"the {card_name(command.card)} {where}: draw another")
        return (CardDrawn(command.card, typed=True),)
    if type(command) is PullBlock and phase in ("pull", "final-pull"):
        remove = phase == "pull" and state.pull_due == "remove"
        if command.remove != remove:
            raise IllegalCommand("the card says pull and remove" if remove else "the card says pull, not pull and remove")
        return tuple(dicetower.decide(state.tower, command))
    if type(command) is RollSalvation and phase == "day-end":
        return (DayEnded(state.day),)
    if type(command) in (WriteEntry, SkipEntry) and phase in ("entry", "last-entry"):
        page = pending_page(state)
        if type(command) is SkipEntry:
            return (EntrySkipped(page),)
        assert type(command) is WriteEntry  # the other kind of the two
        text = clean_entry(command.text)
        if not text:
            raise IllegalCommand("an empty entry: write something, or skip it")
        return (EntryWritten(page, text),)
    raise IllegalCommand(f"the game waits for you to {wanted}")


def pending_page(state: JournalState) -> int:
    """The page an entry is for now: the current card's, or 0 (the last words) at the end."""
    if state.pages and state.pages[-1].entry is None and not state.pages[-1].skipped:
        return len(state.pages)
    return 0


def _amend(state: JournalState, command: AmendEntry) -> tuple:
    written = len(state.pages) - (1 if pending_page(state) else 0)
    if not isinstance(command.page, int) or not 1 <= command.page <= written:
        raise IllegalCommand(f"no earlier entry {command.page}: amend one of pages 1 to {written}" if written
                             else "no earlier entry to amend yet")
    text = clean_entry(command.text)
    if not text:
        raise IllegalCommand("an empty entry: an amended entry needs words (skip keeps it as it was)")
    if text == state.pages[command.page - 1].entry:
        raise IllegalCommand("the entry is unchanged")
    return (EntryAmended(command.page, text),)


# ----- chance -----

_DAY_DIE = ChanceNeeded(spec=(6,), prompt="the day's die: how many cards to draw")
_SALVATION_DIE = ChanceNeeded(spec=(6,), prompt="the salvation die: a 6 removes a token")


def chance_needed(state: JournalState) -> ChanceNeeded | None:
    phase = state.phase
    if phase == "rolling-day":
        return _DAY_DIE
    if phase == "drawing":
        return ChanceNeeded(spec=(len(state.remaining),), prompt="draw a card from the deck", dice=False)
    if phase in ("pulling", "final-pulling"):
        return dicetower.chance_needed(state.tower)
    if phase == "day-end-rolling":
        if state.salvation_from < 6:
            return ChanceNeeded(spec=(6,), prompt=f"the salvation die: a {state.salvation_from} or more removes a token")
        return _SALVATION_DIE
    return None


def chance_event(state: JournalState, draws: tuple[int, ...], typed: bool) -> object:
    phase = state.phase
    if phase == "rolling-day":
        return DayRolled(draws[0] + 1, typed)
    if phase == "drawing":
        return CardDrawn(state.remaining[draws[0]], False)
    if phase in ("pulling", "final-pulling"):
        return dicetower.chance_event(state.tower, draws, typed)
    return SalvationRolled(draws[0] + 1, typed)


def chance_draws(event: object) -> tuple[int, ...]:
    """The draws a chance event recorded. A card's draw is its place among the cards left, which
    only the state knows: recorded_draws reads it; here, its place in the full deck."""
    if isinstance(event, (DayRolled, SalvationRolled)):
        return (event.face - 1,)
    if isinstance(event, DiceRolled):
        return dicetower.chance_draws(event)
    if isinstance(event, CardDrawn):
        return (FULL_DECK.index(event.card),)
    raise TypeError(f"not a journal chance event: {event!r}")


def recorded_draws(state: JournalState, event: object) -> tuple[int, ...]:
    if isinstance(event, CardDrawn):
        return (state.remaining.index(event.card),)  # ValueError for a card not left: the log is refused
    return chance_draws(event)


# ----- the fold -----

def evolve(state: JournalState, event: object) -> JournalState:
    if type(event) is DayStarted:
        return replace(state, day=event.day, phase="rolling-day")
    if type(event) is DayRolled:
        return _next_card(replace(state, to_draw=event.face))
    if type(event) is DrawBegan:
        return replace(state, phase="drawing")
    if type(event) is CardDrawn:
        return _card_drawn(state, event.card)
    if type(event) is BlockPulled:
        tower = dicetower.evolve(state.tower, event)
        return replace(state, tower=tower, phase="final-pulling" if state.phase == "final-pull" else "pulling")
    if type(event) is DiceRolled:
        return _dice_rolled(state, event)
    if type(event) is DayEnded:
        return replace(state, phase="day-end-rolling")
    if type(event) is SalvationRolled:
        if event.face < state.salvation_from:
            return replace(state, phase="day")
        state = _token_removed(state)
        return replace(state, phase="day") if state.tokens > 0 else state
    if type(event) is EntryWritten or type(event) is EntrySkipped:
        return _entry_done(state, event)
    if type(event) is EntryAmended:
        pages = list(state.pages)
        page = pages[event.page - 1]
        pages[event.page - 1] = replace(page, entry=event.text, skipped=False, amended=page.amended + 1)
        return replace(state, pages=tuple(pages))
    raise TypeError(f"not a journal event: {event!r}")


def _card_drawn(state: JournalState, card: str) -> JournalState:
    remaining = tuple(c for c in state.remaining if c != card)
    pages = state.pages + (Page(state.day, card),)
    state = replace(state, remaining=remaining, pages=pages, to_draw=state.to_draw - 1)
    action = state.deck.action(card)
    if is_king(card):
        kings = state.kings + (card,)
        state = replace(state, kings=kings)
        if len(kings) >= state.deck.settings["kings"]:
            return replace(state, ending="kings", phase="last-entry")  # the last King ends it at once: no pull
    if card == SALVATION_CARD and not state.salvation:
        state = replace(state, salvation=True, tokens=state.tokens_start)
    if action in ("pull", "remove"):
        if state.skips:
            return replace(state, skips=state.skips - 1, phase="entry")
        return replace(state, pull_due=action, phase="pull")
    return _card_action(state, action)


def _card_action(state: JournalState, action: str) -> JournalState:
    """A card's own effect beyond the pulls (deck.ACTION_WORDS says each in words); then its entry."""
    if action in ("salvation-5", "salvation-4"):
        state = replace(state, salvation_from=min(state.salvation_from, int(action[-1])))
    elif action == "skip-pull":
        state = replace(state, skips=state.skips + 1)
    elif action == "return-king" and state.kings:
        king = state.kings[-1]
        back = set(state.remaining) | {king}
        state = replace(state, kings=state.kings[:-1], remaining=tuple(c for c in state.deck.cards if c in back))
    elif action == "add-token" and state.salvation:
        state = replace(state, tokens=state.tokens + 1)
    elif action == "remove-token" and state.salvation:
        return _token_removed(replace(state, phase="entry"))
    return replace(state, phase="entry")


def _token_removed(state: JournalState) -> JournalState:
    """One token fewer: the last one wins (after the final pull, where the deck asks for one)."""
    state = replace(state, tokens=state.tokens - 1)
    if state.tokens > 0:
        return state
    if state.deck.settings["final_check"] == "pull":
        return replace(state, phase="final-pull")
    return replace(state, ending="salvation", phase="last-entry")


def _dice_rolled(state: JournalState, event: DiceRolled) -> JournalState:
    tower = dicetower.evolve(state.tower, event)
    state = replace(state, tower=tower)
    if tower.fell:
        return replace(state, ending="tower", pull_due="", phase="last-entry")
    if tower.pulling:  # double threes: the same pull rolls again
        return state
    if state.phase == "final-pulling":
        return replace(state, ending="salvation", phase="last-entry")
    return replace(state, pull_due="", phase="entry")


def _entry_done(state: JournalState, event: EntryWritten | EntrySkipped) -> JournalState:
    text = event.text if type(event) is EntryWritten else None
    if event.page == 0:
        state = replace(state, last_words=text if text is not None else "")
    else:
        pages = list(state.pages)
        pages[event.page - 1] = replace(pages[event.page - 1], entry=text, skipped=text is None)
        state = replace(state, pages=tuple(pages))
    if state.ending:
        return replace(state, phase="over")
    if state.to_draw > 0:
        return _next_card(state)
    return replace(state, phase="day-end" if state.salvation else "day")


def _next_card(state: JournalState) -> JournalState:
    """Ready to draw the day's next card; the deck running out reshuffles or ends the game."""
    if state.to_draw <= 0:
        return replace(state, phase="day-end" if state.salvation else "day")
    if state.remaining:
        return replace(state, phase="draw")
    if state.deck.settings["deck_out"] == "reshuffle" and may_reshuffle(state.deck.settings, state.reshuffles):
        # every drawn card goes back but the Kings (face up) and the Ace of Hearts (it holds the tokens)
        back = tuple(card for card in state.deck.cards if not is_king(card) and not (card == SALVATION_CARD and state.salvation))
        if back:
            return replace(state, remaining=back, reshuffles=state.reshuffles + 1, phase="draw")
    return replace(state, ending="deck", phase="last-entry")


def may_reshuffle(settings: dict, reshuffles: int) -> bool:
    """Whether a deck run out after `reshuffles` reshuffles goes back once more: at most the deck's
    `reshuffles` times (dicehall's bound, #30); a game saved before the bound has none (UNBOUNDED)."""
    most = settings.get("reshuffles", UNBOUNDED)
    return most is UNBOUNDED or reshuffles < most


# ----- reading -----

_ENDINGS = {"kings": "the last King came up", "tower": "the tower fell", "salvation": "salvation: the last token is gone",
            "deck": "the deck ran out"}


def outcome(state: JournalState) -> Outcome | None:
    if state.phase != "over":
        return None
    won = state.ending == "salvation"
    days = f"on day {state.day}"
    return Outcome(winners=(0,) if won else (), summary=f"{_ENDINGS[state.ending]} {days}")


MEASURE = entry_of("journal").measure  # the catalogue's: what its results count, which way is better


def result(state: JournalState, seat: int) -> Result | None:
    """The days the journal lasted (the contract's result), the most best; a salvation (a win)
    ranks above any loss."""
    if state.phase != "over" or seat != 0:
        return None
    saved = state.ending == "salvation"
    return MEASURE.result(state.day, f"{'saved' if saved else 'lasted'} on day {state.day}", won=saved)


_PLAIN = ("pull", "remove", "no-pull", "king", "salvation")  # the actions card_words names in full


def card_words(state: JournalState, card: str) -> str:
    action = state.deck.action(card)
    rule = {"pull": "pull", "remove": "pull and remove", "no-pull": "no pull", "king": "a King",
            "salvation": "salvation"}.get(action, action)
    return f"{card_name(card)} ({rule})"


def describe(state: JournalState, event: object, reveal: bool = True) -> str:
    if type(event) is DayStarted:
        return f"day {event.day} begins"
    if type(event) is DayRolled:
        return f"day {state.day}: rolled {event.face}{' typed' if event.typed else ''}: draw {event.face}"
    if type(event) is DrawBegan:
        return f"draw a card ({len(state.remaining)} left)"
    if type(event) is CardDrawn:
        after = _card_drawn(state, event.card)
        extra = ""
        if is_king(event.card):
            extra = f", King {len(after.kings)} of {state.deck.settings['kings']}"
        if event.card == SALVATION_CARD and not state.salvation:
            extra = f", salvation: {counted(state.tokens_start, 'token')}"
        if after.skips < state.skips:
            extra += ": its pull is skipped"
        elif state.deck.action(event.card) in ACTION_WORDS and state.deck.action(event.card) not in _PLAIN:
            extra += f": {ACTION_WORDS[state.deck.action(event.card)]}"
        return f"card {len(state.pages) + 1}: {card_words(state, event.card)}{' typed' if event.typed else ''}{extra}"
    if type(event) is BlockPulled or type(event) is DiceRolled:
        return "tower: " + dicetower.describe(state.tower, event, reveal)
    if type(event) is DayEnded:
        return f"day {event.day} ends: roll for salvation ({counted(state.tokens, 'token')})"
    if type(event) is SalvationRolled:
        removes = event.face >= state.salvation_from
        removed = f"a {event.face}: a token removed" if removes else "no token removed"
        left = state.tokens - removes
        return f"salvation die {event.face}{' typed' if event.typed else ''}: {removed}, {left} left"
    if type(event) is EntryWritten:
        where = f"entry {event.page}" if event.page else "last words"
        return f"{where}: {event.text.splitlines()[0][:60] if event.text else ''}"
    if type(event) is EntrySkipped:
        return f"entry {event.page} skipped" if event.page else "last words skipped"
    if type(event) is EntryAmended:
        return f"entry {event.page} amended: {event.text.splitlines()[0][:60]}"
    return str(event)


def progress(state: JournalState) -> str:
    result = outcome(state)
    if result is not None:
        return result.summary
    tokens = f", {counted(state.tokens, 'token')}" if state.salvation else ""
    return (f"day {state.day}, {counted(len(state.pages), 'card')}, tower {state.tower.countdown}, "
            f"{counted(len(state.kings), 'King')}{tokens}")


def is_turn_start(event: object) -> bool:
    """The viewer's PgUp/PgDn stop at each day and at each card drawn."""
    return isinstance(event, (DayStarted, DrawBegan)) or (isinstance(event, CardDrawn) and event.typed)


def game_label(options: dict) -> str:
    deck = options.get("deck") if isinstance(options, dict) else None
    title = deck.get("title") if isinstance(deck, dict) else None
    return clean_text(title, 40) if isinstance(title, str) and title else "Journal"
