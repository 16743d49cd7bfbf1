"""The journal as documents a person posts or opens (`export --markdown`, `export --html`), with a
hostile deck and hostile entries: the Markdown rendered by a real CommonMark renderer (markdown-it-py,
also with GitHub's tables, strikethrough and bare links, and footnotes, definitions, math and task
lists) shows only the headings, paragraphs, line breaks, quotes and lists dicehall wrote, each text as
it was typed; the web page, parsed, has no script, image, link or handler, and the same texts."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from dicehall import engine, saves
from dicehall.cli import main
from dicehall.engine.games import journal
from dicehall.engine.games.journal import DrawCard, StartDay, WriteEntry
from dicehall.engine.games.journal.export import CONTENT_POLICY, SRD_CREDIT, md_escape, md_paragraphs

RENDERERS = {
    "commonmark": MarkdownIt("commonmark"),
    "github-like": MarkdownIt("gfm-like").use(footnote_plugin).use(deflist_plugin).use(dollarmath_plugin)
    .use(tasklists_plugin),
}

HOSTILE = [
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    "# heading",
    "---",
    "[x](javascript:alert(1))",
    "![i](https://evil.example/p.png) javascript:alert(3)",
    "`code` and ```fence",
    "a | b | c",
    "<!-- a comment -->",
    "<https://evil.com> www.evil.com mail@evil.com https://evil.com/x evil.com ftp://evil.com mailto:a@evil.com",
    "1. one",
    "- item",
    "> quote",
    "*em* _em_ **strong** ~~gone~~ $x$ ^up",
    "&lt;b&gt; &amp; &#60; &copy",
    "[ref]: https://evil.example",
    "[^1] [ ] task",
    "===",
    "\\",
    "ends in a backslash \\",
    '<a href="javascript:alert(1)">click</a>',
    "+ plus",
    ": a definition",
    "7) seven",
    "| a | b |",
]
CARDS = ["2C", "4C", "6C", "8C", "10C", "2D", "4D", "6D"]  # no pulls: the deck's texts and the entries only
ENTRIES = ["\n".join(HOSTILE[n::len(CARDS)]) for n in range(len(CARDS))]  # every hostile line, three to an entry
ENTRIES[0] += "\n\nA second paragraph.\nIts second line."
LAST_WORDS = "The last words.\n# not a heading\n<b>not bold</b>"


def hostile_session():
    """A listed deck of eight cards whose every text is hostile, each card's entry hostile, the last
    words too: the deck runs out on the second day."""
    record = {"title": HOSTILE[0], "author": HOSTILE[3], "intro": "\n".join(HOSTILE[:6]),
              "licence": "\n".join(HOSTILE[6:12]), "deck": "listed",
              "cards": [[card, "no-pull", HOSTILE[n + 12]] for n, card in enumerate(CARDS)]}
    session = engine.new_session("journal", seed=1, options=journal.check_options({"deck": record}), dice=[])
    for day in ([0, 1, 2, 3, 4, 5], [6, 7]):
        session.play(StartDay(), faces=[len(day)])
        for n in day:
            session.play(DrawCard(CARDS[n]))
            session.play(WriteEntry(ENTRIES[n]))
    session.play(StartDay(), faces=[1])  # nothing left to draw: the deck ran out
    session.play(WriteEntry(LAST_WORDS))
    assert session.state.phase == "over" and session.state.last_words == LAST_WORDS
    return session


class Reading(HTMLParser):
    """A page as a person reads it: each block element's text (a line break as a newline) and every
    tag with its attributes."""

    BLOCKS = {"h1", "h2", "h3", "p", "li", "title", "dt", "dd"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.blocks: list[tuple[str, str]] = []
        self.open: list[str] = []
        self.text = ""
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "br":
            self.text += "\n"
        elif tag in self.BLOCKS:
            self.open.append(tag)
            self.text = ""

    def handle_endtag(self, tag):
        if self.open and tag == self.open[-1]:
            self.blocks.append((self.open.pop(), self.text))
            self.text = ""

    def handle_data(self, data):
        self.text += data.replace("\n", "")  # the renderers' own line ends; a line break is a <br>

    def texts(self, tag: str) -> list[str]:
        return [text for name, text in self.blocks if name == tag]


def expected_headings(session) -> dict[str, list[str]]:
    pages = [f"{n}. {journal.card_words(session.state, page.card)}" for n, page in enumerate(session.state.pages, 1)]
    return {"h1": [HOSTILE[0]], "h2": ["Day 1", "Day 2", "The end"], "h3": pages + ["Last words"]}


def typed_texts_are_all_there(page: Reading) -> None:
    paragraphs = page.texts("p")
    for entry in ENTRIES:
        assert entry.split("\n\n")[0] in paragraphs, entry
    assert "A second paragraph.\nIts second line." in paragraphs
    for prompt in HOSTILE[12:20]:
        assert prompt in paragraphs  # in its quote
    assert "\n".join(HOSTILE[:6]) in paragraphs  # the intro
    assert "\n".join(HOSTILE[6:12]) in paragraphs  # the licence
    assert LAST_WORDS in paragraphs and f"by {HOSTILE[3]}" in paragraphs
    assert SRD_CREDIT in paragraphs  # the SRD's credit, even for a deck that gives none


@pytest.mark.parametrize("renderer", RENDERERS)
def test_the_markdown_of_a_hostile_journal_renders_as_typed_and_nothing_else(renderer):
    session = hostile_session()
    page = Reading(RENDERERS[renderer].render(journal.markdown(session)))
    assert {tag for tag, _ in page.tags} <= {"h1", "h2", "h3", "p", "br", "em", "blockquote", "ul", "li", "hr"}
    assert all(not attributes for _, attributes in page.tags)  # no link, no class, no handler
    for tag, headings in expected_headings(session).items():
        assert page.texts(tag) == headings
    typed_texts_are_all_there(page)


def test_the_web_page_of_a_hostile_journal_shows_its_texts_as_typed_and_runs_nothing():
    session = hostile_session()
    text = journal.html_page(session)
    page = Reading(text)
    tags = [tag for tag, _ in page.tags]
    assert set(tags) <= {"html", "head", "meta", "title", "style", "body", "main", "footer", "h1", "h2", "h3", "p",
                         "br", "blockquote", "ul", "li"}
    assert tags.count("style") == 1 and tags.index("style") < tags.index("body")
    for _, attributes in page.tags:
        assert set(attributes) <= {"lang", "charset", "http-equiv", "content", "name", "class"}
    metas = [attributes for tag, attributes in page.tags if tag == "meta"]
    assert {"charset": "utf-8"} in metas
    assert {"http-equiv": "Content-Security-Policy", "content": CONTENT_POLICY} in metas
    assert CONTENT_POLICY == "default-src 'none'; style-src 'unsafe-inline'"
    assert text.index("Content-Security-Policy") < text.index("<title>")  # before any text of the deck's
    assert page.texts("title") == [HOSTILE[0]]
    for tag, headings in expected_headings(session).items():
        assert page.texts(tag) == headings
    typed_texts_are_all_there(page)


LINE = st.text(alphabet="ab1 9.:#*_-+=>|<&`~[]()!\\$@^/;\"'w\u00e9x", min_size=1, max_size=24).map(
    lambda text: " ".join(text.split())).filter(bool)  # a line as a journal keeps it: no runs of spaces


@settings(max_examples=300, deadline=None)
@given(line=LINE)
def test_any_line_renders_as_one_paragraph_of_itself(line):
    for renderer in RENDERERS.values():
        page = Reading(renderer.render(md_escape(line)))
        assert [(tag, list(attributes)) for tag, attributes in page.tags] == [("p", [])], (line, md_escape(line))
        assert page.texts("p") == [line]
        assert Reading(renderer.render("## " + md_escape(line, starts_block=False))).texts("h2") == [line]
        note = Reading(renderer.render(f"*{md_escape('by ' + line)}*"))  # an author, in italics, as markdown() writes it
        assert [tag for tag, _ in note.tags] == ["p", "em"] and note.texts("p") == [f"by {line}"]


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=4))
def test_lines_keep_their_breaks_and_a_quote_stays_one_quote(lines):
    text = "\n".join(lines)
    for renderer in RENDERERS.values():
        assert Reading(renderer.render("\n".join(md_paragraphs(text)))).texts("p") == [text]
        quoted = Reading(renderer.render("\n".join(md_paragraphs(text, prefix="> "))))
        assert [tag for tag, _ in quoted.tags if tag != "br"] == ["blockquote", "p"] and quoted.texts("p") == [text]


def test_the_title_is_the_games_name_and_the_credit_is_the_srds():
    record = {"title": "Gnome Alone", "cards": [], "licence": "Gnome Alone (c) its author."}
    session = engine.new_session("journal", seed=1, options=journal.check_options({"deck": record}), dice=[])
    text = journal.markdown(session)
    assert text.startswith("# Gnome Alone\n")
    assert text.endswith("---\n\nGnome Alone (c) its author.\n\n" + md_paragraphs(SRD_CREDIT)[0] + "\n")
    sample = journal.markdown(engine.new_session("journal", seed=1, dice=[]))
    assert sample.count("This work is based on The Wretched") == 1  # the sample's licence carries it: not twice
    assert "".join(SRD_CREDIT.split()) in "".join(journal.RULES_TEXT.split())  # the rules say the same (wrapped)


def journal_save(name: str = "harrow"):
    session = saves.new_save("journal", name=name, seed=5)
    session.play(StartDay(), faces=[2])
    session.play(DrawCard("2H"))
    session.play(WriteEntry("<script>alert(1)</script>\nsecond line"))
    saves.close_save(session)
    return session.labels.save_id


def test_export_html_writes_a_page_named_by_the_save_or_by_o(tmp_path, monkeypatch, capsys):
    save_id = journal_save()
    monkeypatch.chdir(tmp_path)
    assert main(["export", "harrow", "--html"]) == 0
    written = tmp_path / f"{save_id}.html"
    assert capsys.readouterr().out == f"wrote {written}\n"
    page = written.read_text(encoding="utf-8")
    assert "<p>&lt;script&gt;alert(1)&lt;/script&gt;<br>\nsecond line</p>" in page
    assert main(["export", "harrow", "--html"]) == 1  # never replaced unasked
    assert capsys.readouterr().err.strip().endswith(".html already exists; add --force to replace it")
    assert main(["export", "harrow", "--html", "--force"]) == 0
    assert main(["export", "harrow", "--html", "-o", str(tmp_path / "j.html")]) == 0
    assert (tmp_path / "j.html").read_text(encoding="utf-8") == page
    capsys.readouterr()
    assert main(["export", "harrow", "--html", "-o", "-"]) == 0
    assert capsys.readouterr().out == page
    assert main(["export", "harrow", "--markdown", "-o", "-"]) == 0
    assert capsys.readouterr().out == journal.markdown(saves.load_readonly("harrow"))


@pytest.mark.parametrize("argv, said", [
    (["--markdown", "--html"], "--markdown or --html: one document at a time"),
    (["--html", "--text"], "--text and --analysed are for the text record"),
])
def test_export_document_options_that_do_not_go_together_are_one_line(argv, said, capsys):
    journal_save()
    with pytest.raises(SystemExit) as leaving:
        main(["export", "harrow", *argv])
    assert leaving.value.code == 2 and capsys.readouterr().err.strip().splitlines()[-1].startswith(f"dicehall: {said}")


def test_a_page_of_a_game_that_keeps_no_journal_is_one_line(capsys):
    saves.close_save(saves.new_save("dicetower", name="tower", seed=1))
    assert main(["export", "tower", "--html"]) == 1
    assert capsys.readouterr().err == "dicehall: Dice Tower keeps no journal: --html is for games that write one\n"


def test_on_a_box_a_document_goes_by_name_into_the_players_replays(monkeypatch, capsys):
    monkeypatch.setenv("DICEHALL_PLAYER", "ann")
    save_id = journal_save()
    replays = saves.replays_dir()
    assert main(["export", "harrow", "--html"]) == 0
    assert (replays / f"{save_id}.html").is_file()
    assert main(["export", "harrow", "--markdown", "-o", "mine"]) == 0  # a name: .md added
    assert (replays / "mine.md").read_text(encoding="utf-8") == journal.markdown(saves.load_readonly("harrow"))
    capsys.readouterr()
    for target in ["../x.html", "/tmp/x.html", ".hidden.html"]:
        assert main(["export", "harrow", "--html", "-o", target]) == 1
        assert "on this box a file is named by its name in your replays folder" in capsys.readouterr().err
    (replays / "link.html").symlink_to(replays / "mine.md")
    assert main(["export", "harrow", "--html", "-o", "link.html", "--force"]) == 1
    assert "a symbolic link in your replays folder: refused" in capsys.readouterr().err


def test_a_finished_hall_journal_exports_as_both_documents(tmp_path, monkeypatch, capsys):
    from dicehall.engine.games.journal import Draw
    from dicehall.saves.hall import Hall

    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))  # main(--hall) sets it: undone after the test
    hall = Hall(tmp_path / "hall")
    record = {"title": "Tide <Station>", "deck": "listed", "cards": [["2C", "no-pull", "What washed up?"]]}
    game = hall.host("journal", ["player"], "ann", options={"deck": record})
    for command in (StartDay(), Draw(), WriteEntry("A bottle.\n# a note inside")):
        game.play(command)
    if game.session.state.phase == "day":  # the day's die asked for one card: the deck runs out the next day
        game.play(StartDay())
    game.play(WriteEntry("Gone."))
    assert game.finished
    game.close()
    assert main(["--hall", str(hall.folder), "export", game.id, "--markdown"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# Tide &lt;Station&gt;\n") and "A bottle.\\\n\\# a note inside\n" in printed
    monkeypatch.chdir(tmp_path)
    assert main(["--hall", str(hall.folder), "export", game.id, "--html"]) == 0
    page = (tmp_path / f"hall-{game.id}.html").read_text(encoding="utf-8")
    assert "<h1>Tide &lt;Station&gt;</h1>" in page and "<p>A bottle.<br>\n# a note inside</p>" in page
