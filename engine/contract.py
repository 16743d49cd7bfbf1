"""The written contract of a game module: every name the session, the codec, saves, replays, the
analysers and the screens ask of a game (engine/games/ID.py, or a package engine/games/ID/ whose
__init__ gathers them), and the optional hooks a game may add.

`GameModule` is a `typing.Protocol` that a module satisfies by having the names (a module is not a
class: the check is structural, `isinstance(module, GameModule)`, and `missing(module)` says what
is absent). tests/test_contract.py checks every game of the catalogue against it, names and
parameters both. The facts about a game that other layers need but that are not rules (its seats,
its sim options, what the replay viewer hides, how its analysis marks read) are its catalogue
entry in engine/games/__init__.py, not names here: the catalogue is read without importing a game.

`Bot` is the one call shape of every game's bots, styles and levels: `bot(state, seed, nonce)` gives
the command of the seat to act. A game's bots are named in its catalogue entry (`bots`: the module
of engine/bots/ whose `BOTS` maps each name to a Bot) and reached only through it.
"""
from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from dicehall.engine.core import ChanceNeeded, Outcome, Player, Result


@runtime_checkable
class GameModule(Protocol):
    """What every game module has. The state and the events are the game's own frozen dataclasses;
    commands are small values that print as words (`parse_command(str(command)) == command`)."""

    ID: str  # the game's id, as the catalogue, the command line and the save files name it ("towers")
    TITLE: str  # its name for people ("Towers")
    BLURB: str  # the launcher's one line about it
    RULES_VERSION: int  # bumped when the rules change what a log means; newer files are refused
    RULES_TEXT: str  # the rules as dicehall plays them (`dicehall rules ID`, the rules screen), lines <= 74
    EVENTS: dict[str, type]  # every event class by name: the codec decodes saves and replays with it

    # setting up
    def check_options(self, options: dict) -> dict:
        """The options with defaults filled in; OptionError (a ValueError) naming a bad one."""

    def check_players(self, players: tuple[Player, ...]) -> tuple[Player, ...]:
        """The players cleaned and named; OptionError for a wrong count or a bot style it lacks."""

    def initial_state(self, options: dict, players: tuple[Player, ...]) -> Any:
        """The state before the first event (options and players already checked)."""

    # the fold
    def to_act(self, state: Any) -> int | None:
        """The seat whose command the state waits for (None: chance or nobody)."""

    def legal_commands(self, state: Any) -> Sequence[object]:
        """Every command allowed now, in a fixed order (bots and random playouts pick from it)."""

    def parse_command(self, text: str) -> object:
        """The command a player typed; IllegalCommand if it is not one."""

    def decide(self, state: Any, command: object) -> Sequence[object]:
        """The events a command makes; IllegalCommand, with the reason, if it is not allowed now."""

    def evolve(self, state: Any, event: object) -> Any:
        """The next state: pure, no chance, no clock, no I/O."""

    # chance, recorded as outcomes
    def chance_needed(self, state: Any) -> ChanceNeeded | None:
        """The draws the state waits for, if any (the session draws them)."""

    def chance_event(self, state: Any, draws: tuple[int, ...], typed: bool) -> object:
        """The event that records those draws (`typed`: a player typed physical dice)."""

    def chance_draws(self, event: object) -> tuple[int, ...]:
        """The draws a chance event recorded (the inverse of chance_event)."""

    # reading
    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def result(self, state: Any, seat: int) -> Result | None:
        """How the finished game went for `seat` in the game's own measure (its catalogue entry's
        `measure.result(...)`): the
        one way a game's result is told, to the hall's scores, the statistics and the analysis. None
        before the end, and in a game of several seats for a seat that did not win (so a draw has
        none); a game for one has a result won or lost."""

    def describe(self, state: Any, event: object, reveal: bool = True) -> str:
        """One event in words, for the log and the viewer (`reveal`: show what the player could not see)."""

    def progress(self, state: Any) -> str:
        """A short line of where the game stands (save lists, the hall's lobby)."""


@runtime_checkable
class Bot(Protocol):
    """A bot: the command for the seat to act in `state`, as a person would play it (through the
    game's legal commands). `seed` (the game's seed; None for a game without one) and `nonce` (a
    count that differs at each of the game's decisions: the screens pass the number of events so
    far) decide its random choices, so the same game replays with the same moves. A bot with no
    random choices ignores both."""

    def __call__(self, state: Any, seed: int | None, nonce: int) -> object:
        ...


BOT_PARAMETERS = ("state", "seed", "nonce")


def bot_faults(bots: Mapping[str, object]) -> list[str]:
    """What a game's named bots lack or take wrongly, in words (empty: each keeps the Bot shape)."""
    faults = []
    for name, bot in bots.items():
        if not callable(bot):
            faults.append(f"bot {name!r} is not a function")
        elif len(inspect.signature(bot).parameters) != len(BOT_PARAMETERS):
            taken = ", ".join(inspect.signature(bot).parameters) or "nothing"
            faults.append(f"bot {name!r} takes {taken}; a bot is called with {', '.join(BOT_PARAMETERS)}")
    return faults


# The optional hooks: a game that has one is asked for it by name (getattr); one that has none gets
# the default behaviour described. Each is checked for its parameters when present.
OPTIONAL_HOOKS: dict[str, tuple[str, ...]] = {
    # the command that made a decision's first event, so loading a log need not try every legal
    # command (engine/session.py; without it: every legal command is tried)
    "command_of": ("event",),
    # the draws a chance event used, when they depend on the state and not only on the event
    # (engine/session.py; without it: chance_draws(event))
    "recorded_draws": ("state", "event"),
    # whether an event starts a player's turn: the viewer's turn steps (without it: every decision)
    "is_turn_start": ("event",),
    # the game's name with its options, for save lists ("Angry Troll ... (sturdy)"); without it: TITLE
    "game_label": ("options",),
    # each seat's figure at the end, as every player sees it, where the game is won on such figures
    # (Towers' points, War of Bones' troops left, the wager's scores): the news says "17 to 6";
    # None before the end or when the figures did not decide it (without it: the result's words)
    "final_score": ("state",),
    # the game as a Markdown document (`dicehall export SAVE --markdown`: the journal's pages);
    # without it, --markdown is refused in one line
    "markdown": ("session",),
}

# The optional constants: what hosting a game offers, read by the hall's new-game screen (without
# them: no bot seats, seats named "Seat N", no choices).
OPTIONAL_CONSTANTS: dict[str, str] = {
    "BOT_STYLES": "the styles a bot seat may play, the first the default (check_players takes them)",
    "SEAT_NAMES": "each seat's name in the game (Towers' colours)",
    # (option key, label, values, words for each value); the first value is the game's default. A
    # key "variant" names the option to set true ("none": no variant), as --option does
    "HOST_CHOICES": "the options offered when a game is set up, each as (key, label, values, words)",
}

# The required functions' parameters, by name: what the callers pass.
REQUIRED_PARAMETERS: dict[str, tuple[str, ...]] = {
    name: tuple(p for p in inspect.signature(member).parameters if p != "self")
    for name, member in vars(GameModule).items()
    if inspect.isfunction(member) and not name.startswith("_")
}
REQUIRED_NAMES = tuple(GameModule.__annotations__) + tuple(REQUIRED_PARAMETERS)


def missing(module: ModuleType) -> list[str]:
    """What a game module lacks or has wrongly, in words (empty: it keeps the contract)."""
    faults = [f"no {name}" for name in REQUIRED_NAMES if not hasattr(module, name)]
    for name, wanted in list(REQUIRED_PARAMETERS.items()) + list(OPTIONAL_HOOKS.items()):
        function = getattr(module, name, None)
        if function is None:
            continue
        if not callable(function):
            faults.append(f"{name} is not a function")
            continue
        taken = tuple(inspect.signature(function).parameters)
        if len(taken) != len(wanted):
            faults.append(f"{name} takes {', '.join(taken) or 'nothing'}; the contract passes {', '.join(wanted)}")
    for name in OPTIONAL_CONSTANTS:
        value = getattr(module, name, ())
        if not isinstance(value, tuple):
            faults.append(f"{name} is not a tuple")
        elif name == "HOST_CHOICES" and not all(len(c) == 4 and len(c[2]) == len(c[3]) for c in value):
            faults.append("HOST_CHOICES: each is (key, label, values, words), a word for every value")
    return faults
