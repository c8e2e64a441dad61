"""The card columns a forward model reads on every move, as one typed object per game.

Why: a game's card data is a pydantic model and its options a dict, both plain Python
objects, so compiled engines (make compiled) read each attribute by a name lookup and
each option by a key; a hot loop pays that on every move of every playout. Each engine
instead builds, once per game start, a subclass of `CardColumns` holding the same tuples
(not copies) and the options it tests as plain typed values, and keeps it in its state's
`columns` slot. Every clone shares it (`cardlab.testing.clones` checks that the clone
holds the same object), and nothing changes it after it is built.

The pattern a subclass follows (the three engines and `cardlab new`'s template do):
- `__slots__` names every field, each typed where it is set;
- `__init__(source=None)` fills them from the game (or its card data) and returns at
  once without one, so a pickle can make a bare instance and then fill its slots
  (mypyc's `__new__` calls `__init__` with no arguments).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)
class CardColumns:
    """Base of each game's card columns: built once per game start from its card data and
    options, shared by every clone of its states, never changed. Plugins that are not
    compiled subclass it too (hence interpreted subclasses are allowed)."""

    __slots__ = ()
