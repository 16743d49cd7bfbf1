"""Issue #22 for War of Bones, Towers and the wager: marks only beyond noise, every choice judged
against its alternatives, Towers' figures believable and their side named."""
import pytest

from dicehall import engine
from dicehall.engine import analysis
from dicehall.engine.analysis import bones as bones_analysis
from dicehall.engine.analysis import noise
from dicehall.engine.bots import bones as general
from dicehall.engine.core import Player
from dicehall.engine.games import bones

PLAYERS = [Player("Ada"), Player("Gen", True, "general")]


# ----- paired statistics -----
def test_paired_differences_their_standard_error_and_the_drop_beyond_noise():
    better, worse = [1.0, 0.5, 0.75, 1.0], [0.5, 0.5, 0.25, 0.5]
    diffs = noise.differences(better, worse)
    assert diffs == [0.5, 0.0, 0.5, 0.5]
    assert noise.mean(diffs) == 0.375
    assert noise.standard_error(diffs) == pytest.approx(0.125)  # sd 0.25 over 4 samples
    assert noise.beyond_noise(diffs) == pytest.approx(0.375 - 2 * 0.125)
    assert noise.beyond_noise([0.3, -0.3]) == 0.0  # never below nothing
    assert noise.standard_error([0.4]) == 0.0
    with pytest.raises(ValueError):
        noise.differences([1.0], [1.0, 0.0])


# ----- War of Bones -----
def first_strike_game(seed):
    """Ada wins the roll-off and chooses First Strike where the general takes Reengage; then the
    generals play on a little. Returns the session and where the choice starts."""
    session = engine.new_session("bones", seed=seed, players=PLAYERS)
    start = None
    while session.outcome is None and len(session.events) < 40:
        if session.state.stage == "choose" and session.to_act == 0:
            start = len(session.events)
            session.play(bones.Choose("first strike"))
            continue
        session.play(general.choose(session.state, "general", seed, len(session.events)))
    assert start is not None
    return session, start


@pytest.mark.parametrize("general_picks", ["reengage", "first strike"])
def test_the_roll_off_lesson_reengage_is_found_and_a_blunder_even_where_the_general_would_pick_first_strike(
        general_picks, monkeypatch):
    session, start = first_strike_game(16)
    if general_picks == "first strike":  # the general's pick is no longer the only alternative judged
        monkeypatch.setattr(general, "choose_option", lambda state, seat: bones.Choose("first strike"))
    assert bones_analysis._general(session.state_at(start)) == bones.Choose(general_picks)
    decision = next(d for d in bones_analysis.analyse(session).decisions if d.event == start + 1)
    assert decision.played == "choose First Strike" and decision.best == "choose Reengage"
    assert decision.mark == "??" and decision.chance_best - decision.chance_played >= 0.3


def test_every_legal_choice_is_a_candidate_where_few_and_the_generals_best_where_many():
    session = engine.new_session("bones", seed=1, players=PLAYERS)
    seen = set()
    while session.outcome is None and len(session.events) < 200:
        state = session.state
        commands = bones.legal_commands(state)
        if session.to_act == 0 and len(commands) > 1:
            played = commands[-1]  # not the general's, usually
            found = bones_analysis.candidates(state, played)
            assert found[0] == played and bones_analysis._general(state) in found
            assert len(found) == len(set(found))
            if len(commands) <= bones_analysis.CANDIDATES:
                assert set(found) == set(commands)
            else:
                assert len(found) <= bones_analysis.CANDIDATES + 2
            seen.add(state.stage)
        session.play(general.choose(state, "general", 1, len(session.events)))
    assert {"action", "choose", "attack_reroll"} <= seen
