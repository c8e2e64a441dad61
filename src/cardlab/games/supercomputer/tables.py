"""Lookup tables compiled once per Game from the card data, so the forward model
only indexes tuples: edge fits between every pair of parts in every direction,
points per round, which parts meet which build requirement, the placement
window and the action layout.

Grid: a computer is a dict cell -> part index. Cells are `(y + 7) * 15 + (x + 7)`
for x, y in -7..7 (x grows to the right/east, y grows downwards/south). The first
part of a round always sits at (0, 0) (S4: the first part goes anywhere, and a
grid without rotation is the same wherever it starts). Seven parts a round reach
at most 6 steps from the first, so placements lie in the window |x|, |y| <= 6:
13 x 13 = 169 placement actions.
"""

from __future__ import annotations

from cardlab.games.supercomputer.cards import COLOURS, LETTERS, CardSet, Part

STRIDE = 15
REACH = 6
WINDOW = 2 * REACH + 1
ORIGIN = 7 * STRIDE + 7
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
STEP = (-STRIDE, 1, STRIDE, -1)
"""Cell offset of the neighbour to the north, east, south, west."""
OPPOSITE = (SOUTH, WEST, NORTH, EAST)
BAD, TOUCH, CONNECT = 0, 1, 2
"""Edge pair verdicts: illegal; two bare edges touching; a connected pair."""


def cell_xy(cell: int) -> tuple[int, int]:
    return cell % STRIDE - 7, cell // STRIDE - 7


def xy_cell(x: int, y: int) -> int:
    return (y + 7) * STRIDE + (x + 7)


def edge_pair(a: int, b: int) -> int:
    """S4: bare-bare touch; bare facing a connector is illegal; connectors of one
    colour, or with either black (code 1), connect; other colours clash."""
    if a == 0 and b == 0:
        return TOUCH
    if a == 0 or b == 0:
        return BAD
    return CONNECT if a == b or a == 1 or b == 1 else BAD


class Tables:
    """Everything the engine reads per card, as tuples indexed by part/build number."""

    def __init__(self, cards: CardSet) -> None:
        parts = cards.parts
        builds = cards.builds
        self.num_parts = len(parts)
        self.num_builds = len(builds)
        self.part_ids = tuple(f"sc{i:02d}" for i in range(len(parts)))
        self.build_ids = tuple(f"sb{i:02d}" for i in range(len(builds)))
        self.names = tuple(p.name for p in parts)
        self.types = tuple(p.type for p in parts)
        self.edges = tuple(tuple(COLOURS.index(e) for e in p.edges()) for p in parts)
        self.four_way = tuple(all(self.edges[i]) for i in range(len(parts)))
        self.green = tuple(tuple(p.green) for p in parts)
        self.red = tuple(tuple(p.red) for p in parts)
        self.base_parts = tuple(i for i, p in enumerate(parts) if not p.lt4)
        self.all_parts = tuple(range(len(parts)))
        # fit[d][a][b]: verdict for part a with part b as its neighbour in direction d.
        self.fit = tuple(
            tuple(
                tuple(
                    edge_pair(self.edges[a][d], self.edges[b][OPPOSITE[d]]) for b in self.all_parts
                )
                for a in self.all_parts
            )
            for d in range(4)
        )
        self.build_names = tuple(b.name for b in builds)
        self.bonus = tuple(tuple(b.bonus) for b in builds)
        self.penalty = tuple(tuple(b.penalty) for b in builds)
        # reqs[b] = ((accepts: tuple[bool per part], count), ...)
        self.reqs = tuple(
            tuple((tuple(r.accepts(p) for p in parts), r.count) for r in b.requires) for b in builds
        )
        self.req_labels = tuple(tuple(r.label() for r in b.requires) for b in builds)
        self.build_index = {name: i for i, name in enumerate(self.build_names)}
        self.part_views = tuple(_part_view(i, p, self.edges[i]) for i, p in enumerate(parts))
        self.build_views = tuple(
            {
                "id": self.build_ids[i],
                "name": b.name,
                "requires": list(self.req_labels[i]),
                "bonus": list(b.bonus),
                "penalty": list(b.penalty),
            }
            for i, b in enumerate(builds)
        )
        self.short = tuple(_short(p) for p in parts)

    def met(self, build: int, attached: list[int] | dict[int, int]) -> bool:
        """S6/S7: every requirement of `build` is met by distinct attached parts.

        A build names each type once (validated), so counting per requirement is exact."""
        for accepts, count in self.reqs[build]:
            have = 0
            for k in attached if isinstance(attached, list) else attached.values():
                if accepts[k]:
                    have += 1
            if have < count:
                return False
        return True

    def progress(self, build: int, parts: list[int]) -> float:
        """Share of the build's required parts already among `parts` (0..1)."""
        need = got = 0
        for accepts, count in self.reqs[build]:
            need += count
            got += min(count, sum(1 for k in parts if accepts[k]))
        return got / need if need else 1.0


def edge_letters(edges: tuple[int, ...]) -> str:
    return "".join(LETTERS[e] for e in edges)


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


def _short(p: Part) -> str:
    """Five characters for a grid cell: type abbreviation plus size when it fits."""
    abbrev = {
        "Motherboard": "MoBo",
        "Storage": "Stor",
        "Cooling": "Cool",
        "Network": "Net",
        "Cable": "Cabl",
    }.get(p.type, p.type[:4])
    if p.size is not None and len(abbrev) + len(str(p.size)) <= 5:
        abbrev += str(p.size)
    return abbrev[:5].center(5)
