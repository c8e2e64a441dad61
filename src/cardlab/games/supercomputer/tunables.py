"""The SUPER COMPUTER numbers a designer may tune (`cardlab tune`), with their
ranges: each build's bonus and penalty per round. Read from the packaged build
file so a renamed build stays tunable. Connector colours are words, not
numbers, and are designed by hand (docs/rules/supercomputer.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable

_BUILDS = tomllib.loads((Path(__file__).parent / "builds.toml").read_text(encoding="utf-8"))

TUNABLES: tuple[Tunable, ...] = tuple(
    t
    for b in _BUILDS.get("builds", [])
    for r in range(3)
    for t in (
        Tunable(
            f"cards:builds[{b['name']}].bonus[{r}]", 0, 20, 1, f"{b['name']} bonus, round {r + 1}"
        ),
        Tunable(
            f"cards:builds[{b['name']}].penalty[{r}]",
            -12,
            0,
            1,
            f"{b['name']} penalty, round {r + 1}",
        ),
    )
)
