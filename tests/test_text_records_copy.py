"""Copy over SSH: `y` in the viewer and in the saves list copies the text record to the player's own
clipboard through OSC 52 (Textual's copy_to_clipboard, written to the terminal), and the status line
says what was copied and how long it is. The sequence the app writes is captured here."""
from __future__ import annotations

import base64
import re

from dicehall import engine, saves
from dicehall.engine.games.dicetower import PullBlock
from dicehall.replays.text import CLIPBOARD_LIMIT, read_text
from dicehall.tui.app import DicehallApp
from tests.apphelpers import drive, screen_text, status

OSC52 = re.compile(r"\x1b\]52;c;([A-Za-z0-9+/=]*)\x07")


def capture(app) -> list[str]:
    """What the app writes to its terminal from now on."""
    written: list[str] = []
    driver = app._driver
    original = driver.write

    def write(data: str) -> None:
        written.append(data)
        original(data)

    driver.write = write
    return written


def copied(written: list[str]) -> list[str]:
    return [base64.b64decode(m.group(1)).decode("utf-8") for m in OSC52.finditer("".join(written))]


def test_y_in_the_viewer_writes_the_text_record_as_an_osc_52_sequence():
    session = engine.new_session("wager", seed=2, players=["Ada", "Bob"])
    for _ in range(6):
        if session.outcome is None:
            session.play(session.commands()[0])

    async def steps(pilot):
        written = capture(pilot.app)
        await pilot.press("y")
        await pilot.pause()
        return written, status(pilot.app), screen_text(pilot.app)

    written, line, screen = drive(DicehallApp(replay=session), steps)
    [text] = copied(written)
    assert list(read_text(text, "copied").events) == list(session.events)
    assert text.startswith('[Game "wager"]') and text.rstrip().splitlines()[-1].startswith("digest ")
    assert line == f"copied the text record through OSC 52: {len(text):,} characters, {text.count(chr(10)):,} lines"
    assert "copied the text record" in screen


def test_y_in_the_saves_list_copies_a_long_game_as_its_tag_lines():
    session = saves.new_save("dicetower", name="long night", seed=3, options={"start": 10000})
    while session.outcome is None:
        session.play(PullBlock())
    save_id = session.labels.save_id
    saves.close_save(session)

    async def steps(pilot):
        written = capture(pilot.app)
        await pilot.press("c", "y")
        await pilot.pause()
        return written, status(pilot.app)

    written, line = drive(DicehallApp(), steps)
    [text] = copied(written)
    lines = text.splitlines()
    assert all(line.startswith("[") for line in lines[:-2]) and '[Seed 3]' in lines
    assert lines[-2].startswith("{") and "events left out: a long game" in lines[-2]
    assert f"dicehall export {save_id} --text" in lines[-2]
    assert lines[-1] == "{the deal: dicehall play --deal dicetower:start=10000:3}"  # one line of chat replays it
    assert len(text.encode()) < CLIPBOARD_LIMIT
    assert line.startswith("copied the tag lines (a long game) through OSC 52: ")


def test_y_in_the_saves_list_copies_a_short_game_whole():
    session = saves.new_save("dicetower", name="short", seed=3)
    for _ in range(3):
        session.play(PullBlock())
    events = list(session.events)
    saves.close_save(session)

    async def steps(pilot):
        written = capture(pilot.app)
        await pilot.press("c", "y")
        await pilot.pause()
        return written, status(pilot.app)

    written, line = drive(DicehallApp(), steps)
    [text] = copied(written)
    read = read_text(text, "copied")
    assert list(read.events) == events and read.labels.save_name == "short"
    assert line.startswith("copied the text record through OSC 52: ")
