"""Towers endings solved exactly: the final margin with best play for both sides, by alpha-beta
with a transposition table over the bot's incremental board (engine/bots/towers.py's Search: its
moves are the rules' own, tests/test_towers_exact.py checks them and the values against the rules'
`legal_commands`/`decide`/`evolve` on random positions).

Only the movement phase: each unbuilt tower moves once, so with few left the whole tree is small.
A value is the final margin of this game (points, from the side to move); the table keeps, per
board and side to move, a bound or the exact value and the best move found."""
from __future__ import annotations

import math

from dicehall.engine.bots import towers as bot
from dicehall.engine.games import towers

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is
ORDERED_FROM = 5  # towers left to move from which a node's moves are ordered by the bot's evaluation


def towers_left(state: towers.TowersState) -> int:
    """The unbuilt towers of both sides: at most that many moves are left in the game."""
    return sum(1 for cell in state.board if cell in towers.UNBUILT)


class Solver:
    """The exact value of a movement-phase position and of each move from it."""

    def __init__(self, state: towers.TowersState, table: dict | None = None):
        """`table`: one kept from an earlier position of the same game (a board's value does not
        depend on how it was reached), so a game's later decisions are found there."""
        if state.phase != "movement":
            raise ValueError("only the movement phase is solved exactly")
        self.search = bot.Search(state, 0)  # its board, moves and score tallies (not its budgeted negamax)
        self.table: dict[tuple[bytes, int], tuple[int, int, tuple[int, int] | None]] = {} if table is None else table
        self.nodes = 0

    def moves(self, colour: int) -> list[tuple[int, int]]:
        return self.search.options(colour, 2 * towers.TOWERS_EACH)

    def value(self, colour: int, alpha: float = -math.inf, beta: float = math.inf) -> int:
        """The final margin from `colour`'s side with best play, `colour` to act: exact when it lies
        within (alpha, beta), else a bound beyond that side of the window (fail-soft)."""
        self.nodes += 1
        search = self.search
        key = (bytes(search.board), colour)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            stored, kind, first = entry
            if kind == EXACT or (kind == LOWER and stored >= beta) or (kind == UPPER and stored <= alpha):
                return stored
        moves = self.moves(colour)
        if not moves:  # skipped, or neither side can move: the game is scored
            if not search.has_moves(1 - colour):
                return search.totals[colour] - search.totals[1 - colour]
            return -self.value(1 - colour, -beta, -alpha)
        left = len(search.unbuilt[0]) + len(search.unbuilt[1])
        if left >= ORDERED_FROM:  # near the leaves ordering costs more than it saves
            moves = search.ordered(moves, colour)
        if first is not None and first in moves:  # the table's best move first: it prunes most
            moves.remove(first)
            moves.insert(0, first)
        if left == 1:  # the last tower: each move ends the game, its final lead counted in place
            best, best_move = search.last_move(moves, colour, beta)
        else:
            low, best, best_move = alpha, -math.inf, moves[0]
            for move in moves:
                search.play(move, colour)
                value = -self.value(1 - colour, -beta, -low)
                search.unplay(move, colour)
                if value > best:
                    best, best_move = value, move
                    low = max(low, value)
                    if low >= beta:
                        break
        kind = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[key] = (int(best), kind, best_move)
        return int(best)

    def root(self, colour: int, played: tuple[int, int]) -> tuple[tuple[int, int], int, int]:
        """(an exactly best move, its value, the value of `played`), `colour` to act: the move
        played with a full window, then every other only where it beats the best so far (a tie keeps
        the earlier, so the move played when it is as good as any)."""
        search = self.search
        values = {}
        best_move, best = played, -math.inf
        for move in [played] + [m for m in search.ordered(self.moves(colour), colour) if m != played]:
            search.play(move, colour)
            value = -self.value(1 - colour, -math.inf, -best)
            search.unplay(move, colour)
            values[move] = value
            if value > best:
                best_move, best = move, value
        return best_move, int(best), values[played]


def solve(state: towers.TowersState) -> int:
    """The final margin of this game with best play, from the side to act's side."""
    return Solver(state).value(state.turn)
