"""The game API every cardlab game implements.

Names follow OpenSpiel's state API (`new_initial_state`, `current_player`,
`legal_actions`, `apply_action`, `is_terminal`, `returns`, `clone`) so the
adapters are thin. Following TAG, a game splits into parameters (the `Game`:
player count, rule options, card data), the game state (plain data that
clones cheaply) and the forward model (the state's `apply_action`).

Every random draw comes from a generator owned by the state, seeded by
`new_initial_state(seed)`; same seed and same actions give the same game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar, Final

from cardlab.core.errors import OptionError, PlayerCountError
from cardlab.core.moves import GENERIC, Move
from cardlab.core.options import OptionSpec, OptionValue, resolve_options
from cardlab.core.variants import Variant, applying

TERMINAL_PLAYER: Final = -4
"""`current_player()` once the game is over (OpenSpiel's kTerminalPlayerId)."""


class Game(ABC):
    """A game's parameters: player count, rule options and card data."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def __init__(
        self,
        players: int,
        cards: str | Path | None = None,
        variant: Variant | None = None,
        **options: Any,
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise PlayerCountError(f"{self.name}: players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        self.num_players = players
        self.variant = variant
        if variant is not None:
            if variant.game != self.name:
                raise OptionError(f"{variant.source}: a {variant.game} variant, not {self.name}")
            # `options_for`: [options] with this player count's [players.N.options] over them.
            chosen = variant.options_for(players)
            try:
                variant_options = resolve_options(self.name, self.option_specs, chosen)
            except OptionError as exc:
                raise OptionError(f"{variant.source}: [options]: {exc}") from None
            given = {k: v for k, v in variant_options.items() if k in chosen}
            options = given | options
        self.options: dict[str, OptionValue] = resolve_options(
            self.name, self.option_specs, options
        )
        self.cards_path = Path(cards) if cards is not None else None
        with applying(variant.changes if variant is not None else ()):
            self.cards = self.load_cards(self.cards_path)

    @abstractmethod
    def load_cards(self, path: Path | None) -> Any:
        """Load and validate the card data (the packaged file when `path` is None)."""

    @abstractmethod
    def new_initial_state(self, seed: int = 0) -> GameState:
        """A fresh game, shuffled by a generator seeded with `seed`."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the action space: every action is an int in range(num_distinct_actions)."""

    def max_game_length(self) -> int:
        """An upper bound on the decisions (entries of `history()`) of one game.

        Derived from the rules for this player count and these rule options, and
        written in the game's rules doc beside the derivation; not a tight bound.
        """
        raise NotImplementedError(
            f"{type(self).__name__} has no max_game_length(): a game must derive its bound "
            "on decisions per game from its rules (and document it) to offer it"
        )

    def utility_bounds(self) -> tuple[float, float]:
        """(min, max) final points any seat can have, for these rules and card data.

        Derived from the rules (valid bounds, not necessarily reachable).
        """
        raise NotImplementedError(
            f"{type(self).__name__} has no utility_bounds(): a game must derive the lowest "
            "and highest final points a seat can have from its rules to offer them"
        )

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<{type(self).__name__} players={self.num_players} {opts}>"


class GameState(ABC):
    """One moment of one game. Subclasses keep plain data so `clone` is cheap.

    The shared contract (`cardlab.core.contract`, checked for every game by
    `cardlab.testing.check_game`): `apply_action` starts with
    ``if type(action) is not int: action = action_index(self, action)`` (NumPy
    integers converted; bool, float and the rest refused before anything
    changes) and refuses an illegal int with
    ``IllegalActionError(illegal_action_message(self, action))``;
    `legal_actions()` and `history()` return fresh lists the caller may keep or
    change; `winners()` follow the rulebook's chain through `break_ties`. The
    checks are written in each engine rather than wrapped around it here because
    a wrapper costs 2-4% of random-play speed (measured)."""

    game: Game

    # -- the OpenSpiel-style core -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat that decides now (also out of turn); TERMINAL_PLAYER when over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions of the current player, a fresh list; never empty until terminal."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A readable label for `action` in this state."""

    def describe_action(self, action: int) -> Move:
        """What `action` does, for programs (`cardlab.core.moves.Move`): its kind, the
        card ids it names, the cells or slot it targets, an amount. The table's touch
        play, confirm step and replay read this, never the label. Every card id it names
        must be visible to the deciding seat (`cardlab check` tests it). The default
        names no card: a game should describe its moves."""
        return GENERIC

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play `action`; an illegal one (or a non-integer: see `core.contract`) raises
        IllegalActionError and changes nothing."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Final points per seat (current points while the game runs)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats after the tie-break chain (empty until terminal)."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """JSON-serialisable: exactly what `player` may know, public log included."""

    def public_observation(self) -> dict[str, Any]:
        """JSON-serialisable: what every player and a spectator may know.

        The same shape as `observation(p)` minus every private part: no hand
        contents, no seat's own secret pick or offer, no card that only some
        seats know (what one seat saw in another's hand), and ``"seat": None``.
        It must name no card in `public_hidden_card_ids()`. Engines build it
        from the same code as `observation(p)` so the two cannot drift.
        """
        raise NotImplementedError(
            f"{type(self).__name__} has no public_observation(): a game must implement it "
            "to be watched by spectators (the public view, built by the engine)"
        )

    @abstractmethod
    def resample_from_infostate(self, player: int, seed: int) -> GameState:
        """A copy with everything `player` cannot see redealt consistently."""

    clone_shares: ClassVar[frozenset[str]] = frozenset()
    """Slots that `clone()` shares with the original instead of copying: lists the
    engine never changes in place (it replaces them whole on every change), so a
    clone may share them as it shares a tuple. `cardlab.testing.clones` checks that
    every other mutable slot is copied and that these are indeed never changed in place."""

    @abstractmethod
    def clone(self) -> GameState: ...

    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the initial state, as a fresh list."""

    # -- extras used by the lab, the bots and the tests --------------------------
    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card id of the game by where it is now (conservation checks).

        Zone keys say who may see the cards in them: ``"public:<name>"`` for
        everyone, ``"private:<seat>:<name>"`` for that seat only and
        ``"hidden:<name>"`` for nobody (a deck). Card ids are short fixed-width
        tokens (e.g. ``up07``) so a leak can be found by searching raw output.
        """

    def hidden_card_ids(self, player: int) -> set[str]:
        """Card ids that `player` may not know the whereabouts of right now."""
        own = f"private:{player}:"
        hidden: set[str] = set()
        for key, ids in self.zones().items():
            if key.startswith("hidden:") or (
                key.startswith("private:") and not key.startswith(own)
            ):
                hidden.update(ids)
        return hidden

    def public_hidden_card_ids(self) -> set[str]:
        """Card ids whose whereabouts not everyone may know: every ``"hidden:*"`` and
        ``"private:*"`` zone (what `public_observation()` may never name). A game
        whose private zones hold cards everyone saw arrive may override it."""
        hidden: set[str] = set()
        for key, ids in self.zones().items():
            if key.startswith(("hidden:", "private:")):
                hidden.update(ids)
        return hidden

    def progress_values(self) -> list[float]:
        """Each seat's standing for bots, higher is better: points plus progress toward
        points.

        Games override this with a sensible measure; the default is the points as
        they stand, negated for a game the fewest points win (`GameInfo.score_direction`
        "lowest"), so bots avoid penalty points. Bots read it through
        `heuristic_value(s)`."""
        from cardlab.core.plugin import lowest_wins

        points = [float(x) for x in self.scores()]
        return [-p for p in points] if lowest_wins(self.game.name) else points

    def heuristic_value(self, player: int) -> float:
        """A quick evaluation for bots: the seat's progress minus the best other seat's."""
        return self.heuristic_values()[player]

    def heuristic_values(self) -> list[float]:
        """`heuristic_value` of every seat from one `progress_values()` call, so a search
        that rates all seats (ISMCTS) pays for one evaluation, not one per seat."""
        if type(self).heuristic_value is not GameState.heuristic_value:
            # a game that rates seats one by one itself
            return [self.heuristic_value(p) for p in range(self.game.num_players)]
        values = self.progress_values()
        if len(values) < 2:
            return values
        best = max(values)
        top = values.index(best)  # the first seat with the best value, as max(key=) picks
        second = max(values[:top] + values[top + 1 :])
        out = [v - best for v in values]
        out[top] = best - second
        return out

    def info(self) -> dict[str, Any]:
        """Summary facts for the lab: end reason, tie-break level, rounds, turns..."""
        return {}

    def decision_kind(self) -> str:
        """Kind of the pending decision (for branching statistics and time models)."""
        return "decision"

    def scores(self) -> list[float]:
        """Points per seat as they stand now (for tension metrics and evaluations)."""
        return self.returns()

    def __str__(self) -> str:
        return (
            f"<{type(self).__name__} player={self.current_player()} history={len(self.history())}>"
        )
