"""An SVG of what the terminal shows (issue #32): Textual draws the screen and Rich writes it as SVG,
escaping its text as XML (a name "<script>" is the text &lt;script&gt;). Two things are taken out
here so that every image parses and opens alone: a character XML 1.0 forbids (a control character
that reached a cell would make the file unreadable), and the web fonts Rich's template fetches (an
image opened from a chat asks no server for anything: the browser's own monospace font draws it,
each run of text stretched to its cells, so the columns hold). Imports no screen: the viewer's key
uses it, and tui/images.py (the export's headless viewer) too."""
from __future__ import annotations

import re

from textual.app import App

# what XML 1.0 allows: tab, newline, carriage return and the printable planes, surrogates excepted
NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
WEB_FONT = re.compile(r',\s*url\("[^"]*"\)\s*format\("[^"]*"\)')  # Rich's @font-face sources beside local()


def clean_svg(svg: str) -> str:
    """`svg` with no character XML forbids and no font fetched from the web."""
    return WEB_FONT.sub("", NOT_XML.sub("", svg))


def image_title(game_title: str, position: int, total: int, what: str = "") -> str:
    """An image's window title: the game, what it shows and where ("Towers, event 12 of 40")."""
    return f"dicehall: {game_title}{what}, event {position} of {total}"


def screen_svg(app: App, title: str) -> str:
    """The app's screen as it is drawn now, as SVG, under `title` (the image's window title)."""
    return clean_svg(app.export_screenshot(title=title))
