"""OH HELL's lab hooks (no rulebook claims: a traditional game promises nothing).

A bid moves no card and scores nothing until the deal ends, yet it is the game's
central decision: `public_counts` names the bids made so far, so the lab does not
count a bid as a turn that changed nothing (a dead turn)."""

from __future__ import annotations

from typing import Any


def public_counts(state: Any) -> dict[str, float]:
    """The bids on the table: how many seats have bid and each seat's bid (-1: none yet)."""
    bids = [(-1 if b is None else int(b)) for b in state.bids]
    return {"bids_made": float(sum(b >= 0 for b in bids)),
            **{f"bid_{seat}": float(b) for seat, b in enumerate(bids)}}  # fmt: skip
