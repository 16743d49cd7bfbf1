"""The gate of a box: what a player typed after `ssh play@box` (sshd hands it over in
SSH_ORIGINAL_COMMAND while the admin's forced command runs), read as arguments, split as a shell
would but with no shell, and run only when it is one of the box's commands (saves/box.py's
SSH_COMMANDS); anything else is refused in one line and nothing runs. Nothing typed: the launcher."""
from __future__ import annotations

import argparse
import os
import shlex
import sys

from dicehall.engine.text import clean_text

ORIGINAL_COMMAND = "SSH_ORIGINAL_COMMAND"
MAX_COMMAND = 1000  # characters: the longest allowed command is a few words and a save's name
MAX_WORDS = 7  # the longest form: export ID --svg --at N -o -


def barred_at_door() -> str | None:
    """On a box, the one line refusing a player the admin has barred (hall.toml's `barred`), checked
    before any command or the launcher runs; None off a box or for anyone else."""
    from dicehall.saves.box import box_player, login_keys

    player = box_player()
    if player is None:
        return None
    from dicehall.saves.hall import barred_refusal, hall_dir, read_settings

    return barred_refusal(read_settings(hall_dir()), player, login_keys())


def typed_command() -> str | None:
    """What the player typed after the host, when sshd runs a forced command; None otherwise."""
    return os.environ.get(ORIGINAL_COMMAND)


def box_words(typed: str) -> list[str]:
    """The arguments of an allowed command (empty: the launcher); NotAllowedHere otherwise."""
    from dicehall.saves.box import NotAllowedHere, allowed_command

    if len(typed) > MAX_COMMAND:
        raise NotAllowedHere(f"a command of {len(typed):,} characters is too long")
    if any(not (ch.isprintable() or ch == "\t") for ch in typed):
        raise NotAllowedHere("control characters in the command")
    try:
        words = shlex.split(typed, comments=False, posix=True)
    except ValueError as error:  # "No closing quotation", "No escaped character"
        raise NotAllowedHere(f"the command cannot be read ({str(error).lower()})") from None
    if words[:1] == ["dicehall"]:  # `ssh play@box dicehall hall` and `ssh play@box hall` alike
        words = words[1:]
    if len(words) > MAX_WORDS:
        raise NotAllowedHere(f"{len(words):,} words are too many")
    return allowed_command(words) if words else []


def run_typed(args: argparse.Namespace, typed: str, build_parser, run) -> int:
    """Run what the player typed, parsed by the command line's parser and run by its dispatch (`run`),
    with the forced command's --hall and --player kept; or refuse it in one line on standard error
    (exit 2)."""
    from dicehall.saves.box import SSH_ALLOWED, NotAllowedHere

    try:
        words = box_words(typed)
    except NotAllowedHere as error:
        print(f"dicehall: {clean_text(str(error), 160)}; allowed here: {SSH_ALLOWED}", file=sys.stderr)
        return 2
    if not words:
        return run(args)
    typed_args = build_parser().parse_args(words)  # every word was checked: this parses
    typed_args.hall, typed_args.box_player = args.hall, args.box_player  # the admin's, never the player's
    return run(typed_args)
