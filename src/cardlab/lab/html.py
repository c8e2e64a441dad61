"""report.html: one self-contained page (inline CSS, charts as data URIs, no
script), readable on a phone: the claims gate first, then each metric with a
line saying what it means and the numbers behind it."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from cardlab.lab.plots import all_plots

CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:12px;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ddd;margin-top:1.6em}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.9em;margin:.4em 0}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
.holds{background:#e3f6e8}.fails{background:#fde2e1}.untestable{background:#f3f3f3}
.v{font-weight:bold;text-transform:uppercase}.what{color:#555;font-size:.92em}
img{max-width:100%;height:auto}pre{white-space:pre-wrap;word-break:break-word;font-size:.82em;
margin:0}details summary{cursor:pointer}.flag{color:#c0392b;font-weight:bold}
@media (max-width:480px){body{padding:8px}td,th{padding:3px 4px}}
"""


def _t(value: Any) -> str:
    return escape(str(value))


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{_t(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><tr>{th}</tr>{body}</table></div>'


def _img(plots: dict[str, str], name: str, alt: str) -> str:
    return f'<img src="{plots[name]}" alt="{_t(alt)}">' if name in plots else ""


def _what(text: str) -> str:
    return f'<p class="what">{_t(text)}</p>'


def claims_section(claims: list[dict[str, Any]]) -> str:
    counts = {
        v: sum(1 for c in claims if c["verdict"] == v) for v in ("holds", "fails", "untestable")
    }
    rows = [
        [
            f"<code>{_t(c['id'])}</code>",
            f'<span class="v">{_t(c["verdict"])}</span>',
            _t(c["text"]),
            "<details><summary>evidence</summary><pre>"
            + _t(json.dumps(c["evidence"], indent=1, default=str))
            + "</pre></details>",
        ]
        for c in claims
    ]
    table = _table(["claim", "verdict", "rulebook text", "evidence"], rows)
    for c in claims:  # colour each row by its verdict
        table = table.replace(
            f"<tr><td><code>{_t(c['id'])}</code>",
            f'<tr class="{c["verdict"]}"><td><code>{_t(c["id"])}</code>',
            1,
        )
    summary = ", ".join(f"{n} {v}" for v, n in counts.items())
    return f"<h2>Gate verdict: the rulebook's claims</h2><p><b>{summary}</b></p>{table}"


def outcome_section(m: dict[str, Any], plots: dict[str, str]) -> str:
    o = m["outcome"]
    if not o.get("games"):
        return "<h2>Outcome</h2><p>No finished games.</p>"
    rows = [
        [f"#{i + 1}", _pct(r), f"{_pct(lo)} – {_pct(hi)}", s]
        for i, (r, (lo, hi), s) in enumerate(
            zip(
                o["win_rate_by_position"],
                o["wilson95_by_position"],
                o["mean_scores_by_position"],
                strict=True,
            )
        )
    ]
    return (
        "<h2>Outcome</h2>"
        + _what(
            "Win rate by turn position (1 = the seed's first player), 95% Wilson interval; "
            "first-seat advantage = position 1's rate minus the fair share; balance = 1 minus "
            "the largest gap between two positions (1 = perfectly even). Shared wins count "
            "as a fraction for each sharer."
        )
        + _table(["position", "win rate", "95% interval", "mean score"], rows)
        + f"<p>games {o['games']} · fair share {_pct(o['fair_share'])} · first-seat advantage "
        f"{o['first_seat_advantage']:+.1%} · balance {o['balance']:.3f} · shared wins "
        f"{o['shared_wins']} (seeds {_t(o['shared_seeds'])})</p>"
        + f"<p>Tie-break level that decided: {_t(o['tiebreak_levels'])}; seeds "
        f"{_t(o['tiebreak_seeds'])}</p>" + _img(plots, "win_rates", "win rate by position")
    )


QUANTILES = ("mean", "sd", "min", "p10", "median", "p90", "max")


def _dist_rows(length: dict[str, Any], keys: list[str]) -> list[list[Any]]:
    """One decimal is plenty for a game's length, and keeps the table phone-wide."""
    return [[k, *(f"{length[k][q]:.1f}".removesuffix(".0") for q in QUANTILES)] for k in keys]


def _box_text(box: dict[str, Any]) -> str:
    if not box:
        return "The rulebook states no playing time."
    groups: dict[str, list[str]] = {}
    for n, (lo, hi) in box["by_players"].items():
        groups.setdefault(f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}", []).append(n)
    stated = "; ".join(f"{', '.join(ns)}p: {r} min" for r, ns in groups.items())
    return (
        f"The rulebook states {stated} (shaded); its length claims accept a mean within "
        f"{box['tolerance']:.0%} of that (light band)."
    )


def length_section(report: dict[str, Any], plots: dict[str, str]) -> str:
    length = report["main"]["length"]
    tm = length["time_model"]
    players = report["settings"]["players"]
    return (
        "<h2>Length</h2>"
        + _what(
            f"Per game at {players} players. Minutes are estimated ({tm['source']}): a range "
            "of seconds per decision kind, forced moves and round overheads; setup excluded."
        )
        + _table(
            ["per game", *QUANTILES],
            _dist_rows(length, ["decisions", "turns", "rounds", "minutes"]),
        )
        + _what(
            "Histograms: every player count, as the share of its games in each bin (edges and "
            "counts in report.json under length.histograms). "
            + _box_text(report.get("box_minutes", {}))
        )
        + _img(plots, "length_minutes", "estimated minutes per game, by player count")
        + _img(plots, "length_decisions", "decisions per game, by player count")
    )


def _kv(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in d.items())


def decisions_section(m: dict[str, Any], plots: dict[str, str]) -> str:
    d = m["decisions"]
    rows = [
        [_t(k), v["decisions"], _pct(v["share"]), v["mean_branching"], _pct(v["forced_share"])]
        for k, v in d["by_kind"].items()
    ]
    return (
        "<h2>Decisions</h2>"
        + _what(
            "Branching = legal actions at a decision, by decision kind (phase). Forced = "
            "one legal action. A dead turn is a forced move that moved no card and changed "
            "no score."
        )
        + _table(["kind", "decisions", "share", "mean branching", "forced"], rows)
        + f"<p>overall branching {d['mean_branching']} · forced {_pct(d['forced_share'])} · dead "
        f"turns per game {d['dead_turns_per_game']} · games with a dead turn "
        f"{d['games_with_dead_turns']} (seeds {_t(d['dead_turn_seeds'])})</p>"
        + _img(plots, "branching", "branching per kind")
    )


def tension_section(m: dict[str, Any]) -> str:
    t = m["tension"]
    lc, wd = t["lead_changes"], t["winner_largest_deficit"]
    return (
        "<h2>Tension</h2>"
        + _what(
            "From scores() at every decision: how often the sole leader changed, and the "
            "most points the eventual winner ever trailed the best other seat by."
        )
        + f"<p>lead changes mean {lc['mean']} (median {lc['median']}, p90 {lc['p90']}); games "
        f"without a lead change {_pct(t['no_lead_change_share'])}</p>"
        + f"<p>winner's largest deficit mean {wd['mean']} (median {wd['median']}, max {wd['max']}); "
        f"winner ever behind in {_pct(t['winner_ever_behind_share'])} of games; biggest comeback "
        f"seed {_t(t['biggest_comeback_seed'])}</p>"
    )


def skill_section(report: dict[str, Any], plots: dict[str, str]) -> str:
    s = report.get("skill", {})
    if "cells" in s:
        items = "".join(f"<li>{_t(c['sentence'])}</li>" for c in s["cells"])
        return f"<h2>Skill vs luck</h2><ul>{items}</ul>"
    if "rows" not in s:
        return f"<h2>Skill vs luck</h2><p>{_t(s.get('skipped', 'not measured'))}</p>"
    rows = [
        [
            _t(r["agent"]),
            r["seats"],
            _pct(r["win_rate"]),
            f"{_pct(r['wilson95'][0])} – {_pct(r['wilson95'][1])}",
            r["rating"],
        ]
        for r in s["rows"]
    ]
    notes = (
        "".join(f"<li>{_t(n)}</li>" for n in s["notes"])
        or "<li>each stronger bot is clearly ahead</li>"
    )
    return (
        "<h2>Skill vs luck</h2>"
        + _what(
            "The bots' ladder (every agent in every seat on the same deals). If skill "
            "matters: random < greedy < ISMCTS."
        )
        + _table(["agent", "seats", "win rate", "95% interval", "rating"], rows)
        + f"<p>ordered as expected: <b>{'yes' if s['ordered'] else 'no'}</b> ({s['games']} games)</p>"
        + f"<ul>{notes}</ul>"
        + _img(plots, "ladder", "ladder")
    )


def content_section(m: dict[str, Any], plots: dict[str, str]) -> str:
    c = m["content"]
    rows = [
        [
            _t(name),
            _pct(v["acquired_in_games"]),
            v["seat_games"],
            v["mean_points"],
            _pct(v["acquirer_win_rate"]),
            f"{_pct(v['wilson95'][0])} – {_pct(v['wilson95'][1])}",
        ]
        for name, v in c["cards"].items()
    ]
    return (
        "<h2>Content</h2>"
        + _what(
            "Per card: share of games where some seat acquired it, points it brought its "
            "owner, and the win rate of seats that acquired it. Flagged when the 95% interval "
            "lies wholly 10 points above (strong) or below (weak) the fair share."
        )
        + _table(["card", "in games", "seat-games", "mean points", "acquirer win", "95%"], rows)
        + _img(plots, "content", "card win rates")
    )


def _side_table(rows: list[dict[str, Any]], key: str) -> str:
    body = [
        [
            _t(r[key]),
            r["games"],
            r["length"]["decisions"]["mean"],
            r["length"]["minutes"]["mean"],
            r["length"]["rounds"]["mean"],
            f"{r['outcome'].get('first_seat_advantage', 0):+.1%}",
            r["outcome"].get("balance", ""),
            r["tension"]["lead_changes"]["mean"],
            r["decisions"]["forced_share"],
            _t(r["ends"]["reasons"]),
        ]
        for r in rows
    ]
    head = [
        key,
        "games",
        "decisions",
        "est. min",
        "rounds",
        "first-seat adv.",
        "balance",
        "lead changes",
        "forced share",
        "end reasons",
    ]
    return _table(head, body)


def ends_section(m: dict[str, Any]) -> str:
    e = m["ends"]
    rows = [[_t(k), n, _t(e["seeds"].get(k, []))] for k, n in e["reasons"].items()]
    errs = [[_t(x["seed"]), x["index"], _t(x["error"])] for x in e["errors"]]
    return (
        "<h2>End reasons, stalls and errors</h2>"
        + _what("Each with seeds that replay the game: the seed is the game's own seed.")
        + _table(["end reason", "games", "example seeds"], rows)
        + (
            f"<p class='flag'>{e['error_count']} errors</p>"
            + _table(["seed", "index", "error"], errs)
            if errs
            else "<p>no errors</p>"
        )
    )


def render(report: dict[str, Any]) -> str:
    plots = all_plots(report)
    m = report["main"]
    s = report["settings"]
    parts = [
        f"<h1>{_t(report['title'])}: playtest report</h1>",
        f"<p>{s['games']} games, {s['players']} players, agents {_t(', '.join(s['agents']))}, options "
        f"{_t(s['options'])}, seed {s['seed']} · {report['games_played']} games played in "
        f"{report['elapsed_s']} s · generated {_t(report['generated_at'])}</p>",
        claims_section(report["claims"]),
        outcome_section(m, plots),
        length_section(report, plots),
        decisions_section(m, plots),
        tension_section(m),
        skill_section(report, plots),
        content_section(m, plots),
        "<h2>Player counts side by side</h2>",
        _side_table(report["player_counts"], "players"),
        _img(plots, "player_counts", "player counts"),
    ]
    if report.get("compare"):
        c = report["compare"]
        parts += [
            f"<h2>Option {_t(c['option'])} compared</h2>",
            _side_table(c["values"], "value"),
            _img(plots, "compare", "compare"),
            _img(plots, "compare_minutes", "estimated minutes per game by option value"),
        ]
    parts.append(ends_section(m))
    body = "\n".join(parts)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_t(report['title'])} report</title><style>{CSS}</style></head>"
        f"<body>{body}</body></html>"
    )
