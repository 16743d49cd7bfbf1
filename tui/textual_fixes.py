"""A fix to Textual that the app applies when it is imported (tui/app.py), until Textual has its own.

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
