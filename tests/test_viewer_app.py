"""The replay viewer at 80x24, as a new player meets it: no line cut without a mark, a title that
keeps the game's name, keys that say what they do, PgUp/PgDn landing where the player decides,
reveal as a spoiler that asks first, and branching that leaves to the game list and never makes
the same save twice without asking."""
from __future__ import annotations

import pytest

from dicehall import replays
from dicehall import saves
from dicehall.engine.core import Player
from dicehall.engine.games import CATALOGUE, entry_of
from dicehall.engine.games.dicetower import PullBlock
from tests.apphelpers import drive, screen_text
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.dialogs import ConfirmScreen
from dicehall.tui.screens.launcher import LauncherScreen
from dicehall.tui.screens.viewer import ViewerScreen, replay_title
from dicehall.tui.widgets import StatusLine

BOTS = {"wager": [Player("Ada", True, "best"), Player("Bot 2", True, "bold"), Player("Bot 3", True, "cautious")],
        "towers": [Player("Ada", True, "easy"), Player("Bot", True, "easy")],
        "bones": [Player("Ada", True, "random"), Player("Bot", True, "random")]}


EVERY_GAME = [entry.id for entry in CATALOGUE if entry.playable]


def bot_game(game: str, seed: int = 3, moves: int = 60, name: str = "watched"):
    """A save of `game` played by its catalogue's bots, each seat's style (the troll by its first,
    the adviser); a game without bots by its first legal command (the tower's pull)."""
    session = saves.new_save(game, name=name, seed=seed, players=BOTS.get(game))
    bots = entry_of(game).bots

    def choose(state):
        if not bots:
            return session.game.legal_commands(state)[0]
        bot = bots.get(session.players[session.to_act].style) or next(iter(bots.values()))
        return bot(state, seed, len(session.events))

    for _ in range(moves):
        if session.outcome is not None:
            break
        session.play(choose(session.state))
    return session


def watched(session, tmp_path) -> DicehallApp:
    """The viewer on a replay of `session`, opened as `dicehall replay` does (no game screen
    behind it, so no bot plays on while the test reads the screen)."""
    return DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "watched.dhr")))


def event_lines(text: str) -> list[str]:
    """The event window's lines of a narrow-board viewer (right of the board's border)."""
    return [line.split("\u2502", 1)[1] for line in text.splitlines()[1:-3] if "\u2502" in line]


def test_event_lines_too_long_end_in_an_ellipsis_and_the_current_one_is_whole(tmp_path):
    session = bot_game("wager", moves=200)

    async def steps(pilot):
        await pilot.press("home")
        screens = []
        for _ in range(len(session.events)):
            await pilot.press("right")
            screens.append(screen_text(pilot.app))
        return screens

    cut = wrapped = 0
    for position, text in enumerate(drive(watched(session, tmp_path), steps), start=1):
        lines = event_lines(text)
        for number, line in enumerate(lines):
            if not line[2:6].strip().isdigit():
                continue  # the current event's wrapped lines, blank rows
            index = int(line[2:6]) - 1  # " " (padding), the > mark, the number in 4 columns, " ", the words
            words = session.describe(index, False)
            shown = line[7:].rstrip()
            if index == position - 1:  # the current event: whole, wrapped under itself
                rest = [more.strip() for more in lines[number + 1:] if more.startswith(" " * 7) and more.strip()]
                assert " ".join([shown] + rest) == words  # wrapped at spaces: every word whole
                wrapped += bool(rest)
            elif shown.endswith("..."):
                assert words.startswith(shown[:-3]) and len(words) > len(shown) - 3
                cut += 1
            else:
                assert shown == words  # never cut without a mark
        assert f"event {position}/{len(session.events)}" in text
    assert cut > 0 and wrapped > 0  # the game has lines too long for the window, and they said so


@pytest.mark.parametrize("game", EVERY_GAME)
def test_every_board_fits_the_viewer_at_80x24(game):
    session = bot_game(game, moves=40)
    from dicehall.tui.screens.games import game_screens

    viewer_width = 78 if game_screens(game).wide_board else 26  # the board's columns inside its padding and border
    draw = game_screens(game).board
    for position in range(0, len(session.events) + 1, 3):
        for line in draw(session.state_at(position), False).plain.splitlines():
            # a wager line may wrap at a word (Static wraps); nothing else is wider than the board
            assert len(line) <= viewer_width or (game == "wager" and " " in line), (game, position, line)


def test_the_title_keeps_the_game_and_the_result_and_cuts_the_name_with_a_mark():
    title = replay_title("Angry Troll versus Magic Bridge", "a rather long save name (branch)", "Player",
                         "unfinished", 78)
    assert title.startswith("Replay: Angry Troll versus Magic Bridge  a rather")
    assert title.endswith("...  (Player; unfinished)") and len(title) == 78
    no_room = replay_title("Angry Troll versus Magic Bridge", "a long name", "Player", "lost: troll flew away", 78)
    assert no_room == "Replay: Angry Troll versus Magic Bridge  (Player; lost: troll flew away)"
    short = replay_title("Dice Tower", "Dice Tower 2026-01-01 10:00", "Ada", "unfinished", 78)
    assert short == "Replay: Dice Tower  2026-01-01 10:00  (Ada; unfinished)"
    crowded = replay_title("Dead Man's Wager", "x" * 40, ", ".join(f"Player {n}" for n in range(6)), "unfinished", 78)
    assert crowded.startswith("Replay: Dead Man's Wager  (Player 0") and crowded.endswith("...; unfinished)")


def test_a_branch_of_an_unnamed_replay_is_named_after_its_game(tmp_path):
    session = bot_game("troll", moves=6, name="")
    loaded = replays.read_replay(replays.write_replay(session, tmp_path / "unnamed.dhr"))
    loaded.labels.save_name = ""  # a replay written without a name

    async def steps(pilot):
        await pilot.press("c")
        branch = pilot.app.screen.session
        await pilot.press("v")
        return branch, screen_text(pilot.app).splitlines()[0]

    branch, title = drive(DicehallApp(replay=loaded), steps)
    assert branch.labels.save_name == "Angry Troll versus Magic Bridge (branch)"
    assert title.startswith(" Replay: Angry Troll versus Magic Bridge  (branch)")


def test_branching_leaves_to_the_game_list_and_a_second_branch_asks_first(tmp_path):
    session = bot_game("dicetower", moves=5, name="shared")
    path = replays.write_replay(session, tmp_path / "shared.dhr")

    async def steps(pilot):
        app = pilot.app
        await pilot.press("o")
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter", "home", "right", "right", "c")
        branched = app.screen.session
        await pilot.press("q")
        after_first = type(app.screen)
        await pilot.press("o")
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter", "home", "right", "right", "c")
        asked = isinstance(app.screen, ConfirmScreen), getattr(app.screen, "question", "")
        await pilot.press("n")
        declined = type(app.screen), screen_text(app).splitlines()[-2]
        await pilot.press("c", "y")
        second = app.screen.session
        return branched, after_first, asked, declined, second

    branched, after_first, (asked, question), (declined_on, declined), second = drive(DicehallApp(), steps)
    assert branched.labels.save_name == "shared (branch)" and len(branched.events) == 2
    assert after_first is LauncherScreen  # q from the branch: the game list, not the viewer
    assert asked and 'A save named "shared (branch)" exists already' in question
    assert declined_on is ViewerScreen and "no branch made" in declined
    assert second.labels.save_name == "shared (branch 2)"
    names = [info.name for info in saves.list_saves()]
    assert sorted(names) == ["shared", "shared (branch 2)", "shared (branch)"]  # no silent twin


def test_q_in_a_replay_opened_from_the_command_line_leaves_the_program(tmp_path):
    session = bot_game("dicetower", moves=3)
    loaded = replays.read_replay(replays.write_replay(session, tmp_path / "cli.dhr"))

    async def steps(pilot):
        await pilot.press("q")
        await pilot.pause()
        return pilot.app.return_code, type(pilot.app.screen)

    code, screen = drive(DicehallApp(replay=loaded), steps)
    assert code == 0 and screen is ViewerScreen  # the app ended on the viewer, not the launcher


@pytest.mark.parametrize("game", EVERY_GAME)
def test_turn_keys_land_where_the_player_decides(game, tmp_path):
    session = bot_game(game, moves=30)

    async def steps(pilot):
        await pilot.press("home")
        stops = []
        while len(stops) < 8:
            await pilot.press("pagedown")
            viewer = pilot.app.screen
            if viewer.position == len(session.events):
                break
            stops.append((viewer.position, viewer.query_one(StatusLine).message))
        return stops

    stops = drive(watched(session, tmp_path), steps)
    assert len(stops) >= 3
    decisions = set(session.turn_starts())
    for position, status in stops:
        assert position in decisions  # the next event is a player's decision: nothing automatic between
        seat = session.game.to_act(session.state_at(position))
        assert status.startswith("turn ") and f"{session.players[seat].name} to decide" in status


def test_help_says_what_each_key_does_and_fits_80x24():
    session = bot_game("troll", moves=4)

    async def steps(pilot):
        await pilot.press("v", "question_mark")
        box = pilot.app.screen.query_one("#help-box")
        return box.max_scroll_y, screen_text(pilot.app)

    scroll, text = drive(DicehallApp(session=session), steps)
    assert scroll == 0  # nothing to scroll to
    assert "Left / Right  one event back / one event on" in text
    assert "? / q / Esc  this help / leave the viewer" in text and "+ / = / -  autoplay faster / autoplay slower" in text
    assert "equals_sign" not in text and "Left / q" not in text
    assert "r / H  reveal what is hidden / hindsight: was this deal winnable?" in text
    assert "(spoilers: each asks first)" in text and "l / j  open the solver's line / go to where it starts" in text


def test_reveal_is_r_asks_first_and_is_offered_only_where_something_is_hidden():
    troll_game = bot_game("troll", moves=4)
    tower_game = bot_game("dicetower", moves=2)

    async def troll_steps(pilot):
        await pilot.press("v", "h")
        h_key = screen_text(pilot.app).splitlines()[-2]
        await pilot.press("r")
        dialog = pilot.app.screen
        question = dialog.question if isinstance(dialog, ConfirmScreen) else ""
        await pilot.press("x")  # no answer: the dialog says which keys answer, and stays
        other = str(dialog.query_one("#confirm-keys").content), pilot.app.screen is dialog
        await pilot.press("n")
        kept = pilot.app.screen.reveal
        await pilot.press("r", "y")
        return h_key, (question, other), kept, pilot.app.screen.reveal, screen_text(pilot.app)

    async def tower_steps(pilot):
        await pilot.press("v", "r")
        return pilot.app.screen.reveal, screen_text(pilot.app)

    h_key, (question, (other, stayed)), kept, revealed, shown = drive(DicehallApp(session=troll_game), troll_steps)
    assert stayed and other.startswith("Not now: 'x' is no answer; y: yes")
    assert "Not now: 'h' does nothing here" in h_key  # h is the game's hint, never a spoiler here
    assert "That is a spoiler" in question and "the whole deck order" in question
    assert kept is False and revealed is True and "deck order, top first" in shown
    tower_revealed, tower_text = drive(DicehallApp(session=tower_game), tower_steps)
    assert tower_revealed is False and "Not now: nothing is hidden in Dice Tower" in tower_text
    assert "Reveal" not in tower_text.splitlines()[-1]


class CountedStops(list):
    """The viewer's turn stops, counting how many of them a key reads."""

    reads = 0

    def __getitem__(self, index):
        CountedStops.reads += 1
        return super().__getitem__(index)

    def __iter__(self):
        CountedStops.reads += len(self)
        return super().__iter__()

    def __contains__(self, item):
        CountedStops.reads += len(self)
        return super().__contains__(item)


def test_turn_keys_find_the_next_stop_without_reading_every_turn_of_a_long_game(tmp_path):
    session = saves.new_save("dicetower", name="long tower", seed=3, options={"start": 5000})
    for _ in range(400):
        session.play(PullBlock())

    async def steps(pilot):
        viewer = pilot.app.screen
        viewer.stops = CountedStops(viewer.turn_stops())
        await pilot.press("g")
        await pilot.press(*"500", "enter")  # the middle of the game
        start = viewer.position
        CountedStops.reads = 0
        positions = []
        for key in ["pagedown"] * 3 + ["pageup"] * 5:
            await pilot.press(key)
            positions.append(viewer.position)
        return start, positions, CountedStops.reads, list(viewer.stops)

    start, positions, reads, stops = drive(watched(session, tmp_path), steps)
    assert len(stops) >= 400
    later = [stop for stop in stops if stop > start][:3]
    assert positions[:3] == later
    assert positions[3:] == [stop for stop in stops if stop < later[-1]][-5:][::-1]
    assert reads / 8 < 100  # a few bisections read about log2(400) = 9 stops each; a scan reads all 400


def test_a_turn_stop_and_a_branch_say_their_words_whole(tmp_path, monkeypatch):
    # the viewer hands its words to the status line uncut: the status line wraps them and marks a cut
    replay = replays.read_replay(replays.write_replay(bot_game("wager", moves=20), tmp_path / "long.dhr"))
    long = "words that run on past one line of the screen " * 3
    describe = type(replay).describe  # a Session has __slots__: its class is patched, for this session only
    monkeypatch.setattr(type(replay), "describe", lambda self, index, reveal=True:
                        f"event {index + 1}: {long}" if self is replay else describe(self, index, reveal))
    replay.labels.save_name = "n" * 40  # the longest name: the branch's notice names its branch whole
    # the branch's bot waits: on a busy machine its paced move could replace the notice before it is read
    monkeypatch.setattr("dicehall.tui.screens.wager.screen.BOT_PACE", 60)

    async def steps(pilot):
        await pilot.press("home", "pagedown")
        turn = pilot.app.screen.query_one(StatusLine).message, pilot.app.screen.position, screen_text(pilot.app)
        await pilot.press("c")
        return turn, (pilot.app.screen.query_one(StatusLine).message, pilot.app.screen.session.labels.save_name)

    (turn, position, text), (branched, name) = drive(DicehallApp(replay=replay), steps)
    assert turn.endswith(f"to decide, after: event {position}: {long}")
    assert text.splitlines()[-2].endswith("... (? shows all)")
    assert branched == f"a new save branched from event {position}: {name}" and name.startswith("n" * 30)


def test_autoplay_speeds_are_counted_in_words(tmp_path):
    async def steps(pilot):
        await pilot.press("minus", "minus")  # from 4 events a second to 1
        return pilot.app.screen.query_one(StatusLine).message

    assert drive(watched(bot_game("dicetower", moves=3), tmp_path), steps) == "autoplay speed 1 event a second"


def test_a_replay_files_undo_count_is_marked_as_only_claimed(tmp_path):
    session = bot_game("dicetower", moves=5)
    session.undo()  # one undo, counted by the save itself

    async def where(pilot):
        return [line for line in screen_text(pilot.app).splitlines() if "undos" in line][-1]

    async def reviewed(pilot):
        await pilot.press("v")
        return await where(pilot)

    from_file = drive(watched(session, tmp_path), where)
    own = drive(DicehallApp(session=session), reviewed)
    assert from_file.endswith("undos 1 (claimed)")  # the file's header says so; no replay can prove it
    assert own.endswith("undos 1")  # one's own save counts its undos
