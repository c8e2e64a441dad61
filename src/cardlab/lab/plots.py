"""The report's charts, drawn with matplotlib (Agg) and embedded as base64
PNG data URIs, so report.html is one self-contained file."""

from __future__ import annotations

import base64
import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SIZE = (5.0, 2.8)


def _encode(fig: Any) -> str:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def win_rates(outcome: dict[str, Any], title: str) -> str:
    rates = outcome["win_rate_by_position"]
    lows = [r - lo for r, (lo, _) in zip(rates, outcome["wilson95_by_position"], strict=True)]
    highs = [hi - r for r, (_, hi) in zip(rates, outcome["wilson95_by_position"], strict=True)]
    fig, ax = plt.subplots(figsize=SIZE)
    xs = [f"#{i + 1}" for i in range(len(rates))]
    ax.bar(xs, rates, yerr=[lows, highs], capsize=4, color="#4a7bb7")
    ax.axhline(outcome["fair_share"], color="#c0392b", linestyle="--", label="fair share")
    ax.set_xlabel("turn position (1 = first player)")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return _encode(fig)


def bars(labels: list[str], values: list[float], title: str, xlabel: str) -> str:
    fig, ax = plt.subplots(figsize=(SIZE[0], max(2.0, 0.28 * len(labels) + 1)))
    ax.barh(labels, values, color="#4a7bb7")
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return _encode(fig)


def card_win_rates(content: dict[str, Any]) -> str | None:
    cards = content.get("cards", {})
    if not cards:
        return None
    names = sorted(cards, key=lambda n: -cards[n]["acquirer_win_rate"])
    rates = [cards[n]["acquirer_win_rate"] for n in names]
    colors = {"strong": "#c0392b", "weak": "#7f8c8d", "": "#4a7bb7"}
    fig, ax = plt.subplots(figsize=(SIZE[0], max(2.0, 0.22 * len(names) + 1)))
    ax.barh(names, rates, color=[colors[cards[n]["flag"]] for n in names])
    ax.axvline(content["fair_share"], color="#333", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    ax.set_xlabel("win rate of seats that acquired the card")
    ax.set_title("content: acquirers' win rate (red = strong, grey = weak)")
    return _encode(fig)


def ladder(skill: dict[str, Any]) -> str | None:
    rows = skill.get("rows")
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=SIZE)
    rates = [r["win_rate"] for r in rows]
    err = [
        [r["win_rate"] - r["wilson95"][0] for r in rows],
        [r["wilson95"][1] - r["win_rate"] for r in rows],
    ]
    ax.bar([r["agent"] for r in rows], rates, yerr=err, capsize=4, color="#27ae60")
    ax.axhline(skill["fair_share"], color="#c0392b", linestyle="--", label="fair share")
    ax.set_ylabel("win rate per seat taken")
    ax.set_title("skill ladder")
    ax.tick_params(axis="x", labelsize=8)
    ax.legend(loc="upper left")
    return _encode(fig)


def side_by_side(rows: list[dict[str, Any]], key: str, title: str) -> str:
    """Mean minutes and first-seat advantage for each player count / option value."""
    labels = [str(r[key]) for r in rows]
    minutes = [r["length"]["minutes"]["mean"] for r in rows]
    fsa = [r["outcome"].get("first_seat_advantage", 0.0) for r in rows]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(SIZE[0] + 1, SIZE[1]))
    a1.bar(labels, minutes, color="#4a7bb7")
    a1.set_title("est. minutes")
    a2.bar(labels, fsa, color="#8e44ad")
    a2.axhline(0, color="#333", linewidth=0.8)
    a2.set_title("first-seat advantage")
    fig.suptitle(title)
    return _encode(fig)


def all_plots(report: dict[str, Any]) -> dict[str, str]:
    """Every chart of a report, by name (missing data -> no chart)."""
    m = report["main"]
    plots: dict[str, str | None] = {}
    if m["outcome"].get("games"):
        plots["win_rates"] = win_rates(m["outcome"], "win rate by turn position (95% Wilson)")
    by_kind = m["decisions"]["by_kind"]
    if by_kind:
        plots["branching"] = bars(
            list(by_kind),
            [v["mean_branching"] for v in by_kind.values()],
            "branching factor per decision kind",
            "mean legal actions",
        )
    plots["content"] = card_win_rates(m["content"])
    plots["ladder"] = ladder(report.get("skill", {}))
    if report.get("player_counts"):
        plots["player_counts"] = side_by_side(report["player_counts"], "players", "player counts")
    if report.get("compare"):
        c = report["compare"]
        plots["compare"] = side_by_side(c["values"], "value", f"option {c['option']}")
    return {k: v for k, v in plots.items() if v}
