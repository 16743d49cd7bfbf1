"""Properties over random legal playouts: every playout ends, fold(load(save(log))) is the live
state, undo then redo is the identity."""
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.games.dicetower import PullBlock

actions = st.lists(st.sampled_from(["pull", "remove", "undo", "redo"]), min_size=1, max_size=60)
seeds = st.integers(min_value=0, max_value=2**63 - 1)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def run(session, script):
    for action in script:
        try:
            if action == "undo":
                session.undo()
            elif action == "redo":
                session.redo()
            else:
                session.play(PullBlock(action == "remove"))
        except engine.IllegalCommand:
            pass


@given(seed=seeds, remove=st.booleans())
@settings(max_examples=60, deadline=None)
def test_every_playout_ends(seed, remove):
    session = engine.new_session("dicetower", seed=seed)
    for _ in range(200):
        if session.outcome is not None:
            break
        session.play(PullBlock(remove))
    assert session.outcome is not None and session.state.countdown == 0


@given(seed=seeds, script=actions)
@SETTINGS
def test_save_then_load_folds_to_the_live_state(seed, script, tmp_path_factory):
    os.environ["DICEHALL_HOME"] = str(tmp_path_factory.mktemp("home"))
    session = saves.new_save("dicetower", name="prop", seed=seed)
    run(session, script)
    saves.close_save(session)
    loaded = saves.open_save(session.labels.save_id)
    try:
        assert loaded.state == session.state
        assert loaded.events == session.events
        assert loaded.undos == session.undos
        assert engine.digest(loaded.state) == engine.digest(session.state)
    finally:
        saves.close_save(loaded)


@given(seed=seeds, script=actions)
@SETTINGS
def test_replay_round_trip_folds_to_the_live_state(seed, script, tmp_path_factory):
    session = engine.new_session("dicetower", seed=seed, players=["P"])
    run(session, script)
    path = tmp_path_factory.mktemp("replay") / "game.dhr"
    replays.write_replay(session, path)
    loaded = replays.read_replay(path)
    assert loaded.state == session.state and loaded.events == session.events


@given(seed=seeds, script=actions)
@settings(max_examples=60, deadline=None)
def test_undo_then_redo_is_the_identity(seed, script):
    session = engine.new_session("dicetower", seed=seed)
    run(session, script)
    if session.can_undo:
        state, events = session.state, session.events
        session.undo()
        session.redo()
        assert session.state == state and session.events == events
