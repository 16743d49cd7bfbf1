"""Pebbles: a pile of pebbles; in turn each player takes one or two; who takes the last one wins.
A toy game that keeps the contract (engine/contract.py), for tests/test_adding_a_game.py."""
from __future__ import annotations

from dataclasses import dataclass, replace

from dicehall.engine.core import HIGHER, IllegalCommand, Measure, Outcome, Player, Result
from dicehall.engine.errors import OptionError
from dicehall.engine.text import clean_text

ID = "pebbles"
TITLE = "Pebbles"
BLURB = "take the last pebble"
RULES_VERSION = 1
RULES_TEXT = """\
PEBBLES - two players and a pile of pebbles (7 unless --option pile=N).
In turn each player takes one or two pebbles (keys 1 and 2).
Whoever takes the last pebble wins."""
BOT_STYLES = ("sharp", "random")
MEASURE = Measure("pebbles at the start", HIGHER)  # its catalogue row's measure


@dataclass(frozen=True)
class Take:
    """A command: take `count` pebbles."""
    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True)
class Taken:
    seat: int
    count: int


EVENTS = {"Taken": Taken}


@dataclass(frozen=True)
class PebblesState:
    pile: int
    players: tuple[Player, ...]
    start: int = 0  # the pile at the start
    seat: int = 0
    last: int | None = None  # the seat that took the last pebble


def check_options(options: dict) -> dict:
    unknown = [key for key in options if key != "pile"]
    if unknown:
        raise OptionError(f"unknown option {clean_text(str(unknown[0]), 20)!r} (known: pile)")
    pile = options.get("pile", 7)
    if type(pile) is not int or not 1 <= pile <= 99:
        raise OptionError("pile must be a whole number from 1 to 99")
    return {"pile": pile}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) != 2:
        raise OptionError("Pebbles is for two players (either may be a bot)")
    checked = tuple(Player(clean_text(p.name, 20) or f"Player {n + 1}", p.bot, (p.style or BOT_STYLES[0]) if p.bot else "")
                    for n, p in enumerate(players))
    if any(p.bot and p.style not in BOT_STYLES for p in checked):
        raise OptionError(f"a Pebbles bot plays {', '.join(BOT_STYLES)}")
    return checked


def initial_state(options: dict, players: tuple[Player, ...]) -> PebblesState:
    return PebblesState(options["pile"], players, start=options["pile"])


def to_act(state: PebblesState) -> int | None:
    return None if state.pile == 0 else state.seat


def legal_commands(state: PebblesState) -> list[Take]:
    return [Take(n) for n in (1, 2) if n <= state.pile]


def parse_command(text: str) -> Take:
    words = text.split()
    if len(words) == 2 and words[0] == "take" and words[1] in ("1", "2"):
        return Take(int(words[1]))
    raise IllegalCommand(f"not a Pebbles command: {clean_text(text, 30)!r} (take 1, take 2)")


def decide(state: PebblesState, command: object) -> tuple[Taken]:
    if command not in legal_commands(state):
        raise IllegalCommand(f"{command} is not possible: {state.pile} left")
    return (Taken(state.seat, command.count),)


def evolve(state: PebblesState, event: Taken) -> PebblesState:
    pile = state.pile - event.count
    return replace(state, pile=pile, seat=1 - event.seat, last=event.seat if pile == 0 else None)


def chance_needed(state: PebblesState) -> None:
    return None  # no dice: the pile is all there is


def chance_event(state: PebblesState, draws: tuple[int, ...], typed: bool) -> object:
    raise IllegalCommand("Pebbles has no dice")


def chance_draws(event: object) -> tuple[int, ...]:
    return ()


def outcome(state: PebblesState) -> Outcome | None:
    if state.last is None:
        return None
    return Outcome(winners=(state.last,), summary=f"{state.players[state.last].name} took the last pebble")


def result(state: PebblesState, seat: int) -> Result | None:
    """The winner's result: the pile it was won from (a longer game is the better win)."""
    if state.last != seat:
        return None
    return MEASURE.result(state.start, f"took the last of {state.start}", won=True)


def describe(state: PebblesState, event: Taken, reveal: bool = True) -> str:
    return f"{state.players[event.seat].name} takes {event.count}: {state.pile - event.count} left"


def progress(state: PebblesState) -> str:
    return f"{state.pile} left"
