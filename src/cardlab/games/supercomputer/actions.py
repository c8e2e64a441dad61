"""The SUPER COMPUTER action encoding and the grid it places parts on.

Actions (P parts, B builds in the card files; packaged: P = 35, B = 14, 275 actions):

| actions            | meaning                                            | label                      |
|--------------------|----------------------------------------------------|----------------------------|
| 0 .. P-1           | pick part k (its index in the card file; id sc<k>) | `pick 32 GB RAM`           |
| P .. P+224         | place the revealed part on grid cell c             | `place 32 GB RAM at (1,0)` |
| P+225              | scrap the revealed part by choice (voluntary_scrap)| `scrap 32 GB RAM`          |
| P+226 .. P+225+B   | keep build b (the other offered build goes under)  | `keep build Dev Box`       |

Grid: a computer is a dict cell -> part index, cell = (y + 7) * 15 + (x + 7) for
x, y in -7..7 (x grows east, y grows south). The first part of a round sits at
(0, 0) (S4: the first part goes anywhere, and a grid without rotation is the
same wherever it starts). Seven parts reach at most 6 steps from the first, so
placements lie in the window |x|, |y| <= 6 (169 of the 225 placement actions);
the padding ring lets a neighbour lookup never leave the grid.
"""

from __future__ import annotations

from typing import Final

GRID_SIZE: Final = 15
"""The padded grid is GRID_SIZE x GRID_SIZE cells; a cell's neighbour to the south
is GRID_SIZE cells further."""
CENTRE: Final = 7
"""x and y run from -CENTRE to CENTRE."""
REACH: Final = 6
"""Placements stay within |x|, |y| <= REACH (seven parts a round)."""
GRID_CELLS: Final = GRID_SIZE * GRID_SIZE
ORIGIN: Final = CENTRE * GRID_SIZE + CENTRE
"""The cell of (0, 0), where each round's first part goes."""

NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
DIRECTIONS: Final = (NORTH, EAST, SOUTH, WEST)
STEP: Final = (-GRID_SIZE, 1, GRID_SIZE, -1)
"""Cell offset of the neighbour to the north, east, south, west."""
OPPOSITE: Final = (SOUTH, WEST, NORTH, EAST)


def cell_xy(cell: int) -> tuple[int, int]:
    """(x, y) of a grid cell."""
    return cell % GRID_SIZE - CENTRE, cell // GRID_SIZE - CENTRE


def xy_cell(x: int, y: int) -> int:
    """The grid cell of (x, y)."""
    return (y + CENTRE) * GRID_SIZE + (x + CENTRE)


def in_window(cell: int) -> bool:
    """Whether a cell lies where placements may go (|x|, |y| <= REACH)."""
    x, y = cell_xy(cell)
    return -REACH <= x <= REACH and -REACH <= y <= REACH


IN_WINDOW: Final = tuple(in_window(cell) for cell in range(GRID_CELLS))
"""`in_window` per cell, for the placement loop."""


NEIGHBOURS: Final = tuple(
    tuple(
        (cell + STEP[d], OPPOSITE[d])
        for d in DIRECTIONS
        if 0 <= cell + STEP[d] < GRID_CELLS and IN_WINDOW[cell + STEP[d]]
    )
    if IN_WINDOW[cell]
    else ()
    for cell in range(GRID_CELLS)
)
"""Per window cell: (neighbour cell, the direction back from it) for each neighbour
within the window (placements never go further, so neither does the frontier)."""


class ActionLayout:
    """Where each kind of action starts, for a card set of `num_parts` parts and
    `num_builds` builds (plain int attributes: the engine reads them per action)."""

    __slots__ = ("num_parts", "num_builds", "first_place", "scrap", "first_build", "count")

    def __init__(self, num_parts: int = 0, num_builds: int = 0) -> None:
        # defaults: compiled, unpickling calls __init__ with no arguments, then fills the slots
        self.num_parts = num_parts
        self.num_builds = num_builds
        self.first_place = num_parts
        self.scrap = num_parts + GRID_CELLS
        self.first_build = self.scrap + 1
        self.count = self.first_build + num_builds

    def pick(self, part: int) -> int:
        return part

    def place(self, cell: int) -> int:
        return self.first_place + cell

    def place_at(self, x: int, y: int) -> int:
        return self.first_place + xy_cell(x, y)

    def keep(self, build: int) -> int:
        return self.first_build + build

    def kind(self, action: int) -> str | None:
        """ "pick", "place", "scrap", "keep", or None for a number outside the layout."""
        if 0 <= action < self.first_place:
            return "pick"
        if self.first_place <= action < self.scrap:
            return "place"
        if action == self.scrap:
            return "scrap"
        if self.first_build <= action < self.count:
            return "keep"
        return None

    def cell(self, action: int) -> int:
        """The grid cell of a place action."""
        return action - self.first_place

    def build(self, action: int) -> int:
        """The build index of a keep action."""
        return action - self.first_build
