"""docs/rules/GAME.md: the rules as dicehall plays them, exactly the text `dicehall rules GAME` prints
(tests/test_docs.py checks that they are equal, so the two cannot drift). After a change to a game's
RULES_TEXT, write them again:

    python tests/rules_docs.py
"""
from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOCS = ROOT / "docs" / "rules"


def game_ids() -> list[str]:
    from dicehall.engine.games import CATALOGUE

    return [entry.id for entry in CATALOGUE]


def printed_rules(game_id: str) -> str:
    """What `dicehall rules GAME` prints, through the command itself."""
    from dicehall.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["rules", game_id])
    if code != 0:
        raise RuntimeError(f"dicehall rules {game_id} exited {code}")
    return out.getvalue()


def write() -> list[Path]:
    RULES_DOCS.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in game_ids():
        path = RULES_DOCS / f"{game_id}.md"
        path.write_text(printed_rules(game_id), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for path in write():
        print(f"wrote {path.relative_to(ROOT)}")
