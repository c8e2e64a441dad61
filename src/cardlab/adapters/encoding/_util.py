"""Small helpers the per-game encoders share: a cursor that writes named
blocks into one vector, and seat rotation (slot 0 is always the observer, so
a policy learnt in one seat transfers to the others)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class Writer:
    """Appends blocks to a float32 vector; `done()` checks the promised size."""

    def __init__(self, size: int) -> None:
        self.vec = np.zeros(size, np.float32)
        self.pos = 0

    def block(self, width: int) -> np.ndarray:
        view = self.vec[self.pos : self.pos + width]
        self.pos += width
        return view

    def one_hot(self, width: int, index: int | None) -> None:
        view = self.block(width)
        if index is not None and 0 <= index < width:
            view[index] = 1.0

    def scaled(self, values: Iterable[float], scale: float) -> None:
        vals = np.asarray(list(values), np.float32) / scale
        self.block(len(vals))[:] = np.clip(vals, -1.0, 1.0)

    def done(self) -> np.ndarray:
        if self.pos != len(self.vec):
            raise AssertionError(f"encoder wrote {self.pos} values, promised {len(self.vec)}")
        return self.vec


def rotate(values: list, seat: int) -> list:
    """Per-seat values reordered so the observer comes first, then clockwise."""
    return values[seat:] + values[:seat]


def rel(seat: int | None, observer: int, n: int) -> int | None:
    """A seat number relative to the observer (0 = the observer)."""
    return None if seat is None or seat < 0 else (seat - observer) % n
