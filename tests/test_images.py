"""Images to share (issue #32, item 4): `dicehall export SAVE --svg [--at N] [--graph]` and the
viewer's `e`. Each game's screen as an SVG parses as XML and holds the position's text, cell for
cell as the viewer draws it at 80x24; --at picks the event; --graph holds the analysis's marks; a
hostile name or comment comes out as escaped text, never as an element; `e` writes what the viewer
shows by name into the player's replays folder and says where in one line; a bad argument is one
line. Rendering one screen without a terminal costs about 0.7 s of CPU (measured: see docs/testing.md)."""
from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dicehall import engine, replays, saves
from dicehall.cli import main
from dicehall.engine.core import Player
from dicehall.engine.games import entry_of
from dicehall.engine.analysis import Analysis
from dicehall.saves import analyses
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.viewer import ViewerScreen
from dicehall.tui.svg import clean_svg
from tests.apphelpers import drive, screen_text, status, until
from tests.hallhelpers import fix_hall_seeds
from tests.test_viewer_app import BOTS, EVERY_GAME

SVG = "{http://www.w3.org/2000/svg}"
CELL, LINE = 20 * 0.61, 20 * 1.22  # Rich's SVG: a cell's width and a line's height, in its units


def svg_tree(svg: str) -> ET.Element:
    """The SVG parsed as XML (a ParseError fails the test), with no element that runs anything."""
    root = ET.fromstring(svg)
    names = {element.tag.removeprefix(SVG).lower() for element in root.iter()}
    assert not names & {"script", "foreignobject", "iframe", "a"}, names
    assert not any(name.startswith("on") for element in root.iter() for name in element.attrib)
    return root


def svg_lines(svg: str) -> list[str]:
    """The terminal's lines an SVG draws: each run of text put back at its cell (Rich writes a text
    element per run of one style, at x = column * CELL, y = row * LINE + 20)."""
    rows: dict[int, dict[int, str]] = {}
    for text in svg_tree(svg).iter(f"{SVG}text"):
        if "clip-path" not in text.attrib:
            continue  # the window's title, above the terminal
        row, column = round((float(text.get("y")) - 20) / LINE), round(float(text.get("x")) / CELL)
        for offset, char in enumerate((text.text or "").replace("\xa0", " ")):
            rows.setdefault(row, {})[column + offset] = char
    return ["".join(rows.get(row, {}).get(c, " ") for c in range(max(rows.get(row, {0: ""})) + 1)).rstrip()
            for row in range(max(rows) + 1)]


def viewer_text(session, position: int) -> str:
    """What the replay viewer shows at `position`, through Pilot at 80x24 (the test's own eyes)."""
    async def steps(pilot):
        await pilot.press("home", *["right"] * position)
        return screen_text(pilot.app)

    return drive(DicehallApp(replay=session), steps)


def exported(argv: list[str], capsys) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    written = capsys.readouterr().out.strip()
    assert written.startswith("wrote ")
    return Path(written.removeprefix("wrote ")).read_text(encoding="utf-8")


def played(game: str, moves: int = 12, name: str = "shown", options: dict | None = None):
    """A closed save of `game`, each seat playing its first legal command (quicker than the bots)."""
    session = saves.new_save(game, name=name, seed=3, players=BOTS.get(game), options=options)
    for _ in range(moves):
        if session.outcome is None:
            session.play(session.game.legal_commands(session.state)[0])
    saves.close_save(session)
    return session


@pytest.mark.parametrize("game", EVERY_GAME)
def test_each_games_screen_is_an_svg_that_parses_and_holds_the_position(game, tmp_path, capsys):
    session = played(game)
    at = len(session.events) // 2
    svg = exported(["export", "shown", "--svg", "--at", str(at), "-o", str(tmp_path / "x.svg")], capsys)
    lines = svg_lines(svg)
    assert len(lines) == 24 and max(map(len, lines)) <= 80  # a terminal of 80x24
    text = "\n".join(lines)
    assert f"Replay: {session.game.TITLE}" in text and f"event {at}/{len(session.events)}" in text
    assert f">{at:>4} {session.describe(at - 1)[:20]}" in text.replace("\u2502", " ")  # the event shown, highlighted


def test_the_svg_is_the_screen_cell_for_cell(tmp_path, capsys):
    played("towers", moves=20)
    svg = exported(["export", "shown", "--svg", "--at", "7", "-o", str(tmp_path / "7.svg")], capsys)
    assert "\n".join(svg_lines(svg)) == viewer_text(saves.load_readonly("shown"), 7)


def test_at_picks_the_event_and_without_it_the_end(tmp_path, capsys):
    session = played("dicetower", moves=6)
    total = len(session.events)
    assert main(["export", "shown", "--svg", "--at", "0", "-o", "-"]) == 0  # printed, as it would leave a box
    start = capsys.readouterr().out
    assert ">   0 the start of the game" in "\n".join(svg_lines(start))
    assert "expected pulls left" not in "\n".join(svg_lines(start))  # no analysis stored: --svg analyses nothing
    end = exported(["export", "shown", "--svg", "-o", str(tmp_path)], capsys)  # a folder: its default name
    assert f"event {total}/{total}" in "\n".join(svg_lines(end))
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".svg") == [f"{session.labels.save_id}.svg"]


# the dice of a hall game with this secret seed and finished_wager's moves: Bob wins by Outrageous
# Fortune, the wager's longest result, which leaves exactly 8 columns at 80 for the name "Ann v Bob"
LONGEST_RESULT = 5
LONGEST_TITLE = "Replay: Dead Man's Wager  Ann v...  (Ann, Bob; Bob wins by Outrageous Fortune)"


def test_a_finished_hall_games_id_is_drawn_as_export_takes_it(tmp_path, monkeypatch, capsys):
    from dicehall.saves.hall import Hall
    from tests.test_hall import finished_wager

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    ann, bob = finished_wager(Hall(tmp_path / "hall"))
    svg = exported(["--hall", str(tmp_path / "hall"), "export", ann.id, "--svg", "-o", str(tmp_path)], capsys)
    title = svg_lines(svg)[0]  # whoever won (the hall's seed is secret): the longest result leaves "Ann v..."
    assert "Replay: Dead Man's Wager  Ann v" in title and "  (Ann, Bob; " in title
    assert (tmp_path / f"hall-{ann.id}.svg").is_file()
    ann.close(), bob.close()


def test_the_viewers_title_is_the_same_drawn_before_the_first_layout_and_after_it(tmp_path, monkeypatch):
    """The title has 8 columns to spare for "Ann v Bob" at 80: one drawn after a layout (a busy
    machine's order of events) counted the padding twice and dropped the name."""
    from dicehall.saves.hall import Hall
    from tests.test_hall import finished_wager

    fix_hall_seeds(monkeypatch, LONGEST_RESULT)
    hall = Hall(tmp_path / "hall")
    ann, bob = finished_wager(hall)

    async def steps(pilot):
        before = screen_text(pilot.app).splitlines()[0]
        pilot.app.screen.redraw()  # laid out by now
        await pilot.pause()
        return before, screen_text(pilot.app).splitlines()[0]

    before, after = drive(DicehallApp(replay=hall.finished_session(ann.id)), steps)
    assert before == after and after.strip() == LONGEST_TITLE
    ann.close(), bob.close()


def marked_replay(path: Path, name: str = "Ann") -> Path:
    """A replay of Towers where `name` (a person) plays her last legal move each time against the
    easy bot: ten events, three of her moves marked, judged in a fraction of a second."""
    session = engine.new_session("towers", seed=3, players=[Player(name), Player("Bot", True, "easy")])
    bot = entry_of("towers").bots["easy"]
    while len(session.events) < 10:
        person = not session.players[session.to_act].bot
        session.play(session.game.legal_commands(session.state)[-1] if person else bot(session.state, 3, len(session.events)))
    return replays.write_replay(session, path)


def test_graph_holds_the_marks_and_the_screen_the_moves_mark_from_a_stored_analysis(tmp_path, capsys):
    record = marked_replay(tmp_path / "towers.dhr")
    session = replays.read_replay(record)
    graph = exported(["export", str(record), "--svg", "--graph", "-o", str(tmp_path / "g.svg")], capsys)
    marked = [d for d in analyses.stored(session).decisions if d.mark]  # --graph analysed it, and kept it
    lines = svg_lines(graph)
    assert f"Replay: {session.game.TITLE}" in lines[0] and " along the game; marks ! ?!, ? ?, X ??; ^ the end" in lines[1]
    assert lines[2].startswith("100%") and lines[9].startswith("  0%")
    assert sorted(lines[10].replace("^", "").split()) == sorted({"?!": "!", "?": "?", "??": "X"}[d.mark] for d in marked)
    for decision in marked:
        assert any(line.startswith(f"event {decision.event}, Ann: {decision.mark} ") for line in lines)
    first = marked[0]
    shown = "\n".join(svg_lines(exported(["export", str(record), "--svg", "--at", str(first.event),
                                          "-o", str(tmp_path / "m.svg")], capsys)))
    assert f"{first.event:>4} {first.mark} " in shown and "chance 0-100%" in shown  # the move's mark, the figures


HOSTILE = '<script>alert(1)</script> & [bold]x[/bold] [@click=app.quit]y[/] "\x1b[31mred\x07'


def test_hostile_names_and_comments_are_escaped_text_never_markup_or_elements(tmp_path, capsys):
    session = saves.new_save("dicetower", name=HOSTILE, seed=3, players=[Player(HOSTILE)])
    session.play(engine.get_game("dicetower").legal_commands(session.state)[0])
    saves.write_comment(session, 1, HOSTILE)
    saves.close_save(session)
    svg = exported(["export", session.labels.save_id, "--svg", "--at", "1", "-o", str(tmp_path / "h.svg")], capsys)
    text = "\n".join(svg_lines(svg))  # svg_tree: it parses, and holds no script
    assert "(<script>alert(1)</script> & [bold]x[/bol" in text  # the player's name in the title, as typed
    assert "{ <script>alert(1)</script> & [bold]x[/bold]" in text  # the comment: its markup shown, not read
    assert '[@click=app.quit]y[/] "[31mred' in text  # the escape character gone, its text left
    assert "\x1b" not in svg and "\x07" not in svg and "<script" not in svg and "&lt;script&gt;" in svg
    graph = exported(["export", str(marked_replay(tmp_path / "w.dhr", HOSTILE)), "--svg", "--graph",
                      "-o", str(tmp_path / "g.svg")], capsys)
    assert "<script" not in graph and "&lt;script&gt;" in graph
    svg_tree(graph)


DECK_TEXT = '<script>alert(1)</script> [bold]deck[/bold] [@click=app.quit]q[/] &amp;'


def test_a_decks_markup_is_escaped_text_in_the_journals_image(tmp_path, capsys):
    from dicehall.engine.games import journal

    deck = tmp_path / "hostile.toml"
    deck.write_text(f'[game]\ntitle = "{DECK_TEXT}"\ndeck = "listed"\n' + "".join(
        f'\n[[card]]\ncard = "{card}"\nprompt = "{DECK_TEXT}"\n' for card in ("AH", "2H", "3C", "KC", "KD", "KS", "KH")))
    session = played("journal", moves=3, options={"deck": journal.load_deck(str(deck)).record()})
    drawn = next(n for n in range(len(session.events)) if "card 1:" in session.describe(n)) + 1
    svg = exported(["export", "shown", "--svg", "--at", str(drawn), "-o", str(tmp_path / "j.svg")], capsys)
    board = " ".join(" ".join(line.split("\u2502")[0] for line in svg_lines(svg)).split())  # the prompt wraps
    assert f"(salvation) {DECK_TEXT}" in board and "<script" not in svg  # every character as the deck has it


def test_a_character_xml_forbids_is_taken_out_and_no_font_is_fetched():
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=20, force_terminal=True, file=open("/dev/null", "w"))
    console.print(Text("a\x0bb\x01c"))
    raw = console.export_svg(title="t\x0c")
    with pytest.raises(ET.ParseError):
        ET.fromstring(raw)  # what Rich alone writes
    cleaned = clean_svg(raw)
    svg_tree(cleaned)
    assert 'url("http' in raw and 'url("' not in cleaned  # only url(#...): the SVG's own clip paths


def test_e_in_the_viewer_writes_what_it_shows_into_the_replays_folder_and_says_where(tmp_path):
    session = played("towers", moves=10, name="keyed")

    async def steps(pilot):
        await pilot.press("home", "right", "right", "right")
        shown = screen_text(pilot.app)
        await pilot.press("e")
        first = status(pilot.app)
        await pilot.press("e")
        return shown, first, status(pilot.app)

    shown, first, second = drive(DicehallApp(replay=saves.load_readonly("keyed")), steps)
    folder = saves.replays_dir()
    name = f"{session.labels.save_id}-event-3"
    assert sorted(p.name for p in folder.iterdir()) == [f"{name}-2.svg", f"{name}.svg"]  # never replaced
    assert first == f"image written: {folder / name}.svg"  # the test's home is not under ~
    assert second.endswith(f"{name}-2.svg")
    assert "\n".join(svg_lines((folder / f"{name}.svg").read_text())) == shown


def test_the_analysis_ending_after_e_leaves_where_the_image_went_shown(monkeypatch):
    """The archive opens a game with its analysis started: e pressed while it runs keeps its answer."""
    played("towers", moves=10, name="keyed")
    release = threading.Event()

    def slow(session, samples=None, progress=None, partial=None):
        while not release.wait(0.01):  # still judging, and asking whether to go on
            progress(0, 1)
        return Analysis("towers", "win chance", (), (), ())

    monkeypatch.setattr(ViewerScreen, "analyser", staticmethod(slow))

    async def steps(pilot):
        viewer = pilot.app.screen
        await pilot.press("a")
        await until(pilot, lambda: viewer.analysis_running)
        await pilot.press("e")
        said = status(pilot.app)
        release.set()
        await until(pilot, lambda: not viewer.analysis_running)
        return said, status(pilot.app), viewer.analysis is not None

    said, after, analysed = drive(DicehallApp(replay=saves.load_readonly("keyed")), steps)
    assert said.startswith("image written: ") and after == said and analysed


def test_e_on_a_box_writes_into_the_players_folder_and_names_no_path(monkeypatch):
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    session = played("dicetower", moves=4, name="anns")

    async def steps(pilot):
        await pilot.press("e")
        return status(pilot.app)

    said = drive(DicehallApp(replay=saves.load_readonly("anns")), steps)
    (written,) = saves.replays_dir().iterdir()
    assert saves.replays_dir().parent.name == "ann" and written.suffix == ".svg"
    assert said.startswith(f"image written: {written.name} in your replays folder; to your machine: ssh ")
    assert said.endswith(f" dicehall export {session.labels.save_id} --svg --at {len(session.events)} -o - > {written.name}")


def test_on_a_box_an_image_leaves_over_ssh_on_standard_output_and_no_file_is_left(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    session = played("dicetower", moves=4, name="anns")
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "export anns --svg --at 2 -o -")  # `ssh play@box export ...`
    assert main(["--player", "ann"]) == 0
    assert f"event 2/{len(session.events)}" in "\n".join(svg_lines(capsys.readouterr().out))
    assert list(tmp_path.rglob("*.svg")) == []  # it went out on standard output
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", f"export anns --svg -o {tmp_path / 'x.svg'}")
    assert main(["--player", "ann"]) == 2
    assert one_line(capsys).startswith("dicehall: ") and list(tmp_path.rglob("*.svg")) == []


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_bad_arguments_get_one_line(tmp_path, monkeypatch, capsys):
    session = played("dicetower", moves=4, name="tower")
    total = len(session.events)
    with pytest.raises(SystemExit):
        main(["export", "tower", "--svg", "--at", str(total + 1)])
    assert one_line(capsys) == f"dicehall: --at {total + 1}: this game has events 0 (the start) to {total}"
    with pytest.raises(SystemExit):
        main(["export", "tower", "--at", "1"])
    assert one_line(capsys) == "dicehall: --at and --graph go with --svg"
    with pytest.raises(SystemExit):
        main(["export", "tower", "--svg", "--text"])
    assert one_line(capsys) == "dicehall: --svg is an export of its own: not with --text"
    assert main(["export", "tower", "--svg", "-o", str(tmp_path / "no" / "such" / "x.svg")]) == 1
    assert one_line(capsys).startswith("dicehall: cannot write ") and not (tmp_path / "no").exists()
    (tmp_path / "taken.svg").write_text("mine")
    assert main(["export", "tower", "--svg", "-o", str(tmp_path / "taken.svg")]) == 1
    assert one_line(capsys) == f"dicehall: {tmp_path / 'taken.svg'} already exists; add --force to replace it"
    assert (tmp_path / "taken.svg").read_text() == "mine"
    played("journal", moves=2, name="journal")
    with pytest.raises(SystemExit):
        main(["export", "journal", "--svg", "--graph"])
    assert one_line(capsys) == "dicehall: Journal has no analysis yet: --graph draws a game's analysis"
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")  # on a box: a file name only
    saves.close_save(saves.new_save("dicetower", name="anns", seed=1, players=saves.solo_players()))
    assert main(["export", "anns", "--svg", "-o", str(tmp_path / "x.svg")]) == 1
    assert "on this box a file is named by its name in your replays folder" in one_line(capsys)
    assert not (tmp_path / "x.svg").exists()
