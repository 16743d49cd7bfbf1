"""A journal game as a document a person posts or opens: Markdown (`dicehall export SAVE --markdown`)
and a web page (`--html`). Both are drawn from one list of blocks: the game's name (the deck's title),
its author and intro, a heading per day, each card with its prompt, its pulls and its entry, the
salvation rolls, how it ended, the last words, the deck's licence and the SRD's credit. Read through
the session's public API (its events and the states between them).

Every text a deck or a player wrote is data, shown as typed: never markup, a link or HTML. In
Markdown each character that could start markup is escaped (a backslash, or an entity for & < >),
a line break inside a text is a hard break; on the page every text goes through html.escape and the
page has no script, no link and a Content-Security-Policy that lets nothing load."""
from __future__ import annotations

import re

from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import DiceRolled
from dicehall.engine.games.journal.cards import card_name
from dicehall.engine.games.journal.moves import CardDrawn, SalvationRolled
from dicehall.engine.games.journal.rules import card_words, outcome

# The Wretched & Alone SRD: "Wherever you put your copyright notice, add the following text" (rules_text
# carries it too; a test keeps the two the same)
SRD_CREDIT = ("This work is based on The Wretched (found at http://loottheroom.itch.io/wretched), product of "
              "Chris Bissette and Loot The Room, and licensed for our use under the Creative Commons "
              "Attribution 3.0 Unported license (http://creativecommons.org/licenses/by/3.0/).")

# A block: (kind, text) with kind one of title, day, card, heading (h1, h2, h3, h3), text (paragraphs:
# a blank line between two, a line break kept), note (a line in italics), quote (a prompt), pulls
# (lines, one item each), licence (paragraphs below a line across).
Block = tuple[str, str]


def _events_by_page(session) -> tuple[dict[int, list[str]], dict[int, list[str]], list[str]]:
    """From the log: each page's pulls, each day's salvation rolls, and the final pull's."""
    pulls: dict[int, list[str]] = {}
    salvation: dict[int, list[str]] = {}
    final_pull: list[str] = []
    page = 0
    state = session.state_at(0)
    for index, event in enumerate(list(session.events)):
        kind = type(event)
        if kind is CardDrawn:
            page = len(state.pages) + 1
        elif kind is DiceRolled:
            line = dicetower.describe(state.tower, event)
            (final_pull if state.phase == "final-pulling" else pulls.setdefault(page, [])).append(line)
        elif kind is SalvationRolled:
            removes = event.face >= state.salvation_from  # a 6, or less after a card's salvation-5 or -4
            removed = "a token removed" if removes else "no token removed"
            salvation.setdefault(state.day, []).append(f"salvation die {event.face}: {removed}, "
                                                       f"{state.tokens - removes} left")
        state = session.state_at(index + 1)
    return pulls, salvation, final_pull


def blocks(session) -> list[Block]:
    """The journal of `session`, in order, as blocks both documents draw."""
    pulls, salvation, final_pull = _events_by_page(session)
    final = session.state
    deck = final.deck
    out: list[Block] = [("title", deck.title)]
    if deck.author:
        out.append(("note", f"by {deck.author}"))
    if deck.intro:
        out.append(("text", deck.intro))
    day = 0  # days count from 1: the first card opens its day
    for number, card in enumerate(final.pages, start=1):
        if card.day != day:
            out += [("note", line) for line in salvation.get(day, [])]
            day = card.day
            out.append(("day", f"Day {day}"))
        out.append(("card", f"{number}. {card_words(final, card.card)}"))
        if deck.prompt(card.card):
            out.append(("quote", deck.prompt(card.card)))
        if number in pulls:
            out.append(("pulls", "\n".join(f"tower: {pull}" for pull in pulls[number])))
        if card.entry:
            out.append(("text", card.entry))
        else:
            out.append(("note", "(skipped)" if card.skipped else "(not written yet)"))
        if card.amended:
            out.append(("note", f"(amended {card.amended} time{'s' if card.amended > 1 else ''})"))
    out += [("note", line) for line in salvation.get(day, [])]
    result = outcome(final)
    out.append(("day", "The end" if result else "To be continued"))
    if final_pull:
        out.append(("pulls", "\n".join(f"final pull: {pull}" for pull in final_pull)))
    kings = ", ".join(card_name(king) for king in final.kings) or "none"
    summary = result.summary[:1].upper() + result.summary[1:] + "." if result else f"Day {final.day}: the game goes on."
    out.append(("text", f"{summary}\n\nTower {final.tower.countdown} of {final.tower.start} after "
                f"{final.tower.pulls} pull{'s' if final.tower.pulls != 1 else ''}; Kings: {kings}"
                + (f"; tokens {final.tokens} of {deck.settings['tokens']}" if final.salvation else "") + "."))
    if result and deck.ending(bool(result.winners)):  # the game's own words for its end
        out.append(("quote", deck.ending(bool(result.winners))))
    if final.last_words:
        out += [("heading", "Last words"), ("text", final.last_words)]
    licence = deck.licence
    if _words(SRD_CREDIT) not in _words(licence):  # a deck that carries the credit already is not told it twice
        licence = f"{licence}\n\n{SRD_CREDIT}" if licence else SRD_CREDIT
    out.append(("licence", licence))
    return out


def _words(text: str) -> str:
    return " ".join(text.split())


# ----- Markdown -----

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MARKUP = re.compile(
    r"[&<>]"  # HTML, autolinks <...> and entities: as entities, which no renderer takes for markup
    r"|[\\`*_\[\]|~$#@^]"  # code, emphasis, links and images, tables, strikethrough, math, headings, e-mail, superscript
    r"|[.:](?=\w)|:(?=/)"  # a link a renderer finds in bare text (www.x.org, https://, javascript:, mailto:)
)
# a block's marker where a line starts: a list, a setext heading's underline, a definition; an ordered
# list's number keeps its digits and escapes the . or ) after them (> # * _ ` ~ are escaped anywhere)
_LEADING_MARK = re.compile(r"^[-+=:]")
_LEADING_NUMBER = re.compile(r"^(\d{1,9})([.)])")


def md_escape(line: str, starts_block: bool = True) -> str:
    """One line of text as Markdown that shows it as typed, whatever renders it; `starts_block`: the
    line may start a block (not in a heading), so a marker there is escaped too."""
    line = _MARKUP.sub(lambda found: _ENTITIES.get(found.group(), "\\" + found.group()), line)
    if starts_block:
        line = _LEADING_NUMBER.sub(r"\1\\\2", _LEADING_MARK.sub(r"\\\g<0>", line))
    return line


def md_paragraphs(text: str, prefix: str = "") -> list[str]:
    """Paragraphs (a blank line between two), each line break a hard break (a backslash at its end)."""
    lines: list[str] = []
    for paragraph in _paragraphs(text):
        if lines:
            lines.append(prefix.rstrip())
        escaped = [md_escape(line) for line in paragraph]
        lines += [prefix + line + ("\\" if n < len(escaped) - 1 else "") for n, line in enumerate(escaped)]
    return lines


def _paragraphs(text: str) -> list[list[str]]:
    """`text` as its paragraphs, each a list of its lines (blank lines part them, and are dropped)."""
    found: list[list[str]] = [[]]
    for line in text.splitlines():
        line = line.strip()
        if line:
            found[-1].append(line)
        elif found[-1]:
            found.append([])
    return [paragraph for paragraph in found if paragraph]


_MD_HEADINGS = {"title": "# ", "day": "## ", "card": "### ", "heading": "### "}


def markdown(session) -> str:
    """The whole journal of `session` as one Markdown document (CommonMark)."""
    lines: list[str] = []
    for kind, text in blocks(session):
        if kind in _MD_HEADINGS:
            lines.append(_MD_HEADINGS[kind] + md_escape(" ".join(text.split()), starts_block=False))
        elif kind == "text":
            lines += md_paragraphs(text)
        elif kind == "note":
            lines.append(f"*{md_escape(text)}*")
        elif kind == "quote":
            lines += md_paragraphs(text, prefix="> ")
        elif kind == "pulls":
            lines += [f"- {md_escape(line)}" for line in text.splitlines()]
        elif kind == "licence":
            lines += ["---", "", *md_paragraphs(text)]
        lines.append("")
    return "\n".join(lines)


# ----- a web page -----

_STYLE = """
body { max-width: 40em; margin: 2em auto; padding: 0 1em; font: 1.1em/1.6 Georgia, "Times New Roman", serif;
       color: #222; background: #fbf8f1; }
h1 { font-size: 1.9em; line-height: 1.2; margin-bottom: 0.2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #c9bfae; }
h3 { margin-bottom: 0.3em; }
blockquote { margin: 0.5em 0; padding: 0.1em 1em; border-left: 4px solid #a8997f; background: #f1ebde; }
.note { font-style: italic; color: #555; }
.pulls { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85em; color: #444; }
footer { margin-top: 3em; border-top: 1px solid #c9bfae; color: #444; }
@media (prefers-color-scheme: dark) {
  body { color: #e6e1d6; background: #1d1b18; }
  blockquote { background: #2a2723; border-left-color: #7d725f; }
  .note, .pulls, footer { color: #b9b2a4; }
}
"""
# nothing may load or run: no script, no image, no font, no link followed by the browser itself
CONTENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
_HTML_HEADINGS = {"title": "h1", "day": "h2", "card": "h3", "heading": "h3"}


def _html_paragraphs(text: str, attributes: str = "") -> list[str]:
    import html  # here and in html_page, not above: its entities table slows every journal command's start

    return [f"<p{attributes}>" + "<br>\n".join(html.escape(line) for line in paragraph) + "</p>"
            for paragraph in _paragraphs(text)]


def html_page(session) -> str:
    """The whole journal of `session` as one web page: UTF-8, its style inline, nothing else to load."""
    import html

    journal = blocks(session)
    parts: list[str] = []
    for kind, text in journal:
        if kind in _HTML_HEADINGS:
            tag = _HTML_HEADINGS[kind]
            parts.append(f"<{tag}>{html.escape(' '.join(text.split()))}</{tag}>")
        elif kind == "text":
            parts += _html_paragraphs(text)
        elif kind == "note":
            parts += _html_paragraphs(text, ' class="note"')
        elif kind == "quote":
            parts += ["<blockquote>", *_html_paragraphs(text), "</blockquote>"]
        elif kind == "pulls":
            parts += ['<ul class="pulls">', *(f"<li>{html.escape(line)}</li>" for line in text.splitlines()), "</ul>"]
        elif kind == "licence":
            parts += ["<footer>", *_html_paragraphs(text), "</footer>"]
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="dicehall">',
        f"<title>{html.escape(' '.join(journal[0][1].split()))}</title>",  # the first block is the title
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        *parts,
        "</main>",
        "</body>",
        "</html>",
        "",
    ])
