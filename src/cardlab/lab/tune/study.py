"""The search: Optuna, multi-objective (misses, size of change), resumable.

The schedule is designed for a designer's question, "what is the smallest
change that fixes it?": trial 0 is the game as written; then every single
change (each option's other values, each card number at a few points of its
range) in a fixed order, up to half the budget; then NSGA-II (seeded)
combines changes. Trials are asked in batches of `batch`, played in parallel
(local processes or Ray) and told back in order, so for a fixed seed and
batch size the trials are the same on any backend and any worker count."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardlab.core import CardlabError
from cardlab.core.options import resolve_options
from cardlab.core.registry import game_info, resolve_variant
from cardlab.lab.tune.evaluate import evaluate
from cardlab.lab.tune.objectives import clears, misses, verdicts
from cardlab.lab.tune.space import Parameter, changed, search_space, variant_of

NEAR = 0.05
"""Misses within this of the fewest found count as as good (noise of G games)."""


@dataclass(frozen=True)
class TuneSpec:
    game: str
    players: int
    trials: int = 40
    games: int = 40
    seed: int = 0
    workers: int = 1
    batch: int = 0  # 0: one batch per worker count
    backend: str = "local"
    address: str | None = None
    storage: str | None = None
    study_name: str = ""
    max_changes: int = 3
    options: tuple[tuple[str, Any], ...] = ()
    """Rule options every trial plays with (``-o`` and the start variant's), not searched."""
    variant: str | None = None
    """The variant the search starts from (a packaged name or a file; None: as written):
    its options are held like ``-o`` and its card changes are the numbers' starting
    values."""
    start_changes: tuple[Any, ...] = ()
    """The start variant's card changes (`CardChange`s), resolved by `start_from`."""
    start_name: str = "as written"
    """What the baseline is called: "as written", or the start variant by its name."""
    given_options: tuple[tuple[str, Any], ...] = ()
    """The ``-o`` options as given (before the start variant's joined them)."""

    @property
    def fixed(self) -> dict[str, Any]:
        return dict(self.options)

    def batch_size(self) -> int:
        return self.batch or self.workers


@dataclass
class TrialResult:
    number: int
    values: dict[str, Any]
    changed: list[str]
    metrics: dict[str, Any]
    claims: list[dict[str, Any]]
    misses: float
    clears: bool
    origin: str = "search"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "origin": self.origin,
            "parameters": {k: self.values[k] for k in self.changed},
            "changed": self.changed,
            "changes": len(self.changed),
            "misses": self.misses,
            "clears": self.clears,
            "claims": self.claims,
            "metrics": self.metrics,
        }


@dataclass
class TuneResult:
    spec: TuneSpec
    params: list[Parameter]
    trials: list[TrialResult] = field(default_factory=list)
    exhausted: int = 0
    """Set when the search stopped early: the sampler drew this many proposals in a row
    that repeated measured changes (the trials left were not spent on them)."""

    @property
    def baseline(self) -> TrialResult:
        return next(t for t in self.trials if not t.changed)

    def pareto(self) -> list[TrialResult]:
        """Trials no other trial beats on both misses and size of change."""
        front = []
        for t in self.trials:
            dominated = any(
                (o.misses <= t.misses and len(o.changed) <= len(t.changed))
                and (o.misses < t.misses or len(o.changed) < len(t.changed))
                for o in self.trials
            )
            if not dominated:
                front.append(t)
        seen: set[tuple[float, int]] = set()
        unique = []
        for t in sorted(front, key=lambda t: (len(t.changed), t.misses, t.number)):
            key = (t.misses, len(t.changed))
            if key not in seen:
                seen.add(key)
                unique.append(t)
        return unique

    def best(self) -> TrialResult:
        """The smallest change that clears every target. If none does, the smallest
        change whose misses are within `NEAR` of the fewest found: a designer would
        not take ten changes for a gain inside the noise of a few dozen games."""
        clearing = [t for t in self.trials if t.clears]
        if clearing:
            return min(clearing, key=lambda t: (len(t.changed), t.number))
        low = min(t.misses for t in self.trials)
        near = [t for t in self.trials if t.misses <= low + NEAR]
        return min(near, key=lambda t: (len(t.changed), t.misses, t.number))


def single_changes(params: list[Parameter]) -> list[dict[str, Any]]:
    """Every one-parameter change, options first; numbers at low, high and two inner
    points, words (options, categorical card values) at each of their choices."""
    out = []
    for p in params:
        values = p.values()
        if p.is_int_range:
            # an integer lever: its listed grid (the designer's first guesses) and its ends
            ends = {values[0], values[-1]}
            values = [v for v in values if v in ends or v in p.grid]
        elif not p.choices and len(values) > 4:
            picks = {values[0], values[-1], values[len(values) // 3], values[2 * len(values) // 3]}
            values = [v for v in values if v in picks]
        for v in values:
            if v != p.baseline:
                out.append({p.name: v})
    return out


def schedule_singles(params: list[Parameter], budget: int, seed: int) -> list[dict[str, Any]]:
    """The single changes the schedule plays, at most `budget` of them.

    When every single change fits, all of them in `single_changes` order. When
    they do not (a game with many card values: SUPER COMPUTER's 140 connector
    edges alone have about 700), taking the first `budget` would only ever try
    the parameters listed first. Instead: the rule options' changes first (few,
    and the designer's first question), then the card parameters in an order
    shuffled by `seed`, one value each in turn (every parameter's first
    alternative before any parameter's second), so a small budget samples
    across the whole card set. Deterministic for a seed, so a resumed study
    schedules the same trials."""
    singles = single_changes(params)
    budget = max(0, budget)
    if len(singles) <= budget:
        return singles
    options = [c for c in singles if next(iter(c)).startswith("option:")]
    if len(options) >= budget:
        return options[:budget]
    per_param: dict[str, list[dict[str, Any]]] = {}
    for c in singles:
        name = next(iter(c))
        if not name.startswith("option:"):
            per_param.setdefault(name, []).append(c)
    rng = random.Random(f"tune-singles-{seed}")
    names = list(per_param)
    rng.shuffle(names)
    for name in names:
        rng.shuffle(per_param[name])
    picked = list(options)
    depth = 0
    while len(picked) < budget:
        for name in names:
            if depth < len(per_param[name]):
                picked.append(per_param[name][depth])
                if len(picked) == budget:
                    break
        depth += 1
    return picked


def combinations(result: TuneResult, baseline: dict[str, Any]) -> list[dict[str, Any]]:
    """After the single changes: the best ones combined, greedily (best two, best
    three...) and in pairs, one value per parameter. Combining what helped alone
    finds small fixes faster than sampling every parameter at once."""
    base = result.baseline.misses
    helpful: dict[str, tuple[float, Any]] = {}
    for t in result.trials:
        if len(t.changed) == 1 and t.misses < base:
            name = t.changed[0]
            if name not in helpful or t.misses < helpful[name][0]:
                helpful[name] = (t.misses, t.values[name])
    ranked = sorted(helpful.items(), key=lambda kv: (kv[1][0], kv[0]))
    out: list[dict[str, Any]] = []
    for k in range(2, len(ranked) + 1):
        out.append(baseline | {name: v for name, (_, v) in ranked[:k]})
    top = ranked[:5]
    for i in range(len(top)):
        for j in range(i + 2, len(top)):
            out.append(baseline | {top[i][0]: top[i][1][1], top[j][0]: top[j][1][1]})
    return out


def encode(change: dict[str, Any], baseline: dict[str, Any]) -> dict[str, Any]:
    """A set of parameter values as the trial's Optuna parameters: how many
    changes, which parameter in each slot, and each changed parameter's value."""
    names = [n for n, v in change.items() if baseline.get(n) != v]
    params: dict[str, Any] = {"changes": len(names)}
    for i, name in enumerate(names):
        params[f"slot{i}"] = name
        params[f"value:{name}"] = change[name]
    return params


def suggest(trial: Any, params: list[Parameter], max_changes: int) -> dict[str, Any]:
    """Sample a small change: 0..max_changes parameters, each to a value other than
    its baseline (a dynamic space: Optuna's TPE samples what each trial asks)."""
    values = {p.name: p.baseline for p in params}
    names = [p.name for p in params]
    by_name = {p.name: p for p in params}
    k = trial.suggest_int("changes", 0 if trial.user_attrs.get("origin") else 1, max_changes)
    for i in range(k):
        name = trial.suggest_categorical(f"slot{i}", names)
        p = by_name[name]
        if p.is_int_range:  # an integer lever: Optuna's integer over its whole range
            values[name] = trial.suggest_int(f"value:{name}", int(p.low), int(p.high))
            continue
        choices = [v for v in p.values() if v != p.baseline] or [p.baseline]
        values[name] = trial.suggest_categorical(f"value:{name}", choices)
    return values


def start_from(spec: TuneSpec) -> TuneSpec:
    """The spec with its start resolved and named: a start variant's options (at this
    player count) held like ``-o`` (an ``-o`` given wins), its card changes as the
    numbers' starting values, and the baseline called by the variant's name; without a
    variant, "as written" (with the options held, said so)."""
    if spec.variant is None:
        if not spec.options:
            return spec
        held = ", ".join(f"{k}={_word(v)}" for k, v in spec.options)
        return dataclasses.replace(spec, start_name=f"as written with {held} held")
    v = resolve_variant(spec.game, spec.variant)
    options = dict(v.options_for(spec.players)) | dict(spec.options)
    title = f" ({v.title})" if v.title else ""
    return dataclasses.replace(
        spec,
        options=tuple(options.items()),
        given_options=spec.options,
        start_changes=tuple(v.changes),
        start_name=f"variant {spec.variant}{title}",
    )


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_tune(spec: TuneSpec, progress: Callable[[int, int], None] | None = None) -> TuneResult:
    try:
        import optuna
    except ImportError:
        raise CardlabError("cardlab tune needs Optuna: pip install 'cardlab[lab]'") from None
    spec = start_from(spec) if spec.variant and not spec.start_name.startswith("variant ") else spec
    info = game_info(spec.game)
    if not info.min_players <= spec.players <= info.max_players:
        raise CardlabError(
            f"{spec.game} is for {info.min_players}-{info.max_players} players, not {spec.players}"
        )
    if spec.trials < 1 or spec.games < 1 or spec.workers < 1:
        raise CardlabError("--trials, --games and --workers must be at least 1")
    fixed = spec.fixed
    if fixed:
        specs = info.game_class().option_specs
        resolved = resolve_options(spec.game, specs, fixed)
        fixed = {k: resolved[k] for k in fixed}
    params = search_space(info, fixed=fixed, start=spec.start_changes)
    baseline = {p.name: p.baseline for p in params}
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=spec.seed, n_startup_trials=0)
    name = spec.study_name or f"{spec.game}-{spec.players}p-seed{spec.seed}-games{spec.games}"
    if fixed and not spec.study_name:  # a study with options held fixed is another study
        name += "-" + ",".join(f"{k}={v}" for k, v in sorted(fixed.items()))
    if spec.variant and not spec.study_name:
        name += f"-from-{spec.variant}"
    study = optuna.create_study(
        study_name=name,
        storage=spec.storage,
        load_if_exists=True,
        directions=["minimize", "minimize"],
        sampler=sampler,
    )
    singles = schedule_singles(params, spec.trials // 2 - 1, spec.seed)
    if len(study.trials) == 0:
        study.enqueue_trial(encode(baseline, baseline), user_attrs={"origin": spec.start_name})
        for single in singles:
            study.enqueue_trial(encode(single, baseline), user_attrs={"origin": "single change"})
    result = TuneResult(spec, params)
    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE and "repeat_of" not in t.user_attrs:
            result.trials.append(_from_attrs(t, params))
    with _Evaluator(spec) as evaluator:
        while len(result.trials) < spec.trials:
            # once the single changes are played (a batch may cross the boundary)
            if len(result.trials) >= 1 + len(singles) and not study.user_attrs.get("combined"):
                combos = [
                    c
                    for c in combinations(result, baseline)
                    if sum(c[n] != baseline[n] for n in c) <= spec.max_changes
                ]
                for combo in combos[: max(0, spec.trials // 4)]:
                    study.enqueue_trial(
                        encode(combo, baseline), user_attrs={"origin": "combined singles"}
                    )
                study.set_user_attr("combined", True)
            n = min(spec.batch_size(), spec.trials - len(result.trials))
            asked, values, repeats = _ask_new(study, params, spec.max_changes, n, result)
            if not asked:  # the sampler proposes only changes already measured
                result.exhausted = repeats
                break
            played = {_key(t.values): t.metrics for t in result.trials}
            todo = values
            variants = [
                variant_of(info, params, v, info.title, fixed, spec.start_changes) for v in todo
            ]
            for v, m in zip(todo, evaluator.map(variants), strict=True):
                played[_key(v)] = m
            for trial, vals in zip(asked, values, strict=True):
                m = played[_key(vals)]
                tr = TrialResult(
                    number=trial.number,
                    values=vals,
                    changed=changed(params, vals),
                    metrics=m,
                    claims=verdicts(m),
                    misses=misses(m),
                    clears=clears(m),
                    origin=str(trial.user_attrs.get("origin", "search")),
                )
                trial.set_user_attr("result", json.dumps(tr.to_json(), sort_keys=True))
                trial.set_user_attr("values", json.dumps(vals, sort_keys=True))
                study.tell(trial, [tr.misses, float(len(tr.changed))])
                result.trials.append(tr)
            if progress:
                progress(len(result.trials), spec.trials)
    result.trials.sort(key=lambda t: t.number)
    return result


REPEAT_TRIES = 50
"""Proposals a batch may draw that repeat a measured change before the search stops:
the same seeds give the same figures, so a repeat would spend a trial on nothing."""


def _ask_new(
    study: Any, params: list[Parameter], max_changes: int, n: int, result: TuneResult
) -> tuple[list[Any], list[dict[str, Any]], int]:
    """Up to `n` asked trials whose changes nobody measured yet (neither an earlier trial
    nor another of this batch). A repeat is told to Optuna with its known figures (so
    the sampler learns it is known) and marked `repeat_of`; it is not a trial of the
    search and is not counted. Returns (trials, their values, repeats drawn)."""
    import optuna

    known = {_key(t.values): t for t in result.trials}
    asked: list[Any] = []
    values: list[dict[str, Any]] = []
    repeats = 0
    while len(asked) < n and repeats < REPEAT_TRIES:
        trial = study.ask()
        vals = suggest(trial, params, max_changes)
        key = _key(vals)
        if key in known or key in {_key(v) for v in values}:
            repeats += 1
            old = known.get(key)
            trial.set_user_attr("repeat_of", old.number if old else -1)
            if old is None:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, [old.misses, float(len(old.changed))])
            continue
        asked.append(trial)
        values.append(vals)
    return asked, values, repeats


def _key(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True)


def _from_attrs(trial: Any, params: list[Parameter]) -> TrialResult:
    data = json.loads(trial.user_attrs["result"])
    values = json.loads(trial.user_attrs["values"])
    return TrialResult(
        number=trial.number,
        values=values,
        changed=changed(params, values),
        metrics=data["metrics"],
        claims=data["claims"],
        misses=data["misses"],
        clears=data["clears"],
        origin=data.get("origin", "search"),
    )


class _Evaluator:
    """Plays a batch of trials' variants on the chosen backend, results in order."""

    def __init__(self, spec: TuneSpec) -> None:
        self.spec = spec
        self.pool: ProcessPoolExecutor | None = None
        self.ray: Any = None

    def __enter__(self) -> _Evaluator:
        if self.spec.backend == "ray":
            try:
                import ray
            except ImportError:
                raise CardlabError("--backend ray needs Ray: pip install 'cardlab[ray]'") from None
            if not ray.is_initialized():
                if self.spec.address:
                    ray.init(address=self.spec.address, log_to_driver=False)
                else:
                    ray.init(
                        num_cpus=self.spec.workers, include_dashboard=False, log_to_driver=False
                    )
            self.ray = ray
            self.remote = ray.remote(evaluate)
        elif self.spec.backend != "local":
            raise CardlabError(f"unknown backend {self.spec.backend!r}; backends: local, ray")
        elif self.spec.workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=self.spec.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    def map(self, variants: list[Any]) -> Iterator[dict[str, Any]]:
        s = self.spec
        args = [(s.game, s.players, v, s.seed, s.games) for v in variants]
        if self.ray is not None:
            refs = [self.remote.remote(*a) for a in args]
            return iter(self.ray.get(refs))
        if self.pool is not None:
            return iter(list(self.pool.map(evaluate, *zip(*args, strict=True))))
        return iter([evaluate(*a) for a in args])
