"""dicehall's terminal side: the command line (tui.cli) and the Textual app (tui.app).

Importing this package does not import Textual, so headless commands start fast.
"""
