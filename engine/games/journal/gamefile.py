"""dc-solo-rpg's game file (`NAME.game.md`, its "type-based Markdown format": its docs/game-config.md,
docs/game-template.game.md, read there by src/lib/parsers/markdownParser.js), read as hostile input into
a deck record (deck.py checks it as any deck). Its shape:

    ---                                  front matter: `key: value` lines (title required; subtitle,
    title: Future Lost                   win-message, lose-message; other keys are ignored, as there)
    subtitle: A Dimm City Campaign
    ---
    ## Who You Are                       the introduction: any headings and paragraphs
    ...
    ## Card Deck                         then one card a `### Type[: assignment][, modifier]` heading,
    ### Narrative: A-clubs, skip-damage  its short description in **bold**, an optional story, `---`
    **A moment of perfect timing**       between cards; <!-- comments --> are nobody's text

A game has all 52 cards by type: 1 Primary Success (the Ace of hearts), 4 Failure Counter (the Kings),
3 Narrative (the other Aces; at most one `skip-damage` and one `return-king`), 16 Challenge (3, 5, 7, 9)
and 28 Event (2, 4, 6, 8, 10, J, Q), placed as dc-solo-rpg places them. Each card's action is given in
dc-solo-rpg's words (deck.py maps them onto dicehall's). A story or an introduction longer than a
deck keeps (caps.py) is cut at a word, with "..." at the end, as a title too long is."""
from __future__ import annotations

import re

from dicehall.engine.errors import DeckError
from dicehall.engine.games.journal.caps import MAX_INTRO, MAX_PROMPT, MAX_TITLE, fitted
from dicehall.engine.games.journal.cards import SUITS, card_name, rank_of, suit_of
from dicehall.engine.text import clean_text

MAX_FRONT_LINES = 100  # lines of front matter before it is refused as never closed (it has four keys)
TYPES = {"primary success": "Primary Success", "primary-success": "Primary Success",
         "failure counter": "Failure Counter", "failure-counter": "Failure Counter",
         "narrative": "Narrative", "challenge": "Challenge", "event": "Event"}
COUNTS = {"Primary Success": 1, "Failure Counter": 4, "Narrative": 3, "Challenge": 16, "Event": 28}
# a card type's action, in dc-solo-rpg's words; a Narrative's modifier is its action instead of the bonus
ACTIONS = {"Primary Success": "primary-success", "Failure Counter": "failure-token", "Narrative": "success-bonus",
           "Challenge": "failure-check", "Event": "no-pull"}
MODIFIERS = ("skip-damage", "return-king")
RANKS_OF = {"Challenge": ("3", "5", "7", "9"), "Event": ("2", "4", "6", "8", "10", "J", "Q")}
KINDS = ", ".join(f"{count} {kind}" for kind, count in COUNTS.items())

_HEADER = re.compile(r"#{3,4}[ \t]+([^:\n]*)(?::(.*))?")  # greedy, no backtracking: linear in the line
_DECK_HEADING = re.compile(r"#{1,2}[ \t]+Card Deck[ \t]*", re.I)
_ASSIGNMENT = re.compile(r"([0-9a-z]+)-([a-z]+)", re.I)  # "7-hearts", "A-clubs"
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def looks_like_game_file(text: str, name: str) -> bool:
    """A dc-solo-rpg game file by its name (.md) or, pasted, by its look (front matter first)."""
    lower = name.lower()
    return lower.endswith(".md") or (not lower.endswith((".csv", ".toml")) and text.lstrip().startswith("---"))


def game_file_record(text: str, name: str) -> dict:
    """The deck record (deck.py's deck_from_record checks it) of the game file `text`; DeckError in one line."""
    lines = _without_comments(text, name).split("\n")
    front, body = _front_matter(lines, name)
    title = front.get("title", (1, ""))[1]
    if not title:
        raise DeckError(f"{name} line 1: no title in the front matter (title: the game's name)")
    deck_at = next((number for number in range(body, len(lines)) if _DECK_HEADING.fullmatch(lines[number].rstrip())), None)
    if deck_at is None:
        raise DeckError(f"{name}: no '## Card Deck' heading (the cards follow it)")
    subtitle = front.get("subtitle", (0, ""))[1]
    intro = _paragraphs(([subtitle, ""] if subtitle else []) + lines[body:deck_at])
    cards = _placed(_cards(lines, deck_at + 1, name), name, deck_at + 1)
    return {"title": fitted(title, MAX_TITLE), "intro": fitted(intro, MAX_INTRO),
            "won": fitted(front.get("win-message", (0, ""))[1], MAX_PROMPT),
            "lost": fitted(front.get("lose-message", (0, ""))[1], MAX_PROMPT),
            "cards": [[code, action, prompt] for code, (action, prompt) in sorted(cards.items())],
            "final_check": "pull"}  # dc-solo-rpg's salvation ends with a final damage check (its template)


def _without_comments(text: str, name: str) -> str:
    """`text` with each <!-- comment --> blanked to its line breaks (so line numbers hold), in one pass."""
    parts, at = [], 0
    while (start := text.find("<!--", at)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            raise DeckError(f"{name} line {text.count(chr(10), 0, start) + 1}: a comment (<!--) that is never closed")
        parts += [text[at:start], "\n" * text.count("\n", start, end)]
        at = end + 3
    return "".join(parts) + text[at:]


def _front_matter(lines: list[str], name: str) -> tuple[dict[str, tuple[int, str]], int]:
    """The front matter's keys (each with its line number and its value, cleaned) and the first line after it."""
    start = next((number for number, line in enumerate(lines) if line.strip()), 0)  # blank lines pasted before it
    if not lines or lines[start].rstrip() != "---":
        raise DeckError(f"{name} line {start + 1}: not a game file (it starts with a --- line, then title: ...)")
    front: dict[str, tuple[int, str]] = {}
    for number in range(start + 1, min(len(lines), start + MAX_FRONT_LINES + 1)):
        line = lines[number]
        if line.rstrip() == "---":
            return front, number + 1
        key, colon, value = line.partition(":")
        if colon and key.strip():
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":  # YAML's quotes
                value = value[1:-1]
            front[" ".join(key.split()).lower()] = (number + 1, clean_text(value, MAX_PROMPT * 2))
    raise DeckError(f"{name} line {start + 1}: its front matter is not closed by a --- line within {MAX_FRONT_LINES} lines")


def _paragraphs(lines: list[str]) -> str:
    """Markdown lines as paragraphs of text: a heading is a paragraph of its own, a rule is nothing,
    lines of one paragraph are joined, blank lines part them; bold's ** are the writer's emphasis, dropped."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        words = line.strip()
        if words.startswith("#") or not words or re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", words):
            if current:
                paragraphs.append(" ".join(current))
            current = []
            heading = words.lstrip("#").strip()
            if heading and words.startswith("#"):
                paragraphs.append(heading)
        else:
            current.append(words.replace("**", ""))
    if current:
        paragraphs.append(" ".join(current))
    return "\n\n".join(clean_text(paragraph, MAX_INTRO * 2) for paragraph in paragraphs if paragraph)


class _Card:
    def __init__(self, line: int, kind: str, assignment: str | None, modifier: str | None):
        self.line, self.kind, self.assignment, self.modifier = line, kind, assignment, modifier
        self.body: list[str] = []

    def action_and_prompt(self, name: str) -> tuple[str, str]:
        text = "\n".join(self.body)
        found = _BOLD.search(text)
        if not found or not found.group(1).strip():
            raise DeckError(f"{name} line {self.line}: the card has no short description in **bold**")
        story = _paragraphs(text[found.end():].split("\n")).replace("\n\n", " ")
        prompt = clean_text(found.group(1), MAX_PROMPT * 2) + (f" {story}" if story else "")
        return self.modifier or ACTIONS[self.kind], fitted(prompt, MAX_PROMPT)


def _cards(lines: list[str], start: int, name: str) -> list[_Card]:
    """The cards after the Card Deck heading, each from its `### Type` heading to the next."""
    cards: list[_Card] = []
    in_card = False  # after a card's heading, before the --- that ends it: another heading is its story's
    for number in range(start, len(lines)):
        header = _HEADER.fullmatch(lines[number].rstrip())
        kind = header and TYPES.get(" ".join(header.group(1).split()).lower())
        if not kind and (header is None or in_card):
            if cards:
                cards[-1].body.append(lines[number])
            in_card = in_card and lines[number].rstrip() != "---"
            continue
        where = f"{name} line {number + 1}"
        if kind is None:
            raise DeckError(f"{where}: the card's type is not one of {', '.join(COUNTS)}")
        if len(cards) == 52:
            raise DeckError(f"{where}: a 53rd card (a game has 52: {KINDS})")
        assert header is not None  # a kind is read from a heading only
        cards.append(_Card(number + 1, kind, *_modifiers(header.group(2) or "", kind, where)))
        in_card = True
    return cards


def _modifiers(text: str, kind: str, where: str) -> tuple[str | None, str | None]:
    """A heading's card (a code such as "AC") and modifier, from "A-clubs, skip-damage"; words
    dc-solo-rpg does not know are passed over, as there."""
    assignment = modifier = None
    for part in (" ".join(part.split()).lower() for part in text.split(",")):
        if part in MODIFIERS:
            if kind != "Narrative":
                raise DeckError(f"{where}: {part} is for a Narrative card (one of the Aces), not a {kind}")
            if modifier is not None:
                raise DeckError(f"{where}: a card takes one modifier ({' or '.join(MODIFIERS)})")
            modifier = part
        elif found := _ASSIGNMENT.fullmatch(part):
            rank, suit = rank_of(found.group(1)), suit_of(found.group(2))
            if rank is None or suit is None or len(found.group(2)) < 4:
                raise DeckError(f"{where}: the card named is not RANK-SUIT (7-hearts, A-clubs, 10-spades)")
            assignment = rank + suit
    return assignment, modifier


def _placed(cards: list[_Card], name: str, deck_line: int) -> dict[str, tuple[str, str]]:
    """Each card on its place in the deck, as dc-solo-rpg places it: the Ace of hearts, the Kings in
    suit order, the Narratives (plain, skip-damage, return-king) on the other Aces, each Challenge and
    Event by its place in its type on the cards of its ranks (rank by rank; hearts, diamonds, clubs,
    spades), a card that names its place there. Where dc-solo-rpg refuses a file because a card named
    its place in another's (a Narrative named A-clubs after one placed there), the other takes the
    first free place instead."""
    by_kind: dict[str, list[_Card]] = {kind: [] for kind in COUNTS}
    for card in cards:
        by_kind[card.kind].append(card)
    for kind, count in COUNTS.items():
        if len(by_kind[kind]) != count:
            raise DeckError(f"{name} line {deck_line}: {len(by_kind[kind])} {kind} cards; a game has {KINDS}")
    for modifier in MODIFIERS:
        if sum(card.modifier == modifier for card in by_kind["Narrative"]) > 1:
            raise DeckError(f"{name} line {deck_line}: more than one Narrative card with {modifier}")
    placed: dict[str, tuple[str, str]] = {}
    first: dict[str, int] = {}

    def place(code: str, card: _Card) -> None:
        if code in placed:
            raise DeckError(f"{name} line {card.line}: the {card_name(code)} again (first at line {first[code]})")
        placed[code], first[code] = card.action_and_prompt(name), card.line

    place("AH", by_kind["Primary Success"][0])
    for suit, card in zip(SUITS, by_kind["Failure Counter"]):
        place("K" + suit, card)
    narratives = sorted(by_kind["Narrative"], key=lambda card: (None, *MODIFIERS).index(card.modifier))
    groups: list[tuple[str, tuple[str, ...], list[_Card], list[str]]] = [("Narrative", ("A",), narratives, ["A" + suit for suit in SUITS[1:]])]
    groups += [(kind, ranks, by_kind[kind], [rank + suit for rank in ranks for suit in SUITS]) for kind, ranks in RANKS_OF.items()]
    for kind, ranks, group, slots in groups:
        for card in group:  # the cards named first; each other card on its own place if free, else the first free
            if card.assignment:
                if card.assignment[:-1] not in ranks:
                    what = "an Ace" if kind == "Narrative" else f"a {', '.join(ranks)}"
                    raise DeckError(f"{name} line {card.line}: a {kind} card is {what}, not the {card_name(card.assignment)}")
                place(card.assignment, card)
        free = [slot for slot in slots if slot not in placed]
        for index, card in enumerate(group):  # its place counts the named cards before it, as there
            if not card.assignment:
                place(slots[index] if slots[index] in free else free[0], card)
                free = [slot for slot in free if slot not in placed]
    return placed


def game_folder_texts(config: str, intro: str, where: str) -> tuple[str, str, str, str]:
    """The game's name, introduction and words at its end from a game folder's config.yml (`title:`,
    `subtitle:`, `introduction: |` with its indented lines, and its labels' successCheckWin and
    failureCheckLoss; its other labels are the browser's) and intro.md (the introduction when
    config.yml has none): empty texts when it has none."""
    keys: dict[str, tuple[int, list[str]]] = {}
    current = None
    for number, line in enumerate(config.split("\n"), start=1):
        if line[:1] in (" ", "\t") or not line.strip():  # an indented or blank line: the key above's block
            if current is not None:
                keys[current][1].append(line)
            continue
        key, colon, value = line.partition(":")
        current = " ".join(key.split()).lower() if colon else None
        if current is not None:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":  # YAML's quotes
                value = value[1:-1]
            keys[current] = (number, [] if value[:1] in ("|", ">") else [value])
    title = fitted(clean_text(" ".join(keys.get("title", (1, [""]))[1]), MAX_TITLE * 4), MAX_TITLE)
    subtitle = " ".join(keys.get("subtitle", (0, []))[1])
    lines = keys["introduction"][1] if "introduction" in keys else intro.split("\n")
    labels = {}
    for line in keys.get("labels", (0, []))[1]:
        key, _, value = line.partition(":")
        labels[key.strip()] = value.strip().strip("\"'")
    words = [fitted(clean_text(labels.get(label, ""), MAX_PROMPT * 2), MAX_PROMPT) for label in ("successCheckWin", "failureCheckLoss")]
    return title, fitted(_paragraphs(([subtitle, ""] if subtitle.strip() else []) + lines), MAX_INTRO), words[0], words[1]
