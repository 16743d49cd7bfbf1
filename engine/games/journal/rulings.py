"""The rulings a player may choose when a journal starts (--option KEY=VALUE on play, sim and host; the
launcher's journal setup and the hall's new-game screen): each one rules in place of the deck's own
setting of the same name, and the game's options (a save's or a hall game's header) record the choice.

The setup screens draw their lines from ruling_lines and step through the values with next_rulings,
so every place a journal starts offers the same choices in the same words."""
from __future__ import annotations

from dataclasses import replace

from dicehall.engine.errors import DeckError, RulingError
from dicehall.engine.games.journal.cards import SALVATION_CARD, is_king
from dicehall.engine.games.journal.deck import SETTINGS, Deck, deck_from_record, setting_value, title_value
from dicehall.engine.games.journal.rules_text import RULING_WORDS
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

RULINGS = ("final_check", "tokens", "kings", "deck_out")
OPTIONS = ("deck", "title", *RULINGS)  # every option a journal takes (title: the game's name, in the deck's place)


def check_rulings(options: dict) -> dict:
    """The rulings among `options`, checked; RulingError, one line naming the option and its values,
    for an unknown key or a value the ruling does not take (before any deck is read)."""
    for key in options:
        if key not in OPTIONS:
            raise RulingError(f"unknown option {clean_text(str(key), 20)!r} (known: {', '.join(OPTIONS)})")
    if "title" in options:
        checked_title(options["title"])
    try:
        return {key: setting_value(key, options[key], "--option") for key in RULINGS if key in options}
    except DeckError as error:
        raise RulingError(str(error)) from None


def checked_title(value: object) -> str:
    """The game's name given as --option title= (or at setup): cleaned, capped; RulingError if empty."""
    try:
        return title_value(value, "--option")
    except DeckError as error:
        raise RulingError(str(error)) from None


def ruled_deck(options: dict) -> Deck:
    """The deck a game plays: the deck's own settings, each ruling the player chose in their place."""
    return ruled(deck_from_record(options["deck"]), {key: options[key] for key in RULINGS if key in options})


def ruled(deck: Deck, rulings: dict) -> Deck:
    """`deck` with the rulings chosen in place of its own settings."""
    return replace(deck, settings={**deck.settings, **rulings}) if rulings else deck


def endless(deck: Deck, rulings: dict) -> str | None:
    """The one line that refuses `deck` under `rulings` when no card can ever end a game of it, else None.
    Only a reshuffled deck can go on with no card to end it: for ever without the reshuffles' bound (a
    game saved before it), with it until the bound ends it (still no game). A card ends it when the
    tower can fall (a card that pulls), when enough Kings are in it, when nothing is left to reshuffle
    (the Kings and the Ace of hearts stay out), or when the tokens can run out: a day of one card that
    adds no token, then a 6, takes one away. With add-token cards only, the tokens can go only on the
    Ace's own day and on each King's."""
    deck = ruled(deck, rulings)
    settings, cards = deck.settings, deck.cards
    actions = [deck.action(card) for card in cards]
    kings = sum(is_king(card) for card in cards)
    again = [card for card in cards if not is_king(card) and card != SALVATION_CARD]
    if settings["deck_out"] == "end" or not again or "pull" in actions or "remove" in actions or kings >= settings["kings"]:
        return None
    if SALVATION_CARD in cards:
        ace = {"add-token": 1, "remove-token": -1}.get(deck.action(SALVATION_CARD), 0)
        if any(deck.action(card) != "add-token" for card in again) or settings["tokens"] + ace <= 1 + kings:
            return None
    return (f"no card ends this deck: reshuffled, it needs {counted(settings['kings'], 'King')}, a card that pulls, or the "
            "Ace of hearts and a card adding no token")


def ruling_lines(settings: dict, rulings: dict) -> list[tuple[str, str, str]]:
    """Each ruling's line at setup: (key, its short name, the value in play and whose it is). A ruling
    the same as the deck's own setting is the deck's."""
    lines = []
    for key in RULINGS:
        own = settings[key]
        value = rulings.get(key, own)
        whose = "the deck's" if value == own else f"yours; the deck's: {own}"
        lines.append((key, RULING_WORDS[key][0], f"{value}  ({whose})"))
    return lines


def next_rulings(rulings: dict, key: str, step: int, settings: dict) -> dict:
    """`rulings` with ruling `key` on its next value (step 1) or its previous one (-1), round; back on
    the deck's own value the ruling is dropped (the deck rules again)."""
    values = tuple(SETTINGS[key][1])
    own = settings[key]
    chosen = values[(values.index(rulings.get(key, own)) + step) % len(values)]
    others = {name: value for name, value in rulings.items() if name != key}
    return others if chosen == own else {**others, key: chosen}
