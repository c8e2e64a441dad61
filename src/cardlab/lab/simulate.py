"""Play one game of a run and boil it down to one record (one Parquet row).

The record keeps what the report needs and nothing that depends on the
machine (no timings), so the same spec gives byte-identical records on any
worker count or backend. Per-decision facts (legal-move counts by decision
kind, forced moves, dead turns, score trajectory) are folded into counters
and tension figures here, in the worker, so nothing large crosses processes.
"""

from __future__ import annotations

import hashlib
import json
import re
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cardlab.agents import play_game
from cardlab.agents.spec import check_agent_specs, parse_agent_list, parse_agent_spec
from cardlab.core import CardlabError, GameState
from cardlab.core.plugin import lowest_wins
from cardlab.core.registry import game_info, load_game
from cardlab.lab.seeds import agent_seed, game_seed
from cardlab.story import final_table

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
    cards: str | None = None
    """The card file played (None: the game's packaged cards)."""
    cards_sha256: str = ""
    """The sha256 of that file's bytes, so a run says exactly which cards it played."""
    variant: str | None = None
    """The variant played (a file path or a packaged variant's name; None: as written).
    Its rule options are already in `options`; its card changes apply on load."""
    variant_sha256: str = ""

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
    cards: str | Path | None = None,
    variant: str | Path | None = None,
) -> SimSpec:
    """A validated spec: game, player count, options, card file and agent kinds all
    checked here, in the caller's process, so a bad argument fails before any worker."""
    if games < 1:
        raise CardlabError(f"--games must be at least 1, not {games}")
    opts = dict(options or {})
    if "cards" in opts:
        raise CardlabError(
            "cards is not a rule option; give a card file with --cards PATH "
            "(or compare card files with --compare cards=A.toml,B.toml)"
        )
    g = load_checked(game, players, opts, cards, variant)
    text = agents if isinstance(agents, str) else ",".join(agents)
    specs = parse_agent_list(text)
    if not specs:
        raise CardlabError("--agents needs at least one agent kind")
    check_agent_specs(specs)
    seats = tuple(specs[i % len(specs)].label for i in range(g.num_players))
    path, digest = card_file(cards)
    return SimSpec(
        game,
        g.num_players,
        seats,
        seed,
        games,
        tuple(sorted(g.options.items())),
        path,
        digest,
        None if variant is None else str(variant),
        g.variant.sha256 if g.variant is not None else "",
    )


def card_file(cards: str | Path | None) -> tuple[str | None, str]:
    """(path as given, sha256 of its bytes); (None, "") for the packaged cards."""
    if cards is None:
        return None, ""
    try:
        digest = hashlib.sha256(Path(cards).read_bytes()).hexdigest()
    except OSError as exc:
        raise CardlabError(f"--cards {cards}: {exc.strerror or exc}") from None
    return str(cards), digest


def load_checked(
    game: str,
    players: int | None,
    options: dict[str, Any],
    cards: str | Path | None = None,
    variant: str | Path | None = None,
) -> Any:
    """`load_game`, with an engine that is present but unfinished (no `GAME`
    yet, or an import error) reported as a CardlabError naming the game."""
    try:
        return load_game(game, players=players, cards=cards, variant=variant, **options)
    except CardlabError:
        raise
    except (AttributeError, ImportError) as exc:
        raise CardlabError(f"the {game} engine is not ready: {exc}") from None


_LOADED: dict[tuple[Any, ...], Any] = {}


def loaded_game(
    game: str,
    players: int,
    options: dict[str, Any],
    cards: str | None = None,
    cards_sha256: str = "",
    variant: str | None = None,
    variant_sha256: str = "",
) -> Any:
    """The Game these settings play, loaded once per process.

    A Game holds only rules and cards (every state is made from it by
    `new_initial_state`), and loading re-reads and re-validates the card files: for
    SUPER COMPUTER about a quarter of a persona game's time when done per game. A card
    or variant file is cached only under the sha256 of the bytes a run recorded, so a
    file edited between runs is read again."""
    if (cards and not cards_sha256) or (variant and not variant_sha256):
        return load_checked(game, players, options, cards, variant)
    key = (game, players, tuple(sorted(options.items())), cards, cards_sha256, variant,
           variant_sha256)  # fmt: skip
    if key not in _LOADED:
        if len(_LOADED) >= 64:  # a long-lived worker of many card experiments
            _LOADED.clear()
        _LOADED[key] = load_checked(game, players, options, cards, variant)
    return _LOADED[key]


def spec_game(spec: SimSpec) -> Any:
    """`loaded_game` for a run's spec."""
    return loaded_game(
        spec.game,
        spec.players,
        spec.options_dict,
        spec.cards,
        spec.cards_sha256,
        spec.variant,
        spec.variant_sha256,
    )


def engine_ready(game: str) -> bool:
    try:
        load_checked(game, None, {})
    except CardlabError:
        return False
    return True


def seating(spec: SimSpec, index: int) -> list[str]:
    """The agent in each seat for game `index`: the spec's seats rotated by the game's
    index, so with mixed agents each one takes each seat equally often (a seat or turn
    position advantage is then not one bot's strength in disguise). Depends only on the
    index, so the same game of two configurations is seated alike."""
    n = len(spec.agents)
    shift = index % n
    return list(spec.agents[shift:] + spec.agents[:shift])


def make_agents(spec: SimSpec, seed: int, index: int = 0) -> list[Any]:
    return [
        parse_agent_spec(label).make(seed=agent_seed(seed, s))
        for s, label in enumerate(seating(spec, index))
    ]


DECILES = 10
"""Curves over a game (branching, resources) are averaged per tenth of the game."""


@dataclass
class GameRecord:
    """One game's facts. Lists are per seat; dicts by decision kind.

    A *turn* is a run of decisions by one seat; a *no-op* turn moved no card
    (`zones()`), changed no score and no public count the game's lab hooks name
    (`public_counts`, e.g. RUNWAY's Hype); a *dead turn* is a forced no-op decision. Evaluation-based figures use the game's own bot evaluation
    (`progress_values()`), which sees scoring that has not happened yet."""

    game: str
    players: int
    options: str  # JSON, sorted keys: the rule options in force
    agents: list[str]
    index: int
    seed: int
    cards: str | None = None
    cards_sha256: str = ""
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
    kind_extra_options: dict[str, int] = field(default_factory=dict)
    kind_turns: dict[str, int] = field(default_factory=dict)
    kind_noop: dict[str, int] = field(default_factory=dict)
    seat_turns: list[int] = field(default_factory=list)
    seat_noop: list[int] = field(default_factory=list)
    seat_actions: list[dict[str, int]] = field(default_factory=list)
    seat_decisions: list[int] = field(default_factory=list)
    seat_forced: list[int] = field(default_factory=list)
    """Per seat: its decisions, and those with one legal option (the experience
    profile's forced moves per seat)."""
    dead_turns: int = 0
    lead_changes: int = 0
    eval_lead_changes: int = 0
    winner_max_deficit: float = 0.0
    decided_at: float = 1.0
    branching_curve: list[float] = field(default_factory=list)
    resource_curves: dict[str, list[float]] = field(default_factory=dict)
    picks: dict[str, list[int]] = field(default_factory=dict)
    """Draft games: each card picked, with its pick number in the round (1 = first)."""
    point_sources: list[dict[str, float]] = field(default_factory=list)
    """Per seat: its final score by source, the columns of the game's `final_table`
    (SUPER COMPUTER's per-round columns folded: "R2 scrap" counts as "scrap")."""
    round_scores: list[list[float]] = field(default_factory=list)
    """Every seat's score after each round (the round count of `info()`), the last
    entry the final scores: what runaway-leader and comeback figures read."""
    tallies: dict[str, float] = field(default_factory=dict)
    """Counts the game's lab hook `tallies(final_state)` reports (SUPER COMPUTER: each
    part picked and scrapped), for figures a game needs beyond the common ones."""
    error: str | None = None

    def to_row(self) -> dict[str, Any]:
        return asdict(self)


class _CapReached(Exception):
    pass


def lab_hooks(game: str) -> Any:
    """The game's lab extension (`GameInfo.lab_hooks`, by default its `claims`
    module) or None. It may define
    `resources(state)` (curves over the game), `public_counts(state)` (counts outside
    the cards, for no-op turns), `action_kind(state, label)`, `round_count(state)` (the
    `info()["rounds"]` count, cheaply), `tallies(final_state)` and `PERSONAS`."""
    try:
        return game_info(game).lab_hooks_module()
    except Exception:  # a game without claims still plays in the lab
        return None


def first_word(state: GameState, label: str) -> str:
    """Default action kind: the label's first word ("Draw", "Pass", "pitch")."""
    word = label.split(" ", 1)[0].strip("()[],:").lower()
    return word or "action"


class _Tracker:
    """Watches every decision through `play_game`'s `on_action` hook.

    A *turn* is a run of consecutive decisions by one seat (RUNWAY's pass and its
    trade; UPTIME's requisition and its payment). A turn is a no-op when the state
    after it has the same cards in the same zones, the same scores and the same
    public counts as before it. A forced decision (one legal option) that changes
    nothing is a dead turn (settled against the state after that one decision)."""

    def __init__(self, players: int, hooks: Any = None, lowest_wins: bool = False) -> None:
        self.players = players
        self.sign = -1.0 if lowest_wins else 1.0
        """The score trace is kept better-is-higher (`GameInfo.better`), so leaders,
        lead changes and deficits read alike for a penalty-point game."""
        self.kind_decisions: Counter[str] = Counter()
        self.kind_legal: Counter[str] = Counter()
        self.kind_forced: Counter[str] = Counter()
        self.kind_extra: Counter[str] = Counter()
        self.kind_turns: Counter[str] = Counter()
        self.kind_noop: Counter[str] = Counter()
        self.seat_turns = [0] * players
        self.seat_noop = [0] * players
        self.seat_actions: list[Counter[str]] = [Counter() for _ in range(players)]
        self.seat_decisions = [0] * players
        self.seat_forced = [0] * players
        self.dead = 0
        self.count = 0
        self.first_player = -1
        self.trace: list[list[float]] = []
        self.eval_trace: list[list[float]] = []
        self.legal_counts: list[int] = []
        self.resources: list[dict[str, float]] = []
        self._resources: Callable[[GameState], dict[str, float]] | None = getattr(
            hooks, "resources", None
        )
        self._counts: Callable[[GameState], dict[str, float]] | None = getattr(
            hooks, "public_counts", None
        )
        self._action_kind: Callable[[GameState, str], str] = getattr(
            hooks, "action_kind", first_word
        )
        self._picked: Callable[[GameState, str], tuple[str, int] | None] | None = getattr(
            hooks, "picked", None
        )
        self.picks: dict[str, list[int]] = {}
        self.round_scores: list[list[float]] = []
        self._round: int | None = None
        self._round_count: Callable[[GameState], int] = getattr(
            hooks, "round_count", lambda state: int(state.info().get("rounds", 0) or 0)
        )
        self._turn: tuple[int, str, str] | None = None  # seat, first kind, key before
        self._forced_key: str | None = None
        self._state: GameState | None = None

    def _key(self, state: GameState) -> str:
        """A snapshot of what a turn may change in sight of the table (zones, scores,
        public counts), only ever compared with another of the same game: `repr`, as
        the engines build these in a fixed order (about half `json.dumps`' cost)."""
        scores = [float(x) for x in state.scores()]
        counts = self._counts(state) if self._counts is not None else {}
        return repr((state.zones(), scores, counts))

    def __call__(self, state: GameState, seat: int, action: int) -> None:
        key: str | None = None
        if self._forced_key is not None:
            key = self._key(state)
            self.dead += key == self._forced_key
            self._forced_key = None
        kind = state.decision_kind()
        if self._turn is None or self._turn[0] != seat:
            key = key or self._key(state)
            self._close_turn(key)
            self._turn = (seat, kind, key)
            self._see_round(state)
        self._state = state  # the live state play_game mutates: the final state at the end
        self.count += 1
        if self.first_player < 0:
            self.first_player = seat
        if self.count > DECISION_CAP:
            raise _CapReached
        n_legal = len(state.legal_actions())
        self.kind_decisions[kind] += 1
        self.kind_legal[kind] += n_legal
        self.legal_counts.append(n_legal)
        label = state.action_to_string(action)
        if 0 <= seat < self.players:
            self.seat_actions[seat][self._action_kind(state, label)] += 1
            self.seat_decisions[seat] += 1
            self.seat_forced[seat] += n_legal == 1
        if self._picked is not None:
            pick = self._picked(state, label)
            if pick is not None:
                self.picks.setdefault(pick[0], []).append(pick[1])
        self.trace.append([self.sign * float(x) for x in state.scores()])
        self.eval_trace.append([float(x) for x in state.progress_values()])
        if self._resources is not None:
            self.resources.append(self._resources(state))
        if n_legal == 1:
            self.kind_forced[kind] += 1
            self._forced_key = key or self._key(state)
        else:
            self.kind_extra[kind] += max(0, n_legal - 2)

    def _see_round(self, state: GameState) -> None:
        """At a turn's start: when the round count moved on (the game's `round_count(state)`
        lab hook, a cheap read of `info()["rounds"]`; else `info()` itself), the scores now
        are the scores after the round before (read once a turn, not once a decision)."""
        try:
            now = self._round_count(state)
        except Exception:  # a game whose info() needs the end: no round figures
            return
        if self._round is not None and now > self._round:
            self.round_scores.append([float(x) for x in state.scores()])
        self._round = now

    def _close_turn(self, key_now: str) -> None:
        if self._turn is None:
            return
        seat, kind, before = self._turn
        self._turn = None
        self.kind_turns[kind] += 1
        if 0 <= seat < self.players:
            self.seat_turns[seat] += 1
        if before == key_now:
            self.kind_noop[kind] += 1
            if 0 <= seat < self.players:
                self.seat_noop[seat] += 1

    def finish(self) -> None:
        """Settle the last turn (and a forced last move) against the final state."""
        if self._state is None:
            return
        key = self._key(self._state)
        if self._forced_key is not None:
            self.dead += key == self._forced_key
            self._forced_key = None
        self._close_turn(key)


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


def decided_at(trace: list[list[float]], winner: int) -> float:
    """The share of the game after which `winner` was the sole leader to the end
    (0: led from the first decision; 1: only the final position made it so)."""
    if not trace:
        return 1.0
    last_not_leading = -1
    for i, values in enumerate(trace):
        others = [v for s, v in enumerate(values) if s != winner]
        if not others or values[winner] <= max(others):
            last_not_leading = i
    return round((last_not_leading + 1) / len(trace), 4)


def largest_deficit(trace: list[list[float]], seat: int) -> float:
    """The most `seat` ever trailed the best other seat by (0 if never behind)."""
    worst = 0.0
    for scores in trace:
        others = [s for i, s in enumerate(scores) if i != seat]
        if others:
            worst = max(worst, max(others) - scores[seat])
    return worst


def by_decile(values: list[float]) -> list[float]:
    """Mean of `values` in each tenth of the game. In a game of fewer than ten
    decisions some tenths hold none: they take the decision at that point of the
    game (not 0, which would read as a tenth with no legal action)."""
    if not values:
        return []
    out: list[float] = []
    n = len(values)
    for d in range(DECILES):
        part = values[d * n // DECILES : (d + 1) * n // DECILES] or [values[d * n // DECILES]]
        out.append(round(sum(part) / len(part), 3))
    return out


def play_one(spec: SimSpec, index: int) -> GameRecord:
    """Play game `index` of `spec`; any engine error is recorded, not raised."""
    seed = game_seed(spec.seed, index)
    record = GameRecord(
        game=spec.game,
        players=spec.players,
        options=json.dumps(spec.options_dict, sort_keys=True),
        agents=seating(spec, index),
        index=index,
        seed=seed,
        cards=spec.cards,
        cards_sha256=spec.cards_sha256,
    )
    tracker = _Tracker(spec.players, lab_hooks(spec.game), lowest_wins(spec.game))
    try:
        game = spec_game(spec)
        result = play_game(game, make_agents(spec, seed, index), seed=seed, on_action=tracker)
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
    info: dict[str, Any] = result.info  # the game's own facts (`GameState.info`)
    record.scores = [float(x) for x in result.returns]
    record.winners = [int(w) for w in result.winners]
    # the traces are better-is-higher: a penalty-point game's final points turned
    final = [tracker.sign * s for s in record.scores]
    tracker.trace.append(final)
    if tracker._state is not None:
        tracker.eval_trace.append(final)  # at the end, the evaluation is the score
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
    tracker.round_scores.append(record.scores)
    record.round_scores = tracker.round_scores
    if tracker._state is not None:
        record.point_sources = point_sources(spec.game, tracker._state)
        record.tallies = tallies(spec.game, tracker._state)
    _fill_tracking(record, tracker)
    # The first decision is not always the first player's (UPTIME: a Power Surge dealt
    # during set-up asks another seat for a material), so a game that names its first
    # player in info() is believed over the tracker's guess.
    declared = info.get("first_player")
    if isinstance(declared, int) and 0 <= declared < spec.players:
        record.first_player = declared
    return record


_ROUND_PREFIX = re.compile(r"^R\d+ ")


def point_sources(game: str, state: GameState) -> list[dict[str, float]]:
    """Each seat's final score by source, from the game's final table (the rows whose
    parts add up to the returns); per-round columns ("R1 parts") are summed by source.
    [] for a game without a final table."""
    try:
        table = final_table(game, state.public_observation())
    except Exception:  # the figure is missing, the game still counts
        return []
    if table is None:
        return []
    out: list[dict[str, float]] = []
    for row in sorted(table.rows, key=lambda r: r.seat):
        parts: dict[str, float] = {}
        for col, value in zip(table.columns, row.parts, strict=True):
            name = _ROUND_PREFIX.sub("", col)
            parts[name] = parts.get(name, 0.0) + float(value)
        out.append(parts)
    return out


def tallies(game: str, state: GameState) -> dict[str, float]:
    """The game's `tallies(final_state)` lab hook (in its claims module), else {}."""
    hook = getattr(lab_hooks(game), "tallies", None)
    if hook is None:
        return {}
    return {str(k): float(v) for k, v in hook(state).items()}


def _fill_tracking(record: GameRecord, tracker: _Tracker) -> None:
    record.kind_decisions = dict(sorted(tracker.kind_decisions.items()))
    record.kind_legal = dict(sorted(tracker.kind_legal.items()))
    record.kind_forced = dict(sorted(tracker.kind_forced.items()))
    record.kind_extra_options = dict(sorted(tracker.kind_extra.items()))
    record.kind_turns = dict(sorted(tracker.kind_turns.items()))
    record.kind_noop = dict(sorted(tracker.kind_noop.items()))
    record.seat_turns = list(tracker.seat_turns)
    record.seat_noop = list(tracker.seat_noop)
    record.seat_actions = [dict(sorted(c.items())) for c in tracker.seat_actions]
    record.seat_decisions = list(tracker.seat_decisions)
    record.seat_forced = list(tracker.seat_forced)
    record.dead_turns = tracker.dead
    record.first_player = tracker.first_player
    record.lead_changes = lead_changes(tracker.trace)
    record.eval_lead_changes = lead_changes(tracker.eval_trace)
    record.picks = dict(sorted(tracker.picks.items()))
    record.branching_curve = by_decile([float(n) for n in tracker.legal_counts])
    names = sorted({k for r in tracker.resources for k in r})
    record.resource_curves = {
        k: by_decile([float(r[k]) for r in tracker.resources if k in r]) for k in names
    }
    if len(record.winners) == 1:
        record.winner_max_deficit = largest_deficit(tracker.trace, record.winners[0])
        record.decided_at = decided_at(tracker.eval_trace, record.winners[0])
    elif record.winners:
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
    game = spec_game(spec)
    for index in indices:
        seed = game_seed(spec.seed, index)
        obs = observer()
        try:
            result = play_game(game, make_agents(spec, seed, index), seed=seed, on_action=obs)
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
