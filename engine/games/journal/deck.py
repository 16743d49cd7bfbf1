"""A deck of prompts: loaded from a player's CSV or TOML file, or from a save's options, always as
hostile input. Every fault is one line naming the file, the line and the field; every text is
cleaned (no control characters, capped) and is only ever shown as text.

CSV: a header naming the columns `card`, `suite` (dc-solo-rpg's spelling) or `suit`, `action`, and
`description` (or `prompt`), in any order, then one row per card. TOML: a `[game]` table (title,
author, licence, intro and the settings below) and one `[[card]]` table per card (card, suit,
action, prompt). A deck may leave cards out: they get no prompt, only their rule.

The whole deck travels in the game's options (deck_record), so a save or a replay never needs the
file again; the caps keep it far inside one save record (saves/framing.py: 64 KiB, 4 KiB a string).
"""
from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.engine.codec import ADDED
from dicehall.engine.errors import DeckError
from dicehall.engine.games.journal.caps import MAX_FILE, MAX_INTRO, MAX_LICENCE, MAX_PROMPT, MAX_TEXT_BYTES, MAX_TITLE, fitted
from dicehall.engine.games.journal.cards import FULL_DECK, RANKS, SALVATION_CARD, card_name, is_king, rank_of, rank_value, suit_of
from dicehall.engine.games.journal.deck_csv import csv_rows
from dicehall.engine.games.journal.gamefile import game_file_record, game_folder_texts, looks_like_game_file
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted

if TYPE_CHECKING:
    import tomllib


ACTIONS = ("pull", "remove", "no-pull", "king", "salvation",
           "salvation-5", "salvation-4", "skip-pull", "return-king", "remove-token", "add-token")
# what each action does, in the words the setup's summary and `dicehall rules journal` use
ACTION_WORDS = {
    "pull": "pull from the tower",
    "remove": "pull and remove a block",
    "no-pull": "no pull",
    "king": "a King: the last one ends the game",
    "salvation": "salvation: the tokens start counting down",
    "salvation-5": "from now on a 5 or 6 on the salvation die removes a token",
    "salvation-4": "from now on a 4 or more on the salvation die removes a token",
    "skip-pull": "the next card that says pull pulls nothing",
    "return-king": "the last King face up is shuffled back into the deck",
    "remove-token": "a token is removed at once (once the Ace of hearts is out)",
    "add-token": "a token is added (once the Ace of hearts is out)",
}
# dc-solo-rpg's words (its CSV's action column) and the published games' phrases, as ours
# ("empty", its even cards': no effect, as a blank action is in its decks: "" is read as blank)
DC_SOLO_RPG_ACTIONS = {"primary-success": "salvation", "failure-token": "king", "failure-check": "pull",
                       "success-bonus": "salvation-5", "skip-damage": "skip-pull", "return-king": "return-king",
                       "empty": ""}
ACTION_SPELLINGS = {
    **{action: action for action in ACTIONS}, **DC_SOLO_RPG_ACTIONS,
    "no pull": "no-pull", "nopull": "no-pull", "pull and remove": "remove",
    "skip the next pull": "skip-pull", "shuffle a king back": "return-king", "return a king": "return-king",
    "change the salvation threshold": "salvation-5", "a 5 or more removes a token": "salvation-5",
    "a 4 or more removes a token": "salvation-4", "remove a token": "remove-token", "add a token": "add-token",
}
KING_ACTIONS = ("king", "pull", "remove", "no-pull")  # a King is kept face up whatever it says: it may pull too
# the settings of a deck's [game] table: (default, allowed) where allowed is a range or a tuple of words
SETTINGS: dict[str, tuple[int | str, range | tuple[str, ...]]] = {
    "tokens": (10, range(1, 21)),  # the salvation countdown's tokens
    "kings": (4, range(1, 5)),  # the King that ends the game (the fourth)
    "tower_start": (100, range(1, 10001)),  # the Dice Tower's countdown
    "final_check": ("none", ("none", "pull")),  # after the last token: nothing, or one last pull that must not fell the tower
    "deck_out": ("end", ("end", "reshuffle")),  # the deck running out ends the game, or reshuffles the drawn cards
    # deck_out = "reshuffle": how often at most; the next time the deck runs out the game ends (dicehall's
    # bound, #30). A game's record without it (saved before the bound) reshuffles without end: UNBOUNDED.
    "reshuffles": (3, range(0, 4)),
    "deck": ("full", ("full", "listed")),  # the deck is all 52 cards, or only those the file lists
}
UNBOUNDED = None  # the reshuffles of a deck read from a game saved before their bound: as many as come
TEXT_FIELDS = {"title": MAX_TITLE, "author": MAX_TITLE, "licence": MAX_LICENCE, "intro": MAX_INTRO,
               "won": MAX_PROMPT, "lost": MAX_PROMPT}  # won, lost: the game's words at its end


def default_action(card: str) -> str:
    """A card's rule when the deck gives it none: Kings are Kings, the Ace of Hearts is salvation,
    odd ranks (A, 3, 5, 7, 9, J) pull from the tower, even ranks do not."""
    if is_king(card):
        return "king"
    if card == SALVATION_CARD:
        return "salvation"
    return "pull" if rank_value(card) % 2 else "no-pull"


@dataclass(frozen=True)
class Deck:
    title: str
    author: str = ""
    licence: str = ""
    intro: str = ""
    prompts: dict = field(default_factory=dict)  # card -> (action, prompt), for the cards the file lists
    settings: dict = field(default_factory=lambda: {name: default for name, (default, _) in SETTINGS.items()})
    # the game's own words at its end (dc-solo-rpg's win- and lose-message): out of the digest when none
    won: str = field(default="", metadata=ADDED)
    lost: str = field(default="", metadata=ADDED)

    def ending(self, saved: bool) -> str:
        """The game's words for its end: saved, or lost ("" if the deck has none)."""
        return self.won if saved else self.lost

    def action(self, card: str) -> str:
        return self.prompts[card][0] if card in self.prompts else default_action(card)

    def prompt(self, card: str) -> str:
        return self.prompts[card][1] if card in self.prompts else ""

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards in play, in the canonical order."""
        if self.settings["deck"] == "listed":
            return tuple(card for card in FULL_DECK if card in self.prompts)
        return FULL_DECK

    def record(self) -> dict:
        """The deck as a game's options hold it (plain data: saves and replays store it)."""
        settings = {key: value for key, value in self.settings.items() if value is not UNBOUNDED}
        return {"title": self.title, "author": self.author, "licence": self.licence, "intro": self.intro,
                "cards": [[card, *self.prompts[card]] for card in FULL_DECK if card in self.prompts],
                **settings, **{key: words for key, words in (("won", self.won), ("lost", self.lost)) if words}}


# ----- checking one value, wherever it came from -----

def _text(value: object, limit: int, where: str, what: str, lines: bool = False, fit: bool = True) -> str:
    """A deck's text cleaned and fitted to `limit` (cut at a word: a long text changes no rule); not
    `fit`: refused when longer (a deck's record in a save holds texts already fitted, so only a forged one is)."""
    if not isinstance(value, str):
        raise DeckError(f"{where}: {what} is not text")
    if not fit and len(value) > limit:
        raise DeckError(f"{where}: {what} is {len(value)} characters, at most {limit}")
    if lines:  # kept as paragraphs: each line cleaned, blank runs kept to one
        kept = [clean_text(line, limit * 2) for line in value[: limit * 8].splitlines()]
        return fitted(re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip(), limit)
    return fitted(clean_text(value, limit * 2), limit)


def setting_value(name: str, value: object, where: str) -> int | str:
    default, allowed = SETTINGS[name]
    if isinstance(allowed, range):
        if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
            raise DeckError(f"{where}: {name} is not a whole number from {allowed.start} to {allowed.stop - 1}")
        return value
    if not isinstance(value, str) or value.strip().lower() not in allowed:
        raise DeckError(f"{where}: {name} is not one of {', '.join(allowed)}")
    return value.strip().lower()


def title_value(value: object, where: str) -> str:
    """A game's name given when it starts (a CSV deck's title is only its file's name): text, cleaned, capped."""
    title = _text(value, MAX_TITLE, where, "title", fit=False)  # typed by the player, who can shorten it
    if not title:
        raise DeckError(f"{where}: title is empty (the game's name)")
    return title


def _card(rank_text: object, suit_text: object, where: str) -> str:
    if not isinstance(rank_text, str):
        raise DeckError(f"{where}: card is not text")
    rank = rank_of(rank_text)
    if suit_text is None or suit_text == "":  # one word: "7H", "10♠"
        from dicehall.engine.games.journal.cards import parse_card

        code = parse_card(rank_text)
        if code is None:
            raise DeckError(f"{where}: card is not a card (A, 2-10, J, Q, K with a suit)")
        return code
    if rank is None:
        raise DeckError(f"{where}: card is not one of A, 2-10, J, Q, K")
    if not isinstance(suit_text, str) or (suit := suit_of(suit_text)) is None:
        raise DeckError(f"{where}: suit is not one of hearts, diamonds, clubs, spades")
    return rank + suit


def _action(value: object, card: str, where: str) -> str | None:
    """The card's action as ours; None when the file leaves it blank (decided once the whole deck is read)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or " ".join(value.split()).lower() not in ACTION_SPELLINGS:
        raise DeckError(f"{where}: action is not one of {', '.join(ACTIONS)}, or dc-solo-rpg's "
                        f"{', '.join(DC_SOLO_RPG_ACTIONS)}")
    action = ACTION_SPELLINGS[" ".join(value.split()).lower()]
    if not action:  # dc-solo-rpg's empty: blank
        return None
    if action == "king" and not is_king(card):
        raise DeckError(f"{where}: action 'king' is for the Kings, not the {card_name(card)}")
    if action == "salvation" and card != SALVATION_CARD:
        raise DeckError(f"{where}: action 'salvation' is for the Ace of hearts, not the {card_name(card)}")
    if is_king(card) and action not in KING_ACTIONS:
        raise DeckError(f"{where}: a King is kept face up: its action is one of {', '.join(KING_ACTIONS)}")
    return action


class _Builder:
    """Cards and settings gathered from one file, each checked as it comes."""

    def __init__(self, name: str, fit: bool = True):
        self.name, self.fit = name, fit  # fit: a file's long texts are cut at a word; a record's are refused
        self.prompts: dict[str, tuple[str | None, str]] = {}  # None: the action decided once the whole deck is read
        self.first_seen: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self.settings = {key: default for key, (default, _) in SETTINGS.items()}
        self.dc_solo_rpg = False  # the file speaks dc-solo-rpg's words: a blank action is no effect, as there

    def add(self, where: str, rank: object, suit: object, action: object, prompt: object) -> None:
        card = _card(rank, suit, where)
        if card in self.prompts:
            raise DeckError(f"{where}: card {card_name(card)} again (first at {self.first_seen[card]})")
        text = _text("" if prompt is None else prompt, MAX_PROMPT, where, "description", lines=True, fit=self.fit)
        self.prompts[card] = (_action(action, card, where), text)
        if isinstance(action, str) and " ".join(action.split()).lower() in DC_SOLO_RPG_ACTIONS:
            self.dc_solo_rpg = True
        self.first_seen[card] = where.removeprefix(self.name).strip() or where

    def game_table(self, table: object, where: str) -> None:
        if not isinstance(table, dict):
            raise DeckError(f"{where}: [game] is not a table")
        for key, value in table.items():
            name = "licence" if key == "license" else key
            if name in TEXT_FIELDS:
                self.texts[name] = _text(value, TEXT_FIELDS[name], where, name, name in ("intro", "licence"), self.fit)
            elif name in SETTINGS:
                self.settings[name] = setting_value(name, value, where)
            else:
                known = ", ".join(list(TEXT_FIELDS) + list(SETTINGS))
                raise DeckError(f"{where}: a key in [game] that is none of {known}")

    def _blank(self, card: str) -> str:
        """A listed card's blank action: dc-solo-rpg's "no effect" in its decks, else the rank's rule."""
        if self.dc_solo_rpg and not is_king(card) and card != SALVATION_CARD:
            return "no-pull"
        return default_action(card)

    def deck(self, default_title: str) -> Deck:
        if self.settings["deck"] == "listed" and not self.prompts:
            raise DeckError(f"{self.name}: deck = 'listed' but the file lists no card")
        prompts = {card: (action or self._blank(card), text) for card, (action, text) in self.prompts.items()}
        deck = Deck(title=self.texts.get("title") or clean_text(default_title, MAX_TITLE) or "Untitled deck",
                    author=self.texts.get("author", ""), licence=self.texts.get("licence", ""),
                    intro=self.texts.get("intro", ""), prompts=prompts, settings=dict(self.settings),
                    won=self.texts.get("won", ""), lost=self.texts.get("lost", ""))
        size = sum(len(text.encode()) for text in [deck.title, deck.author, deck.licence, deck.intro, deck.won, deck.lost]
                   + [prompt for _, prompt in deck.prompts.values()])
        if size > MAX_TEXT_BYTES:
            raise DeckError(f"{self.name}: its text comes to {size} bytes, at most {MAX_TEXT_BYTES} (a save holds the whole deck)")
        return deck


# ----- the two file formats -----

CSV_COLUMNS = {"card": "card", "suite": "suit", "suit": "suit", "action": "action", "description": "prompt", "prompt": "prompt"}


def parse_csv(text: str, name: str) -> Deck:
    builder = _Builder(name)
    rows = [(line, row) for line, row in csv_rows(text, name) if any(cell.strip() for cell in row)]
    if not rows:
        raise DeckError(f"{name}: no header (card, suite, action, description)")
    header_line, header = rows[0]
    columns = [" ".join(cell.split()).lower() for cell in header]
    for number, column in enumerate(columns, start=1):
        if column not in CSV_COLUMNS:
            raise DeckError(f"{name} line {header_line}, column {number}: not a deck's column "
                            "(columns: card, suite or suit, action, description)")
    fields = [CSV_COLUMNS[column] for column in columns]
    for needed in ("card", "suit", "action", "prompt"):
        if fields.count(needed) != 1:
            word = {"suit": "suite (or suit)", "prompt": "description"}.get(needed, needed)
            state = "no" if needed not in fields else "more than one"
            raise DeckError(f"{name} line {header_line}: {state} column {word} (columns: card, suite, action, description)")
    for line, row in rows[1:]:
        where = f"{name} line {line}"
        if len(row) != len(fields):
            raise DeckError(f"{where}: {len(row)} fields, the header has {len(fields)}")
        values = dict(zip(fields, row))
        builder.add(where, values["card"].strip(), values["suit"].strip(), values["action"], values["prompt"])
    return builder.deck(Path(name).stem)


def _where_in(error: tomllib.TOMLDecodeError) -> str:
    """Where TOML's reader stopped, without its words: they may quote the file (a key, a character),
    and a file given as a deck may be anything (another's secret)."""
    found = re.search(r"\(at (line \d+, column \d+|end of document)\)$", str(error))
    return f"(at {found.group(1)})" if found else "(its syntax)"


MAX_DEPTH = 8  # brackets and braces open at once: a deck needs 2 ([[card]], an array in a table)
MAX_KEYS = 2000  # keys in a file: a full deck has about 220
MAX_DOTS = 4  # the dots of one key (a.b.c): a deck's keys have none
_TOML_STRINGS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def _prescan_toml(text: str, name: str) -> None:
    """Refuse what would cost tomllib deep recursion or quadratic memory (nesting, thousands of
    keys or tables, long dotted keys, tables a deck has not), line by line over the text with its
    strings and comments left out (their line breaks kept): splits and counts only, linear in the file."""
    bare = _TOML_STRINGS.sub(lambda found: '""' + "\n" * found.group().count("\n"), text)
    depth = keys = 0
    in_table = False
    for number, line in enumerate(bare.split("\n"), start=1):
        header = line.strip(" \t")
        if header.startswith("[") and not depth:  # a table's header: [game], [[card]]
            keys, in_table = keys + 1, True
            if "".join(header.partition("]")[0].lstrip("[").split()) != ("card" if header.startswith("[[") else "game"):
                raise DeckError(f"{name} line {number}: a table that is neither [game] nor [[card]] (a deck has only those)")
        elif "=" in line and not depth and not in_table and header.partition("=")[0].split(".")[0].strip(" \t") not in ("game", "card"):
            raise DeckError(f"{name} line {number}: a key outside [game] and [[card]] (a deck has only those)")
        if "[" in line or "{" in line or depth:
            for char in line:
                if char in "[{":
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise DeckError(f"{name} line {number}: nested more than {MAX_DEPTH} deep, no deck is")
                elif char in "]}":
                    depth = max(depth - 1, 0)
        for part in re.split(r"[{,]", line) if "=" in line else ():  # key = value, also in {a = 1, b = 2}
            if "=" in part:
                dots = part.partition("=")[0].count(".")
                if dots > MAX_DOTS:
                    raise DeckError(f"{name} line {number}: a key of more than {MAX_DOTS} dots, no deck's key has")
                keys += dots + 1  # a.b.c = 1 makes two tables and a key
        if keys > MAX_KEYS:
            raise DeckError(f"{name} line {number}: more than {MAX_KEYS} keys and tables, no deck has that many")


def _lines_of(pattern: str, text: str) -> list[int]:
    """The numbers of the lines that begin with `pattern` (a table's header), in one pass."""
    lines, line, last = [], 1, 0
    for found in re.finditer(pattern, text, re.M):
        line += text.count("\n", last, found.start())
        last = found.start()
        lines.append(line)
    return lines


def parse_toml(text: str, name: str) -> Deck:
    import tomllib  # here: its patterns cost every start a few ms, and a CSV deck needs none of it

    _prescan_toml(text, name)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DeckError(f"{name}: not TOML {_where_in(error)}") from None
    builder = _Builder(name)
    for key in document:
        if key not in ("game", "card"):
            raise DeckError(f"{name}: a table that is neither [game] nor [[card]] (a deck has only those)")
    header_lines = _lines_of(r"^[ \t]*\[\[[ \t]*card[ \t]*\]\]", text)
    game_line = next(iter(_lines_of(r"^[ \t]*\[[ \t]*game[ \t]*\]", text)), None)
    if "game" in document:
        builder.game_table(document["game"], f"{name} line {game_line}" if game_line else f"{name} [game]")
    cards = document.get("card", [])
    if not isinstance(cards, list) or len(cards) > 52 * 2:
        raise DeckError(f"{name}: card is not a list of [[card]] tables")
    for number, entry in enumerate(cards, start=1):
        line = header_lines[number - 1] if number <= len(header_lines) else None
        where = f"{name} line {line} (card {number})" if line else f"{name} card {number}"
        if not isinstance(entry, dict):
            raise DeckError(f"{where}: not a table")
        for key in entry:
            if key not in ("card", "suit", "suite", "action", "prompt", "description"):
                raise DeckError(f"{where}: a key that is none of card, suit, action, prompt")
        if "card" not in entry:
            raise DeckError(f"{where}: no card")
        builder.add(where, entry["card"], entry.get("suit", entry.get("suite")), entry.get("action"),
                    entry.get("prompt", entry.get("description")))
    return builder.deck(Path(name).stem)


def load_deck(path: str | Path) -> Deck:
    """A deck from a file (.csv or .toml, by its name, else by its look); DeckError in one line."""
    path = Path(path)
    return read_deck_file(str(path), clean_text(path.name, 60) or "deck")


def read_deck_file(path: str, name: str, dir_fd: int | None = None) -> Deck:
    """The deck in the regular file `path` (relative to dir_fd if given): never through a link, never
    waiting on a FIFO or a device (opened without blocking, then refused as no file), read capped. A
    folder is dc-solo-rpg's game folder of its older format (deck.csv, with config.yml's title)."""
    handle, mode = _open_capped(path, name, dir_fd)
    try:
        if stat.S_ISDIR(mode):
            return _game_folder(handle, name)
        return parse_deck(_read_capped(handle, mode, name), name)
    finally:
        os.close(handle)


def _open_capped(path: str, name: str, dir_fd: int | None, missing_ok: bool = False) -> tuple[int, int]:
    """A descriptor on `path` and its mode, never through a link nor waiting (a FIFO); (-1, 0) for a
    file that is not there when `missing_ok`."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        handle = os.open(path, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        if missing_ok:
            return -1, 0
        raise DeckError(f"{name}: cannot be read (No such file or directory)") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise DeckError(f"{name}: a link, not a deck file (name the file itself)") from None
        raise DeckError(f"{name}: cannot be read ({clean_text(error.strerror or 'error', 40)})") from None
    try:
        return handle, os.fstat(handle).st_mode
    except OSError as error:
        os.close(handle)
        raise DeckError(f"{name}: cannot be read ({clean_text(error.strerror or 'error', 40)})") from None


def _read_capped(handle: int, mode: int, name: str) -> bytes:
    if stat.S_ISDIR(mode):
        raise DeckError(f"{name}: a folder, not a deck file")
    if not stat.S_ISREG(mode):
        raise DeckError(f"{name}: not a regular file (a FIFO, a device or a socket is no deck)")
    try:
        return os.read(handle, MAX_FILE + 1)
    except OSError as error:
        raise DeckError(f"{name}: cannot be read ({clean_text(error.strerror or 'error', 40)})") from None


def _game_folder(folder: int, name: str) -> Deck:
    """dc-solo-rpg's game folder (its older format): the deck is its deck.csv; the game's name and
    introduction its config.yml's title, subtitle and introduction (else intro.md); its stylesheet
    and labels are the browser's, not a terminal's."""
    csv_text = _folder_text("deck.csv", name, folder)
    if csv_text is None:
        raise DeckError(f"{name}: a folder, not a deck file (nor a dc-solo-rpg game folder: no deck.csv in it)")
    deck = parse_csv(csv_text, f"{name}/deck.csv")
    config, intro = (_folder_text(file, name, folder) or "" for file in ("config.yml", "intro.md"))
    title, intro, won, lost = game_folder_texts(config, intro, f"{name}/config.yml")
    return replace(deck, title=title or clean_text(Path(name).name, MAX_TITLE) or deck.title, intro=intro, won=won, lost=lost)


def _folder_text(file: str, name: str, folder: int) -> str | None:
    """The text of `file` in the game folder, None if it is not there."""
    where = f"{name}/{file}"
    handle, mode = _open_capped(file, where, folder, missing_ok=True)
    if handle < 0:
        return None
    try:
        return _decoded(_read_capped(handle, mode, where), where)
    finally:
        os.close(handle)


def _decoded(data: bytes, name: str) -> str:
    if len(data) > MAX_FILE:
        raise DeckError(f"{name}: larger than {MAX_FILE // 1024} KiB, no deck is that long")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DeckError(f"{name}: not UTF-8 text (byte {error.start + 1})") from None
    if "\x00" in text:
        raise DeckError(f"{name}: binary data, not a deck")
    return text


def parse_deck(data: bytes, name: str) -> Deck:
    text = _decoded(data, name)
    if looks_like_game_file(text, name):  # a new deck: the reshuffles' bound as any file's
        return deck_from_record({"reshuffles": SETTINGS["reshuffles"][0], **game_file_record(text, name)}, name)
    looks_toml = name.lower().endswith(".toml") or (not name.lower().endswith(".csv") and re.search(r"^\s*\[", text, re.M))
    return parse_toml(text, name) if looks_toml else parse_csv(text, name)


# ----- what a deck does, in words (shown before a game starts) -----

def _cards_words(cards: list[str]) -> str:
    """Cards in short: a rank whose four suits are all here is the rank alone ("3"), else each card ("QH")."""
    words = []
    for rank in RANKS:
        mine = [card for card in cards if card[:-1] == rank]
        words += [rank] if len(mine) == 4 else mine
    return " ".join(words)


def deck_summary(deck: Deck) -> list[str]:
    """The deck before the game: its title, which cards do what (each action's words) and its settings."""
    by_action: dict[str, list[str]] = {}
    for card in deck.cards:
        by_action.setdefault(deck.action(card), []).append(card)
    author = f" by {deck.author}" if deck.author else ""
    lines = [f"{deck.title}{author}: {len(deck.cards)} cards"]
    for action in ACTIONS:
        if action in by_action:
            lines.append(f"{_cards_words(by_action[action])}: {ACTION_WORDS[action]}")
    settings = deck.settings
    lines.append(f"{settings['tokens']} tokens; King {settings['kings']} ends the game; tower from {settings['tower_start']}")
    final = "a final pull" if settings["final_check"] == "pull" else "saved at once"
    out = reshuffled_words(settings) if settings["deck_out"] == "reshuffle" else "the game ends"
    lines.append(f"after the last token: {final}; the deck out: {out}")
    return lines


def reshuffled_words(settings: dict) -> str:
    """deck_out = "reshuffle" in words, with its bound."""
    most = settings.get("reshuffles", UNBOUNDED)
    if most is UNBOUNDED:
        return "the drawn cards are reshuffled (without end: saved before the bound)"
    return f"the drawn cards are reshuffled, {counted(most, 'time')} at most, then it ends" if most else "the game ends"


# ----- the deck inside a game's options -----

_CHECKED: dict = {}  # recent decks by their records, frozen: a sim or a list of saves checks each deck once


def deck_from_record(record: object, where: str = "the deck") -> Deck:
    """A deck from a game's options (a save header, a replay: hostile too), checked as a file is."""
    key = _frozen(record)
    if key is not None and (key, where) in _CHECKED:
        return _CHECKED[key, where]
    deck = _deck_from_record(record, where)
    if key is not None:
        if len(_CHECKED) >= 16:
            _CHECKED.clear()
        _CHECKED[key, where] = deck
    return deck


def _frozen(record: object) -> tuple | None:
    """A record as a hashable key, when it is plain (a map of texts, numbers and the cards' triples)."""
    if not isinstance(record, dict):
        return None
    try:
        items = []
        for name, value in record.items():
            if name == "cards" and isinstance(value, (list, tuple)):
                value = tuple(tuple(entry) if isinstance(entry, (list, tuple)) else entry for entry in value)
            items.append((name, value, type(value).__name__))
        key = tuple(sorted(items, key=repr))
        hash(key)
        return key
    except TypeError:
        return None


def _deck_from_record(record: object, where: str) -> Deck:
    if not isinstance(record, dict):
        raise DeckError(f"{where} is not a map")
    builder = _Builder(where, fit=False)
    cards = record.get("cards", [])
    if not isinstance(cards, (list, tuple)) or len(cards) > 52:
        raise DeckError(f"{where}: cards is not a list of at most 52")
    game = {key: value for key, value in record.items() if key != "cards"}
    builder.game_table(game, where)
    for number, entry in enumerate(cards, start=1):
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise DeckError(f"{where} card {number}: not [card, action, prompt]")
        builder.add(f"{where} card {number}", entry[0], None, entry[1], entry[2])
    if "reshuffles" not in game:  # a game saved before the bound: its reshuffles were (and stay) unbounded,
        del builder.settings["reshuffles"]  # and its settings as they were, so its digests (records) still match
    return builder.deck("Untitled deck")


def sample_path() -> Path:
    return Path(__file__).with_name("decks") / "sample.toml"


_SAMPLE: list[Deck] = []


def sample_deck() -> Deck:
    """The sample deck written for dicehall (read once)."""
    if not _SAMPLE:
        _SAMPLE.append(load_deck(sample_path()))
    return _SAMPLE[0]
