"""Setup: the seats and options, the roll-off, Reengage or First Strike, and the reengaging.

All 16 troops land first (landings.py); then the players roll off (ties roll again), the winner
chooses Reengage or First Strike, and the reengaging player picks troops to roll back in before
the First Strike player takes the first turn.
"""
from __future__ import annotations

from dicehall.engine.core import IllegalCommand, Player
from dicehall.engine.errors import OptionError
from dicehall.engine.games.bones.area import SIDES
from dicehall.engine.games.bones.commands import Choose, Reengage
from dicehall.engine.games.bones.events import OptionChosen, Reengaged, RolledOff
from dicehall.engine.games.bones.landings import roll_in
from dicehall.engine.games.bones.state import BonesState, troop_in_play
from dicehall.engine.session import replace
from dicehall.engine.text import clean_text

LEVELS = ("general", "random")  # the bot's styles (engine/bots/bones.py); the first is the default


def check_options(options: dict) -> dict:
    for key in options:
        if key != "no_premeasure":
            raise OptionError(f"unknown option {clean_text(key, 20)!r} (known: no_premeasure)")
    value = options.get("no_premeasure", False)
    if not isinstance(value, bool):
        raise OptionError("no_premeasure must be true or false")
    return {"no_premeasure": value}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) not in (0, 2):
        raise OptionError(f"War of Bones is for two players, not {len(players)}")
    players = players or (Player("Player A"), Player("Player B"))
    checked = []
    for seat, player in enumerate(players):
        name = clean_text(player.name) or f"Player {SIDES[seat]}"
        style = ""
        if player.bot:
            style = player.style or LEVELS[0]
            if style not in LEVELS:
                raise OptionError(f"{name}: the bot plays {', '.join(LEVELS)}, not {clean_text(style, 20)!r}")
        checked.append(Player(name, bool(player.bot), style))
    return tuple(checked)


def initial_state(options: dict, players: tuple[Player, ...]) -> BonesState:
    return BonesState(names=(players[0].name, players[1].name), no_premeasure=bool(options.get("no_premeasure")))


def reengage_choices(state: BonesState, seat: int) -> list[Reengage]:
    """A practical set: nothing; one of yours with none or one of theirs; and "all of yours at or
    below a face" with "that many or fewer of their strongest"."""
    own = state.in_play(seat)
    theirs = state.in_play(1 - seat)
    strongest = sorted(theirs, key=lambda t: (-state.troop(1 - seat, t).face, t))
    found = [Reengage((), ())]
    for mine in own:
        found.append(Reengage((mine,), ()))
        found.extend(Reengage((mine,), (other,)) for other in theirs)
    for face in range(1, 6):
        weak = tuple(t for t in own if state.troop(seat, t).face <= face)
        if len(weak) < 2:
            continue
        for count in range(len(weak) + 1):
            found.append(Reengage(weak, tuple(sorted(strongest[:count]))))
    return list(dict.fromkeys(found))  # each choice once, where it first came (a list's `in` was quadratic)


# ----- deciding -----
def choose(state: BonesState, seat: int, command: Choose) -> tuple[object, ...]:
    if state.stage != "choose":
        raise IllegalCommand("Reengage or First Strike is chosen once, by the roll-off winner")
    if command.option not in ("reengage", "first strike"):
        raise IllegalCommand("choose reengage or first strike")
    return (OptionChosen(seat, command.option == "reengage"),)


def reengage(state: BonesState, seat: int, command: Reengage) -> tuple[object, ...]:
    if state.stage != "reengage":
        raise IllegalCommand("Reengage happens once, in the setup")
    own, theirs = tuple(command.own), tuple(command.theirs)
    for group, owner in ((own, seat), (theirs, 1 - seat)):
        if len(set(group)) != len(group):
            raise IllegalCommand("pick each troop once")
        for troop in group:
            troop_in_play(state, owner, troop, "pick")
    if len(theirs) > len(own):
        raise IllegalCommand(f"pick at most as many of the opponent's troops as of your own ({len(own)})")
    return (Reengaged(seat, tuple(sorted(own)), tuple(sorted(theirs))),)


# ----- the fold -----
def rolled_off(state: BonesState, event: RolledOff) -> BonesState:
    state = replace(state, rolloffs=state.rolloffs + ((event.a, event.b),))
    if event.a == event.b:
        return state
    return replace(state, stage="choose", player=0 if event.a > event.b else 1)


def option_chosen(state: BonesState, event: OptionChosen) -> BonesState:
    reengager = event.seat if event.reengage else 1 - event.seat
    return replace(state, stage="reengage", player=reengager, first_strike=1 - reengager)


def reengaged(state: BonesState, event: Reengaged) -> BonesState:
    picks = tuple((event.seat, t) for t in event.own) + tuple((1 - event.seat, t) for t in event.theirs)
    return roll_in(state, picks, "play")
