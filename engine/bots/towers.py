"""The Towers bot: three levels and a random baseline, all through the engine's commands.

- random: a uniformly random legal command (the baseline for `dicehall sim towers`).
- easy: looks one move ahead with the evaluation, and two times in five plays a random move
  instead: a beginner can beat it.
- medium (the default) and hard: negamax with alpha-beta pruning and iterative deepening, until a
  node budget is spent (medium NODES["medium"], hard NODES["hard"]); a budget rather than a clock
  keeps their play the same on a busy machine, and `sim` repeatable. The movement phase has at most
  16 moves and few of them late, so near its end the search reaches the last move and plays exactly.

The evaluation, from the side to move: its score minus the opponent's as the board stands (the
final score if no tower moved again), plus MOBILITY for each of its towers that can still move
minus the opponent's (an unbuilt tower with room can still go where it scores; a pinned one
cannot). A finished game is worth its exact margin, times TERMINAL so it outranks any estimate.
"""
from __future__ import annotations

import functools
import itertools
import operator
import time

from dicehall.engine.bots import levelled_bots
from dicehall.engine.chance import seeded_draw
from dicehall.engine.contract import Bot
from dicehall.engine.games import towers
from dicehall.engine.games.towers import BUILT, EMPTY, LINES, SIZE, STEPS, TOWERS_EACH, UNBUILT, Move, Place, TowersState

LEVELS = ("random", "easy", "medium", "hard")
NODES = {"medium": 4_000, "hard": 40_000}
EASY_RANDOM = (2, 5)  # easy plays a random move this often (2 in 5)
MOBILITY = 0.25
TERMINAL = 100
# seconds: a safety net only, far past what the node budget takes even on a busy machine (a hard move
# took over 5 s under load, and a cap met there made the same game play differently)
TIME_CAP = 120.0


class OutOfNodes(Exception):
    pass


# neighbours and rays, precomputed: a ray is the squares from a square outward in one direction
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple((r + dr * k) * SIZE + (c + dc * k) for k in range(1, SIZE)
              if 0 <= r + dr * k < SIZE and 0 <= c + dc * k < SIZE)
        for dr, dc in STEPS
    )
    for r in range(SIZE) for c in range(SIZE)
)
# each square's neighbours (the first square of each ray): where a tower on it could move
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(ray[0] for ray in rays if ray) for rays in RAYS)
# the search's hottest reads: each line's cells in one call, and the two lines (row, column) through a square
LINE_CELLS = tuple(operator.itemgetter(*line) for line in LINES)
LINES_THROUGH: tuple[tuple[int, int], ...] = tuple((square // SIZE, SIZE + square % SIZE) for square in range(SIZE * SIZE))
PLACEMENTS = tuple((-1, square) for square in range(SIZE * SIZE))  # a placement move on each square


def _lines_of(source: int, target: int) -> tuple[int, ...]:
    """The lines a move changes: the target's row and column, and the source's (a rook move shares
    one of them)."""
    if source < 0:
        return LINES_THROUGH[target]
    row, column = LINES_THROUGH[source]
    to_row, to_column = LINES_THROUGH[target]
    return (row, column, to_column) if row == to_row else (row, column, to_row)


# every placement and every rook move (from, to) -> the lines it changes, looked up rather than worked out
MOVE_LINES = {(source, target): _lines_of(source, target)
              for source in range(-1, SIZE * SIZE) for target in range(SIZE * SIZE)
              if source < 0 or (source != target and (source // SIZE == target // SIZE or source % SIZE == target % SIZE))}


def score_difference(board: list[int] | tuple[int, ...], colour: int) -> int:
    """`colour`'s score minus the other's, as the board stands (the rules' line-of-sight count)."""
    light = dark = 0
    for line in LINES:
        points = line_score(board, line)
        light, dark = light + points[0], dark + points[1]
    return light - dark if colour == 0 else dark - light


def has_room(board, square: int) -> bool:
    """Does the tower on `square` have at least one square next to it to move to?"""
    for neighbour in NEIGHBOURS[square]:  # a plain loop: the search's hottest call
        if board[neighbour] == EMPTY:
            return True
    return False


def mobile_towers(board, colour: int, unbuilt=None) -> int:
    """How many of `colour`'s unbuilt towers (at the squares `unbuilt`, if known) can move."""
    if unbuilt is None:
        unbuilt = [square for square, cell in enumerate(board) if cell == UNBUILT[colour]]
    count = 0
    for square in unbuilt:
        for neighbour in NEIGHBOURS[square]:
            if board[neighbour] == EMPTY:
                count += 1
                break
    return count


def evaluate(board, colour: int) -> float:
    """The position from `colour`'s side (see the module's docstring)."""
    return score_difference(board, colour) + MOBILITY * (mobile_towers(board, colour) - mobile_towers(board, 1 - colour))


def line_score(board, line: tuple[int, ...]) -> tuple[int, int]:
    """(Light, Dark) points of one row or column."""
    return _cells_score(tuple([board[square] for square in line]))


@functools.lru_cache(maxsize=1 << 16)  # the search scores the same few lines over and over
def _cells_score(cells: tuple[int, ...]) -> tuple[int, int]:
    points = [0, 0]
    last_position, last_owner = -1, -1
    for position, cell in enumerate(cells):
        if cell:
            who = (cell - 1) & 1
            if who == last_owner:
                points[who] += position - last_position - 1
            last_position, last_owner = position, who
    return points[0], points[1]


def rook_moves(board, squares) -> list[tuple[int, int]]:
    """Every rook move, as (from, to), of the towers on `squares`: through empty squares only."""
    found = []
    for square in squares:
        for ray in RAYS[square]:
            for target in ray:
                if board[target] != EMPTY:
                    break
                found.append((square, target))
    return found


class Search:
    """Negamax with alpha-beta on a mutable copy of the board. A move is (from, to) in the
    movement phase and (-1, square) in placement."""

    def __init__(self, state: TowersState, budget: int):
        self.root_board = list(state.board)
        self.board = list(state.board)
        self.cut = False  # did this iteration stop anywhere short of the game's end?
        self.first_placer = state.first_placer
        self.budget = budget
        self.nodes = 0
        self.deadline = time.perf_counter() + TIME_CAP
        self.count = sum(1 for cell in self.board if cell != EMPTY)
        # kept up to date move by move, so the evaluation does not rescan the board: each line's
        # score per colour, their sums, and where the unbuilt towers of each colour stand
        self.line_scores = [line_score(self.board, line) for line in LINES]
        self.totals = [sum(ls[0] for ls in self.line_scores), sum(ls[1] for ls in self.line_scores)]
        self.unbuilt = [{sq for sq, c in enumerate(self.board) if c == UNBUILT[colour]} for colour in (0, 1)]
        # per move played and not yet unplayed, the tallies it changed: unplay puts them back (moves
        # are unplayed last first) rather than scoring the lines again
        self.undo: list[tuple[tuple[int, ...], list[tuple[int, int]], int, int]] = []

    def placed(self) -> int:
        return self.count

    def options(self, colour: int, placed: int) -> list[tuple[int, int]]:
        if placed < 2 * TOWERS_EACH:
            return list(itertools.compress(PLACEMENTS, map(operator.not_, self.board)))  # the empty squares (EMPTY is 0)
        return sorted(rook_moves(self.board, self.unbuilt[colour]))  # sorted: sets have no fixed order

    def play(self, move: tuple[int, int], colour: int) -> None:
        source, target = move
        board = self.board
        if source < 0:
            board[target] = UNBUILT[colour]
            self.unbuilt[colour].add(target)
            self.count += 1
        else:
            board[source] = EMPTY
            board[target] = BUILT[colour]
            self.unbuilt[colour].discard(source)
        # the changed lines scored again; what they were goes on the undo list for unplay
        lines, scores, totals = MOVE_LINES[move], self.line_scores, self.totals
        light, dark = totals
        self.undo.append((lines, [scores[index] for index in lines], light, dark))
        for index in lines:
            old = scores[index]
            scores[index] = new = _cells_score(LINE_CELLS[index](board))
            light += new[0] - old[0]
            dark += new[1] - old[1]
        totals[0], totals[1] = light, dark

    def unplay(self, move: tuple[int, int], colour: int) -> None:
        source, target = move
        board = self.board
        board[target] = EMPTY
        if source >= 0:
            board[source] = UNBUILT[colour]
            self.unbuilt[colour].add(source)
        else:
            self.unbuilt[colour].discard(target)
            self.count -= 1
        lines, kept, light, dark = self.undo.pop()
        totals, scores = self.totals, self.line_scores
        totals[0], totals[1] = light, dark
        for index, score in zip(lines, kept):
            scores[index] = score

    def evaluate(self, colour: int) -> float:
        """The same value as the module's evaluate(board, colour), from the kept-up-to-date tallies."""
        mobility = (mobile_towers(self.board, colour, self.unbuilt[colour])
                    - mobile_towers(self.board, 1 - colour, self.unbuilt[1 - colour]))
        return self.totals[colour] - self.totals[1 - colour] + MOBILITY * mobility

    def has_moves(self, colour: int) -> bool:
        board = self.board
        for square in self.unbuilt[colour]:
            for neighbour in NEIGHBOURS[square]:
                if board[neighbour] == EMPTY:
                    return True
        return False

    def ordered(self, moves: list[tuple[int, int]], colour: int) -> list[tuple[int, int]]:
        """Moves most promising first (by the evaluation one move ahead): alpha-beta prunes more.
        Each move's value is play, evaluate and unplay's, worked out in place (the search's hottest
        loop): the changed lines' scores are not stored, the board and towers put back at once."""
        board, scores, line_cells = self.board, self.line_scores, LINE_CELLS
        mine, theirs = self.unbuilt[colour], self.unbuilt[1 - colour]
        lead = self.totals[colour] - self.totals[1 - colour]
        unbuilt, built, other = UNBUILT[colour], BUILT[colour], 1 - colour
        keyed: list[tuple[float, int, tuple[int, int]]] = []
        for move in moves:
            source, target = move
            if source < 0:
                board[target] = unbuilt
                mine.add(target)
            else:
                board[source] = EMPTY
                board[target] = built
                mine.discard(source)
            gain = lead
            for index in MOVE_LINES[move]:
                old, new = scores[index], _cells_score(line_cells[index](board))
                gain += (new[colour] - old[colour]) - (new[other] - old[other])
            mobility = mobile_towers(board, colour, mine) - mobile_towers(board, other, theirs)
            keyed.append((-(gain + MOBILITY * mobility), len(keyed), move))
            board[target] = EMPTY
            if source < 0:
                mine.discard(target)
            else:
                board[source] = unbuilt
                mine.add(source)
        keyed.sort()
        return [move for _, _, move in keyed]

    def last_move(self, moves: list[tuple[int, int]], colour: int, beta: float) -> tuple[float, tuple[int, int]]:
        """The best final lead and its move among the last tower's `moves` (each ends the game), counted
        in place; from the first move on, stopping at one that reaches `beta` (alpha-beta's cut)."""
        board, scores, line_cells, totals = self.board, self.line_scores, LINE_CELLS, self.totals
        built, unbuilt, other = BUILT[colour], UNBUILT[colour], 1 - colour
        best, best_move = -float("inf"), moves[0]
        for move in moves:
            source, target = move
            board[source] = EMPTY
            board[target] = built
            lead = totals[colour] - totals[other]
            for index in MOVE_LINES[move]:
                old, new = scores[index], _cells_score(line_cells[index](board))
                lead += (new[colour] - old[colour]) - (new[other] - old[other])
            board[target] = EMPTY
            board[source] = unbuilt
            if lead > best:
                best, best_move = lead, move
                if lead >= beta:
                    break
        return best, best_move

    def negamax(self, colour: int, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.budget or (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise OutOfNodes
        placed = self.count
        if depth == 0:  # a leaf: whether there are moves (a tower that can move, while moving), not which
            board, unbuilt = self.board, self.unbuilt
            mobile = mobile_towers(board, colour, unbuilt[colour])
            if mobile if placed >= 2 * TOWERS_EACH else EMPTY in board:
                self.cut = True  # evaluate(colour)'s value, its mobility counted once
                totals = self.totals
                return totals[colour] - totals[1 - colour] + MOBILITY * (mobile - mobile_towers(board, 1 - colour, unbuilt[1 - colour]))
        moves = self.options(colour, placed)
        if not moves:  # movement phase: skipped, or the game is over
            if not self.has_moves(1 - colour):
                return TERMINAL * (self.totals[colour] - self.totals[1 - colour])
            return -self.negamax(1 - colour, depth, -beta, -alpha)
        if depth >= 2:
            moves = self.ordered(moves, colour)
        # the same for every move here: they are all placements, or all rook moves
        following = self.follower(colour, placed + 1, True) if placed < 2 * TOWERS_EACH else 1 - colour
        best = -float("inf")
        play, unplay, negamax = self.play, self.unplay, self.negamax
        for move in moves:
            play(move, colour)
            value = -negamax(following, depth - 1, -beta, -alpha) if following != colour else \
                negamax(following, depth - 1, alpha, beta)
            unplay(move, colour)
            if value > best:
                best = value
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return best

    def follower(self, colour: int, placed: int, placing: bool) -> int:
        """Who acts next: after the 16th tower is placed, the player who placed second moves first."""
        if placing and placed == 2 * TOWERS_EACH:
            return 1 - self.first_placer
        return 1 - colour

    def best(self, colour: int, root: list[tuple[int, int]]) -> tuple[tuple[int, int], int]:
        """Iterative deepening: the best root move of the deepest search finished (or of the
        unfinished one, when its first move, the previous best, was already searched)."""
        placed = self.placed()
        order = self.ordered(root, colour)
        choice, depth_done = order[0], 0
        depth = 1
        while depth <= 40:
            self.cut = False
            try:
                best_value, best_move = -float("inf"), order[0]
                alpha = -float("inf")
                values = {}
                for move in order:
                    self.play(move, colour)
                    following = self.follower(colour, placed + (1 if move[0] < 0 else 0), move[0] < 0)
                    if following != colour:
                        value = -self.negamax(following, depth - 1, -float("inf"), -alpha)
                    else:
                        value = self.negamax(following, depth - 1, alpha, float("inf"))
                    self.unplay(move, colour)
                    values[move] = value
                    if value > best_value:
                        best_value, best_move = value, move
                        alpha = max(alpha, value)
            except OutOfNodes:
                self.unwind()
                if values and best_move in values and order[0] in values:
                    choice = best_move
                break
            choice, depth_done = best_move, depth
            if not self.cut:  # every line reached the end of the game: deeper changes nothing
                break
            # the best move first next time, the rest by this depth's values
            order = sorted(order, key=lambda m: -values.get(m, -float("inf")))
            depth += 1
        return choice, depth_done

    def unwind(self) -> None:
        """After the budget ran out mid-search the board holds half-played moves: start afresh."""
        budget, nodes = self.budget, self.nodes
        Search.__init__(self, TowersState(("", ""), tuple(self.root_board), self.first_placer, 0), budget)
        self.nodes = nodes


def _rng(seed: int, nonce: int):
    draw = 0

    def pick(n: int) -> int:
        nonlocal draw
        draw += 1
        return seeded_draw(seed, nonce * 1_000 + draw, n)

    return pick


def choose(state: TowersState, level: str = "medium", seed: int = 0, nonce: int = 0, nodes: int | None = None) -> object:
    """The bot's command for the side to act. `seed` and `nonce` (e.g. the game's seed and the
    number of events so far) decide its random choices, so a game replays identically. `nodes`: the
    search's budget, the level's own (NODES) unless given."""
    if towers.to_act(state) is None:
        raise ValueError("no one is to act now")
    if level not in LEVELS:
        raise ValueError(f"a Towers bot plays {', '.join(LEVELS)}, not {str(level)[:20]!r}")
    colour = state.turn
    commands = towers.legal_commands(state)
    pick = _rng(seed, nonce)
    if level == "random" or (level == "easy" and pick(EASY_RANDOM[1]) < EASY_RANDOM[0]):
        return commands[pick(len(commands))]
    search = Search(state, NODES.get(level, 0) if nodes is None else nodes)
    root = [(-1, c.square) if isinstance(c, Place) else (c.source, c.target) for c in commands]
    # a seeded shuffle first: among equally good moves the bot does not always play the same one
    for i in range(len(root) - 1, 0, -1):
        j = pick(i + 1)
        root[i], root[j] = root[j], root[i]
    if level == "easy":
        ordered = search.ordered(root, colour)
        move = ordered[0]
    else:
        move, _ = search.best(colour, root)
    return Place(move[1]) if move[0] < 0 else Move(move[0], move[1])


BOTS: dict[str, Bot] = levelled_bots(choose, LEVELS)  # "random" is for sims: no seat plays it
