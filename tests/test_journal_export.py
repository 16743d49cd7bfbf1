"""The journal kept: the Markdown of a scripted game (a snapshot), `export --markdown`, and the
journal surviving save, continue, replay and verify; hostile decks and entries inside saves and
replays refused in one line."""
from __future__ import annotations

import msgpack
import pytest

from dicehall import engine, replays, saves
from dicehall.cli import main
from dicehall.engine.codec import DecodeError, decode_event
from dicehall.engine.games import journal
from dicehall.engine.games.journal import (
    AmendEntry, DrawCard, PullBlock, RollSalvation, SkipEntry, StartDay, WriteEntry,
)


def scripted_game(session):
    """Two days: a pull, an entry amended, a skip, the Ace of Hearts, a salvation roll, a King."""
    session.play(StartDay(), faces=[2])
    session.play(DrawCard("3C"))
    session.play(PullBlock(), faces=[3, 5])
    session.play(WriteEntry("My fingers are numb.\nI keep writing."))
    session.play(DrawCard("AH"))
    session.play(WriteEntry("The valve! If only it fits."))
    session.play(AmendEntry(1, "My fingers are numb, but warm now."))
    session.play(RollSalvation(), faces=[6])
    session.play(StartDay(), faces=[1])
    session.play(DrawCard("KS"))
    session.play(SkipEntry())
    return session


def test_the_markdown_of_a_scripted_game(snapshot):
    session = scripted_game(engine.new_session("journal", seed=1, dice=[]))
    text = journal.markdown(session)
    assert text.startswith("# The Last Watch at Harrow Pass\n") and "## Day 1" in text and "## Day 2" in text
    assert "- tower: 3 5 typed: advantage, lower -3: 100 -&gt; 97" in text  # > as an entity: never a quote
    assert "*salvation die 6: a token removed, 9 left*" in text and "*(amended 1 time)*" in text
    assert "Chris Bissette" in text and "## To be continued" in text
    snapshot.assert_match(text, "journal_scripted.md")


def test_the_journal_survives_save_continue_replay_and_verify(tmp_path, capsys):
    session = saves.new_save("journal", name="harrow", seed=5)
    scripted_game(session)
    expected = journal.markdown(session)
    saves.close_save(session)
    again = saves.open_save("harrow")  # continue
    assert journal.markdown(again) == expected and again.state.pages[0].entry == "My fingers are numb, but warm now."
    again.play(RollSalvation(), faces=[2])
    again.play(StartDay(), faces=[1])
    again.play(DrawCard("4D"))
    again.play(WriteEntry("A new day's words."))
    saves.close_save(again)
    path = saves.export_save("harrow", tmp_path / "harrow.dhr")
    replayed = replays.read_replay(path)
    assert replayed.state.pages[-1].entry == "A new day's words."
    assert replayed.state.deck.title == "The Last Watch at Harrow Pass"  # the replay carries the deck
    assert replays.verify(path).startswith("ok: Journal")
    assert main(["export", "harrow", "--markdown"]) == 0
    printed = capsys.readouterr().out
    assert printed == journal.markdown(replayed) and "A new day's words." in printed
    assert main(["export", "harrow", "--markdown", "-o", str(tmp_path / "j.md")]) == 0
    assert (tmp_path / "j.md").read_text() == printed
    assert main(["export", "harrow", "--markdown", "-o", str(tmp_path / "j.md")]) == 1
    assert capsys.readouterr().err.strip().endswith("j.md already exists; add --force to replace it")


def test_markdown_of_a_game_that_keeps_no_journal_is_one_line(capsys):
    saves.close_save(saves.new_save("dicetower", name="tower", seed=1))
    assert main(["export", "tower", "--markdown"]) == 1
    assert capsys.readouterr().err == "dicehall: Dice Tower keeps no journal: --markdown is for games that write one\n"


def hostile_replay(tmp_path, change):
    session = scripted_game(engine.new_session("journal", seed=1, dice=[]))
    document = replays.replay_document(session)
    change(document)
    path = tmp_path / "hostile.dhr"
    path.write_bytes(msgpack.packb(replays.seal(document), use_bin_type=True))
    return path


@pytest.mark.parametrize("change, said", [
    (lambda d: d["options"]["deck"]["cards"].__setitem__(0, ["AH", "pull", "x" * 5000]), "description is 5000 characters"),
    (lambda d: d["options"]["deck"]["cards"].__setitem__(1, ["ZZ", "pull", "x"]), "card is not a card"),
    (lambda d: d["options"]["deck"].__setitem__("tokens", "many"), "tokens is not a whole number"),
    (lambda d: d["options"].__setitem__("deck", ["not", "a", "map"]), "the deck is not a map"),
])
def test_a_hostile_deck_inside_a_replay_is_one_line(tmp_path, change, said):
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(hostile_replay(tmp_path, change))
    message = str(caught.value)
    assert said in message and "\n" not in message and len(message) < 300


def test_an_entry_in_a_file_is_checked_against_the_rules(tmp_path):
    def inject(document):
        for event in document["events"]:
            if event[0] == "EntryWritten":
                event[1]["text"] = "\x1b[2Jwiped"
                return

    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(hostile_replay(tmp_path, inject))
    assert "\n" not in str(caught.value)


def test_entries_may_be_long_but_no_longer_than_their_cap_in_a_file():
    events = journal.EVENTS
    long_entry = "y" * journal.ENTRY_LIMIT
    assert decode_event(["EntryWritten", {"page": 1, "text": long_entry}], events).text == long_entry
    with pytest.raises(DecodeError, match="EntryWritten: field text is not str"):
        decode_event(["EntryWritten", {"page": 1, "text": long_entry + "y"}], events)
    with pytest.raises(DecodeError, match="CardDrawn: field card is not str"):
        decode_event(["CardDrawn", {"card": "y" * 101, "typed": False}], events)


def test_a_prompts_line_breaks_are_hard_breaks_in_both_exports_and_lines_on_the_board():
    from dicehall.tui.screens.journal_pages import draw_board

    deck = journal.parse_deck(b'[[card]]\ncard = "2H"\nprompt = "The door is shut.\\n# The lamp <b>is</b> out."\n', "door.toml")
    session = engine.new_session("journal", options={"deck": deck.record()}, seed=1, dice=[])
    session.play(StartDay(), faces=[1])
    session.play(DrawCard("2H"))
    assert "> The door is shut.\\\n> \\# The lamp &lt;b&gt;is&lt;/b&gt; out." in journal.markdown(session)
    assert "<p>The door is shut.<br>\n# The lamp &lt;b&gt;is&lt;/b&gt; out.</p>" in journal.html_page(session)
    board = draw_board(session.state, cut_prompt=True).plain.splitlines()
    assert "The door is shut." in board and board[board.index("The door is shut.") + 1].startswith("# The lamp")


def test_a_prompt_of_many_short_lines_is_cut_on_the_board_by_the_lines_it_takes():
    from dicehall.tui.screens.journal_pages import draw_board

    lines = "\\n".join(f"Line {n}." for n in range(12))
    deck = journal.parse_deck(f'[[card]]\ncard = "2H"\nprompt = "{lines}"\n'.encode(), "lines.toml")
    session = engine.new_session("journal", options={"deck": deck.record()}, seed=1, dice=[])
    session.play(StartDay(), faces=[1])
    session.play(DrawCard("2H"))
    board = draw_board(session.state, cut_prompt=True).plain
    assert "Line 4." in board and "Line 11." not in board and "(o: the whole" in board
    assert "Line 11." in draw_board(session.state).plain  # the viewer's board: whole
