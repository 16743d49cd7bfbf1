"""The troll screen at 80x24: what a lost game's end shows, the aim prompt, the phases of a batch."""
from __future__ import annotations

import pytest

from dicehall import saves
from dicehall.engine.games import troll
from tests.apphelpers import drive, screen_text, until
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.troll import TrollScreen, title_line, wrapped
from dicehall.tui.widgets import StatusLine

# seed 52, standard: the troll ends on upper 2 and the 10D there flies off with it (turn 5)
FLEW_AWAY = ["move up", "move left", "move down", "move left", "stomp", "move up", "move left", "move left"]
# seed 1, standard: on turn 13 the 7C flees from upper 5 to upper 6 and the bridge falls apart
COLLAPSED = ["move up", "pick up left", "move down", "move left", "move up", "move left", "move left", "stomp",
             "stomp", "move down", "move left", "throw diamond right", "move right", "pick up right", "move up",
             "use club on left", "move left", "pick up left", "move down", "throw diamond right", "move up",
             "move left", "pick up right", "move down", "move up", "move right"]


@pytest.fixture(autouse=True)
def batches_at_once(monkeypatch):
    """Keys pressed as fast as a test presses them: each batch is drawn whole (the stepping through
    a batch has its own tests, which turn it back on)."""
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 0)


def played(name: str, seed: int, commands: list[str], **options):
    session = saves.new_save("troll", name=name, seed=seed, options=options)
    for text in commands:
        session.play(troll.parse_command(text))
    return session


def test_a_lost_game_shows_its_cause_the_newest_line_and_a_whole_title():
    session = played("", 52, FLEW_AWAY)  # the default name: the game's title and the date
    assert session.outcome is not None and "flew away" in session.outcome.summary
    last = session.describe(len(session.events) - 1, reveal=False)
    assert len(last) > 78  # the line that explains the end is too long for one screen line

    async def steps(pilot):
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    lines = text.splitlines()
    for piece in wrapped(last, 76):  # every piece of the newest line is on screen (after the > mark)
        assert piece.strip() in [line.strip().removeprefix("> ") for line in lines], piece
    header = wrapped(f"GAME OVER: {session.outcome.summary}, score {len(session.state.deck)}; v reviews it", 78)
    assert len(header) == 2 and all(piece.strip() in text for piece in header)
    title = lines[0]
    assert title.rstrip().endswith("(undos 0)") and "LOST: TROLL FLEW AWAY" in title
    assert "Angry Troll" not in title  # the default name's repeated game title is left out


def test_titles_fit_78_columns_whatever_the_name():
    for name in ("", "a" * 40, "Angry Troll versus Magic Bridge 2026-05-01 10:00", "x"):
        for where in ("turn 12, 2 actions left", "LOST: UNSETTLED, TURN 140, DECK 0"):
            title = title_line(name, where, 123)
            assert len(title) <= 78 and title.endswith("(undos 123)") and where in title, title
    assert "..." in title_line("b" * 60, "turn 1, awakening", 0)
    # a branch's name is whole beside a long label and a late turn
    assert title_line("troll game (branch 2)", "standard: turn 31, 2 actions left", 0) == (
        "Troll: troll game (branch 2)  standard: turn 31, 2 actions left  (undos 0)")


def test_a_collapse_says_which_collapse_on_screen():
    session = played("fallen", 1, COLLAPSED)
    assert session.outcome is not None and session.outcome.summary == "lost: the bridge collapsed"

    async def steps(pilot):
        return screen_text(pilot.app)

    text = " ".join(line.strip() for line in drive(DicehallApp(session=session), steps).splitlines())
    assert "GAME OVER: lost: the bridge collapsed on turn 13: no path from bank to bank" in text
    assert "the left bank's part ends at column 4 (upper 5 empty), score 20" in text
    assert "flight: upper 7C 5>6" in text  # the step that broke it is still in the log


def test_a_buried_awake_card_is_marked_on_the_board():
    from dataclasses import replace

    from dicehall.tui.screens.troll import draw_board

    state = played("buried", 5, []).state
    plain = draw_board(state).plain
    assert "*" not in plain and "buried" not in plain
    stack = state.stack(("upper", 1))  # three dormant cards; wake the middle one
    woken = troll.with_stack(state, ("upper", 1), (stack[0], replace(stack[1], awake=True), stack[2]))
    assert not troll.calm(woken)  # the game cannot be won while it is there
    lines = draw_board(woken).plain.splitlines()
    upper = next(line for line in lines if line.startswith("LEFT  U"))
    assert upper.startswith("LEFT  U [3*##  ]") and upper.count("*") == 1
    assert "n*: an awake card is buried there" in lines[-1] and all(len(line) <= 78 for line in lines)


def test_any_other_key_ends_aiming_so_the_next_arrow_moves():
    session = played("aim", 11, [])  # seed 11: the troll can pick up the card to its right, or move
    assert troll.PickUp("right") in session.commands() and troll.Move("right") in session.commands()

    async def steps(pilot):
        screen = pilot.app.screen
        seen = []
        for other in ("h", "s", "u", "x", "question_mark"):
            await pilot.press("p")
            assert screen.aiming == "pick up" and "pick up: which way?" in screen_text(pilot.app)
            await pilot.press(other)
            if other == "question_mark":
                await pilot.press("escape")  # close the help
            seen.append(screen.aiming)
        await pilot.press("right")
        return seen, screen_text(pilot.app)

    seen, text = drive(DicehallApp(session=session), steps)
    assert seen == [None] * 5
    assert isinstance(session.events[-1], troll.TrollMoved) and session.state.carried == ()
    assert "the troll moves right" in text


def test_q_while_a_batch_is_stepped_shows_the_rest_and_leaves(monkeypatch):
    """Any other key is used up showing the rest; q leaves at once all the same (nothing on the
    board is acted on, and every event is already in the save)."""
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 60)  # no step comes from the timer in this test
    session = played("steps q", 11, ["move up"])

    async def steps(pilot):
        await pilot.press("left")
        stepping = pilot.app.screen.stepper is not None
        events = len(session.events)
        await pilot.press("q")
        return stepping, events, isinstance(pilot.app.screen, TrollScreen)

    stepping, events, still = drive(DicehallApp(session=session), steps)
    assert stepping and not still and len(session.events) == events


def test_a_batch_is_shown_step_by_step_and_a_key_shows_the_rest(monkeypatch):
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 60)  # no step comes from the timer in this test
    session = played("steps", 11, ["move up"])  # seed 11: the second action ends turn 1

    async def steps(pilot):
        await pilot.press("left")
        during = screen_text(pilot.app)
        events = len(session.events)
        await pilot.press("x")  # any key: the rest at once, and nothing else
        after = screen_text(pilot.app)
        assert len(session.events) == events and pilot.app.screen.stepper is None
        return during, after

    during, after = drive(DicehallApp(session=session), steps)
    batch = session.events[session.turn_starts()[-1]:]
    words = [session.describe(i, reveal=False) for i in range(session.turn_starts()[-1], len(session.events))]
    assert len(batch) == 4 and isinstance(batch[1], troll.FlightPhase)
    # while stepping, the board is the one after the action alone: the flight's words are not shown yet
    assert "step 1 of 4 (a key shows all): " + words[0] in during
    assert f"> {words[0]}" in during and words[1] not in during
    assert "turn 1, 0 actions left" in during and "2 AC !" in during  # the AC has not fled yet
    # after the key: every line of the batch in order, each marked with >, and the board that follows
    lines = after.splitlines()
    marked = [line.strip()[2:] for line in lines if line.strip().startswith("> ")]
    assert marked == words
    assert "4 steps (the > lines above)" in after and "'x' does nothing" not in after
    assert "turn 2, 2 actions left" in after and "4 AC !" in after


def test_the_steps_come_one_by_one_on_their_own(monkeypatch):
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 0.02)
    session = played("timer", 11, ["move up"])
    drawn = []  # how many events each redraw showed, and whether its log ended with that event
    original = TrollScreen.redraw

    def redraw(screen):
        original(screen)
        count = screen.shown_count()
        log = str(screen.query_one("#troll-log").render())
        drawn.append((count, session.describe(count - 1, reveal=False)[:60] in log))

    monkeypatch.setattr(TrollScreen, "redraw", redraw)

    async def steps(pilot):
        await pilot.press("left")
        await until(pilot, lambda: pilot.app.screen.shown_count() == len(session.events))  # the timer's last step
        await pilot.pause()
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    start = session.turn_starts()[-1]
    counts = [count for count, _ in drawn if count > start]
    assert sorted(set(counts)) == list(range(start + 1, len(session.events) + 1))  # each step drawn, in order
    assert counts == sorted(counts) and all(words for _, words in drawn)  # never the board without its words
    assert "4 steps (the > lines above)" in text


def test_wait_is_in_the_footer_only_when_it_is_the_one_thing_to_do(monkeypatch):
    # A troll left alone on a dormant card after the awakening phase flew its neighbours away is
    # rare in play; the screen's part is what it offers for the session's legal commands.
    session = played("wait", 5, [])
    assert troll.Wait() not in session.commands()

    async def steps(pilot):
        def footer() -> str:
            return screen_text(pilot.app).splitlines()[-1]

        await until(pilot, lambda: "h Hint" in footer())  # the footer's keys fill in after the screen (later when busy)
        normal = footer()
        await pilot.press("w")
        refused = screen_text(pilot.app)
        monkeypatch.setattr(type(session), "commands", lambda self: [troll.Wait()])
        pilot.app.screen.redraw()
        await until(pilot, lambda: "w Wait" in footer())
        return normal, refused, footer()

    normal, refused, only_wait = drive(DicehallApp(session=session), steps)
    assert "w Wait" not in normal and "h Hint" in normal
    assert "Not now: the troll can still act: wait is only for when no action is possible" in refused
    assert "w Wait" in only_wait


def test_options_name_preset_heights_and_explain_the_card_limit():
    import pytest as _pytest

    assert troll.check_options({"heights": [4, 3, 2, 2, 3, 4]})["difficulty"] == "sturdy"
    assert troll.check_options({"difficulty": "tutorial", "heights": [3, 2, 1, 1, 2, 3]})["difficulty"] == "standard"
    assert troll.check_options({"heights": [4, 3, 2, 2, 3, 5]})["difficulty"] == "custom"
    assert troll.check_options({"heights": [12, 5, 1, 1, 5, 1]})["heights"] == [12, 5, 1, 1, 5, 1]  # 50 fit
    with _pytest.raises(ValueError, match=r"would take 52 of the 52 cards to deal; at most 50 \(25 per row\)"):
        troll.check_options({"heights": [12, 5, 1, 1, 5, 2]})
    assert troll.check_options({"toys": True, "heights": [5, 5, 5, 5, 3, 1]})  # 48 with both aces held
    with _pytest.raises(ValueError, match=r"50 of the 50 cards to deal; at most 48 \(24 per row\)"):
        troll.check_options({"toys": True, "heights": [5, 5, 5, 5, 4, 1]})


def test_an_explicit_deal_names_its_first_card_and_the_rows_colours():
    from dicehall import engine

    order = list(reversed(troll.FULL_DECK))  # no shuffle: the log starts with the troll's placing
    session = engine.new_session("troll", seed=1, options={"deck": order}, dice=[2, 1])
    first = order[24]
    colour = troll.colour_of(first)
    assert not isinstance(session.events[0], troll.DeckShuffled)
    assert session.describe(0).startswith(f"first card {first}: lower row {colour}; rolled 2 (typed): troll on lower 2")
    shuffled = engine.new_session("troll", seed=1)
    text = shuffled.describe(1)
    first = shuffled.state.lower_flight.cards[0]
    assert text.startswith(f"first card {first}: lower row {troll.colour_of(first)}; rolled ")


def test_a_hint_longer_than_a_line_is_shown_whole_until_the_bridge_changes():
    from dicehall.engine.bots import troll as adviser

    session = saves.new_save("troll", name="hint", seed=7)  # the playtest: follow the hint to turn 6
    while session.state.turn < 6:
        session.play(adviser.choose(session.state))
    plan = adviser.best_turn(session.state)
    hint = f"HINT: {' then '.join(str(c) for c in plan.commands)} ({plan.reason})"
    assert len(hint) > 78  # longer than the status line: it used to be cut there

    async def steps(pilot):
        await pilot.press("h")
        shown = screen_text(pilot.app)
        await pilot.press("u")  # the bridge changes: the hint no longer answers it
        return shown, screen_text(pilot.app)

    shown, after = drive(DicehallApp(session=session), steps)
    lines = [line.strip() for line in shown.splitlines()]
    assert all(len(line) <= 78 for line in lines)
    first = next(i for i, line in enumerate(lines) if line.startswith("HINT: "))
    last = next(i for i, line in enumerate(lines) if line.startswith("WHAT HAPPENED"))
    assert " ".join(lines[first:last]) == hint  # every word, wrapped, nothing cut
    # the status line points at the reason; it does not read as one ("why: under the bridge" did)
    assert lines[-2] == f"hint: {' then '.join(str(c) for c in plan.commands)} (its reason is written above the log)"
    assert "why:" not in lines[-2]
    assert "HINT: " not in after


def test_the_status_line_gets_each_step_and_the_batch_whole(monkeypatch):
    # the screen hands its words to the status line uncut: the status line wraps them and marks a cut
    monkeypatch.setattr(TrollScreen, "STEP_SECONDS", 60)
    session = played("long words", 11, ["move up"])
    long = "words that run on past one line of the screen " * 3
    monkeypatch.setattr(type(session), "describe", lambda self, index, reveal=True: f"event {index + 1}: {long}")

    async def steps(pilot):
        await pilot.press("left")
        during = pilot.app.screen.query_one(StatusLine).message
        await pilot.press("x")  # the rest at once
        return during, pilot.app.screen.query_one(StatusLine).message, screen_text(pilot.app)

    during, after, text = drive(DicehallApp(session=session), steps)
    first = session.turn_starts()[-1]
    assert during == f"step 1 of 4 (a key shows all): event {first + 1}: {long}"
    assert after == f"4 steps (the > lines above), the last: event {len(session.events)}: {long}"
    assert text.splitlines()[-2].endswith("... (? shows all)")  # the shared status line marks the cut


def test_counts_are_words_one_action_one_step():
    from dicehall.tui.screens.troll.log import batch_words

    session = played("counts", 11, ["move up"])  # one of the turn's two actions taken

    async def steps(pilot):
        return screen_text(pilot.app).splitlines()[0]

    assert "turn 1, 1 action left" in drive(DicehallApp(session=session), steps)
    assert batch_words(session, len(session.events) - 2).startswith("2 steps (the > lines above)")


def test_the_deeper_hint_thinks_in_a_worker_and_shows_the_search_players_plan():
    from dicehall.engine.bots import troll_search

    session = saves.new_save("troll", name="deep hint", seed=7)
    events = len(session.events)
    plan = troll_search.best_turn(session.state, session.seed)
    hint = f"DEEPER HINT: {' then '.join(str(c) for c in plan.commands)} ({plan.reason})"

    async def steps(pilot):
        await pilot.press("H")
        thinking = screen_text(pilot.app)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        return thinking, screen_text(pilot.app)

    thinking, shown = drive(DicehallApp(session=session), steps)
    assert "deeper hint: thinking..." in thinking or "DEEPER HINT: " in thinking
    lines = [line.strip() for line in shown.splitlines()]
    first = next(i for i, line in enumerate(lines) if line.startswith("DEEPER HINT: "))
    last = next(i for i, line in enumerate(lines) if line.startswith("WHAT HAPPENED"))
    assert " ".join(lines[first:last]) == hint
    assert "sampled deals" in hint and lines[-2].startswith("deeper hint: ")
    assert session.to_act == 0 and len(session.events) == events  # a hint plays nothing
