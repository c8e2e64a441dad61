"""The cursor the per-game encoders write their vectors with, and seat rotation.

Every block an encoder writes is named where it is written
(``w.scaled("seat1.reputation", [r / 40])``), so the layout (which slots mean
what) cannot drift from the code: `layout(game)` in this package runs the
encoder once with a recording writer and reads the names back.

Seats are relative: slot 0 is always the observer, then clockwise, so a
policy learnt in one seat transfers to the others.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Block:
    """A named run of slots. `items` names each slot when the slots have names
    (a card one-hot: its card ids; a phase one-hot: the phases)."""

    name: str
    start: int
    width: int
    items: tuple[str, ...] | None = None

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.width)

    def feature_names(self) -> list[str]:
        if self.items is not None:
            return [f"{self.name}[{item}]" for item in self.items]
        if self.width == 1:
            return [self.name]
        return [f"{self.name}[{i}]" for i in range(self.width)]


Width = int | Collection[str]
"""A block's width, or the names of its slots in order (the width is then their
count; a dict of name -> index in insertion order will do)."""


class Writer:
    """Appends named blocks to a float32 vector; `done()` checks the promised size.

    With ``record=True`` it also keeps the `Block`s written, for `layout()`; the
    adapters' hot path leaves it off."""

    def __init__(self, size: int, record: bool = False) -> None:
        self.vec = np.zeros(size, np.float32)
        self.pos = 0
        self.blocks: list[Block] | None = [] if record else None

    def block(self, name: str, width: Width) -> np.ndarray:
        """The next `width` slots, named `name`, to fill in place."""
        n = width if isinstance(width, int) else len(width)
        if self.blocks is not None:
            items = None if isinstance(width, int) else tuple(width)
            self.blocks.append(Block(name, self.pos, n, items))
        view = self.vec[self.pos : self.pos + n]
        self.pos += n
        return view

    def one_hot(self, name: str, width: Width, index: int | None) -> None:
        """Slot `index` set to 1 (none when `index` is None or out of range)."""
        view = self.block(name, width)
        if index is not None and 0 <= index < len(view):
            view[index] = 1.0

    def scaled(
        self, name: str, values: Iterable[float], scale: float, items: Sequence[str] | None = None
    ) -> None:
        """`values / scale`, clipped to [-1, 1]; `items` names the values."""
        vals = [float(v) / scale for v in values]  # a few values: cheaper than numpy here
        view = self.block(name, items if items is not None else len(vals))
        if len(view) != len(vals):
            raise AssertionError(f"block {name}: {len(vals)} values for {len(view)} names")
        view[:] = [-1.0 if v < -1.0 else 1.0 if v > 1.0 else v for v in vals]

    def done(self) -> np.ndarray:
        if self.pos != len(self.vec):
            raise AssertionError(f"encoder wrote {self.pos} values, promised {len(self.vec)}")
        return self.vec


def rotate(values: list[Any], seat: int) -> list[Any]:
    """Per-seat values reordered so the observer comes first, then clockwise."""
    return values[seat:] + values[:seat]


def rel(seat: int | None, observer: int, n: int) -> int | None:
    """A seat number relative to the observer (0 = the observer)."""
    return None if seat is None or seat < 0 else (seat - observer) % n


def seat_names(n: int) -> list[str]:
    """Names of relative seats: ``you``, ``seat+1``, ... (clockwise from the observer)."""
    return ["you"] + [f"seat+{q}" for q in range(1, n)]
