"""Helpers for driving DicehallApp through Pilot and reading its screen as plain text."""
from __future__ import annotations

import asyncio


def screen_text(app) -> str:
    """What a player sees, as plain text lines (trailing spaces trimmed)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


def drive(app, steps):
    """Run `steps(pilot)` (an async function) against the app at 80x24 and return its result."""

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(main())
