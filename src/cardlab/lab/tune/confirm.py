"""Before the tuner calls a candidate best, it confirms it on fresh seeds.

A search trial plays a few dozen games; among many trials, one will look
better by luck. So the best candidate is replayed beside the rules as written
on new seeds (the same seeds for both: paired), with as many games as the
difference the search saw needs at 80% power (and, when the difference on the
new seeds is smaller, on to what that one needs, within a cap), once with the
search's persona seats and once with ISMCTS seats. It is confirmed only if, with both seat
sets, it misses less than as written and a target it moves has a 95%
interval apart from as-written's. A candidate whose intervals overlap
as-written's only won by noise and is not reported as best.

Each change's `why` in the variant file is its measured effect on these
seeds: the candidate against the candidate without that change (for a
single change, against as written), e.g. "stalls 96% -> 4% [2, 7] at 4
players, 400 games, paired seeds"."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.core.registry import game_info
from cardlab.core.variants import CardChange, Variant
from cardlab.lab.claims.common import mean_ci
from cardlab.lab.stats import Z95, wilson
from cardlab.lab.tune.evaluate import (
    STALL_WORDS,
    GameFacts,
    game_minutes,
    game_targets,
    metrics,
    persona_mix,
    play_trial,
    play_trial_game,
)
from cardlab.lab.tune.objectives import misses, verdicts
from cardlab.lab.tune.space import variant_of

CONFIRM_SEED = 7_919
"""Added to the run seed: the confirmation's games are none of the search's."""
Z80 = 0.8416212335729143
"""One-sided normal quantile of 80% power."""
ISMCTS_SEATS = ("ismcts:iterations=200", "greedy")

RATES = {
    # target id -> the per-game figure it is judged on
    "always_ends": "stall_share",
    "points_decide": "tiebreak_share",
    "seat_balance": "first_seat_win_share",
}


def games_for_power(p1: float, p2: float) -> int | None:
    """Games per arm for a two-sided 5% test of rates p1 vs p2 to have 80% power
    (the normal approximation); None when there is no difference to detect."""
    d = abs(p1 - p2)
    if d < 1e-9:
        return None
    bar = (p1 + p2) / 2
    root = Z95 * math.sqrt(2 * bar * (1 - bar)) + Z80 * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return max(2, math.ceil((root / d) ** 2))


def games_for_power_means(d: float, sd: float) -> int | None:
    """Games per arm for a difference `d` of means with spread `sd` at 80% power."""
    if abs(d) < 1e-9:
        return None
    return max(2, math.ceil(2 * ((Z95 + Z80) * max(sd, 1e-9) / abs(d)) ** 2))


@dataclass
class Samples:
    """Per-game figures of one arm (paired with the other arm game by game)."""

    facts: list[GameFacts]
    metrics: dict[str, Any]
    per_game: dict[str, list[float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.per_game.get("stall_share", []))


def samples(info: Any, players: int, facts: list[GameFacts]) -> dict[str, list[float]]:
    ok = [f for f in facts if f.error is None]
    return {
        "stall_share": [
            1.0 if any(w in f.end_reason.lower() for w in STALL_WORDS) else 0.0 for f in ok
        ],
        "tiebreak_share": [1.0 if f.tiebreak not in (None, "", "points") else 0.0 for f in ok],
        "first_seat_win_share": [
            1.0 / len(f.winners) if f.first_player in f.winners else 0.0 for f in ok
        ],
        "minutes": [sum(game_minutes(info, f, players)) / 2 for f in ok],
    }


def play_arm(
    game: str,
    players: int,
    variant: Variant,
    run_seed: int,
    games: int,
    seats: tuple[str, ...],
    prior: Samples | None = None,
) -> Samples:
    """`games` games of one arm; with `prior` (its first games), only the rest are played."""
    info = game_info(game)
    if prior is None:
        facts = play_trial(game, players, variant, run_seed, games, seats)
    else:
        facts = list(prior.facts) + [
            play_trial_game(game, players, variant, run_seed, i, seats)
            for i in range(len(prior.facts), games)
        ]
    m = metrics(info, players, facts)
    if m.get("games") and not m.get("errors") and not seats:
        m["game_targets"] = game_targets(info, players, variant, run_seed, games)
    return Samples(facts, m, samples(info, players, facts))


def interval(metric: str, values: Sequence[float]) -> tuple[float, float, float]:
    """(value, low, high): a rate with its Wilson interval, minutes with a normal one."""
    if not values:
        return (0.0, 0.0, 1.0)
    if metric == "minutes":
        return mean_ci(list(values))
    n = len(values)
    lo, hi = wilson(sum(values), n)
    return (sum(values) / n, lo, hi)


def compare(base: Samples, cand: Samples) -> list[dict[str, Any]]:
    """Each measured figure of both arms with its interval, and whether they are apart."""
    out = []
    for metric in ("stall_share", "tiebreak_share", "first_seat_win_share", "minutes"):
        b = interval(metric, base.per_game.get(metric, []))
        c = interval(metric, cand.per_game.get(metric, []))
        out.append(
            {
                "metric": metric,
                "base": [round(x, 4) for x in b],
                "candidate": [round(x, 4) for x in c],
                "apart": c[2] < b[1] or c[1] > b[2],
            }
        )
    return out


def target_misses(m: dict[str, Any]) -> dict[str, float]:
    return {c["id"]: float(c["miss"]) for c in verdicts(m) if c.get("miss") is not None}


def _metric_of_target(target: str) -> str | None:
    if target in RATES:
        return RATES[target]
    if target == "box_time":
        return "minutes"
    return None


def needed_games(base: dict[str, Any], cand: dict[str, Any]) -> dict[str, Any]:
    """From the search's figures: the target the candidate improves most and the
    games per arm that difference needs at 80% power."""
    bm, cm = target_misses(base), target_misses(cand)
    gains = sorted(((bm[t] - cm.get(t, bm[t]), t) for t in bm), reverse=True)
    for gain, target in gains:
        metric = _metric_of_target(target)
        if gain <= 0 or metric is None:
            continue
        if metric == "minutes":
            d = sum(cand["minutes"]) / 2 - sum(base["minutes"]) / 2
            sd = max(base.get("minutes_sd", 0.0), cand.get("minutes_sd", 0.0))
            n = games_for_power_means(d, sd)
            shown = f"minutes {sum(base['minutes']) / 2:.1f} -> {sum(cand['minutes']) / 2:.1f}"
        else:
            n = games_for_power(float(base[metric]), float(cand[metric]))
            shown = f"{metric} {base[metric]:.0%} -> {cand[metric]:.0%}"
        return {"target": target, "metric": metric, "search": shown, "games_80": n}
    return {"target": None, "metric": None, "search": "no target moved", "games_80": None}


@dataclass
class SeatCheck:
    """One seat set's confirmation of a candidate against as written."""

    seats: str
    games: int
    games_80: int | None
    base_misses: float
    candidate_misses: float
    figures: list[dict[str, Any]]
    confirmed: bool
    why_not: str = ""
    bots: tuple[str, ...] = ()
    """The bots of this seat set, rotated through the seats."""
    targets: dict[str, str] = field(default_factory=dict)
    """Each target's verdict for the candidate under these bots."""

    @property
    def who(self) -> str:
        return ", ".join(self.bots) if self.bots else self.seats

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "bots": list(self.bots)}


def check_seats(
    label: str,
    base: Samples,
    cand: Samples,
    aim: dict[str, Any],
    players: int,
    start: str = "as written",
    bots: tuple[str, ...] = (),
) -> SeatCheck:
    """One seat set's check: the candidate misses less than the start, a figure it moves
    has an interval apart from the start's, and no target fails under these bots."""
    figures = compare(base, cand)
    bmiss, cmiss = misses(base.metrics), misses(cand.metrics)
    moved = [
        f
        for f in figures
        if f["apart"]
        and _better(f["metric"], f["base"][0], f["candidate"][0], base.metrics, players)
    ]
    games = min(base.games, cand.games)
    n80 = None
    if aim["metric"] is not None:
        fig = next(f for f in figures if f["metric"] == aim["metric"])
        if aim["metric"] == "minutes":
            per = base.per_game["minutes"] + cand.per_game["minutes"]
            sd = _sd(per)
            n80 = games_for_power_means(fig["candidate"][0] - fig["base"][0], sd)
        else:
            n80 = games_for_power(fig["base"][0], fig["candidate"][0])
    failing = [c for c in verdicts(cand.metrics) if c["verdict"] == "fails"]
    if failing:
        why = "under these bots " + "; ".join(_failing_text(c) for c in failing)
    elif cmiss >= bmiss:
        why = f"misses {cmiss:.3f}, {start} {bmiss:.3f}: no better on these seeds"
    elif not moved:
        why = f"every figure's 95% interval overlaps {start}'s (noise)"
    else:
        why = ""
    verdict = {c["id"]: c["verdict"] for c in verdicts(cand.metrics)}
    return SeatCheck(label, games, n80, bmiss, cmiss, figures, not why, why, bots, verdict)


def _failing_text(c: dict[str, Any]) -> str:
    """`points_decide fails: 62.5% [47.0, 76.0] against <= 20% by tie-break`."""
    ci = c.get("interval")
    if ci is not None:
        return f"{c['id']} fails ({ci[0]:.0%}-{ci[1]:.0%} against {c['threshold']})"
    return f"{c['id']} fails (against {c['threshold']})"


def _sd(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def _better(metric: str, base: float, cand: float, m: dict[str, Any], players: int) -> bool:
    """Whether `cand` is nearer the target than `base` for this figure."""
    if metric in ("stall_share", "tiebreak_share"):
        return cand < base
    if metric == "first_seat_win_share":
        fair = 1.0 / players
        return abs(cand - fair) < abs(base - fair)
    if metric == "minutes":
        box = m.get("box_minutes")
        if not box:
            return False
        mid: float = (box[0] + box[1]) / 2
        return abs(cand - mid) < abs(base - mid)
    return False


@dataclass
class Confirmation:
    """The outcome: the candidate confirmed (or not), with each seat set's check, the
    power, and a measured `why` per change."""

    candidate: dict[str, Any]
    changed: list[str]
    aim: dict[str, Any]
    checks: list[SeatCheck]
    confirmed: bool
    whys: dict[str, str] = field(default_factory=dict)
    tried: list[dict[str, Any]] = field(default_factory=list)
    noise_changes: list[str] = field(default_factory=list)
    """Changes of a confirmed candidate whose own effect is within the noise."""
    pruned_from: dict[str, Any] | None = None
    """The larger confirmed candidate this one is, without its noise-only changes."""

    start: str = "as written"
    """What the candidate was confirmed against (the tuner's start)."""

    @property
    def summary(self) -> str:
        if self.confirmed:
            return f"confirmed on fresh seeds against {self.start}, no target failing, " + (
                "; ".join(
                    f"with {c.who}: misses {c.base_misses:.3f} -> {c.candidate_misses:.3f} "
                    f"({c.games} games)"
                    for c in self.checks
                )
            )
        return f"no candidate beat {self.start} beyond noise with every target holding up"

    def to_json(self) -> dict[str, Any]:
        return {
            "confirmed": self.confirmed,
            "summary": self.summary,
            "candidate": self.candidate,
            "changed": self.changed,
            "power": self.aim,
            "checks": [c.to_json() for c in self.checks],
            "whys": self.whys,
            "noise_changes": self.noise_changes,
            "pruned_from": self.pruned_from,
            "tried": self.tried,
            "start": self.start,
        }


WORDS = {
    "stall_share": "stalls",
    "tiebreak_share": "tie-breaks decide",
    "first_seat_win_share": "the first seat wins",
    "minutes": "minutes",
}


def effect(with_: Samples, without: Samples, players: int) -> str:
    """A change's measured effect in words: the figure it moves most (by its target's
    miss; else by the largest difference), both values and the new one's interval."""
    return measured_effect(with_, without, players)[0]


def measured_effect(with_: Samples, without: Samples, players: int) -> tuple[str, bool]:
    """`effect`'s words and whether that figure's intervals are apart."""
    figures = compare(without, with_)
    wm, om = target_misses(with_.metrics), target_misses(without.metrics)
    by_target = sorted(
        ((om.get(t, 0.0) - wm.get(t, 0.0), t) for t in set(wm) | set(om)), reverse=True
    )
    metric = None
    for gain, target in by_target:
        if abs(gain) > 0 and _metric_of_target(target) is not None:
            metric = _metric_of_target(target)
            break
    n = min(with_.games, without.games)
    if metric is None and all(abs(f["candidate"][0] - f["base"][0]) < 1e-9 for f in figures):
        return (
            "no measured effect: stalls, tie-breaks, the first seat's wins and minutes "
            f"unchanged at {players} players, {n} games, paired seeds",
            False,
        )
    if metric is None:
        metric = max(
            figures,
            key=lambda f: (
                abs(f["candidate"][0] - f["base"][0])
                / (1.0 if f["metric"] != "minutes" else max(1.0, f["base"][0]))
            ),
        )["metric"]
    fig = next(f for f in figures if f["metric"] == metric)
    b, (c, lo, hi) = fig["base"][0], fig["candidate"]
    if metric == "minutes":
        text = f"{WORDS[metric]} {b:.1f} -> {c:.1f} [{lo:.1f}, {hi:.1f}]"
    else:
        text = f"{WORDS[metric]} {b:.0%} -> {c:.0%} [{lo * 100:.0f}, {hi * 100:.0f}]"
    tail = "" if fig["apart"] else " (within noise)"
    return f"{text} at {players} players, {n} games, paired seeds{tail}", bool(fig["apart"])


def confirm(
    result: Any,
    persona_games: int = 400,
    ismcts_games: int = 100,
    min_games: int = 40,
    ismcts_seats: tuple[str, ...] = ISMCTS_SEATS,
    candidates: int = 2,
    progress: Callable[[str], None] | None = None,
) -> Confirmation:
    """Confirm the search's best (then the next candidates, up to `candidates`) on
    fresh, paired seeds with persona seats and with `ismcts_seats`; games per seat set
    are what the search's difference needs at 80% power, between `min_games` and the
    seat set's cap. The first candidate confirmed by both seat sets is the best; if
    some of its changes do nothing measurable on their own (the rest kept), the
    candidate without them is confirmed the same way and preferred when it holds."""
    say = progress or (lambda _msg: None)
    tried: list[dict[str, Any]] = []
    last: Confirmation | None = None
    settings = (persona_games, ismcts_games, min_games, tuple(ismcts_seats))
    for trial in _candidates(result)[: max(1, candidates)]:
        aim = needed_games(result.baseline.metrics, trial.metrics)
        conf = _confirm_one(result, trial.number, trial.values, aim, settings, say, tried)
        if conf.confirmed:
            keep = [n for n in conf.changed if n not in conf.noise_changes]
            if conf.noise_changes and keep:
                values = dict(trial.values) | {
                    n: result.baseline.values[n] for n in conf.noise_changes
                }
                say(f"trying trial {trial.number} without {', '.join(conf.noise_changes)}")
                smaller = _confirm_one(result, trial.number, values, aim, settings, say, tried)
                if smaller.confirmed:
                    smaller.pruned_from = conf.candidate
                    conf = smaller
            conf.tried = tried
            return conf
        last = conf
    if last is None:
        last = Confirmation({}, [], {"games_80": None}, [], False, start=result.spec.start_name)
    last.tried = tried
    return last


def _confirm_one(
    result: Any,
    number: int,
    values: dict[str, Any],
    aim: dict[str, Any],
    settings: tuple[int, int, int, tuple[str, ...]],
    say: Callable[[str], None],
    tried: list[dict[str, Any]],
) -> Confirmation:
    """One candidate (`values`) against as written, with each seat set."""
    persona_games, ismcts_games, min_games, ismcts_seats = settings
    s = result.spec
    seed = s.seed + CONFIRM_SEED
    changed = [n for n in values if values[n] != result.baseline.values.get(n)]
    n80 = aim["games_80"] or min_games
    checks: list[SeatCheck] = []
    arms: dict[str, tuple[Samples, Samples]] = {}
    base_v, cand_v = _variant(result, result.baseline.values), _variant(result, values)
    for label, seats, cap in (
        ("personas", (), persona_games),
        ("ismcts", ismcts_seats, ismcts_games),
    ):
        if cap <= 0:
            continue
        games = max(min(n80, cap), min(min_games, cap))
        say(f"confirming trial {number} with {label} seats: {games} games per arm")
        base = play_arm(s.game, s.players, base_v, seed, games, seats)
        cand = play_arm(s.game, s.players, cand_v, seed, games, seats)
        bots = tuple(seats) if seats else tuple(persona_mix(s.game))
        check = check_seats(label, base, cand, aim, s.players, s.start_name, bots)
        need = check.games_80 or 0
        if not check.confirmed and games < need and games < cap:
            # the difference on these seeds is smaller than the search's: play on to the
            # games it needs at 80% power (within the cap), the first games kept
            games = min(need, cap)
            say(f"  not apart yet; playing on to {games} games per arm (80% power)")
            base = play_arm(s.game, s.players, base_v, seed, games, seats, base)
            cand = play_arm(s.game, s.players, cand_v, seed, games, seats, cand)
            check = check_seats(label, base, cand, aim, s.players, s.start_name, bots)
            need = check.games_80 or 0
        arms[label] = (base, cand)
        if games < need and not check.confirmed:
            short = f"capped at {games} of the {need} games 80% power needs"
            check.why_not = f"{check.why_not}; {short}" if check.why_not else short
        checks.append(check)
    ok = bool(checks) and all(c.confirmed for c in checks)
    conf = Confirmation(
        {k: values[k] for k in changed}, changed, aim, checks, ok, start=s.start_name
    )
    tried.append(
        {
            "trial": number,
            "changed": conf.candidate,
            "confirmed": ok,
            "bots": " and with ".join(c.who for c in checks),
            "why_not": "; ".join(f"{c.seats}: {c.why_not}" for c in checks if c.why_not),
        }
    )
    if ok:
        label = "personas" if "personas" in arms else "ismcts"
        seats = () if label == "personas" else ismcts_seats
        conf.whys, conf.noise_changes = _whys(result, values, changed, arms[label], seats)
    return conf


def _candidates(result: Any) -> list[Any]:
    """The search's best first, then the other changed trials by misses and size."""
    best = result.best()
    rest = sorted(
        (t for t in result.trials if t.changed and t.misses < result.baseline.misses),
        key=lambda t: (t.misses, len(t.changed), t.number),
    )
    seen: set[str] = set()
    out = []
    for t in ([best] if best.changed else []) + rest:
        key = repr(sorted((k, t.values[k]) for k in t.changed))
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def _variant(result: Any, values: dict[str, Any]) -> Variant:
    info = game_info(result.spec.game)
    return variant_of(
        info, result.params, values, info.title, result.spec.fixed, result.spec.start_changes
    )


def _whys(
    result: Any,
    values: dict[str, Any],
    changed: list[str],
    arm: tuple[Samples, Samples],
    seats: tuple[str, ...],
) -> tuple[dict[str, str], list[str]]:
    """Each change's measured effect: alone against as written, or the candidate
    against the candidate without it (the same fresh seeds and seats); and the
    changes whose own effect is inside the noise (a smaller change may do)."""
    s = result.spec
    base, cand = arm
    games = cand.games
    if len(changed) == 1:
        return {changed[0]: effect(cand, base, s.players)}, []
    out, noise = {}, []
    for name in changed:
        without = dict(values) | {name: result.baseline.values[name]}
        other = play_arm(
            s.game, s.players, _variant(result, without), s.seed + CONFIRM_SEED, games, seats
        )
        text, apart = measured_effect(cand, other, s.players)
        out[name] = text + "; the other changes kept, against them without this one"
        if not apart:
            noise.append(name)
    return out, noise


def confirmed_variant(result: Any, conf: Confirmation, title: str, about: str) -> Variant:
    """The variant file of a confirmed candidate: each change with its measured why."""
    v = _variant(result, conf.candidate | _unchanged(result, conf))
    whys = conf.whys
    options_why = {k: whys[f"option:{k}"] for k in v.options if f"option:{k}" in whys}
    changes = tuple(CardChange(c.path, c.value, whys.get(f"cards:{c.path}", "")) for c in v.changes)
    return Variant(v.game, v.name, title, about, v.options, changes, options_why=options_why)


def _unchanged(result: Any, conf: Confirmation) -> dict[str, Any]:
    return {k: v for k, v in result.baseline.values.items() if k not in conf.candidate}
