"""The check that `clone()` copies every slot of a state.

Engines write `clone` by hand for speed (a slot list copied one by one), so a slot
added to a state and forgotten in `clone` is the easiest bug to make and the hardest
to see: the clone then shares a list with the original, and a search that plays on
the clone changes the real game. This check reads every slot of the state's class and
asks of each: the clone's value equals the original's, and no mutable container
(a list, dict, set or bytearray, at any depth of lists) is the same object in both.
Immutable values (ints, tuples, frozen card tables, the persistent trails of
`cardlab.core.trail`) may be shared; so may the game and copy-on-write RNGs a state marks
as shared. A state's card columns (`cardlab.core.columns.CardColumns`) must be shared: one
per game start, so a clone holding another object has rebuilt or copied them."""

from __future__ import annotations

import copy
import random
from typing import Any

from cardlab.core.columns import CardColumns
from cardlab.core.game import GameState
from cardlab.testing.failures import ConformanceError

MUTABLE = (list, dict, set, bytearray)


def state_slots(state: GameState) -> list[str]:
    """Every slot and instance attribute of the state's class and its bases (a class
    compiled by mypyc lists its attributes in `__mypyc_attrs__`, not `__slots__`)."""
    names: list[str] = []
    for cls in type(state).__mro__:
        slots = cls.__dict__.get("__slots__", ()) or cls.__dict__.get("__mypyc_attrs__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in names and not name.startswith("__"):
                names.append(name)
    for name in getattr(state, "__dict__", {}):
        if name not in names:
            names.append(name)
    return names


def _shared_container(a: Any, b: Any, depth: int = 0) -> bool:
    if isinstance(a, MUTABLE) and a is b:
        return True
    if depth < 3 and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return any(_shared_container(x, y, depth + 1) for x, y in zip(a, b, strict=True))
    if depth < 3 and isinstance(a, dict) and isinstance(b, dict):
        return any(_shared_container(a[k], b.get(k), depth + 1) for k in a if k in b)
    return False


def check_clone_slots(state: GameState) -> int:
    """Fail when `state.clone()` leaves a slot out, changes it, or shares a mutable
    container with the original; returns how many slots were compared.

    A state may share lists it never changes in place (replaced whole on every change,
    so sharing them is as safe as sharing a tuple, and cheaper to clone): it names them
    in its class's `clone_shares`. The check holds it to that: it plays the clone on
    and fails if any such list of the original changed."""
    shared = frozenset(getattr(type(state), "clone_shares", frozenset()))
    clone = state.clone()
    before = {name: copy.deepcopy(getattr(state, name, None)) for name in shared}
    compared = 0
    for name in state_slots(state):
        mine = getattr(state, name, _MISSING)
        theirs = getattr(clone, name, _MISSING)
        if mine is _MISSING and theirs is _MISSING:
            continue
        if callable(mine) and not isinstance(mine, MUTABLE):
            continue
        compared += 1
        if theirs is _MISSING:
            raise ConformanceError(f"clone() leaves slot {name!r} unset")
        if mine is _MISSING:
            raise ConformanceError(f"clone() sets slot {name!r}, which the original lacks")
        if name in shared:
            continue
        if isinstance(mine, CardColumns):
            if theirs is not mine:
                raise ConformanceError(
                    f"clone() copies the card columns in slot {name!r}: one per game "
                    "start, shared by every clone (cardlab.core.columns)"
                )
            continue
        if isinstance(mine, random.Random) and isinstance(theirs, random.Random):
            same = mine.getstate() == theirs.getstate()  # the same stream from here on
        else:
            same = bool(mine == theirs)
        if not same:
            raise ConformanceError(f"clone() changes slot {name!r}: {mine!r} -> {theirs!r}")
        if _shared_container(mine, theirs):
            raise ConformanceError(
                f"clone() shares the mutable slot {name!r} with the original "
                "(a move on the clone would change the game)"
            )
    rng = random.Random(compared)
    for _ in range(20):
        if clone.is_terminal():
            break
        clone.apply_action(rng.choice(clone.legal_actions()))
    for name, was in before.items():
        if getattr(state, name, None) != was:
            raise ConformanceError(
                f"slot {name!r} is in clone_shares but a move on the clone changed it in "
                "place in the original: copy it in clone(), or replace it whole on change"
            )
    return compared


class _Missing:
    def __repr__(self) -> str:
        return "<unset>"


_MISSING = _Missing()
