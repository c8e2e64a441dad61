"""What a game declares about itself: one `GameInfo`, found by entry point.

A game is an installable package that registers one `GameInfo` in the
``cardlab.games`` entry-point group (``name = "pkg:GAME_INFO"``), as OpenSpiel
games call ``register_game`` once. Everything the rest of cardlab needs from a
game (lab, web, art, printing, adapters, tests) is declared here or found in
the game's package under the one layout (see DEVELOPERS.md), so adding a game
touches no list outside its own package.

The core never imports a game: a `GameInfo` names its Game class and its
extension modules by dotted path and they are imported only when used.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardlab.core.game import Game

EXTENSIONS = ("render", "claims", "art", "encoding", "scenarios", "view", "scoring")
"""Modules a game package may have under the one layout. All but `view` and
`scoring` are optional: a game without art gets a plain card face, one without
claims a report without claims."""


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision (`GameState.decision_kind()`) and how long people take.

    `seconds` is a (quick, slow) range per decision for a table of players who
    know the rules; `per_option` adds (quick, slow) seconds for each legal
    option beyond two (reading a longer list takes longer). A `simultaneous`
    kind is played by every seat at once at a real table (SUPER COMPUTER's
    picks), so a round of it costs the slowest seat's time, not the sum.
    These are guesses until `cardlab calibrate` fits them on recorded play."""

    name: str
    seconds: tuple[float, float]
    per_option: tuple[float, float] = (0.0, 0.0)
    simultaneous: bool = False
    about: str = ""


@dataclass(frozen=True)
class Tunable:
    """A card value a designer may change: a number with its allowed range, or a
    word from a fixed set (`choices`, e.g. a connector colour).

    `target` is ``"option:<name>"`` for a rule option or ``"cards:<path>"`` for
    a value in the card file, where `<path>` is a dotted path into the parsed
    TOML (list items by index or by the value of their ``name`` key). A tunable
    with `choices` is categorical: its value is one of those words and
    `low`/`high`/`step` are not used."""

    target: str
    low: float = 0.0
    high: float = 0.0
    step: float = 1.0
    about: str = ""
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.choices and self.low > self.high:
            raise ValueError(f"tunable {self.target!r}: low {self.low} is above high {self.high}")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError(f"tunable {self.target!r}: a choice is listed twice")


@dataclass(frozen=True)
class GameInfo:
    """Everything cardlab needs to know about one game.

    `game` is ``"module:Class"`` of the Game subclass; `package` is the game's
    package, under which the layout's modules are found. `box_minutes` is the
    playing time the rulebook states per player count (low, high), empty when
    it states none."""

    name: str
    title: str
    pitch: str
    game: str
    package: str
    min_players: int
    max_players: int
    default_players: int
    decision_kinds: tuple[DecisionKind, ...] = ()
    box_minutes: dict[int, tuple[float, float]] = field(default_factory=dict)
    round_overhead_seconds: tuple[float, float] = (0.0, 0.0)
    tunables: tuple[Tunable, ...] = ()
    rulebook: str = ""

    def game_class(self) -> type[Game]:
        module, _, attr = self.game.partition(":")
        cls: type[Game] = getattr(importlib.import_module(module), attr)
        return cls

    def module(self, name: str) -> ModuleType | None:
        """The layout module `name` of this game (e.g. ``"claims"``), None if it has none."""
        if name not in EXTENSIONS:
            raise ValueError(f"{name!r} is not a game module; one of {', '.join(EXTENSIONS)}")
        full = f"{self.package}.{name}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as err:
            if err.name == full:
                return None
            raise

    def package_dir(self) -> Path:
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise ModuleNotFoundError(self.package)
        return Path(next(iter(spec.submodule_search_locations)))

    def variants_dir(self) -> Path:
        """Where the game's packaged variants (``*.toml``) live."""
        return self.package_dir() / "variants"

    def decision_kind(self, name: str) -> DecisionKind | None:
        for kind in self.decision_kinds:
            if kind.name == name:
                return kind
        return None

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly summary (the lobby and `cardlab games`)."""
        return {
            "name": self.name,
            "title": self.title,
            "pitch": self.pitch,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "box_minutes": {str(n): list(r) for n, r in self.box_minutes.items()},
        }
