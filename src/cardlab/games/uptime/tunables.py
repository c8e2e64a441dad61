"""The UPTIME numbers a designer may tune (`cardlab tune`), with their ranges.

Read from the packaged card file so a renamed card stays tunable. Not here:
material counts, Patch count and the starting hand, which the card file's
composition check (ruling U1: 54 cards) and the rules fix; and Component
costs, which are pairs of materials, not numbers (ruling U2)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable

_CARDS = tomllib.loads((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8"))

TUNABLES: tuple[Tunable, ...] = (
    *(
        Tunable(f"cards:contract[{c['name']}].value", 2, 10, 1, f"value of Contract {c['name']}")
        for c in _CARDS.get("contract", [])
    ),
    *(
        Tunable(f"cards:network[{n['name']}].cost", 1, 5, 1, f"raw materials a {n['name']} costs")
        for n in _CARDS.get("network", [])
    ),
    *(
        Tunable(f"cards:network[{n['name']}].points", 1, 4, 1, f"points of a {n['name']}")
        for n in _CARDS.get("network", [])
    ),
)
