"""The session: commands become events, undo/redo as RULINGS decides, state_at, digests."""
import random

import pytest

from dicehall import engine
from dicehall.engine.games.dicetower import PullBlock


def played(pulls=5, seed=7):
    session = engine.new_session("dicetower", seed=seed, players=["Ada"])
    for i in range(pulls):
        session.play(PullBlock(remove=i % 3 == 2))
    return session


def test_new_session_api_shape():
    session = engine.new_session("dicetower", seed=7, options={"start": 100}, players=["Ada"], dice=None)
    assert session.players[0].name == "Ada"
    assert session.outcome is None and session.events == () and session.state_at(0) == session.state
    assert not session.can_undo and not session.can_redo


def test_illegal_command_is_a_value_error_and_appends_nothing():
    session = played(2)
    before = session.events
    with pytest.raises(ValueError):
        session.play("jump")
    assert session.events == before


def test_undo_takes_back_the_decision_with_its_dice():
    session = played(3)
    state_after_two = session.state_at(session.marks[2].start)
    session.undo()
    assert session.state == state_after_two
    assert len(session.marks) == 2


def test_undo_cannot_reroll():
    session = played(3)
    last_dice = session.events[session.marks[2].start:]
    session.undo()
    session.play(PullBlock(remove=True))  # the same decision as before
    assert session.events[session.marks[2].start:] == last_dice


def test_undo_counts_in_the_session():
    session = played(3)
    session.undo()
    session.undo()
    assert session.undos == 2


def test_undo_then_redo_is_the_identity():
    session = played(4)
    state, events = session.state, session.events
    session.undo()
    session.redo()
    assert session.state == state and session.events == events


def test_new_play_clears_redo():
    session = played(3)
    session.undo()
    session.play(PullBlock())
    assert not session.can_redo
    with pytest.raises(engine.IllegalCommand, match="nothing to redo"):
        session.redo()


def test_nothing_to_undo_says_so():
    with pytest.raises(engine.IllegalCommand, match="nothing to undo"):
        engine.new_session("dicetower", seed=1).undo()


def test_state_at_every_prefix_is_the_fold():
    session = played(6)
    from dicehall.engine.games import dicetower

    state = dicetower.initial_state(session.options, session.players)
    for n, event in enumerate(session.events, start=1):
        state = dicetower.evolve(state, event)
        assert session.state_at(n) == state


def test_same_seed_same_game():
    assert played(8, seed=3).events == played(8, seed=3).events
    assert played(8, seed=3).events != played(8, seed=4).events


def test_digest_is_stable_and_sensitive():
    a, b = played(5), played(5)
    assert engine.digest(a.state) == engine.digest(b.state)
    assert len(engine.digest(a.state)) == 32
    assert engine.digest(a.state) != engine.digest(a.state_at(3))


def test_scripted_dice_replace_the_seed():
    session = engine.new_session("dicetower", seed=1, dice=[1, 2])
    session.play(PullBlock())
    assert session.state.countdown == 99
    session.play(PullBlock())  # the script ran out: the pull waits for typed dice
    assert session.chance_needed is not None


def test_unknown_game_lists_the_games():
    with pytest.raises(ValueError, match="dicetower"):
        engine.new_session("chess")


def test_undo_cannot_reroll_scripted_dice_either():
    s = engine.new_session("dicetower", seed=1, dice=[1, 2, 3, 4, 5, 6])
    first = s.play(PullBlock())
    s.undo()
    assert s.play(PullBlock()) == first  # the same faces (1, 2), not the next ones in the script
    s.undo()
    s.redo()
    assert s.events == first
    assert s.play(PullBlock())[1].faces == (3, 4)  # the script goes on from where the log stands


@pytest.mark.parametrize("face", [True, 0, 7, "3", 2.0])
def test_a_die_face_is_a_whole_number_from_1_to_6(face):
    with pytest.raises(engine.IllegalCommand, match="is not a die face"):
        engine.new_session("dicetower", seed=1, dice=[face, 2])
    s = engine.new_session("dicetower", seed=1)
    with pytest.raises(engine.IllegalCommand, match="is not a die face"):
        s.play(PullBlock(), faces=[face, 2])
    assert s.events == ()


def test_scripted_dice_leave_what_no_hand_can_roll_to_the_seed():
    # the troll's shuffle is not a die: a scripted game still shuffles from the seed, then uses the
    # script for the die that places the troll
    scripted = engine.new_session("troll", seed=5, dice=[4])
    seeded = engine.new_session("troll", seed=5)
    assert scripted.events[0] == seeded.events[0] and not scripted.events[0].typed  # the same shuffle
    assert scripted.state.troll == ("lower", 4) and scripted.events[1].typed  # the scripted die
    assert scripted.chance_needed is not None and scripted.chance_needed.dice  # the script ran out: it waits


def test_a_recorded_decision_is_matched_through_the_games_command_of():
    from dicehall.engine.games import bones
    from dicehall.engine.session import Session

    live = Session(bones, seed=3, players=[engine.Player("A"), engine.Player("B")])
    while live.state.stage != "action":
        live.play(live.commands()[0])
    state = live.state
    troop = next(n for n, t in enumerate(state.troops[state.player]) if t is not None and bones.targets_of(state, state.player, n))
    target = bones.targets_of(state, state.player, troop)[0]
    face = state.troops[state.player][troop].face
    unusual = bones.Attack(troop, ((target, face),))
    recorded = live.play(unusual)
    copy = Session(bones, seed=3, players=[engine.Player("A"), engine.Player("B")])
    for start, end in zip([m.start for m in live.marks], [m.start for m in live.marks[1:]] + [len(live.events)]):
        copy.replay_batch(live.events[start:end], live.marks[[m.start for m in live.marks].index(start)].player)
    assert copy.state == live.state and recorded


def test_a_script_that_runs_out_before_a_landing_lands_from_the_seed():
    # War of Bones: the script ends with a reinforce roll of 6; the troop rolling back in is a
    # landing, which no one can type, so it comes from the seed instead of stalling the game
    from dicehall.engine.games import bones

    s = engine.new_session("bones", seed=3, players=["A", "B"], dice=[6, 1, 6])  # roll-off 6 v 1, then the reinforce
    s.play(bones.Choose("first strike"))
    s.play(bones.Reengage((), ()))
    weakest = min(s.state.in_play(0), key=lambda n: s.state.troops[0][n].face)
    s.play(bones.Reinforce(weakest))
    assert s.state.stage == "reinforce_choice"
    landed = s.play(bones.RollIn(troop=True, extra=False))
    assert isinstance(landed[-1], bones.TroopLanded) and landed[-1].troop == weakest
    assert s.chance_needed is None and s.to_act == 1 and s.commands()  # B can act: nothing waits
    # the next die is not in the script: the game waits for it to be typed, and says so
    s.play(bones.Reinforce(s.state.in_play(1)[0]))
    assert s.chance_needed is not None and s.chance_needed.dice and s.commands() == []
    with pytest.raises(engine.IllegalCommand, match="scripted dice ran out"):
        s.play(bones.Converge())
    rolled = s.roll([2])
    assert rolled[0] == bones.ReinforceRolled(1, 2, True)


def test_a_script_that_runs_out_in_a_converge_lands_the_troops_outside_from_the_seed():
    from dicehall.engine.games import bones

    s = engine.new_session("bones", seed=3, players=["A", "B"], dice=[6, 1])
    s.play(bones.Choose("first strike"))
    s.play(bones.Reengage((), ()))
    s.play(bones.Converge())
    answered = s.play(bones.Converge())  # the area shrinks: troops outside it roll back in
    assert any(isinstance(e, bones.TroopLanded) for e in answered)
    assert s.state.side == 700 and s.chance_needed is None and s.commands()


def test_an_empty_script_still_waits_for_a_recorded_log():
    # saves and replays rebuild a game from its log: the log brings the setup's landings itself
    s = engine.new_session("bones", seed=3, players=["A", "B"], dice=[])
    assert s.events == () and s.chance_needed is not None and not s.chance_needed.dice


def long_tower(pulls, seed=5):
    """A tower started high, played with a mix of pulls and pulls-and-remove."""
    session = engine.new_session("dicetower", seed=seed, options={"start": 10000}, players=["Ada"])
    for i in range(pulls):
        session.play(PullBlock(remove=i % 7 == 3))
    return session


def folded_states(session):
    from dicehall.engine.games import dicetower

    states = [dicetower.initial_state(session.options, session.players)]
    for event in session.events:
        states.append(dicetower.evolve(states[-1], event))
    return states


def test_events_and_marks_are_views_that_later_plays_and_undos_leave_unchanged():
    session = long_tower(40)
    events, marks = session.events, session.marks
    snapshot, mark_snapshot = tuple(events), tuple(marks)
    assert len(events) == len(snapshot) and events[-1] == snapshot[-1] and events[3:9] == snapshot[3:9]
    assert isinstance(events[2:5], tuple) and marks[-1] == mark_snapshot[-1] == engine.Mark(marks[-1].start, 0)
    for _ in range(5):
        session.undo()
    session.play(PullBlock(remove=True))  # writes over the positions the undos freed
    session.play(PullBlock())
    assert tuple(events) == snapshot and tuple(marks) == mark_snapshot and events == snapshot
    assert session.events != snapshot and session.events[: len(snapshot) - 20] == snapshot[: len(snapshot) - 20]
    with pytest.raises(IndexError):
        events[len(snapshot)]


def test_taking_the_events_view_copies_nothing():
    import tracemalloc

    session = long_tower(2000)
    tracemalloc.start()
    views = [session.events for _ in range(100)]
    lengths = [len(view) for view in views]
    allocated, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert lengths[0] > 4000 and len(set(lengths)) == 1
    assert allocated < 100 * 1000  # a copy of the log each time would be 100 x 32 KB


def test_state_at_is_the_fold_at_every_position_in_any_order_also_after_undo_and_redo():
    session = long_tower(120)
    for _ in range(30):  # back across several kept states
        session.undo()
    session.redo()
    session.play(PullBlock(remove=True))
    states = folded_states(session)
    assert session.state == states[-1] and len(states) > 100
    order = list(range(len(states)))
    random.Random(3).shuffle(order)
    for n in order + list(range(len(states))) + list(reversed(range(len(states)))):
        assert session.state_at(n) == states[n]
    assert all(session.describe(n) for n in range(len(session.events)))


def test_undo_and_redo_across_a_taken_view_keep_the_draw_counts():
    session = long_tower(60)
    expected = tuple(long_tower(60).events)
    view = session.events
    for _ in range(20):
        session.undo()
    for _ in range(20):
        session.redo()
    assert tuple(view) == expected == tuple(session.events)
    for _ in range(10):
        session.undo()
    for i in range(50, 60):  # played again: undo cannot reroll
        session.play(PullBlock(remove=i % 7 == 3))
    assert tuple(session.events) == expected


def test_a_long_game_keeps_far_less_than_a_state_per_event():
    import tracemalloc

    tracemalloc.start()
    session = long_tower(2000)
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_event = kept / len(session.events)
    assert per_event < 60, per_event  # every state kept cost over 400 bytes an event


def test_a_dice_tower_state_from_the_fold_is_the_one_its_constructor_builds():
    from dicehall.engine.games.dicetower import TowerState

    session = played(6, seed=11)
    state = session.state
    built = TowerState(**vars(state))
    assert state == built and hash(state) == hash(built) and repr(state) == repr(built)
    assert engine.digest(state) == engine.digest(built)
    assert session.state_at(0) == TowerState(countdown=100, start=100, advantage_from=51)
    with pytest.raises(AttributeError):  # still frozen
        state.countdown = 3


def test_who_acts_and_whether_it_is_over_are_the_rules_answers_after_every_play_undo_and_redo():
    """The session answers to_act, outcome and chance_needed without asking the rules again while
    the state stands; after plays, undos and redos the answers stay the rules' own."""
    from dicehall.engine.bots import wager as bots
    from dicehall.engine.core import Player

    people_and_bot = [Player("Ada"), Player("Bo"), Player("Cy", True, "cautious")]
    for players, seed in [(people_and_bot, seed) for seed in range(4)] + [(people_and_bot[:2], seed) for seed in range(4)]:
        # undo takes back a person's marks (with a bot seat), or any mark (people only)
        session = engine.new_session("wager", seed=seed, players=players)
        game, rng = session.game, random.Random(seed)
        undos = 0
        while session.outcome is None:
            state = session.state
            assert session.to_act == game.to_act(state) and session.chance_needed == game.chance_needed(state)
            assert session.outcome == game.outcome(state)
            seat = session.to_act
            if session.can_undo and rng.random() < 0.2:
                session.undo()
                undos += 1
                if rng.random() < 0.5:
                    session.redo()
                continue
            mover = players[seat]
            session.play(bots.choose(state, mover.style) if mover.bot else rng.choice(session.commands()))
        assert undos > 0 and session.outcome == game.outcome(session.state) and session.to_act is None


def test_undo_with_a_bot_seat_takes_back_the_persons_decision_and_the_bots_replies():
    from dicehall.engine.core import Player

    session = engine.new_session("wager", seed=3, players=[Player("Ada"), Player("Cy", True, "cautious")])
    from dicehall.engine.bots import wager as bots

    while session.to_act != 0 or not session.marks or session.marks[-1].player != 1:  # the bot has just replied
        seat = session.to_act
        session.play(bots.choose(session.state, "cautious") if seat == 1 else session.commands()[0])
    person_marks = [i for i, mark in enumerate(session.marks) if mark.player == 0]
    last_person_start = session.marks[person_marks[-1]].start
    session.undo()
    assert len(session.events) == last_person_start and session.to_act == 0
    assert [mark.player for mark in session.marks] == [mark.player for mark in session.marks[: person_marks[-1]]]
