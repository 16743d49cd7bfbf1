"""The troll's setup: the options (difficulty, heights, variants, a dealt deck), the player, the
shuffle, and the deal of the bridge and the first flight card (the rules' Difficulty, Setup and
Variants). The troll's placing by a die roll ends the setup and begins turn 1 (see turn.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.core import Player
from dicehall.engine.errors import OptionError
from dicehall.engine.games.troll.bridge import DIAMOND_ACE, FULL_DECK, ROWS, THE_CLUB, Card, FlightStack, TrollState, colour_of
from dicehall.engine.session import replace
from dicehall.engine.text import clean_text

PRESETS = {"standard": (3, 2, 1, 1, 2, 3), "sturdy": (4, 3, 2, 2, 3, 4), "tutorial": (5, 4, 3, 3, 4, 5)}
VARIANTS = ("starting_card", "reusable_diamond_ace", "club_at_start", "toys")
SHUFFLE_SPEC = tuple(range(52, 1, -1))  # (52, 51, ..., 2): draw i picks among 52 - i cards


# ----- events -----
@dataclass(frozen=True)
class DeckShuffled:
    """Chance: the deck's order, top card first; the bridge is dealt from it."""

    order: tuple[str, ...]
    typed: bool = False


@dataclass(frozen=True)
class TrollPlaced:
    """Chance: the die puts the troll on the lower row; turn 1 begins."""

    face: int
    typed: bool = False


# ----- options -----
def _flag(options: dict, key: str) -> bool:
    value = options.get(key, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):  # the command line passes whole numbers
        return bool(value)
    raise OptionError(f"{key} must be true or false")


def _card_code(value: object) -> str:
    if not isinstance(value, str):
        raise OptionError("deck: every card is a code such as AS or 10H")
    code = value.strip().upper()
    if code not in FULL_DECK:
        raise OptionError(f"deck: {clean_text(value, 10)!r} is not a card (A 2 ... 10 J Q K + C D H S)")
    return code


def game_label(options: dict) -> str:
    """The difficulty and variants of a game's checked options, in a few words: "sturdy, toys"."""
    difficulty = options.get("difficulty", "standard")
    if difficulty == "custom":
        difficulty = "custom " + "".join(str(h) for h in options.get("heights", ()))
    variants = [v.replace("_", " ") for v in VARIANTS if options.get(v)]
    if options.get("toys"):  # toys implies the two held aces: say it once
        variants = ["toys"]
    deal = ["dealt deck"] if options.get("deck") is not None else []
    deal += ["winnable deal"] if options.get("winnable") else []  # chosen by the solver: the title says so
    return ", ".join([difficulty] + variants + deal)


def check_options(options: dict) -> dict:
    known = ("difficulty", "heights", "starting_card", "reusable_diamond_ace", "club_at_start", "toys", "deck",
             "winnable", "winnable_from")
    for key in options:
        if key not in known:
            raise OptionError(f"unknown option {clean_text(key, 20)!r} (known: {', '.join(known)})")
    difficulty = options.get("difficulty", "standard")
    if difficulty not in (*PRESETS, "custom"):
        raise OptionError("difficulty must be standard, sturdy, tutorial or custom")
    raw = options.get("heights")
    if raw is None:
        if difficulty == "custom":
            raise OptionError("custom difficulty needs heights (six numbers)")
        heights = PRESETS[difficulty]
    else:
        if not isinstance(raw, (list, tuple)) or len(raw) != 6 or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 1 for h in raw
        ):
            raise OptionError("heights must be six whole numbers of 1 or more")
        heights = tuple(raw)
        if PRESETS.get(difficulty) != heights:  # heights override the difficulty; a preset's keep its name
            difficulty = next((name for name, preset in PRESETS.items() if preset == heights), "custom")
    toys = _flag(options, "toys")
    # toys: both aces reusable and held from the start, so it implies the two other variants
    reusable_ad = _flag(options, "reusable_diamond_ace") or toys
    club_at_start = _flag(options, "club_at_start") or toys
    starting_card = _flag(options, "starting_card")
    if starting_card and club_at_start:
        raise OptionError("starting_card cannot go with club_at_start or toys: the troll's hands are full")
    held = 2 if toys else 1 if club_at_start else 0
    if 2 * sum(heights) > 51 - held:  # one card must be left to turn up first (it gives the rows' colours)
        most = (51 - held) // 2  # both rows have the same heights
        raise OptionError(f"the bridge would take {2 * sum(heights)} of the {52 - held} cards to deal; at most "
                         f"{2 * most} ({most} per row) can go in, so that one is left to turn up first")
    normal = {
        "difficulty": difficulty, "heights": list(heights), "starting_card": starting_card,
        "reusable_diamond_ace": reusable_ad, "club_at_start": club_at_start, "toys": toys,
    }
    if options.get("deck") is not None:
        deck = options["deck"]
        if not isinstance(deck, (list, tuple)) or len(deck) != 52:
            raise OptionError("deck must list the 52 cards, top card first")
        codes = [_card_code(c) for c in deck]
        if len(set(codes)) != 52:
            raise OptionError("deck: every card must appear once")
        normal["deck"] = codes
    normal.update(_winnable(options, normal))
    return normal


def _winnable(options: dict, normal: dict) -> dict:
    """winnable=true: the seed was chosen by engine/analysis/winnable.py, searching from the seed
    `winnable_from` on; both are kept in the options (absent when false, so other games' options
    stay as they were)."""
    start = options.get("winnable_from")
    if not _flag(options, "winnable"):
        if start is not None:
            raise OptionError("winnable_from goes only with winnable=true")
        return {}
    if "deck" in normal:
        raise OptionError("winnable=true cannot go with deck: a dealt deck is not chosen by a search")
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < 2**63:
        raise OptionError("winnable=true: the deal is chosen by a search before the game starts "
                          "(winnable_from, the seed the search began at, is missing or not a seed)")
    return {"winnable": True, "winnable_from": start}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) > 1:
        raise OptionError("Angry Troll versus Magic Bridge is a solitaire: one player")
    if players and players[0].bot:
        raise OptionError("the troll is played by a person, not a bot")
    name = clean_text(players[0].name) if players else ""
    return (Player(name or "Player"),)


# ----- the shuffle and the deal -----
def initial_state(options: dict, players: tuple[Player, ...]) -> TrollState:
    held = (THE_CLUB, DIAMOND_ACE) if options["toys"] else (THE_CLUB,) if options["club_at_start"] else ()
    state = TrollState(
        heights=tuple(options["heights"]),
        starting_card=options["starting_card"],
        held_at_start=held,
        reusable=(THE_CLUB, DIAMOND_ACE) if options["reusable_diamond_ace"] else (THE_CLUB,),
    )
    if options.get("deck"):
        return deal(state, tuple(options["deck"]))  # an explicit deal: no shuffle
    return state


def deal(state: TrollState, order: tuple[str, ...]) -> TrollState:
    """Set up from a deck order (top first): held aces out, the bridge, the first flight card."""
    cards = [c for c in order if c not in state.held_at_start]
    rows: dict[str, list[tuple[Card, ...]]] = {}
    for row in ROWS:  # upper 1..6, then lower 1..6, each stack from its bottom card up
        rows[row] = []
        for height in state.heights:
            rows[row].append(tuple(Card(c) for c in cards[:height]))
            cards = cards[height:]
    first = cards.pop(0)
    lower_colour = colour_of(first)
    upper_colour = "black" if lower_colour == "red" else "red"
    carried = tuple(Card(c, True) for c in state.held_at_start)
    if state.starting_card:
        hearts = []
        while cards and cards[0][-1] == "H":  # a heart goes to the bottom, the next card is taken
            hearts.append(cards.pop(0))
        if cards:
            carried = (Card(cards.pop(0), True),)
        cards += hearts
    return replace(
        state, upper=tuple(rows["upper"]), lower=tuple(rows["lower"]), carried=carried,
        lower_flight=FlightStack(lower_colour, (first,)), upper_flight=FlightStack(upper_colour),
        deck=tuple(cards), phase="placing",
    )


def shuffled(draws: tuple[int, ...]) -> tuple[str, ...]:
    """The deck order (top first) of a shuffle: draw i picks one of the cards not yet drawn."""
    remaining = list(FULL_DECK)
    order = [remaining.pop(d) for d in draws]
    return tuple(order + remaining)


def shuffle_draws(order: tuple[str, ...]) -> tuple[int, ...]:
    """The draws that give a deck order: `shuffled`'s inverse (the session re-derives them)."""
    remaining = list(FULL_DECK)
    draws = []
    for code in order[:-1]:
        index = remaining.index(code)
        draws.append(index)
        remaining.pop(index)
    return tuple(draws)
