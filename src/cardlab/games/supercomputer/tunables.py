"""The SUPER COMPUTER card values a designer may tune (`cardlab tune`), read from the
packaged card files so a renamed card stays tunable:

- each build's bonus (0..20) and penalty (-12..0) per round;
- each part's connector colour on each edge, a word (a categorical tunable): one of the
  colours or "none" (a bare edge); a CPU or Hub is a 4-way part, so its edges may not be
  bare. A change that leaves a part with no connector, or gives a part other than a
  CPU/Hub four, is refused by the card file's own checks (the trial is scored as failed);
- how many copies of each part the deck holds (0..3; 0 leaves the part out). The card
  file's set checks still hold: enough parts for every player count, and every build
  met by some set of parts, copies counted."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable
from cardlab.games.supercomputer.cards import COLOURS, FOUR_WAY_TYPES

HERE = Path(__file__).parent
_BUILDS = tomllib.loads((HERE / "builds.toml").read_text(encoding="utf-8"))
_PARTS = tomllib.loads((HERE / "cards.toml").read_text(encoding="utf-8"))
EDGES = ("north", "east", "south", "west")
MAX_TUNED_COPIES = 3

BUILD_TUNABLES: tuple[Tunable, ...] = tuple(
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


def _edge_choices(part_type: str) -> tuple[str, ...]:
    if part_type in FOUR_WAY_TYPES:
        return tuple(c for c in COLOURS if c != "none")
    return COLOURS


EDGE_TUNABLES: tuple[Tunable, ...] = tuple(
    Tunable(
        f"cards:parts[{p['name']}].{edge}",
        about=f"{p['name']} {edge} connector",
        choices=_edge_choices(p["type"]),
    )
    for p in _PARTS.get("parts", [])
    for edge in EDGES
)

COUNT_TUNABLES: tuple[Tunable, ...] = tuple(
    Tunable(f"cards:parts[{p['name']}].count", 0, MAX_TUNED_COPIES, 1, f"copies of {p['name']}")
    for p in _PARTS.get("parts", [])
    if "count" in p  # the tuner changes a field the packaged file writes out
)

TUNABLES: tuple[Tunable, ...] = BUILD_TUNABLES + COUNT_TUNABLES + EDGE_TUNABLES
