"""Play one game of a run and boil it down to one record (one Parquet row).

The record keeps what the report needs and nothing that depends on the
machine (no timings), so the same spec gives byte-identical records on any
worker count or backend. Per-decision facts (legal-move counts by decision
kind, forced moves, dead turns, score trajectory) are folded into counters
and tension figures here, in the worker, so nothing large crosses processes.
"""

from __future__ import annotations

import json
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from cardlab.agents import play_game
from cardlab.agents.spec import check_agent_specs, parse_agent_list, parse_agent_spec
from cardlab.core import CardlabError, GameState
from cardlab.games import load_game
from cardlab.lab.seeds import agent_seed, game_seed

DECISION_CAP = 20_000
"""A game still running after this many decisions is stopped and reported as
`lab_decision_cap` (a stall the engine did not catch), with its seed."""


@dataclass(frozen=True)
class SimSpec:
    """Everything that determines a run's games (and so its results)."""

    game: str
    players: int
    agents: tuple[str, ...]
    seed: int = 0
    games: int = 100
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def with_(self, **changes: Any) -> SimSpec:
        data = asdict(self) | changes
        data["agents"] = tuple(data["agents"])
        data["options"] = tuple(sorted(dict(data["options"]).items()))
        return SimSpec(**data)


def make_spec(
    game: str,
    players: int | None,
    agents: str | list[str] | tuple[str, ...],
    seed: int,
    games: int,
    options: dict[str, Any] | None = None,
) -> SimSpec:
    """A validated spec: game, player count, options and agent kinds all checked
    here, in the caller's process, so a bad argument fails before any worker."""
    if games < 1:
        raise CardlabError(f"--games must be at least 1, not {games}")
    g = load_checked(game, players, options or {})
    text = agents if isinstance(agents, str) else ",".join(agents)
    specs = parse_agent_list(text)
    if not specs:
        raise CardlabError("--agents needs at least one agent kind")
    check_agent_specs(specs)
    seats = tuple(specs[i % len(specs)].label for i in range(g.num_players))
    return SimSpec(game, g.num_players, seats, seed, games, tuple(sorted(g.options.items())))


def load_checked(game: str, players: int | None, options: dict[str, Any]) -> Any:
    """`load_game`, with an engine that is present but unfinished (no `GAME`
    yet, or an import error) reported as a CardlabError naming the game."""
    try:
        return load_game(game, players=players, **options)
    except CardlabError:
        raise
    except (AttributeError, ImportError) as exc:
        raise CardlabError(f"the {game} engine is not ready: {exc}") from None


def engine_ready(game: str) -> bool:
    try:
        load_checked(game, None, {})
    except CardlabError:
        return False
    return True


def make_agents(spec: SimSpec, seed: int) -> list[Any]:
    return [
        parse_agent_spec(label).make(seed=agent_seed(seed, s))
        for s, label in enumerate(spec.agents)
    ]


@dataclass
class GameRecord:
    """One game's facts. Lists are per seat; dicts by decision kind."""

    game: str
    players: int
    options: str  # JSON, sorted keys: the rule options in force
    agents: list[str]
    index: int
    seed: int
    first_player: int = -1
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    decisions: int = 0
    turns: int = 0
    rounds: int = 0
    end_reason: str = ""
    tiebreak: str | None = None
    acquired: list[list[str]] = field(default_factory=list)
    card_points: list[dict[str, float]] = field(default_factory=list)
    kind_decisions: dict[str, int] = field(default_factory=dict)
    kind_legal: dict[str, int] = field(default_factory=dict)
    kind_forced: dict[str, int] = field(default_factory=dict)
    dead_turns: int = 0
    lead_changes: int = 0
    winner_max_deficit: float = 0.0
    error: str | None = None

    def to_row(self) -> dict[str, Any]:
        return asdict(self)


class _CapReached(Exception):
    pass


class _Tracker:
    """Watches every decision through `play_game`'s `on_action` hook."""

    def __init__(self) -> None:
        self.kind_decisions: Counter[str] = Counter()
        self.kind_legal: Counter[str] = Counter()
        self.kind_forced: Counter[str] = Counter()
        self.dead = 0
        self.count = 0
        self.first_player = -1
        self.trace: list[list[float]] = []
        self._forced_before: tuple[str, list[float]] | None = None
        self._state: GameState | None = None

    def __call__(self, state: GameState, seat: int, action: int) -> None:
        self._settle_forced(state)
        self._state = state  # the live state play_game mutates: the final state at the end
        self.count += 1
        if self.first_player < 0:
            self.first_player = seat
        if self.count > DECISION_CAP:
            raise _CapReached
        kind = state.decision_kind()
        n_legal = len(state.legal_actions())
        self.kind_decisions[kind] += 1
        self.kind_legal[kind] += n_legal
        scores = [float(x) for x in state.scores()]
        self.trace.append(scores)
        if n_legal == 1:
            self.kind_forced[kind] += 1
            self._forced_before = (_zones_key(state), scores)

    def finish(self) -> None:
        """Settle the game's last move against the final state: a forced last move
        that moved no card and changed no score is a dead turn like any other."""
        if self._state is not None:
            self._settle_forced(self._state)

    def _settle_forced(self, state: GameState) -> None:
        """A forced move that moved no card and changed no score was a dead turn."""
        if self._forced_before is not None:
            zones, scores = self._forced_before
            if zones == _zones_key(state) and scores == [float(x) for x in state.scores()]:
                self.dead += 1
            self._forced_before = None


def _zones_key(state: GameState) -> str:
    return json.dumps(state.zones(), sort_keys=True)


def lead_changes(trace: list[list[float]]) -> int:
    """How often the sole leader changed (ties do not count as a new leader)."""
    changes = 0
    leader: int | None = None
    for scores in trace:
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
    return changes


def largest_deficit(trace: list[list[float]], seat: int) -> float:
    """The most `seat` ever trailed the best other seat by (0 if never behind)."""
    worst = 0.0
    for scores in trace:
        others = [s for i, s in enumerate(scores) if i != seat]
        if others:
            worst = max(worst, max(others) - scores[seat])
    return worst


def play_one(spec: SimSpec, index: int) -> GameRecord:
    """Play game `index` of `spec`; any engine error is recorded, not raised."""
    seed = game_seed(spec.seed, index)
    record = GameRecord(
        game=spec.game,
        players=spec.players,
        options=json.dumps(spec.options_dict, sort_keys=True),
        agents=list(spec.agents),
        index=index,
        seed=seed,
    )
    tracker = _Tracker()
    try:
        game = load_game(spec.game, players=spec.players, **spec.options_dict)
        result = play_game(game, make_agents(spec, seed), seed=seed, on_action=tracker)
    except _CapReached:
        record.end_reason = "lab_decision_cap"
        record.decisions = tracker.count - 1
        record.error = f"still running after {DECISION_CAP} decisions"
        _fill_tracking(record, tracker)
        return record
    except Exception as exc:  # an engine or agent bug: keep the seed so it replays
        record.end_reason = "error"
        record.error = f"{type(exc).__name__}: {exc} | {_where(exc)}"
        record.decisions = tracker.count
        _fill_tracking(record, tracker)
        return record
    tracker.finish()
    info = result.info
    record.scores = [float(x) for x in result.returns]
    record.winners = [int(w) for w in result.winners]
    tracker.trace.append(record.scores)
    record.decisions = int(info.get("decisions", len(result.history)))
    record.turns = int(info.get("turns", 0) or 0)
    record.rounds = int(info.get("rounds", 0) or 0)
    record.end_reason = str(info.get("end_reason", "") or "unspecified")
    tb = info.get("tiebreak")
    record.tiebreak = None if tb is None else str(tb)
    record.acquired = [[str(c) for c in seat] for seat in info.get("acquired", [])]
    record.card_points = [
        {str(k): float(v) for k, v in seat.items()} for seat in info.get("card_points", [])
    ]
    _fill_tracking(record, tracker)
    return record


def _fill_tracking(record: GameRecord, tracker: _Tracker) -> None:
    record.kind_decisions = dict(sorted(tracker.kind_decisions.items()))
    record.kind_legal = dict(sorted(tracker.kind_legal.items()))
    record.kind_forced = dict(sorted(tracker.kind_forced.items()))
    record.dead_turns = tracker.dead
    record.first_player = tracker.first_player
    record.lead_changes = lead_changes(tracker.trace)
    if record.winners:
        record.winner_max_deficit = largest_deficit(tracker.trace, record.winners[0])


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"


def play_batch(spec: SimSpec, indices: list[int]) -> list[GameRecord]:
    """Play several games of a run (one task for a worker)."""
    return [play_one(spec, i) for i in indices]


class Observer:
    """Watches one game for a claim probe: `__call__` sees each decision
    (the live state, before the action), `finish` returns the game's small
    JSON-ready summary. The live state object is the one `play_game` mutates,
    so `self.state` in `finish` is the final state."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def __call__(self, state: GameState, seat: int, action: int) -> None:
        self.state = state
        self.see(state, seat, action)

    def see(self, state: GameState, seat: int, action: int) -> None:
        """Override: look at one decision."""

    def finish(self, result: Any) -> dict[str, Any]:
        """Override: the game's summary (`result` is play_game's GameResult)."""
        return {}


def probe_batch(
    spec: SimSpec, indices: list[int], observer: type[Observer]
) -> list[dict[str, Any]]:
    """Play games of `spec` under an observer; one summary dict per game."""
    out = []
    game = load_game(spec.game, players=spec.players, **spec.options_dict)
    for index in indices:
        seed = game_seed(spec.seed, index)
        obs = observer()
        try:
            result = play_game(game, make_agents(spec, seed), seed=seed, on_action=obs)
        except Exception as exc:  # an engine or agent bug: keep the seed so it replays
            out.append(
                {
                    "index": index,
                    "seed": seed,
                    "error": f"{type(exc).__name__}: {exc} | {_where(exc)}",
                }
            )
            continue
        out.append({"index": index, "seed": seed, **obs.finish(result)})
    return out
