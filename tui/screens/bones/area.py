"""The War of Bones map: the 9" area drawn to scale in a frame at its current edge, each troop a
label at its place (side and face, or side and number), marks beside troops and the dotted range of
one troop. Drawing only: what to mark is the screen's choice."""
from __future__ import annotations

import math
from itertools import groupby
from operator import itemgetter

from rich.text import Text

from dicehall.engine.games.bones import DIE, FULL, SIDES, BonesState, area_bounds
from dicehall.tui.widgets import player_kind

STYLE = ("bold cyan", "bold yellow")  # side A, side B: a (lower case) and B (upper case) say it without colour
LETTER = ("a", "B")
WIDE = (36, 18)  # the game screen's map: 0.25 inch a column, 0.5 inch a row
NARROW = (24, 12)  # the replay viewer's: 0.375 inch a column, 0.75 inch a row


def inches(hundredths: float) -> str:
    return f'{hundredths / 100:.2f}"'


class AreaGrid:
    """The map's cells, `cols` x `rows` for the 9 inches with a one-cell border around them: a
    character and a style per cell, and which cells hold a troop's label (nothing else is drawn
    over those). `edge` is the frame's place, in area cells: (left, right, top, bottom)."""

    def __init__(self, state: BonesState, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.sx, self.sy = FULL / cols, FULL / rows
        self.chars = [[" "] * (cols + 2) for _ in range(rows + 2)]
        self.styles = [[""] * (cols + 2) for _ in range(rows + 2)]
        self.label = [[False] * (cols + 2) for _ in range(rows + 2)]
        low, high = area_bounds(state)
        self.edge = (int(low / self.sx), min(cols - 1, math.ceil(high / self.sx) - 1),
                     int(low / self.sy), min(rows - 1, math.ceil(high / self.sy) - 1))
        self.placed: dict[tuple[int, int], tuple[int, int, int]] = {}  # (seat, troop): (row, col, width)

    def draw_frame(self) -> None:
        """The frame at the area's current edge (it shrinks after a completed converge)."""
        left, right, top, bottom = self.edge
        for c in range(left, right + 3):
            self.put(top, c, "-", "dim")
            self.put(bottom + 2, c, "-", "dim")
        for r in range(top, bottom + 3):
            self.put(r, left, "|", "dim")
            self.put(r, right + 2, "|", "dim")
        for r in (top, bottom + 2):
            for c in (left, right + 2):
                self.put(r, c, "+", "dim")

    def dot_range(self, state: BonesState, seat: int, number: int) -> None:
        """Dots on the cells whose centres are within the troop's range ((face + 1) dice)."""
        troop = state.troops[seat][number]
        if troop is None:
            return
        left, right, top, bottom = self.edge
        reach = (troop.face + 1) * DIE
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                if math.hypot((c + 0.5) * self.sx - troop.x, (r + 0.5) * self.sy - troop.y) <= reach:
                    self.put(r + 1, c + 1, ".", "dim")

    def place_troops(self, state: BonesState, names: bool) -> None:
        """Each troop's label at its place: a5 / B5 (side and face) or, with `names`, a#5 / B#5."""
        left, right, top, bottom = self.edge
        for seat in (0, 1):
            for number, troop in enumerate(state.troops[seat]):
                if troop is None:
                    continue
                label = LETTER[seat] + (f"#{number + 1}" if names else str(troop.face))
                row = min(max(int(troop.y / self.sy), top), bottom)
                start = min(max(round(troop.x / self.sx) - 1, left), right + 1 - len(label))
                r, c = self.free_spot(row + 1, start + 1, left + 1, right + 1 - len(label), top + 1, bottom + 1, len(label))
                for offset, ch in enumerate(label):
                    self.put(r, c + offset, ch, STYLE[seat])
                    self.label[r][c + offset] = True
                self.placed[(seat, number)] = (r, c, len(label))

    def free_spot(self, row: int, col: int, first_col: int, last_col: int, first_row: int, last_row: int,
                  width: int = 2) -> tuple[int, int]:
        """`width` free cells for a troop nearest (row, col), starting at most at `last_col`: dice
        closer than a cell apart push each other aside."""
        label = self.label
        for apart in (True, False):  # a blank between two troops if there is room, else side by side
            for dr in (0, 1, -1):
                for dc in (0, 1, -1, 2, -2, 3, -3):
                    r, c = row + dr, col + dc
                    if not (first_row <= r <= last_row and first_col <= c <= last_col) or any(label[r][c:c + width]):
                        continue
                    if apart and (label[r][c - 1] or label[r][c + width]):
                        continue
                    return r, c
        return row, col

    def mark(self, marks: dict) -> None:
        """`marks` maps (seat, troop) to (left, right, style): the label takes the style, and the
        characters go beside it where the cell is free (blank or a range dot)."""
        for key, (before, after, style) in marks.items():
            if key not in self.placed:
                continue
            r, c, width = self.placed[key]
            for offset in range(width):
                self.styles[r][c + offset] = f"{self.styles[r][c + offset]} {style}".strip()
            for ch, col in ((before, c - 1), (after, c + width)):
                if ch and 0 <= col < self.cols + 2 and not self.label[r][col] and self.chars[r][col] in " .":
                    self.put(r, col, ch, "bold")

    def put(self, row: int, col: int, char: str, style: str) -> None:
        self.chars[row][col] = char
        self.styles[row][col] = style

    def text(self) -> Text:
        text = Text()
        width = self.cols + 2
        for r in range(self.rows + 2):
            # each run of one style appended whole: a span a cell made a redraw's costliest part
            for style, run in groupby(zip(self.chars[r][:width], self.styles[r][:width]), key=itemgetter(1)):
                text.append("".join(char for char, _ in run), style=style)
            if r < self.rows + 1:
                text.append("\n")
        return text


def draw_area(state: BonesState, cols: int, rows: int, *, names: bool = False, marks: dict | None = None,
              range_of: tuple[int, int] | None = None) -> Text:
    """The area to scale: `cols` x `rows` cells for the 9 inches, in a frame drawn at the area's
    current edge. A troop is its side's letter (a for A, B for B) and its face: a5, B5; with
    `names`, its number as the words name it: a#5, B#5 (three characters, so a number is never
    read as a face). `marks` maps (seat, troop) to (left, right, style): characters drawn beside
    the troop where there is room. `range_of` (seat, troop): the cells within that
    troop's range are dotted."""
    grid = AreaGrid(state, cols, rows)
    grid.draw_frame()
    if range_of is not None:
        grid.dot_range(state, *range_of)
    grid.place_troops(state, names)
    grid.mark(marks or {})
    return grid.text()


def draw_board(state: BonesState, reveal: bool = False) -> Text:
    """The battlefield as it stood, for the replay viewer: 26 columns, 17 lines."""
    text = draw_area(state, *NARROW)
    counts = [len(state.in_play(s)) for s in (0, 1)]
    text.append(f"\nA(a): {counts[0]} in, supply {state.supply[0]}\n", style=STYLE[0])
    text.append(f"B(B): {counts[1]} in, supply {state.supply[1]}\n", style=STYLE[1])
    pending = f", {SIDES[state.converge_by]} converged" if state.converge_by is not None else ""
    text.append(f"area {state.side // 100} in{pending}"[:26])
    return text


def player_line(players, seat: int) -> str:
    player = players[seat]
    who = player_kind(player)
    return f"{SIDES[seat]} {player.name[:12]} ({who})"
