"""dicehall, the one installed name over the repository's folders: `dicehall.engine` (engine/),
`dicehall.tui` (tui/), `dicehall.saves` (saves/), `dicehall.replays` (replays/), mapped by
pyproject.toml's package-dir; and this folder's own command line and what it runs without a screen:
`dicehall.cli` (the `dicehall` command, a table of subcommands) and `dicehall.sims` (whole games
sampled). Neither imports Textual; the commands that open a screen import `dicehall.tui` when they run.
And one module below saves and replays, which both write through it: `dicehall.durable`."""
# Run from the repository root (pytest, `python -m dicehall`), this folder is found first, through
# the current directory on sys.path, and its __path__ holds only itself; dicehall.engine and the
# others are still found: an editable install's finder (setuptools) maps each of them by its full
# name to its folder, and Python asks it after the current directory has nothing by that name. A
# built wheel has them all inside dicehall/. tests/test_packaging.py checks both.
