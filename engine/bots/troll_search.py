"""The troll's deeper player: the adviser's best line, unless one of its next-best lines does clearly
better when played on over sampled deals. Used by `H` (the deeper hint) and by `dicehall sim troll
--bot search`.

Each sampled deal reshuffles the cards the player has not seen (the face-down cards on the bridge
and the deck) among the places they could be, then rolls the awakening dice; on it, each candidate
line is played, and the adviser plays TURNS_AHEAD turns after it; the adviser's judgement of where
that leaves the bridge (+-LOSS when the game ended) is the line's score on that deal. Every
candidate is scored on the same deals and dice (common random numbers), so the differences between
them are the lines' and not the luck's; a line replaces the adviser's only when it beats it, deal by
deal, by SWITCH standard errors (README, "The deeper player", has the measurements behind this).

No peeking: a deal is drawn from what the state shows (the awake cards, the flight stacks, the
set-aside cards, the troll's hands, how many cards are face down where, the deck's size) and from
the seed, the turn and the actions left, never from a hidden card. The state does not remember
cards that were seen and then turned face down again, so neither does this player: it treats them
as unseen. The randomness is counter-based (engine.chance), so a game played by it is repeatable.

Fast path: the game module's decide and evolve folded directly, no Session per rollout.
"""
from __future__ import annotations

from hashlib import blake2b

from engine.bots import troll as adviser
from engine.chance import seeded_draw
from engine.core import IllegalCommand
from engine.games import troll
from engine.games.troll import FULL_DECK, ROWS, Card, TrollState
from engine.session import replace

CANDIDATES = 6  # the adviser's best lines (distinct outcomes) that are played on
DEALS = 24  # sampled deals per decision, shared by every candidate
TURNS_AHEAD = 2  # turns the adviser plays on each deal after the candidate's own
LOSS = 300.0  # a deal's score when the game ended on it: won +LOSS, lost -LOSS less the cards left (the
# adviser values a sure flight at -300: on its scale, so one lost deal does not outweigh everything else)
SWITCH = 1.0  # standard errors by which another line must beat the adviser's best, deal by deal
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
            more = troll.decide(state, command)
        except IllegalCommand:
            return None
        state = _fold(state, more)
        events += tuple(more)
    return state, events


def _play_on(state: TrollState, events: tuple, stream: int) -> tuple[float, bool]:
    """From the end of a candidate's turn on a sampled deal: roll the awakening dice, let the adviser
    play TURNS_AHEAD turns, and judge the result: (score, whether the game was lost on the way)."""
    draw = 1 << 20  # the dice's draws, apart from the shuffle's
    for _ in range(TURNS_AHEAD):
        while state.phase == "awakening" and not state.end:
            state = troll.evolve(state, troll.chance_event(state, (seeded_draw(stream, draw, 6),), False))
            draw += 1
        if state.end or troll.to_act(state) is None:
            break
        _, _, line_events, state = max(adviser.scored_lines(state), key=lambda line: line[0])
        events = tuple(line_events)
    if state.end:
        won = state.end in ("won", "perfect")
        return (LOSS, False) if won else (-LOSS - len(state.deck), True)
    return adviser.evaluate(state, adviser._from_deck(events)), False


def best_turn(state: TrollState, seed: int, candidates: int = CANDIDATES, deals: int = DEALS) -> adviser.Plan:
    """The best one or two actions left this turn: the adviser's best line, unless another of its
    best lines does clearly better over the sampled deals; the reason says how the chosen line fared.

    "Clearly": the other line's mean score, deal by deal against the adviser's line, is above SWITCH
    standard errors of that difference. A few sampled deals cannot tell close lines apart, and
    picking the best average among them would pick by luck (measured: it lost more often than the
    adviser it was meant to improve)."""
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
        return _plan(state, chosen[0][1], chosen[0][0], "")
    scores: list[list[float]] = [[] for _ in chosen]
    losses = [0] * len(chosen)
    for deal in range(deals):
        stream = _stream(seed, state, deal)
        sample = sampled_deal(state, stream)
        for index, (_, commands, _, _) in enumerate(chosen):
            played = _play_line(sample, commands)
            score, lost = _play_on(*played, stream) if played else (-2 * LOSS, True)
            scores[index].append(score)
            losses[index] += lost
    index, margin = 0, 0.0
    for other in range(1, len(chosen)):
        gains = [mine - theirs for mine, theirs in zip(scores[other], scores[0])]
        mean = sum(gains) / deals
        spread = (sum((gain - mean) ** 2 for gain in gains) / max(1, deals - 1) / deals) ** 0.5
        if mean > SWITCH * spread and mean > margin:
            index, margin = other, mean
    lost = losses[index]
    fared = f"; lost {lost} of {deals} sampled deals" if lost else f"; safe on {deals} sampled deals"
    return _plan(state, chosen[index][1], sum(scores[index]) / deals, fared)


def _plan(state: TrollState, commands: tuple, score: float, fared: str) -> adviser.Plan:
    """The chosen line with the adviser's words for it, from the real state: they name the cards the
    line shows as they are, not as a sampled deal had them."""
    final, events = _play_line(state, commands)
    return adviser.Plan(commands, score, adviser._reason(state, list(events), final, False) + fared)


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
        _second_actions[(seed, _play_line(state, commands[:1])[0])] = commands[1]
    return commands[0]
