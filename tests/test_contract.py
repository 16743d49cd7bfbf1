"""Every game keeps the written contract of a game module (engine/contract.py): the names the
session, the codec, saves, replays and the screens ask of it, with the parameters they pass, and the
optional hooks with theirs, and its bots the one Bot shape. The next game is checked by being in the
catalogue (tests/test_adding_a_game.py adds one that way)."""
from __future__ import annotations

import types

import pytest

from dicehall import engine
from dicehall.engine.contract import OPTIONAL_HOOKS, REQUIRED_NAMES, Bot, GameModule, bot_faults, missing
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE

PLAYABLE = [entry for entry in CATALOGUE if entry.playable]


@pytest.mark.parametrize("entry", PLAYABLE, ids=lambda e: e.id)
def test_every_game_keeps_the_contract(entry):
    module = engine.get_game(entry.id)
    assert isinstance(module, GameModule)
    assert missing(module) == []
    assert module.ID == entry.id
    assert all(isinstance(cls, type) and name == cls.__name__ for name, cls in module.EVENTS.items())


@pytest.mark.parametrize("entry", PLAYABLE, ids=lambda e: e.id)
def test_every_game_starts_and_lists_its_commands_through_the_contract(entry):
    module = engine.get_game(entry.id)
    session = engine.new_session(entry.id, seed=1, players=[f"P{n}" for n in range(entry.seats[0])])
    assert isinstance(module.progress(session.state), str)
    if session.chance_needed is None and session.outcome is None:
        for command in session.commands():
            assert module.parse_command(str(command)) == command


@pytest.mark.parametrize("entry", PLAYABLE, ids=lambda e: e.id)
def test_the_catalogue_seats_are_what_the_game_accepts(entry):
    module = engine.get_game(entry.id)
    fewest, most = entry.seats
    for count in range(fewest, most + 1):
        assert len(module.check_players(tuple(Player(f"P{n}") for n in range(count)))) == count
    for count in (fewest - 1, most + 1):
        if count > 0:
            with pytest.raises(ValueError):
                module.check_players(tuple(Player(f"P{n}") for n in range(count)))


@pytest.mark.parametrize("entry", PLAYABLE, ids=lambda e: e.id)
def test_every_game_s_bots_keep_the_one_shape_and_play_its_bot_seats(entry):
    module = engine.get_game(entry.id)
    assert bot_faults(entry.bots) == [] and all(isinstance(bot, Bot) for bot in entry.bots.values())
    assert set(getattr(module, "BOT_STYLES", ())) <= set(entry.bots)  # every style a seat may play is a bot
    if entry.bots:  # each plays a legal command of a new game, from the catalogue alone
        session = engine.new_session(entry.id, seed=1, players=[Player(f"P{n}") for n in range(entry.seats[0])])
        for bot in entry.bots.values():
            assert bot(session.state, 1, 0) in session.commands()


def test_a_bot_of_another_shape_is_named():
    faults = bot_faults({"fast": lambda state: None, "odd": "easy", "fine": lambda state, seed, nonce: None})
    assert faults == ["bot 'fast' takes state; a bot is called with state, seed, nonce", "bot 'odd' is not a function"]


def test_the_contract_names_what_a_module_lacks_or_takes_wrongly():
    stub = types.ModuleType("stub")
    stub.ID = "stub"
    stub.is_turn_start = lambda state, event: True
    faults = missing(stub)
    assert "no TITLE" in faults and "no decide" in faults and "no result" in faults
    assert not isinstance(stub, GameModule)
    assert "is_turn_start takes state, event; the contract passes event" in faults
    assert set(OPTIONAL_HOOKS).isdisjoint(REQUIRED_NAMES)
    stub.HOST_CHOICES = (("start", "Countdown from", (100, 60), ("100",)),)
    stub.BOT_STYLES = ["easy"]
    faults = missing(stub)
    assert "HOST_CHOICES: each is (key, label, values, words), a word for every value" in faults
    assert "BOT_STYLES is not a tuple" in faults


@pytest.mark.parametrize("entry", PLAYABLE, ids=lambda e: e.id)
def test_what_hosting_offers_is_what_the_game_accepts(entry):
    # the hall's new-game screen offers these: each bot style seats a bot, each choice is an option
    module = engine.get_game(entry.id)
    fewest, _ = entry.seats
    for style in getattr(module, "BOT_STYLES", ()):
        seated = module.check_players(tuple(Player(f"P{n}", n > 0, style if n > 0 else "") for n in range(max(2, fewest))))
        assert seated[1].style == style
    assert len(getattr(module, "SEAT_NAMES", ())) in (0, entry.seats[1])
    for key, _label, values, _words in getattr(module, "HOST_CHOICES", ()):
        for value in values:
            if key == "variant":
                options = {} if value == "none" else {value: True}
            else:
                options = {key: value}
            assert module.check_options(options)  # OptionError if the screen offered what the game refuses


def test_every_game_has_its_screens_in_the_terminal():
    from dicehall.tui.screens.games import SCREENS

    assert set(SCREENS) == {entry.id for entry in PLAYABLE}
    for screens in SCREENS.values():  # a hall screen is the game's own screen with the hall's keys first
        assert issubclass(screens.hall, screens.play) and screens.hall.__name__ == f"Hall{screens.play.__name__}"


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.simulator or e.bot_module], ids=lambda e: e.id)
def test_every_sim_is_found_through_the_catalogue_and_reports_its_game(entry):
    import json

    from dicehall import sims

    # the quickest bots where the game has bots called random (a hard Towers game takes half a minute)
    options = {"bots": ["random", "random"]} if "random" in entry.bots and "bots" in entry.sim_defaults else {}
    report = json.loads(sims.run(entry.id, 1, 3, options, as_json=True))  # the entry's defaults fill the options
    assert report["game"] == entry.id and report["games"] == 1
    words = sims.run(entry.id, 1, 3, options, as_json=False)
    assert words.startswith(f"{entry.id}: ") and "1 game," in words.splitlines()[0]


def test_every_playable_game_has_a_sim():
    # its own (dicehall/sims/GAME.py), or its bots in every seat (dicehall/sims/bots.py)
    assert [e.id for e in CATALOGUE if e.playable and not ((e.simulator or e.bot_module) and e.sim_options)] == []
