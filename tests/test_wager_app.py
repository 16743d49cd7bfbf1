"""Dead Man's Wager through the keys at 80x24: the setup screen, a game against bots (at their
pace, skippable), the odds, undo against bots, greyed-out keys that say why, and a snapshot."""
from __future__ import annotations

from pathlib import Path

from dicehall import saves
from dicehall.engine.core import Player
from tests.apphelpers import drive, screen_text, settled, status, until
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.wager import WagerScreen, WagerSetupScreen

SNAPSHOTS = Path(__file__).parent / "snapshots"


def test_setup_screen_names_seats_bots_and_order():
    async def steps(pilot):
        app = pilot.app
        await pilot.press("down", "enter")  # Dead Man's Wager in the launcher
        assert isinstance(app.screen, WagerSetupScreen)
        await pilot.press("enter")
        app.screen.query_one("Input").value = "[b]Ada[/b]"
        await pilot.press("enter")
        await pilot.press("down", "b")  # seat 2: best -> cautious
        await pilot.press("a", "b", "b", "b")  # seat 3: best -> cautious -> bold -> human
        await pilot.press("left_square_bracket")  # the human moves up to seat 2
        setup = screen_text(app)
        await pilot.press("s")
        assert isinstance(app.screen, WagerScreen)
        return app.screen.session, setup

    session, setup = drive(DicehallApp(), steps)
    assert [p.name for p in session.players] == ["[b]Ada[/b]", "Player 3", "Bot 2"]  # a default name follows the kind
    assert [(p.bot, p.style) for p in session.players] == [(False, ""), (False, ""), (True, "cautious")]
    assert "[b]Ada[/b]" in setup
    assert "\n Play on for places (o): off" in setup  # in line with the rest, not against the edge


def test_a_game_against_bots_by_keys_with_odds_and_undo():
    session = saves.new_save("wager", name="table", seed=12,
                             players=[Player("Ada"), Player("Bolt", True, "bold"), Player("Best", True, "best")])

    async def steps(pilot):
        app = pilot.app
        await pilot.press("w")
        refused = screen_text(app)
        await pilot.press("r")
        state = session.state
        if state.normal_left:
            await pilot.press("r")
        await pilot.press("h")  # (the tables may still be warming: their answer comes once they are)
        await until(pilot, lambda: status(app).startswith("your chance"))
        odds = screen_text(app)
        ended_at = len(session.events)
        await pilot.press("e", "space")  # end the turn, let the bots finish at once
        after_bots = len(session.events)
        assert session.outcome is not None or session.to_act == 0
        await pilot.press("u")
        assert len(session.events) == ended_at  # Ada's "end turn" and every bot move after it are gone
        undone = session.state
        turns = 0
        while session.outcome is None and turns < 200:
            await pilot.press("r")
            if session.to_act == 0 and session.state.normal_left:
                await pilot.press("r")
            if session.to_act == 0:
                await pilot.press("e")
            await pilot.press("space")
            turns += 1
        return refused, odds, ended_at, after_bots, undone, screen_text(app)

    refused, odds, ended_at, after_bots, undone, end = drive(DicehallApp(session=session), steps)
    assert "Not now:" in refused
    assert "your chance of winning: wager" in odds and "stop" in odds
    assert after_bots > ended_at  # the bots played
    assert undone.seat == 0 and undone.can_wager  # back at Ada's choice: wager or end the turn
    assert session.outcome is not None and session.outcome.summary.upper() in end


def test_odds_are_in_the_footer_only_when_there_is_a_wager_to_weigh():
    session = saves.new_save("wager", name="odds", seed=12, players=[Player("Ada"), Player("Bo")])

    async def steps(pilot):
        before = screen_text(pilot.app).splitlines()
        await pilot.press("h")
        refused = screen_text(pilot.app).splitlines()[-2]
        await pilot.press("r")
        if session.state.normal_left:
            await pilot.press("r")
        return before[-1], refused, screen_text(pilot.app).splitlines()[-1]

    before, refused, after = drive(DicehallApp(session=session), steps)
    assert "h Odds" not in before and "r Roll" in before
    assert refused.strip() == "Not now: the odds are for the moment you may wager: after your normal rolls"
    assert "h Odds" in after and "w Wager" in after


def test_people_alone_never_work_out_the_tables_until_h_which_works_them_out_in_a_thread(monkeypatch):
    """The tables cost about two seconds of CPU: a screen warms them only where a bot plays, and the
    first `h` of a game of people alone works them out in a thread (the screen says so, and keys
    still answer), then shows the odds; odds asked for a moment that has passed are not shown."""
    import threading

    from dicehall.engine.bots import wager as bots
    from dicehall.tui.screens.wager import screen as wager_screen

    warmed, ready, computed = [], [False], []
    monkeypatch.setattr(wager_screen, "warm_odds", lambda: warmed.append(True))
    monkeypatch.setattr(bots, "tables_ready", lambda: ready[0])
    real_tables = bots.tables

    gates = [threading.Event(), threading.Event()]  # each working out waits for the test to look meanwhile

    def tables():
        if not ready[0]:  # worked out: in the screen's thread, never the app's
            computed.append(threading.current_thread() is threading.main_thread())
            gates[len(computed) - 1].wait(30)
            ready[0] = True
        return real_tables()

    monkeypatch.setattr(bots, "tables", tables)

    def at_a_wager(session):
        while session.state.normal_left or not session.state.can_wager:
            session.play(session.commands()[0])

    people = saves.new_save("wager", name="people", seed=12, players=[Player("Ada"), Player("Bo")])
    at_a_wager(people)

    async def steps(pilot):
        await until(pilot, lambda: "h Odds" in screen_text(pilot.app).splitlines()[-1])
        await pilot.press("h")
        working = status(pilot.app)
        gates[0].set()
        await until(pilot, lambda: status(pilot.app).startswith("your chance"))
        ready[0] = False
        await pilot.press("h", "e")  # asked, then the turn ended before the answer
        gates[1].set()
        await until(pilot, lambda: "passed" in status(pilot.app))
        return working, status(pilot.app)

    working, passed = drive(DicehallApp(session=people), steps)
    assert warmed == [] and computed == [False, False]
    assert working == "working out the odds (a few seconds, once)..."
    assert passed == "the odds were for a moment that has passed: h asks again"

    against_a_bot = saves.new_save("wager", name="bot", seed=12, players=[Player("Ada"), Player("Bot 2", True, "best")])
    drive(DicehallApp(session=against_a_bot), settled)
    assert warmed == [True]


def test_wager_table_snapshot(snapshot):
    session = saves.new_save("wager", name="snap", seed=3, players=[Player("Hunter"), Player("Garrett"), Player("Barry")])

    async def steps(pilot):
        for key in "rereree":
            await pilot.press(key)
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "Hunter" in text and "Garrett" in text and "Barry" in text and "round" in text
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(text, "wager.txt")


def test_play_wager_seed_name_and_play_on_reach_the_save():
    async def steps(pilot):
        await pilot.press("o", "s")  # o switches play on back off: the option given was on
        return pilot.app.screen.session

    app = DicehallApp(setup=WagerSetupScreen(seed=9, name="Friday [b]night[/b]", play_on=True))
    session = drive(app, steps)
    assert session.seed == 9 and session.labels.save_name == "Friday [b]night[/b]"
    assert session.options == {"play_on": False}
    assert [p.name for p in session.players] == ["Player 1", "Bot 2"]


def test_two_sixes_warn_in_words_and_the_mark_of_the_beast_is_announced():
    session = saves.new_save("wager", name="beast", players=[Player("Ada"), Player("Bo")], dice=[6, 6, 1, 6])

    async def steps(pilot):
        await pilot.press("r", "w")  # 6, then a wager of 6: two sixes in a row
        warned = screen_text(pilot.app)
        await pilot.press("r", "e", "r")  # Bo rolls 1 and stops; Ada's third six
        return warned, screen_text(pilot.app)

    warned, beast = drive(DicehallApp(session=session), steps)
    ada = next(line for line in warned.splitlines() if "Ada" in line and "human" in line)
    assert "6 6" in ada and "! a 6 now: Mark of the Beast" in ada
    assert "*** MARK OF THE BEAST: three sixes in a row, Ada is out ***" in beast
    assert "*** Bo wins by default ***" in beast
    assert session.outcome.winners == (1,) and "BO WINS BY DEFAULT" in beast


def test_outrageous_fortune_is_announced():
    session = saves.new_save("wager", name="luck", players=[Player("Ada"), Player("Bo")], dice=[3, 3, 1, 3])

    async def steps(pilot):
        await pilot.press("r", "w", "r", "e", "r")
        return screen_text(pilot.app)

    text = drive(DicehallApp(session=session), steps)
    assert "*** OUTRAGEOUS FORTUNE: three threes in a row, Ada wins ***" in text
    assert session.outcome.summary == "Ada wins by Outrageous Fortune"


def test_a_bonus_turn_says_so_until_it_ends():
    # Ada wagers a 4: Bo's turn is a bonus turn, for both normal rolls and the wager choice
    session = saves.new_save("wager", name="bonus", players=[Player("Ada"), Player("Bo")], dice=[2, 4, 1, 1])

    async def steps(pilot):
        await pilot.press("r", "w")
        first = screen_text(pilot.app)
        await pilot.press("r")
        second = screen_text(pilot.app)
        await pilot.press("r")
        return first, second, screen_text(pilot.app)

    first, second, choice = drive(DicehallApp(session=session), steps)
    assert "Bo (bonus turn): 2 normal rolls to make (r), then wager (w) or not (e)" in first
    assert "Bo (bonus turn): 1 normal roll to make (r), then wager (w) or not (e)" in second
    assert "Bo (bonus turn): wager (w) or end the turn (e)" in choice


def test_setup_help_shows_the_bracket_keys_as_typed():
    async def steps(pilot):
        await pilot.press("down", "enter", "question_mark")
        return screen_text(pilot.app)

    text = drive(DicehallApp(), steps)
    assert "[  Seat up" in text and "]  Seat down" in text and "square_bracket" not in text


def test_the_scoresheet_reads_only_the_rounds_it_shows():
    from dicehall.engine.games import wager
    from dicehall.tui.screens.wager.table import ScoreSheet

    session = saves.new_save("wager", name="long table", seed=33, players=[Player("Ada"), Player("Bo")])
    while session.outcome is None and session.state.round < 7:  # end each turn as soon as the rules allow
        commands = session.commands()
        ends = [c for c in commands if isinstance(c, wager.EndTurn)]
        session.play(ends[0] if ends else commands[0])

    async def steps(pilot):
        screen = pilot.app.screen
        sheets = {}
        for height in (30, 4):  # room for every round, then for two (a line is the border)
            screen.query_one("#sheet").styles.height = height
            await pilot.pause()
            read = []
            state_at = type(session).state_at  # a Session has __slots__: its class is patched, for this draw
            type(session).state_at = lambda self, n: read.append(n) or state_at(self, n)
            try:
                sheet = screen.query_one(ScoreSheet)
                sheet.draw(session)
                sheets[height] = (sheet.content.plain.splitlines(), set(read))
            finally:
                type(session).state_at = state_at
        return sheets

    sheets = drive(DicehallApp(session=session), steps)
    (whole, read_all), (last_two, read_some) = sheets[30], sheets[4]
    assert len(whole) >= 7 and len(last_two) == 3  # the heading and two rounds
    assert last_two == whole[:1] + whole[-2:]  # the same rows as when every round is read
    assert len(read_all) == len(session.events)
    assert len(read_some) < len(session.events) * 3 // 4  # the rounds shown, and the bisection's few probes
