"""The troll's deeper player: legal, blind to hidden cards, repeatable, and no weaker than the adviser."""
import dataclasses

import pytest

from dicehall import engine
from dicehall.engine.bots import troll as adviser
from dicehall.engine.bots import troll_search
from dicehall.engine.chance import seeded_draw
from dicehall.engine.games import troll
from dicehall.sims.troll import play_troll, sim_troll


def played_on(seed: int, steps: int, **options):
    """A game after `steps` of the adviser's commands (or fewer, if it ends or reaches a decision)."""
    session = engine.new_session("troll", seed=seed, options=options)
    for _ in range(steps):
        if session.outcome is not None:
            break
        session.play(adviser.choose(session.state))
    return session


def acting_states(*seeds_and_steps):
    """The states after played_on where the troll acts (a game may have ended by then)."""
    states = [played_on(seed, steps).state for seed, steps in seeds_and_steps]
    states = [state for state in states if troll.to_act(state) == 0]
    assert len(states) >= 3
    return states


def hidden_swapped(state):
    """The same position with two face-down cards' identities swapped and the deck reversed:
    everything a player sees is the same."""
    dormant = [(row, col) for row in troll.ROWS for col in troll.COLUMNS
               if state.stack((row, col)) and not state.top((row, col)).awake]
    a, b = dormant[0], dormant[-1]
    top_a, top_b = state.top(a), state.top(b)
    assert top_a.code != top_b.code and len(state.deck) > 1
    swapped = troll.with_stack(state, a, state.stack(a)[:-1] + (dataclasses.replace(top_a, code=top_b.code),))
    swapped = troll.with_stack(swapped, b, swapped.stack(b)[:-1] + (dataclasses.replace(top_b, code=top_a.code),))
    return dataclasses.replace(swapped, deck=tuple(reversed(state.deck)))


@pytest.fixture
def weighed_once(monkeypatch):
    """The search's sampled figures of one position remembered by their arguments: a test asking
    best_turn again of a position it asked before (another SWITCH, or choose after best_turn) plays
    its deals once. best_turn's choice among the figures runs each time."""
    kept: dict = {}
    weighed = troll_search.weighed

    def remembered(state, seed, lines, deals):
        key = (state, seed, lines, deals)
        if key not in kept:
            kept[key] = weighed(state, seed, lines, deals)
        return kept[key]

    monkeypatch.setattr(troll_search, "weighed", remembered)
    return kept


def test_the_search_does_not_see_face_down_cards_or_the_deck_order():
    for seed, steps in ((11, 0), (4, 9), (7, 20)):
        state = played_on(seed, steps).state
        assert troll.to_act(state) == 0
        swapped = hidden_swapped(state)
        assert swapped != state
        # the sampled deals are the same deals, and so is every figure drawn from them
        assert troll_search.sampled_deal(swapped, 99) == troll_search.sampled_deal(state, 99)
        plan, plan_swapped = troll_search.best_turn(state, seed=5), troll_search.best_turn(swapped, seed=5)
        assert (plan.commands, plan.score) == (plan_swapped.commands, plan_swapped.score)


def test_a_sampled_deal_keeps_what_is_seen_and_moves_only_unseen_cards():
    state = played_on(4, 9).state
    deal = troll_search.sampled_deal(state, 1)
    assert deal != state  # the unseen cards did move
    for row in troll.ROWS:
        for col in troll.COLUMNS:
            mine, theirs = state.stack((row, col)), deal.stack((row, col))
            assert [c.awake for c in mine] == [c.awake for c in theirs]
            assert [c for c in mine if c.awake] == [c for c in theirs if c.awake]
    unseen = lambda s: sorted([c.code for row in troll.ROWS for col in troll.COLUMNS
                               for c in s.stack((row, col)) if not c.awake] + list(s.deck))
    assert unseen(deal) == unseen(state) and len(deal.deck) == len(state.deck)
    assert dataclasses.replace(deal, upper=state.upper, lower=state.lower, deck=state.deck) == state


def test_the_search_plays_only_legal_commands_from_random_positions():
    for seed in range(8):
        session = engine.new_session("troll", seed=seed, options={"difficulty": ("standard", "sturdy")[seed % 2]})
        for step in range(seeded_draw(seed, 0, 40)):  # random legal moves to a random position
            if session.outcome is not None:
                break
            commands = session.commands()
            session.play(commands[seeded_draw(seed, step + 1, len(commands))])
        if session.outcome is None:
            plan = troll_search.best_turn(session.state, seed)
            assert plan.reason and 1 <= len(plan.commands) <= 2
            for command in plan.commands:
                assert command in session.commands()
                session.play(command)


def test_a_game_played_by_the_search_is_repeatable():
    def moves(seed):
        session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
        played = []
        while session.outcome is None and len(played) < 12:
            played.append(troll_search.choose(session.state, seed))
            session.play(played[-1])
        return played

    assert moves(21) == moves(21)
    assert play_troll(21, {"difficulty": "tutorial"}, "search") == play_troll(21, {"difficulty": "tutorial"}, "search")


def test_the_search_does_at_least_as_well_as_the_adviser_on_the_same_deals():
    # tutorial deals keep this fast (sturdy's are ten times slower); the standard figures, over
    # hundreds of deals, are in the README
    search = sim_troll(10, seed=2, difficulty="tutorial", variant=None, bot="search")
    hint = sim_troll(10, seed=2, difficulty="tutorial", variant=None, bot="hint")
    assert search["win_rate"] >= hint["win_rate"] and search["perfect_rate"] >= hint["perfect_rate"]
    assert search["mean_score"] <= hint["mean_score"]


def test_on_standard_deals_it_wins_more_and_leaves_fewer_cards_than_the_adviser():
    # the first four deals of `sim troll --seed 1` (the README's 500 go on from these): the deeper
    # player wins the third and the fourth and leaves 19 cards over the four to the adviser's 42;
    # the adviser wins none of them
    search = sim_troll(4, seed=1, difficulty="standard", variant=None, bot="search")
    hint = sim_troll(4, seed=1, difficulty="standard", variant=None, bot="hint")
    assert search["win_rate"] > hint["win_rate"]
    assert search["mean_score"] < hint["mean_score"]


def test_playouts_that_meet_an_earlier_candidate_s_on_its_deal_end_as_the_plain_ones(monkeypatch):
    # a candidate's playout that reaches the state an earlier candidate's reached on the same deal
    # (the same adviser turn and dice) takes its result from the deal's memo: the figures are those
    # of every playout played to its end
    asked, met, weighed, meeting = [], [0], troll_search.weighed, troll_search._met

    def kept(*args):
        asked.append((args, weighed(*args)))
        return asked[-1][1]

    def counted(*args):
        known = meeting(*args)
        met[0] += known is not None
        return known

    monkeypatch.setattr(troll_search, "weighed", kept)
    monkeypatch.setattr(troll_search, "_met", counted)
    for seed, state in enumerate(acting_states((11, 0), (4, 9), (7, 20), (3, 14))):
        troll_search.best_turn(state, seed, deals=8)
    assert len(asked) >= 3 and met[0] > 10  # the memo did end playouts (17 of them), not only fill
    monkeypatch.setattr(troll_search, "_met", lambda *args: None)  # no playout meets another: all played on
    for args, figures in asked:
        assert weighed(*args) == figures


def test_the_second_action_of_a_turn_is_the_chosen_pair_s_second(weighed_once):
    # the pair is followed through: after its first action, the player does not think again on
    # other sampled deals (which could swap the pair's second half for a luckier-looking one)
    followed = 0
    for seed, state in enumerate(acting_states((11, 0), (4, 9), (7, 20), (3, 14), (5, 30))):
        plan = troll_search.best_turn(state, seed)
        if len(plan.commands) < 2:
            continue
        followed += 1
        first = troll_search.choose(state, seed)
        assert first == plan.commands[0]
        after = troll_search._fold(state, troll.decide(state, first))
        assert troll_search.choose(after, seed) == plan.commands[1]
        assert troll_search.choose(after, seed) == troll_search.best_turn(after, seed).commands[0]  # asked again: thinks
    assert followed >= 2


def test_on_standard_the_best_chance_is_played_and_elsewhere_only_a_clearly_better_one(monkeypatch, weighed_once):
    states = acting_states((11, 0), (4, 9), (7, 20), (3, 14), (5, 30), (8, 12))
    assert all(troll_search.fitted_for(state) for state in states)  # standard deals: the curve's own
    switched = [troll_search.best_turn(state, 5).commands != adviser.best_turn(state).commands for state in states]
    assert any(switched)  # the best mean chance, not the adviser's first choice, is played
    # no sampled evidence can be clear enough: the adviser's best line, whatever the deals say
    monkeypatch.setattr(troll_search, "SWITCH", float("inf"))
    for state in states:
        assert troll_search.best_turn(state, 5).commands == adviser.best_turn(state).commands
        assert troll_search.best_turn(state, 5, candidates=1).commands == adviser.best_turn(state).commands
    # and where the evidence is weighed at all, the deals can overrule it
    monkeypatch.setattr(troll_search, "SWITCH", float("-inf"))
    assert any(troll_search.best_turn(state, 5).commands != adviser.best_turn(state).commands for state in states)
    assert not all(switched)
    # on a tutorial bridge (heights the curve was not fitted to) SWITCH_UNFITTED decides, not SWITCH
    tutorial = [played_on(seed, steps, difficulty="tutorial").state for seed, steps in ((1, 0), (2, 2), (3, 4))]
    tutorial = [state for state in tutorial if troll.to_act(state) == 0]
    assert tutorial and not any(troll_search.fitted_for(state) for state in tutorial)
    monkeypatch.setattr(troll_search, "SWITCH_UNFITTED", float("inf"))
    for state in tutorial:
        assert troll_search.best_turn(state, 5).commands == adviser.best_turn(state).commands


def test_the_reason_names_the_real_cards_the_line_shows():
    # every word of the reason comes from the line played on the real state, not on a sampled deal
    for seed in range(6):
        session = played_on(seed, 6)
        if session.outcome is not None:
            continue
        plan = troll_search.best_turn(session.state, seed)
        events = []
        state = session.state
        for command in plan.commands:
            more = troll.decide(state, command)
            events += more
            for event in more:
                state = troll.evolve(state, event)
        assert plan.reason.startswith(adviser.reason(session.state, events, state, False))


def test_the_win_chance_is_certain_at_the_end_and_falls_with_the_dangers_it_weighs():
    state = played_on(4, 9).state
    assert 0 < troll_search.win_chance(state, True) < 1
    assert troll_search.win_chance(dataclasses.replace(state, end="won"), True) == 1.0
    assert troll_search.win_chance(dataclasses.replace(state, end="collapsed"), True) == 0.0
    # the fitted curve's signs say what a player knows: an awake card out of reach on a position
    # the bridge cannot lose, a risk of flying away, more cards still to come: all lower the chance
    for feature in ("breaking", "danger", "exposed", "covered", "deck"):
        assert troll_search.WIN_CHANCE[feature] < 0, feature
    emptier = dataclasses.replace(state, deck=state.deck[:-5])
    assert troll_search.win_chance(emptier, True) > troll_search.win_chance(state, True)


def test_the_fit_recovers_the_weights_of_a_known_curve():
    # the script that fitted WIN_CHANCE (tests/perf/troll_win_chance.py), on data drawn from a
    # known logistic curve: Newton's method finds the weights again
    import math
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "perf"))
    from troll_win_chance import fit

    rng = random.Random(3)
    truth, bias = [1.5, -2.0, 0.25], -1.0
    rows = [[rng.uniform(-1, 1), rng.uniform(0, 2), rng.uniform(-4, 4)] for _ in range(4000)]
    labels = [int(rng.random() < 1 / (1 + math.exp(-(bias + sum(w * x for w, x in zip(truth, row)))))) for row in rows]
    weights, fitted_bias = fit(rows, labels)
    assert all(abs(w - t) < 0.25 for w, t in zip(weights, truth)), weights
    assert abs(fitted_bias - bias) < 0.3
