"""A deal's code (engine/deals.py): `troll:standard:SEED` with the options packed, for every game in
the catalogue; `dicehall play --deal CODE` opens it, a game's title bar and `dicehall saves` show
it, and a bad code is one line with the usage."""
from __future__ import annotations

import pytest

from dicehall import engine, saves
from dicehall.cli import main
from dicehall.engine.core import Player
from dicehall.engine.deals import DealCodeError, deal_code, read_deal
from dicehall.engine.games import CATALOGUE, entry_of, get_game
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text

PLAYABLE = [entry.id for entry in CATALOGUE if entry.playable]
# for each game, options away from its defaults (a new game needs a line here: the test below says so)
CHANGED = {
    "dicetower": {"start": 60, "advantage_from": 30},
    "wager": {"play_on": True},
    "troll": {"difficulty": "sturdy", "toys": True},
    "towers": {"first": "dark", "match": True},
    "bones": {"no_premeasure": True},
    "journal": {"deck": "sample"},  # the sample deck (its default): a deck of one's own has no code (below)
}
PLAYERS = {"wager": [Player("Ada"), Player("Bot 2", True, "best")], "towers": [Player("Ada"), Player("Bo")],
           "bones": [Player("Ada"), Player("Bo")]}


def test_every_game_has_options_to_try():
    assert set(CHANGED) == set(PLAYABLE)


@pytest.mark.parametrize("game", PLAYABLE)
@pytest.mark.parametrize("changed", [False, True], ids=["defaults", "changed"])
def test_a_code_reads_back_to_the_same_deal(game, changed):
    module = get_game(game)
    options = module.check_options(CHANGED[game] if changed else {})
    seed = 2**63 - 1 if entry_of(game).deal_seeded else 0
    code = deal_code(game, seed, options)
    deal = read_deal(code)
    assert (deal.game, deal.seed, deal.options) == (game, seed, options)
    assert deal_code(deal.game, deal.seed, deal.options) == code  # one deal, one code
    assert len(code) <= 60 and code.startswith(f"{game}:" if changed or entry_of(game).deal_lead or
                                               entry_of(game).deal_seeded else game)


def test_the_codes_read_as_people_write_them():
    assert deal_code("troll", 123456, {}) == "troll:standard:123456"
    assert deal_code("troll", 42, {"difficulty": "sturdy", "toys": True}) == "troll:sturdy+toys:42"  # toys implies its aces
    assert deal_code("troll", 1, {"heights": [5, 4, 3, 3, 4, 5]}) == "troll:tutorial:1"
    assert deal_code("dicetower", 7, {"start": 60}) == "dicetower:start=60:7"
    assert deal_code("wager", 9, {}) == "wager:9"
    assert deal_code("towers", 9, {"match": True}) == "towers:match"  # Towers has no dice: no seed
    assert read_deal("TROLL:custom+heights=2.2.2.2.2.2:5").options["heights"] == [2, 2, 2, 2, 2, 2]


def test_a_dealt_troll_deck_round_trips():
    from dicehall.engine.games.troll.bridge import FULL_DECK

    deck = list(reversed(FULL_DECK))
    options = get_game("troll").check_options({"deck": deck})
    code = deal_code("troll", 3, options)
    assert read_deal(code).options == options and len(code) < 200


BAD_CODES = {
    "": "deal code: it is empty (a code looks like troll:standard:123456)",
    "troll": "deal code: it is GAME:OPTIONS:SEED or GAME:SEED (like troll:standard:123456)",
    "troll:a:b:c": "deal code: it is GAME:OPTIONS:SEED or GAME:SEED (like troll:standard:123456)",
    "chess:1": "deal code: no game 'chess' (games: dicetower, wager, troll, towers, bones, journal)",
    "troll:standard:-1": "deal code: the seed '-1' is not a whole number from 0 to 2**63-1",
    "troll:standard:9223372036854775808": "deal code: the seed '9223372036854775808' is not a whole number from 0 to 2**63-1",
    "troll:huge:5": "deal code: difficulty must be standard, sturdy, tutorial or custom",
    "troll:standard+toys+starting_card:5":
        "deal code: starting_card cannot go with club_at_start or toys: the troll's hands are full",
    "troll:toys+toys:1": "deal code: toys is given twice",
    "troll:heights=a.b:1": "deal code: heights must be six whole numbers of 1 or more",
    "dicetower:start=0:1": "deal code: start must be a whole number from 1 to 10000",
    "dicetower:colour=red:1": "deal code: unknown option 'colour' (known: start, advantage_from)",
    "wager:+:1": "deal code: an empty option in wager's options",
    "towers:match:5": "deal code: Towers has no dice, so its code has no seed (towers or towers:OPTIONS)",
    "troll:\x1b[2J:1": "deal code: character 7 ('\\x1b') is not in any deal code (letters, digits and _ . = + - : only)",
    "troll:[bold]:1": "deal code: character 7 ('[') is not in any deal code (letters, digits and _ . = + - : only)",
    "x" * 5000: "deal code: 5000 characters, more than a deal code has (400 at most)",
}


@pytest.mark.parametrize("code", BAD_CODES, ids=range(len(BAD_CODES)))
def test_a_bad_code_is_one_line(code):
    with pytest.raises(DealCodeError) as caught:
        read_deal(code)
    assert str(caught.value) == BAD_CODES[code]


def test_play_with_a_bad_code_gives_the_usage_and_one_line(capsys):
    for code, args in [("troll:huge:5", []), ("troll:standard:5", ["--seed", "3"]), ("troll:standard:5", ["wager"])]:
        with pytest.raises(SystemExit) as caught:
            main(["play", *args, "--deal", code])
        assert caught.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[0].startswith("usage: dicehall play")  # the usage, then one line saying what is wrong
        assert [line for line in err if not line.startswith((" ", "usage:"))] == [err[-1]]
        assert err[-1].startswith("dicehall: ")
    assert "difficulty must be standard" in (main_error(["play", "--deal", "troll:huge:5"], capsys))
    assert "no --seed, --daily or --option with it" in main_error(["play", "--seed", "3", "--deal", "wager:1"], capsys)
    assert "the deal code is for troll, not wager" in main_error(["play", "wager", "--deal", "troll:standard:5"], capsys)
    assert "name a game, or give a deal code" in main_error(["play"], capsys)


def main_error(argv, capsys) -> str:
    with pytest.raises(SystemExit):
        main(argv)
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.fixture
def opened(monkeypatch):
    """What `play` would open, instead of opening it (no terminal in the tests)."""
    import dicehall.cli.screens as screens

    started = {}
    monkeypatch.setattr(screens.terminal, "missing_terminal", lambda: None)
    monkeypatch.setattr(screens, "run_app", lambda args, **start: started.update(start) or 0)
    return started


@pytest.mark.parametrize("game", PLAYABLE)
def test_play_deal_opens_the_deal_of_every_game(game, opened):
    module = get_game(game)
    options = module.check_options(CHANGED[game])
    seed = 31337 if entry_of(game).deal_seeded else 0
    assert main(["play", "--deal", deal_code(game, seed, options)]) == 0
    if entry_of(game).several_players:  # the setup screen asks who plays, with the deal's seed and options
        screen = opened["setup"]
        assert screen is not None
        shown = drive(DicehallApp(setup=screen), lambda pilot: _start_setup(pilot))
        session = shown
    else:
        session = opened["session"]
        saves.close_save(session)
    assert (session.seed, session.options) == (seed, options)


async def _start_setup(pilot):
    await pilot.press("s")
    await pilot.pause()
    return pilot.app.screen.session


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_title_bar_shows_the_code_and_saves_lists_it(game, capsys):
    seed = 5 if entry_of(game).deal_seeded else 0
    session = saves.new_save(game, name="d", seed=seed, options=CHANGED[game], players=PLAYERS.get(game))
    code = deal_code(game, seed, session.options)

    async def steps(pilot):
        return screen_text(pilot.app).splitlines()[0]

    title = drive(DicehallApp(session=session), steps)
    assert title.rstrip().endswith(f" {code}")
    assert read_deal(title.split()[-1]).options == session.options
    assert main(["saves"]) == 0
    assert f"deal {code}" in capsys.readouterr().out


def test_a_hall_game_keeps_its_secret_seed_out_of_the_title():
    from dicehall.tui.screens.base import session_deal

    class Hidden(engine.Session):
        seed_shown = "secret until the end"

    hidden = Hidden(get_game("troll"), seed=5, options={}, players=(), dice=[])
    assert session_deal(hidden) is None
    assert session_deal(engine.new_session("troll", seed=5)) == "troll:standard:5"


def test_a_towers_code_has_no_seed_since_its_seed_decides_nothing():
    assert deal_code("towers", 12345, {}) == "towers"
    assert read_deal("towers").seed == 0


def test_the_title_shows_the_code_only_where_the_games_own_words_leave_room():
    from dicehall.tui.screens.base import with_deal

    session = engine.new_session("troll", seed=5)
    assert with_deal("Troll: x", session, 40) == "Troll: x" + " " * 16 + "troll:standard:5"
    long = "Troll: " + "y" * 60
    assert with_deal(long, session, 78) == long  # the game's words first: no room, no code


def test_a_journal_of_ones_own_deck_has_no_code_and_says_to_share_the_replay():
    from dicehall.engine.deals import DealCodeError, deal_code
    from dicehall.engine.games import journal

    record = dict(journal.sample_deck().record(), title="My own deck")  # a deck of one's own
    options = get_game("journal").check_options({"deck": record})
    with pytest.raises(DealCodeError, match="has no deal code: share its replay"):
        deal_code("journal", 5, options)
    assert deal_code("journal", 5, get_game("journal").check_options({})) == "journal:5"
