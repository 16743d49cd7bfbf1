"""The journal's rulings everywhere a game starts (issue #30): the hall's new-game screen at 80x24 (the
ruling chosen lands in the hall game's options and in play), `sim journal --option` (each ruling
changes the sim's figures as the rule says, and the sim agrees with games played through the
engine), and a bad ruling refused in one line, exit 2, without the usage (play, sim, host)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from dicehall import engine
from dicehall.cli import main
from dicehall.engine.errors import RulingError
from dicehall.engine.games import journal
from dicehall.engine.games.journal import odds
from dicehall.saves.hall import Hall
from dicehall.sims.journal import sim_journal
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, drive_hall, screen_text, status, until
from tests.test_hall_screens import open_host_screen, to_line

GNOME = """[game]
title = "Gnome Fixed"
kings = 3
final_check = "pull"

[[card]]
card = "2H"
prompt = "a quiet day"
"""


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    decks = tmp_path / "hall" / "decks"
    decks.mkdir(parents=True)
    decks.chmod(0o755)  # the admin's: written by nobody else
    (decks / "gnome.toml").write_text(GNOME)
    return Hall(tmp_path / "hall")


# ----- the hall's new-game screen -----

@pytest.mark.parametrize("box_player", [None, "ann"])  # off a box, and on a shared box as ann
def test_the_host_screen_offers_the_rulings_over_the_admins_deck_and_the_choice_lands_in_the_game(hall, box_player,
                                                                                                  monkeypatch):
    if box_player:
        monkeypatch.setenv("DICEHALL_PLAYER", box_player)
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        await to_line(pilot, "game")
        await pilot.press("left")  # wager -> journal (round the list)
        await to_line(pilot, "option:deck")
        await pilot.press("right")  # the sample -> the admin's gnome (by name: no path)
        chosen = status(pilot.app)
        await to_line(pilot, "ruling:kings")
        await pilot.press("left")  # the deck's 3 -> 2
        await to_line(pilot, "ruling:tokens")
        await pilot.press("left")  # 10 -> 9
        await to_line(pilot, "ruling:final_check")
        await pilot.press("right")  # the deck's pull -> none
        await pilot.press("right")  # -> pull again: the deck's own, no ruling
        setup = screen_text(pilot.app)
        await pilot.press("s")
        await until(pilot, lambda: pilot.app.hall_game is not None and hasattr(pilot.app.screen, "session"))
        return chosen, setup, screen_text(pilot.app), pilot.app.screen.session.state

    chosen, setup, table, state = drive_hall(app, steps)
    assert chosen == "deck: Gnome Fixed"
    assert "Deck:           gnome (the admin's deck)" in setup
    assert "The King that ends it: 2  (yours; the deck's: 3)" in setup
    assert "Tokens:         9  (yours; the deck's: 10)" in setup
    assert "Final pull on salvation: pull  (the deck's)" in setup
    assert 'The SRD: "salvation may come with a final pull"' in setup  # the SRD's words for the line under the cursor
    [game] = hall.listing()
    with hall.open(game.id) as opened:
        options = opened.session.options
    assert (options["kings"], options["tokens"], options["deck"]["title"]) == (2, 9, "Gnome Fixed")
    assert "final_check" not in options and options["deck"]["kings"] == 3  # the deck's own kept beside the ruling
    assert (state.deck.settings["kings"], state.deck.settings["tokens"], state.deck.settings["final_check"]) == (2, 9, "pull")
    assert "Kings     0 of 2" in table  # in play


async def journal_with_the_first_admins_deck(pilot) -> None:
    """The hall's new-game screen on the journal, its deck line moved from the sample to the admin's first deck."""
    await open_host_screen(pilot)
    await to_line(pilot, "game")
    await pilot.press("left")
    await to_line(pilot, "option:deck")
    await pilot.press("right")


def test_the_host_screen_says_at_once_when_the_admins_deck_cannot_be_played(hall, tmp_path):
    (tmp_path / "hall" / "decks" / "broken.toml").write_text("[game]\ntitle = \"Broken\"\nkings = 9\n")
    app = DicehallApp()

    async def steps(pilot):
        await journal_with_the_first_admins_deck(pilot)  # sample -> broken (sorted first)
        refused = status(pilot.app)
        setup = screen_text(pilot.app)
        await pilot.press("s")
        return refused, setup, status(pilot.app), type(pilot.app.screen).__name__

    refused, setup, after, screen = drive_hall(app, steps)
    assert refused.endswith("broken.toml line 1: kings is not a whole number from 1 to 4") and "\n" not in refused
    assert "The King that ends it: 4  (the deck's)" in setup  # the SRD's default while the deck cannot be read
    assert after == refused and screen == "HallHostScreen" and hall.listing() == []


# ----- one line, exit 2, no usage -----

@pytest.mark.parametrize("args, line", [
    (["play", "journal", "--option", "kings=9"], "dicehall: --option: kings is not a whole number from 1 to 4"),
    (["play", "journal", "--option", "final_check=maybe"], "dicehall: --option: final_check is not one of none, pull"),
    (["play", "journal", "--option", "speed=3"],
     "dicehall: unknown option 'speed' (known: deck, title, final_check, tokens, kings, deck_out)"),
    (["sim", "journal", "--option", "tokens=0"], "dicehall: --option: tokens is not a whole number from 1 to 20"),
    (["sim", "journal", "--option", "deck_out=shuffle"], "dicehall: --option: deck_out is not one of end, reshuffle"),
    (["sim", "journal", "--option", "colour=red"],
     "dicehall: unknown option 'colour' (known: deck, title, final_check, tokens, kings, deck_out)"),
    (["host", "journal", "--option", "kings=0"], "dicehall: --option: kings is not a whole number from 1 to 4"),
    (["host", "journal", "--option", "final_check=[b]x[/b]"], "dicehall: --option: final_check is not one of none, pull"),
    # issue #30: these were the usage and "is not KEY=VALUE" or "the number ... is too long"
    (["sim", "journal", "--option", "title="], "dicehall: --option: title is empty (the game's name)"),
    (["play", "journal", "--option", "title= "], "dicehall: --option: title is empty (the game's name)"),
    (["sim", "journal", "--option", "tokens=" + "9" * 36], "dicehall: --option: tokens is not a whole number from 1 to 20"),
    (["host", "journal", "--option", "kings=" + "9" * 36], "dicehall: --option: kings is not a whole number from 1 to 4"),
])
def test_a_bad_ruling_is_one_line_exit_2_without_the_usage_and_nothing_is_made(args, line, hall, tmp_path, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [line]
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").rglob("*.dhs"))
    assert hall.listing() == []


def test_a_bad_ruling_is_refused_before_the_deck_is_read(tmp_path, capsys):
    assert main(["sim", "journal", "--deck", str(tmp_path / "missing.toml"), "--option", "kings=5"]) == 2
    assert capsys.readouterr().err == "dicehall: --option: kings is not a whole number from 1 to 4\n"
    with pytest.raises(RulingError, match="not as --option deck"):
        sim_journal(10, 1, "sample", {"deck": "x"})


# ----- the sim under each ruling, against the engine -----

def engine_games(options: dict, games: int) -> tuple[Counter, float]:
    """Whole games through the engine's session (its first legal command each time): the endings and the mean day."""
    endings, days = Counter(), 0
    for seed in range(games):
        session = engine.new_session("journal", seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])
        endings[session.state.ending] += 1
        days += session.state.day
    return endings, days / games


SIM_GAMES = 20000


def sampled(options: dict, games: int = SIM_GAMES, seed: int = 3) -> tuple[Counter, float]:
    state = journal.initial_state(options, ())
    rng = random.Random(seed)
    plays = [odds.playout(state, rng) for _ in range(games)]
    return Counter(play.ending for play in plays), sum(play.days for play in plays) / games


def assert_the_engine_agrees(options: dict, games: int, sim_endings: Counter, endings: tuple[str, ...]) -> None:
    """Games through the engine end as the sim's do: each ending's share within noise of the sim's (4
    standard errors of the engine's few games, and a little)."""
    engine_endings, _ = engine_games(options, games)
    for ending in endings:
        share = sim_endings[ending] / SIM_GAMES
        spread = 4 * (share * (1 - share) / games) ** 0.5 + 0.01
        assert abs(engine_endings[ending] / games - share) < spread, (ending, engine_endings, sim_endings)


def deck_options(text: str, path, **rulings) -> dict:
    path.write_text(text)
    return journal.check_options({"deck": journal.load_deck(str(path)).record(), **rulings})


def before_the_bound(record: dict) -> dict:
    """A deck's record as a game saved before the reshuffles' bound (#30) holds it: without the key, so
    reshuffled without end."""
    return {key: value for key, value in record.items() if key != "reshuffles"}


def test_kings_a_sooner_king_ends_the_sims_games_sooner_as_the_engines():
    report = sim_journal(4000, 1, "sample", {"kings": 1})
    default = sim_journal(4000, 1, "sample")
    assert report["rulings"] == {"kings": 1} and report["endings"]["kings"] > 0.99
    assert report["mean_days"] < default["mean_days"] / 3  # the first King of 4 against the fourth
    options = journal.check_options({"kings": 1})
    _, engine_days = engine_games(options, 200)
    _, sim_days = sampled(options)
    assert abs(engine_days - sim_days) < 0.6, (engine_days, sim_days)  # days' sd is about 2: 4 standard errors


def test_tokens_fewer_tokens_bring_salvation_as_in_the_engine():
    options = journal.check_options({"tokens": 1})
    sim_endings, _ = sampled(options)
    default, _ = sampled(journal.check_options({}), games=5000)
    assert default["salvation"] == 0 and sim_endings["salvation"] / SIM_GAMES > 0.3
    assert_the_engine_agrees(options, 200, sim_endings, ("salvation", "kings"))


TOWER_DECK = """[game]
title = "A Short Tower"
tower_start = 25
"""


def test_final_check_the_final_pull_turns_some_salvations_into_the_towers_as_in_the_engine(tmp_path):
    none = deck_options(TOWER_DECK, tmp_path / "tower.toml", tokens=1)
    pull = deck_options(TOWER_DECK, tmp_path / "tower.toml", tokens=1, final_check="pull")
    sim_none, _ = sampled(none)
    sim_pull, _ = sampled(pull)
    games = SIM_GAMES
    fallen = sim_none["salvation"] - sim_pull["salvation"]  # the last pull fells some towers (a tenth or more)
    assert fallen > 0.1 * sim_none["salvation"] > 50
    assert sim_pull["tower"] - sim_none["tower"] == pytest.approx(fallen, abs=0.02 * games)  # and those are the tower's
    assert_the_engine_agrees(pull, 200, sim_pull, ("salvation", "tower"))


SHORT_DECK = """[game]
title = "Three Kings Short"
deck = "listed"
tokens = 2
tower_start = 40

[[card]]
card = "AH"
prompt = "a light"
""" + "".join(f'\n[[card]]\ncard = "{card}"\nprompt = "a page"\n' for card in ("2H", "4H", "6H", "8H", "3C", "KC", "KD", "KS"))


def test_deck_out_a_reshuffled_deck_plays_on_to_salvation_or_the_tower_as_in_the_engine(tmp_path):
    end = deck_options(SHORT_DECK, tmp_path / "short.toml")
    reshuffle = deck_options(SHORT_DECK, tmp_path / "short.toml", deck_out="reshuffle")
    sim_end, _ = sampled(end)
    sim_reshuffle, _ = sampled(reshuffle)
    games = SIM_GAMES
    assert sim_end["deck"] > 0.5 * games and sim_end["kings"] == 0  # three Kings never make the fourth
    assert sim_reshuffle["salvation"] > 2 * sim_end["salvation"] and sim_reshuffle["deck"] < sim_end["deck"]
    assert_the_engine_agrees(reshuffle, 150, sim_reshuffle, ("salvation", "tower", "deck"))  # the bound's end too


ENDLESS_DECK = """[game]
title = "Endless"
deck = "listed"

[[card]]
card = "2H"
prompt = "a quiet day"

[[card]]
card = "4H"
prompt = "another"
"""


def test_a_reshuffled_deck_that_can_never_end_its_game_is_the_decks_ending_not_a_hang(tmp_path):
    """No King, no pull, no salvation to come: the engine's game would go on for ever; the sim (and
    the side panel's figure) stops at the first reshuffle that brings nothing that can end it."""
    (tmp_path / "endless.toml").write_text(ENDLESS_DECK)  # check_options refuses it: built as a forged save's would be
    options = {"deck": before_the_bound(journal.load_deck(str(tmp_path / "endless.toml")).record()), "deck_out": "reshuffle"}
    endings, days = sampled(options, games=1000)
    assert endings == Counter(deck=1000) and days < 3
    assert odds.tower_odds(journal.initial_state(options, ())) == 0.0


def listed(*cards: str, **settings) -> journal.Deck:
    """A listed deck of `cards` ("2H" or "2S add-token"), reshuffled when it runs out, with `settings`."""
    game = "".join(f"{key} = {value!r}\n".replace("'", '"') for key, value in
                   {"deck": "listed", "deck_out": "reshuffle", **settings}.items())
    rows = "".join(f'[[card]]\ncard = "{card.split()[0]}"\n' + (f'action = "{card.split()[1]}"\n' if " " in card else "")
                   for card in cards)
    return journal.parse_deck(f'[game]\ntitle = "Listed"\n{game}{rows}'.encode(), "listed.toml")


ENDS = [  # (a deck that can end its game, the ending random games show; None: too rare to see, taken all the same)
    (listed("2H", "4H", deck_out="end"), "deck"),  # the deck running out
    (listed("2H", "3H"), "tower"),  # a card that pulls
    (listed("2H", "KS pull"), None),  # a King that pulls, once: a chain of double threes fells any tower
    (listed("2H", "KS", "KH", kings=2), "kings"),  # as many Kings as end it
    (listed("AH", "4H"), "salvation"),  # a card that adds no token: a day of it alone, then a 6
    (listed("AH", "2S add-token", "KS", tokens=2), None),  # the Ace's day and the King's take both tokens
    (listed("AH", "KS", "KH"), "deck"),  # nothing to reshuffle: the Kings and the Ace stay out
]
NEVER = [  # (a deck, the rulings over it) that no card can end
    (listed("2H", "4H"), {}),  # the reviewer's loop.toml
    (listed("2H", "4H", deck_out="end"), {"deck_out": "reshuffle"}),  # so ruled
    (listed("2H", "KS", "KH"), {}),  # two Kings of the four that end it
    (listed("2H", "KS", "KH", kings=2), {"kings": 3}),
    (listed("AH", "2S add-token", "4S add-token", "6S add-token", tokens=20), {}),  # the reviewer's loop3.toml
    (listed("AH", "2S add-token", "KS", tokens=2), {"tokens": 3}),
    (listed("AH add-token", "2S add-token", tokens=1), {}),  # the Ace's own token: 2, only its day takes one
]


def random_game(options: dict, rng: random.Random, steps: int = 3000) -> str:
    """A game through the rules with random chance: its ending, or "" if it has none after `steps` folds."""
    state = journal.initial_state(options, ())
    for _ in range(steps):
        if state.phase == "over":
            return state.ending
        state = rules_step(state, rng)
    return ""


def rules_step(state: journal.JournalState, rng: random.Random) -> journal.JournalState:
    """One step of a game through the rules: the chance it waits for, at random, or its first legal command."""
    need = journal.chance_needed(state)
    if need:
        return journal.evolve(state, journal.chance_event(state, tuple(rng.randrange(n) for n in need.spec), False))
    for event in journal.decide(state, journal.legal_commands(state)[0]):
        state = journal.evolve(state, event)
    return state


@pytest.mark.parametrize("deck, ending", ENDS, ids=[str(n) for n in range(len(ENDS))])
def test_a_deck_that_can_end_its_game_is_taken_and_a_game_of_it_ends(deck, ending):
    options = journal.check_options({"deck": before_the_bound(deck.record())})  # what its cards can do, without the bound
    rng = random.Random(1)  # one of its first 100 games ends so: looked at game by game, stopping at the first
    assert ending is None or any(random_game(options, rng) == ending for _ in range(100)), ending


@pytest.mark.parametrize("deck, rulings", NEVER, ids=[str(n) for n in range(len(NEVER))])
def test_a_deck_and_rulings_no_card_can_end_are_refused_in_one_line(deck, rulings):
    with pytest.raises(RulingError) as refused:
        journal.check_options({"deck": deck.record(), **rulings})
    assert str(refused.value).startswith("no card ends this deck: reshuffled, it needs ")
    assert "\n" not in str(refused.value)
    rng = random.Random(2)  # the refusal is true: games of it, forged past it, go on (without the bound) ...
    assert {random_game({"deck": before_the_bound(deck.record()), **rulings}, rng, steps=1000) for _ in range(10)} == {""}
    # ... or end only as the deck runs out after its last reshuffle (the bound)
    assert {random_game({"deck": deck.record(), **rulings}, rng, steps=1000) for _ in range(10)} == {"deck"}


def test_an_endless_ruling_is_one_line_exit_2_on_the_command_line(hall, tmp_path, capsys):
    two = str(tmp_path / "two.toml")
    (tmp_path / "two.toml").write_text('[game]\ntitle = "Two"\ndeck = "listed"\n[[card]]\ncard = "2H"\n[[card]]\ncard = "4H"\n')
    assert main(["sim", "journal", "--deck", two, "--games", "10"]) == 0
    capsys.readouterr()
    line = "no card ends this deck: reshuffled, it needs 4 Kings, a card that pulls, or the Ace of hearts and a card adding no token"
    for args, code, said in ((["sim", "journal", "--deck", two], 2, f"dicehall: {line}"),
                             (["play", "journal", "--option", f"deck={two}"], 2, f"dicehall: {line}"),
                             (["host", "journal", "--option", f"deck={two}"], 1, f"dicehall: the new game: {line}")):
        assert main([*args, "--option", "deck_out=reshuffle"]) == code, args
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.splitlines() == [said], args
    assert hall.listing() == [] and not any((tmp_path / "home").rglob("*.dhs"))


TWO_CARDS = '[game]\ntitle = "Two"\ndeck = "listed"\n[[card]]\ncard = "2H"\n[[card]]\ncard = "4H"\n'


def test_the_host_screen_says_an_endless_ruling_when_it_is_chosen_and_makes_no_game(hall, tmp_path):
    (tmp_path / "hall" / "decks" / "endless.toml").write_text(TWO_CARDS)  # sorted before gnome
    app = DicehallApp()

    async def steps(pilot):
        await journal_with_the_first_admins_deck(pilot)  # sample -> endless: it ends (the deck running out)
        chosen = status(pilot.app)
        await to_line(pilot, "ruling:deck_out")
        await pilot.press("right")  # end -> reshuffle: no card can end it
        ruled = status(pilot.app)
        await pilot.press("s")
        return chosen, ruled, status(pilot.app), type(pilot.app.screen).__name__

    chosen, ruled, after, screen = drive_hall(app, steps)
    assert chosen == "deck: Two"
    assert ruled.startswith("Not now: no card ends this deck: reshuffled, it needs 4 Kings") and "\n" not in ruled
    assert after.endswith(ruled.removeprefix("Not now: ")) and screen == "HallHostScreen" and hall.listing() == []


def test_the_launchers_setup_says_an_endless_ruling_when_it_is_chosen_and_at_start(tmp_path, monkeypatch):
    from dicehall.tui.screens.journal_setup import JournalSetupScreen
    from tests.test_journal_writer import to_line as to_setup_line

    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    deck = journal.parse_deck(TWO_CARDS.encode(), "two.toml").record()

    async def steps(pilot):
        pilot.app.push_screen(JournalSetupScreen(deck=deck))
        await to_setup_line(pilot, "deck_out")
        before = status(pilot.app)
        await pilot.press("right")
        ruled = status(pilot.app)
        await pilot.press("s")
        await pilot.pause()
        return before, ruled, status(pilot.app), type(pilot.app.screen).__name__

    before, ruled, after, screen = drive(DicehallApp(), steps)
    assert "no card ends" not in before
    assert ruled.startswith("Not now: no card ends this deck: reshuffled, it needs 4 Kings, a card that pulls")
    assert "no card ends" in after and screen == "JournalSetupScreen"
    assert not any((tmp_path / "home").rglob("*.dhs"))


def test_host_on_the_command_line_takes_the_rulings_over_the_admins_deck(hall, monkeypatch, capsys):
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")  # on a box: the admin's deck by name
    assert main(["host", "journal", "--option", "deck=gnome", "--option", "kings=2", "--option", "deck_out=reshuffle"]) == 0
    assert "hosted Journal as" in capsys.readouterr().out
    [game] = hall.listing()
    with hall.open(game.id) as opened:
        settings = opened.session.state.deck.settings
        options = opened.session.options
    assert (settings["kings"], settings["deck_out"], settings["final_check"]) == (2, "reshuffle", "pull")
    assert (options["kings"], options["deck_out"], options["deck"]["title"]) == (2, "reshuffle", "Gnome Fixed")


PULLS_ONLY_DECK = """[game]
title = "Pulls Only"
deck = "listed"
tower_start = 60

[[card]]
card = "3H"
prompt = "a pull"

[[card]]
card = "4H"
prompt = "a quiet day"
"""


def test_a_reshuffled_deck_that_only_the_tower_can_end_gets_its_figure_from_the_towers_exact_chain(tmp_path):
    """The side panel's figure samples the pulls without a tower: no King or salvation ever ends this
    game, so once there have been as many pulls as the countdown (each one takes at least one) the
    tower has certainly fallen, and the playout stops there instead of reshuffling for ever."""
    options = deck_options(PULLS_ONLY_DECK, tmp_path / "pulls.toml", deck_out="reshuffle")
    options["deck"] = before_the_bound(options["deck"])  # a game saved before the bound: the tower alone ends it
    state = journal.initial_state(options, ())
    assert odds.tower_odds(state, games=200) == pytest.approx(1.0)
    assert {odds.playout(state, random.Random(seed), tower=False).pulls for seed in range(20)} == {60}
    endings, _ = sampled(options, games=200)
    assert endings == Counter(tower=200)
