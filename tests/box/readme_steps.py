"""The admin's steps as docs/hall.md writes them: the fenced blocks of its section "Setting up a hall
(for a box's admin)", so tests/box/admin_steps.sh and tests/test_sshd.py run exactly what the
documentation says, and cannot drift from it.

    python3 tests/box/readme_steps.py sh         # the shell blocks, in order, one script
    python3 tests/box/readme_steps.py key-line   # the authorized_keys line
    python3 tests/box/readme_steps.py match      # the sshd_config Match block
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HALL_DOC = Path(__file__).resolve().parents[2] / "docs" / "hall.md"
SECTION = "## Setting up a hall (for a box's admin)"


def section(text: str | None = None) -> str:
    """The section's text, from its heading to the next heading of any level."""
    text = HALL_DOC.read_text(encoding="utf-8") if text is None else text
    start = text.index(SECTION) + len(SECTION)
    following = re.search(r"^#{1,6} ", text[start:], re.MULTILINE)
    return text[start:start + following.start()] if following else text[start:]


def blocks(text: str | None = None) -> list[tuple[str, str]]:
    """Each fenced block of the section as (its language tag, its text)."""
    return [(m.group(1), m.group(2)) for m in
            re.finditer(r"^```(\w*)\n(.*?)^```\s*$", section(text), re.MULTILINE | re.DOTALL)]


def shell_blocks(text: str | None = None) -> list[str]:
    return [body for lang, body in blocks(text) if lang == "sh"]


def key_line(text: str | None = None) -> str:
    """The authorized_keys line as shown (its key is the documentation's placeholder)."""
    lines = [line for lang, body in blocks(text) if lang == ""
             for line in body.splitlines() if line.startswith("command=")]
    if len(lines) != 1:
        raise ValueError(f"expected one authorized_keys line in docs/hall.md, found {len(lines)}")
    return lines[0]


def key_options(text: str | None = None) -> str:
    """The authorized_keys line's options: everything before its key type."""
    line = key_line(text)
    return line[:line.index(" ssh-")]


def forced_command(text: str | None = None) -> str:
    """The command inside the line's command="..." option."""
    return re.fullmatch(r'command="([^"]*)",.*', key_options(text)).group(1)


def match_block(text: str | None = None) -> str:
    found = [body for lang, body in blocks(text) if lang == "" and body.startswith("Match ")]
    if len(found) != 1:
        raise ValueError(f"expected one Match block in docs/hall.md, found {len(found)}")
    return found[0]


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "sh"
    if what == "sh":
        print("\n".join(shell_blocks()), end="")
    elif what == "key-line":
        print(key_line())
    elif what == "match":
        print(match_block(), end="")
    else:
        sys.exit(f"readme_steps.py: unknown {what!r}: sh, key-line or match")
