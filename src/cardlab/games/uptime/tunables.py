"""The UPTIME numbers a designer may tune (`cardlab tune`), with their ranges.

Read from the packaged card file so a renamed card stays tunable:
- each raw material's count (U1: 6), each Computer's (U1: 1), each Component type's (U1: 2)
  and the Patch count (U1: 2),
  within the
  ranges the card file's composition check allows (`cards.MATERIAL_COUNT`,
  `cards.COMPUTER_COUNT`, `cards.COMPONENT_COUNT`, `cards.PATCH_COUNT`); a deck too lean to deal every seat its starting hand
  at the trial's player count is refused by the game, and the trial is kept
  as a failed one;
- Contract values, Network costs and points;
- each Component type's cost, one categorical tunable per printed slot
  (`cards:component[<name>].cost[0]` and `.cost[1]`), its choices the material
  names. U2's six different pairs are the packaged default; a trial may give two
  types the same pair. A change that makes a cost name one material twice is
  refused by the card file's check (a Component costs 2 different raw
  materials), and the trial is kept as a failed one.

Rule options need no entry here: the tuner takes every option over its
allowed values, the starting hand (option `starting_hand`, U16) among them.
Not tunable: the other counts, which U1 fixes."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cardlab.core.plugin import Tunable
from cardlab.games.uptime.cards import COMPONENT_COUNT, COMPUTER_COUNT, MATERIAL_COUNT, PATCH_COUNT

_CARDS = tomllib.loads((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8"))

TUNABLES: tuple[Tunable, ...] = (
    *(
        Tunable(
            f"cards:material[{m['name']}].count",
            *MATERIAL_COUNT,
            1,
            f"copies of the raw material {m['name']} in the Supply Deck",
        )
        for m in _CARDS.get("material", [])
    ),
    *(
        Tunable(
            f"cards:computer[{c['name']}].count",
            *COMPUTER_COUNT,
            1,
            f"copies of the Computer {c['name']} in the Build Deck",
        )
        for c in _CARDS.get("computer", [])
    ),
    *(
        Tunable(
            f"cards:component[{c['name']}].count",
            *COMPONENT_COUNT,
            1,
            f"copies of the Component {c['name']} in the Build Deck",
        )
        for c in _CARDS.get("component", [])
    ),
    *(
        (Tunable("cards:patch.count", *PATCH_COUNT, 1, "Patch cards in the Build Deck"),)
        if "patch" in _CARDS
        else ()
    ),
    *(
        Tunable(f"cards:contract[{c['name']}].value", 2, 10, 1, f"value of Contract {c['name']}")
        for c in _CARDS.get("contract", [])
    ),
    *(
        Tunable(f"cards:network[{n['name']}].cost", 1, 5, 1, f"raw materials a {n['name']} costs")
        for n in _CARDS.get("network", [])
    ),
    *(
        Tunable(
            f"cards:component[{c['name']}].cost[{slot}]",
            about=f"raw material {slot + 1} of 2 a {c['name']} costs",
            choices=tuple(m["name"] for m in _CARDS.get("material", [])),
        )
        for c in _CARDS.get("component", [])
        for slot in range(2)
    ),
    *(
        Tunable(f"cards:network[{n['name']}].points", 1, 4, 1, f"points of a {n['name']}")
        for n in _CARDS.get("network", [])
    ),
)
