"""SUPER COMPUTER card data: pydantic models for parts and builds, the loader,
and the compiled lookup tables (`CardTables`) the engine reads on its hot path.

The rulebook's card images are lost, so the packaged set (cards.toml for the
parts, builds.toml for the builds) is our design; a designer may pass one TOML
file of their own (`cards=PATH`) holding `[[parts]]`, `[[builds]]` or both; a
section it leaves out keeps the packaged cards. Every mistake is reported as a
CardDataError naming the file, the card and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError
from cardlab.games.supercomputer.actions import DIRECTIONS, OPPOSITE

HERE = Path(__file__).parent
PARTS_FILE = HERE / "cards.toml"
BUILDS_FILE = HERE / "builds.toml"

ColourName = Literal["none", "black", "red", "blue", "green", "yellow", "purple"]
COLOURS: tuple[str, ...] = ("none", "black", "red", "blue", "green", "yellow", "purple")
"""Edge codes: 0 = no connector, 1 = black (universal), 2.. = plain colours."""
BARE, BLACK = 0, 1
"""Edge codes of no connector and of the universal black connector."""
LETTERS = "-KRBGYP"
"""One letter per colour code, so a grid reads without colour."""
FOUR_WAY_TYPES = ("CPU", "Hub")
HAND_SIZE: Final = 7
MAX_PLAYERS: Final = 5
MAX_COPIES = 5
"""The most copies of one part a card file may ask for."""
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
    count: int = Field(default=1, ge=0, le=MAX_COPIES)
    """How many copies of this card the deck holds (0 leaves it out). Copies are
    distinct cards after loading (`expand_copies`): the second is "<name> #2"."""

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


def deck_names(cards: CardSet) -> list[str]:
    """Every physical card's name, once per copy: the parts, then the builds."""
    return [p.name for p in cards.parts] + [b.name for b in cards.builds]


def load_cards(path: Path | None = None) -> CardSet:
    """The packaged cards, or a designer's file (its sections replace the packaged ones).
    Parts with a `count` are expanded into their copies before the set is checked, so
    every check (enough parts, builds that can be met) counts copies."""
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
    _unique_names([p.name for p in parts], "parts", parts_source)
    parts = expand_copies(parts, parts_source)
    check_card_set(parts, builds, parts_source, builds_source)
    source = parts_source if parts_source == builds_source else f"{parts_source} + {builds_source}"
    return CardSet(parts, builds, source)


def copy_name(name: str, copy: int) -> str:
    """The name of copy `copy` (1-based) of a part: the first keeps the card's name."""
    return name if copy == 1 else f"{name} #{copy}"


def expand_copies(parts: list[Part], source: str) -> list[Part]:
    """The deck: each part `count` times, in file order, a copy right after its card
    (so ids follow the file and are the same on every load). Copies get distinct
    names (`copy_name`): names label the pick actions, and two picks of one label
    could not be told apart. A copy's name that another card of the file already
    uses is refused."""
    file_names = {p.name for p in parts}
    out: list[Part] = []
    for p in parts:
        if p.count == 1:
            out.append(p)
            continue
        for c in range(1, p.count + 1):
            name = copy_name(p.name, c)
            if c > 1 and name in file_names:
                raise CardDataError(
                    f"{source}: card {name!r}: field 'name': copy {c} of {p.name!r} (count = "
                    f"{p.count}) takes this name too; rename one of them"
                )
            out.append(p.model_copy(update={"name": name, "count": 1}))
    return out


def _unique_names(names: list[str], section: str, source: str) -> None:
    """Names identify cards in labels, the public log and the observation encoding, so
    two cards of one name would be two choices nobody can tell apart: refused. (Copies
    of a part are asked for with its `count`, which names them "USB Hub", "USB Hub #2".)"""
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in first:
            raise CardDataError(
                f"{source}: card {name!r}: field 'name': {section}[{first[name]}] "
                f"and {section}[{i}] share this name; every card needs its own name"
            )
        first[name] = i


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
    _unique_names([p.name for p in parts], "parts", parts_source)
    _unique_names([b.name for b in builds], "builds", builds_source)
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


# -- compiled tables -------------------------------------------------------------------
CLASH, TOUCH, CONNECT = 0, 1, 2
"""Edge pair verdicts (S4): illegal; two bare edges touching; a connected pair."""


def edge_pair(a: int, b: int) -> int:
    """S4: bare-bare touch; bare facing a connector is illegal; connectors of one
    colour, or with either black, connect; other colours clash."""
    if a == BARE and b == BARE:
        return TOUCH
    if a == BARE or b == BARE:
        return CLASH
    return CONNECT if a in (b, BLACK) or b == BLACK else CLASH


class CardTables:
    """Everything the engine reads per card, compiled once per Game as tuples indexed
    by part or build number, so the forward model only indexes."""

    def __init__(self, cards: CardSet) -> None:
        parts = cards.parts
        builds = cards.builds
        self.num_parts = len(parts)
        self.num_builds = len(builds)
        self.part_ids = tuple(f"sc{i:02d}" for i in range(len(parts)))
        self.build_ids = tuple(f"sb{i:02d}" for i in range(len(builds)))
        self.part_names = tuple(p.name for p in parts)
        self.part_index = {name: i for i, name in enumerate(self.part_names)}
        self.part_types = tuple(p.type for p in parts)
        self.edges = tuple(tuple(COLOURS.index(e) for e in p.edges()) for p in parts)
        """Edge colour codes per part, north/east/south/west."""
        self.four_way = tuple(all(self.edges[i]) for i in range(len(parts)))
        self.green = tuple(tuple(p.green) for p in parts)
        self.red = tuple(tuple(p.red) for p in parts)
        self.base_parts = tuple(i for i, p in enumerate(parts) if not p.lt4)
        """Parts in play at 2-4 players (without the "<4" mark)."""
        self.all_parts = tuple(range(len(parts)))
        self.fit = tuple(
            tuple(
                tuple(
                    edge_pair(self.edges[a][d], self.edges[b][OPPOSITE[d]]) for b in self.all_parts
                )
                for a in self.all_parts
            )
            for d in DIRECTIONS
        )
        """fit[d][a][b]: the verdict for part a with part b as its neighbour in direction d."""
        self.connect_mask = tuple(
            tuple(_mask(self.fit[d], b, CONNECT) for b in self.all_parts) for d in DIRECTIONS
        )
        """connect_mask[d][b]: a bit per part a that connects to part b lying in direction d."""
        self.clash_mask = tuple(
            tuple(_mask(self.fit[d], b, CLASH) for b in self.all_parts) for d in DIRECTIONS
        )
        """clash_mask[d][b]: a bit per part a that may not have part b in direction d."""
        self.neighbour_masks = tuple(
            tuple((self.clash_mask[d][b], self.connect_mask[d][b]) for d in DIRECTIONS)
            for b in self.all_parts
        )
        """neighbour_masks[b][d] = (clash_mask[d][b], connect_mask[d][b]): what part b
        means to an empty cell that has it in direction d."""
        self.build_names = tuple(b.name for b in builds)
        self.build_index = {name: i for i, name in enumerate(self.build_names)}
        self.bonus = tuple(tuple(b.bonus) for b in builds)
        self.penalty = tuple(tuple(b.penalty) for b in builds)
        self.requirements = tuple(
            tuple((tuple(r.accepts(p) for p in parts), r.count) for r in b.requires) for b in builds
        )
        """requirements[b] = ((accepts: a bool per part, count), ...)."""
        self.requirement_masks = tuple(
            tuple(
                (sum(1 << k for k, ok in enumerate(accepts) if ok), count)
                for accepts, count in reqs
            )
            for reqs in self.requirements
        )
        """requirement_masks[b] = ((the accepted parts as bits, count), ...)."""
        self.requirement_labels = tuple(tuple(r.label() for r in b.requires) for b in builds)
        self.part_views = tuple(_part_view(i, p, self.edges[i]) for i, p in enumerate(parts))
        self.build_views = tuple(
            {
                "id": self.build_ids[i],
                "name": b.name,
                "requires": list(self.requirement_labels[i]),
                "bonus": list(b.bonus),
                "penalty": list(b.penalty),
            }
            for i, b in enumerate(builds)
        )

    def met(self, build: int, attached: list[int] | dict[int, int]) -> bool:
        """S6/S7: every requirement of `build` is met by distinct attached parts.

        A build names each type once (validated), so counting per requirement is exact."""
        have = 0
        for k in attached if isinstance(attached, list) else attached.values():
            have |= 1 << k
        for mask, count in self.requirement_masks[build]:
            if (have & mask).bit_count() < count:
                return False
        return True

    def progress(self, build: int, parts: list[int]) -> float:
        """Share of the build's required parts already among `parts` (0..1)."""
        need = got = 0
        for accepts, count in self.requirements[build]:
            need += count
            got += min(count, sum(1 for k in parts if accepts[k]))
        return got / need if need else 1.0

    def fills_gap(self, build: int, part: int, attached: list[int]) -> bool:
        """Whether `part` meets a requirement of `build` that `attached` still lacks."""
        for accepts, count in self.requirements[build]:
            if accepts[part] and sum(1 for k in attached if accepts[k]) < count:
                return True
        return False

    def parts_needed(self, build: int) -> int:
        """How many parts the build asks for in all."""
        return sum(count for _, count in self.requirements[build])


def _mask(fit: tuple[tuple[int, ...], ...], b: int, verdict: int) -> int:
    """The parts a (as bits) whose verdict with neighbour b is `verdict`."""
    return sum(1 << a for a in range(len(fit)) if fit[a][b] == verdict)


def _part_view(i: int, p: Part, edges: tuple[int, ...]) -> dict[str, object]:
    return {
        "id": f"sc{i:02d}",
        "name": p.name,
        "type": p.type,
        "edges": {d: COLOURS[e] for d, e in zip("NESW", edges, strict=True)},
        "size": f"{p.size} {p.unit}" if p.size is not None else None,
        "green": list(p.green),
        "red": list(p.red),
        "four_way": all(edges),
    }
