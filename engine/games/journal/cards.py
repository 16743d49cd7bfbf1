"""The 52 playing cards of a journaling deck: codes ("AH", "10S", "KC"), how players and files spell
them, and what each rank and suit are called."""
from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "C", "S")
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # the canonical order of draws
SALVATION_CARD = "AH"

# how files and players may spell a suit: the names (singular too), the letters and the symbols
_SUIT_SPELLINGS = {
    **{name: code for code, name in SUIT_NAMES.items()},
    **{name[:-1]: code for code, name in SUIT_NAMES.items()},
    **{code.lower(): code for code in SUITS},
    "\u2665": "H", "\u2661": "H", "\u2666": "D", "\u2662": "D", "\u2663": "C", "\u2667": "C", "\u2660": "S", "\u2664": "S",
}
_RANK_SPELLINGS = {
    **{rank.lower(): rank for rank in RANKS},
    "ace": "A", "1": "A", "jack": "J", "queen": "Q", "king": "K", "11": "J", "12": "Q", "13": "K",
}


def suit_of(text: str) -> str | None:
    """The suit letter a file or a player spelt, or None."""
    return _SUIT_SPELLINGS.get(" ".join(text.split()).lower())


def rank_of(text: str) -> str | None:
    """The rank a file or a player spelt ("A", "10", "queen"), or None."""
    return _RANK_SPELLINGS.get(" ".join(text.split()).lower())


def parse_card(text: str) -> str | None:
    """A card typed as one word ("7h", "10♠", "QS", "ace of hearts"), as its code; None if it is not one."""
    words = " ".join(text.split()).lower()
    if " of " in words:
        rank, _, suit = words.partition(" of ")
    elif len(words) >= 2:
        rank, suit = words[:-1], words[-1]
    else:
        return None
    rank_code, suit_code = rank_of(rank), suit_of(suit)
    return rank_code + suit_code if rank_code and suit_code else None


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_king(card: str) -> bool:
    return card[:-1] == "K"


def card_name(card: str) -> str:
    """A card in words: "7 of hearts", "Ace of hearts"."""
    return f"{RANK_NAMES.get(card[:-1], card[:-1])} of {SUIT_NAMES[card[-1]]}"


def rank_value(card: str) -> int:
    """A = 1, 2-10, J = 11, Q = 12, K = 13 (odd values pull by default)."""
    return RANKS.index(card[:-1]) + 1
