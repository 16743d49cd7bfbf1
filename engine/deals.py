"""A deal's code: one short line that says which game, with which options and seed, so "try this
deal" fits into one line of chat: `troll:standard:123456`, `troll:sturdy+toys:42`,
`dicetower:start=60:7`, `wager:1234` (no option away from its default), `towers:first=dark+match`.

GAME[:OPTIONS]:SEED; a game whose seed decides nothing (Towers: its catalogue entry's
`deal_seeded`) has no seed in its code, GAME[:OPTIONS], and is read with seed 0. OPTIONS are the options that differ from the game's defaults, `+` between
them, as the game's check_options returns them, in its order: a flag that is on is its name
(`toys`), any other value is `name=value` (a list's items joined by `.`: `heights=3.2.1.1.2.3`);
an option the others already imply is left out (the troll's `toys` implies its two held aces). A
game whose catalogue entry names a `deal_lead` option writes that one first, bare, even at its
default (`standard`). Reading a code treats it as hostile: its length and characters are capped,
and every option goes through the game's own check_options, so a bad code is one line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dicehall.engine.errors import OptionError
from dicehall.engine.games import CATALOGUE, entry_of, get_game
from dicehall.engine.text import clean_text

CODE_LIMIT = 400  # characters: a troll deal with its whole deck written out is about 190
ALLOWED = re.compile(r"[A-Za-z0-9_.=+:-]")
SEED_LIMIT = 2**63


class DealCodeError(OptionError):
    """A code that names no deal dicehall can open; the message is one line."""


@dataclass(frozen=True)
class Deal:
    game: str
    seed: int
    options: dict


def _token(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ".".join(str(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parts(options: dict, defaults: dict, lead: str) -> list[str]:
    parts = []
    for key, value in options.items():
        if key == lead:
            continue
        if value == defaults.get(key, object()) or value is None:
            continue
        parts.append(key if value is True else f"{key}={_token(value)}")
    return parts


def deal_code(game_id: str, seed: int, options: dict) -> str:
    """The code of a game's deal; `options` as given or as checked (they are checked here)."""
    module = get_game(game_id)
    checked = module.check_options(dict(options))
    defaults = module.check_options({})
    lead = entry_of(game_id).deal_lead
    parts = _parts(checked, defaults, lead)
    # leave out what the rest implies, so a code says each choice once
    for part in list(parts):
        fewer = [p for p in parts if p != part]
        try:
            if module.check_options(_options(fewer, lead and str(checked.get(lead)), lead, game_id)) == checked:
                parts = fewer
        except (OptionError, ValueError):
            continue
    head = ([_token(checked[lead])] if lead else []) + parts
    seeded = [str(seed)] if entry_of(game_id).deal_seeded else []
    code = ":".join([game_id] + (["+".join(head)] if head else []) + seeded)
    if len(code) > CODE_LIMIT or any(not ALLOWED.fullmatch(ch) for ch in code):
        # options no short code says (the journal's deck of one's own): its replay carries them
        raise DealCodeError(f"{module.TITLE} with these options has no deal code: share its replay")
    return code


def _value(text: str) -> Any:
    if "." in text:
        return [_value(item) for item in text.split(".")]
    if re.fullmatch(r"[0-9]{1,18}", text):
        return int(text)
    return {"true": True, "false": False}.get(text, text)


def _options(parts: list[str], lead_value: str | None, lead: str, game_id: str) -> dict:
    options: dict = {lead: lead_value} if lead and lead_value else {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not key:
            raise DealCodeError(f"deal code: an empty option in {game_id}'s options")
        if key in options:
            raise DealCodeError(f"deal code: {clean_text(key, 20)} is given twice")
        options[key] = _value(value) if sep else True
    return options


def read_deal(code: str) -> Deal:
    """The deal a code names, its options checked by the game; DealCodeError (one line) otherwise."""
    if not isinstance(code, str) or not code.strip():
        raise DealCodeError("deal code: it is empty (a code looks like troll:standard:123456)")
    code = code.strip()
    if len(code) > CODE_LIMIT:
        raise DealCodeError(f"deal code: {len(code)} characters, more than a deal code has ({CODE_LIMIT} at most)")
    bad = next((i for i, ch in enumerate(code) if not ALLOWED.fullmatch(ch)), None)
    if bad is not None:
        raise DealCodeError(f"deal code: character {bad + 1} ({clean_text(repr(code[bad]), 10)}) is not in any deal "
                            "code (letters, digits and _ . = + - : only)")
    pieces = code.split(":")
    game_id = pieces[0].lower()
    if game_id not in {entry.id for entry in CATALOGUE}:
        raise DealCodeError(f"deal code: no game {clean_text(pieces[0], 20)!r} (games: "
                            f"{', '.join(entry.id for entry in CATALOGUE if entry.playable)})")
    if not entry_of(game_id).deal_seeded:  # GAME[:OPTIONS]: the seed decides nothing
        if len(pieces) > 2:
            raise DealCodeError(f"deal code: {entry_of(game_id).title} has no dice, so its code has no seed "
                                f"({game_id} or {game_id}:OPTIONS)")
        pieces.append("0")
    if len(pieces) not in (2, 3):
        raise DealCodeError("deal code: it is GAME:OPTIONS:SEED or GAME:SEED (like troll:standard:123456)")
    seed_text = pieces[-1]
    if not re.fullmatch(r"[0-9]{1,19}", seed_text) or int(seed_text) >= SEED_LIMIT:
        raise DealCodeError(f"deal code: the seed {clean_text(seed_text, 24)!r} is not a whole number from 0 to 2**63-1")
    try:
        module = get_game(game_id)
    except OptionError as error:
        raise DealCodeError(f"deal code: {error}") from None
    lead = entry_of(game_id).deal_lead
    parts = [part for part in pieces[1].split("+")] if len(pieces) == 3 else []
    lead_value = None
    if lead and parts and "=" not in parts[0] and parts[0] not in module.check_options({}):
        lead_value = parts.pop(0)  # the lead option, bare: "standard"
    try:
        options = module.check_options(_options(parts, lead_value, lead, game_id))
    except DealCodeError:
        raise
    except (OptionError, ValueError, TypeError) as error:
        raise DealCodeError(f"deal code: {clean_text(str(error), 160)}") from None
    return Deal(game_id, int(seed_text), options)
