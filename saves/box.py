"""The shared box: who plays, when the admin's key line names them (`dicehall --player NAME` in the
key's forced command). Behind one shared game account every player is the same Unix user, so the
name the admin gave the key is the only identity there is: it is never typed, and each player's
saves, replays, stats and analyses live in a folder of their own (DATA/players/NAME). Without a
name (a person's own account, the plain `dicehall`) there is no box: everything is as it always was."""
from __future__ import annotations

import os
import re

from dicehall.engine.text import clean_text
from dicehall.saves.errors import SaveError

PLAYER_ENV = "DICEHALL_PLAYER"  # set by --player, so the app and anything it starts know the player
PLAYER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")
PLAYER_RULE = "a lowercase letter, then up to 23 lowercase letters, digits, - or _"


class NotAPlayerName(SaveError):
    pass


def check_player(text: object) -> str:
    """A player's name as the admin gives it (also a folder name): PLAYER_RULE, else one line."""
    if not isinstance(text, str) or not PLAYER_NAME.fullmatch(text):
        raise NotAPlayerName(f"{clean_text(text, 40)!r} is not a player name ({PLAYER_RULE})")
    return text


def box_player() -> str | None:
    """The player the admin's key line names, or None off a box. A name that is set but not a
    player's name is refused (SaveError), never taken as "no box": that would open every player's saves."""
    name = os.environ.get(PLAYER_ENV)
    if name is None or name == "":
        return None
    return check_player(name)


def on_box() -> bool:
    return box_player() is not None


def set_box_player(name: str) -> None:
    os.environ[PLAYER_ENV] = check_player(name)
