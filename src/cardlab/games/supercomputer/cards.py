"""SUPER COMPUTER card data: pydantic models for parts and builds, the loader,
and the compiled lookup tables the engine reads on its hot path.

The rulebook's card images are lost, so the packaged set (cards.toml for the
parts, builds.toml for the builds) is our design; a designer may pass one TOML
file of their own (`cards=PATH`) holding `[[parts]]`, `[[builds]]` or both; a
section it leaves out keeps the packaged cards. Every mistake is reported as a
CardDataError naming the file, the card and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError

HERE = Path(__file__).parent
PARTS_FILE = HERE / "cards.toml"
BUILDS_FILE = HERE / "builds.toml"

ColourName = Literal["none", "black", "red", "blue", "green", "yellow", "purple"]
COLOURS: tuple[str, ...] = ("none", "black", "red", "blue", "green", "yellow", "purple")
"""Edge codes: 0 = no connector, 1 = black (universal), 2.. = plain colours."""
LETTERS = "-KRBGYP"
"""One letter per colour code, so a grid reads without colour."""
FOUR_WAY_TYPES = ("CPU", "Hub")
HAND_SIZE = 7
MAX_PLAYERS = 5
Points3 = Annotated[list[int], Field(min_length=3, max_length=3)]


def _all_at_least_zero(v: list[int]) -> list[int]:
    if min(v) < 0:
        raise ValueError("points must be 0 or more in every round")
    return v


def _all_at_most_zero(v: list[int]) -> list[int]:
    if max(v) > 0:
        raise ValueError("points must be 0 or less in every round (they are subtracted)")
    return v


Gains3 = Annotated[Points3, AfterValidator(_all_at_least_zero)]
"""Green points and build bonuses for rounds 1/2/3."""
Losses3 = Annotated[Points3, AfterValidator(_all_at_most_zero)]
"""Red (scrap) points and build penalties for rounds 1/2/3."""
"""Points for rounds 1, 2 and 3 (a list, so a wrong length is reported as such)."""


class Part(BaseModel):
    """One part card (S1): four edges, optional size banner, green/red points per round."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    type: str = Field(min_length=1)
    north: ColourName
    east: ColourName
    south: ColourName
    west: ColourName
    size: int | None = Field(default=None, gt=0)
    unit: str | None = None
    green: Gains3
    red: Losses3
    lt4: bool = False
    """The rulebook's "<4" mark: the card is used only with 5 players (S2)."""

    @model_validator(mode="after")
    def _consistent(self) -> Part:
        if (self.size is None) != (self.unit is None):
            raise ValueError("size and unit go together: give both or neither")
        edges = self.edges()
        if not any(e != "none" for e in edges):
            raise ValueError("a part needs at least one connector or it can never attach")
        four = all(e != "none" for e in edges)
        if self.type in FOUR_WAY_TYPES and not four:
            raise ValueError(f"a {self.type} is a 4-way part: it needs a connector on every edge")
        if four and self.type not in FOUR_WAY_TYPES:
            raise ValueError(
                f"only {'/'.join(FOUR_WAY_TYPES)} are 4-way parts; a {self.type} has at most 3"
            )
        return self

    def edges(self) -> tuple[str, str, str, str]:
        return (self.north, self.east, self.south, self.west)


class Requirement(BaseModel):
    """A build asks for `count` attached parts of `type`, optionally of one size or a range (S7)."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=HAND_SIZE)
    size: int | None = Field(default=None, gt=0)
    size_min: int | None = Field(default=None, gt=0)
    size_max: int | None = Field(default=None, gt=0)
    unit: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Requirement:
        ranged = self.size_min is not None or self.size_max is not None
        if self.size is not None and ranged:
            raise ValueError("give either an exact size or a range (size_min/size_max), not both")
        if ranged and (self.size_min is None or self.size_max is None):
            raise ValueError("a size range needs both size_min and size_max")
        if ranged and self.size_min > self.size_max:  # type: ignore[operator]
            raise ValueError("size_min is larger than size_max")
        if (self.size is not None or ranged) != (self.unit is not None):
            raise ValueError("a size or size range needs a unit, and a unit needs a size")
        return self

    def accepts(self, part: Part) -> bool:
        if part.type != self.type:
            return False
        if self.size is not None:
            return part.size == self.size and part.unit == self.unit
        if self.size_min is not None:
            return (
                part.size is not None
                and part.unit == self.unit
                and self.size_min <= part.size <= self.size_max  # type: ignore[operator]
            )
        return True

    def label(self) -> str:
        if self.size is not None:
            what = f"{self.type} {self.size} {self.unit}"
        elif self.size_min is not None:
            what = f"{self.type} {self.size_min}-{self.size_max} {self.unit}"
        else:
            what = self.type
        return f"{self.count}x {what}"


class Build(BaseModel):
    """A build card: requirements, plus a bonus and a penalty for each round (S1, S6)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    requires: list[Requirement] = Field(min_length=1)
    bonus: Gains3
    penalty: Losses3

    @model_validator(mode="after")
    def _one_requirement_per_type(self) -> Build:
        types = [r.type for r in self.requires]
        if len(set(types)) != len(types):
            raise ValueError("name each part type once per build (merge the requirements)")
        return self


class CardFile(BaseModel):
    """A card file: parts, builds, or both (a missing section keeps the packaged cards).
    The core's loader names the card and the field of any error, also inside list fields
    such as `green[2]` or `requires[0]`."""

    model_config = ConfigDict(extra="forbid")
    parts: list[Part] | None = None
    builds: list[Build] | None = None


class CardSet:
    """Validated parts and builds: the models plus where they came from."""

    def __init__(self, parts: list[Part], builds: list[Build], source: str) -> None:
        self.parts = parts
        self.builds = builds
        self.source = source


def load_cards(path: Path | None = None) -> CardSet:
    """The packaged cards, or a designer's file (its sections replace the packaged ones)."""
    parts = load_card_file(PARTS_FILE, CardFile).parts or []
    builds = load_card_file(BUILDS_FILE, CardFile).builds or []
    parts_source, builds_source = str(PARTS_FILE), str(BUILDS_FILE)
    if path is not None:
        mine = load_card_file(path, CardFile)
        if mine.parts is None and mine.builds is None:
            raise CardDataError(f"{path}: no [[parts]] and no [[builds]]: nothing to load")
        if mine.parts is not None:
            parts, parts_source = mine.parts, str(path)
        if mine.builds is not None:
            builds, builds_source = mine.builds, str(path)
    check_card_set(parts, builds, parts_source, builds_source)
    source = parts_source if parts_source == builds_source else f"{parts_source} + {builds_source}"
    return CardSet(parts, builds, source)


def _unique_names(cards: list[Part] | list[Build], section: str, source: str) -> None:
    """Names identify cards in labels, the public log and the observation encoding, so
    two cards of one name would be two choices nobody can tell apart: refused. (Copies
    of a part are distinct cards and need distinct names, e.g. "USB Hub A", "USB Hub B".)"""
    first: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.name in first:
            raise CardDataError(
                f"{source}: card {card.name!r}: field 'name': {section}[{first[card.name]}] "
                f"and {section}[{i}] share this name; every card needs its own name"
            )
        first[card.name] = i


def check_card_set(
    parts: list[Part], builds: list[Build], parts_source: str, builds_source: str | None = None
) -> None:
    """Cross-card checks (S2): enough parts for every player count, unique names, and
    builds that some set of parts can meet at every player count.

    A build is meetable when (a) it asks for at most 7 parts in all (a seat attaches
    at most its 7 picks in a round) and (b) each requirement is matched by enough
    parts in play. (b) is checked for 2-4 players, where the "<4" parts are set
    aside: the build deck has no "<4" mark and is dealt at every player count, so a
    build that only the 5-player parts can meet would be a certain penalty at 2-4
    players; that is refused as an error, not a per-count warning. Requirements
    name distinct types (validated per build), so distinct parts meet them."""
    builds_source = builds_source or parts_source
    base = [p for p in parts if not p.lt4]
    if len(base) < 4 * HAND_SIZE:
        raise CardDataError(
            f"{parts_source}: parts: {len(base)} parts without the <4 flag; 4 players need "
            f"{4 * HAND_SIZE} (S2)"
        )
    if len(parts) < MAX_PLAYERS * HAND_SIZE:
        raise CardDataError(
            f"{parts_source}: parts: {len(parts)} parts in all; 5 players need "
            f"{MAX_PLAYERS * HAND_SIZE}"
        )
    if len(parts) > 100 or len(builds) > 100:
        raise CardDataError(f"{parts_source}: at most 100 parts and 100 builds (ids are 2 digits)")
    if len(builds) < 2 * MAX_PLAYERS:
        raise CardDataError(
            f"{builds_source}: builds: {len(builds)} builds; 5 players are dealt 2 each, "
            f"so at least {2 * MAX_PLAYERS} are needed"
        )
    _unique_names(parts, "parts", parts_source)
    _unique_names(builds, "builds", builds_source)
    for b in builds:
        total = sum(req.count for req in b.requires)
        if total > HAND_SIZE:
            raise CardDataError(
                f"{builds_source}: card {b.name!r}: field 'requires': {total} parts in all, "
                f"but a seat attaches at most {HAND_SIZE} a round, so the build can never be met"
            )
        for i, req in enumerate(b.requires):
            everywhere = sum(req.accepts(p) for p in parts)
            if everywhere < req.count:
                raise CardDataError(
                    f"{builds_source}: card {b.name!r}: field 'requires[{i}]': no "
                    f"{req.count} parts in the set match {req.label()}, so the build can "
                    f"never be met"
                )
            unflagged = sum(req.accepts(p) for p in base)
            if unflagged < req.count:
                raise CardDataError(
                    f"{builds_source}: card {b.name!r}: field 'requires[{i}]': only "
                    f"{unflagged} of the parts used at 2-4 players match {req.label()} (the "
                    f"others carry the <4 flag), so at 2-4 players the build can never be met"
                )
