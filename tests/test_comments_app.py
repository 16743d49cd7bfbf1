"""Players' comments in the viewer and a game's review at 80x24: `;` writes, edits and removes the
comment on the event shown; it is kept with the save (not a game event: undo is untouched), shown
in the event list ({}) and under the events, survives reopening the save; a replay file keeps
them in memory and `x` writes a copy with them."""
from __future__ import annotations

from dicehall import replays, saves
from dicehall.engine.games.dicetower import PullBlock
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.screens.viewer.comments import CommentScreen
from tests.apphelpers import drive, screen_text, status


def tower(name: str = "noted", pulls: int = 3):
    session = saves.new_save("dicetower", name=name, seed=7, players=saves.solo_players())
    for _ in range(pulls):
        session.play(PullBlock())
    return session


async def comment(pilot, text: str) -> None:
    await pilot.press("semicolon")
    assert isinstance(pilot.app.screen, CommentScreen)
    field = pilot.app.screen.query_one("Input")
    field.value = text  # typed whole: Pilot's key by key is slow and says nothing more
    await pilot.press("enter")
    await pilot.pause()


def test_a_comment_written_in_the_review_is_kept_with_the_save_and_not_an_undo(tmp_path):
    session = tower()
    events = list(session.events)
    save_id = session.labels.save_id

    async def steps(pilot):
        await pilot.press("v")
        assert isinstance(pilot.app.screen, ViewerScreen)
        await pilot.press("home", "right", "right")
        await comment(pilot, "a risky pull / but the odds were fine")
        said = status(pilot.app)
        text = screen_text(pilot.app)
        await pilot.press("q")
        assert not pilot.app.screen.session.can_redo
        return said, text

    said, text = drive(DicehallApp(session=session), steps)
    assert said == "comment written on event 2; kept with the save"
    assert ">   2 {} " in text  # the marker in the event list
    assert "{ a risky pull" in text and "but the odds were fine" in text  # under the events, two lines
    assert session.labels.comments == {2: "a risky pull\nbut the odds were fine"}
    assert list(session.events) == events and session.undos == 0  # not a game event, not an undo
    saves.close_save(session)
    again = saves.open_save(save_id)
    assert again.labels.comments == {2: "a risky pull\nbut the odds were fine"} and list(again.events) == events
    again.undo()  # undo takes back the move, never the comment
    assert again.labels.comments == {2: "a risky pull\nbut the odds were fine"}
    saves.close_save(again)


def test_editing_shows_the_comment_and_an_empty_one_removes_it():
    session = tower()
    save_id = session.labels.save_id
    saves.close_save(session)

    async def steps(pilot):
        seen = []
        pilot.app.open_viewer(saves.load_readonly(save_id))  # the saves list's v
        await pilot.pause()
        await pilot.press("home")
        await comment(pilot, "the whole game: <b>[bold]x[/bold]\x1b[31m")
        seen.append(status(pilot.app))
        await pilot.press("semicolon")
        seen.append(pilot.app.screen.query_one("Input").value)  # editing starts from the text kept
        await pilot.press("escape")
        seen.append(status(pilot.app))
        await comment(pilot, "changed")
        seen.append(status(pilot.app))
        seen.append(screen_text(pilot.app))
        await comment(pilot, "")
        seen.append(status(pilot.app))
        seen.append(screen_text(pilot.app))
        return seen

    seen = drive(DicehallApp(), steps)
    assert seen[0] == "comment written on the whole game; kept with the save"
    assert seen[1] == "the whole game: <b>[bold]x[/bold][31m"  # kept as text: the escape is gone, no markup
    assert seen[2] == "the comment on the whole game is as it was"
    assert seen[3] == "comment changed on the whole game; kept with the save"
    assert ">   0 the start of the game {}" in seen[4] and "{ changed" in seen[4]
    assert seen[5] == "comment removed from the whole game; kept with the save"
    assert "{}" not in seen[6] and "{ changed" not in seen[6]
    assert saves.load_readonly(save_id).labels.comments == {}


def test_a_save_played_elsewhere_refuses_the_comment_in_one_line():
    session = tower()
    save_id = session.labels.save_id  # still open: this "other dicehall" holds its lock

    async def steps(pilot):
        pilot.app.open_viewer(saves.load_readonly(save_id))
        await pilot.pause()
        await comment(pilot, "mine")
        return status(pilot.app), pilot.app.screen.session.labels.comments

    said, comments = drive(DicehallApp(), steps)
    assert "in use by another dicehall" in said and "\n" not in said
    assert comments == {}
    saves.close_save(session)


def test_a_replay_file_keeps_comments_in_memory_and_x_writes_a_copy_with_them(tmp_path):
    session = tower()
    replay = replays.read_replay(replays.write_replay(session, tmp_path / "g.dhr"))
    original = (tmp_path / "g.dhr").read_bytes()
    target = tmp_path / "with comments.dhr"

    async def steps(pilot):
        seen = []
        await pilot.press("x")
        seen.append(status(pilot.app))
        await comment(pilot, "nice")
        seen.append(status(pilot.app))
        await pilot.press("x")
        pilot.app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        seen.append(status(pilot.app))
        return seen

    seen = drive(DicehallApp(replay=replay), steps)
    assert seen[0] == "Not now: no comments yet: ; writes one on the event shown"
    assert seen[1] == "comment written on event 6; kept in memory only: x writes a copy of the replay with your comments"
    assert seen[2].startswith("wrote ") and seen[2].endswith("with 1 comment")
    assert replays.read_replay(target).labels.comments == {6: "nice"}
    assert (tmp_path / "g.dhr").read_bytes() == original  # the file given is left as it was
    saves.close_save(session)


def test_a_comment_over_the_limit_is_refused_in_the_box_with_why_and_nothing_is_cut():
    session = tower()

    async def steps(pilot):
        await pilot.press("v", "home", "right")
        await comment(pilot, "x" * 2001)
        refused = screen_text(pilot.app)
        still_open = isinstance(pilot.app.screen, CommentScreen)
        pilot.app.screen.query_one("Input").value = "x" * 2000
        await pilot.press("enter")
        await pilot.pause()
        return refused, still_open, status(pilot.app)

    refused, still_open, said = drive(DicehallApp(session=session), steps)
    assert still_open and "Not accepted: a comment holds at most 2,000 characters" in refused
    assert "this one has 2,001" in refused
    assert said == "comment written on event 1; kept with the save" and session.labels.comments == {1: "x" * 2000}
    saves.close_save(session)
