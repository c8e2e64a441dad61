"""The report's charts, drawn with matplotlib (Agg) and embedded as base64
PNG data URIs, so report.html is one self-contained file."""

from __future__ import annotations

import base64
import io
from typing import Any

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from cardlab.lab.findings import is_simultaneous

SIZE = (5.0, 2.8)


def _encode(fig: Any) -> str:
    buf = io.BytesIO()
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def win_rates(outcome: dict[str, Any], title: str, simultaneous: bool = False) -> str:
    """Win rate per turn position with its 95% interval. In a game of simultaneous
    decisions "position" is the engine's resolution order, and the axis says so."""
    rates = outcome["win_rate_by_position"]
    lows = [r - lo for r, (lo, _) in zip(rates, outcome["wilson95_by_position"], strict=True)]
    highs = [hi - r for r, (_, hi) in zip(rates, outcome["wilson95_by_position"], strict=True)]
    fig, ax = plt.subplots(figsize=HIST_SIZE, layout="constrained")
    xs = [f"#{i + 1}" for i in range(len(rates))]
    ax.bar(xs, rates, yerr=[lows, highs], capsize=4, color="#4a7bb7", label="win rate, 95%")
    ax.axhline(outcome["fair_share"], color="#c0392b", linestyle="--", label="fair share")
    ax.set_xlabel(
        "resolution order (#1 resolved first)\ndecisions are simultaneous"
        if simultaneous
        else "turn position (1 = first player)",
    )
    ax.set_ylabel("win rate")
    ax.set_title(title, fontsize=10)
    fig.legend(loc="outside lower center", ncol=2, fontsize=9, frameon=False)
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
    err = _errors(rates, [cards[n].get("wilson95") for n in names])
    fig, ax = plt.subplots(figsize=(SIZE[0], max(2.0, 0.22 * len(names) + 1)))
    ax.barh(names, rates, xerr=err, capsize=2, color="#4a7bb7", ecolor="#333")
    ax.axvline(content["fair_share"], color="#333", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    ax.set_xlabel("win rate of seats that acquired the card")
    ax.set_title("acquirers' win rate, 95% (correlation)")
    return _encode(fig)


def ladder(skill: dict[str, Any]) -> str | None:
    def short(agent: str) -> str:
        return agent.split(":")[0]

    rows = []
    for c in skill.get("cells", []):  # each bot labelled with its opponent in the cell
        for row, other in zip(c["rows"], reversed(c["rows"]), strict=True):
            rows.append({**row, "agent": f"{short(row['agent'])}\nv {short(other['agent'])}"})
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=HIST_SIZE, layout="constrained")
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
    fig.legend(loc="outside lower center", fontsize=9, frameon=False)
    return _encode(fig)


def _errors(values: list[float], intervals: list[Any]) -> list[list[float]] | None:
    """matplotlib's [below, above] error lengths from [low, high] intervals (None when
    an interval is missing: a bar is then drawn without one, never with a made-up one)."""
    if not intervals or any(not i or i[0] is None for i in intervals):
        return None
    return [
        [max(0.0, v - lo) for v, (lo, _) in zip(values, intervals, strict=True)],
        [max(0.0, hi - v) for v, (_, hi) in zip(values, intervals, strict=True)],
    ]


def mean_interval(d: dict[str, Any]) -> list[float]:
    """95% normal interval of a mean from `stats.describe` (n, mean, sd)."""
    half = 1.96 * d.get("sd", 0.0) / max(1, d.get("n", 1)) ** 0.5
    return [d["mean"] - half, d["mean"] + half]


def side_by_side(
    rows: list[dict[str, Any]], key: str, title: str, simultaneous: bool = False
) -> str:
    """Mean minutes and first-seat advantage for each player count / option value,
    each bar with its 95% interval (the mean's; the advantage's Wilson-based one). With
    simultaneous decisions the "first seat" is the one resolved first, and it says so."""
    labels = [str(r[key]).rsplit("/", 1)[-1][:14] for r in rows]
    minutes = [r["length"]["minutes"]["mean"] for r in rows]
    m_err = _errors(minutes, [mean_interval(r["length"]["minutes"]) for r in rows])
    fsa = [r["outcome"].get("first_seat_advantage", 0.0) for r in rows]
    f_err = _errors(fsa, [r["outcome"].get("first_seat_advantage_ci95") for r in rows])
    fig, (a1, a2) = plt.subplots(1, 2, figsize=HIST_SIZE, layout="constrained")
    a1.bar(labels, minutes, yerr=m_err, capsize=4, color="#4a7bb7")
    a1.set_title("est. minutes (mid), 95%", fontsize=9)
    a2.bar(labels, fsa, yerr=f_err, capsize=4, color="#8e44ad")
    a2.axhline(0, color="#333", linewidth=0.8)
    a2.set_title(
        "first-resolved seat's edge, 95%\n(decisions are simultaneous)"
        if simultaneous
        else "first-seat advantage, 95%",
        fontsize=9,
    )
    for ax in (a1, a2):
        ax.tick_params(axis="x", labelsize=8, rotation=30)
    fig.suptitle(title[:40], fontsize=10)
    return _encode(fig)


def impact(card_impact: dict[str, Any]) -> str | None:
    """Each card experiment's paired difference in its holders' win share with its 95%
    interval, ranked as the table is; controlled ones (Holm) in a stronger colour."""
    rows = [a for a in card_impact.get("ablations", []) if "controlled" in a]
    if not rows:
        return None
    values = [a["holder_win_rate_delta"] for a in rows]
    err = _errors(values, [a["holder_win_rate_delta_ci95"] for a in rows])
    colors = ["#c0392b" if a["controlled"] else "#95a5a6" for a in rows]
    fig, ax = plt.subplots(
        figsize=(HIST_SIZE[0], max(2.2, 0.24 * len(rows) + 1.2)), layout="constrained"
    )
    ax.barh([a["label"] for a in rows], values, xerr=err, capsize=2, color=colors, ecolor="#333")
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("holders' win share, changed minus as is (paired, 95%)", fontsize=8)
    ax.set_title("card experiments (red: Holm-controlled)", fontsize=10)
    return _encode(fig)


def margins(st: dict[str, Any]) -> str | None:
    """The margin of victory's histogram (share of games per bin)."""
    hist = st.get("margins", {}).get("histogram")
    if not hist or not sum(hist["counts"]):
        return None
    total = sum(hist["counts"])
    fig, ax = plt.subplots(figsize=HIST_SIZE, layout="constrained")
    ax.stairs([c / total for c in hist["counts"]], hist["edges"], fill=True, color="#4a7bb7")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("winner's points minus the runner-up's")
    ax.set_ylabel("share of games")
    ax.set_title(f"margin of victory · {total} games")
    return _encode(fig)


def runaway(st: dict[str, Any]) -> str | None:
    """P(win | sole leader after round k) with 95% intervals, against the fair share."""
    rows = [r for r in st.get("runaway", []) if r["n"]]
    if not rows:
        return None
    xs = [r["round"] for r in rows]
    rates = [r["rate"] for r in rows]
    fig, ax = plt.subplots(figsize=HIST_SIZE, layout="constrained")
    ax.errorbar(xs, rates, yerr=_errors(rates, [r["wilson95"] for r in rows]), marker="o",
                capsize=3, color="#4a7bb7", label="leader wins, 95%")  # fmt: skip
    ax.axhline(rows[0]["fair_share"], color="#c0392b", linestyle="--", label="fair share")
    ax.set_ylim(0, 1)
    ax.set_xlabel("after round")
    ax.set_ylabel("P(win | sole leader)")
    ax.set_title("runaway leader")
    fig.legend(loc="outside lower center", ncol=2, fontsize=9, frameon=False)
    return _encode(fig)


def curves(curve: dict[str, Any]) -> str | None:
    """Branching and each public resource per tenth of the game (one panel each)."""
    series = {"legal options": curve.get("branching", [])} | curve.get("resources", {})
    series = {k: v for k, v in series.items() if v}
    if not series:
        return None
    fig, axes = plt.subplots(
        len(series),
        1,
        figsize=(HIST_SIZE[0], 1.3 * len(series) + 0.8),
        layout="constrained",
        sharex=True,
        squeeze=False,
    )
    for ax, (name, values) in zip(axes[:, 0], series.items(), strict=True):
        xs = [10 * i + 5 for i in range(len(values))]
        ax.plot(xs, values, marker="o", color="#4a7bb7")
        ax.set_ylabel(name.replace("_", " "), fontsize=8)
        ax.tick_params(labelsize=8)
    axes[-1, 0].set_xlabel("% of the game")
    fig.suptitle("over the course of a game (mean per tenth)", fontsize=10)
    return _encode(fig)


SERIES_COLORS = ("#4a7bb7", "#e67e22", "#27ae60", "#8e44ad", "#c0392b")
HIST_SIZE = (4.4, 3.5)
"""Length histograms: about a phone's width at 90 dpi, so their text is not scaled down."""


def length_series(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The series of the length histograms, `{label, players, length}`: one per
    player count when the report compares counts, else the main run alone."""
    rows = report.get("player_counts") or []
    main = report["settings"]["players"]
    if len(rows) > 1:
        return [
            {
                "label": f"{r['players']}p{' (main)' if r['players'] == main else ''}",
                "players": r["players"],
                "length": r["length"],
            }
            for r in rows
        ]
    return [{"label": f"{main}p", "players": main, "length": report["main"]["length"]}]


def length_histogram(
    series: list[dict[str, Any]],
    key: str,
    title: str,
    xlabel: str,
    box: dict[str, Any] | None = None,
) -> str | None:
    """Overlaid histograms of one length figure, each series as the share of its
    games per bin (bins shared, from report.json); `box` shades the rulebook's
    stated minutes for the series' player counts and the claims' accepted band."""
    series = [s for s in series if sum(s["length"]["histograms"][key]["counts"])]
    if not series:
        return None
    fig, ax = plt.subplots(figsize=HIST_SIZE, layout="constrained")
    lows, highs, tops = [], [], []
    for i, s in enumerate(series):
        hist = s["length"]["histograms"][key]
        total = sum(hist["counts"])
        shares = [c / total for c in hist["counts"]]
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        ax.stairs(shares, hist["edges"], fill=True, alpha=0.3, color=color)
        label = f"{s['label']} · {total} games"
        ax.stairs(shares, hist["edges"], color=color, linewidth=1.4, label=label)
        lows.append(hist["edges"][0])
        highs.append(hist["edges"][-1])
        tops.append(max(shares))
    stated = (box or {}).get("by_players", {})
    ranges = [stated[str(s["players"])] for s in series if str(s.get("players")) in stated]
    if ranges:
        lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
        tol = box["tolerance"] if box else 0.0
        a, b = lo * (1 - tol), hi * (1 + tol)
        ax.axvspan(a, b, color="#f1c40f", alpha=0.18, lw=0, label=f"claim accepts {a:g}-{b:g}")
        if hi > lo:
            ax.axvspan(
                lo, hi, color="#f39c12", alpha=0.4, lw=0, label=f"rulebook {lo:g}-{hi:g} min"
            )
        else:
            ax.axvline(lo, color="#d35400", linewidth=2, label=f"rulebook {lo:g} min")
        lows.append(a)
        highs.append(b)
    pad = (max(highs) - min(lows)) * 0.02
    ax.set_xlim(min(lows) - pad, max(highs) + pad)
    ax.set_ylim(0, max(tops) * 1.12)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(title)
    labels = ax.get_legend_handles_labels()[1]
    fig.legend(
        loc="outside lower center",
        ncol=1 if max(len(x) for x in labels) > 28 else 2,
        fontsize=9,
        frameon=False,
    )
    return _encode(fig)


def experience_bands(section: dict[str, Any]) -> str | None:
    """Each experience metric on its own axis: the reference band shaded, the loved
    games' values as grey ticks, the control games' as red crosses, and this game's
    value with its 95% interval at every player count measured."""
    judged = section.get("judged") or []
    bands = (section.get("bands") or {}).get("bands") or {}
    if not judged or not bands:
        return None
    names = [row["metric"] for row in judged[0]["metrics"] if row["metric"] in bands]
    if not names:
        return None
    fig, axes = plt.subplots(len(names), 1, figsize=(5.6, 0.62 * len(names) + 0.8))
    axes = list(axes) if len(names) > 1 else [axes]
    colours = ["#1f4e8c", "#2e86c1", "#5dade2", "#85c1e9", "#154360"]
    for ax, name in zip(axes, names, strict=True):
        band = bands[name]
        points = [v for v in [*band["loved"].values(), *band["controls"].values()]]
        for j in judged:
            row = next(r for r in j["metrics"] if r["metric"] == name)
            if row["interval"]:
                points += list(row["interval"])
        lo_b = band["low"] if band["low"] is not None else min([0.0, *points])
        hi_b = band["high"] if band["high"] is not None else max([1.0, *points])
        ax.axvspan(lo_b, hi_b, color="#d5f5e3", zorder=0)
        for v in band["loved"].values():
            ax.plot([v], [0.5], marker="|", color="#7f8c8d", markersize=10, zorder=1)
        for v in band["controls"].values():
            ax.plot([v], [0.5], marker="x", color="#c0392b", markersize=6, zorder=1)
        for k, j in enumerate(judged):
            row = next(r for r in j["metrics"] if r["metric"] == name)
            if row["value"] is None or not row["interval"]:
                continue
            lo, hi = row["interval"]
            y = 0.25 + 0.5 * (k + 1) / (len(judged) + 1)
            below, above = max(0.0, row["value"] - lo), max(0.0, hi - row["value"])
            ax.errorbar([row["value"]], [y], xerr=[[below], [above]],
                        fmt="o", color=colours[k % len(colours)], markersize=4, capsize=2,
                        label=f"{j['players']}p")  # fmt: skip
        span = (max(points + [hi_b]) - min(points + [lo_b])) or 1.0
        ax.set_xlim(min(points + [lo_b]) - 0.05 * span, max(points + [hi_b]) + 0.05 * span)
        ax.set_ylim(0, 1)
        ax.set_yticks([])
        ax.set_ylabel(name.replace("_", " "), rotation=0, ha="right", va="center", fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
    handles, labels = axes[0].get_legend_handles_labels()
    seen = dict(zip(labels, handles, strict=True))
    fig.suptitle("experience vs the reference band (green); grey: loved games, red x: luck",
                 fontsize=8)  # fmt: skip
    if seen:
        fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=len(seen),
                   fontsize=7, frameon=False)  # fmt: skip
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    return _encode(fig)


def experience_histograms(profile: dict[str, Any]) -> str | None:
    """Four distributions behind the profile's figures at one player count."""
    wanted = ("shutout_share", "dead_turn_share", "meaningful_share", "decided_at")
    metrics = profile.get("metrics") or {}
    shown = [m for m in wanted if (metrics.get(m) or {}).get("histogram", {}).get("counts")]
    if not shown:
        return None
    fig, axes = plt.subplots(1, len(shown), figsize=(2.0 * len(shown) + 0.6, 2.3))
    axes = list(axes) if len(shown) > 1 else [axes]
    for ax, name in zip(axes, shown, strict=True):
        m = metrics[name]
        edges, counts = m["histogram"]["edges"], m["histogram"]["counts"]
        widths = [b - a for a, b in zip(edges, edges[1:], strict=False)]
        whole = all(w == 1 for w in widths) and all(float(e).is_integer() for e in edges)
        # counts per game (whole-number bins): each bar over its number, not beside it
        ax.bar(edges[:-1], counts, width=0.9 if whole else widths,
               align="center" if whole else "edge", color="#4a7bb7", edgecolor="white")  # fmt: skip
        ax.set_title(m.get("title", name), fontsize=8)
        ax.set_xlabel(str(m.get("extra", {}).get("histogram_of", m.get("stat", ""))), fontsize=6,
                      wrap=True)  # fmt: skip
        ax.tick_params(labelsize=6)
    fig.suptitle(f"{profile['players']} players: distributions, not means", fontsize=8)
    fig.tight_layout()
    return _encode(fig)


def all_plots(report: dict[str, Any]) -> dict[str, str]:
    """Every chart of a report, by name (missing data -> no chart)."""
    m = report["main"]
    plots: dict[str, str | None] = {}

    simultaneous = is_simultaneous(report)
    if m["outcome"].get("games"):
        plots["win_rates"] = win_rates(
            m["outcome"],
            "win rate by resolution order" if simultaneous else "win rate by turn position",
            simultaneous,
        )
    by_kind = m["decisions"]["by_kind"]
    if by_kind:
        plots["branching"] = bars(
            list(by_kind),
            [v["mean_branching"] for v in by_kind.values()],
            "branching factor per decision kind",
            "mean legal actions",
        )
    series = length_series(report)
    plots["length_decisions"] = length_histogram(
        series, "decisions", "decisions per game", "decisions (all seats)"
    )
    plots["length_minutes"] = length_histogram(
        series,
        "minutes",
        "estimated minutes per game",
        "minutes (time model)",
        report.get("box_minutes"),
    )
    if report.get("compare"):
        c = report["compare"]
        plots["compare_minutes"] = length_histogram(
            [
                {
                    "label": f"{c['option']}={str(r['value']).rsplit('/', 1)[-1]}",
                    "length": r["length"],
                }
                for r in c["values"]
            ],
            "minutes",
            f"estimated minutes per game by {c['option']}",
            "minutes (time model)",
        )
    plots["content"] = card_win_rates(m["content"])
    plots["margins"] = margins(report.get("strategy", {}))
    plots["impact"] = impact(report.get("card_impact", {}))
    plots["runaway"] = runaway(report.get("strategy", {}))
    plots["curves"] = curves(m.get("curves", {}))
    plots["ladder"] = ladder(report.get("skill", {}))
    if report.get("player_counts"):
        plots["player_counts"] = side_by_side(
            report["player_counts"], "players", "player counts", simultaneous
        )
    if report.get("compare"):
        c = report["compare"]
        plots["compare"] = side_by_side(c["values"], "value", f"option {c['option']}", simultaneous)
    exp = report.get("experience") or {}
    plots["experience_bands"] = experience_bands(exp)
    for p in exp.get("profiles", []):
        plots[f"experience_hist_{p['players']}"] = experience_histograms(p)
    return {k: v for k, v in plots.items() if v}
