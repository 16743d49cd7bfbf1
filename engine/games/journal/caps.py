"""The caps on a deck's file and texts, shared by every deck format (deck.py's CSV and TOML, gamefile.py's
dc-solo-rpg game file): a deck travels whole in a save's header (saves/framing.py: 64 KiB, 4 KiB a string)."""
from __future__ import annotations

MAX_FILE = 256 * 1024  # bytes of a deck file
MAX_PROMPT = 400  # characters of one card's prompt
MAX_TITLE = 80
MAX_INTRO = 1000  # the intro and the licence: at most 4000 bytes of UTF-8, under a save's 4 KiB string
MAX_LICENCE = 800
MAX_TEXT_BYTES = 40_000  # every text of a deck together, in UTF-8: a save's header holds it all
