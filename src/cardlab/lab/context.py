"""A report's shared state: settings, and a cache of runs so the report and
the claims never play the same configuration twice."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.core.registry import game_info
from cardlab.lab.backends import RunResult, run_spec
from cardlab.lab.simulate import Observer, SimSpec, load_checked, make_spec
from cardlab.lab.timemodel import TimeModel

if TYPE_CHECKING:
    from cardlab.core.plugin import GameInfo


@dataclass
class LabContext:
    """What a report and its claims may run: `run(...)` plays (or reuses) a
    configuration with the report's seed, workers and backend."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    games: int
    seed: int = 0
    cards: str | None = None
    """The card file every configuration plays (None: the packaged cards)."""
    variant: str | None = None
    """The variant every configuration plays (a file or packaged name; None: as written)."""
    workers: int = 1
    backend: str = "local"
    ray_address: str | None = None
    progress: bool = True
    time_model: TimeModel = field(default_factory=TimeModel)
    ablation_games: int = 0
    """Games per card-impact ablation (0: no ablations)."""
    out_dir: Path | None = None
    """Where a report writes its side files (the ablations' card files)."""
    probe_games: int = 200
    """Games per claim probe configuration (claims scale their probes from it)."""
    side_games: int | None = None
    """Games of the report's runs at its other player counts (None: `probe_games`), so
    a claim citing the report's own runs reads those runs, not others."""
    compare_budget: int | None = None
    """`--compare` played sequentially: paired games per arm it may play at most (None:
    a fixed `side_games` per arm)."""
    probe_errors: list[dict[str, Any]] = field(default_factory=list)
    _cache: dict[tuple[SimSpec, Any], RunResult] = field(default_factory=dict)
    used: list[SimSpec] = field(default_factory=list)
    """The specs `run` was asked for, in order (played or reused): `claims.evaluate`
    clears it before each claim, so a claim's cited seed is looked up only in the runs
    that claim read."""
    _studies: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.time_model.kinds:  # no model given: the game's declared ranges
            self.time_model = TimeModel.from_info(game_info(self.game))

    @property
    def game_class(self) -> Any:
        return type(load_checked(self.game, self.players, self.options, self.cards, self.variant))

    @property
    def info(self) -> GameInfo:

        return game_info(self.game)

    def rules(self, options: dict[str, Any] | None = None, players: int | None = None) -> Any:
        """The Game object (options resolved with defaults) for these settings."""
        return load_checked(
            self.game,
            players or self.players,
            {**self.options, **(options or {})},
            self.cards,
            self.variant,
        )

    def spec(
        self,
        players: int | None = None,
        agents: list[str] | tuple[str, ...] | None = None,
        options: dict[str, Any] | None = None,
        games: int | None = None,
        seed: int | None = None,
        cards: str | None = None,
    ) -> SimSpec:
        """The report's main spec with some settings changed (options are
        merged over the report's options; `cards` replaces the report's card file)."""
        return make_spec(
            self.game,
            players or self.players,
            list(agents or self.agents),
            self.seed if seed is None else seed,
            games or self.games,
            {**self.options, **(options or {})},
            cards or self.cards,
            self.variant,
        )

    def run(
        self, label: str | None = None, observer: type[Observer] | None = None, **changes: Any
    ) -> RunResult:
        """Play (or reuse) a configuration; with `observer`, a claim probe."""
        spec = self.spec(**changes)
        if spec not in self.used:
            self.used.append(spec)
        key = (spec, observer)
        if key not in self._cache:
            name = label or (observer.__name__ if observer else None)
            self._cache[key] = run_spec(
                spec, self.workers, self.backend, self.ray_address, self.progress, name, observer
            )
        result = self._cache[key]
        if observer is not None:  # probes see finished games; errors are kept aside
            errors = [r for r in result.records if "error" in r]
            self.probe_errors.extend(errors)
            result = RunResult(
                result.spec,
                [r for r in result.records if "error" not in r],
                result.elapsed_s,
                result.workers,
                result.backend,
            )
        return result

    def study(self, key: str, compute: Callable[[], Any]) -> Any:
        """A game's own study (e.g. a placement study several claims and a report
        section read), computed once per report under `key` and reused."""
        if key not in self._studies:
            self._studies[key] = compute()
        return self._studies[key]

    def report_games(self, players: int) -> int:
        """Games of the report's run at `players`: its main run's at its own count, the
        player-count runs' elsewhere (`report._player_count_runs` plays these)."""
        if players == self.players:
            return self.games
        return self.probe_games if self.side_games is None else self.side_games

    @property
    def games_played(self) -> int:
        return sum(len(r.records) for r in self._cache.values())
