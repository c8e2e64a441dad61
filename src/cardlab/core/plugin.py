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

EXTENSIONS = (
    "render",
    "claims",
    "art",
    "encoding",
    "scenarios",
    "view",
    "scoring",
    "personas",
    "hooks",
)
"""Modules a game package may have under the one layout. All but `view` and
`scoring` are optional: a game without art gets a plain card face, one without
claims a report without claims, one without personas only the generic bots.
`GameInfo` may rename the optional ones (`personas=`, `lab_hooks=`, `art=`,
`claims=`)."""


SCORE_DIRECTIONS = ("highest", "lowest")
"""Which end of the points wins (`GameInfo.score_direction`)."""


DERIVED = ("name", "title", "min_players", "max_players", "default_players")
"""The GameInfo fields the Game class already says (class attributes): left out of
a GameInfo they are taken from the class, and given they must agree with it, so a
game says each once. `default_players` is optional on the class (else
`min_players`)."""


def _package_of(module: str) -> str:
    """The package a Game class's module belongs to: the module itself when it is a
    package (the class in ``tunetoy/__init__.py``), else its parent."""
    parent = module.rpartition(".")[0]
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return parent or module
    if spec is not None and spec.submodule_search_locations is not None:
        return module
    return parent or module


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


@dataclass(frozen=True, kw_only=True)
class GameInfo:
    """Everything cardlab needs to know about one game: the one declaration.

    `game` is ``"module:Class"`` of the Game subclass; `package` is the game's
    package, under which the layout's modules are found (default: the package
    of the Game's module). `name`, `title`, `min_players`, `max_players` and
    `default_players` are the Game class's own (`DERIVED`): leave them out and they
    are taken from it; given, they must agree with it (`check_game_class`, run by
    the registry), so nothing is said twice. `default_players` is `min_players`
    when the class does not say it either. `box_minutes` is the playing
    time the rulebook states per player count (low, high), empty when it states
    none.

    What the game brings besides its engine, each a name inside its package
    with the one layout's default (a missing optional file means "none"):
    `rulebook` the rules document (``rules.md``), `howto` the player-facing
    rules (``howto.md``), `personas` the module registering its bots
    (``personas``), `lab_hooks` the module with the lab's hooks
    (`public_counts`, `resources`, `action_kind`, `PERSONAS`, `round_count`,
    `tallies`, `report_sections`; ``claims``), `claims` the gate's claims
    module (``claims``), `art` its card faces (``art``), `view_script` the
    table's view (``web/view.js``), `cards` its card file (``cards.toml``),
    `variants` its folder of packaged variants (``variants``). An empty
    string declares that the game has none.

    `score_direction` says which end of the points wins: ``"highest"`` (most
    points win, the default) or ``"lowest"`` (penalty points: Hearts, 6 nimmt!,
    Golf). `returns()` always reports the points as printed (positive penalty
    points for a lowest-wins game), `winners()` already applies the direction,
    and everything a person reads (reports, claims, ladders, final tables, the
    lobby) and the adapters' rewards read it from here, so no game negates its
    points to please the tools."""

    game: str
    pitch: str = ""
    package: str = ""
    name: str = ""
    title: str = ""
    min_players: int = 0
    max_players: int = 0
    default_players: int = 0
    decision_kinds: tuple[DecisionKind, ...] = ()
    box_minutes: dict[int, tuple[float, float]] = field(default_factory=dict)
    round_overhead_seconds: tuple[float, float] = (0.0, 0.0)
    tunables: tuple[Tunable, ...] = ()
    rulebook: str = "rules.md"
    howto: str = "howto.md"
    personas: str = "personas"
    lab_hooks: str = "claims"
    claims: str = "claims"
    art: str = "art"
    view_script: str = "web/view.js"
    cards: str = "cards.toml"
    variants: str = "variants"
    score_direction: str = "highest"

    def __post_init__(self) -> None:
        if self.score_direction not in SCORE_DIRECTIONS:
            raise ValueError(
                f"game {self.name or self.game!r}: GameInfo.score_direction must be "
                f"{' or '.join(repr(d) for d in SCORE_DIRECTIONS)}, not {self.score_direction!r}"
            )
        if ":" not in self.game:
            raise ValueError(f"GameInfo.game must be 'module:Class', not {self.game!r}")
        if not self.package:
            object.__setattr__(self, "package", _package_of(self.game.partition(":")[0]))
        if not all(getattr(self, attr) for attr in DERIVED):
            cls = self.game_class()
            for attr in DERIVED:
                if not getattr(self, attr):
                    object.__setattr__(self, attr, getattr(cls, attr, 0))
            missing = [a for a in DERIVED[:4] if not getattr(self, a)]
            if missing:
                raise ValueError(
                    f"{self.game}: the Game class must say its {', '.join(missing)} "
                    "(class attributes); GameInfo takes them from it"
                )
        if not self.default_players:
            object.__setattr__(self, "default_players", self.min_players)
        if not self.min_players <= self.default_players <= self.max_players:
            raise ValueError(
                f"{self.name}: default_players {self.default_players} is outside "
                f"{self.min_players}-{self.max_players}"
            )

    @property
    def lowest_wins(self) -> bool:
        """True when the fewest points win (`score_direction` ``"lowest"``)."""
        return self.score_direction == "lowest"

    def better(self, points: float) -> float:
        """`points` turned so that higher is better whatever the direction: the one
        place a tool that ranks or rewards seats by points turns penalty points."""
        return -points if self.lowest_wins else points

    def check_game_class(self) -> None:
        """Fail loudly when this declaration and the Game class disagree (the
        registry calls it for every game it finds)."""
        cls = self.game_class()
        for attr in DERIVED:
            ours, theirs = getattr(self, attr), getattr(cls, attr, None)
            if attr == "default_players" and theirs is None:
                continue  # optional on the class: then the GameInfo's (or min_players)
            if ours != theirs:
                raise ValueError(
                    f"game {self.name!r}: GameInfo.{attr} is {ours!r} but "
                    f"{self.game} says {theirs!r}; leave it out of the GameInfo"
                )

    def game_class(self) -> type[Game]:
        module, _, attr = self.game.partition(":")
        cls: type[Game] = getattr(importlib.import_module(module), attr)
        return cls

    def module(self, name: str) -> ModuleType | None:
        """The layout module `name` of this game (e.g. ``"claims"``), None if it has none.

        The optional modules a GameInfo renames (`personas`, `claims`, `art`) are
        looked up under their declared names."""
        if name not in EXTENSIONS:
            raise ValueError(f"{name!r} is not a game module; one of {', '.join(EXTENSIONS)}")
        declared = {"personas": self.personas, "claims": self.claims, "art": self.art}
        return self._import(declared.get(name, name))

    def lab_hooks_module(self) -> ModuleType | None:
        """The module holding the lab's hooks for this game, None if it has none."""
        return self._import(self.lab_hooks)

    def _import(self, name: str) -> ModuleType | None:
        if not name:
            return None
        full = f"{self.package}.{name}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as err:
            if err.name == full:
                return None
            raise

    def asset(self, which: str) -> Path | None:
        """The declared file `which` (``"rulebook"``, ``"howto"``, ``"view_script"``,
        ``"cards"``) inside the package, None when the game has none. Only
        declared names are resolved, and never outside the package."""
        if which not in ("rulebook", "howto", "view_script", "cards"):
            raise ValueError(f"{which!r} is not a game asset")
        rel = getattr(self, which)
        if not rel:
            return None
        root = self.package_dir().resolve()
        path = (root / rel).resolve()
        if not path.is_relative_to(root):
            raise ValueError(f"game {self.name!r}: {which} {rel!r} is outside its package")
        return path if path.is_file() else None

    def package_dir(self) -> Path:
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise ModuleNotFoundError(self.package)
        return Path(next(iter(spec.submodule_search_locations)))

    def variants_dir(self) -> Path:
        """Where the game's packaged variants (``*.toml``) live."""
        return self.package_dir() / (self.variants or "variants")

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
            "score_direction": self.score_direction,
        }


def direction_of(game: str) -> GameInfo | None:
    """The registered GameInfo of `game` (by name) for tools that rank or reward seats
    by points and know only the name (a run's records, a Game object), or None for a
    game that is not registered (an engine made in a test): it then reads as
    highest-wins, the default."""
    from cardlab.core import registry

    try:  # the registry's two tables, without building its merged list (bots call this)
        return registry._REGISTERED.get(game) or registry._discover().get(game)
    except Exception:  # a broken installation: the default direction
        return None


def lowest_wins(game: str) -> bool:
    """Whether the game named `game` is won by the fewest points."""
    info = direction_of(game)
    return info is not None and info.lowest_wins


def better_points(game: str, points: list[float]) -> list[float]:
    """Every seat's points turned so that higher is better (`GameInfo.better`), for the
    figures that compare seats (leaders, margins, deficits, rewards)."""
    return [-p for p in points] if lowest_wins(game) else list(points)


def points_phrase(game: str) -> str:
    """How a report says which end wins, for a sentence about points."""
    return "fewest points win" if lowest_wins(game) else "most points win"
