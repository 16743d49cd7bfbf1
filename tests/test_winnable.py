"""Winnable troll deals (`--option winnable=true`, the setup's Winnable line): only deals the
hindsight solver proves winnable, the seed chosen in order from the given one, deterministically,
recorded so that a save or replay deals again without searching (engine/analysis/winnable.py)."""
from __future__ import annotations

from datetime import date

import pytest

from dicehall import engine, replays, saves
from dicehall.cli import main
from dicehall.engine.analysis import troll_solver, winnable
from dicehall.engine.chance import daily_seed
from dicehall.engine.errors import OptionError
from dicehall.engine.games import troll
from dicehall.tui.app import DicehallApp
from tests.apphelpers import daily_day, drive, screen_text, until

SEEDS = [7 + 1_000_003 * i for i in range(20)]  # spread out, not neighbours (a neighbour may pick the same seed)


def deck_of(seed: int, options: dict | None = None) -> tuple:
    """The deal of a seed: the deck order the shuffle gave."""
    session = engine.new_session("troll", seed=seed, options=options or {})
    return next(e.order for e in session.events if isinstance(e, troll.DeckShuffled))


def test_twenty_seeds_give_deals_the_solver_proves_winnable():
    for start in SEEDS:
        deal = winnable.choose("troll", start, {})
        assert deal.seed == winnable.candidate(start, deal.tried - 1) and 1 <= deal.tried <= winnable.MAX_SEEDS
        game = engine.new_session("troll", seed=deal.seed, options=deal.options)
        solution = winnable.prove("troll", deal.seed, deal.options)  # the solver's answer choose took (kept, not searched again)
        assert solution.winnable is True and solution.at_start  # solve replays the line to a win before it answers
        # the game as dealt with the winnable options says so too: the line played in it is a win
        assert troll.result(troll_solver.line_session(game, solution).state, 0).won


def test_the_same_seed_gives_the_same_deal():
    winnable.forget()  # both searched here, not one remembered from another test
    first = winnable.choose("troll", 98, {})
    winnable.forget()
    again = winnable.choose("troll", 98, {})
    assert first == again
    assert deck_of(first.seed, first.options) == deck_of(again.seed, again.options)
    # pinned: seed 98's deal is not proved within the budget, so 99 is dealt (a change of the
    # derivation or the bound changes every winnable game's deal, and fails here)
    assert (first.seed, first.start, first.tried) == (99, 98, 2)
    assert first.options["winnable"] is True and first.options["winnable_from"] == 98


def test_the_winnable_options_do_not_change_the_deal_of_a_seed():
    deal = winnable.choose("troll", 12, {"difficulty": "sturdy"})
    assert deck_of(deal.seed, deal.options) == deck_of(deal.seed, {"difficulty": "sturdy"})


def test_no_deal_proved_within_the_bound_is_one_line_and_no_game():
    with pytest.raises(winnable.NoWinnableDeal) as caught:
        winnable.choose("troll", 98, {}, max_seeds=1)
    assert str(caught.value) == ("no winnable deal found: the solver proved none of the 1 seeds from 98 winnable "
                                 "within 20,000 positions each; play without winnable=true or choose an easier "
                                 "difficulty")


def test_ruling_winnable_needs_the_searched_seed_and_refuses_a_dealt_deck():
    with pytest.raises(OptionError, match="chosen by a search before the game starts"):
        troll.check_options({"winnable": True})
    with pytest.raises(OptionError, match="winnable_from goes only with winnable=true"):
        troll.check_options({"winnable_from": 5})
    with pytest.raises(OptionError, match="cannot go with deck"):
        winnable.choose("troll", 5, {"deck": list(deck_of(5))})
    with pytest.raises(OptionError, match="give the seed"):
        winnable.choose("troll", 5, {"winnable_from": 9})
    with pytest.raises(OptionError, match="Dice Tower has none"):
        winnable.choose("dicetower", 5, {})
    assert troll.check_options({"winnable": False}) == troll.check_options({})  # false leaves the options as they were


def test_the_title_label_says_the_deal_was_chosen():
    deal = winnable.choose("troll", 3, {"difficulty": "tutorial"})
    assert troll.game_label(deal.options) == "tutorial, winnable deal"


def test_the_rules_text_states_the_bound():
    text = " ".join(troll.RULES_TEXT.split())
    assert f"proved within {winnable.SEED_BUDGET:,} positions" in text
    assert f"after {winnable.MAX_SEEDS} seeds without a proof" in text


def test_a_save_and_its_replay_deal_again_without_searching(tmp_path, monkeypatch):
    deal = winnable.choose("troll", 98, {})
    session = saves.new_save("troll", seed=deal.seed, options=deal.options, players=saves.solo_players())
    deck = deck_of(deal.seed)
    saves.close_save(session)
    path = saves.export_save(session.labels.save_id, tmp_path / "w.dhr")

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(winnable, "choose", no_search)
    reopened = saves.open_save(session.labels.save_id)
    assert reopened.seed == 99 and reopened.options["winnable_from"] == 98
    assert next(e.order for e in reopened.events if isinstance(e, troll.DeckShuffled)) == deck
    saves.close_save(reopened)
    replay = replays.read_replay(path)
    assert replay.seed == 99 and next(e.order for e in replay.events if isinstance(e, troll.DeckShuffled)) == deck
    lines = replays.verify(path).splitlines()
    assert lines[-1].startswith("winnable deal: seed 99 is seed 98 + 1; the solver proves it winnable (")


def test_verify_refuses_a_winnable_seed_the_search_could_not_have_chosen(tmp_path, capsys):
    crafted = engine.new_session("troll", seed=500, options=troll.check_options({"winnable": True, "winnable_from": 400}))
    replays.write_replay(crafted, tmp_path / "crafted.dhr")
    assert main(["verify", str(tmp_path / "crafted.dhr")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the winnable deal's seed 500 is not one of the 5 seeds a search from seed 400 tries" in err


@pytest.fixture
def opened(monkeypatch):
    apps = []
    monkeypatch.setattr(DicehallApp, "run", lambda app: apps.append(app))  # no terminal in a test
    monkeypatch.setattr("dicehall.cli.terminal.missing_terminal", lambda: None)  # as if on one
    return apps


def test_the_option_through_the_command_line(opened):
    assert main(["play", "troll", "--seed", "98", "--option", "winnable=true"]) == 0
    session = opened[-1].start_session
    assert (session.seed, session.options["winnable"], session.options["winnable_from"]) == (99, True, 98)
    assert session.labels.notice == ("a winnable deal: seed 99 (1 before it not proved from 98); the solver proved a win "
                              "with hindsight")
    saves.close_save(session)
    info = saves.list_saves()[0]
    assert info.name == "Standard, winnable deal"


def test_todays_winnable_deal_through_the_command_line(opened):
    began = date.today().isoformat()
    assert main(["play", "troll", "--daily", "--option", "winnable=1"]) == 0
    session = opened[-1].start_session
    today = daily_day(session.labels.save_name, began)
    expected = winnable.choose("troll", daily_seed("troll", today), {})
    assert session.seed == expected.seed and session.options["winnable_from"] == daily_seed("troll", today)
    assert session.labels.save_name == f"daily {today}, winnable"
    saves.close_save(session)


def test_the_command_line_refuses_winnable_where_it_cannot_be(capsys, opened):
    from tests.test_cli import usage_error

    assert usage_error(["play", "dicetower", "--option", "winnable=true"], capsys) == (
        "dicehall: winnable deals need a hindsight solver, and Dice Tower has none")
    assert usage_error(["play", "wager", "--option", "winnable=true"], capsys).startswith(
        "dicehall: unknown option 'winnable'")
    assert usage_error(["play", "troll", "--option", "winnable=maybe"], capsys) == (
        "dicehall: winnable must be true or false")
    assert opened == [] and saves.list_saves() == []


def test_no_proof_within_the_bound_through_the_command_line(capsys, opened, monkeypatch):
    monkeypatch.setattr(winnable, "MAX_SEEDS", 1)
    assert main(["play", "troll", "--seed", "98", "--option", "winnable=true"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dicehall: no winnable deal found: the solver proved none of the 1 seeds from 98")
    assert err.count("\n") == 1 and opened == [] and saves.list_saves() == []


def test_the_setup_screen_deals_a_winnable_deal():
    from dicehall.tui.screens.troll import TrollScreen, TrollSetupScreen

    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "down", "enter")  # the launcher: the troll is the third game
        assert isinstance(app.screen, TrollSetupScreen)
        app.screen.seed = 98  # as `dicehall play` gives a seed: the search starts there
        await pilot.press("down", "down", "down", "enter")  # Winnable: no -> yes
        setup = screen_text(app)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TrollScreen))
        await pilot.pause()
        return app.screen.session, setup, screen_text(app)

    session, setup, screen = drive(DicehallApp(), steps)
    assert "Winnable:   yes" in setup
    assert (session.seed, session.options["winnable_from"]) == (99, 98)
    assert "standard, winnable deal: turn 1" in screen  # the title says the deal was chosen so
    assert "a winnable deal: seed 99" in screen
    saves.close_save(session)


def test_the_setup_screen_deals_todays_winnable_deal():
    from dicehall.tui.screens.troll import TrollScreen

    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "down", "enter")
        await pilot.press("down", "down", "enter")  # deal: today's
        await pilot.press("down", "enter")  # winnable: yes
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TrollScreen))
        return app.screen.session

    began = date.today().isoformat()
    session = drive(DicehallApp(), steps)
    today = daily_day(session.labels.save_name, began)
    assert session.options["winnable_from"] == daily_seed("troll", today)
    assert session.seed == winnable.choose("troll", daily_seed("troll", today), {}).seed
    assert session.labels.save_name == f"daily {today}, winnable"
    saves.close_save(session)


def test_ruling_the_hall_deals_no_winnable_deal(tmp_path, capsys, monkeypatch):
    # a hall game's seed is secret; winnable_from would say where it lies (and with it given by hand,
    # the title would claim a search that never ran)
    from dicehall.saves.hall import Hall

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    folder = tmp_path / "hall"
    for extra in ([], ["--option", "winnable_from=5"]):
        assert main(["--hall", str(folder), "host", "troll", "--option", "winnable=true", *extra]) == 1
        err = capsys.readouterr().err
        assert err == ("dicehall: the new game: winnable deals are not dealt in the hall: its seed is secret, and a "
                       "winnable deal's options would tell where the search for it began\n")
    assert Hall(folder).listing() == []


def test_a_stopped_search_is_one_line():
    winnable.forget()  # a search to stop: no answer remembered from another test
    with pytest.raises(OptionError, match="the search for a winnable deal was stopped"):
        winnable.choose("troll", 98, {}, should_stop=lambda: True)
