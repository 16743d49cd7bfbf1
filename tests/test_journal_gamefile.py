"""dc-solo-rpg's newer game file (`NAME.game.md`, its documented type-based Markdown format) read as a
deck, as hostile input (issue #30); and the game's name as the journal's title: the file's, or the one
the player gives when the game starts (`--option title=`, the setup's line), in the screens and the export."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from dicehall import engine, saves
from dicehall.cli import main
from dicehall.engine.games import journal
from dicehall.engine.errors import RulingError
from dicehall.engine.games.journal import DeckError, DrawCard, StartDay, load_deck, parse_deck
from dicehall.engine.games.journal.caps import MAX_INTRO, MAX_PROMPT
from dicehall.engine.games.journal.export import md_escape
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.journal import JournalScreen
from dicehall.tui.screens.journal_setup import JournalSetupScreen
from tests.apphelpers import drive, open_deck_file, screen_text

LIGHTHOUSE = Path(__file__).parent / "fixtures" / "dc-solo-rpg-lighthouse.game.md"
SECRET = "hunter2-the-admins-secret"


def game_file(front="title: Tide Station", intro="## Who You Are\n\nThe keeper.\n", cards=None) -> str:
    """A whole game in the documented shape; `cards` replaces the card sections (a list of headings
    and bodies) to make one fault at a time."""
    if cards is None:
        cards = ([("Primary Success", "**Rescue**")] + [("Failure Counter", f"**King {n}**") for n in range(4)]
                 + [("Narrative", f"**Ace {n}**") for n in range(3)] + [("Challenge", f"**Pull {n}**") for n in range(16)]
                 + [("Event", f"**Quiet {n}**") for n in range(28)])
    sections = "".join(f"### {heading}\n\n{body}\n\n---\n\n" for heading, body in cards)
    return f"---\n{front}\n---\n\n{intro}\n## Card Deck\n\n{sections}"


def line_of(text: str, words: str) -> int:
    return text[: text.index(words)].count("\n") + 1


# ----- the documented format, as dc-solo-rpg places its cards -----

def test_a_game_file_reads_as_dc_solo_rpg_places_its_cards():
    deck = load_deck(LIGHTHOUSE)
    assert deck.title == "The Lighthouse at Corran Head"  # the front matter's title: the game's name
    assert deck.intro.split("\n\n")[:3] == ["A Wretched & Alone game", "Who You Are",
                                            "You are the last keeper of the light at Corran Head, cut off by the winter storms."]
    assert "the supply boat" in deck.intro and "**" not in deck.intro and "not a card" not in deck.intro  # a comment is nobody's
    assert len(deck.cards) == len(deck.prompts) == 52
    assert deck.action("AH") == "salvation" and deck.prompt("AH") == "A light answers from the sea A ship's lamp, far out. It signals back."
    assert [deck.prompt(f"K{suit}") for suit in "HDCS"] == [f"The storm takes something: {n}" for n in range(1, 5)]
    # the Narratives: plain first, then skip-damage, then return-king (named A-spades), on the other Aces
    assert [(deck.action(ace), deck.prompt(ace)) for ace in ("AD", "AC", "AS")] == [
        ("salvation-5", "A letter from home, read again"), ("skip-pull", "The wind drops for an hour"),
        ("return-king", "You mend what broke")]
    challenges = [rank + suit for rank in "3579" for suit in "HDCS"]
    assert {deck.action(card) for card in challenges} == {"pull"}
    assert deck.prompt("9S") == "Challenge 1" and deck.prompt("3H") == "Challenge 16"  # the two that name their card
    assert deck.prompt("3D") == "Challenge 2" and deck.prompt("9C") == "Challenge 15"  # the others by their place
    events = [rank + suit for rank in ("2", "4", "6", "8", "10", "J", "Q") for suit in "HDCS"]
    assert {deck.action(card) for card in events} == {"no-pull"}  # a Jack is an Event there: no pull
    assert deck.prompt("2H") == "Event 1" and deck.prompt("QS") == "Event 28"
    assert deck.settings["final_check"] == "pull"  # dc-solo-rpg's salvation ends with a final damage check


def test_a_game_file_plays_and_its_name_heads_the_export():
    options = journal.check_options({"deck": load_deck(LIGHTHOUSE).record()})
    session = engine.new_session("journal", seed=3, options=options, dice=[])
    session.play(StartDay(), faces=[1])
    session.play(DrawCard("AC"))  # skip-damage: the next pull pulls nothing
    assert session.state.skips == 1
    assert journal.markdown(session).startswith("# The Lighthouse at Corran Head\n")
    assert "<h1>The Lighthouse at Corran Head</h1>" in journal.html_page(session)


def test_a_narrative_named_where_another_would_go_takes_the_first_free_ace():
    """dc-solo-rpg refuses this file (its plain Narrative takes the Ace of diamonds, its skip-damage
    the Ace of clubs, then return-king names the clubs too); here the card named keeps its place."""
    cards = ([("Primary Success", "**Rescue**")] + [("Failure Counter", f"**King {n}**") for n in range(4)]
             + [("Narrative", "**Plain**"), ("Narrative: skip-damage", "**Skip**"), ("Narrative: A-clubs, return-king", "**Back**")]
             + [("Challenge", f"**Pull {n}**") for n in range(16)] + [("Event", f"**Quiet {n}**") for n in range(28)])
    deck = parse_deck(game_file(cards=cards).encode(), "tide.game.md")
    assert [(deck.action(ace), deck.prompt(ace)) for ace in ("AD", "AC", "AS")] == [
        ("salvation-5", "Plain"), ("return-king", "Back"), ("skip-pull", "Skip")]


def test_a_long_story_and_a_long_introduction_are_cut_at_a_word_and_say_so():
    story = "word " * 200  # dc-solo-rpg's stories run to 500 words; a deck keeps 400 characters a card
    cards = ([("Primary Success", f"**Rescue**\n\n{story}")] + [("Failure Counter", f"**King {n}**") for n in range(4)]
             + [("Narrative", f"**Ace {n}**") for n in range(3)] + [("Challenge", f"**Pull {n}**") for n in range(16)]
             + [("Event", f"**Quiet {n}**") for n in range(28)])
    deck = parse_deck(game_file(intro="## Who\n\n" + "sea " * 400, cards=cards).encode(), "tide.game.md")
    assert len(deck.prompt("AH")) <= MAX_PROMPT and deck.prompt("AH").startswith("Rescue word word")
    assert deck.prompt("AH").endswith("word...") and len(deck.intro) <= MAX_INTRO and deck.intro.endswith("sea...")


def test_texts_are_data_control_characters_gone_markup_kept():
    text = game_file(front="title: \"[bold]Tide\x1b[31m <script>\"",
                     intro="## [@click=app.quit]Who\n\nThe \x1b]0;owned\x07 keeper.\n")
    deck = parse_deck(text.encode(), "tide.game.md")
    assert deck.title == "[bold]Tide[31m <script>" and "\x1b" not in deck.intro and "\x07" not in deck.intro
    assert deck.intro.startswith("[@click=app.quit]Who")


# ----- refusals: one line, naming the file and the line, never the file's text -----

WHOLE = game_file()
REFUSED = [
    ("no front matter", "title: x\n## Card Deck\n", "line 1: not a game file"),
    ("front matter never closed", "---\ntitle: x\n" + "\n" * 200, "line 1: its front matter is not closed"),
    ("no title", game_file(front="subtitle: x"), "line 1: no title in the front matter"),
    ("no card deck", WHOLE.replace("## Card Deck", "## Cards"), "no '## Card Deck' heading"),
    ("a comment never closed", WHOLE.replace("## Who", "<!-- ## Who"), f"line {line_of(WHOLE, '## Who')}: a comment"),
    ("an unknown type", WHOLE.replace("### Event", "### Omen", 1),
     f"line {line_of(WHOLE, '### Event')}: the card's type is not one of Primary Success"),
    ("a card short", WHOLE.replace("### Event\n\n**Quiet 0**\n\n---\n\n", ""), "27 Event cards; a game has 1 Primary Success"),
    ("a 53rd card", WHOLE + "### Event\n\n**One more**\n", "a 53rd card"),
    ("no description", WHOLE.replace("**Quiet 3**", "Quiet 3"), f"line {line_of(WHOLE, '**Quiet 3**') - 2}: the card has no short"),
    ("skip-damage on a Challenge", WHOLE.replace("### Challenge", "### Challenge: skip-damage", 1),
     "skip-damage is for a Narrative card"),
    ("two modifiers", WHOLE.replace("### Narrative", "### Narrative: skip-damage, return-king", 1), "a card takes one modifier"),
    ("two skip-damage", WHOLE.replace("### Narrative", "### Narrative: skip-damage", 2), "more than one Narrative card with skip-damage"),
    ("a Narrative not an Ace", WHOLE.replace("### Narrative", "### Narrative: 7-hearts", 1), "a Narrative card is an Ace"),
    ("a Challenge on an even card", WHOLE.replace("### Challenge", "### Challenge: 2-hearts", 1), "a Challenge card is a 3, 5, 7, 9"),
    ("no such card", WHOLE.replace("### Event", "### Event: 11-swords", 1), "the card named is not RANK-SUIT"),
    ("one card twice", WHOLE.replace("### Event", "### Event: 2-hearts", 2), "the 2 of hearts again (first at line"),
]


@pytest.mark.parametrize("text, words", [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_a_bad_game_file_is_refused_in_one_line_naming_where(text, words):
    with pytest.raises(DeckError) as refused:
        parse_deck(text.replace("Quiet 5", SECRET).encode(), "tide.game.md")
    message = str(refused.value)
    assert message.startswith("tide.game.md") and words in message and "\n" not in message and SECRET not in message


WORST = [  # 256 KiB each, built to cost a careless reader quadratic time or memory
    "---\ntitle: x\n---\n## Card Deck\n### " + " " * 250_000 + "x\n",
    "---\ntitle: x\n---\n## Card Deck\n" + "### Challenge\n" * 18_000,
    "---\ntitle: x\n---\n" + "<!---->" * 37_000,
    "---\ntitle: x\n---\n<!-- " + "<!--" * 60_000,
    "---\ntitle: x\n---\n## Card Deck\n### Event:" + "," * 250_000,
    "---\n" + "\n" * 250_000,
]


@pytest.mark.parametrize("text", WORST, ids=["spaces", "headings", "comments", "open comments", "commas", "lines"])
def test_the_worst_game_files_are_refused_in_one_line(text):
    with pytest.raises(DeckError) as refused:
        parse_deck(text.encode(), "worst.game.md")
    assert str(refused.value).startswith("worst.game.md") and "\n" not in str(refused.value)


def test_a_game_file_past_the_cap_a_fifo_or_a_link_is_refused(tmp_path):
    big = tmp_path / "big.game.md"
    big.write_text(WHOLE + "<!--" + "x" * 270_000 + "-->")
    fifo = tmp_path / "fifo.game.md"
    os.mkfifo(fifo)
    link = tmp_path / "link.game.md"
    link.symlink_to(LIGHTHOUSE)
    for path, words in ((big, "larger than 256 KiB"), (fifo, "not a regular file"), (link, "a link")):
        with pytest.raises(DeckError, match=words):
            load_deck(path)


def test_a_pasted_game_file_is_told_by_its_look():
    from dicehall.saves.decks import pasted_deck

    assert pasted_deck("\n \n" + LIGHTHOUSE.read_text()).title == "The Lighthouse at Corran Head"  # blank lines before it


def test_on_a_box_the_admins_game_file_is_a_deck_by_name(tmp_path, monkeypatch):
    from dicehall.saves.decks import hall_deck, hall_decks, named_deck

    hall = tmp_path / "hall"
    (hall / "decks").mkdir(parents=True, mode=0o755)
    (hall / "decks" / "lighthouse.game.md").write_text(LIGHTHOUSE.read_text())
    monkeypatch.setenv("DICEHALL_HALL", str(hall))
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    assert hall_decks() == ["lighthouse"]
    assert hall_deck("lighthouse").title == named_deck("lighthouse").title == "The Lighthouse at Corran Head"
    with pytest.raises(DeckError, match="on this box a deck is one of sample, lighthouse"):
        named_deck(str(LIGHTHOUSE))  # a path is no name on a box


# ----- the game's name, given when it starts -----

def test_the_title_option_names_the_game_cleaned_and_capped():
    csv_deck = journal.parse_deck(b"card,suite,action,description\nA,hearts,,The boat.\n", "gnome-fixed.csv")
    assert csv_deck.title == "gnome-fixed"  # a bare CSV has no name but its file's
    options = journal.check_options({"deck": csv_deck.record(), "title": " Gnome\x1b[2J  Alone [bold]"})
    assert options["deck"]["title"] == "Gnome[2J Alone [bold]" and "title" not in options  # kept as the deck's title
    session = engine.new_session("journal", seed=1, options=options, dice=[])
    assert journal.markdown(session).startswith("# Gnome\\[2J Alone \\[bold\\]\n")  # read as typed, never as links
    for bad, words in (("   ", "title is empty"), ("t" * 81, "title is 81 characters, at most 80")):
        with pytest.raises(RulingError, match=words):  # an option's error: one line, as a bad ruling's
            journal.check_options({"title": bad})


def test_play_journal_refuses_a_bad_title_in_one_line_as_a_bad_ruling(capsys):
    assert main(["play", "journal", "--option", "title=" + "t" * 81]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == ["dicehall: --option: title is 81 characters, at most 80"]  # no usage


def test_the_setup_names_the_game_and_the_screens_and_export_use_it_at_80x24(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    deck = tmp_path / "gnome-fixed.csv"
    deck.write_text("card,suite,action,description\nA,hearts,primary-success,The boat.\n")

    async def steps(pilot):
        app = pilot.app
        app.push_screen(JournalSetupScreen())
        await pilot.pause()
        await open_deck_file(pilot, deck)
        while app.screen.current() != "title":
            await pilot.press("down")
        before = screen_text(app)
        await pilot.press("enter")  # the game's name: the box holds the deck's title to edit
        await pilot.pause()
        offered = app.screen.query_one("Input").value
        app.screen.query_one("Input").value = "t" * 81
        await pilot.press("enter")
        await pilot.pause()
        refused = screen_text(app)
        app.screen.query_one("Input").value = "Gnome Alone [b]x[/b][@click=app.quit]\x1b[2J"  # markup, an escape
        await pilot.press("enter")
        await pilot.pause()
        named = screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        return before, offered, refused, named, app.screen, screen_text(app)

    before, offered, refused, named, game, shown = drive(DicehallApp(), steps)
    assert "The game's name:  gnome-fixed  (the deck's)" in before and offered == "gnome-fixed"
    assert "title is 81 characters, at most 80" in refused
    title = "Gnome Alone [b]x[/b][@click=app.quit][2J"  # the escape's ESC gone, the markup text
    assert f"The game's name:  {title}  (yours)" in named
    assert isinstance(game, JournalScreen) and game.session.state.deck.title == title
    assert f"Journal: {title}" in shown and "gnome-fixed" not in shown
    assert journal.markdown(game.session).startswith(f"# {md_escape(title)}\n")  # the export's heading, escaped
    assert "\\[\\@click=app\\.quit\\]" in md_escape(title)
    saves.close_save(game.session)


# ----- dc-solo-rpg's older game folder: deck.csv, with config.yml's title -----

def game_folder(folder: Path, config: str | None = "title: Gnome Alone\nsubtitle: 'A tiny game'\nintroduction: |\n"
                "  ## Who\n\n  You are a gnome\n  in a garden.\n\nlabels:\n  failureCheckLoss: 'You lost'\n") -> Path:
    folder.mkdir()
    (folder / "deck.csv").write_text((Path(__file__).parent / "fixtures" / "dc-solo-rpg-game.csv").read_text())
    (folder / "game.css").write_text("body { color: red }\n")  # a browser's: nothing to a terminal
    if config is not None:
        (folder / "config.yml").write_text(config)
    return folder


def test_a_game_folder_is_its_deck_csv_named_by_its_config(tmp_path):
    deck = load_deck(game_folder(tmp_path / "gnome-alone"))
    assert deck.title == "Gnome Alone" and deck.intro == "A tiny game\n\nWho\n\nYou are a gnome in a garden."
    assert len(deck.prompts) == 52 and deck.action("AH") == "salvation"
    bare = game_folder(tmp_path / "gnome-fixed", config=None)
    (bare / "intro.md").write_text("# Gnome\n\nA gnome, alone.\n")
    assert (load_deck(bare).title, load_deck(bare).intro) == ("gnome-fixed", "Gnome\n\nA gnome, alone.")


def test_a_game_files_long_title_is_cut_at_a_word_and_the_game_plays():
    deck = parse_deck(game_file(front="title: " + "The long watch " * 8).encode(), "tide.game.md")
    assert deck.title == "The long watch " * 4 + "The long watch..."


def test_a_game_folders_files_are_hostile_input(tmp_path):
    long_title = game_folder(tmp_path / "long", config="labels:\n  x: y\ntitle: " + "A gnome alone " * 7 + "\n")
    assert load_deck(long_title).title == "A gnome alone " * 5 + "A..."  # cut at a word: the game plays
    fifo = game_folder(tmp_path / "fifo", config=None)
    os.mkfifo(fifo / "config.yml")
    linked = game_folder(tmp_path / "linked", config=None)
    (linked / "deck.csv").unlink()
    (linked / "deck.csv").symlink_to(LIGHTHOUSE)
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder, words in ((fifo, "fifo/config.yml: not a regular file"), (linked, "linked/deck.csv: a link"),
                          (empty, "empty: a folder, not a deck file")):
        with pytest.raises(DeckError, match=words):
            load_deck(folder)
    (tmp_path / "link").symlink_to(game_folder(tmp_path / "real"))
    with pytest.raises(DeckError, match="link: a link"):
        load_deck(tmp_path / "link")


def test_on_a_box_the_admins_game_folder_is_a_deck_by_name(tmp_path, monkeypatch):
    from dicehall.saves.decks import hall_decks, named_deck

    (tmp_path / "hall" / "decks").mkdir(parents=True, mode=0o755)
    game_folder(tmp_path / "hall" / "decks" / "gnome-alone")
    (tmp_path / "hall" / "decks" / "elsewhere").symlink_to(tmp_path)  # a link among the decks: never a deck
    (tmp_path / "hall" / "decks" / "old").mkdir()  # a folder with no deck.csv: no game
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    assert hall_decks() == ["gnome-alone"]
    assert named_deck("gnome-alone").title == "Gnome Alone"


def test_a_game_files_deck_travels_in_a_save_and_reads_back_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HOME", str(tmp_path / "home"))
    deck = load_deck(LIGHTHOUSE)
    assert journal.deck_from_record(deck.record(), "the save") == deck  # the save's check keeps every text
    session = saves.new_save("journal", name="lighthouse", seed=5, options=journal.check_options({"deck": deck.record()}),
                             players=saves.solo_players())
    session.play(StartDay(), faces=[1])
    saves.close_save(session)
    again = saves.open_save("lighthouse")  # continue
    assert again.state.deck == deck and again.state.deck.settings["final_check"] == "pull"
    saves.close_save(again)


def test_the_setup_shows_a_game_files_summary_and_name_at_80x24():
    async def steps(pilot):
        pilot.app.push_screen(JournalSetupScreen())
        await pilot.pause()
        return await open_deck_file(pilot, LIGHTHOUSE)

    shown = drive(DicehallApp(), steps)
    assert "Deck:  The Lighthouse at Corran Head" in shown
    assert "The game's name:  The Lighthouse at Corran Head  (the deck's)" in shown
    for line in journal.deck_summary(load_deck(LIGHTHOUSE))[1:]:
        assert line in shown  # each on one line of the 80 columns


# ----- the game's own words at its end (dc-solo-rpg's win- and lose-message) -----

def test_the_games_words_for_its_end_close_the_journal_and_its_export():
    from dicehall.engine.games.journal import SkipEntry
    from dicehall.tui.screens.journal_pages import journal_text

    deck = load_deck(LIGHTHOUSE)
    assert (deck.won, deck.lost) == ("The supply boat rounds the point at last.", "The lamp goes dark.")
    session = engine.new_session("journal", seed=3, options=journal.check_options({"deck": deck.record()}), dice=[])
    session.play(StartDay(), faces=[4])
    assert "The lamp goes dark." not in journal.markdown(session)  # not before the end
    for king in ("KH", "KD", "KC", "KS"):
        session.play(DrawCard(king))
        session.play(SkipEntry())
    assert session.outcome is not None and not session.outcome.winners
    assert "\n> The lamp goes dark.\n" in journal.markdown(session) and "rounds the point" not in journal.markdown(session)
    assert "<blockquote>" in journal.html_page(session) and "The lamp goes dark." in journal.html_page(session)
    assert journal_text(session.state).plain.endswith("The end\nThe lamp goes dark.\n")


def test_a_decks_words_for_its_end_are_capped_and_kept_out_of_older_records(tmp_path):
    sample = journal.sample_deck()
    assert "won" not in sample.record() and "lost" not in sample.record()  # none: the records read as before
    toml = b'[game]\ntitle = "Tide"\nwon = "The boat came."\nlost = "' + b"x" * 401 + b'"\n'
    assert parse_deck(toml, "tide.toml").lost == "x" * 397 + "..."
    deck = parse_deck(toml.replace(b"x" * 401, b"The sea\\u001b[2J won."), "tide.toml")
    assert (deck.won, deck.lost) == ("The boat came.", "The sea[2J won.")
    folder = game_folder(tmp_path / "gnome", config="title: Gnome\nlabels:\n  failureCheckLoss: 'You lost'\n"
                         "  successCheckWin: \"You won\"\n  rollForTasks: Roll\n")
    assert (load_deck(folder).won, load_deck(folder).lost) == ("You won", "You lost")
