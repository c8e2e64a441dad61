"""A persistent append-only sequence, for what a game state only ever adds to: the moves
made and the events logged.

Why: search clones a state for every playout and every redeal, and a history or log kept
as a list is copied whole by every clone (hundreds of entries late in a game) although
neither is ever changed in place. A `Trail` is never changed at all: `push` returns a new
trail that shares every older entry, so a clone shares its parent's trail and a move
costs one small object. Reading the whole trail (`items`, iteration, `len`) costs its
length; the engines read it whole only to show the log or to answer `history()`.

It pickles flat (its items as one list), so a long game pickles without recursing once
per entry, and two trails with equal items are equal whoever built them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, final


@final
class Trail:
    """Entries oldest first; `push` gives a longer trail and leaves this one as it was.

    `Trail()` is the empty trail; build one from items with `trail(items)`."""

    __slots__ = ("last", "rest")

    def __init__(self, last: Any = None, rest: Trail | None = None) -> None:
        self.last: Any = last
        """The newest entry (None in the empty trail)."""
        self.rest: Trail | None = rest
        """The trail before the newest entry (None in the empty trail)."""

    def push(self, item: Any) -> Trail:
        """This trail with `item` after its last entry (this one is unchanged)."""
        return Trail(item, self)

    def __len__(self) -> int:
        """A walk over the entries: a trail keeps no length, since a push is the hot path
        (two fields to set, as cheap as a cons tuple; a third made it 20% dearer)."""
        size = 0
        cell = self
        while cell.rest is not None:
            size += 1
            cell = cell.rest
        return size

    def items(self) -> list[Any]:
        """A fresh list of the entries, oldest first."""
        out: list[Any] = []
        cell = self
        while cell.rest is not None:
            out.append(cell.last)
            cell = cell.rest
        out.reverse()
        return out

    def since(self, mark: Trail) -> list[Any]:
        """The entries pushed after the trail was `mark`, oldest first (every entry if
        `mark` is not an earlier state of this trail)."""
        out: list[Any] = []
        cell = self
        while cell is not mark and cell.rest is not None:
            out.append(cell.last)
            cell = cell.rest
        out.reverse()
        return out

    def rewritten(self, items: list[Any]) -> Trail:
        """A trail of `items` that shares this one's entries up to the first that differs
        (a redeal rewrites only the last few moves of a history: the rest is not copied)."""
        mine = self.items()
        same, limit = 0, min(len(mine), len(items))
        while same < limit and mine[same] == items[same]:
            same += 1
        cell = self
        for _ in range(len(mine) - same):
            rest = cell.rest
            assert rest is not None
            cell = rest
        for item in items[same:]:
            cell = Trail(item, cell)
        return cell

    def newest_first(self) -> Iterator[Any]:
        """The entries from the newest back, read lazily (a search back for the last
        event of some kind stops where it finds it)."""
        cell = self
        while cell.rest is not None:
            yield cell.last
            cell = cell.rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items())

    def __getitem__(self, index: int) -> Any:
        """The entry at `index` (negative counts from the newest): a walk back from the
        newest, so cheap only near the end (`trail[-1]`)."""
        size = len(self)
        at = index + size if index < 0 else index
        if not 0 <= at < size:
            raise IndexError(f"trail index {index} out of range for {size} entries")
        cell = self
        for _ in range(size - 1 - at):
            rest = cell.rest
            assert rest is not None
            cell = rest
        return cell.last

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trail):
            return NotImplemented
        if self is other:
            return True
        return self.items() == other.items()

    def __copy__(self) -> Trail:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        """Itself: nothing in a trail changes (its entries are the engines' event tuples),
        so a deep copy of a state shares it as a clone does."""
        return self

    def __reduce__(self) -> tuple[Any, tuple[list[Any]]]:
        return (trail, (self.items(),))

    def __repr__(self) -> str:
        return f"trail({self.items()!r})"


EMPTY_TRAIL: Trail = Trail()
"""The empty trail (immutable, so one serves every state)."""


def trail(items: Iterable[Any] = ()) -> Trail:
    """A trail of `items`, oldest first."""
    out = EMPTY_TRAIL
    for item in items:
        out = Trail(item, out)
    return out
