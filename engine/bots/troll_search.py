"""The troll's deeper player: the adviser's best lines of this turn, each played on over sampled deals
and judged by the chance of winning it leaves. Used by `H` (the deeper hint) and by `dicehall sim
troll --bot search`.

Each sampled deal reshuffles the cards the player has not seen (the face-down cards on the bridge
and the deck) among the places they could be, then rolls the awakening dice; on it, each candidate
line is played, and the adviser plays TURNS_AHEAD turns after it; the chance of winning from where
that leaves the bridge (win_chance: a logistic curve over the adviser's features and the deck's
size, fitted to whole games by tests/perf/troll_win_chance.py; 1 or 0 when the game ended) is the
line's value on that deal. Every candidate is played on the same deals and dice (common random
numbers), so the differences between them are the lines' and not the luck's; the line with the
highest mean chance is played (on heights and variants the curve was not fitted to, only if it beats
the adviser's own line clearly). README, "The deeper player", has the measurements behind this.

No peeking: a deal is drawn from what the state shows (the awake cards, the flight stacks, the
set-aside cards, the troll's hands, how many cards are face down where, the deck's size) and from
the seed, the turn and the actions left, never from a hidden card. The state does not remember
cards that were seen and then turned face down again, so neither does this player: it treats them
as unseen. The randomness is counter-based (engine.chance), so a game played by it is repeatable.

Fast path: the game module's decide and evolve folded directly, no Session per rollout.
"""
from __future__ import annotations

import math
from hashlib import blake2b

from dicehall.engine.bots import troll as adviser
from dicehall.engine.chance import seeded_draw
from dicehall.engine.contract import Bot
from dicehall.engine.core import IllegalCommand
from dicehall.engine.games import troll
from dicehall.engine.games.troll import FULL_DECK, PRESETS, ROWS, THE_CLUB, Card, TrollState
from dicehall.engine.session import replace

CANDIDATES = 6  # the adviser's best lines (distinct outcomes) that are played on
DEALS = 24  # sampled deals per decision, shared by every candidate
TURNS_AHEAD = 2  # turns the adviser plays on each deal after the candidate's own
SWITCH = 0.0  # standard errors by which another line's chance must beat the adviser's line, deal by deal,
# on the games WIN_CHANCE was fitted to (standard heights, no variant): the highest mean chance is played
SWITCH_UNFITTED = 0.5  # ... on other heights and variants, where the curve is a guess and the adviser
# wins most games: a line that merely looks better on a few deals must not replace its line (measured)

# The chance of winning from a bridge the adviser has just left (after the flight phase, the next
# turn begun): logistic weights per feature (engine/bots/troll.py's features, and the deck's size),
# fitted by tests/perf/troll_win_chance.py to 4,000 games the adviser played (`sim troll --seed 7`).
WIN_CHANCE = {
    "exposed": -2.194921937706234, "occupied": -0.07034033536675383, "weak": -0.34535579602414623,
    "awake": -0.09657883166205485, "covered": -0.8926380472244169, "aside": -0.13327583075357308,
    "danger": -4.9208799325596955, "tools": 0.10843577217808599, "far": 0.06463984235312127,
    "fleeing": -0.20984868472355567,
    "breaking": -13.258877394502754,  # an awake card out of reach on a position the bridge cannot lose
    "deck": -0.2005105239689122,
}
WIN_CHANCE_BIAS = 3.0663102921849728
_DECK_ORDER = {code: index for index, code in enumerate(FULL_DECK)}


def _stream(seed: int, state: TrollState, deal: int) -> int:
    """The seed of one sampled deal: from the game's seed, the turn, the actions left and the deal's
    number only (the same for every candidate, and blind to hidden cards)."""
    key = f"troll-search:{seed}:{state.turn}:{state.actions_left}:{deal}".encode()
    return int.from_bytes(blake2b(key, digest_size=8).digest(), "big")


def sampled_deal(state: TrollState, stream: int) -> TrollState:
    """The state with its unseen cards (face-down cards on the bridge, the deck) reshuffled among
    the places they hold: a deal consistent with everything the player sees."""
    unseen = [card.code for row in ROWS for stack in getattr(state, row) for card in stack if not card.awake]
    unseen += state.deck
    unseen.sort(key=_DECK_ORDER.__getitem__)  # the same order whatever the hidden cards' places
    for i in range(len(unseen) - 1, 0, -1):  # Fisher-Yates, counter-based draws
        j = seeded_draw(stream, i, i + 1)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    cards = iter(unseen)
    rows = {
        row: tuple(tuple(card if card.awake else Card(next(cards)) for card in stack) for stack in getattr(state, row))
        for row in ROWS
    }
    return replace(state, upper=rows["upper"], lower=rows["lower"], deck=tuple(cards))


def _fold(state: TrollState, events) -> TrollState:
    for event in events:
        state = troll.evolve(state, event)
    return state


def _play_line(state: TrollState, commands: tuple) -> tuple[TrollState, tuple] | None:
    """The candidate's commands on a sampled deal: the final state and the events, or None if a
    command is not legal there (it always is: legality depends on what is seen)."""
    events: tuple = ()
    for command in commands:
        try:
            more, state = troll.decided(state, command)
        except IllegalCommand:
            return None
        events += more
    return state, events


def fitted_for(state: TrollState) -> bool:
    """Whether WIN_CHANCE was fitted to games like this one: standard heights, no variant."""
    return (tuple(state.heights) == PRESETS["standard"] and not state.starting_card and not state.held_at_start
            and tuple(state.reusable) == (THE_CLUB,))


def win_features(state: TrollState, from_deck: bool) -> dict[str, float]:
    """The adviser's features of the bridge and the deck's size: what win_chance weighs."""
    features = adviser.features(state, from_deck)
    features["deck"] = len(state.deck)
    return features


def win_chance(state: TrollState, from_deck: bool) -> float:
    """The chance of winning from this state, on the fitted curve; 1 or 0 once the game has ended."""
    if state.end:
        return 1.0 if state.end in ("won", "perfect") else 0.0
    features = win_features(state, from_deck)
    z = WIN_CHANCE_BIAS + sum(weight * features[name] for name, weight in WIN_CHANCE.items())
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def _play_on(state: TrollState, events: tuple, stream: int, memo: dict) -> tuple[float, bool]:
    """From the end of a candidate's turn on a sampled deal: roll the awakening dice, let the adviser
    play TURNS_AHEAD turns, and judge the result: (chance of winning, whether the game was lost).

    memo: the results of the deal's earlier candidates by where the adviser was to play (the turn,
    the dice rolled, the state): a candidate that meets an earlier one there has the same dice and
    the same adviser to come, so the same result (one playout in fourteen on standard deals, one in
    ten on tutorial ones)."""
    draw = 1 << 20  # the dice's draws, apart from the shuffle's
    result: list = []  # this playout's result, once known: the value of every place it passes
    for turn in range(TURNS_AHEAD):
        while state.phase == "awakening" and not state.end:
            state = troll.evolve(state, troll.chance_event(state, (seeded_draw(stream, draw, 6),), False))
            draw += 1
        if state.end or troll.to_act(state) is None:
            break
        known = _met(memo, (turn, draw, state.troll, troll.occupied(state), state.set_aside, len(state.deck)), state,
                     result)
        if known is not None:  # an earlier playout's, ended: this one's too, for the places it passed
            result.append(known[0])
            return known[0]
        _, _, line_events, state = adviser.best_line(state)  # the adviser's move: its first of the best lines
        events = tuple(line_events)
    result.append((win_chance(state, adviser.deck_plays_next(events)), bool(state.end) and state.end not in ("won", "perfect")))
    return result[0]


def _met(memo: dict, key: tuple, state: TrollState, result: list) -> list | None:
    """The result of an earlier playout that met `state` at `key`, or None with `state` kept for the
    later ones, its result to be `result`. A few fields make the key (hashing a whole state reads
    every card); the states are compared whole only there."""
    met = memo.setdefault(key, [])
    for other, known in met:
        if other == state:
            return known
    met.append((state, result))
    return None


def best_turn(state: TrollState, seed: int, candidates: int = CANDIDATES, deals: int = DEALS) -> adviser.Plan:
    """The best one or two actions left this turn: the adviser's best line, unless another of its
    best lines has a higher mean chance of winning over the sampled deals, by more than SWITCH
    standard errors of the difference deal by deal (SWITCH_UNFITTED where the curve was not fitted);
    the highest such line. The plan's score is the chosen line's mean chance, and the reason says how
    it fared.

    Chances, not the adviser's scores, are averaged: a deal lost counts as nothing rather than as a
    big negative number, and on standard the best mean chance is played outright (measured: it won
    twice as often as the adviser; averaging the adviser's scores picked by luck among close lines)."""
    lines = sorted(adviser.scored_lines(state), key=lambda line: -line[0])  # stable: the adviser's first of equals
    assert lines, "best_turn needs a state where the troll acts"
    chosen, outcomes = [], set()
    for line in lines:
        if line[3] not in outcomes:  # two orders of the same actions: one candidate
            outcomes.add(line[3])
            chosen.append(line)
        if len(chosen) == candidates:
            break
    if len(chosen) == 1 or chosen[0][0] >= adviser.WIN / 2:  # one way to go, or a sure win: nothing to weigh
        played = _play_line(state, chosen[0][1])
        assert played is not None  # a line of legal commands on the real state
        final, events = played
        return _plan(state, chosen[0][1], win_chance(final, adviser.deck_plays_next(events)), "")
    chances, losses = weighed(state, seed, tuple(commands for _, commands, _, _ in chosen), deals)
    switch = SWITCH if fitted_for(state) else SWITCH_UNFITTED
    index, margin = 0, 0.0
    for other in range(1, len(chosen)):
        gains = [mine - theirs for mine, theirs in zip(chances[other], chances[0])]
        mean = sum(gains) / deals
        spread = (sum((gain - mean) ** 2 for gain in gains) / max(1, deals - 1) / deals) ** 0.5
        if mean > switch * spread and mean > margin:
            index, margin = other, mean
    lost, chance = losses[index], sum(chances[index]) / deals
    fared = f"lost on {lost} of {deals} sampled deals" if lost else f"safe on {deals} sampled deals"
    return _plan(state, chosen[index][1], chance, f"; {fared} within {TURNS_AHEAD} turns, win chance about {chance:.0%}")


def weighed(state: TrollState, seed: int, lines: tuple[tuple, ...], deals: int) -> tuple[list[list[float]], list[int]]:
    """Each line's chance of winning on each sampled deal, and on how many deals it was lost: what
    best_turn weighs (the same for the same arguments, whatever SWITCH says)."""
    chances: list[list[float]] = [[] for _ in lines]
    losses = [0] * len(lines)
    lost: int  # whether one deal was lost
    for deal in range(deals):
        stream = _stream(seed, state, deal)
        sample = sampled_deal(state, stream)
        memo: dict = {}  # the deal's playouts, by where the adviser was to play (_play_on)
        for index, commands in enumerate(lines):
            played = _play_line(sample, commands)
            chance, lost = _play_on(*played, stream, memo) if played else (0.0, True)
            chances[index].append(chance)
            losses[index] += lost
    return chances, losses


def _plan(state: TrollState, commands: tuple, score: float, fared: str) -> adviser.Plan:
    """The chosen line with the adviser's words for it, from the real state: they name the cards the
    line shows as they are, not as a sampled deal had them."""
    played = _play_line(state, commands)
    assert played is not None  # a line of legal commands on the real state
    final, events = played
    return adviser.Plan(commands, score, adviser.reason(state, list(events), final, False) + fared)


_second_actions: dict[tuple[int, TrollState], object] = {}  # the chosen pair's second action, by the state it expects


def choose(state: TrollState, seed: int) -> object:
    """The player's next command: the first of its best plan. The second action of a chosen pair is
    played as chosen (nothing is rolled between a turn's two actions, so the state it expects is
    known): thinking again over other sampled deals would second-guess the pair by luck alone."""
    kept = _second_actions.pop((seed, state), None)
    if kept is not None:
        return kept
    commands = best_turn(state, seed).commands
    if len(commands) == 2:
        _second_actions.clear()  # one pair at a time: the memory never grows
        played = _play_line(state, commands[:1])
        assert played is not None  # the plan's first command is legal
        _second_actions[(seed, played[0])] = commands[1]
    return commands[0]


# ----- the troll's bots, in the catalogue's call shape (engine/contract.py) -----
RANDOM_STREAM = 0x52414E44  # the random player's picks: a stream of the game's seed of their own


def random_player(state: TrollState, seed: int | None, nonce: int) -> object:
    """A uniformly random legal command (the baseline for `dicehall sim troll`)."""
    commands = troll.legal_commands(state)
    return commands[seeded_draw((seed or 0) ^ RANDOM_STREAM, nonce, len(commands))]


# the adviser's best plan ("hint", as the h key shows it), its search over sampled deals, and at random;
# they live here, not in troll.py, because the search is built on the adviser
BOTS: dict[str, Bot] = {
    "hint": lambda state, seed, nonce: adviser.choose(state),
    "search": lambda state, seed, nonce: choose(state, seed),
    "random": random_player,
}
