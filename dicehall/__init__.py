"""dicehall's command line and what it runs without a screen: `dicehall.cli` (the `dicehall` command,
a table of subcommands) and `dicehall.sim` (whole games sampled). Neither imports Textual; the
commands that open a screen import `tui` when they run."""
