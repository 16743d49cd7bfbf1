"""Bots: players and advisers that choose commands through the same engine API as the TUI."""
