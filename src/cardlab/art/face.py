"""What every printable card face shares, whatever its game.

Each game's art module turns its engine's card models into face records (plain
dataclasses deriving from Face), so templates do not depend on the engines'
model classes and the browser table can build the same records."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Face:
    """Identity of one physical card: its id, printed name, the back it wears
    (its deck kind) and a category for the cover's counts."""

    id: str
    name: str
    back: str
    category: str
