"""Analysis (issue #14): the Dice Tower's exact odds and luck, wager decisions judged exactly, the troll's
blunders and its no-peeking sampling, repeatability, and `dicehall analyse` on every game (War of
Bones' own tests: test_analysis_bones.py)."""
import functools
import json
from fractions import Fraction

import pytest

from dicehall import engine
from dicehall import replays
from dicehall.engine import analysis
from dicehall.engine.analysis import paired
from dicehall.engine.analysis import troll as troll_analysis
from dicehall.engine.bots import troll as adviser
from dicehall.engine.bots import wager as wager_bots
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE, dicetower, troll
from dicehall.engine.games.dicetower import PullBlock
from dicehall.engine.games.wager import EndTurn, Roll, Wager
from dicehall.cli import NO_ANALYSER, main

DECISION_FIELDS = ["event", "played", "best", "chance_played", "chance_best", "mark"]
ADDED_FIELDS = ["equity_played", "equity_best", "noise", "words"]  # after the six, where an analyser gives them
ADDED_FIELDS += ["figure"]  # where the analysis names sides (Towers): whose chance the decision's two are


def tower(seed=3, remove_every=0):
    session = engine.new_session("dicetower", seed=seed)
    while session.outcome is None:
        pulls = session.state.pulls
        session.play(PullBlock(bool(remove_every) and pulls % remove_every == remove_every - 1))
    return session


def adviser_game(seed, options, stop_turn=None, then=None):
    """A troll game played by the adviser; at turn `stop_turn` the commands `then` are played instead."""
    session = engine.new_session("troll", seed=seed, options=options)
    while session.outcome is None:
        state = session.state
        if stop_turn is not None and state.turn == stop_turn and state.actions_left == 2:
            for command in then:
                if session.to_act == 0 and session.state.turn == stop_turn:
                    session.play(command)
            continue
        session.play(adviser.choose(state))
    return session


# ----- the Dice Tower -----
def test_dicetower_figures_are_the_exact_odds_along_the_game():
    session = tower()
    result = analysis.analyse(session)
    assert result.decisions == ()
    assert result.curve[0].value == float(dicetower.expected_pulls(100))
    odds = analysis.as_json(result)["odds"]
    for n in range(len(session.events) + 1):
        state = session.state_at(n)
        assert result.curve[n].value == pytest.approx(float(dicetower.pulls_to_come(state)), abs=1e-12)
        if not state.pulling and not state.fell:
            assert odds[n]["expected_pulls"] == pytest.approx(float(dicetower.expected_pulls(state.countdown)), abs=1e-6)
            assert odds[n]["topple"] == pytest.approx(float(dicetower.topple_chance(state.countdown)), abs=1e-6)


def test_dicetower_luck_is_each_roll_against_its_expectation_and_adds_up_to_the_pulls_made():
    session = tower()
    result = analysis.analyse(session)
    rolls = [n for n, e in enumerate(session.events, start=1) if isinstance(e, dicetower.DiceRolled)]
    assert [item.event for item in result.chance] == rolls
    # a plain pull costs exactly one expected pull; the dice move the rest: so the tower lasted
    # the expected pulls at the start plus all its luck
    total = result.curve[0].value + sum(item.luck for item in result.chance)
    assert total == pytest.approx(session.state.pulls, abs=1e-9)
    # one roll by hand: from a plain pull in progress, the expectation over the 36 faces is no change
    state = session.state_at(rolls[0] - 1)
    expected_after = sum(dicetower.pulls_to_come(dicetower.evolve(state, dicetower.DiceRolled((a, b))))
                         for a in range(1, 7) for b in range(1, 7)) / 36
    assert expected_after == dicetower.pulls_to_come(state)  # exact fractions
    after = dicetower.pulls_to_come(session.state_at(rolls[0]))
    assert result.chance[0].luck == pytest.approx(float(after - dicetower.pulls_to_come(state)), abs=1e-12)


def test_dicetower_luck_with_pull_and_remove_still_averages_to_nothing():
    session = tower(seed=8, remove_every=3)
    state = next(session.state_at(n) for n in range(len(session.events)) if session.state_at(n).removing)
    average = sum(dicetower.pulls_to_come(dicetower.evolve(state, dicetower.DiceRolled((a, b))))
                  for a in range(1, 7) for b in range(1, 7)) / 36
    assert isinstance(average, Fraction) and average == dicetower.pulls_to_come(state)


# ----- Dead Man's Wager -----
def wager_game(last):
    """Ann 19, Bob 7, Ann to decide after her normal roll; then `last` (Wager or EndTurn)."""
    session = engine.new_session("wager", seed=1, players=[Player("Ann"), Player("Bob")],
                                 dice=[6, 5, 2, 2, 5, 5, 1, 1, 3])
    for command in (Roll(), Wager(), Roll(), EndTurn(), Roll(), Wager(), Roll(), EndTurn(), Roll(), last):
        session.play(command)
    return session


def test_wager_when_stopping_wins_for_sure_is_marked_and_stop_named_best():
    session = wager_game(Wager())
    decision = analysis.analyse(session).decisions[-1]
    state = session.state_at(decision.event - 1)
    assert (state.scores, state.seat, state.can_wager) == ((19, 7), 0, True)
    wagering, stopping = wager_bots.tables().choices(19, 7, 0, 0)
    assert stopping == 1.0 and stopping - wagering > 0.05  # Bob cannot reach 20 in one turn
    assert (decision.played, decision.best, decision.mark) == ("wager", "stop", "?!")
    assert decision.chance_played == wagering and decision.chance_best == stopping


def test_wager_stopping_there_is_not_marked_and_the_dice_luck_is_exact():
    session = wager_game(EndTurn())
    result = analysis.analyse(session)
    assert (result.decisions[-1].played, result.decisions[-1].mark) == ("stop", "")
    assert all(d.chance_best >= d.chance_played for d in result.decisions)
    # each die: the roller's exact chance after it against the average over the six faces
    from dicehall.engine.analysis.wager import chance_of

    for luck in result.chance:
        before = session.state_at(luck.event - 1)
        after = session.state_at(luck.event)
        assert luck.luck == pytest.approx(chance_of(after, luck.seat) - chance_of(before, luck.seat), abs=1e-12)
    from dicehall.engine.games.wager import DieRolled

    assert [c.event for c in result.chance] == [n for n, e in enumerate(session.events, start=1) if isinstance(e, DieRolled)]


def test_wager_bot_decisions_are_not_judged():
    session = engine.new_session("wager", seed=4, players=[Player("Ann"), Player("Bot", True, "bold")])
    while session.outcome is None:
        command = wager_bots.choose(session.state, "bold") if session.to_act == 1 else wager_bots.choose(session.state)
        session.play(command)
    result = analysis.analyse(session)
    assert result.decisions and {d.seat for d in result.decisions} == {0}
    assert all(d.mark == "" for d in result.decisions)  # Ann played best: nothing to mark


# ----- the troll -----
def test_troll_pair_that_collapses_the_bridge_is_a_blunder_by_its_drop_and_the_safe_pair_is_named():
    # standard deal, seed 5: at turn 2 "move up then move right" collapses the bridge; the adviser's pair does not
    blunder = (troll.Move("up"), troll.Move("right"))
    session = adviser_game(5, {"difficulty": "standard"}, stop_turn=2, then=blunder)
    assert session.state.end == "collapsed" and session.state.turn == 2
    result = analysis.analyse(session, samples=paired.MIN_PAIRS)  # the fewest whose noise can be told
    decision = result.decisions[-1]
    # ?? by what it loses (about 28 points of equity, beyond two standard errors), not by a rule
    assert decision.played == "move up then move right" and decision.mark == "??"
    assert decision.drop - 2 * (decision.noise or 1.0) >= troll_analysis.THRESHOLDS[2]
    assert decision.words.startswith("ends the game at once: the bridge collapses")
    state = session.state_at(decision.event - 1)
    safe = {troll_analysis.words(c): c for _, c in troll_analysis._pairs(state)}
    assert decision.best in safe and decision.best != decision.played
    assert troll_analysis._ends_at_once(state, safe[decision.best]) not in troll_analysis.LOSSES
    assert decision.chance_played == 0.0
    assert result.decisions[0].played == troll_analysis.words(adviser.best_turn(session.state_at(result.decisions[0].event - 1)).commands)


def swapped(order, a, b):
    order = list(order)
    order[a], order[b] = order[b], order[a]
    return order


def test_troll_figures_never_peek_at_face_down_cards_or_the_deck_order():
    deck = list(troll.shuffled(tuple([0] * 51)))  # a fixed order: the options' explicit deal
    import random

    random.Random(7).shuffle(deck)
    # swap the bottom card of upper 1 (face down under two more) with the deck's last card
    other = swapped(deck, 0, 51)
    games = [adviser_game(11, {"difficulty": "standard", "deck": order}) for order in (deck, other)]
    first_difference = next(n for n, (a, b) in enumerate(zip(games[0].events, games[1].events)) if a != b) \
        if any(a != b for a, b in zip(games[0].events, games[1].events)) else min(len(g.events) for g in games)
    results = [analysis.analyse(game, samples=2) for game in games]  # the figures alike, at any count
    before = [[d for d in result.decisions if d.event <= first_difference] for result in results]
    assert len(before[0]) >= 3  # there are decisions to compare
    assert before[0] == before[1]
    # and the real hidden cards differ at those decisions
    state = games[0].state_at(before[0][-1].event - 1)
    assert state.stack(("upper", 1))[0].code != games[1].state_at(before[0][-1].event - 1).stack(("upper", 1))[0].code


def test_sampled_deals_keep_everything_visible_and_deal_only_the_unseen_cards():
    session = adviser_game(3, {"difficulty": "standard"})
    state = session.state_at(troll_analysis._turns(session)[5][0])
    dealt = troll_analysis.sampled_deal(state, random_source(1))
    for row in troll.ROWS:
        for col in troll.COLUMNS:
            real, new = state.stack((row, col)), dealt.stack((row, col))
            assert len(real) == len(new)
            assert [c for c in real if c.awake] == [c for c in new if c.awake]
            assert [c.awake for c in real] == [c.awake for c in new]
    hidden = sorted([c.code for r in (state.upper, state.lower) for s in r for c in s if not c.awake] + list(state.deck))
    assert sorted([c.code for r in (dealt.upper, dealt.lower) for s in r for c in s if not c.awake] + list(dealt.deck)) == hidden
    assert len(dealt.deck) == len(state.deck)
    assert (dealt.set_aside, dealt.carried, dealt.upper_flight, dealt.lower_flight) == \
        (state.set_aside, state.carried, state.upper_flight, state.lower_flight)


def random_source(seed):
    import random

    return random.Random(seed)


@functools.cache
def analysed_adviser_game_5():
    """adviser_game(5) (standard) and its analysis at 2 samples, made once a process for the tests that read them."""
    session = adviser_game(5, {"difficulty": "standard"})
    return session, analysis.analyse(session, samples=2)


def test_analysis_is_repeatable_and_the_budget_maps_to_samples_deterministically():
    session, analysed = analysed_adviser_game_5()
    first = analysis.as_json(analysed)
    assert analysis.as_json(analysis.analyse(session, samples=2)) == first
    samples = troll_analysis.samples_for_budget(session, 5.0)
    assert samples == troll_analysis.samples_for_budget(session, 5.0) >= 1
    assert analysis.as_json(analysis.analyse(session, budget=0.2)) == analysis.as_json(
        analysis.analyse(session, samples=troll_analysis.samples_for_budget(session, 0.2)))


@pytest.mark.parametrize("drop, mark", [(0.0, ""), (0.049, ""), (0.05, "?!"), (0.1, "?"), (0.149, "?"), (0.15, "??"), (1, "??")])
def test_marks_follow_the_thresholds(drop, mark):
    assert analysis.mark_for(drop) == mark


# ----- the command -----
def replay_of(session, folder, name):
    path = folder / name
    replays.write_replay(session, path)
    return str(path)


@pytest.mark.parametrize("game", [entry.id for entry in CATALOGUE if entry.analyser])
def test_analyse_json_on_a_replay(game, tmp_path, capsys):
    played = {  # a game of each analysed game (a new one adds its own here)
        "dicetower": tower,
        "wager": lambda: wager_game(Wager()),
        "troll": lambda: adviser_game(5, {"difficulty": "standard"}, stop_turn=2,
                                      then=(troll.Move("up"), troll.Move("right"))),
        "bones": bones_game,
        "towers": lambda: towers_game_with_a_late_error()[0],
    }
    session = played[game]()
    path = replay_of(session, tmp_path, f"{game}.dhr")
    assert main(["analyse", path, "--json", "--samples", "2"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["game"] == game
    for decision in document["decisions"]:
        assert list(decision)[:6] == DECISION_FIELDS
        assert set(list(decision)[6:]) <= set(ADDED_FIELDS)
        assert 0 <= decision["chance_played"] <= decision["chance_best"] <= 1
        assert decision["mark"] in ("", "?!", "?", "??")
    for item in document["chance"]:
        assert list(item) == ["event", "luck"]
    if game == "dicetower":
        assert document["decisions"] == [] and len(document["chance"]) == 30
    if game == "wager":
        wagered = next(n for n, e in enumerate(session.events, start=1) if n > 10 and type(e).__name__ == "WagerCalled")
        assert document["decisions"][-1] == {"event": wagered, "played": "wager", "best": "stop",
                                             "chance_played": round(wager_bots.tables().choices(19, 7, 0, 0)[0], 6),
                                             "chance_best": 1.0, "mark": "?!"}
    if game == "troll":  # at 2 samples the noise cannot be told: no mark, the collapse said in words
        assert document["decisions"][-1]["mark"] == ""
        assert document["decisions"][-1]["words"].startswith("ends the game at once: the bridge collapses")
    if game == "bones":
        assert document["decisions"] and document["chance"]
    # the same file, the same samples: the same figures
    assert main(["analyse", path, "--json", "--samples", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == document


def test_analyse_prints_a_line_per_decision_and_a_summary(tmp_path, capsys):
    path = replay_of(wager_game(Wager()), tmp_path, "w.dhr")
    assert main(["analyse", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-4].startswith("5 decisions judged: 0 blunders (??), 0 mistakes (?), 1 inaccuracy (?!); "
                                "the costliest: event 17, wager (6.2% of win chance; best stop)")
    assert lines[4] == "event 17: Ann played wager, win 93.8%; best stop, win 100.0% ?! inaccuracy"
    assert len(lines) == 5 + 1 + 1 + 3  # the decisions, a note, the summary, the report (a line per player, the luck)


def bones_game(seed=1, events=80):
    """Ann (a person, playing the general's moves) against the general, the first `events` events."""
    from dicehall.engine.bots import bones as general

    session = engine.new_session("bones", seed=seed, players=[Player("Ann"), Player("Gen", True, "general")])
    while session.outcome is None and len(session.events) < events:
        session.play(general.choose(session.state, "general", seed, len(session.events)))
    return session


def test_analyse_a_game_without_an_analyser_says_so(tmp_path, capsys, monkeypatch):
    # every game has an analyser now: one taken away shows the path a new game without one takes
    monkeypatch.delitem(analysis.ANALYSERS, "bones")
    session = engine.new_session("bones", seed=1)
    path = replay_of(session, tmp_path, "b.dhr")
    assert main(["analyse", path]) == NO_ANALYSER == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip().splitlines() == [
        "dicehall: War of Bones has no analysis yet (analysed: dicetower, towers, troll, wager)"]


def test_analyse_bad_files_get_the_same_one_line_as_verify(tmp_path, capsys):
    bad = tmp_path / "bad.dhr"
    bad.write_bytes(b"junk")
    assert main(["analyse", str(bad)]) == 1
    analysed = capsys.readouterr().err
    assert main(["verify", str(bad)]) == 1
    assert capsys.readouterr().err == analysed and len(analysed.strip().splitlines()) == 1
    assert main(["analyse", "no such save"]) == 1
    assert capsys.readouterr().err.strip() == "dicehall: no save named 'no such save' (dicehall saves lists them)"


def test_analyse_a_save_by_name_without_changing_it(capsys):
    from dicehall import saves

    session = saves.new_save("dicetower", name="my tower", seed=3)
    for _ in range(4):
        session.play(PullBlock())
    saves.close_save(session)
    before = [(info.id, info.progress) for info in saves.list_saves()]
    assert main(["analyse", "my tower", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [item["event"] for item in document["chance"]] == [2, 4, 6, 8]
    assert [(info.id, info.progress) for info in saves.list_saves()] == before


def test_troll_luck_is_each_turns_awakenings_against_what_the_pair_before_was_expected_to_leave():
    session, result = analysed_adviser_game_5()
    decisions = result.decisions
    rolled = [n for n, e in enumerate(session.events, start=1) if isinstance(e, troll.AwakeningRolled)]
    for luck in result.chance:
        assert luck.event in rolled and not isinstance(session.events[luck.event - 2], troll.AwakeningRolled)
        before = max((d for d in decisions if d.event < luck.event), key=lambda d: d.event)  # the decision before the dice
        after = [d for d in decisions if d.event > luck.event]
        expected = (after[0].chance_best if after else (1.0 if session.state.end in ("won", "perfect") else 0.0))
        assert luck.luck == pytest.approx(expected - before.chance_played)
    assert len(result.chance) >= len(decisions) - 1


# ----- Towers -----
PEOPLE_AND_BOT = (Player("Ann"), Player("Bot", True, "medium"))


@functools.cache  # a few seconds of search: played once a process for the tests that read it
def _late_error_commands() -> tuple:
    """The commands of towers_game_with_a_late_error and its error."""
    from dicehall.engine.analysis import towers as towers_analysis
    from dicehall.engine.bots import towers as towers_bot
    from dicehall.engine.games import towers

    session = engine.new_session("towers", seed=3, players=list(PEOPLE_AND_BOT))
    erred, played = None, []
    while session.outcome is None:
        state = session.state
        command = towers_bot.choose(state, "easy" if state.turn == 0 else "medium", seed=3, nonce=len(session.events))
        if erred is None and state.turn == 0 and state.phase == "movement" and len(towers.legal_commands(state)) <= 12:
            table: dict = {}  # the exact solver's, kept over the position's moves: one solve, not one a move
            judged = [(towers_analysis.margin_after(state, c, table=table), c) for c in towers.legal_commands(state)]
            if all(exact for (_, exact), _ in judged) and len({m for (m, _), _ in judged}) > 1:
                worst = min(judged, key=lambda item: item[0][0])
                erred = (len(session.events) + 1, worst[1], max(m for (m, _), _ in judged) - worst[0][0])
                command = worst[1]
        session.play(command)
        played.append(command)
    assert erred is not None
    return tuple(played), erred


def towers_game_with_a_late_error():
    """Ann (a person) plays the medium bot's moves, except once near the end, where every move's
    margin is exact: there she plays the worst. Returns the session (a fresh one each call) and that
    decision's event."""
    commands, erred = _late_error_commands()
    session = engine.new_session("towers", seed=3, players=list(PEOPLE_AND_BOT))
    for command in commands:
        session.play(command)
    return session, erred


@functools.cache
def towers_late_error_analysis():
    """The analysis of towers_game_with_a_late_error, made once a process for the tests that read it."""
    return analysis.analyse(towers_game_with_a_late_error()[0])


def test_towers_a_move_that_loses_points_at_the_end_is_marked_by_the_exact_margin_lost():
    from dicehall.engine.analysis import towers as towers_analysis

    session, (event, worst, lost) = towers_game_with_a_late_error()
    result = towers_late_error_analysis()
    decision = next(d for d in result.decisions if d.event == event)
    assert decision.played == str(worst) and decision.best != decision.played
    assert decision.mark == analysis.mark_for(lost, towers_analysis.THRESHOLDS) != ""
    assert decision.chance_played in (0.0, 0.5, 1.0)  # exact: the search reached the end
    assert {d.seat for d in result.decisions} == {0}  # the bot's moves are not judged
