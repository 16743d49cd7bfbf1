"""The journal's odds and playouts: the next pull's chance is the Dice Tower's exact one, the
whole game's figure is a repeatable simulation that agrees with games played through the engine;
and properties over random legal playouts (they end; save, load and replay fold to the live state;
undo then redo is the identity)."""
from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from dicehall import engine, replays, saves
from dicehall.engine.games import dicetower, journal
from dicehall.engine.games.journal import odds, pulls
from dicehall.engine.games.journal import AmendEntry, SkipEntry, WriteEntry


def test_one_pull_enumerated_through_the_dice_tower_matches_its_exact_chain():
    for countdown in range(1, 101):
        for remove in (False, True):
            outcomes = dict(pulls.after_pull(countdown, 51, remove))
            assert abs(sum(outcomes.values()) - 1) < 1e-12
            assert abs(outcomes.get(0, 0.0) - float(dicetower.topple_chance(countdown, 51, remove))) < 1e-12


def test_the_next_pull_chance_is_exact_and_says_remove_where_the_card_does():
    session = engine.new_session("journal", seed=1, options=tower_deck(5), dice=[1])
    session.play(journal.StartDay())
    session.play(journal.DrawCard("10D"))
    assert session.state.pull_due == "remove"
    assert odds.next_pull_chance(session.state) == dicetower.topple_chance(5, remove=True)


def tower_deck(start, **more):
    record = journal.sample_deck().record()
    record["cards"] = [["10D", "remove", "remove"]]
    record.update(tower_start=start, **more)
    return journal.check_options({"deck": record})


def test_the_whole_games_figure_repeats_and_is_certain_at_an_end():
    state = journal.initial_state(journal.check_options({}), ())
    assert odds.tower_odds(state, games=300) == odds.tower_odds(state, games=300)
    session = engine.new_session("journal", seed=1, options=tower_deck(3), dice=[1, 6, 6])
    session.play(journal.StartDay())
    session.play(journal.DrawCard("3C"))
    session.play(journal.PullBlock())
    assert session.state.ending == "tower" and odds.tower_odds(session.state) == 1.0


def test_the_playouts_agree_with_games_played_through_the_engine():
    """A short tower (75), so that the tower and the Kings both end games often."""
    options = tower_deck(75)
    engine_endings = Counter()
    games = 150
    for seed in range(games):
        session = engine.new_session("journal", seed=seed, options=options)
        while session.outcome is None:
            session.play(session.commands()[0])
        engine_endings[session.state.ending] += 1
    state = journal.initial_state(options, ())
    rng = random.Random(5)
    sampled = Counter(odds.playout(state, rng).ending for _ in range(20000))
    for ending in ("tower", "kings"):
        p = sampled[ending] / 20000
        spread = 4 * (p * (1 - p) / games) ** 0.5 + 0.01
        assert abs(engine_endings[ending] / games - p) < spread, (ending, engine_endings, sampled)
    assert 0.3 < sampled["tower"] / 20000 < 0.7


def test_the_panels_figure_weighs_sampled_pull_counts_with_the_towers_exact_chain():
    record = journal.sample_deck().record()
    record["tower_start"] = 75  # plain pulls only (the sample deck), a tower short enough to fall often
    state = journal.initial_state(journal.check_options({"deck": record}), ())
    table = odds.fallen_within(state, 3)
    assert table[0] == 0 and abs(table[1] - float(dicetower.topple_chance(75))) < 1e-15
    weighed = odds.tower_odds(state, games=1000)
    rng = random.Random(11)
    sampled = sum(odds.playout(state, rng).ending == "tower" for _ in range(20000)) / 20000
    assert abs(weighed - sampled) < 0.04 and 0.3 < weighed < 0.5
    session = engine.new_session("journal", seed=1, options=journal.check_options({"deck": record}), dice=[1])
    session.play(journal.StartDay())
    session.play(journal.DrawCard("3C"))  # a pull in progress counts first
    [first] = odds.fallen_within(session.state, 0)
    assert abs(first - float(dicetower.topple_chance(75))) < 1e-30


def test_the_sample_decks_figures_are_pinned():
    from dicehall.sims import journal as sim

    report = sim.sim_journal(2000, 1, "sample")
    assert report["endings"] == PINNED_ENDINGS and report["mean_days"] == PINNED_DAYS


PINNED_ENDINGS = {'tower': 0.0035, 'kings': 0.9965, 'salvation': 0.0, 'deck': 0.0}  # sim journal --games 2000 --seed 1
PINNED_DAYS = 12.534  # (#30: the card loop's days from dice rolled ahead, two a day: other draws)


# ----- properties over random legal playouts -----

seeds = st.integers(min_value=0, max_value=2**63 - 1)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def random_game(session, rng, steps=400):
    """Random legal commands, entries written, earlier entries amended, undos and redos."""
    for _ in range(steps):
        if session.outcome is not None:
            return session
        roll = rng.random()
        try:
            if roll < 0.05 and session.can_undo:
                session.undo()
            elif roll < 0.08 and session.can_redo:
                session.redo()
            elif roll < 0.12 and len(session.state.pages) > 1:
                session.play(AmendEntry(rng.randrange(1, len(session.state.pages)), f"amended {rng.random()}"))
            else:
                command = rng.choice(session.commands())
                if isinstance(command, SkipEntry) and rng.random() < 0.6:
                    command = WriteEntry(f"entry {rng.random()}\n\u00e9t\u00e9 [b]x[/b]")
                session.play(command)
        except engine.IllegalCommand:
            pass
    return session


@given(seed=seeds)
@settings(max_examples=30, deadline=None)
def test_every_random_playout_ends(seed):
    session = engine.new_session("journal", seed=seed)
    for _ in range(600):
        if session.outcome is not None:
            break
        session.play(random.Random(seed).choice(session.commands()))
    assert session.outcome is not None and session.state.phase == "over"


@given(seed=seeds)
@SETTINGS
def test_save_load_and_replay_fold_to_the_live_state(seed, tmp_path_factory):
    os.environ["DICEHALL_HOME"] = str(tmp_path_factory.mktemp("home"))
    session = saves.new_save("journal", name="prop", seed=seed)
    random_game(session, random.Random(seed), steps=random.Random(seed).randrange(5, 300))
    saves.close_save(session)
    loaded = saves.open_save(session.labels.save_id)
    try:
        assert engine.digest(loaded.state) == engine.digest(session.state) and loaded.events == session.events
    finally:
        saves.close_save(loaded)
    path = replays.write_replay(session, tmp_path_factory.mktemp("r") / "j.dhr")
    assert engine.digest(replays.read_replay(path).state) == engine.digest(session.state)


@given(seed=seeds)
@SETTINGS
def test_undo_then_redo_is_the_identity(seed):
    session = random_game(engine.new_session("journal", seed=seed), random.Random(seed), steps=60)
    if session.can_undo:
        before = engine.digest(session.state)
        session.undo()
        session.redo()
        assert engine.digest(session.state) == before
