"""Fixes to Textual that the app applies when it is imported (tui/app.py), until Textual has its own.

Textual's StylesCache (one per widget: the lines it drew) caches its method `get_inner_outer` with
`functools.lru_cache`, whose keys hold the last 1,024 StylesCaches alive with every line each drew
(Textual issue 6665): widgets long gone, a few hundred thousand objects in a long session, walked
again by every full garbage collection (about a sixth of the CPU of the suite's app tests). The method's
two styles depend on its two colours alone, so here it is cached by them alone: Textual's own body,
the same styles, and no widget kept. DOMNode.screen imports at each look; a Strip makes seven caches
at birth that most strips never use: both are Textual's own work done once (each function says how).
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


class _NoCache:
    """A strip's cache before its second use: every look a miss, nothing kept."""
    __slots__ = ()

    def get(self, key, default=None):
        return default

    def set(self, key, value) -> None:
        pass

    __setitem__ = set


UNUSED, USED_ONCE = _NoCache(), _NoCache()
# Strip's methods that cache their results, each with its cache's slot and Textual's size for it
STRIP_CACHES = {"adjust_cell_length": ("_line_length_cache", 4), "apply_filter": ("_filter_cache", 4),
                "crop_extend": ("_crop_extend_cache", 4), "crop": ("_crop_cache", 16), "divide": ("_divide_cache", 4),
                "apply_style": ("_style_cache", 16), "apply_offsets": ("_offsets_cache", 4)}
STRIP_SLOTS = ("_segments", "_cell_length", "_divide_cache", "_crop_cache", "_style_cache", "_filter_cache",
               "_render_cache", "_line_length_cache", "_crop_extend_cache", "_offsets_cache", "_link_ids", "_cell_count")


def strips_cache_from_their_second_use() -> None:
    """Textual's Strip (one line of a widget's drawing, made by the thousand a frame) makes seven
    caches as it is born, fourteen objects, though most strips are cropped or styled once and then
    dropped: making them and collecting them cost an app test 5-15% of its CPU (three app test files;
    a launcher-and-tower loop). Here each cache is made at the second call of its method on the strip
    (the first is worked out as Textual would anyway), so a strip used again caches as Textual's does.
    Once a process; left as it is unless this Textual's Strip has exactly the slots known here and each
    method names its cache."""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    if getattr(Strip.__init__, "lazy_caches", False) or tuple(Strip.__slots__) != STRIP_SLOTS:
        return
    for name, (slot, _) in STRIP_CACHES.items():
        method = Strip.__dict__.get(name)
        if slot not in getattr(getattr(method, "__code__", None), "co_names", ()):
            return

    def __init__(self, segments, cell_length=None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._divide_cache = self._crop_cache = self._style_cache = self._filter_cache = UNUSED
        self._line_length_cache = self._crop_extend_cache = self._offsets_cache = UNUSED
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def caching_from_the_second_call(method, slot: str, size: int):
        def cached(self, *args, **kwargs):
            cache = getattr(self, slot)
            if cache is UNUSED:
                setattr(self, slot, USED_ONCE)
            elif cache is USED_ONCE:
                setattr(self, slot, FIFOCache(size))
            return method(self, *args, **kwargs)
        cached.__doc__, cached.__name__ = method.__doc__, method.__name__
        return cached

    __init__.lazy_caches = True  # type: ignore[attr-defined]
    __init__.__doc__ = Strip.__init__.__doc__
    for name, (slot, size) in STRIP_CACHES.items():
        setattr(Strip, name, caching_from_the_second_call(Strip.__dict__[name], slot, size))
    Strip.__init__ = __init__  # type: ignore[method-assign]
