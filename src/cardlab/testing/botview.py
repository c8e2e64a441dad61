"""Check **bot_view**: a bot is handed exactly what its seat observed.

A bot decides on `resample_from_infostate(seat, seed)` (`agents.agent_view`; the
table's bot workers get the same object pickled). `check_resample` holds the
redeal's observation, cards and legal actions to the seat's; this check holds
*everything else* the bot is handed: every field of the state, recursively, as
pickle would send it (the history, logs, counters, caches, the generator).

It branches the seat to move: two different legal actions, applied to two copies.
For every other seat whose observation is the same after both (the seat cannot
tell the two choices apart, as a secret pick), the two views handed to that
seat's bot with one seed must be identical in every field. A view that keeps the
true `history()` fails here: the history names the secret choice. A game whose
choices are all public has few such branches (the report counts them); its views
are still compared over the worlds `check_resample` redeals.

`same_input(a, b)` is the comparison: None when identical, else the first field
(a path such as ``state.hands[2][3]``) where they differ."""

from __future__ import annotations

import random
import types
from operator import is_
from typing import Any

from cardlab.core import GameState
from cardlab.core.trail import Trail
from cardlab.testing.failures import ConformanceError

_ATOMS = (int, float, complex, str, bytes, bool, type(None))
_GLOBALS = (
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
)
"""Pickled by name: two of them are the same only if they are one object."""


def same_input(a: Any, b: Any, root: str = "state") -> str | None:
    """None if `a` and `b` carry the same data in every field (objects by the state
    pickle would save: `__reduce_ex__`), else where the first difference lies and what
    it is. Objects shared by both (the game, its card tables) are equal without being
    walked; lists and dicts compare in order (a bot may read the order), sets by
    content. Iterative, so a long linked log does not exhaust the stack."""
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Any, Any, tuple[Any, ...]]] = [(a, b, (root,))]
    while stack:
        x, y, path = stack.pop()
        if x is y:
            continue
        tx = type(x)
        if tx is not type(y):
            return f"{_path(path)}: {tx.__name__} vs {type(y).__name__}"
        if tx in _ATOMS:
            if x != y:
                return f"{_path(path)}: {_short(x)} vs {_short(y)}"
            continue
        pair = (id(x), id(y))
        if pair in seen:
            continue
        seen.add(pair)
        if tx is Trail:  # a persistent record (the moves, the log): compared as its items
            stack.append((x.items(), y.items(), path))
        elif tx is list or tx is tuple:
            if len(x) != len(y):
                return f"{_path(path)}: {len(x)} items vs {len(y)}"
            if not all(map(is_, x, y)):  # a copied log shares its entries: skip them fast
                stack.extend(
                    (u, v, (*path, i))
                    for i, (u, v) in enumerate(zip(x, y, strict=True))
                    if u is not v
                )
        elif tx is dict:
            if list(x) != list(y):
                return f"{_path(path)}: keys {_short(list(x))} vs {_short(list(y))}"
            stack.extend((x[k], y[k], (*path, k)) for k in x if x[k] is not y[k])
        elif tx is set or tx is frozenset:
            if x != y:
                return f"{_path(path)}: {_short(sorted(x ^ y, key=repr))} in one only"
        elif isinstance(x, _GLOBALS):
            return f"{_path(path)}: {x!r} vs {y!r}"  # two different classes or functions
        else:
            fx, fy = _fields(x), _fields(y)
            if [k for k, _ in fx] != [k for k, _ in fy]:
                return f"{_path(path)}: fields {[k for k, _ in fx]} vs {[k for k, _ in fy]}"
            stack.extend((u, v, (*path, k)) for (k, u), (_, v) in zip(fx, fy, strict=True))
    return None


def _fields(obj: Any) -> list[tuple[str, Any]]:
    """What pickle saves of `obj`, as (".name", value) pairs: its attributes (a
    ``__dict__`` or ``__slots__`` state), else its constructor arguments and state."""
    try:
        reduced = obj.__reduce_ex__(4)
    except TypeError as exc:  # an object pickle refuses cannot be handed to a worker either
        raise ConformanceError(
            f"a bot's input holds an object that cannot be pickled: {exc}"
        ) from None
    if isinstance(reduced, str):  # a global (an enum member, a singleton)
        return [(".__global__", reduced)]
    out: list[tuple[str, Any]] = []
    args = reduced[1] if len(reduced) > 1 else ()
    if args and not (len(args) == 1 and args[0] is type(obj)):  # copyreg.__newobj__(cls)
        out.append((".__args__", args))
    state = reduced[2] if len(reduced) > 2 else None
    if (
        isinstance(state, tuple)
        and len(state) == 2
        and all(d is None or isinstance(d, dict) for d in state)
    ):  # (__dict__, slots)
        state = {**(state[0] or {}), **(state[1] or {})}
    if isinstance(state, dict):
        out.extend((f".{k}", v) for k, v in state.items())
    elif state is not None:
        out.append((".__state__", state))
    for n, extra in ((3, ".__items__"), (4, ".__mapping__")):
        if len(reduced) > n and reduced[n] is not None:
            out.append((extra, list(reduced[n])))
    return out


def _path(path: tuple[Any, ...]) -> str:
    out = str(path[0])
    for part in path[1:]:
        out += part if isinstance(part, str) and part.startswith(".") else f"[{part!r}]"
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_bot_view(state: GameState, rng: random.Random, pairs: int = 1) -> int:
    """Branch the seat to move over `pairs` random pairs of its legal actions; every
    other seat that cannot tell a pair's results apart must be handed identical views
    (`same_input`). Returns how many (branch pair, seat) views were compared."""
    legal = state.legal_actions()
    if len(legal) < 2:
        return 0
    mover = state.current_player()
    compared = 0
    for _ in range(pairs):
        a1, a2 = rng.sample(legal, 2)
        one, two = state.clone(), state.clone()
        one.apply_action(a1)
        two.apply_action(a2)
        for p in range(state.game.num_players):
            if p == mover or one.observation(p) != two.observation(p):
                continue
            seed = rng.getrandbits(63)
            differs = same_input(
                one.resample_from_infostate(p, seed), two.resample_from_infostate(p, seed)
            )
            compared += 1
            if differs is not None:
                raise ConformanceError(
                    f"seat {p} cannot tell seat {mover}'s choices "
                    f"{state.action_to_string(a1)!r} and {state.action_to_string(a2)!r} apart, "
                    f"but the views handed to its bot differ: {differs} (a bot may be handed "
                    "only what its seat observed: resample_from_infostate must redeal or "
                    "replace every field that depends on what the seat cannot see, the "
                    "history included)"
                )
    return compared
