"""The RUNWAY numbers a designer may tune (`cardlab tune`), with their ranges
(ruling R2: Deal scores 2-5, Hype costs 0-3; R9: the Shock count, 0-12). Read from
the packaged card file so a renamed Deal or Shock stays tunable.

The Shock count's range is what the engine and every tool take at every player
count (cards.SHOCK_RANGE; tests/runway/test_runway_shock_count.py plays 0, 3, 10
and 12 through the conformance check)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable
from cardlab.games.runway.cards import SHOCK_RANGE

_CARDS = tomllib.loads((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8"))

TUNABLES: tuple[Tunable, ...] = (
    *(
        Tunable(f"cards:deals[{d['name']}].score", 2, 5, 1, f"score of Deal {d['name']}")
        for d in _CARDS.get("deals", [])
    ),
    *(
        Tunable(f"cards:deals[{d['name']}].hype", 0, 3, 1, f"Hype cost of Deal {d['name']}")
        for d in _CARDS.get("deals", [])
    ),
    *(
        Tunable(
            f"cards:shocks[{s['name']}].count",
            SHOCK_RANGE[0],
            SHOCK_RANGE[1],
            1,
            f"how many {s['name']} cards are shuffled in with the Deals (R9)",
        )
        for s in _CARDS.get("shocks", [])
        if "count" in s
    ),
)
