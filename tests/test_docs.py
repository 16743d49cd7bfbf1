"""The documentation stays in its place: README.md a short front page, every link in README.md,
CHANGELOG.md and docs/ pointing at a file of the repository that exists (none out of it), and each
docs/rules/GAME.md exactly what `dicehall rules GAME` prints (tests/rules_docs.py writes them)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import rules_docs

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").rglob("*.md"))]
PROSE = [page for page in PAGES if page.parent != REPO / "docs" / "rules"]  # rules pages are printed text
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]*)[^)]*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def prose(text: str) -> str:
    """The text without fenced blocks and code spans, where a URL is an example, not a link."""
    text = re.sub(r"^```.*?^```\s*$", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def links(page: Path) -> list[str]:
    return [m.group(1) or m.group(2) for m in LINK.finditer(prose(page.read_text(encoding="utf-8")))]


def test_the_readme_is_a_short_front_page():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 220, f"README.md has {len(lines)} lines: move the detail into docs/"
    # the two commands stay at the top, exactly (.ci/run and the tests rely on them)
    assert lines[4:8] == [
        "```sh",
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/dicehall",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q -n auto",
        "```",
    ]


def test_the_pages_are_found():
    names = {page.relative_to(REPO).as_posix() for page in PAGES}
    assert {"README.md", "CHANGELOG.md", "docs/playing.md", "docs/hall.md", "docs/analysis.md",
            "docs/formats.md", "docs/architecture.md", "docs/performance.md", "docs/testing.md"} <= names
    assert links(REPO / "README.md"), "the link pattern finds nothing: the tests below would pass vacuously"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(REPO).as_posix())
def test_every_link_stays_in_the_repository_and_points_at_a_file_that_exists(page):
    for target in links(page):
        assert not re.match(r"^[a-z][a-z0-9+.-]*:|^//|^/", target, re.IGNORECASE), \
            f"{target!r} leaves the repository: say it in words, or point at a file in it"
        assert "../" not in target and target != "..", f"{target!r}: no link to ../"
        path = target.split("#", 1)[0]
        if path:  # an anchor alone points into the page itself
            resolved = (page.parent / path).resolve()
            assert resolved.is_relative_to(REPO) and resolved.exists(), f"{target!r}: no such file"


@pytest.mark.parametrize("page", PROSE, ids=lambda page: page.relative_to(REPO).as_posix())
def test_no_bare_address_leaves_the_repository(page):
    assert not re.findall(r"https?://\S+", prose(page.read_text(encoding="utf-8")))


def test_the_link_check_finds_what_it_should(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("[a](docs/x.md#y) [b](https://example.org) `[c](../z)`\n```\n[d](../w)\n```\n[e]: ../v\n")
    assert links(page) == ["docs/x.md#y", "https://example.org", "../v"]


def test_each_rules_page_is_what_dicehall_rules_prints():
    pages = sorted(path.stem for path in rules_docs.RULES_DOCS.glob("*.md"))
    assert pages == sorted(rules_docs.game_ids()), "run python tests/rules_docs.py"
    for game_id in rules_docs.game_ids():
        page = (rules_docs.RULES_DOCS / f"{game_id}.md").read_text(encoding="utf-8")
        assert page == rules_docs.printed_rules(game_id), f"docs/rules/{game_id}.md: run python tests/rules_docs.py"


def test_ci_runs_the_readmes_test_command():
    """README.md says .ci/run runs the same test command as its second line, after installing what
    the sshd and packaging tests need: its install and its last line are the README's."""
    run = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines() if line.strip()]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert run[-1] == ".venv/bin/python -m pytest -q -n auto" and "&& .venv/bin/python -m pytest -q -n auto\n" in readme
    assert ".venv/bin/pip install --quiet -e '.[test]'" in run and "pip install -e '.[test]'" in readme
    intro = readme.split("|")[0]  # the paragraph under the two commands says what else .ci/run installs
    assert "OpenSSH server" in intro and "build" in intro and "exactly" not in intro


def test_the_source_points_only_inside_the_repository():
    """A reader of the installed package has no ../shared beside it: a docstring or comment names the
    rules as docs/rules/GAME.md (the game's RULES_TEXT) states them, never the seeds' folder."""
    outside = [str(path.relative_to(REPO)) for top in ("engine", "tui", "saves", "replays", "dicehall")
               for path in sorted((REPO / top).rglob("*.py")) if "../shared" in path.read_text(encoding="utf-8")]
    assert outside == []
