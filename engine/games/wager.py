"""Dead Man's Wager (seed 001): a race to 20 with one die, a risky extra roll and two superstitions.

Rules as docs/rules/wager.md states them. A turn is one normal roll (two with the bonus), then the
player may wager one more roll: 1 or 2 score nothing, 3, 5 and 6 add their face, 4 subtracts 4
and hands the bonus to the next player still in. Every roll of a player, normal or wager, extends
that player's run of equal faces: a third six in a row is the Mark of the Beast (out at once), a
third three in a row is Outrageous Fortune (a win at once), then 20 or more wins.

`decide` turns Roll and Wager into a decision event that leaves the state waiting for one die;
the session draws it (seeded, scripted or typed) as a DieRolled chance event, and `evolve` of that
event applies the checks and, after a wager roll or a decisive roll, passes the turn itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.core import ChanceNeeded, IllegalCommand, Outcome, Player, Result
from dicehall.engine.games import entry_of
from dicehall.engine.errors import OptionError
from dicehall.engine.session import replace
from dicehall.engine.text import clean_text

ID = "wager"
TITLE = "Dead Man's Wager"
BLURB = "race to 20 with one die"
RULES_VERSION = 1
MEASURE = entry_of(ID).measure  # the catalogue's: what its results count, which way is better
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TARGET = 20
BEAST, FORTUNE = 6, 3  # the faces whose third in a row decides a player's game
STYLES = ("cautious", "bold", "best")  # the bot seats' styles (engine/bots/wager.py plays them)
BOT_STYLES = STYLES
HOST_CHOICES = (("play_on", "Ends", (False, True), ("at the first winner", "played on for places")),)

RULES_TEXT = """\
DEAD MAN'S WAGER - a race to 20 points with one die, for 2 to 6 players.

Players take turns in seating order (seat 1 starts). Scores start at 0 and
may go negative. The first player to reach 20 or more wins.

A turn:
- One normal roll: add the face to your score.
- The bonus: if the player before you lost a wager (see below), you make
  two normal rolls instead of one.
- After your normal roll(s) you may invoke the Dead Man's Wager: one more
  roll.
    1 or 2     scores nothing
    3, 5, 6    add the face
    4          subtract 4 (even below zero), and the next player still
               in the game gets the bonus
  Or end the turn without wagering. A turn has at most three rolls (two
  bonus rolls and a wager).

Streaks: every roll you make, normal or wager, counts toward your streaks,
across your turns. After each roll, in this order:
1. Your third six in a row is the MARK OF THE BEAST: you are out at once,
   even if the roll took you to 20.
2. Your third three in a row is OUTRAGEOUS FORTUNE: you win at once.
3. A score of 20 or more wins at once.
A player who is out is skipped, and the bonus passes over them to the
next player still in. When only one player is left in, that player wins
by default.

Play on for places (option play_on, off by default): after a win the
others play on, skipping every player whose place is decided, until every
place is decided. Players put out by the Mark of the Beast rank last, the
latest one out first.

Keys: r roll (your normal roll), w wager, e end the turn, h odds (your
chance of winning if you wager and if you stop, as the best bot computes
it).

dicehall's decisions (where the seed and the rulings are silent):
- Streaks are each player's own: only your own rolls extend or break your
  runs.
- A roll that wins or puts a player out ends that player's turn at once:
  a bonus roll still due is not made and no wager follows.
- The bonus from a lost wager goes to the next player still in the game
  (not out and, when playing on, not already placed). It is lost if the
  game ends first.
- A player with the bonus may wager too; a 4 on that wager passes the
  bonus on again.
- When playing on, the player left last among those still in takes the
  next place by default, at once.
- A round ends when play passes back to an earlier seat; the scoresheet
  has one row per round: the normal roll(s), then the wager as
  W<face>:<points> (! marks a 4 that gave the bonus away).
- The odds (h): exact for two players still in (computed over every score
  from -30 to 19; a score below -30 counts as -30, which changes the
  figures by far less than 0.1%); sampled for three or more, so they are
  estimates within a few percent.
"""


# ----- commands -----
@dataclass(frozen=True)
class Roll:
    """A normal roll: the first roll of a turn, or the second with the bonus."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Wager:
    """The Dead Man's Wager: one more roll after the normal roll(s)."""

    def __str__(self) -> str:
        return "wager"


@dataclass(frozen=True)
class EndTurn:
    """End the turn without wagering."""

    def __str__(self) -> str:
        return "end turn"


COMMANDS = (Roll, Wager, EndTurn)


def parse_command(text: str) -> object:
    """A command from its printed form or its key (roll/r, wager/w, end turn/end/e)."""
    words = " ".join(str(text).lower().split())
    if words in ("roll", "r"):
        return Roll()
    if words in ("wager", "w"):
        return Wager()
    if words in ("end turn", "end", "e"):
        return EndTurn()
    raise IllegalCommand(f"not a Dead Man's Wager command: {clean_text(text, 30)!r} (roll, wager, end turn)")


# ----- events -----
@dataclass(frozen=True)
class RollCalled:
    """Decision: `seat` makes normal roll `number` of this turn (2 only with the bonus)."""

    seat: int
    number: int


@dataclass(frozen=True)
class WagerCalled:
    """Decision: `seat` invokes the Dead Man's Wager."""

    seat: int


@dataclass(frozen=True)
class TurnEnded:
    """Decision: `seat` ends the turn without wagering."""

    seat: int


@dataclass(frozen=True)
class DieRolled:
    """Chance: the die of `seat`'s normal roll (wager=False) or wager roll (wager=True)."""

    seat: int
    face: int
    wager: bool
    typed: bool = False


EVENTS = {cls.__name__: cls for cls in (RollCalled, WagerCalled, TurnEnded, DieRolled)}
CHANCE_EVENTS = (DieRolled,)


# ----- state -----
@dataclass(frozen=True)
class WagerState:
    names: tuple[str, ...]
    play_on: bool
    scores: tuple[int, ...]
    out: tuple[bool, ...]  # put out by the Mark of the Beast
    runs: tuple[tuple[int, int], ...]  # per seat: (face, length) of the current run of equal faces
    seat: int = 0  # whose turn it is
    normal_left: int = 1  # normal rolls still to make this turn
    can_wager: bool = False  # the normal rolls are made: wager or end the turn
    bonus: bool = False  # the seat to act had the bonus this turn
    rolling: str = ""  # "normal" or "wager" while a roll waits for its die
    round: int = 1
    places: tuple[int, ...] = ()  # winners in order; the eliminated join at the end of the game
    ways: tuple[str, ...] = ()  # how each winner in `places` won: "score", "fortune" or "default"
    eliminated: tuple[int, ...] = ()  # in the order they went out
    over: bool = False

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still playing: not out and not yet placed."""
        placed = set(self.places)
        return tuple(s for s in range(len(self.names)) if not self.out[s] and s not in placed)


def check_options(options: dict) -> dict:
    for key in options:
        if key != "play_on":
            raise OptionError(f"unknown option {clean_text(key, 20)!r} (known: play_on)")
    play_on = options.get("play_on", False)
    if not isinstance(play_on, bool):
        raise OptionError("play_on must be true or false")
    return {"play_on": play_on}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise OptionError(f"Dead Man's Wager is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    checked = []
    for number, player in enumerate(players, start=1):
        name = clean_text(player.name) or f"Player {number}"
        if player.bot:
            style = player.style or "best"
            if style not in STYLES:
                raise OptionError(f"{name}: a bot plays {', '.join(STYLES)}, not {clean_text(style, 20)!r}")
        else:
            style = ""  # a person has no bot style
        checked.append(Player(name, bool(player.bot), style))
    return tuple(checked)


def initial_state(options: dict, players: tuple[Player, ...]) -> WagerState:
    count = len(players)
    return WagerState(
        names=tuple(p.name for p in players),
        play_on=bool(options.get("play_on", False)),
        scores=(0,) * count,
        out=(False,) * count,
        runs=((0, 0),) * count,
    )


def to_act(state: WagerState) -> int | None:
    return None if state.over or state.rolling else state.seat


def legal_commands(state: WagerState) -> list[object]:
    if to_act(state) is None:
        return []
    return [Roll()] if state.normal_left else [Wager(), EndTurn()]


def decide(state: WagerState, command: object) -> tuple[object, ...]:
    if state.over:
        raise IllegalCommand("the game is over")
    if state.rolling:
        raise IllegalCommand("the die of this roll is still to be rolled")
    if isinstance(command, Roll):
        if not state.normal_left:
            rolls = "both normal rolls" if state.bonus else "your normal roll"
            raise IllegalCommand(f"you have made {rolls}: wager or end the turn")
        number = (2 if state.bonus else 1) - state.normal_left + 1
        return (RollCalled(state.seat, number),)
    if isinstance(command, (Wager, EndTurn)):
        if state.normal_left:
            if state.bonus and state.normal_left == 1:
                raise IllegalCommand("you have one more roll (the bonus) before you can "
                                     + ("wager" if isinstance(command, Wager) else "end the turn"))
            if state.bonus:
                raise IllegalCommand("you have two normal rolls to make (the bonus): roll first")
            raise IllegalCommand("a turn begins with a normal roll: roll first")
        return (WagerCalled(state.seat),) if isinstance(command, Wager) else (TurnEnded(state.seat),)
    raise IllegalCommand("Dead Man's Wager knows three commands: roll, wager and end turn")


def chance_needed(state: WagerState) -> ChanceNeeded | None:
    if state.over or not state.rolling:
        return None
    what = "wager roll" if state.rolling == "wager" else "normal roll"
    return ChanceNeeded(spec=(6,), prompt=f"the die of {state.names[state.seat]}'s {what}", dice=True)


def chance_event(state: WagerState, draws: tuple[int, ...], typed: bool) -> DieRolled:
    return DieRolled(seat=state.seat, face=draws[0] + 1, wager=state.rolling == "wager", typed=typed)


def chance_draws(event: DieRolled) -> tuple[int, ...]:
    return (event.face - 1,)


# ----- the rules of one roll -----
def points(face: int, wager: bool) -> int:
    """What a roll adds to the score: the face; on a wager 1 and 2 score 0 and 4 costs 4."""
    if not wager:
        return face
    return {1: 0, 2: 0, 4: -4}.get(face, face)


def extend_run(run: tuple[int, int], face: int) -> tuple[int, int]:
    return (face, run[1] + 1) if run[0] == face else (face, 1)


def verdict(run: tuple[int, int], score: int) -> str:
    """What a roll that left this run and score decides, checked in the rulings' order:
    "beast", "fortune", "score" (20 or more) or "" (play goes on)."""
    if run == (BEAST, 3):
        return "beast"
    if run == (FORTUNE, 3):
        return "fortune"
    if score >= TARGET:
        return "score"
    return ""


def judge(state: WagerState, event: DieRolled) -> tuple[int, tuple[int, int], str]:
    """The new score, run and verdict of the roll `event` in `state`."""
    seat = event.seat
    run = extend_run(state.runs[seat], event.face)
    score = state.scores[seat] + points(event.face, event.wager)
    return score, run, verdict(run, score)


def next_in_play(state: WagerState, after: int) -> int | None:
    """The next seat after `after` (in seating order, wrapping) that is still playing."""
    count = len(state.names)
    playing = set(state.in_play)
    for step in range(1, count + 1):
        seat = (after + step) % count
        if seat in playing:
            return seat
    return None


def pass_turn(state: WagerState, bonus: bool) -> WagerState:
    """The next player still in begins a turn (with the bonus if a wager was just lost)."""
    seat = next_in_play(state, state.seat)
    if seat is None:  # nobody left: cannot happen while the game is on, kept for safety
        return replace(state, over=True, rolling="", can_wager=False, normal_left=0)
    new_round = state.round + (1 if seat <= state.seat else 0)  # back to an earlier seat: a new round
    return replace(state, seat=seat, round=new_round, bonus=bonus, normal_left=2 if bonus else 1,
                   can_wager=False, rolling="")


def settle(state: WagerState) -> WagerState:
    """After a win or an elimination: a default win for a lone survivor, and the end of the game."""
    playing = state.in_play
    if len(playing) == 1 and (state.play_on or not state.places):
        state = replace(state, places=state.places + playing, ways=state.ways + ("default",))
        playing = ()
    if not playing or (state.places and not state.play_on):
        # eliminated players rank last, the latest one out first
        return replace(state, over=True, rolling="", can_wager=False, normal_left=0,
                       places=state.places + tuple(reversed(state.eliminated)))
    return state


def evolve(state: WagerState, event: object) -> WagerState:
    if isinstance(event, RollCalled):
        return replace(state, rolling="normal")
    if isinstance(event, WagerCalled):
        return replace(state, rolling="wager", can_wager=False)
    if isinstance(event, TurnEnded):
        return pass_turn(replace(state, can_wager=False), bonus=False)
    if isinstance(event, DieRolled):
        seat = event.seat
        score, run, decided = judge(state, event)
        state = replace(
            state,
            scores=state.scores[:seat] + (score,) + state.scores[seat + 1:],
            runs=state.runs[:seat] + (run,) + state.runs[seat + 1:],
            rolling="",
        )
        if decided == "beast":
            state = replace(state, out=state.out[:seat] + (True,) + state.out[seat + 1:],
                            eliminated=state.eliminated + (seat,))
        elif decided:
            state = replace(state, places=state.places + (seat,), ways=state.ways + (decided,))
        if decided:
            state = settle(state)
            return state if state.over else pass_turn(state, bonus=False)
        if event.wager:  # the wager is the last roll of a turn
            return pass_turn(state, bonus=event.face == 4)
        left = state.normal_left - 1
        return replace(state, normal_left=left, can_wager=left == 0)
    raise TypeError(f"not a Dead Man's Wager event: {event!r}")


# ----- reading the game -----
def outcome(state: WagerState) -> Outcome | None:
    if not state.over:
        return None
    first = state.places[0]
    name = state.names[first]
    way = state.ways[0]
    if way == "fortune":
        summary = f"{name} wins by Outrageous Fortune"
    elif way == "default":
        summary = f"{name} wins by default"
    else:
        summary = f"{name} wins with {state.scores[first]}"
    if state.play_on and len(state.names) > 2:
        summary += "; places: " + ", ".join(state.names[s] for s in state.places)
    return Outcome(winners=(first,), summary=summary)


def result(state: WagerState, seat: int) -> Result | None:
    """The total the winner won with (the contract's result); None for the others."""
    if not (state.over and state.places[:1] == (seat,)):
        return None
    return MEASURE.result(state.scores[seat], f"won with {state.scores[seat]}", won=True)


def final_score(state: WagerState) -> tuple[int, ...] | None:
    """Each seat's score, when the winner won on it (not by Outrageous Fortune nor by default)."""
    if not state.over or state.ways[:1] != ("score",):
        return None
    return tuple(state.scores)


def describe(state: WagerState, event: object, reveal: bool = True) -> str:
    if isinstance(event, RollCalled):
        name = state.names[event.seat]
        if event.number == 2:
            return f"{name} makes the second normal roll (the bonus)"
        bonus = ", with the bonus: two normal rolls" if state.bonus else ""
        return f"round {state.round}, {name}'s turn{bonus}"
    if isinstance(event, WagerCalled):
        return f"{state.names[event.seat]} invokes the Dead Man's Wager"
    if isinstance(event, TurnEnded):
        after = pass_turn(state, bonus=False)
        return f"{state.names[event.seat]} ends the turn at {state.scores[event.seat]}; {state.names[after.seat]} is next"
    if isinstance(event, DieRolled):
        return _roll_words(state, event)
    return str(event)


def _roll_words(state: WagerState, event: DieRolled) -> str:
    name = state.names[event.seat]
    before = state.scores[event.seat]
    score, run, decided = judge(state, event)
    typed = " (typed)" if event.typed else ""
    what = f"{name}'s wager rolls" if event.wager else f"{name} rolls"
    text = f"{what} {event.face}{typed}: "
    if event.wager and event.face in (1, 2):
        text += f"nothing, stays {before}"
    else:
        text += f"{before} -> {score}"
    if decided == "beast":
        return text + f"; the third six in a row is the Mark of the Beast: {name} is out" + _aftermath(state, event)
    if decided == "fortune":
        return text + f"; the third three in a row is Outrageous Fortune: {name} wins" + _aftermath(state, event)
    if decided == "score":
        if state.places:  # playing on for places: a later place, not a win
            return text + f"; {name} takes place {len(state.places) + 1} with {score}" + _aftermath(state, event)
        return text + f"; {name} wins with {score}" + _aftermath(state, event)
    if event.wager and event.face == 4:
        after = evolve(state, event)
        text += f"; {after.names[after.seat]} gets the bonus"
    elif run[0] in (BEAST, FORTUNE) and run[1] == 2:
        text += f" ({run[0]} {run[0]} in a row)"
    return text


def _aftermath(state: WagerState, event: DieRolled) -> str:
    """Who takes a place by default once a decisive roll leaves one player still in."""
    after = evolve(state, event)
    text = ""
    for index in range(len(state.places), len(after.ways)):
        if after.ways[index] == "default":
            name = after.names[after.places[index]]
            text += f"; {name} wins by default" if index == 0 else f"; {name} takes place {index + 1} by default"
    return text


def progress(state: WagerState) -> str:
    result = outcome(state)
    if result is not None:
        return result.summary
    scores = ", ".join(f"{name} {'out' if state.out[s] else state.scores[s]}" for s, name in enumerate(state.names))
    return f"round {state.round}: {scores}"


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: the first normal roll of every turn."""
    return isinstance(event, RollCalled) and event.number == 1


def scoresheet(states, events) -> list[list[str]]:
    """The game as a scoresheet, like the seed's: one row per round, one cell per seat.

    A cell is the normal roll(s) ("3" or "3,1"), then the wager as W<face>:<points> ("W2:0",
    "W5:+5", "W4:-4!" where ! marks the bonus given away), then " OUT" after the roll that was
    the Mark of the Beast or " FORTUNE" after Outrageous Fortune; "" where the seat did not play.
    `states[i]` is the state before `events[i]`."""
    rows: list[list[str]] = []
    for state, event in zip(states, events):
        if not isinstance(event, DieRolled):
            continue
        while len(rows) < state.round:
            rows.append([""] * len(state.names))
        row = rows[state.round - 1]
        _, _, decided = judge(state, event)
        if event.wager:
            gained = points(event.face, True)
            shown = "0" if gained == 0 else f"{gained:+d}" + ("!" if event.face == 4 else "")
            row[event.seat] += f" W{event.face}:{shown}"
        else:
            row[event.seat] += ("," if row[event.seat] else "") + str(event.face)
        if decided in ("beast", "fortune"):  # the roll stays on the sheet, with what it decided
            row[event.seat] += " OUT" if decided == "beast" else " FORTUNE"
    return rows
