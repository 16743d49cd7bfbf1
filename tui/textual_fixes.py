"""Fixes to Textual that the app applies when it is imported (tui/app.py), until Textual has its own.

Textual's StylesCache (one per widget: the lines it drew) caches its method `get_inner_outer` with
`functools.lru_cache`, whose keys hold the last 1,024 StylesCaches alive with every line each drew
(Textual issue 6665): widgets long gone, a few hundred thousand objects in a long session, walked
again by every full garbage collection (about a sixth of the CPU of the suite's app tests). The method's
two styles depend on its two colours alone, so here it is cached by them alone: Textual's own body,
the same styles, and no widget kept.
"""
from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache
from textual.dom import DOMNode, NoScreen


def keep_no_dead_widgets() -> None:
    """Cache StylesCache.get_inner_outer by its colours, not by the StylesCache (once a process; left
    as it is if this Textual's is no lru_cache of a method)."""
    cached = StylesCache.__dict__.get("get_inner_outer")
    body = getattr(cached, "__wrapped__", None)
    if body is None or isinstance(cached, staticmethod):  # fixed in Textual, or here already
        return

    @lru_cache(1024)
    def by_colours(base_background, background):
        return body(None, base_background, background)  # the body never reads its first argument

    StylesCache.get_inner_outer = staticmethod(by_colours)  # type: ignore[method-assign,assignment]


# The names Textual 8's DOMNode.screen uses: the fix below is its body with the import done once, so it
# is applied only to a property that names exactly these.
SCREEN_NAMES = ("textual.screen", "Screen", "isinstance", "_parent", "AttributeError", "RuntimeError", "NoScreen")


def find_screens_without_importing() -> None:
    """Textual's DOMNode.screen (looked up about a thousand times a launcher test: each region,
    size and tooltip asks it) runs `from textual.screen import Screen` at every call, most of its
    cost. Here it is Textual's own walk up the parents with Screen imported once (once a process;
    left as it is if this Textual's property is not the one known here)."""
    textuals = DOMNode.__dict__.get("screen")
    code = getattr(getattr(textuals, "fget", None), "__code__", None)
    if code is None or code.co_names != SCREEN_NAMES:  # fixed in Textual, or here already, or another
        return
    from textual.screen import Screen  # after DOMNode: textual.screen imports textual.dom

    def screen(self) -> Screen:
        node = self
        try:
            while node is not None and not isinstance(node, Screen):
                node = node._parent
        except AttributeError:
            raise RuntimeError("Widget is missing attributes; have you called the constructor in your widget class?") from None
        if not isinstance(node, Screen):
            raise NoScreen("node has no screen")
        return node

    DOMNode.screen = property(screen, doc=getattr(textuals, "__doc__", None))  # type: ignore[method-assign,assignment]
