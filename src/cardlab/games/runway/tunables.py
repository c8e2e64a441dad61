"""The RUNWAY numbers a designer may tune (`cardlab tune`), with their ranges
(ruling R2: Deal scores 2-5, Hype costs 0-3). Read from the packaged card file
so a renamed Deal stays tunable. The Shock count is fixed by the card file's
composition check (R9: 6 alike)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable

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
)
