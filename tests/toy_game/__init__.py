"""A seventh game written only inside the tests, the way docs/architecture.md's "Adding a game" says
(tests/test_adding_a_game.py runs it): Pebbles, two players taking one or two pebbles in turn.

- `rules.py` is its engine module (step 1, engine/games/GAME.py) and `bots.py` its bots (engine/bots/GAME.py);
- `plugin.py` does what steps 2 and 3 write into the source: the catalogue row and the screen line;
- `screen.py` is its screen (step 3, tui/screens/GAME.py);
- `checks.py` are its tests (step 4), beside the architecture tests that take every catalogued game.
Nothing else in the repository names it."""
