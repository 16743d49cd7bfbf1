"""The troll analysis's playouts made cheaper without changing what they compute (issue #33): the
adviser's best line played on from the state it leaves, and playouts that meet an earlier one of
the same sample (same turns, same dice rolled, same state) ending as it did. Pinned against the
plain path (the adviser's plan decided again, every playout to its end) on many seeds."""
import dataclasses
import random

from dicehall import engine
from dicehall.engine.analysis import paired
from dicehall.engine.analysis import troll as troll_analysis
from dicehall.engine.bots import troll as adviser
from dicehall.engine.games import troll


def plain_play_to_end(state, dice):
    """The playout as it was: the adviser's plan, its commands decided again, no memo."""
    turns = 0
    while not state.end:
        need = troll.chance_needed(state)
        if need is not None:
            draws = tuple(dice.randrange(n) for n in need.spec)
            state = troll.evolve(state, troll.chance_event(state, draws, False))
            continue
        if troll.to_act(state) is None:
            break
        turns += 1
        if turns > troll_analysis.MAX_TURNS:
            break
        state = troll_analysis._after(state, adviser.best_turn(state).commands)
    return state


def decisions(seed: int, every: int = 3):
    """Decisions of a standard game played by the adviser with a random pair one turn in three."""
    session = engine.new_session("troll", seed=seed, options={"difficulty": "standard"})
    rng = random.Random(seed)
    out = []
    while session.outcome is None:
        state = session.state
        if troll.to_act(state) == 0 and state.actions_left == 2 and state.turn % every == 0:
            out.append(state)
        commands = troll.legal_commands(state)
        session.play(rng.choice(commands) if state.turn % 3 == 1 else adviser.choose(state))
    return out


def plain_scored_lines(state):
    """The adviser's lines as they were: every pair decided to its end, each scored on its own."""
    lines = []
    for first in troll.legal_commands(state):
        first_events, after_first = troll.decided(state, first)
        if troll.to_act(after_first) == 0 and after_first.turn == state.turn:
            for second in troll.legal_commands(after_first):
                second_events, final = troll.decided(after_first, second)
                lines.append((adviser.evaluate(final, adviser.deck_plays_next(second_events)), (first, second),
                              first_events + second_events, final))
        else:
            lines.append((adviser.evaluate(after_first, adviser.deck_plays_next(first_events)), (first,),
                          first_events, after_first))
    return lines


def test_the_lines_whose_turns_end_alike_share_it_and_stay_the_plain_paths():
    shared = 0
    for seed in range(1, 9):
        for state in decisions(seed, every=1):
            lines = adviser.scored_lines(state)
            assert lines == plain_scored_lines(state)
            shared += len(lines) - len({id(line[3]) for line in lines})
    assert shared > 50  # pairs did share their turn's end


def test_the_best_line_is_the_hints_plan_and_the_state_it_leaves():
    for seed in range(1, 7):
        for state in decisions(seed):
            score, commands, _, final = adviser.best_line(state)
            plan = adviser.best_turn(state)
            assert (score, commands) == (plan.score, plan.commands)
            assert final == troll_analysis._after(state, commands)


def count_meetings(monkeypatch) -> list[int]:
    """The playouts ended by their memo (an earlier one met), counted in a list as they come."""
    met, inner = [0], troll_analysis._met

    def counted(*args):
        known = inner(*args)
        met[0] += known is not None
        return known

    monkeypatch.setattr(troll_analysis, "_met", counted)
    return met


# Seeds 2 and 7 of 1-8: 318 pairs' playouts (of 585) compared with the plain path, 73 of them ended by
# the memo (of 128; the floor below is 20), and every way a playout ends that seeds 1-8 reach (the
# bridge collapsed, flown off, won; none ran to MAX_TURNS or to a turn no one acts): every branch of
# engine/analysis/troll.py that seeds 1-8 reach here (73 arcs, measured with coverage) at about half
# the cost (the plain path, the adviser deciding every turn again, is most of it).
MEMO_SEEDS = (2, 7)


def test_playouts_sharing_a_memo_end_as_the_plain_path_over_many_seeds(monkeypatch):
    met = count_meetings(monkeypatch)
    for seed in MEMO_SEEDS:
        for index, state in enumerate(decisions(seed)):
            for sample in range(3):
                deal = troll_analysis.sampled_deal(state, random.Random(f"{seed} {index} {sample} deal"))
                memo: dict = {}  # one sample's: every pair below plays on the same deal and dice
                for _, commands in troll_analysis._pairs(state):
                    start = troll_analysis._after(deal, commands)
                    plain = plain_play_to_end(start, random.Random(f"{seed} {index} {sample} dice"))
                    cheap = troll_analysis.play_to_end(start, random.Random(f"{seed} {index} {sample} dice"), memo)
                    assert cheap == plain, (seed, index, sample, commands)
    assert met[0] > 20  # playouts did meet earlier ones: the memo ended them, not only filled


def test_the_analysis_judge_gives_the_figures_of_the_plain_path():
    session = engine.new_session("troll", seed=5, options={"difficulty": "standard"})
    while session.outcome is None:
        session.play(adviser.choose(session.state))
    turns = troll_analysis._turns(session)
    start, played = turns[len(turns) // 2]
    state = session.state_at(start)
    judge = troll_analysis._Judge(state, session.seed, start + 1, troll_analysis.deck_at_start(session, turns))
    for commands in troll_analysis.groups(state, played):
        for sample in range(4):
            deal = troll_analysis.sampled_deal(state, troll_analysis._rng(session.seed, start + 1, sample, "deal"))
            end = plain_play_to_end(troll_analysis._after(deal, commands),
                                    troll_analysis._rng(session.seed, start + 1, sample, "dice"))
            assert judge.outcome(commands, sample) == (end.end in ("won", "perfect"), len(end.deck))


def test_the_race_goes_up_to_its_own_samples_and_the_finalists_get_all_the_fresh_ones():
    asked: list[tuple[int, int]] = []

    def value(candidate: int, sample: int) -> float:
        asked.append((candidate, sample))
        return candidate / 10 + random.Random(f"{candidate} {sample}").random()

    result = paired.judge(list(range(16)), value, 0, samples=32, race=8)
    race = [sample for _, sample in asked if sample < paired.CONFIRM]
    assert max(race) == 7 and len(race) == 16 * 2 + 8 * 2 + 4 * 4  # up to 2, then 4, then 8 samples each
    assert {len(samples) for samples in result.confirmed.values()} == {32}
    assert len(result.confirmed) == 3 and 0 in result.confirmed  # two finalists and the move played


def test_the_memo_tells_apart_states_its_short_key_does_not():
    state = decisions(3)[0]
    other = dataclasses.replace(state, quiet_turns=state.quiet_turns + 1)  # not in the key: the same key
    memo: dict = {}
    ends = {"state": ["end of state"], "other": ["end of other"]}
    assert troll_analysis._met(memo, (1, 0), state, ends["state"]) is None
    assert troll_analysis._met(memo, (1, 0), other, ends["other"]) is None  # kept beside it, not taken for it
    assert troll_analysis._met(memo, (1, 0), dataclasses.replace(other), []) is ends["other"]
    assert troll_analysis._met(memo, (1, 0), dataclasses.replace(state), []) is ends["state"]
    assert troll_analysis._met(memo, (2, 0), state, []) is None  # after another count of turns: not met
    assert len(memo) == 2
