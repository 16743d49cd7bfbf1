"""The one root of dicehall's errors. Every refusal a player sees (an illegal move, a damaged save or
log, a hall that cannot do it now, a replay that cannot be used) derives from DicehallError, so a
handler that means "anything dicehall refuses" can say so, and a bug (any other exception) is not
mistaken for one. It imports nothing: every layer (engine, replays, saves, tui) may import it."""
from __future__ import annotations


class DicehallError(Exception):
    """Something dicehall refuses; the message is one line for the player."""


class OptionError(DicehallError, ValueError):
    """An option, a seat or a game that dicehall does not have ("unknown option 'x'", "Towers is for
    two players"): refused before anything is written."""


class DeckError(OptionError):
    """A journal's deck file or a save's deck that cannot be played; the message names where and what
    (here, not in the journal's package, so the command line tells it apart without importing it)."""


class RulingError(OptionError):
    """A ruling a player chose when a game starts (the journal's --option kings=9, an unknown key): one
    line naming the option and the values it takes, exit 2 on the command line, without the usage."""
