"""A move as data: what a legal action does, for programs.

An action is a small int and its label is for people (`action_to_string`). Programs
that need to know what a move touches (the table's touch play, its confirm step, the
log and the replay, the adapters, `cardlab check`) read a `Move` instead, built by the
engine that knows (`GameState.describe_action`), so nothing ever parses a label and a
card can be renamed or a label reworded without breaking them. The fields follow TAG's
action objects: a kind, the cards it names, the cells or slot it targets, an amount.

Every card id a move names must be visible to the seat that decides (its own cards,
or public ones); `cardlab check` enforces it, so a description can never leak.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Move:
    """One legal action described.

    - `kind`: what sort of move ("pitch", "requisition", "place", "pass", ...): the
      game's own vocabulary, a short lowercase word; the same kind for the same sort
      of move in every state.
    - `cards`: ids of the cards the move plays, spends or takes, in the order the
      move uses them. Equivalent cards (any one of your Silicons pays) are listed
      together in `alternatives` instead, so touching any of them means this move.
    - `alternatives`: ids of interchangeable cards the move spends one of.
    - `targets`: ids of cards the move acts on that are not the mover's to spend
      (the Build Row card a Requisition claims, the Bench card a trade takes).
    - `pays_with`: ids of the mover's cards that can pay what the move costs when the
      payment is asked in the decisions that follow (a Requisition's materials). They
      are shown with the decision, so the mover sees what they can pay with, but
      touching one does not choose the move (the payment is its own decision).
    - `cells`: (x, y) grid cells the move places on.
    - `slot`: the numbered slot it acts on (a Build Row slot), when it has one.
    - `amount`: a number it names (a bid), when it has one.
    - `costly`: spending this is worth a second thought at a table: the table asks
      to confirm a move chosen by touch (a bid, a Requisition).
    - `extra`: any other fact a game wants to give programs (JSON-friendly).
    """

    kind: str
    cards: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    pays_with: tuple[str, ...] = ()
    cells: tuple[tuple[int, int], ...] = ()
    slot: int | None = None
    amount: int | None = None
    costly: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.kind or not isinstance(self.kind, str):
            raise ValueError(f"a Move needs a kind (a short word), not {self.kind!r}")

    def named_ids(self) -> set[str]:
        """Every card id the move names (what must be visible to the mover)."""
        return {*self.cards, *self.alternatives, *self.targets, *self.pays_with}

    def to_json(self) -> dict[str, Any]:
        """The JSON form the table and the adapters send: empty fields left out."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.alternatives:
            out["alternatives"] = list(self.alternatives)
        if self.targets:
            out["targets"] = list(self.targets)
        if self.pays_with:
            out["pays_with"] = list(self.pays_with)
        if self.cells:
            out["cells"] = [list(c) for c in self.cells]
        if self.slot is not None:
            out["slot"] = self.slot
        if self.amount is not None:
            out["amount"] = self.amount
        if self.costly:
            out["costly"] = True
        if self.extra:
            out["extra"] = dict(self.extra)
        return out


GENERIC = Move(kind="action")
"""What a game that describes no move says of each (`GameState.describe_action`'s
default): a move that names no card. Touch play then offers it in the decision bar."""
