"""Towers (seed 003): place eight rooks each on an 8x8 board, move each once, score lines of sight.

Rules as docs/rules/towers.md states them. Players alternate placing until all 16 towers stand; then,
starting with the player who placed second, they alternate moving one of their unbuilt towers like
a rook (never through a tower); a moved tower is built and never moves again. A player with no
legal move is skipped; the game ends when neither can move. In every row and column, each pair of
neighbouring towers of one colour scores the empty squares between them. A match is two games with
the first placer switched, decided by the sum of the margins.

Seat 0 plays Light, seat 1 Dark. Squares are numbered 0..63, row by row from the top (a8) to the
bottom (h1), and named like chess squares. There is no chance in Towers: `decide` returns the
decision's event followed by what it causes at once (a skipped turn, the end of a game).
"""
from __future__ import annotations

from dataclasses import dataclass

from dicehall.engine.core import IllegalCommand, Outcome, Player, Result
from dicehall.engine.games import entry_of
from dicehall.engine.errors import OptionError
from dicehall.engine.session import replace
from dicehall.engine.text import clean_text

ID = "towers"
TITLE = "Towers"
BLURB = "rooks on an 8x8 board"
RULES_VERSION = 1
MEASURE = entry_of(ID).measure  # the catalogue's: what its results count, which way is better
SIZE = 8
TOWERS_EACH = 8
LIGHT, DARK = 0, 1
COLOURS = ("Light", "Dark")
LEVELS = ("easy", "medium", "hard")  # the bot's levels (engine/bots/towers.py)
BOT_STYLES = LEVELS
SEAT_NAMES = COLOURS
HOST_CHOICES = (("first", "First to place", ("light", "dark"), ("Light", "Dark")),
                ("match", "Length", (False, True), ("one game", "a match of two games")))

# a square's contents: EMPTY, or a tower of one colour, unbuilt or built
EMPTY = 0
UNBUILT = (1, 2)  # Light, Dark
BUILT = (3, 4)

RULES_TEXT = """\
TOWERS - an abstract game for two on an 8x8 board: Light and Dark, eight
towers each (rooks).

Phase 1, placement: the players take turns placing one tower on any empty
square until all 16 stand. Either colour may place first (a setup choice).

Phase 2, movement: the player who placed second moves first; then the
players take turns. A move takes one of your unbuilt towers in a straight
line along its row or column, one or more squares, never through another
tower (like a rook in chess). The moved tower is built: it never moves
again. Passing is not allowed. A player with no legal move is skipped (the
log says so); the game ends when neither player can move.

Scoring: in every row and every column, each pair of neighbouring towers
(nothing between them) of the same colour scores the number of empty
squares between them. Built or unbuilt does not matter; next to each other
they score 0. The higher score wins; equal scores draw.

A match is two games, the first placer switched in the second; the sum of
the margins decides (a draw if it is 0).

On the board: L and D are unbuilt towers, [L] and [D] built ones. Between
two towers that score, Light's line of sight is drawn - or |, Dark's = or
:; where two lines cross, the vertical line's mark sits in the horizontal
one (--:-- is Light's row crossing Dark's column). When you pick a tower
to move, its legal destinations show *.

Keys: arrows or h j k l move the cursor; Enter or Space places a tower,
picks one of yours to move, or moves the picked tower to the cursor;
Escape drops the pick. u undoes (against the bot: your move and its
answer).

dicehall's decisions (where the seed and the rulings are silent):
- Squares are named like a chessboard: files a to h from the left, ranks
  1 to 8 from the bottom. Both colours may place anywhere.
- A game ends at once when neither player can move, even if some towers
  never moved (they score where they stand).
- In a match, each player keeps their colour in both games; the player who
  placed second in game 1 places first in game 2.
"""


# ----- squares -----
def square_name(square: int) -> str:
    row, col = divmod(square, SIZE)
    return f"{'abcdefgh'[col]}{SIZE - row}"


def parse_square(text: str) -> int:
    text = text.strip().lower()
    if len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678":
        return (SIZE - int(text[1])) * SIZE + "abcdefgh".index(text[0])
    raise IllegalCommand(f"not a square: {clean_text(text, 10)!r} (a1 to h8)")


def owner(cell: int) -> int | None:
    return None if cell == EMPTY else (cell - 1) % 2


def is_built(cell: int) -> bool:
    return cell in BUILT


# every row and every column as a list of squares, for scoring
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
) + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right as (row, col) steps


# ----- commands -----
@dataclass(frozen=True)
class Place:
    """Placement phase: put a tower of the player to act on an empty square."""

    square: int

    def __str__(self) -> str:
        return f"place {square_name(self.square)}"


@dataclass(frozen=True)
class Move:
    """Movement phase: move one of your unbuilt towers like a rook; it becomes built."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"move {square_name(self.source)}-{square_name(self.target)}"


COMMANDS = (Place, Move)


def parse_command(text: str) -> object:
    """"place c4" or "move c4-c7" (also "c4" and "c4 c7")."""
    words = str(text).lower().replace("-", " ").split()
    if words and words[0] in ("place", "move"):
        words = words[1:]
    if len(words) == 1:
        return Place(parse_square(words[0]))
    if len(words) == 2:
        return Move(parse_square(words[0]), parse_square(words[1]))
    raise IllegalCommand(f"not a Towers command: {clean_text(text, 30)!r} (place c4, move c4-c7)")


# ----- events -----
@dataclass(frozen=True)
class TowerPlaced:
    player: int
    square: int


@dataclass(frozen=True)
class TowerMoved:
    player: int
    source: int
    target: int


@dataclass(frozen=True)
class TurnSkipped:
    """Automatic: `player` has no legal move and is skipped."""

    player: int


@dataclass(frozen=True)
class GameScored:
    """Automatic: neither player can move; game `game` ends with these scores."""

    game: int
    light: int
    dark: int


EVENTS = {cls.__name__: cls for cls in (TowerPlaced, TowerMoved, TurnSkipped, GameScored)}


# ----- state -----
@dataclass(frozen=True)
class TowersState:
    names: tuple[str, str]
    board: tuple[int, ...]  # 64 squares: EMPTY, UNBUILT[colour] or BUILT[colour]
    first_placer: int  # who placed first in the game being played
    turn: int  # the colour to act
    phase: str = "placement"  # "placement", "movement" or "over"
    match: bool = False
    game: int = 1  # 1, or 2 in the second game of a match
    results: tuple[tuple[int, int], ...] = ()  # (light, dark) of each finished game

    @property
    def placed(self) -> int:
        return sum(1 for cell in self.board if cell != EMPTY)


def check_options(options: dict) -> dict:
    for key in options:
        if key not in ("first", "match"):
            raise OptionError(f"unknown option {clean_text(key, 20)!r} (known: first, match)")
    first = options.get("first", "light")
    if first not in ("light", "dark"):
        raise OptionError("first must be light or dark (who places the first tower)")
    match = options.get("match", False)
    if not isinstance(match, bool):
        raise OptionError("match must be true or false")
    return {"first": first, "match": match}


def check_players(players: tuple[Player, ...]) -> tuple[Player, ...]:
    if len(players) not in (0, 2):
        raise OptionError(f"Towers is for two players (Light and Dark), not {len(players)}")
    players = players or (Player("Light"), Player("Dark"))
    checked = []
    for colour, player in enumerate(players):
        name = clean_text(player.name) or COLOURS[colour]
        style = ""
        if player.bot:
            style = player.style or "medium"
            if style not in LEVELS + ("random",):
                raise OptionError(f"{name}: the bot's level is easy, medium or hard, not {clean_text(style, 20)!r}")
        checked.append(Player(name, bool(player.bot), style))
    return tuple(checked)


def initial_state(options: dict, players: tuple[Player, ...]) -> TowersState:
    first = LIGHT if options["first"] == "light" else DARK
    return TowersState(names=(players[0].name, players[1].name), board=(EMPTY,) * (SIZE * SIZE),
                       first_placer=first, turn=first, match=options["match"])


def to_act(state: TowersState) -> int | None:
    return None if state.phase == "over" else state.turn


# ----- the rules -----
def destinations(board: tuple[int, ...] | list[int], square: int) -> list[int]:
    """Where the tower on `square` can move like a rook: through empty squares only."""
    row, col = divmod(square, SIZE)
    found = []
    for dr, dc in STEPS:
        r, c = row + dr, col + dc
        while 0 <= r < SIZE and 0 <= c < SIZE and board[r * SIZE + c] == EMPTY:
            found.append(r * SIZE + c)
            r, c = r + dr, c + dc
    return found


def movable(board: tuple[int, ...], colour: int) -> list[int]:
    """`colour`'s unbuilt towers that have somewhere to go."""
    mine = UNBUILT[colour]
    return [sq for sq, cell in enumerate(board) if cell == mine and destinations(board, sq)]


def can_move(board: tuple[int, ...], colour: int) -> bool:
    mine = UNBUILT[colour]
    for sq, cell in enumerate(board):
        if cell == mine:
            row, col = divmod(sq, SIZE)
            for dr, dc in STEPS:
                r, c = row + dr, col + dc
                if 0 <= r < SIZE and 0 <= c < SIZE and board[r * SIZE + c] == EMPTY:
                    return True
    return False


def legal_commands(state: TowersState) -> list[Place | Move]:
    if state.phase == "placement":
        return [Place(sq) for sq, cell in enumerate(state.board) if cell == EMPTY]
    if state.phase == "movement":
        return [Move(sq, to) for sq in movable(state.board, state.turn) for to in destinations(state.board, sq)]
    return []


def sight_lines(board: tuple[int, ...] | list[int]) -> list[tuple[int, int, int, int]]:
    """Every scoring pair: (colour, first square, second square, empty squares between), for each
    row and column, neighbouring towers of one colour with at least one empty square between."""
    found: list[tuple[int, int, int, int]] = []
    for line in LINES:
        previous = None  # (position in line, cell)
        for position, square in enumerate(line):
            cell = board[square]
            if cell == EMPTY:
                continue
            if previous is not None:
                gap = position - previous[0] - 1
                if gap and owner(previous[1]) == owner(cell):
                    colour = owner(cell)
                    assert colour is not None  # the cell is not EMPTY
                    found.append((colour, line[previous[0]], square, gap))
            previous = (position, cell)
    return found


def scores(board: tuple[int, ...] | list[int]) -> tuple[int, int]:
    """(Light's score, Dark's score) of a board as it stands."""
    totals = [0, 0]
    for colour, _, _, gap in sight_lines(board):
        totals[colour] += gap
    return totals[0], totals[1]


def decide(state: TowersState, command: object) -> tuple[object, ...]:
    colour = state.turn
    if state.phase == "over":
        raise IllegalCommand("the game is over")
    first: TowerPlaced | TowerMoved
    if isinstance(command, Place):
        if state.phase != "placement":
            raise IllegalCommand("every tower is placed: now move one of your unbuilt towers")
        if not 0 <= command.square < SIZE * SIZE:
            raise IllegalCommand("that square is off the board")
        if state.board[command.square] != EMPTY:
            raise IllegalCommand(f"{square_name(command.square)} is taken: place on an empty square")
        first = TowerPlaced(colour, command.square)
    elif isinstance(command, Move):
        if state.phase != "movement":
            left = TOWERS_EACH * 2 - state.placed
            raise IllegalCommand(f"towers move once all are placed ({left} still to place)")
        if not (0 <= command.source < SIZE * SIZE and 0 <= command.target < SIZE * SIZE):
            raise IllegalCommand("that square is off the board")
        cell = state.board[command.source]
        name = square_name(command.source)
        if cell == EMPTY:
            raise IllegalCommand(f"there is no tower on {name}")
        if owner(cell) != colour:
            raise IllegalCommand(f"the tower on {name} is {COLOURS[1 - colour]}'s: move one of yours")
        if is_built(cell):
            raise IllegalCommand(f"the tower on {name} is built: a built tower never moves again")
        if command.target not in destinations(state.board, command.source):
            if command.target == command.source:
                raise IllegalCommand("a move goes at least one square: passing is not allowed")
            same_line = command.source // SIZE == command.target // SIZE or command.source % SIZE == command.target % SIZE
            if not same_line:
                raise IllegalCommand("towers move like rooks: along the row or the column, no diagonals")
            raise IllegalCommand(f"{square_name(command.target)} cannot be reached: towers do not move onto or through other towers")
        first = TowerMoved(colour, command.source, command.target)
    else:
        raise IllegalCommand("Towers has two commands: place a tower and move a tower")
    return (first,) + consequences(evolve(state, first))


def consequences(state: TowersState) -> tuple[object, ...]:
    """What happens at once after a decision: a player with no move is skipped; when neither can
    move, the game is scored."""
    if state.phase != "movement" or can_move(state.board, state.turn):
        return ()
    if can_move(state.board, 1 - state.turn):
        return (TurnSkipped(state.turn),)
    light, dark = scores(state.board)
    return (GameScored(state.game, light, dark),)


def evolve(state: TowersState, event: object) -> TowersState:
    board = list(state.board)
    if isinstance(event, TowerPlaced):
        board[event.square] = UNBUILT[event.player]
        if sum(1 for cell in board if cell != EMPTY) == TOWERS_EACH * 2:
            # the player who placed second moves first
            return replace(state, board=tuple(board), phase="movement", turn=1 - state.first_placer)
        return replace(state, board=tuple(board), turn=1 - event.player)
    if isinstance(event, TowerMoved):
        board[event.source] = EMPTY
        board[event.target] = BUILT[event.player]
        return replace(state, board=tuple(board), turn=1 - event.player)
    if isinstance(event, TurnSkipped):
        return replace(state, turn=1 - event.player)
    if isinstance(event, GameScored):
        results = state.results + ((event.light, event.dark),)
        if state.match and state.game == 1:  # the second game: the first placer switched
            first = 1 - state.first_placer
            return replace(state, board=(EMPTY,) * (SIZE * SIZE), phase="placement", game=2, first_placer=first,
                           turn=first, results=results)
        return replace(state, phase="over", results=results)
    raise TypeError(f"not a Towers event: {event!r}")


# ----- chance: none -----
def chance_needed(state: TowersState) -> None:
    return None


def chance_event(state: TowersState, draws: tuple[int, ...], typed: bool) -> object:
    raise TypeError("Towers has no chance")


def chance_draws(event: object) -> tuple[int, ...]:
    raise TypeError("Towers has no chance")


# ----- reading the game -----
def margin(state: TowersState) -> int:
    """Light's total margin over the finished games (positive: Light ahead)."""
    return sum(light - dark for light, dark in state.results)


def outcome(state: TowersState) -> Outcome | None:
    if state.phase != "over":
        return None
    light, dark = state.names
    total = margin(state)
    if state.match:
        games = ", ".join(f"game {n}: {a}-{b}" for n, (a, b) in enumerate(state.results, start=1))
        if total == 0:
            return Outcome((), f"the match is drawn ({games})")
        winner = LIGHT if total > 0 else DARK
        return Outcome((winner,), f"{player_label(state, winner)} wins the match by {abs(total)} ({games})")
    a, b = state.results[-1]
    if a == b:
        return Outcome((), f"a draw, {a} to {b}")
    winner = LIGHT if a > b else DARK
    return Outcome((winner,), f"{player_label(state, winner)} wins {max(a, b)} to {min(a, b)}")


def result(state: TowersState, seat: int) -> Result | None:
    """The winner's margin (the contract's result): the match's, or the game's; None for the loser
    and for a draw."""
    finished = outcome(state)
    if finished is None or finished.winners != (seat,):
        return None
    total = abs(margin(state) if state.match else state.results[-1][0] - state.results[-1][1])
    return MEASURE.result(total, f"won by {total}", won=True)


def final_score(state: TowersState) -> tuple[int, ...] | None:
    """Each seat's points: the game's, or the match's games' together (what decides it: the margin)."""
    if state.phase != "over":
        return None
    return sum(light for light, _ in state.results), sum(dark for _, dark in state.results)


def player_label(state: TowersState, colour: int) -> str:
    name = state.names[colour]
    return name if name == COLOURS[colour] else f"{name} ({COLOURS[colour]})"


def describe(state: TowersState, event: object, reveal: bool = True) -> str:
    if isinstance(event, TowerPlaced):
        count = sum(1 for cell in state.board if cell == UNBUILT[event.player]) + 1
        return f"{player_label(state, event.player)} places tower {count} of 8 on {square_name(event.square)}"
    if isinstance(event, TowerMoved):
        before = scores(state.board)
        after = scores(evolve(state, event).board)
        change = ", ".join(f"{COLOURS[c]} {before[c]} -> {after[c]}" for c in (LIGHT, DARK) if before[c] != after[c])
        return (f"{player_label(state, event.player)} moves {square_name(event.source)}-{square_name(event.target)}"
                + (f" ({change})" if change else ""))
    if isinstance(event, TurnSkipped):
        return f"{player_label(state, event.player)} has no legal move and is skipped"
    if isinstance(event, GameScored):
        which = f"game {event.game}" if state.match else "the game"  # a single game has no number
        text = f"no one can move: {which} ends, Light {event.light}, Dark {event.dark}"
        if state.match and event.game == 1:
            text += f"; game 2: {COLOURS[1 - state.first_placer]} places first"
        return text
    return str(event)


def progress(state: TowersState) -> str:
    result = outcome(state)
    if result is not None:
        return result.summary
    light, dark = scores(state.board)
    game = f"game {state.game}, " if state.match else ""
    return f"{game}{state.phase}: Light {light}, Dark {dark}"


def is_turn_start(event: object) -> bool:
    """Where the replay viewer's PgUp/PgDn stop: every placement and move."""
    return isinstance(event, (TowerPlaced, TowerMoved))
