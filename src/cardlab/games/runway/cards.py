"""RUNWAY card data: pydantic models for cards.toml and the plain tables the
engine reads on its hot path.

The file is validated field by field by pydantic (errors name file, card and
field through `cardlab.core.carddata`), then cross-card rules are checked here
(four Sectors matching four distinct kinds, 12 Deals three per Sector, 0-12
Shocks, kinds that differ in colour AND mark AND name) and reported the same
way as a `CardDataError`.

A Capital kind's printed numbers are data too (`numbers`, default 1-8, eight
distinct numbers 0-9 in card order): the rules fix the eight cards of a kind, the lab's
card-impact experiments change what one of them prints (claims.ablations). Card
identity (id, place in the deal) never depends on the printed number.

The Shock count is data (a designer's tunable, R9): a `[[shocks]]` entry may carry
`count` (default 1), so the packaged file's one entry `count = 6` and an older
file's six entries describe the same box.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError
from cardlab.games.runway.actions import MAX_SHOCKS, SHOCK_CARDS

PACKAGED = Path(__file__).with_name("cards.toml")
Role = Literal["cash", "network", "tech", "talent"]
ROLES: tuple[Role, ...] = ("cash", "network", "tech", "talent")
"""Kind roles in rule order: role i matches Sector i (R1); Cash and Network have rules of their own."""
LINE_GLYPHS = {"solid": "━", "dashed": "╍", "dotted": "┈", "double": "═"}
NUM_DEALS = 12
NUM_SHOCKS = 6
"""The printed box's Shock count (the packaged file)."""
SHOCK_RANGE = (0, MAX_SHOCKS)
"""The Shock counts the engine, every player count and every tool accept."""
DEALS_PER_SECTOR = 3


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SectorCard(_Strict):
    name: str = Field(min_length=1)
    matches: Role


PRINTED_NUMBERS = (1, 2, 3, 4, 5, 6, 7, 8)
"""The box's numbers of each kind, card by card (rw00 is Cash 1, rw07 Cash 8)."""
Printed = Annotated[int, Field(ge=0, le=9)]


class CapitalKind(_Strict):
    role: Role
    name: str = Field(min_length=1)
    symbol: str = Field(min_length=1, max_length=2)
    colour: str = Field(min_length=1)
    line_mark: Literal["solid", "dashed", "dotted", "double"]
    numbers: tuple[Printed, ...] = Field(default=PRINTED_NUMBERS, min_length=8, max_length=8)
    """The printed number of each of the kind's eight cards, in card order (distinct,
    so every card has its own name and label)."""


class DealCard(_Strict):
    name: str = Field(min_length=1)
    sector: str = Field(min_length=1)
    score: int = Field(ge=2, le=5)
    hype: int = Field(ge=0, le=3)


class ShockCard(_Strict):
    name: str = Field(min_length=1)
    count: int = Field(default=1, ge=0, le=MAX_SHOCKS)
    """How many alike copies of this Shock the box holds (R9)."""


class RunwayCardFile(_Strict):
    sectors: list[SectorCard]
    capital_kinds: list[CapitalKind]
    deals: list[DealCard]
    shocks: list[ShockCard]


class RunwayCards:
    """Validated card data in rule order, as plain tuples for the engine.

    `sectors[i]` is matched by `kinds[i]` (kinds are re-ordered so that this
    holds whatever order the file lists them in); `deals` keep file order and
    carry their Sector as an index.
    """

    __slots__ = (
        "source",
        "sectors",
        "kinds",
        "deals",
        "deal_sector",
        "deal_score",
        "deal_hype",
        "shock_names",
        "shock_cards",
        "capital_number",
        "capital_names",
        "event_entries",
    )

    def __init__(self, data: RunwayCardFile, source: str) -> None:
        self.source = source
        by_role = {k.role: k for k in data.capital_kinds}
        self.kinds: tuple[CapitalKind, ...] = tuple(by_role[r] for r in ROLES)
        by_match = {s.matches: s for s in data.sectors}
        self.sectors: tuple[str, ...] = tuple(by_match[r].name for r in ROLES)
        self.deals: tuple[DealCard, ...] = tuple(data.deals)
        self.deal_sector = tuple(self.sectors.index(d.sector) for d in data.deals)
        self.deal_score = tuple(d.score for d in data.deals)
        self.deal_hype = tuple(d.hype for d in data.deals)
        self.capital_number: tuple[int, ...] = tuple(n for k in self.kinds for n in k.numbers)
        """capital_number[card]: the printed number of Capital card `card` (0-31), which
        R6 compares; the box prints card % 8 + 1."""
        self.capital_names: tuple[str, ...] = tuple(
            f"{k.name} {n}" for k in self.kinds for n in k.numbers
        )
        """capital_names[card]: the printed name, e.g. "Cash 7"."""
        self.shock_names = tuple(s.name for s in data.shocks for _ in range(s.count))
        """One name per Shock card in the box (entries expanded by their count)."""
        self.shock_cards = SHOCK_CARDS[: len(self.shock_names)]
        """The card numbers of the box's Shocks (actions.SHOCK_CARDS)."""
        self.event_entries: dict[int, dict[tuple[Any, ...], dict[str, Any]]] = {}
        """Shock effect -> log event -> its public log entry (view.log_entries); events
        are small tuples from a finite set, so the cache stays small."""

    def deal_index(self, name: str) -> int:
        for i, deal in enumerate(self.deals):
            if deal.name == name:
                return i
        raise CardDataError(f"{self.source}: no Deal named {name!r}")


def deck_names(cards: RunwayCards) -> list[str]:
    """Every physical card's name, once per copy: the 32 Capital cards (numbers 1-8
    of each kind in the box), the Deals, the Shocks and the Sectors (what a printed
    deck shows)."""
    capital = list(cards.capital_names)
    return capital + [d.name for d in cards.deals] + list(cards.shock_names) + list(cards.sectors)


def load_cards(path: Path | None = None) -> RunwayCards:
    """Load, validate and cross-check a RUNWAY card file (the packaged one by default)."""
    path = path or PACKAGED
    data = load_card_file(path, RunwayCardFile)
    _cross_check(data, str(path))
    return RunwayCards(data, str(path))


def _fail(source: str, where: str, field: str, msg: str) -> CardDataError:
    return CardDataError(f"{source}: {where}: field {field!r}: {msg}")


def _cross_check(data: RunwayCardFile, source: str) -> None:
    if len(data.sectors) != 4:
        raise _fail(source, "file", "sectors", f"needs exactly 4 Sectors, has {len(data.sectors)}")
    if len(data.capital_kinds) != 4:
        raise _fail(
            source,
            "file",
            "capital_kinds",
            f"needs exactly 4 Capital kinds, has {len(data.capital_kinds)}",
        )
    _distinct(source, "sectors", [s.name for s in data.sectors], "name")
    _distinct(source, "sectors", [s.matches for s in data.sectors], "matches")
    for field in ("role", "name", "colour", "line_mark", "symbol"):
        _distinct(source, "capital_kinds", [getattr(k, field) for k in data.capital_kinds], field)
    for i, kind in enumerate(data.capital_kinds):
        if len(set(kind.numbers)) != len(kind.numbers):
            raise _fail(
                source,
                f"card {kind.name!r} (capital_kinds[{i}])",
                "numbers",
                f"{list(kind.numbers)} repeats a number; each of a kind's eight cards needs "
                "its own (its name and label)",
            )
    sector_names = [s.name for s in data.sectors]
    for i, deal in enumerate(data.deals):
        if deal.sector not in sector_names:
            raise _fail(
                source,
                f"card {deal.name!r} (deals[{i}])",
                "sector",
                f"{deal.sector!r} is not a Sector; Sectors: {', '.join(sector_names)}",
            )
    if len(data.deals) != NUM_DEALS:
        raise _fail(
            source, "file", "deals", f"needs exactly {NUM_DEALS} Deals, has {len(data.deals)}"
        )
    _distinct(source, "deals", [d.name for d in data.deals], "name")
    for sector in sector_names:
        count = sum(1 for d in data.deals if d.sector == sector)
        if count != DEALS_PER_SECTOR:
            raise _fail(
                source,
                "file",
                "deals",
                f"needs {DEALS_PER_SECTOR} Deals in Sector {sector!r}, has {count}",
            )
    total = sum(shock.count for shock in data.shocks)
    low, high = SHOCK_RANGE
    if not low <= total <= high:
        last = data.shocks[-1] if data.shocks else None
        where = f"card {last.name!r} (shocks[{len(data.shocks) - 1}])" if last else "file"
        raise _fail(
            source,
            where,
            "count",
            f"the box would hold {total} Shocks; the Shock count must be {low}..{high} (R9)",
        )


def _distinct(source: str, table: str, values: list[str], field: str) -> None:
    """A value used twice names both entries, so the designer finds the first one too."""
    for i, value in enumerate(values):
        first = values.index(value)
        if first != i:
            raise _fail(
                source,
                f"{table}[{first}] and {table}[{i}]",
                field,
                f"{value!r} is used by both; each entry needs its own {field}",
            )
