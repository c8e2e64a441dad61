"""UPTIME card data: pydantic models for cards.toml, the U1/U2 composition checks,
and the flat per-card tables the engine reads on its hot path.

The models catch a designer's typo by card and field; the cross-card checks
(`_check_composition`) catch a file that is well-formed but not UPTIME's deck
(wrong counts, a Component cost that names no material or the same material
twice). Both raise CardDataError naming the file, the card and the field.

Two counts are a designer's knobs rather than fixed by U1: the raw materials of
each kind (U1: 6) and the Patches (U1: 2) may take any value in
`MATERIAL_COUNT` and `PATCH_COUNT`, so `cardlab tune` and variants can try a
richer or leaner supply. The packaged file is U1's 54 cards; nothing else in
the engine assumes those counts (it reads them from the `CardTable`).

Component costs are a knob too: U2's six different pairs are the packaged
file's, but a designer's file may give two types the same pair (so a material
may appear in more or fewer than three types). A cost must still name two
different materials (the rulebook: "costs the 2 raw materials printed on its
card"); the engine's payment and legality read each type's pair from the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError

PACKAGED = Path(__file__).with_name("cards.toml")

# Card sorts (CardTable.kind values).
# Final: the compiled engines (make compiled) read them as constants, not module lookups.
MATERIAL: Final = 0
TWIST: Final = 1
COMPUTER: Final = 2
PATCH: Final = 3
COMPONENT: Final = 4
NETWORK: Final = 5
CONTRACT: Final = 6
KIND_NAMES = ("material", "twist", "computer", "patch", "component", "network", "contract")
ABILITIES = ("workstation", "blade", "tower", "mainframe")
TWISTS = ("power_surge", "supply_shortage")
MATERIAL_KINDS: Final = 4
"""Raw material kinds (U1: Silicon, Copper, Polymer, Rare-Earth; the composition check holds it)."""
COMPONENT_TYPES: Final = 6
"""Component types (U1: six; U2's packaged costs are the six pairs of the four materials, but
a designer's file may repeat a pair, so a type is told apart by its index, never its pair)."""
MATERIAL_COUNT = (3, 10)
"""Allowed copies of each raw material kind (U1: 6): from a lean supply (3 of a kind, for the
three Component types that cost it under U2's pairs) to a rich one (10, a 42-card Supply Deck a table can still
shuffle). A deck too lean to deal every seat its starting hand is refused by the game, which
knows the player count (`UptimeGame._check_deal`)."""
PATCH_COUNT = (0, 4)
"""Allowed Patch copies (U1: 2); 0 plays UPTIME without Patches."""
COMPONENT_COUNT = (2, 4)
"""Allowed copies of each Component type (U1: 2, twelve Components): a designer's knob. A
Computer spends three Components, so the printed twelve build at most four Computers
(six with both Patches): more Computers in the deck need more Components to be built."""
COMPUTER_COUNT = (1, 3)
"""Allowed copies of each Computer (U1: 1 of each ability, 4 Computers): a designer's knob
for a Build Deck with more Computers (at 4 players the printed four cannot go one to every
seat and leave any for the Cloud Milestone)."""


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)


class Material(_Card):
    count: int  # range checked by _check_composition (MATERIAL_COUNT)


class Twist(_Card):
    effect: Literal["power_surge", "supply_shortage"]


class Computer(_Card):
    ability: Literal["workstation", "blade", "tower", "mainframe"]
    points: int = Field(ge=0)
    count: int = 1  # range checked by _check_composition (COMPUTER_COUNT)


class Patch(_Card):
    count: int  # range checked by _check_composition (PATCH_COUNT)


class Component(_Card):
    cost: list[str] = Field(min_length=2, max_length=2)
    count: int = Field(ge=1)


class Network(_Card):
    kind: Literal["cable", "router"]
    cost: int = Field(ge=1)
    points: int = Field(ge=0)
    max_computers: int = Field(default=3, ge=1)
    count: int = Field(ge=1)


class Contract(_Card):
    value: int = Field(ge=0)


class UptimeCardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    material: list[Material]
    twist: list[Twist]
    computer: list[Computer]
    patch: Patch
    component: list[Component]
    network: list[Network]
    contract: list[Contract]


class CardTable:
    """Every card of one deck as parallel tuples indexed by card number 0..count-1
    (0..53 for the packaged U1 deck).

    Shared (never copied) by every state of a game: the state holds only
    card numbers. `ids[i]` is the printed token ("up07")."""

    def __init__(self, data: UptimeCardFile) -> None:
        self.data = data
        self.material_names = tuple(m.name for m in data.material)
        self.component_names = tuple(c.name for c in data.component)
        mat_index = {name: i for i, name in enumerate(self.material_names)}
        self.component_cost = tuple(tuple(mat_index[n] for n in c.cost) for c in data.component)
        kind: list[int] = []
        name: list[str] = []
        sub: list[int] = []  # material kind / component type / ability / twist / network kind
        value: list[int] = []  # points or contract value

        def add(k: int, n: str, su: int, v: int) -> None:
            kind.append(k)
            name.append(n)
            sub.append(su)
            value.append(v)

        for i, m in enumerate(data.material):
            for _ in range(m.count):
                add(MATERIAL, m.name, i, 0)
        for t in data.twist:
            add(TWIST, t.name, TWISTS.index(t.effect), 0)
        self.num_supply = len(kind)
        for c in data.computer:
            for _ in range(c.count):
                add(COMPUTER, c.name, ABILITIES.index(c.ability), c.points)
        for _ in range(data.patch.count):
            add(PATCH, data.patch.name, 0, 0)
        for i, comp in enumerate(data.component):
            for _ in range(comp.count):
                add(COMPONENT, comp.name, i, 0)
        self.network_cost: dict[int, int] = {}
        self.router_max: dict[int, int] = {}
        for net in data.network:
            for _ in range(net.count):
                self.network_cost[len(kind)] = net.cost
                self.router_max[len(kind)] = net.max_computers
                add(NETWORK, net.name, 0 if net.kind == "cable" else 1, net.points)
        for con in data.contract:
            add(CONTRACT, con.name, 0, con.value)
        self.kind = tuple(kind)
        self.name = tuple(name)
        self.sub = tuple(sub)
        self.value = tuple(value)
        self.count = len(kind)
        width = max(2, len(str(self.count - 1)))  # fixed-width tokens, "up07"
        self.ids = tuple(f"up{i:0{width}d}" for i in range(self.count))
        self.cost_pair = tuple(
            self.component_cost[self.sub[c]] if self.kind[c] == COMPONENT else (0, 0)
            for c in range(self.count)
        )
        """Per card: the two material kinds a Component costs ((0, 0) for other cards)."""
        self.supply_cards = tuple(range(self.num_supply))
        self.build_cards = tuple(range(self.num_supply, self.count))

    def describe(self, card: int) -> dict[str, object]:
        """A card as a player reads it (what observations show for a visible card)."""
        k = self.kind[card]
        out: dict[str, object] = {
            "id": self.ids[card],
            "name": self.name[card],
            "kind": KIND_NAMES[k],
        }
        if k == COMPONENT:
            out["cost"] = [self.material_names[m] for m in self.component_cost[self.sub[card]]]
        elif k == COMPUTER:
            out["ability"] = ABILITIES[self.sub[card]]
            out["points"] = self.value[card]
        elif k == NETWORK:
            out["cost"] = self.network_cost[card]
            out["points"] = self.value[card]
            if self.sub[card] == 1:
                out["per_computer"] = True
                out["max_computers"] = self.router_max[card]
        elif k == CONTRACT:
            out["value"] = self.value[card]
        return out


def deck_names(cards: CardTable) -> list[str]:
    """Every physical card's name, once per copy (what a printed deck shows)."""
    return list(cards.name)


def load_cards(path: Path | None = None) -> CardTable:
    """Load, validate and check a card file (the packaged one by default)."""
    source = path or PACKAGED
    data = load_card_file(source, UptimeCardFile)
    _check_composition(data, str(source))
    return CardTable(data)


def _fail(
    source: str, where: str, field: str, msg: str, at: tuple[object, ...] = ()
) -> CardDataError:
    """A composition failure; `at` is the card's place in the file (``("material", 1)``),
    so a sheet can point at the failing cell (row and column)."""
    return CardDataError(
        f"{source}: {where}: field {field!r}: {msg}", locations=((*at, field),) if at else ()
    )


def _check_composition(d: UptimeCardFile, src: str) -> None:
    """U1/U2: the deck must be UPTIME's (names, costs and values are free). The counts of
    each raw material and of Patches may vary within MATERIAL_COUNT and PATCH_COUNT (a
    designer's knob; U1's 6 and 2 are the packaged file's); every other count is U1's.
    Component costs are a knob as well: each must name two different materials of the
    file, but two types may share a pair (U2's six distinct pairs are the packaged file's)."""
    mats = [m.name for m in d.material]
    if len(mats) != 4 or len(set(mats)) != 4:
        raise _fail(src, "file", "material", f"need 4 differently named materials (U1), got {mats}")
    low, high = MATERIAL_COUNT
    for i, m in enumerate(d.material):
        if not low <= m.count <= high:
            raise _fail(
                src,
                f"card {m.name!r} (material[{i}])",
                "count",
                f"{m.count} is outside the allowed range {low}..{high} (U1 prints 6)",
                at=("material", i),
            )
    effects = sorted(t.effect for t in d.twist)
    if effects != sorted(TWISTS):
        raise _fail(
            src,
            "file",
            "twist",
            f"need one power_surge and one supply_shortage (U1), got {effects}",
        )
    abilities = sorted(c.ability for c in d.computer)
    if abilities != sorted(ABILITIES):
        raise _fail(
            src,
            "file",
            "computer",
            f"need one Computer of each ability {ABILITIES} (U1), got {abilities}",
        )
    low, high = COMPUTER_COUNT
    for i, computer in enumerate(d.computer):
        if not low <= computer.count <= high:
            raise _fail(
                src,
                f"card {computer.name!r} (computer[{i}])",
                "count",
                f"{computer.count} is outside the allowed range {low}..{high} (U1 prints 1)",
                at=("computer", i),
            )
    low, high = PATCH_COUNT
    if not low <= d.patch.count <= high:
        raise _fail(
            src,
            f"card {d.patch.name!r} (patch)",
            "count",
            f"{d.patch.count} is outside the allowed range {low}..{high} (U1 prints 2)",
            at=("patch",),
        )
    if len(d.component) != 6:
        raise _fail(
            src, "file", "component", f"need 6 Component types (U1), got {len(d.component)}"
        )
    for i, c in enumerate(d.component):
        where = f"card {c.name!r} (component[{i}])"
        low, high = COMPONENT_COUNT
        if not low <= c.count <= high:
            raise _fail(
                src,
                where,
                "count",
                f"{c.count} is outside the allowed range {low}..{high} (U1 prints 2)",
                at=("component", i),
            )
        for n in c.cost:
            if n not in mats:
                raise _fail(
                    src,
                    where,
                    "cost",
                    f"{n!r} is not a material; materials: {', '.join(mats)}",
                    at=("component", i),
                )
        if c.cost[0] == c.cost[1]:
            raise _fail(
                src,
                where,
                "cost",
                f"names {c.cost[0]!r} twice; a Component costs 2 different raw materials "
                '(rulebook: "the 2 raw materials printed on its card")',
            )
    kinds = sorted(n.kind for n in d.network for _ in range(n.count))
    if kinds != ["cable", "cable", "router", "router"]:
        raise _fail(src, "file", "network", f"need 2 Cables and 2 Routers (U1), got {kinds}")
    if len(d.contract) != 6:
        raise _fail(src, "file", "contract", f"need 6 Contracts (U1), got {len(d.contract)}")
