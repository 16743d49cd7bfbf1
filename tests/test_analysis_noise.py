"""Issue #22 for War of Bones, Towers and the wager: marks only beyond noise, every choice judged
against its alternatives, Towers' figures believable and their side named."""
import functools

import pytest

from dicehall import engine
from dicehall.engine import analysis
from dicehall.engine.analysis import bones as bones_analysis
from dicehall.engine.analysis import paired
from dicehall.engine.bots import bones as general
from dicehall.engine.core import Player
from dicehall.engine.games import bones

PLAYERS = [Player("Ada"), Player("Gen", True, "general")]


# ----- paired statistics -----
def test_paired_differences_their_standard_error_and_the_drop_beyond_noise():
    # the one paired module (engine/analysis/paired.py) the troll, War of Bones and the wager share
    better, worse = [1.0, 0.5, 0.75, 1.0] * 2, [0.5, 0.5, 0.25, 0.5] * 2
    gap = paired.difference(better, worse)  # differences 0.5, 0, 0.5, 0.5, twice
    assert gap.mean == 0.375 and gap.n == 8 and paired.mean(better) == 0.8125
    assert gap.se == pytest.approx((0.375 / 7 / 8) ** 0.5)  # the differences' spread over sqrt(8)
    assert gap.beyond_noise() == pytest.approx(0.375 - 2 * gap.se)
    assert paired.difference([0.3, -0.3] * 3, [0.0] * 6).beyond_noise() == 0.0  # never below nothing
    # fewer than MIN_PAIRS (6) paired samples: the noise cannot be told, so nothing is beyond it
    assert paired.difference(better[:4], worse[:4]).beyond_noise() == 0.0
    assert paired.difference([0.4], [0.0]).beyond_noise() == 0.0
    with pytest.raises(ValueError):
        paired.difference([1.0], [1.0, 0.0])


# ----- War of Bones -----
@functools.cache  # a second of the general's moves, played once a process: the tests only read it
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


# ----- Towers -----
def towers_game(seed, light="medium", dark="medium", people=2):
    """A whole Towers game between bots of these levels; the first `people` seats are persons."""
    from dicehall.engine.bots import towers as bot

    players = [Player("Ann"), Player("Bob")] if people == 2 else [Player("Ann"), Player("Bot", True, dark)]
    session = engine.new_session("towers", seed=seed, players=players)
    while session.outcome is None:
        level = light if session.to_act == 0 else dark
        session.play(bot.choose(session.state, level, seed=seed, nonce=len(session.events)))
    return session


@functools.cache
def analysed_towers_game(seed):
    """towers_game(seed) and its analysis, made once for the tests that only read them (each costs
    seconds of search)."""
    session = towers_game(seed)
    return session, analysis.analyse(session)


@pytest.mark.parametrize("square", ["a8", "d5", "h1", "c2", "e4"])
def test_towers_the_first_placement_is_within_a_few_points_of_even_and_the_figure_names_its_side(square):
    from dicehall.engine.analysis import towers as towers_analysis
    from dicehall.engine.games import towers

    session = engine.new_session("towers", seed=1, players=[Player("Ann"), Player("Bob")])
    session.play(towers.parse_command(f"place {square}"))
    session.play(towers.parse_command("place b2" if square != "b2" else "place g7"))
    result = analysis.analyse(session)
    first, reply = result.decisions
    for decision in (first, reply):
        assert abs(decision.chance_played - 0.5) <= 0.05 and abs(decision.chance_best - 0.5) <= 0.05
        assert decision.mark == ""
    assert result.figure == "Light's chance" == towers_analysis.SIDES[towers.LIGHT]
    assert analysis.figure_of(result, 0) == "Light's chance" and analysis.figure_of(result, 1) == "Dark's chance"
    assert [m["side"] for m in result.extra["margins"]] == ["Light", "Dark"]


def test_towers_the_analyse_lines_name_each_side_and_the_end_says_whose_win(tmp_path, capsys):
    from dicehall import replays
    from dicehall.cli import main

    from dicehall.saves import analyses

    session, result = analysed_towers_game(2)
    path = tmp_path / "t.dhr"
    replays.write_replay(session, path)
    analyses.store(result, session, None)  # the lines are the point: the analysis is the one made above
    assert main(["analyse", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("event 1: Ann played place ") and ", Light's chance " in lines[0]
    assert lines[1].startswith("event 2: Bob played place ") and ", Dark's chance " in lines[1]
    assert f"note: the end: {session.outcome.summary}" in lines  # "Ann (Light) wins 12 to 7": whose win
    winner = session.outcome.winners[0]
    assert result.curve[-1] == analysis.Point(len(session.events), 1.0 if winner == 0 else 0.0)  # Light's


def test_towers_curve_is_lights_chance_before_and_after_each_move():
    from dicehall.engine.games import towers

    session, result = analysed_towers_game(2)
    curve = {p.event: p.value for p in result.curve}
    for decision in result.decisions:
        before = curve[decision.event - 1]
        mover_best = decision.chance_best if decision.seat == towers.LIGHT else 1.0 - decision.chance_best
        assert before == pytest.approx(mover_best)


def test_towers_bot_against_bot_a_game_of_good_moves_is_not_marked_as_blunders():
    # the hall game had 21 of 30 decisions marked ??: two medium bots, every move judged
    session, result = analysed_towers_game(2)
    assert len(result.decisions) >= 30
    marks = [d.mark for d in result.decisions]
    assert marks.count("??") == 0 and sum(1 for m in marks if m) <= 3
    assert all(d.chance_best >= d.chance_played for d in result.decisions)


# ----- the wager -----
def test_wager_marks_with_three_players_are_confirmed_beyond_noise_on_fresh_paired_games():
    from dicehall.engine.analysis import wager as wager_analysis
    from dicehall.engine.bots import wager as wager_bots

    session = engine.new_session("wager", seed=2, players=[Player("Ann"), Player("Bob"), Player("Cy")])
    confirmed = 0
    while session.outcome is None and len(session.state.in_play) > 2:
        state = session.state
        if state.can_wager and not state.normal_left:
            chances = wager_bots.win_chances(state)
            worse = min(chances, key=chances.get)
            best, played_chance, best_chance, mark = wager_analysis.judge(state, worse)
            if max(chances.values()) - chances[worse] >= wager_analysis.THRESHOLDS[0]:  # a mark is possible
                confirmed += 1
                won = wager_analysis.fresh_samples(state)
                gap = paired.difference(won[best], won[worse]).beyond_noise() if best != worse else 0.0
                assert mark == analysis.mark_for(gap, wager_analysis.THRESHOLDS)
            else:
                assert mark == "" and best_chance - played_chance < wager_analysis.THRESHOLDS[0]
        session.play(wager_bots.choose(state))
    assert confirmed >= 2
    # two players in: exact figures, no noise to allow for
    two = engine.new_session("wager", seed=1, players=[Player("Ann"), Player("Bob")])
    while not (two.state.can_wager and not two.state.normal_left):
        two.play(wager_bots.choose(two.state))
    chances = wager_bots.win_chances(two.state)
    best, played_chance, best_chance, mark = wager_analysis.judge(two.state, min(chances, key=chances.get))
    assert (played_chance, best_chance) == (min(chances.values()), max(chances.values()))
    assert mark == analysis.mark_for(best_chance - played_chance, wager_analysis.THRESHOLDS)
