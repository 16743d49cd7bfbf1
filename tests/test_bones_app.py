"""War of Bones through the keys at 80x24: the attack builder against a bot defender, a human
defender assigning dice, a reroll offer, reinforce / resupply / converge, refused keys with reasons,
undo, the setup screen with two bots to watch, the narrow replay board, and a snapshot."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text

import pytest

from dicehall import saves
from dicehall.engine.bots import bones as bot
from dicehall.engine.core import Player
from dicehall.engine.games import bones
from dicehall.engine.games.bones import (AttackDeclared, Choose, DefenceAssigned, DefenceRolled, Reengage,
                                ReinforceCalled, RerollCalled, Resupplied, area_bounds)
from tests.apphelpers import drive, screen_text, until
from dicehall.tui.widgets import StatusLine
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.bones import BonesScreen, BonesSetupScreen, draw_board

SNAPSHOTS = Path(__file__).parent / "snapshots"
PEOPLE = [Player("Ada"), Player("Bo")]
AGAINST_BOT = [Player("Ada"), Player("Bot", True, "general")]


@pytest.fixture(autouse=True)
def bones_playable(monkeypatch):
    """Keys pressed as fast as a test presses them: no pacing of rolls or bots."""
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 0)
    monkeypatch.setattr(BonesScreen, "BOT_PACE", 0)


def ready(seed: int, players) -> object:
    """A save past the setup: people take First Strike and reengage nothing, bots decide."""
    session = saves.new_save("bones", name="test", seed=seed, players=players)
    while session.state.stage in ("choose", "reengage"):
        if session.players[session.to_act].bot:
            session.play(bot.choose(session.state, "general", session.seed, len(session.events)))
        else:
            session.play(Choose("first strike") if session.state.stage == "choose" else Reengage())
    return session


def first_seed(players, wanted):
    """The first seed whose game, past the setup, gives `wanted(session)` something."""
    for seed in range(1, 300):
        session = ready(seed, players)
        found = wanted(session)
        if found:
            return session, found
        saves.close_save(session)
        saves.delete_save(session.labels.save_id)  # the save kept is the only "test" (names are kept distinct)
    raise AssertionError("no seed gives that position")


def by_distance(state, seat: int, troop: int) -> list[int]:
    mine = state.troops[seat][troop]
    return sorted(bones.targets_of(state, seat, troop), key=lambda t: bones.distance(mine, state.troops[1 - seat][t]))


def ada_can_split(session):
    """Ada (A) to act with a troop of firepower 3+ and two enemies in range."""
    state = session.state
    if session.to_act != 0:
        return None
    for troop in state.in_play(0):
        if state.troops[0][troop].face >= 3 and len(bones.targets_of(state, 0, troop)) >= 2:
            return troop
    return None


async def bots_done(pilot):
    for _ in range(50):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = pilot.app.screen
        if not (isinstance(screen, BonesScreen) and screen.bot_to_act()):
            return


async def choose_troop(pilot, key: tuple[int, int]):
    for _ in range(9):
        if pilot.app.screen.selected == key:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached {key}")


def test_an_attack_built_with_the_builder_is_resolved_against_the_bot_defender(monkeypatch):
    monkeypatch.setattr(BonesScreen, "BOT_PACE", 60)  # the bot waits: Space makes it play
    session, troop = first_seed(AGAINST_BOT, ada_can_split)
    state = session.state
    face = state.troops[0][troop].face
    near, second = by_distance(state, 0, troop)[:2]
    turn, resolved, before = state.turn, state.resolved, len(session.events)

    async def steps(pilot):
        screen = pilot.app.screen
        await choose_troop(pilot, (0, troop))
        await pilot.press("a")  # all the firepower on the nearest enemy
        await pilot.press("left", "left", "tab", "left")  # face-2 on it; a line on the next target, then 1
        await pilot.press("tab")  # a third line with the 1 left over
        for _ in range(8):
            if screen.lines[screen.line][0] == near:
                break
            await pilot.press("down")
        built = [tuple(line) for line in screen.lines]
        builder = screen_text(pilot.app)
        await pilot.press("enter")
        attacked = screen_text(pilot.app)
        await pilot.press("space")  # the bot defends if it must, then takes its turn, at once
        await bots_done(pilot)
        return built, builder, attacked

    built, builder, attacked = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert built[0] == (near, face - 2) and built[2] == (near, 1) and built[1][1] == 1
    assert f"Attack with A#{troop + 1} ({face}): 0 left to place" in builder
    assert "> 1 at B" in builder
    declared = session.events[before]
    assert declared == AttackDeclared(0, troop, bones.canonical(tuple(built)))
    targets = {t for t, _ in built}
    rolled = [e for e in session.events[before:] if isinstance(e, DefenceRolled) and e.seat == 1]  # B defends
    assert {e.target for e in rolled} == targets and len(rolled) == len(targets)
    assert next(e for e in rolled if e.target == near).faces.__len__() == 2  # two attacks on the nearest
    assert all(e.seat == 1 for e in session.events[before:] if isinstance(e, DefenceAssigned))  # the bot's
    assert session.state_at(before + 1).attack.groups  # the declaration started the attack
    end = next((i for i in range(before + 1, len(session.events))
                if isinstance(session.events[i], bones.ACTION_EVENTS)), len(session.events))
    assert session.state_at(end).resolved == resolved + len(targets)  # both targets judged before B acts
    assert session.state_at(end).player == 1 or session.state_at(end).stage == "over"
    assert session.outcome is not None or session.state.turn >= turn + 2  # the bot took its turn too
    assert f"Ada (A) attacks with A#{troop + 1}:" in attacked.replace("\n", " ")


def test_a_human_defender_assigns_the_defence_dice():
    # play the attack on the real save and keep the first seed where the defender must assign
    for seed in range(1, 300):
        session = ready(seed, PEOPLE)
        state = session.state
        seat = session.to_act
        choice = next(((t, target) for t in state.in_play(seat) if state.troops[seat][t].face >= 3
                       for target in bones.targets_of(state, seat, t)), None)
        if choice is not None:
            troop, target = choice
            face = state.troops[seat][troop].face
            session.play(bones.Attack(troop, ((target, face - 1), (target, 1))))
            if session.state.stage == "assign":
                break
        saves.close_save(session)
    else:
        raise AssertionError("no seed needs an assignment")
    attack = session.state.attack
    defender = 1 - seat

    async def steps(pilot):
        shown = screen_text(pilot.app)
        await pilot.press("a")  # not the defender's key now
        refused = screen_text(pilot.app)
        await pilot.press("right")  # the first attack gets the other die
        swapped = list(pilot.app.screen.assign)
        await pilot.press("enter")
        return shown, refused, swapped

    shown, refused, swapped = drive(DicehallApp(setup=BonesScreen(session)), steps)
    name = PEOPLE[defender].name
    assert f"{name} ({bones.SIDES[defender]}): assign the defence dice" in shown
    assert f"attack {attack.rolls[0]}+{attack.strengths[0]}={attack.rolls[0] + attack.strengths[0]} v die 1" in shown
    assert "Not now: attack is for your turn's action; now: assign the defence dice" in refused
    assert swapped == [1, 0]
    assert DefenceAssigned(defender, target, (1, 0)) in session.events
    seat_hit, hit, pairs = session.state.last
    assert (seat_hit, hit) == (defender, target)
    assert [p.defence for p in pairs] == [attack.defence[1], attack.defence[0]]


def test_resupply_converge_and_a_reroll_offer_by_keys():
    def quiet_and_armed(session):
        """Ada to act with a troop that has nothing in range (to resupply) and one that has."""
        state = session.state
        if session.to_act != 0:
            return None
        idle = [t for t in state.in_play(0) if not bones.targets_of(state, 0, t)]
        armed = [t for t in state.in_play(0) if bones.targets_of(state, 0, t)]
        return (idle[0], armed[0]) if idle and armed else None

    session, (idle, armed) = first_seed(PEOPLE, quiet_and_armed)
    face = session.state.troops[0][idle].face

    async def steps(pilot):
        await choose_troop(pilot, (0, idle))
        await pilot.press("a")
        no_target = screen_text(pilot.app)
        await pilot.press("s")
        asked = screen_text(pilot.app)
        await pilot.press("enter")  # Ada resupplies
        await pilot.press("c")
        converge = screen_text(pilot.app)
        await pilot.press("y")  # Bo converges
        await choose_troop(pilot, (0, armed))
        await pilot.press("a", "enter")  # everything on the nearest target: the attack dice are offered
        offer = screen_text(pilot.app)
        stage = session.state.stage
        await pilot.press("down", "enter")  # reroll die 1
        return no_target, asked, converge, offer, stage

    no_target, asked, converge, offer, stage = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert f"Not now: no enemy troop is in range of A#{idle + 1} ({face})" in no_target
    assert f"Resupply with A#{idle + 1}: it leaves play, supply 0 -> {face}" in asked
    assert Resupplied(0, idle, face) in session.events
    assert "Converge: nothing now; if A converges next, the area shrinks" in converge
    assert stage == "attack_reroll"
    rolls = [e for e in session.events if isinstance(e, bones.AttackRolled)]
    assert f"Reroll die 1 (shows {rolls[0].faces[0]})" in offer and "> Keep the dice" in offer
    assert RerollCalled(0, "attack", 0) in session.events
    spent = [e for e in session.events if isinstance(e, RerollCalled)]
    assert session.state.supply[0] == face - len(spent) and all(e.seat == 0 for e in spent)


def test_both_converge_then_reinforce_by_keys():
    session = ready(3, PEOPLE)
    first = session.to_act

    async def steps(pilot):
        await pilot.press("c", "enter")
        await pilot.press("c")
        answer = screen_text(pilot.app)
        await pilot.press("enter")  # the answer: the area shrinks to 7 inches
        shrunk = screen_text(pilot.app)
        troop = pilot.app.screen.selected
        await pilot.press("r")
        asked = screen_text(pilot.app)
        await pilot.press("escape")  # cancelled: nothing played
        cancelled = len(session.events)
        await pilot.press("r", "enter")
        return answer, shrunk, troop, asked, cancelled

    answer, shrunk, troop, asked, cancelled = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert "Converge, answering the converge: the area shrinks to 7 in" in answer
    assert "Area 7 in; no converge pending" in shrunk
    low, high = area_bounds(session.state)
    assert (low, high) == (100, 800)
    assert all(low <= t.x <= high and low <= t.y <= high for t in session.state.dice_in_area())
    assert troop[0] == first and f"Reinforce {bones.troop_name(*troop)} (" in asked
    assert not any(isinstance(e, ReinforceCalled) for e in session.events[:cancelled])
    assert ReinforceCalled(first, troop[1]) in session.events


def test_unknown_and_bot_time_keys_get_reasons_and_undo_takes_back_the_attack_and_the_bot(monkeypatch):
    session, troop = first_seed(AGAINST_BOT, ada_can_split)
    before = len(session.events)
    state = session.state

    async def steps(pilot):
        await pilot.press("x")
        unknown = screen_text(pilot.app)
        await choose_troop(pilot, (0, troop))
        await pilot.press("a", "enter")
        await bots_done(pilot)
        played = len(session.events)
        await pilot.press("u")
        await bots_done(pilot)
        return unknown, played, screen_text(pilot.app)

    unknown, played, undone = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert "Not now: 'x' does nothing here; press ? for the keys" in unknown
    assert played > before + 3
    assert len(session.events) == before and session.state == state and session.undos == 1
    assert "undone (undos used in this save: 1)" in undone


def test_a_bot_deciding_refuses_the_action_keys_with_the_reason(monkeypatch):
    monkeypatch.setattr(BonesScreen, "BOT_PACE", 60)
    session, _ = first_seed(AGAINST_BOT, lambda s: s.to_act == 1)

    async def steps(pilot):
        await pilot.press("c")
        return screen_text(pilot.app)

    text = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert "Not now: Bot (a bot) is deciding; Space lets it play at once" in text
    assert "Bot (B, bot) is thinking" in text


def test_the_setup_screen_starts_two_bots_and_space_lets_them_play_on_at_once(monkeypatch):
    # the bots wait at their pace until Space: with the module's pace of 0 they played from the start,
    # and on a loaded machine the game could end while `s` waited, before q's hook was set (no q: failed)
    monkeypatch.setattr(BonesScreen, "BOT_PACE", 60)

    async def steps(pilot):
        await pilot.press("right", "right")  # players: two bots (watch)
        await pilot.press("down", "right", "down", "right")  # both bots play random
        setup = screen_text(pilot.app)
        await pilot.press("s")
        screen = pilot.app.screen
        assert isinstance(screen, BonesScreen)
        answered, pressed = screen.bot_answered, []

        def answered_then_q(*answer):  # q posted as turn 8 is played, the bots playing on at full speed:
            answered(*answer)  # a player's key, exactly when it means "mid-game" (Pilot's press waits
            if screen.session.state.turn >= 8 and not pressed:  # for the screen, which bots keep busy)
                pressed.append(len(screen.session.events))
                pilot.app.simulate_key("q")

        screen.bot_answered = answered_then_q
        await pilot.press("space")  # one key: the bots play on without pauses
        await until(pilot, lambda: not isinstance(pilot.app.screen, BonesScreen))  # q handled at once: their moves never starve it
        left = bool(pressed)
        count, outcome = len(screen.session.events), screen.session.outcome
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        return setup, screen.session, left, count, outcome

    setup, session, left, count, outcome = drive(DicehallApp(setup=BonesSetupScreen(seed=11)), steps)
    assert "Players:          two bots (watch)" in setup and "Side B's bot:     random" in setup
    assert [(p.name, p.bot, p.style) for p in session.players] == [
        ("Bot A", True, "random"), ("Bot B", True, "random")]
    assert left and outcome is None  # q landed mid-game (this game ends on turn 67, its 333rd event)
    assert len(session.events) == count  # nothing more was written once q was handled
    reopened = saves.open_save(session.labels.save_id)
    assert len(reopened.events) == count  # every event the screen played is in the save
    saves.close_save(reopened)


def test_the_narrow_board_fits_the_viewer_and_shows_every_troop():
    session = ready(5, PEOPLE)
    board = draw_board(session.state).plain.splitlines()
    assert max(map(len, board)) <= 26 and len(board) <= 18
    state = session.state
    glyphs = sum(line.count("a") for line in board[:14]) + sum(line.count("B") for line in board[:14])
    assert glyphs == len(state.in_play(0)) + len(state.in_play(1))
    assert board[0].startswith("+") and board[13].startswith("+")  # the 9-inch frame, 12 rows inside


def test_snapshot_of_the_attack_builder(snapshot):
    session, troop = first_seed(PEOPLE, ada_can_split)

    async def steps(pilot):
        await choose_troop(pilot, (0, troop))
        await pilot.press("a", "left", "tab")
        return screen_text(pilot.app)

    text = drive(DicehallApp(setup=BonesScreen(session)), steps)
    board = "\n".join(line.split("\u2502")[0] for line in text.splitlines())
    assert board.count("[a") == 1 and board.count(">B") == 1  # the chosen troop and the line's target
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "bones.txt")


def test_review_opens_the_viewer_with_the_area_drawn():
    from dicehall.tui.screens.viewer import ViewerScreen

    session = ready(5, [Player("Ada"), Player("Bot", True, "general")])

    async def steps(pilot):
        await pilot.press("v")
        return pilot.app.screen, screen_text(pilot.app)

    screen, text = drive(DicehallApp(session=session), steps)
    assert isinstance(screen, ViewerScreen)
    assert "+------------------------+" in text and "supply" in text


def test_an_arrow_prefers_a_troop_within_45_degrees_over_a_nearer_one_mostly_sideways():
    from tests.test_bones_rules import battlefield
    from dicehall.tui.screens.bones import nearest_troop
    # A1 at (4", 4"); A2 a little right but further down (sideways more than ahead); A3 straight right
    state = battlefield({0: (400, 400, 3), 1: (500, 520, 3), 2: (800, 400, 3)}, {0: (100, 850, 1)})
    troops = [(0, 0), (0, 1), (0, 2)]
    assert nearest_troop(state, (0, 0), troops, "right") == (0, 2)
    assert nearest_troop(state, (0, 0), troops, "down") == (0, 1)  # 120 down, 100 across: inside
    # with no troop inside the 45 degrees, the wider set still answers
    assert nearest_troop(state, (0, 0), [(0, 0), (0, 1)], "right") == (0, 1)
    assert nearest_troop(state, (0, 0), troops, "left") is None


def no_premeasure_ready(seed: int) -> object:
    session = saves.new_save("bones", name="test", seed=seed, players=PEOPLE, options={"no_premeasure": True})
    while session.state.stage in ("choose", "reengage"):
        session.play(Choose("first strike") if session.state.stage == "choose" else Reengage())
    return session


def test_no_premeasure_hides_coordinates_and_orders_targets_by_number():
    def mixed(session):
        """Ada to act with a troop whose enemies by distance are not in number order."""
        state = session.state
        if session.to_act != 0:
            return None
        for troop in state.in_play(0):
            mine = state.troops[0][troop]
            enemies = state.in_play(1)
            if sorted(enemies, key=lambda t: bones.distance(mine, state.troops[1][t])) != list(enemies):
                return troop
        return None

    for seed in range(1, 100):
        session = no_premeasure_ready(seed)
        troop = mixed(session)
        if troop is not None:
            break
        saves.close_save(session)
    state = session.state
    assert state.no_premeasure

    async def steps(pilot):
        screen = pilot.app.screen
        await choose_troop(pilot, (0, troop))
        chosen = screen_text(pilot.app)
        words = [screen.words(i) for i in range(len(session.events))]
        await pilot.press("a")
        ordered = screen.builder_targets()
        first = screen.lines[0][0]
        targets = []
        for _ in range(len(ordered)):
            targets.append(screen.lines[0][0])
            await pilot.press("down")
        return chosen, words, ordered, first, targets

    chosen, words, ordered, first, targets = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert f"Chosen: A#{troop + 1}, face {state.troops[0][troop].face}" in chosen
    assert '", ' not in chosen  # no coordinates in inches anywhere on the screen
    landed = [w for w, e in zip(words, session.events) if isinstance(e, (bones.TroopLanded, bones.LandingMissed))]
    assert landed and all("(" not in w and '"' not in w for w in landed)
    assert any(" lands in the area showing " in w for w in landed)
    assert ordered == sorted(state.in_play(1)) and first == ordered[0] and targets == ordered
    # the replay keeps the coordinates
    assert any(" lands at (" in session.describe(i) for i in range(len(session.events)))


def test_missed_landings_are_not_stepped_through_and_collapse_into_one_log_line(monkeypatch):
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 30)  # stepping on, driven by hand below
    session = ready(74, PEOPLE)
    events = session.events
    run = next(i for i in range(len(events) - 2) if all(isinstance(e, bones.LandingMissed) for e in events[i:i + 3]))
    end = run
    while isinstance(events[end], bones.LandingMissed):
        end += 1
    assert isinstance(events[end], bones.TroopLanded) and end - run >= 3

    async def steps(pilot):
        screen = pilot.app.screen
        screen.hurry = False
        seen = []
        screen.after_change(run - 1, None)  # as if these events had just been played
        seen.append(screen.shown)
        while screen.shown is not None:
            screen.step()
            seen.append(screen.shown)
        screen.shown = end + 1  # the log as it stands once the landing after the misses is shown
        log = screen.log_text(Text("")).plain
        screen.shown = None
        return seen, log

    seen, log = drive(DicehallApp(setup=BonesScreen(session)), steps)
    shown = [s for s in seen if s is not None]
    assert shown[0] == run and shown[1] == end + 1  # the event before the run, then straight to the landing
    assert not any(isinstance(events[s - 1], bones.LandingMissed) for s in shown[1:])
    name = bones.troop_name(events[run].seat, events[run].troop)
    flat = " ".join(line.strip() for line in log.splitlines())
    landing = session.describe(end, reveal=False)
    assert flat.endswith(f"{name} lands on another die (... rolled again {end - run} times) {landing}")


def test_the_rolls_line_sets_attack_values_against_defence_die_plus_firepower():
    from tests.test_bones_rules import duel, play
    state, _ = play(duel(a_face=4, b_face=2), bones.Attack(0, ((0, 3), (0, 1))), (6, 2), (6, 1))
    assert state.stage == "assign" and state.troops[1][0].face == 2
    assert BonesScreen.rolls_line(None, state) == "Rolls on B#1: 9 3 v 6+2 1+2"


def test_one_notation_a_face_on_the_map_a_number_with_a_hash_in_words():
    """B5 on the map is a B troop showing 5; B#5 in words is B's troop number 5 (issue #10, item 5)."""
    import re

    session, troop = first_seed(PEOPLE, ada_can_split)
    state = session.state

    async def steps(pilot):
        await choose_troop(pilot, (0, troop))
        faces = screen_text(pilot.app)
        await pilot.press("l")
        numbers = screen_text(pilot.app)
        await pilot.press("question_mark")
        from dicehall.tui.screens.dialogs import HelpScreen
        from dicehall.tui.widgets import Plain

        assert isinstance(pilot.app.screen, HelpScreen)
        return faces, numbers, str(pilot.app.screen.query_one(Plain).render())

    faces, numbers, help_text = drive(DicehallApp(setup=BonesScreen(session)), steps)
    map_of = lambda text: "\n".join(line.split("\u2502")[0] for line in text.splitlines()[1:21])
    in_range = re.findall(r"B#(\d) \((\d)\)", next(line for line in faces.splitlines() if "In range:" in line))
    assert in_range and {int(n) - 1 for n, _ in in_range} == set(bones.targets_of(state, 0, troop))
    for number, face in in_range:
        assert state.troops[1][int(number) - 1].face == int(face)
        assert f"B{face}" in map_of(faces)  # the map draws that troop by its face
    assert "#" not in map_of(faces)
    glyphs = re.findall(r"[aB]#?\d", map_of(numbers))
    expected = {f"a#{n + 1}" for n in state.in_play(0)} | {f"B#{n + 1}" for n in state.in_play(1)}
    assert set(glyphs) == expected and len(glyphs) == 16  # every troop by its number, none by a face
    assert "B#5 is B's troop number 5" in " ".join(help_text.split())


def test_the_status_line_gets_each_landing_and_the_batch_whole(monkeypatch):
    # the screen hands its words to the status line uncut: the status line wraps them and marks a cut
    monkeypatch.setattr(BonesScreen, "STEP_SECONDS", 60)
    monkeypatch.setattr(BonesScreen, "SETUP_SECONDS", 60)  # the troops roll in only as the test says
    session = saves.new_save("bones", name="long words", seed=5, players=PEOPLE)
    long = "words that run on past one line of the screen " * 3
    monkeypatch.setattr(type(session), "describe", lambda self, index, reveal=True: f"event {index + 1}: {long}")

    async def steps(pilot):
        during = pilot.app.screen.query_one(StatusLine).message
        await pilot.press("x")  # the rest at once
        return during, pilot.app.screen.query_one(StatusLine).message, screen_text(pilot.app)

    during, after, text = drive(DicehallApp(session=session), steps)
    assert during == f"event 1: {long} (a key shows the rest)"
    assert after.startswith("16 troops rolled into the area") and after.endswith(f"; event {len(session.events)}: {long}")
    assert text.splitlines()[-2].endswith("... (? shows all)")  # the shared status line marks the cut


def test_the_title_shows_a_long_name_whole():
    name = "A forty character save name for the title"[:40]  # the longest a name can be
    session = saves.new_save("bones", name=name, seed=3, players=PEOPLE)

    async def steps(pilot):
        return screen_text(pilot.app).splitlines()[0]

    title = drive(DicehallApp(session=session), steps)
    assert f"War of Bones: {name}  setup  (undos 0)" in title


def test_the_footer_follows_the_attack_builder_enter_and_esc_only_while_they_mean_something():
    session, troop = first_seed(PEOPLE, ada_can_split)

    async def steps(pilot):
        def footer() -> str:
            return screen_text(pilot.app).splitlines()[-1]

        await choose_troop(pilot, (0, troop))
        await until(pilot, lambda: "a Attack" in footer())  # the footer's keys come after the screen (later when busy)
        footers = [footer()]
        await pilot.press("a")
        await until(pilot, lambda: "Confirm" in footer())
        footers.append(footer())
        await pilot.press("r")  # not while an attack is being built: says why
        refused = pilot.app.screen.query_one(StatusLine).message
        await pilot.press("escape")  # cancels the attack and nothing else
        await until(pilot, lambda: "Confirm" not in footer())
        footers.append(footer())
        return footers, refused, pilot.app.screen

    (idle, building, cancelled), refused, screen = drive(DicehallApp(setup=BonesScreen(session)), steps)
    assert "a Attack" in idle and "r Reinforce" in idle and "Confirm" not in idle and "esc" not in idle
    assert "\u23ce Confirm" in building and "esc Cancel" in building
    assert "a Attack" not in building and "r Reinforce" not in building
    assert refused == "Not now: finish the attack (Enter) or cancel it (Escape) first"
    assert cancelled == idle and isinstance(screen, BonesScreen)
