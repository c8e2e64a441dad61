"""What a tuning run leaves for the designer: `tune.json` (every trial and the
confirmation), `variant.toml` (the confirmed best, ready for `--variant`; each
change's `why` is its measured effect), `pareto.png` and `report.html` (the
rules as written beside the best variant). A candidate the confirmation did
not separate from as written is written to `unconfirmed.toml` instead, saying so."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from cardlab.core.registry import game_info
from cardlab.core.variants import CardChange, Variant
from cardlab.lab.tune.confirm import Confirmation, confirmed_variant
from cardlab.lab.tune.objectives import TARGETS, unmet
from cardlab.lab.tune.space import variant_of
from cardlab.lab.tune.study import TrialResult, TuneResult


def _command(result: TuneResult) -> str:
    s = result.spec
    start = f" --variant {s.variant}" if s.variant else ""
    given = dict(s.given_options) if s.variant else dict(s.options)
    opts = "".join(f" -o {k}={v}" for k, v in given.items())
    return (
        f"cardlab tune {s.game} --players {s.players} --trials {s.trials} "
        f"--games {s.games} --seed {s.seed}{start}{opts}"
    )


def search_why(result: TuneResult, trial: TrialResult, name: str) -> str:
    """Without a confirmation: the change's effect as the search measured it (its
    single-change trial when there is one, else the whole trial), said as such."""
    base = result.baseline
    alone = [
        t for t in result.trials if t.changed == [name] and t.values[name] == trial.values[name]
    ]
    source = alone[0] if alone else trial
    b, c = base.metrics, source.metrics
    if not b.get("games") or not c.get("games"):
        return "not measured"
    parts = []
    for key, words in (("stall_share", "stalls"), ("tiebreak_share", "tie-breaks decide")):
        if abs(c[key] - b[key]) > 1e-9:
            parts.append(f"{words} {b[key]:.0%} -> {c[key]:.0%}")
    mb, mc = sum(b["minutes"]) / 2, sum(c["minutes"]) / 2
    if abs(mc - mb) > 0.05:
        parts.append(f"minutes {mb:.1f} -> {mc:.1f}")
    parts.append(f"misses {base.misses:.3f} -> {source.misses:.3f}")
    who = "alone" if alone else "with the trial's other changes"
    return (
        f"{', '.join(parts)} ({who}) at {result.spec.players} players, {c['games']} games, "
        "paired seeds; search figures, not confirmed on fresh seeds"
    )


def best_variant(result: TuneResult, confirmation: Confirmation | None = None) -> Variant:
    """The variant file: the confirmed candidate with measured whys; without a
    confirmation, the search's best with the search's own figures as whys."""
    info = game_info(result.spec.game)
    if confirmation is not None and confirmation.confirmed:
        about = (
            f"Found by `{_command(result)}` and {confirmation.summary}. "
            f"Power: {power_text(confirmation)}."
        )
        if confirmation.pruned_from is not None:
            dropped = ", ".join(
                k.split(":", 1)[1]
                for k in confirmation.pruned_from
                if k not in confirmation.candidate
            )
            about += f" Dropped from the search's candidate, no measurable effect alone: {dropped}."
        if confirmation.noise_changes:
            weak = ", ".join(n.split(":", 1)[1] for n in confirmation.noise_changes)
            about += f" Within noise on its own (the rest kept): {weak}."
        return confirmed_variant(result, confirmation, f"{info.title}, tuned variant", about)
    best = result.best()
    variant = variant_of(
        info,
        result.params,
        best.values,
        f"{info.title}, tuned variant",
        result.spec.fixed,
        result.spec.start_changes,
    )
    verdict = (
        "clears every target"
        if best.clears
        else "does not clear every target (the closest found; not met: "
        + ", ".join(unmet(best.metrics))
        + ")"
    )
    if confirmation is not None:
        verdict += "; " + confirmation.summary + " (not a recommended ruleset)"
    about = (
        f"Found by `{_command(result)}`: trial {best.number}, {len(best.changed)} change(s); "
        f"{verdict}."
    )
    whys = {n: search_why(result, best, n) for n in best.changed}
    options_why = {k: whys[f"option:{k}"] for k in variant.options if f"option:{k}" in whys}
    changes = tuple(
        CardChange(c.path, c.value, whys.get(f"cards:{c.path}", "")) for c in variant.changes
    )
    title = variant.title if confirmation is None else f"{info.title}, unconfirmed candidate"
    return Variant(
        variant.game,
        variant.name,
        title,
        about,
        variant.options,
        changes,
        options_why=options_why,
    )


def power_text(conf: Confirmation) -> str:
    aim = conf.aim
    if aim.get("games_80") is None:
        return "no difference in the search to size the confirmation by"
    parts = [
        f"the search saw {aim['search']}, which needs {aim['games_80']} games per arm at 80% power"
    ]
    for c in conf.checks:
        n80 = "no difference" if c.games_80 is None else f"{c.games_80} needed"
        parts.append(f"{c.seats} played {c.games} ({n80} for the confirmed difference)")
    return "; ".join(parts)


def tune_json(
    result: TuneResult,
    checks: dict[str, Any] | None = None,
    confirmation: Confirmation | None = None,
) -> dict[str, Any]:
    s = result.spec
    return {
        "checks": checks,
        "confirmation": None if confirmation is None else confirmation.to_json(),
        "options_fixed": dict(s.options),
        "start": {
            "name": s.start_name,
            "variant": s.variant,
            "card_changes": {c.path: c.value for c in s.start_changes},
        },
        "exhausted": result.exhausted,
        "game": s.game,
        "players": s.players,
        "seed": s.seed,
        "games_per_trial": s.games,
        "trials_requested": s.trials,
        "batch": s.batch_size(),
        "backend": s.backend,
        "targets": [{"id": t.id, "text": t.text, "threshold": t.threshold} for t in TARGETS],
        "parameters": [
            {
                "name": p.name,
                "kind": p.kind_name,
                "baseline": p.baseline,
                "range": p.describe_range(),
                "values": p.values(),
                "about": p.about,
            }
            for p in result.params
        ],
        "baseline": result.baseline.to_json(),
        "best": result.best().to_json(),
        "pareto": [t.to_json() for t in result.pareto()],
        "trials": [t.to_json() for t in result.trials],
    }


def write_outputs(
    result: TuneResult,
    out: Path,
    checks: dict[str, Any] | None = None,
    confirmation: Confirmation | None = None,
) -> dict[str, Path]:
    """Write the files; `variant` is variant.toml, or unconfirmed.toml when the
    confirmation ran and no candidate beat as-written beyond noise."""
    out.mkdir(parents=True, exist_ok=True)
    failed = confirmation is not None and not confirmation.confirmed
    unchanged = not result.best().changed and not (confirmation and confirmation.confirmed)
    paths = {
        "json": out / "tune.json",
        "variant": out / ("unconfirmed.toml" if failed else "variant.toml"),
        "plot": out / "pareto.png",
        "html": out / "report.html",
    }
    stale = (
        ["variant.toml", "unconfirmed.toml"] if unchanged else ["variant.toml"] if failed else []
    )
    for name in stale:  # a recommendation from an earlier run in this folder
        if (out / name).exists():
            (out / name).unlink()
    data = tune_json(result, checks, confirmation)
    paths["json"].write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n")
    if unchanged:  # no change to play: a variant file would only repeat the start
        paths.pop("variant")
    else:
        paths["variant"].write_text(best_variant(result, confirmation).to_toml())
    _plot(result, paths["plot"])
    paths["html"].write_text(_html(result, checks, confirmation))
    return paths


def _plot(result: TuneResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    xs = [len(t.changed) for t in result.trials]
    ys = [t.misses for t in result.trials]
    ax.scatter(xs, ys, s=18, alpha=0.5, color="#888", label="trial")
    front = result.pareto()
    ax.plot(
        [len(t.changed) for t in front],
        [t.misses for t in front],
        "o-",
        color="#c0392b",
        label="Pareto front",
    )
    best = result.best()
    ax.scatter(
        [len(best.changed)],
        [best.misses],
        s=120,
        facecolors="none",
        edgecolors="#1f6feb",
        linewidths=2,
        label="best",
    )
    ax.set_xlabel("parameters changed")
    ax.set_ylabel("sum of target misses (0 = all hold)")
    ax.set_title(f"{result.spec.game}, {result.spec.players} players: {len(result.trials)} trials")
    ax.legend(loc="upper right", fontsize=8)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list):
        return "–".join(_fmt(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return html.escape(str(value))


def _html(
    result: TuneResult,
    checks: dict[str, Any] | None = None,
    confirmation: Confirmation | None = None,
) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("cardlab.lab.tune", "templates"),
        autoescape=select_autoescape(["html"]),
    )
    env.filters["fmt"] = _fmt
    info = game_info(result.spec.game)
    base, best = result.baseline, result.best()
    rows = []
    for key, label in (
        ("stall_share", "games ended by a stall rule or cap"),
        ("tiebreak_share", "games decided by the tie-break"),
        ("first_seat_win_share", "first seat's win share"),
        ("minutes", "estimated minutes (quick–slow)"),
        ("box_minutes", "box minutes"),
        ("mean_decisions", "decisions per game"),
    ):
        rows.append({"label": label, "base": base.metrics.get(key), "best": best.metrics.get(key)})
    claims = [
        {"text": b["text"], "threshold": b["threshold"], "base": b["verdict"], "best": v["verdict"]}
        for b, v in zip(base.claims, best.claims, strict=True)
    ]
    variant = best_variant(result, confirmation)
    return env.get_template("tune.html").render(
        title=info.title,
        spec=result.spec,
        base=base,
        best=best,
        rows=rows,
        claims=claims,
        variant_toml=variant.to_toml(),
        pareto=result.pareto(),
        trials=len(result.trials),
        param_about={p.name: p.about for p in result.params},
        checks=checks,
        confirmation=None if confirmation is None else confirmation.to_json(),
        power=None if confirmation is None else power_text(confirmation),
    )


def describe(t: TrialResult, start: str = "as written") -> str:
    if not t.changed:
        return start
    return ", ".join(f"{n.split(':', 1)[1]} = {t.values[n]}" for n in t.changed)
