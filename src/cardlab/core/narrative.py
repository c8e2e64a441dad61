"""The story of a game as a person reads it, shared by the terminal and the table.

Each game's `view` module offers two functions built from an *observation*
(never the state), so they can tell a seat nothing its view does not carry:

- ``narrate(observation) -> list[NarrativeLine]``: a readable line for every
  public event of the log (who won a Deal and for how much, auctions, reveals,
  scrapped parts, round scoring...), each tagged with the group it belongs to
  ("Deal 3", "Round 2") and its index in the log, so a client can show the
  events since a seat's last move.
- ``final_table(observation) -> FinalTable``: the per-seat breakdown whose
  parts add up to each seat's score, the winners and the tie-break line that
  decided.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class NarrativeLine:
    """One readable event. `index` is its position in the observation's log."""

    index: int
    group: str
    text: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FinalRow:
    seat: int
    name: str
    parts: tuple[float, ...]
    total: float


@dataclass(frozen=True)
class FinalTable:
    """Columns name the parts of a score; each row's parts sum to its total."""

    columns: tuple[str, ...]
    rows: tuple[FinalRow, ...]
    winners: tuple[int, ...]
    decided_by: str
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row.parts) != len(self.columns):
                raise ValueError(f"seat {row.seat}: {len(row.parts)} parts for {self.columns}")
            if abs(sum(row.parts) - row.total) > 1e-9:
                raise ValueError(f"seat {row.seat}: parts {row.parts} do not add up to {row.total}")

    def to_json(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "rows": [asdict(r) | {"parts": list(r.parts)} for r in self.rows],
            "winners": list(self.winners),
            "decided_by": self.decided_by,
            "notes": list(self.notes),
        }
