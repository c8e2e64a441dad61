"""report.html: one self-contained page rendered from report.json by a Jinja2
template (templates/report.html): headline findings first, then the gate, then
each metric with a line saying what it means and the numbers behind it.

No HTML is built from f-strings here: this module only supplies the charts
(`plots.all_plots`), the ranked findings (`findings.headline_findings`) and small
formatting filters, so every value is escaped by the template engine and no Python
repr (a dict, a list, True/None) reaches the page."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from cardlab.lab.findings import headline_findings, is_simultaneous
from cardlab.lab.plots import all_plots
from cardlab.lab.replay import command

SEED_DIGITS = 10
"""Integers this long are seeds or hashes: shown as they are, never with separators."""


def fmt(value: Any) -> str:
    """A value as a person reads it: yes/no, a dash for nothing, numbers rounded,
    lists joined with commas (never a Python repr)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value) if abs(value) >= 10**SEED_DIGITS else f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, list | tuple):
        return ", ".join(fmt(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{human(k)} {fmt(v)}" for k, v in value.items()) or "none"
    return str(value)


def optval(value: Any) -> str:
    """A rule option's value as `-o name=value` takes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def human(key: Any) -> str:
    return str(key).replace("_", " ")


def pct(x: Any, digits: int = 1) -> str:
    if not isinstance(x, int | float):
        return "—"
    return f"{x:.{digits}%}"


def signed_pct(x: Any, digits: int = 1) -> str:
    if not isinstance(x, int | float):
        return "—"
    return f"{x:+.{digits}%}"


def ci(pair: Any, percent: bool = True) -> str:
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        return "—"
    if percent:
        return f"{pair[0]:.1%} – {pair[1]:.1%}"
    return f"{fmt(pair[0])} – {fmt(pair[1])}"


def metric(value: Any, unit: Any = "share") -> str:
    """An experience figure in its unit: a share as a percentage, else a number."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "—"
    return pct(value) if unit == "share" else fmt(float(value))


def is_table(value: Any) -> bool:
    """A list of dicts (rows): drawn as a table with one column per key."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def columns(rows: list[dict[str, Any]]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        cols.update(dict.fromkeys(r))
    return list(cols)


def replay_command(report_dir: Any, seed: Any) -> str:
    """`cardlab replay` for a main-run game of this report ("" when it has no directory)."""
    return command(report_dir, int(seed)) if report_dir and seed is not None else ""


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("cardlab.lab", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        fmt=fmt, optval=optval, human=human, pct=pct, signed_pct=signed_pct, ci=ci, metric=metric
    )
    env.tests.update(table=is_table)
    env.globals.update(columns=columns, replay_command=replay_command)
    return env


def render(report: dict[str, Any]) -> str:
    template = environment().get_template("report.html")
    return template.render(
        r=report,
        m=report["main"],
        s=report["settings"],
        plots=all_plots(report),
        findings=headline_findings(report),
        simultaneous=is_simultaneous(report),
        design=[c for c in report["claims"] if c.get("kind", "design") == "design"],
        invariants=[c for c in report["claims"] if c.get("kind") == "invariant"],
    )


def render_gate(games: list[dict[str, Any]]) -> str:
    """The lobby's gate page through the report page's environment (one rendering path,
    every value escaped). Each entry: {game, title, report (report.json or None), when,
    summary, claims: [{id, verdict, text, mark, css}]}."""
    return environment().get_template("gate.html").render(games=games)
