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


# What a player may run over ssh on a box (`ssh play@box dicehall WORDS`; dicehall/cli/box.py is the
# gate that runs it). A capital word is an argument: ID a hall game's id or one of the player's own
# saves (its id or name, never a path), GAME a game's id. Nothing else gets through.
SSH_COMMANDS = (
    "join ID", "watch ID", "watch ID --follow",
    "hall", "hall --scores", "hall --json", "hall --scores --json", "hall --json --scores",
    "verify ID", "export ID --text -", "export ID -o -",
    "stats", "stats GAME", "stats --json", "stats GAME --json",
    "rules GAME",
    "ratings", "ratings GAME", "ratings --json", "ratings GAME --json",
    "export ID --svg -o -", "export ID --svg --at N -o -", "export ID --svg --graph -o -",  # an image leaves the box
    "archive", "archive --json", "archive --game GAME", "archive --game GAME --json", "archive --json --game GAME",
)
SSH_ALLOWED = ("join ID, watch ID [--follow], hall [--scores] [--json], verify ID, export ID --text -, "
               "export ID -o - (the replay), export ID --svg [--at N | --graph] -o - (an image), stats [GAME] [--json], "
               "rules GAME, ratings [GAME] [--json], archive [--game GAME] [--json]; nothing: the launcher")
# The keys a hint names where the box runs no such command (they work off a box too).
JOIN_KEY = "the Hall screen's j"
WATCH_KEY = "the Hall screen's w"
NEW_GAME_KEY = "the Hall screen's n"
HALL_KEY = "the Hall screen"
SAVES_KEY = "the launcher's Continue"
RECOVER_KEY = "r in the launcher's Continue"
MAX_WORD = 80  # a save's name is at most 40 characters; a hall id 6


class NotAllowedHere(SaveError):
    """A command the box does not run, with the reason in one line."""


def is_name(word: str) -> bool:
    """A hall game's id or a save's id or name, as a word the box takes: printable, no folder in it
    (no /, \\ or ..), not an option nor a hidden or home-relative name."""
    return (0 < len(word) <= MAX_WORD and word.isprintable() and not word.startswith(("-", ".", "~"))
            and "/" not in word and "\\" not in word and ".." not in word)


def _fits(kind: str, word: str) -> bool:
    if kind == "ID":
        return is_name(word)
    if kind == "N":  # an event's number
        return word.isascii() and word.isdecimal() and len(word) <= 7
    if kind == "GAME":
        from dicehall.engine.games import CATALOGUE

        return word in {entry.id for entry in CATALOGUE}
    return word == kind


def allowed_command(words: list[str]) -> list[str]:
    """`words` when they are one of SSH_COMMANDS with its arguments as they must be; else
    NotAllowedHere saying which word is refused and why."""
    if words[0].startswith("-"):
        raise NotAllowedHere(f"{clean_text(words[0], 40)}: the options before the command are the admin's")
    same_command = [form.split() for form in SSH_COMMANDS if form.split()[0] == words[0]]
    if not same_command:
        raise NotAllowedHere(f"{clean_text(words[0], 40)!r} is not a command here")
    for form in same_command:
        if len(form) == len(words) and all(_fits(kind, word) for kind, word in zip(form[1:], words[1:])):
            return words
    words_of_forms = {word for form in same_command for word in form[1:]}
    for before, word in zip(words, words[1:]):
        if word in words_of_forms:
            continue
        if before == "-o":  # never a path: the file leaves the box on standard output
            raise NotAllowedHere(f"{words[0]} -o {clean_text(word, 40)}: only -o - (standard output) here")
        if word.startswith("-") and word != "-":
            raise NotAllowedHere(f"{words[0]} {clean_text(word, 40)}: that option is not allowed here")
        if "ID" in words_of_forms and not _fits("ID", word):
            raise NotAllowedHere(f"{words[0]}: {clean_text(word, 40)!r} is not a game's id or a save's name")
        if "ID" not in words_of_forms and not _fits("GAME", word):
            from dicehall.engine.games import CATALOGUE

            raise NotAllowedHere(f"{words[0]}: {clean_text(word, 40)!r} is not a game "
                                 f"({', '.join(entry.id for entry in CATALOGUE)})")
    raise NotAllowedHere(f"{clean_text(' '.join(words), 80)!r} is not a form of {words[0]} allowed here")


def ssh_login() -> str:
    """How a player reaches this box: `ssh ACCOUNT@HOST` (the shared account, this machine's name)."""
    import getpass
    import socket

    return clean_text(f"ssh {getpass.getuser()}@{socket.gethostname()}", 80)


def command_hint(command: str, key: str | None = None) -> str | None:
    """How the player runs `dicehall COMMAND` where this dicehall runs: the command itself off a box;
    on a box, over ssh when the box allows it (`ssh play@box dicehall join ab12cd`), else `key` (a key
    in the app that does it, such as "the Hall screen's j"), else None: nothing to tell there."""
    if not on_box():
        return f"dicehall {command}"
    try:
        allowed_command(command.split())
    except NotAllowedHere:
        return key
    return f"{ssh_login()} dicehall {command}"


AUTH_INFO = "SSH_USER_AUTH"  # sshd's file naming the key of this login, with `ExposeAuthInfo yes`
MAX_AUTH_INFO = 64 * 1024


def login_keys() -> frozenset[str]:
    """The fingerprints ("SHA256:...", as `ssh-keygen -lf` prints them) of the public keys this SSH
    login was made with, read from the file sshd names in SSH_USER_AUTH when its config has
    `ExposeAuthInfo yes`; empty without one. Only sshd sets it under a forced command (a client's
    variables are not passed unless AcceptEnv says so), and its file is read as any file: no link,
    no FIFO, capped."""
    import base64
    import binascii
    import hashlib
    import stat

    path = os.environ.get(AUTH_INFO)
    if not path:
        return frozenset()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return frozenset()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return frozenset()
        text = os.read(fd, MAX_AUTH_INFO).decode("ascii", "replace")
    except OSError:
        return frozenset()
    finally:
        os.close(fd)
    found = set()
    for line in text.splitlines():  # "publickey ssh-ed25519 AAAA..." per method that succeeded
        words = line.split()
        if len(words) >= 3 and words[0] == "publickey":
            try:
                blob = base64.b64decode(words[2], validate=True)
            except (binascii.Error, ValueError):
                continue
            found.add("SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("="))
    return frozenset(found)
