"""What each seat lives through: the experience profile of a game, as distributions.

A mean is not a game. A rulebook's "8-13 points a seat" can hide a table where half
the seats end with nothing; a skill section can conclude while most decisions are
forced. The profile reads, per seat and per turn position, at one player count:

- agency: seats shut out, dead turns (turns that changed nothing on the table),
  forced moves, meaningful choices (sampled decisions whose options a strong bot's
  evaluation tells apart);
- drama: lead changes, comebacks, when the winner becomes clear, winning margin and
  score spread;
- skill: a strong bot's win share lift against random and against greedy seats;
- fairness and length: the first seat's advantage, turns per player, minutes.

Every metric keeps its distribution (quantiles, a histogram, per seat and per turn
position), one `value` (the statistic a band judges, with its 95% interval) and an
example game (its seed and a `cardlab replay` command) that shows it. Figures are
scale-free (shares, fractions of a score), so a band measured on the reference shelf
(Hearts, Oh Hell...) can judge any game: `bands.py` holds them and judges one
profile, `world_class.py` every player count of a report.

Entry points: `experience_profile(records, ...)` from a run's records (GameRecords or
the dict rows of a stored run), `measure(ctx, records)` which also plays the two
probes (`choice_probe`, `skill_probe`), and `ExperienceProfile.to_dict()`."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cardlab.agents.evaluation import eval_scale_for, rewards
from cardlab.core.registry import game_info
from cardlab.lab.replay import settings_command
from cardlab.lab.simulate import GameRecord, Observer, SimSpec, lab_hooks, load_checked
from cardlab.lab.stats import Z95, quantile, wilson

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
HIST_BINS = 10

SHUTOUT_RULE = (
    "a seat is shut out when it ends with no points (highest-wins: at most 0, or the "
    "game's lowest possible score if that is higher); in a lowest-wins game, when it ends "
    "at the game's worst possible score (its utility bound)"
)
COMEBACK_DEFICIT = 0.10
"""A win is a comeback when the winner trailed the best other seat, at some decision, by
at least this fraction of its own final score (at least one point)."""

MEANINGFUL_GAP = 0.03
"""A sampled decision is meaningful when its best and worst options' values (the strong
bot's evaluation, a reward in [0, 1]) differ by at least this much."""

CHOICE_GAMES = 40
CHOICE_SAMPLES = 4
"""Decisions sampled per game of the choice probe (a reservoir over the whole game)."""
CHOICE_ROLLOUTS = 8
CHOICE_DEPTH = 12
"""Each option of a sampled decision is valued by `CHOICE_ROLLOUTS` paired rollouts: the
same redeal of what the mover cannot see and the same random generator for every
option (common random numbers: options that cannot differ read exactly alike), each
`CHOICE_DEPTH` random decisions deep and scored as ISMCTS scores its rollouts."""

MAIN_COUNT_ONLY = "played at the report's main player count only"
"""The skill probe's note at the other counts: their verdict leaves the skill gap out."""
SKILL_GAMES = 24
SKILL_ITERATIONS = 100
STRONG = "ismcts:iterations={iterations}"
"""The strong bot of the skill probe: one seat of ISMCTS among random seats, then
among greedy seats, rotated through every seat, each deal also played with the weak
bot in that seat (paired)."""


@dataclass(frozen=True)
class MetricInfo:
    """What a metric is: its group, what its `value` is, and which way is better."""

    name: str
    title: str
    group: str  # agency, drama, skill, fairness, length
    stat: str
    what: str
    unit: str = "share"  # share (0-1), fraction, count, turns, minutes


METRICS: tuple[MetricInfo, ...] = (
    MetricInfo(
        "shutout_share",
        "Seats shut out",
        "agency",
        "share of seat-games",
        "seats that end with nothing to show (" + SHUTOUT_RULE + ")",
    ),
    MetricInfo(
        "dead_turn_share",
        "Dead turns",
        "agency",
        "share of turns",
        "turns after which every card is where it was, every score and every public count "
        "the game names the same: the seat did nothing, by choice or because nothing could "
        "be done (a Draw from an empty Supply)",
    ),
    MetricInfo(
        "forced_share",
        "Forced moves",
        "agency",
        "share of decisions",
        "decisions with one legal option",
    ),
    MetricInfo(
        "meaningful_share",
        "Meaningful choices",
        "agency",
        "share of sampled decisions",
        "sampled decisions with at least two options whose values differ by "
        f"{MEANINGFUL_GAP} or more for the strong bot's evaluation (paired rollouts)",
    ),
    MetricInfo(
        "lead_change_share",
        "Lead changes",
        "drama",
        "share of games",
        "games in which the leader on the bots' evaluation changed at least once",
    ),
    MetricInfo(
        "comeback_share",
        "Comebacks",
        "drama",
        "share of won games",
        f"games whose winner trailed at some point by {COMEBACK_DEFICIT:.0%} of its final "
        "score or more",
    ),
    MetricInfo(
        "decided_at",
        "When the winner becomes clear",
        "drama",
        "median",
        "the share of the game after which the eventual winner led the evaluation to the "
        "end (0: from the first decision; 1: only at the last)",
        "fraction",
    ),
    MetricInfo(
        "margin",
        "Winning margin",
        "drama",
        "median",
        "winner's score minus the runner-up's, as a fraction of the larger of the two "
        "(penalty points turned so that better is higher)",
        "fraction",
    ),
    MetricInfo(
        "spread",
        "Score spread",
        "drama",
        "median",
        "best score minus worst, as a fraction of the larger of the two",
        "fraction",
    ),
    MetricInfo(
        "skill_gap_random",
        "Skill gap vs random",
        "skill",
        "paired win-share difference",
        "on the same deals, the focal seat's win share with the strong bot in it minus with "
        "a random bot in it, the other seats random (0: skill changes nothing)",
    ),
    MetricInfo(
        "skill_gap_greedy",
        "Skill gap vs greedy",
        "skill",
        "paired win-share difference",
        "the same with greedy bots: the strong bot or greedy in the focal seat, greedy elsewhere",
    ),
    MetricInfo(
        "first_seat_advantage",
        "First-seat advantage",
        "fairness",
        "win share minus fair share",
        "the first turn position's win share above the fair share 1/players",
    ),
    MetricInfo(
        "turns_per_player",
        "Turns per player",
        "length",
        "median",
        "turns (runs of one seat's decisions) each seat takes in a game",
        "turns",
    ),
    MetricInfo(
        "minutes",
        "Estimated minutes",
        "length",
        "median",
        "the middle of each game's quick-slow range of the time model",
        "minutes",
    ),
)
BY_NAME = {m.name: m for m in METRICS}
GROUPS = ("agency", "skill", "drama", "fairness", "length")


@dataclass
class Metric:
    """One metric at one player count: its judged value with a 95% interval, and the
    distribution behind it."""

    name: str
    value: float | None
    interval: list[float] | None = None
    n: int = 0
    """What `value` is counted over (seat-games, turns, decisions, games)."""
    quantiles: dict[str, float] = field(default_factory=dict)
    histogram: dict[str, list[float]] = field(default_factory=dict)
    per_seat: list[float] = field(default_factory=list)
    per_position: list[float] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    example: dict[str, Any] | None = None
    """A game that shows the metric: {seed, why, replay}."""
    note: str = ""

    @property
    def info(self) -> MetricInfo:
        return BY_NAME[self.name]

    def to_dict(self) -> dict[str, Any]:
        info = self.info
        return {
            "title": info.title,
            "group": info.group,
            "stat": info.stat,
            "what": info.what,
            "unit": info.unit,
            **asdict(self),
        }


@dataclass
class ExperienceProfile:
    """Every metric of one configuration (a game at one player count with its seats)."""

    game: str
    players: int
    games: int
    score_direction: str = "highest"
    agents: list[str] = field(default_factory=list)
    metrics: dict[str, Metric] = field(default_factory=dict)
    probes: dict[str, Any] = field(default_factory=dict)
    """How each probe was played (seats, games, seeds, iterations), for the reader."""

    def __getitem__(self, name: str) -> Metric:
        return self.metrics[name]

    def value(self, name: str) -> float | None:
        m = self.metrics.get(name)
        return None if m is None else m.value

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "score_direction": self.score_direction,
            "agents": list(self.agents),
            "probes": self.probes,
            "metrics": {k: m.to_dict() for k, m in self.metrics.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ExperienceProfile:
        keys = {f for f in Metric.__dataclass_fields__}
        metrics = {
            k: Metric(**{f: v for f, v in m.items() if f in keys})
            for k, m in dict(data.get("metrics", {})).items()
            if k in BY_NAME
        }
        return cls(
            str(data["game"]),
            int(data["players"]),
            int(data.get("games", 0)),
            str(data.get("score_direction", "highest")),
            list(data.get("agents", [])),
            metrics,
            dict(data.get("probes", {})),
        )


# --- reading records ------------------------------------------------------------


def _get(record: Any, name: str, default: Any = None) -> Any:
    if isinstance(record, Mapping):
        return record.get(name, default)
    return getattr(record, name, default)


def _finished(records: Sequence[Any]) -> list[Any]:
    return [r for r in records if _get(r, "winners") and not _get(r, "error")]


def _position(record: Any, seat: int) -> int:
    first = int(_get(record, "first_player", 0) or 0)
    return (seat - max(first, 0)) % int(_get(record, "players"))


def _quantiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(float(v) for v in values)
    out = {f"p{round(q * 100)}": quantile(ordered, q) for q in QUANTILES}
    out["mean"] = round(sum(ordered) / len(ordered), 4)
    out["min"], out["max"] = ordered[0], ordered[-1]
    return out


def _histogram(values: Sequence[float], lo: float | None = None, hi: float | None = None,
               integer: bool = False) -> dict[str, list[float]]:  # fmt: skip
    """Counts over `HIST_BINS` equal bins from lo to hi (the data's range by default;
    whole-number bins for counts)."""
    if not values:
        return {"edges": [], "counts": []}
    lo = min(values) if lo is None else lo
    hi = max(values) if hi is None else hi
    if integer:
        lo, hi = math.floor(lo), math.floor(hi) + 1
        width = max(1, math.ceil((hi - lo) / HIST_BINS))
        edges = [float(lo + i * width) for i in range(math.ceil((hi - lo) / width) + 1)]
    else:
        if hi <= lo:
            hi = lo + 1.0
        edges = [round(lo + (hi - lo) * i / HIST_BINS, 6) for i in range(HIST_BINS + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = min(len(counts) - 1, max(0, int((v - edges[0]) / (edges[1] - edges[0]))))
        counts[i] += 1
    return {"edges": edges, "counts": [float(c) for c in counts]}


def median_interval(values: Sequence[float]) -> list[float] | None:
    """A distribution-free 95% interval for the median (order statistics)."""
    n = len(values)
    if n == 0:
        return None
    ordered = sorted(values)
    half = Z95 * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    return [round(float(ordered[lo]), 4), round(float(ordered[hi]), 4)]


def _share(k: float, n: int) -> tuple[float | None, list[float] | None]:
    if n <= 0:
        return None, None
    lo, hi = wilson(k, n)
    return round(k / n, 4), [round(lo, 4), round(hi, 4)]


def _median_metric(name: str, values: list[float], seeds: list[int], why: str,
                   integer: bool = False, lo: float | None = None,
                   hi: float | None = None) -> Metric:  # fmt: skip
    if not values:
        return Metric(name, None, note="no finished game")
    ordered = sorted(values)
    mid = (len(ordered) - 1) / 2  # the median unrounded, so it lies inside its interval
    med = (ordered[math.floor(mid)] + ordered[math.ceil(mid)]) / 2
    # the example: the game nearest the distribution's far end (its 90th percentile)
    target = quantile(ordered, 0.9)
    i = min(range(len(values)), key=lambda j: abs(values[j] - target))
    return Metric(
        name,
        round(med, 4),
        median_interval(values),
        len(values),
        _quantiles(values),
        _histogram(values, lo, hi, integer),
        extra={
            "histogram_of": f"{BY_NAME[name].title.lower()} per {'seat-game' if integer else 'game'}"
        },
        example={"seed": seeds[i], "why": why.format(value=values[i])},
    )


class _Sign:
    def __init__(self, lowest: bool) -> None:
        self.lowest = lowest

    def __call__(self, points: float) -> float:
        return -points if self.lowest else points


def _relative(a: float, b: float) -> float:
    """(a - b) as a fraction of the larger magnitude of the two (at least one point)."""
    return max(0.0, a - b) / max(abs(a), abs(b), 1.0)


def experience_profile(
    records: Sequence[Any],
    *,
    game: str | None = None,
    players: int | None = None,
    score_direction: str | None = None,
    utility_bounds: tuple[float, float] | None = None,
    time_model: Any = None,
    choices: Sequence[Mapping[str, Any]] | None = None,
    skill: Mapping[str, Any] | None = None,
    spec: SimSpec | None = None,
) -> ExperienceProfile:
    """The profile of one run's games (GameRecords or stored dict rows).

    `choices`: the choice probe's per-game dicts (`choice_probe`); `skill`: the skill
    probe's summary (`skill_probe`); either missing leaves its metrics None. `spec`:
    the run, so each metric's example game carries its replay command. The score
    direction and bounds default to the game's declaration."""
    done = _finished(records)
    first = done[0] if done else (records[0] if records else None)
    game = game or (None if first is None else str(_get(first, "game")))
    if game is None:
        raise ValueError("experience_profile needs records or a game name")
    players = players or (int(_get(first, "players")) if first is not None else 0)
    if score_direction is None or utility_bounds is None:
        d, b = _declared(game, players)
        score_direction = score_direction or d
        utility_bounds = utility_bounds if utility_bounds is not None else b
    better = _Sign(score_direction == "lowest")
    seeds = [int(_get(r, "seed")) for r in done]
    metrics: dict[str, Metric] = {}
    metrics["shutout_share"] = _shutout(done, players, better, utility_bounds)
    metrics["dead_turn_share"] = _dead_turns(done, players)
    metrics["forced_share"] = _forced(done, players)
    metrics["meaningful_share"] = _meaningful(choices, players)
    metrics["lead_change_share"] = _lead_changes(done)
    metrics["comeback_share"] = _comebacks(done, better)
    metrics["decided_at"] = _median_metric(
        "decided_at",
        [float(_get(r, "decided_at", 1.0)) for r in done],
        seeds,
        "the winner led the evaluation from {value:.0%} of the game on",
        lo=0.0,
        hi=1.0,
    )
    margins, spreads = [], []
    for r in done:
        pts = sorted((better(float(s)) for s in _get(r, "scores")), reverse=True)
        margins.append(_relative(pts[0], pts[1]) if len(pts) > 1 else 0.0)
        spreads.append(_relative(pts[0], pts[-1]))
    metrics["margin"] = _median_metric(
        "margin", margins, seeds, "won by {value:.0%} of the winner's score", lo=0.0, hi=1.0
    )
    metrics["spread"] = _median_metric(
        "spread", spreads, seeds, "best and worst seat {value:.0%} apart", lo=0.0, hi=1.0
    )
    metrics["skill_gap_random"] = _skill_metric(skill, "random", players)
    metrics["skill_gap_greedy"] = _skill_metric(skill, "greedy", players)
    metrics["first_seat_advantage"] = _first_seat(done, players)
    turns = [float(t) for r in done for t in (_get(r, "seat_turns") or [])]
    turn_seeds = [int(_get(r, "seed")) for r in done for _ in (_get(r, "seat_turns") or [])]
    metrics["turns_per_player"] = _median_metric(
        "turns_per_player", turns, turn_seeds, "a seat took {value:.0f} turns", integer=True
    )
    if time_model is not None:
        minutes = [float(time_model.mid_minutes(_as_record(r))) for r in done]
        metrics["minutes"] = _median_metric(
            "minutes", minutes, seeds, "about {value:.0f} minutes at a table"
        )
    else:
        metrics["minutes"] = Metric("minutes", None, note="no time model given")
    if spec is not None:
        _replays(metrics, spec)
    agents = (
        list(spec.agents)
        if spec is not None
        else sorted({a for r in done for a in (_get(r, "agents") or [])})
    )
    return ExperienceProfile(game, players, len(done), score_direction, agents, metrics)


def _as_record(row: Any) -> Any:
    """The time model reads attributes; a stored row is a dict."""
    if not isinstance(row, Mapping):
        return row

    keys = GameRecord.__dataclass_fields__
    return GameRecord(**{k: v for k, v in row.items() if k in keys})


def _declared(game: str, players: int) -> tuple[str, tuple[float, float] | None]:
    """The game's score direction and utility bounds (None when it cannot say)."""
    try:
        direction = str(getattr(game_info(game), "score_direction", "highest"))
    except Exception:  # an unregistered game (a test's records): most points win
        direction = "highest"
    try:
        lo, hi = load_checked(game, players, {}).utility_bounds()
        bounds: tuple[float, float] | None = (float(lo), float(hi))
    except Exception:  # no bounds: shut out means 0 points
        bounds = None
    return direction, bounds


def _replays(metrics: dict[str, Metric], spec: SimSpec) -> None:

    for m in metrics.values():
        if m.example and m.example.get("seed") is not None and "replay" not in m.example:
            if m.example.get("spec") == "skill":
                continue  # the skill probe's own runs carry their commands
            try:
                m.example["replay"] = settings_command(spec, int(m.example["seed"]))
            except Exception as exc:  # the figure stands; the command could not be built
                m.example["replay"] = f"(no replay command: {exc})"


def _shutout(done: list[Any], players: int, better: _Sign,
             bounds: tuple[float, float] | None) -> Metric:  # fmt: skip
    def out(points: float) -> bool:
        if better.lowest:
            return bounds is not None and points >= bounds[1]
        floor = 0.0 if bounds is None else max(0.0, bounds[0])
        return points <= floor

    per_seat = [0] * players
    per_pos = [0] * players
    per_game: list[float] = []
    everyone = 0
    worst: tuple[int, int] | None = None
    for r in done:
        scores = [float(s) for s in _get(r, "scores")]
        shut = [s for s, p in enumerate(scores) if out(p)]
        for s in shut:
            per_seat[s] += 1
            per_pos[_position(r, s)] += 1
        per_game.append(float(len(shut)))
        everyone += len(shut) == len(scores)
        if shut and (worst is None or len(shut) > worst[0]):
            worst = (len(shut), int(_get(r, "seed")))
    n = len(done) * players
    value, interval = _share(sum(per_seat), n)
    games = max(1, len(done))
    return Metric(
        "shutout_share",
        value,
        interval,
        n,
        _quantiles(per_game),
        _histogram(per_game, 0, players, integer=True),
        [round(k / games, 4) for k in per_seat],
        [round(k / games, 4) for k in per_pos],
        {
            "every_seat_shut_out_share": round(everyone / games, 4),
            "histogram_of": "seats shut out per game",
            "rule": SHUTOUT_RULE,
        },
        None if worst is None else {"seed": worst[1], "why": f"{worst[0]} seat(s) shut out"},
        note="seat-games of one game are not independent: the interval is a guide",
    )


def _dead_turns(done: list[Any], players: int) -> Metric:
    noop = [0] * players
    turns = [0] * players
    shares: list[float] = []
    worst: tuple[float, int] | None = None
    for r in done:
        t, z = _get(r, "seat_turns") or [], _get(r, "seat_noop") or []
        for s, (a, b) in enumerate(zip(t, z, strict=False)):
            turns[s] += int(a)
            noop[s] += int(b)
            if a:
                shares.append(b / a)
                if b and (worst is None or b / a > worst[0]):
                    worst = (b / a, int(_get(r, "seed")))
    value, interval = _share(sum(noop), sum(turns))
    if value is None:
        return Metric("dead_turn_share", None, note="no turns recorded")
    return Metric(
        "dead_turn_share",
        value,
        interval,
        sum(turns),
        _quantiles(shares),
        _histogram(shares, 0.0, 1.0),
        [round(z / t, 4) if t else 0.0 for z, t in zip(noop, turns, strict=True)],
        extra={"histogram_of": "each seat-game's share of dead turns"},
        example=None
        if worst is None
        else {
            "seed": worst[1],
            "why": f"a seat's turns changed nothing {worst[0]:.0%} of the time",
        },
    )


def _forced(done: list[Any], players: int) -> Metric:
    forced = sum(sum((_get(r, "kind_forced") or {}).values()) for r in done)
    decisions = sum(sum((_get(r, "kind_decisions") or {}).values()) for r in done)
    shares = []
    worst: tuple[float, int] | None = None
    for r in done:
        d = sum((_get(r, "kind_decisions") or {}).values())
        if d:
            f = sum((_get(r, "kind_forced") or {}).values()) / d
            shares.append(f)
            if f and (worst is None or f > worst[0]):
                worst = (f, int(_get(r, "seed")))
    seat_f = [0] * players
    seat_d = [0] * players
    for r in done:
        for s, (f, d) in enumerate(
            zip(_get(r, "seat_forced") or [], _get(r, "seat_decisions") or [], strict=False)
        ):
            seat_f[s] += int(f)
            seat_d[s] += int(d)
    value, interval = _share(forced, decisions)
    if value is None:
        return Metric("forced_share", None, note="no decisions recorded")
    by_kind = {}
    totals: dict[str, list[int]] = {}
    for r in done:
        for k, d in (_get(r, "kind_decisions") or {}).items():
            t = totals.setdefault(k, [0, 0])
            t[0] += int((_get(r, "kind_forced") or {}).get(k, 0))
            t[1] += int(d)
    by_kind = {k: round(f / d, 4) for k, (f, d) in sorted(totals.items()) if d}
    return Metric(
        "forced_share",
        value,
        interval,
        decisions,
        _quantiles(shares),
        _histogram(shares, 0.0, 1.0),
        [round(f / d, 4) if d else 0.0 for f, d in zip(seat_f, seat_d, strict=True)]
        if any(seat_d)
        else [],
        extra={"by_kind": by_kind, "histogram_of": "each game's share of forced decisions"},
        example=None
        if worst is None
        else {"seed": worst[1], "why": f"{worst[0]:.0%} of the game's decisions were forced"},
    )


def _meaningful(choices: Sequence[Mapping[str, Any]] | None, players: int) -> Metric:
    if choices is None:
        return Metric("meaningful_share", None, note="the choice probe was not played")
    samples = [s for g in choices for s in g.get("samples", [])]
    if not samples:
        return Metric("meaningful_share", None, note="no decision sampled")
    good = [s for s in samples if s["meaningful"]]
    value, interval = _share(len(good), len(samples))
    gaps = [float(s["gap"]) for s in samples]
    per_seat = []
    for seat in range(players):
        mine = [s for s in samples if s["seat"] == seat]
        per_seat.append(round(sum(s["meaningful"] for s in mine) / len(mine), 4) if mine else 0.0)
    pointless = next(
        (
            g
            for g in choices
            for s in g.get("samples", [])
            if s["options"] > 1 and not s["meaningful"]
        ),
        None,
    )
    shown = pointless or next((g for g in choices if g.get("samples")), None)
    example = None
    if shown is not None:
        s = next(
            (s for s in shown["samples"] if s["options"] > 1 and not s["meaningful"]),
            shown["samples"][0],
        )
        example = {
            "seed": shown["seed"],
            "spec": "choices",
            "why": f"decision {s['decision']} (seat {s['seat']}): {s['options']} option(s), "
            f"values {s['gap']:.3f} apart",
        }
        if shown.get("replay"):
            example["replay"] = shown["replay"]
    return Metric(
        "meaningful_share",
        value,
        interval,
        len(samples),
        _quantiles(gaps),
        _histogram(gaps, 0.0, max(0.2, max(gaps))),
        per_seat,
        extra={
            "among_choices": _share(len(good), sum(1 for s in samples if s["options"] > 1))[0],
            "histogram_of": "the gap between the best and worst option's value",
            "gap_threshold": MEANINGFUL_GAP,
        },
        example=example,
    )


def _lead_changes(done: list[Any]) -> Metric:
    counts = [float(_get(r, "eval_lead_changes", 0) or 0) for r in done]
    value, interval = _share(sum(c > 0 for c in counts), len(counts))
    if value is None:
        return Metric("lead_change_share", None, note="no finished game")
    flat = next((int(_get(r, "seed")) for r, c in zip(done, counts, strict=True) if c == 0), None)
    return Metric(
        "lead_change_share",
        value,
        interval,
        len(counts),
        _quantiles(counts),
        _histogram(counts, integer=True),
        extra={
            "score_lead_changes": _quantiles(
                [float(_get(r, "lead_changes", 0) or 0) for r in done]
            ),
            "histogram_of": "lead changes on the evaluation per game",
        },
        example=None if flat is None else {"seed": flat, "why": "the leader never changed"},
    )


def _comebacks(done: list[Any], better: _Sign) -> Metric:
    won = [r for r in done if len(_get(r, "winners")) == 1]
    fractions = []
    for r in won:
        w = int(_get(r, "winners")[0])
        final = abs(better(float(_get(r, "scores")[w])))
        fractions.append(float(_get(r, "winner_max_deficit", 0.0) or 0.0) / max(final, 1.0))
    back = [f >= COMEBACK_DEFICIT for f in fractions]
    value, interval = _share(sum(back), len(won))
    if value is None:
        return Metric("comeback_share", None, note="no game with one winner")
    best = max(range(len(won)), key=lambda i: fractions[i])
    return Metric(
        "comeback_share",
        value,
        interval,
        len(won),
        _quantiles(fractions),
        _histogram(fractions, 0.0, max(1.0, max(fractions))),
        extra={"histogram_of": "the winner's largest deficit / its final score"},
        example={
            "seed": int(_get(won[best], "seed")),
            "why": f"the winner came back from {fractions[best]:.0%} of its final score behind",
        },
    )


def _first_seat(done: list[Any], players: int) -> Metric:
    n = len(done)
    if n == 0 or players < 2:
        return Metric("first_seat_advantage", None, note="no finished game")
    wins = [0.0] * players
    for r in done:
        for w in _get(r, "winners"):
            wins[_position(r, int(w))] += 1 / len(_get(r, "winners"))
    lo, hi = wilson(wins[0], n)
    fair = 1 / players
    first = next(
        (int(_get(r, "seed")) for r in done if _position(r, int(_get(r, "winners")[0])) == 0), None
    )
    return Metric(
        "first_seat_advantage",
        round(wins[0] / n - fair, 4),
        [round(lo - fair, 4), round(hi - fair, 4)],
        n,
        per_position=[round(w / n, 4) for w in wins],
        extra={"fair_share": round(fair, 4)},
        example=None if first is None else {"seed": first, "why": "won from the first position"},
    )


def _skill_metric(skill: Mapping[str, Any] | None, against: str, players: int) -> Metric:
    name = f"skill_gap_{against}"
    if not skill or against not in skill:
        return Metric(name, None, note="the skill probe was not played")
    cell = skill[against]
    diffs = [float(d) for d in cell["diffs"]]
    n = len(diffs)
    if n == 0:
        return Metric(name, None, note="no pair of games finished")
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Metric(
        name,
        round(mean, 4),
        [round(mean - half, 4), round(mean + half, 4)],
        n,
        _quantiles(diffs),
        _histogram(diffs, -1.0, 1.0),
        extra={
            "strong": cell["strong"],
            "strong_win_share": round(cell["strong_wins"] / n, 4),
            "weak_win_share": round(cell["weak_wins"] / n, 4),
            "same_outcome_share": round(sum(d == 0 for d in diffs) / n, 4),
            "histogram_of": "per deal: the strong seat's win minus the weak seat's",
        },
        example=cell.get("example"),
        note="paired: the same deals and seats, the strong bot or the weak one in the "
        "focal seat; the interval is the paired difference's normal 95% interval",
    )


# --- the choice probe -----------------------------------------------------------


def option_values(state: Any, seat: int, rng: random.Random,
                  rollouts: int = CHOICE_ROLLOUTS, depth: int = CHOICE_DEPTH) -> list[float]:  # fmt: skip
    """Each legal option's value for `seat` by the strong bot's evaluation: paired
    rollouts from redeals of what the seat cannot see (its infostate only), the same
    redeal and the same rollout generator for every option."""
    legal = state.legal_actions()
    scale = eval_scale_for(state)
    sums = [0.0] * len(legal)
    for _ in range(rollouts):
        world = state.resample_from_infostate(seat, rng.getrandbits(63))
        roll_seed = rng.getrandbits(63)
        for i, action in enumerate(legal):
            child = world.clone()
            child.apply_action(action)
            roll = random.Random(roll_seed)
            played = 0
            while played < depth and not child.is_terminal():
                options = child.legal_actions()
                if not options:
                    break
                child.apply_action(options[int(roll.random() * len(options))])
                played += 1
            sums[i] += rewards(child, scale)[seat]
    return [s / rollouts for s in sums]


class ChoiceObserver(Observer):
    """Samples `CHOICE_SAMPLES` decisions of a game uniformly (a reservoir: a copy of
    the state kept for each), then values every option of each at the game's end."""

    samples = CHOICE_SAMPLES

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(20261203)
        self.kept: list[tuple[int, int, Any]] = []
        self.seen = 0

    def see(self, state: Any, seat: int, action: int) -> None:
        self.seen += 1
        if len(self.kept) < self.samples:
            self.kept.append((self.seen, seat, state.clone()))
        else:
            j = self.rng.randrange(self.seen)
            if j < self.samples:
                self.kept[j] = (self.seen, seat, state.clone())

    def finish(self, result: Any) -> dict[str, Any]:
        out = []
        for decision, seat, state in sorted(self.kept, key=lambda k: k[0]):
            legal = state.legal_actions()
            if len(legal) < 2:
                out.append({"decision": decision, "seat": seat, "options": len(legal),
                            "gap": 0.0, "meaningful": False})  # fmt: skip
                continue
            values = option_values(state, seat, self.rng)
            gap = max(values) - min(values)
            out.append({"decision": decision, "seat": seat, "options": len(legal),
                        "gap": round(gap, 4), "meaningful": gap >= MEANINGFUL_GAP})  # fmt: skip
        return {"samples": out, "decisions": self.seen}


def choice_probe(ctx: Any, games: int = CHOICE_GAMES, players: int | None = None,
                 agents: Sequence[str] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The choice probe at the report's seats: `games` games, each game's sampled
    decisions with their options' value gap, and a replay command per game."""
    result = ctx.run(label=f"{ctx.game} choice probe", observer=ChoiceObserver, games=games,
                     players=players, agents=list(agents) if agents else None)  # fmt: skip
    rows = [dict(r) for r in result.records]
    for row in rows:
        row["replay"] = settings_command(result.spec, int(row["seed"]))
    return rows


def skill_probe(ctx: Any, games: int = SKILL_GAMES, iterations: int = SKILL_ITERATIONS,
                players: int | None = None) -> dict[str, Any]:  # fmt: skip
    """Paired, deal by deal: game i is played twice on the same seed and seating, once
    with the strong bot (ISMCTS) in the focal seat and once with the weak bot there, the
    other seats the weak bot both times (random, then greedy); the focal seat rotates
    through every seat. A game without decisions plays both arms alike: a gap of exactly
    0, not noise around it."""
    n = players or ctx.players
    strong = STRONG.format(iterations=iterations)
    games = max(n, math.ceil(games / n) * n)  # whole rotations: each seat equally often
    out: dict[str, Any] = {"games": games, "iterations": iterations}
    for against in ("random", "greedy"):
        with_strong = ctx.run(label=f"{ctx.game} {n}p skill: {strong} among {against}",
                              agents=[strong] + [against] * (n - 1), games=games, players=n)  # fmt: skip
        without = ctx.run(label=f"{ctx.game} {n}p skill: all {against}", agents=[against] * n,
                          games=games, players=n)  # fmt: skip
        diffs: list[float] = []
        wins = [0.0, 0.0]
        example = None
        for a, b in zip(with_strong.records, without.records, strict=True):
            if not a.winners or a.error or not b.winners or b.error:
                continue
            seat = a.agents.index(strong)
            won = [(seat in r.winners) / len(r.winners) for r in (a, b)]
            wins[0] += won[0]
            wins[1] += won[1]
            diffs.append(won[0] - won[1])
            if example is None and won[0] < won[1]:
                example = {"seed": a.seed, "spec": "skill",
                           "why": f"the strong bot lost a deal the {against} bot won in its seat",
                           "replay": settings_command(with_strong.spec, a.seed)}  # fmt: skip
        out[against] = {"strong": strong, "diffs": diffs, "strong_wins": wins[0],
                        "weak_wins": wins[1],
                        "elapsed_s": round(with_strong.elapsed_s + without.elapsed_s, 2)}  # fmt: skip
        out[against]["example"] = example
    return out


def measure(
    ctx: Any,
    records: Sequence[Any],
    spec: SimSpec | None = None,
    players: int | None = None,
    choice_games: int = CHOICE_GAMES,
    skill_games: int = SKILL_GAMES,
    skill_iterations: int = SKILL_ITERATIONS,
    agents: Sequence[str] | None = None,
) -> ExperienceProfile:
    """The full profile of a run of `ctx` at `players` (default the report's): its
    records, plus the choice probe (at `agents`, default the context's seats) and the
    skill probe played here (0 games: skipped)."""
    n = players or ctx.players
    seats = list(agents or ctx.agents)
    start = time.perf_counter()
    choices = choice_probe(ctx, choice_games, n, seats) if choice_games > 0 else None
    mid = time.perf_counter()
    skill = skill_probe(ctx, skill_games, skill_iterations, n) if skill_games > 0 else None
    end = time.perf_counter()
    profile = experience_profile(
        records, game=ctx.game, players=n, time_model=ctx.time_model, choices=choices,
        skill=skill, spec=spec,
    )  # fmt: skip
    profile.probes = {
        "choices": {"games": choice_games, "samples_per_game": CHOICE_SAMPLES,
                    "rollouts": CHOICE_ROLLOUTS, "depth": CHOICE_DEPTH,
                    "seats": seats, "elapsed_s": round(mid - start, 2)},
        "skill": {"games": 0 if skill is None else skill["games"],
                  "strong": STRONG.format(iterations=skill_iterations),
                  "elapsed_s": round(end - mid, 2)},
    }  # fmt: skip
    return profile


def experience_seats(game: str) -> tuple[str, ...]:
    """The seats every experience profile is measured at, a design's and the shelf's
    alike (so a band and the game it judges saw the same kind of table): the game's
    personas mixed with greedy (the report's default seats), or greedy in every seat for
    a game without personas (never a random seat, which no table of people has)."""
    personas = tuple(getattr(lab_hooks(game), "PERSONAS", ()) or ())
    return tuple(dict.fromkeys((*personas, "greedy"))) if personas else ("greedy",)
