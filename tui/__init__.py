"""dicehall's screens: the Textual app (tui.app) and its screens. The command line is dicehall.cli.

Importing this package does not import Textual, so headless commands start fast.
"""
