"""The troll's adviser: searches every legal pair of actions this turn and judges where each leaves
the bridge after the flight phase. Used by the `h` hint and by `dicehall sim troll`.

The judgement (WEIGHTS) looks one awakening phase ahead: the chance that the next awakenings fly the
troll away (its card hit while awake, from the cards to be played, the die's six faces and the
search toward the nearer bank), the chance that they open a gap the bridge cannot lose, the awake
cards the troll cannot reach next turn (they will flee; worse at the ends of the bridge and on
single-card positions the bridge needs), and the bridge itself: occupied positions, positions whose
loss would collapse it, awake cards on top and covered, cards set aside, tools in hand.

It sees what a player sees: the bridge, the flight stacks, the set-aside cards, the deck's size.
It never looks at face-down cards or the deck order: an unseen card's colour is judged from the
cards seen so far.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter, itemgetter

from dicehall.engine.games import troll
from dicehall.engine.games.troll import COLUMNS, ROWS, TrollState
from dicehall.engine.session import replace

WIN = 1_000_000.0
_RED = frozenset(code for code in troll.FULL_DECK if troll.colour_of(code) == "red")  # red_odds counts them in C


@dataclass(frozen=True)
class Plan:
    commands: tuple
    score: float
    reason: str


def _fold(state: TrollState, events) -> TrollState:
    for event in events:
        state = troll.evolve(state, event)
    return state


def red_odds(state: TrollState) -> float:
    """The chance that an unseen card is red, from the cards a player has seen face up: the flight
    stacks, the set-aside cards, the troll's awake cards and the awake cards on the bridge."""
    flights, flights_red = _seen_in_flight(state)
    seen = {*state.set_aside, *[c.code for c in state.carried],
            *[card.code for row in (state.upper, state.lower) for stack in row for card in stack if card.awake]}
    seen -= flights  # the rest of the seen cards: together, each once
    unseen = 52 - len(flights) - len(seen)
    if unseen <= 0:
        return 0.5
    return (26 - flights_red - len(seen & _RED)) / unseen


def _seen_in_flight(state: TrollState) -> tuple[frozenset, int]:
    """The cards on the flight stacks and those held at the start, and how many are red: the last
    answer kept for the same stacks (every pair of a turn leaves them as they were)."""
    global _last_flights
    upper, lower, held, cards, red = _last_flights
    if state.upper_flight is upper and state.lower_flight is lower and state.held_at_start is held:
        return cards, red
    cards = frozenset([*state.upper_flight.cards, *state.lower_flight.cards, *state.held_at_start])
    red = len(cards & _RED)
    _last_flights = (state.upper_flight, state.lower_flight, state.held_at_start, cards, red)  # set at once (threads)
    return cards, red


_last_flights: tuple = (None, None, None, frozenset(), 0)


def awakenings_ahead(state: TrollState, from_deck: bool) -> list[tuple[float, float]]:
    """The next awakening phase as (chance it calls the upper row, chance it calls the lower row) per
    card. Set-aside cards are known; a card from the deck is not: only the colours' odds are."""
    queue = state.awakening + state.set_aside
    if from_deck or (not queue and state.deck):
        red = red_odds(state)
        lower = red if state.lower_colour == "red" else 1 - red
        return [(1 - lower, lower)]
    return [((0.0, 1.0) if troll.row_of(state, code) == "lower" else (1.0, 0.0)) for code in queue]


def hit_chance(state: TrollState, pos) -> tuple[float, float]:
    """The chance that one awakening in pos's row lands on pos (the die's faces, the search toward the
    nearer bank for an empty position), for the upper and for the lower row."""
    row, col = pos
    hits = troll.row_targets(state, row).count(col) / 6
    return (hits, 0.0) if row == "upper" else (0.0, hits)


def flight_risk(state: TrollState, from_deck: bool, ahead: list[tuple[float, float]] | None = None) -> float:
    """The chance that the next awakening phase makes the troll fly away: its card is hit while awake
    (already awake, or woken by an earlier card of the same phase). ahead: awakenings_ahead's answer,
    if the caller has it already."""
    if state.troll is None or not state.stack(state.troll):
        return 0.0
    upper_hit, lower_hit = hit_chance(state, state.troll)
    under = state.top(state.troll)
    assert under is not None  # it stands on a brick (above)
    awake = 1.0 if under.awake else 0.0
    lost = 0.0
    for upper, lower in awakenings_ahead(state, from_deck) if ahead is None else ahead:
        q = upper * upper_hit + lower * lower_hit
        lost += awake * q
        awake = awake * (1 - q) + (1 - awake - lost) * q
    return lost


def _reach(state: TrollState) -> set | frozenset:
    """The positions whose awake top card the troll could calm next turn: its own and the ones next
    to it (move there and stomp), two steps away too when it carries a club or a spade (step, then
    use), and any in line when it carries a diamond."""
    troll_at = state.troll
    assert troll_at is not None  # the troll stands on the bridge while it acts
    tools = {c.code[-1] for c in state.carried if c.awake} if state.carried else None
    if not tools:
        return _NEAR[troll_at]
    near = set(_NEAR[troll_at])
    if tools & {"C", "S"}:
        for pos in list(near):
            if state.stack(pos):
                near |= _AROUND[pos]
    if "D" in tools:
        near |= _IN_LINE[troll_at]
    return near


# each position's neighbours, and the positions in line with it: _reach's geometry, computed once
_AROUND: dict[troll.Pos, set[troll.Pos]] = {
    (row, col): {p for p in (troll.neighbour((row, col), d) for d in troll.DIRECTIONS) if p is not None}
    for row in ROWS for col in COLUMNS}
_IN_LINE = {pos: {p for d in troll.DIRECTIONS for p in troll.line(pos, d)} for pos in _AROUND}
_NEAR = {pos: frozenset({pos} | around) for pos, around in _AROUND.items()}
_POSITIONS = tuple((row, col) for row in ROWS for col in COLUMNS)  # upper then lower
_ROW_POSITIONS = {row: (None,) + tuple((row, col) for col in COLUMNS) for row in ROWS}  # by column, 1 to 6


def features(state: TrollState, from_deck: bool = True) -> dict[str, float]:
    values = _feature_values(state, from_deck)
    assert values is not None  # no floor: every value
    return dict(zip(FEATURES, values))


def _feature_values(state: TrollState, from_deck: bool, floor: float | None = None) -> tuple | None:
    """features' values in FEATURES' order (evaluate sums them without making the dict); None, when
    a floor is given, if the bridge's own features already score below it (_below)."""
    cells = troll.occupied(state)
    awake_top = awake_covered = far = fleeing = breaking = 0
    troll_at = state.troll
    reach = _reach(state) if troll_at else set()
    cut = _cut_positions(state, cells) if cells else set()
    for pos, stack in zip(_POSITIONS, state.upper + state.lower):  # the hot loop: rows read directly
        if not stack:
            continue
        top_awake = stack[-1].awake
        if len(stack) > 1:
            awake_covered += sum(map(_AWAKE, stack)) - top_awake
        if not top_awake:
            continue
        awake_top += 1
        if pos in reach:  # (the troll's own position among them)
            continue
        far += 1  # it will flee in the next flight phase unless an awakening flies it first
        fleeing += pos[1] in (1, 6)  # at the end of the bridge: it leaves the bridge and wakes another
        breaking += len(stack) == 1 and pos in cut  # its flight leaves a gap that splits the bridge
    aside = len(state.set_aside) + len(state.awakening) - (1 if from_deck and state.awakening else 0)
    tools = sum(map(_AWAKE, state.carried))
    if floor is not None and _below(floor, len(cells), len(cut), awake_top, awake_covered, aside, tools, far, fleeing,
                                    breaking):
        return None
    exposed = 0.0  # the chance that the next awakenings open a gap that splits the bridge
    chances = awakenings_ahead(state, from_deck) if cut or troll_at else []
    if cut:
        for row_index, row in enumerate(ROWS):
            calls = sum([chance[row_index] for chance in chances])
            if not calls:
                continue
            positions = _ROW_POSITIONS[row]
            for col in troll.row_targets(state, row):
                target = positions[col]  # (row, col); None for col 0, which is in no cut
                if target in cut and target != troll_at:
                    assert target is not None
                    top = state.top(target)
                    assert top is not None  # the column an awakening lands on has a card
                    if top.awake or target not in reach:
                        exposed += calls / 6
    return (exposed, len(cells), len(cut), awake_top, awake_covered, aside,
            flight_risk(state, from_deck, chances if troll_at else None), tools, far, fleeing, breaking)


def _below(floor: float, occupied, weak, awake, covered, aside, tools, far, fleeing, breaking) -> bool:
    """Whether a score is surely below `floor` from the bridge's own features alone: the chances left
    to weigh (exposed, danger) only take away (their weights are negative, their values chances),
    and a margin far above any rounding of the sum keeps a score equal to the floor."""
    bound = (_W["occupied"] * occupied + _W["weak"] * weak + _W["awake"] * awake + _W["covered"] * covered
             + _W["aside"] * aside + _W["tools"] * tools + _W["far"] * far + _W["fleeing"] * fleeing
             + _W["breaking"] * breaking)
    return bound < floor - 1e-6


FEATURES = ("exposed", "occupied", "weak", "awake", "covered", "aside", "danger", "tools", "far", "fleeing", "breaking")


_AWAKE = attrgetter("awake")


def _cut_positions(state: TrollState, cells: frozenset) -> set:
    """The single-card positions the bridge could not lose without collapsing."""
    upper, lower = state.upper, state.lower  # state.stack(pos), inlined (every judgement asks)
    return {pos for pos in bridge_holders(cells) if len((upper if pos[0] == "upper" else lower)[pos[1] - 1]) == 1}


_LEFT_BANK, _RIGHT_BANK = ("bank", 0), ("bank", 7)


def bridge_holders(cells: set | frozenset) -> frozenset:
    """The occupied positions whose loss would leave no path of occupied positions from a position 1
    to a position 6 (every one of them when there is no such path already).

    One depth-first search finds them all: with the banks as two extra nodes (each joined to its
    column), a position holds the bridge up exactly when it separates the left bank from the right
    one, that is, when it is a cut vertex whose subtree below it holds the right bank and has no
    edge back above it (Hopcroft and Tarjan's low points).

    Remembered per set of occupied positions (at most 4,096 of them): playouts ask this for every
    pair of actions they judge, and it was a third of a playout's time."""
    return _bridge_holders(frozenset(cells))


@lru_cache(maxsize=None)
def _bridge_holders(cells: frozenset) -> frozenset:
    def around(pos):
        if pos[0] == "bank":
            return [p for p in cells if p[1] == (1 if pos == _LEFT_BANK else 6)]
        out = [p for p in (troll.neighbour(pos, d) for d in troll.DIRECTIONS) if p in cells]
        if pos[1] in (1, 6):
            out.append(_LEFT_BANK if pos[1] == 1 else _RIGHT_BANK)
        return out

    order: dict = {_LEFT_BANK: 0}
    low: dict = {_LEFT_BANK: 0}
    reaches_right: dict = {}
    holders = set()
    stack = [(_LEFT_BANK, iter(around(_LEFT_BANK)))]
    while stack:
        pos, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            reaches_right[pos] = reaches_right.get(pos, False) or pos == _RIGHT_BANK
            if stack:
                parent = stack[-1][0]
                low[parent] = min(low[parent], low[pos])
                if reaches_right[pos]:
                    reaches_right[parent] = True
                    if parent != _LEFT_BANK and low[pos] >= order[parent]:
                        holders.add(parent)
        elif child in order:
            low[pos] = min(low[pos], order[child])
        else:
            order[child] = low[child] = len(order)
            stack.append((child, iter(around(child))))
    if _RIGHT_BANK not in order:
        return cells  # fallen already: every loss leaves it fallen
    return frozenset(holders)


WEIGHTS = {
    "occupied": 3.0, "weak": -4.0, "awake": -6.0, "covered": -20.0, "aside": -2.5, "tools": 2.0,
    "danger": -300.0,  # the chance that the troll flies away in the next awakening phase (the game is lost)
    "exposed": -60.0,  # the chance that the next awakening opens a gap that splits the bridge
    "far": -4.0,  # awake cards the troll cannot reach next turn: they will flee
    "fleeing": -4.0,  # ... from the end of the bridge: they leave it and wake another card
    "breaking": -30.0,  # ... from a single-card position the bridge cannot lose
}


_WEIGHTED = tuple(WEIGHTS[name] for name in FEATURES)  # in features' order: the same sum, step by step
_W = WEIGHTS
assert _W["exposed"] <= 0 and _W["danger"] <= 0  # what _below counts on


def evaluate(state: TrollState, from_deck: bool = True) -> float:
    score = _score_above(state, from_deck, None)
    assert score is not None  # no floor: always scored
    return score


def _score_above(state: TrollState, from_deck: bool, floor: float | None) -> float | None:
    """evaluate's score, or None when a floor is given and the score is surely below it."""
    if state.end in ("won", "perfect"):
        return WIN + (1000 if state.end == "perfect" else 0)
    if state.end:
        return -WIN - len(state.deck)  # losing later (fewer cards left) is better
    values = _feature_values(state, from_deck, floor)
    if values is None:
        return None
    score: float = 0  # sum()'s own steps, in a plain loop (its generator was a tenth of the judging)
    for weight, value in zip(_WEIGHTED, values):
        score += weight * value
    return score


def reason(before: TrollState, events: list, after: TrollState, losing_alternatives: bool) -> str:
    """A few words on why: what the chosen actions do, from their own events."""
    if after.end in ("won", "perfect"):
        return "this wins" + (" perfectly" if after.end == "perfect" else "")
    if after.end:
        return "every line loses; this one keeps the most cards"
    words = []
    for event in events:
        if isinstance(event, troll.CardStomped):
            words.append(f"stomps the {event.card}")
        elif isinstance(event, troll.ClubUsed):
            words.append(f"clubs the {event.card}")
        elif isinstance(event, troll.DiamondThrown) and event.card:
            words.append(f"hits the {event.card}")
        elif isinstance(event, troll.SpadeUsed):
            words.append(f"digs up the {event.card}")
        elif isinstance(event, troll.CardPickedUp):
            words.append(f"takes the {event.card} to use")
        elif isinstance(event, troll.CardLaidDown):
            words.append(f"fills {event.row} {event.col}")
    if losing_alternatives:
        words.append("other lines collapse the bridge")
    top = after.top(after.troll) if after.troll else None
    if not words:
        words.append("keeps the troll off awake cards" if not (top and top.awake) else "the least bad place to stand")
    fled = [code for event in events if isinstance(event, troll.FlightPhase)
            for code, _, _, to in event.moves if to in (troll.LEFT_BANK, troll.RIGHT_BANK)]
    if fled:
        words.append(f"{' '.join(fled)} flee{'s' if len(fled) == 1 else ''}")
    return ", ".join(words[:3])


def deck_plays_next(events) -> bool:
    """Whether the next awakening phase plays the deck's (unseen) top card."""
    for event in reversed(events):  # the last turn's start: at the end of the turn's events
        if isinstance(event, troll.TurnBegan):
            return event.from_deck
    return False


def scored_lines(state: TrollState, best_only: bool = False) -> list[tuple[float, tuple, tuple, TrollState]]:
    """Every legal sequence of the actions left this turn, in the order found, each as (score,
    commands, events, final state): the flight phase and checks played, the next turn begun.

    Two pairs that leave the bridge alike but for `stood` (the same moves in another order, a
    diamond thrown at nothing either way: two lines in five) have the same turn's end and score:
    found once, by that bridge (_end_key).

    best_only (best_line's): a line whose bridge alone scores below the best line found before it
    is left out, its chances not weighed (half the lines, a tenth of a playout): it could be neither
    the best nor the first of equals, so the best line is the same."""
    lines: list[tuple[float, tuple, tuple, TrollState]] = []
    ends: dict[tuple, tuple[float | None, tuple, TrollState]] = {}  # a score of None: left out (best_only)
    floor: list[float] = []  # best_only: the best score found so far

    def scored(final: TrollState, events) -> float | None:
        return _score_above(final, deck_plays_next(events), floor[0] if floor else None)

    def add(score: float | None, commands: tuple, events: tuple, final: TrollState) -> None:
        if score is not None:
            lines.append((score, commands, events, final))
            if best_only and (not floor or score > floor[0]):
                floor[:] = [score]

    for first_move in troll.legal_moves(state):
        first = first_move[0]
        first_events, after_first, seconds = troll.decided_on(state, first_move)
        if not after_first.actions_left or after_first.turn != state.turn or after_first.end:
            # one action: the turn has ended (and perhaps the next begun, with its own actions), or the game
            add(scored(after_first, first_events), (first,), first_events, after_first)
            continue
        for second_move in seconds or troll.legal_moves(after_first):  # the actions found possible
            second = second_move[0]
            second_events, done = troll.acted(after_first, second_move)
            if done.actions_left:  # not the turn's end (the rules give two actions: never)
                add(scored(done, second_events), (first, second), first_events + tuple(second_events), done)
                continue
            key = _end_key(done, state)
            end = ends.get(key)
            if end is None:
                ending, final = troll.turn_ended(done)
                end = ends[key] = (scored(final, ending), ending, final)
            score, ending, final = end
            if final.end:  # an ended game keeps the turn's `stood`: this pair's
                final = replace(final, stood=done.stood)
            add(score, (first, second), first_events + tuple(second_events) + ending, final)
    return lines


def _end_key(done: TrollState, start: TrollState) -> tuple:
    """What tells apart the states two actions leave from `start`, `stood` aside: the fields an
    action changes, each stack left as it was given as None (hashing whole states, their cards
    one by one, was a fifth of a playout). Equal keys are equal states: the other fields are
    `start`'s; an unchanged stack equal to a changed one only costs a second turn's end."""
    return (done.troll, done.carried, done.set_aside, _changed(done.upper, start.upper), _changed(done.lower, start.lower))


def _changed(stacks: tuple, before: tuple) -> tuple | None:
    if stacks is before:
        return None
    return tuple([None if stack is old else stack for stack, old in zip(stacks, before)])


_score = itemgetter(0)  # a line's score (max's key)


def best_line(state: TrollState) -> tuple[float, tuple, tuple, TrollState]:
    """best_turn's line as scored_lines gives it, with the state it leaves: what a playout needs
    (it plays on from that state rather than deciding the commands again, and needs no reason)."""
    return max(scored_lines(state, best_only=True), key=_score)  # the first of equals


def best_turn(state: TrollState) -> Plan:
    """The best one or two actions left this turn, by searching every legal sequence."""
    lines = scored_lines(state)
    assert lines, "best_turn needs a state where the troll acts"
    score, commands, events, final = max(lines, key=_score)  # the first of equals
    losing = score > -WIN / 2 and any(line[0] <= -WIN / 2 for line in lines)
    return Plan(commands, score, reason(state, list(events), final, losing))


def choose(state: TrollState) -> object:
    """The bot's next command: the first of its best plan."""
    return best_turn(state).commands[0]
