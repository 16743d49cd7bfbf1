"""The caps on a deck's file and texts, shared by every deck format (deck.py's CSV and TOML, gamefile.py's
dc-solo-rpg game file): a deck travels whole in a save's header (saves/framing.py: 64 KiB, 4 KiB a string).
A text longer than its cap is cut at a word (fitted), never refused: the words change, the game does not."""
from __future__ import annotations

MAX_FILE = 256 * 1024  # bytes of a deck file
MAX_PROMPT = 400  # characters of one card's prompt
MAX_TITLE = 80
MAX_INTRO = 1000  # the intro and the licence: at most 4000 bytes of UTF-8, under a save's 4 KiB string
MAX_LICENCE = 800
MAX_TEXT_BYTES = 40_000  # every text of a deck together, in UTF-8: a save's header holds it all


def fitted(text: str, limit: int) -> str:
    """`text` whole if it fits in `limit` characters, else cut at a word and ended with "..."."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 3].rsplit(None, 1)[0] if " " in text[: limit - 3] else text[: limit - 3]
    return cut.rstrip() + "..."
