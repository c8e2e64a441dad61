"""What a tuning run leaves for the designer: `tune.json` (every trial),
`variant.toml` (the best, ready for `--variant`), `pareto.png` and
`report.html` (the rules as written beside the best variant)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from cardlab.core.variants import Variant
from cardlab.games import game_info
from cardlab.lab.tune.objectives import TARGETS
from cardlab.lab.tune.space import variant_of
from cardlab.lab.tune.study import TrialResult, TuneResult


def best_variant(result: TuneResult) -> Variant:
    info = game_info(result.spec.game)
    best = result.best()
    variant = variant_of(info, result.params, best.values, f"{info.title}, tuned variant")
    verdict = "clears every target" if best.clears else "misses some targets (the closest found)"
    about = (
        f"Found by `cardlab tune {result.spec.game} --players {result.spec.players} "
        f"--trials {result.spec.trials} --games {result.spec.games} --seed {result.spec.seed}`: "
        f"trial {best.number}, {len(best.changed)} change(s); {verdict}."
    )
    return Variant(
        variant.game, variant.name, variant.title, about, variant.options, variant.changes
    )


def tune_json(result: TuneResult, checks: dict[str, Any] | None = None) -> dict[str, Any]:
    s = result.spec
    return {
        "checks": checks,
        "game": s.game,
        "players": s.players,
        "seed": s.seed,
        "games_per_trial": s.games,
        "trials_requested": s.trials,
        "batch": s.batch_size(),
        "backend": s.backend,
        "targets": [{"id": t.id, "text": t.text, "threshold": t.threshold} for t in TARGETS],
        "parameters": [
            {"name": p.name, "baseline": p.baseline, "values": p.values(), "about": p.about}
            for p in result.params
        ],
        "baseline": result.baseline.to_json(),
        "best": result.best().to_json(),
        "pareto": [t.to_json() for t in result.pareto()],
        "trials": [t.to_json() for t in result.trials],
    }


def write_outputs(
    result: TuneResult, out: Path, checks: dict[str, Any] | None = None
) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / "tune.json",
        "variant": out / "variant.toml",
        "plot": out / "pareto.png",
        "html": out / "report.html",
    }
    paths["json"].write_text(json.dumps(tune_json(result, checks), indent=2, sort_keys=True) + "\n")
    paths["variant"].write_text(best_variant(result).to_toml())
    _plot(result, paths["plot"])
    paths["html"].write_text(_html(result, checks))
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


def _html(result: TuneResult, checks: dict[str, Any] | None = None) -> str:
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
    variant = best_variant(result)
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
    )


def describe(t: TrialResult) -> str:
    if not t.changed:
        return "as written"
    return ", ".join(f"{n.split(':', 1)[1]} = {t.values[n]}" for n in t.changed)
