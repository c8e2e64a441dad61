"""summary.md: a short, diffable digest of a report (claims and key figures).

Lines are stable in order and rounding so `git diff` between two rule
versions shows only what changed; with a baseline report.json, each figure
also shows its delta and each claim whose verdict changed is marked."""

from __future__ import annotations

from typing import Any

from cardlab.lab.findings import is_simultaneous


def _fmt(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _opt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def files_line(s: dict[str, Any]) -> str:
    """The variant and card file a report played, each by name and sha256."""
    variant = (
        f"variant {s['variant']} (sha256 {s.get('variant_sha256', '')})"
        if s.get("variant")
        else "variant none (as written)"
    )
    cards = (
        f"cards {s['cards']} (sha256 {s.get('cards_sha256', '')})"
        if s.get("cards")
        else "cards packaged"
    )
    return f"{variant} · {cards}"


def _compare_lines(report: dict[str, Any]) -> list[str]:
    """A paired comparison opens the summary: the changed thing's own effect (the
    primary test) with its interval and unit, whether or not it clears, and the power
    line of that test; a sequential run says whether it stopped resolved or at its
    budget; then the exploratory figures that cleared their own correction."""
    out = []
    cmp = report.get("compare") or {}
    pairs = list(cmp.get("paired", []))
    if report.get("baseline_paired"):
        pairs.append(report["baseline_paired"])
    if cmp.get("sequential"):
        out += [f"**{cmp['sequential']['sentence']}.**", ""]
    for pair in pairs:
        if "skipped" in pair:
            out += [f"Baseline: {pair['skipped']}.", ""]
            continue
        if pair.get("primary"):
            out += [
                f"**Primary test: {pair['primary']['sentence']}.** Power: {pair['power']['text']}."
            ]
            if pair.get("primary_unmeasured"):
                out.append(
                    f"Not measured (no paired game): {', '.join(pair['primary_unmeasured'])}."
                )
            out += [f"Exploratory figures: {pair['exploratory_line']}.", ""]
        else:
            out += [f"**{pair['opening']}.** {pair['power']['text']}.", ""]
    return out


def run_named(report: dict[str, Any]) -> str:
    """Which run the header, key figures and strategy describe beside a comparison."""
    return str((report.get("compare") or {}).get("main_run", ""))


def _key_run(report: dict[str, Any]) -> str:
    if not report.get("compare"):
        return ""
    arm = "under arm " in run_named(report)
    return " (the rules of one arm, its own games)" if arm else " (not an arm of the comparison)"


def strategy_lines(st: dict[str, Any]) -> list[str]:
    """The strategy section in a few lines: the dominant persona (flagged first), each
    persona's win rate and main point source, margins, runaway leader, comebacks."""
    if not st.get("games"):
        return []
    p = st["personas"]
    fewest = (
        " Fewest points win: the points are penalties."
        if st.get("score_direction") == "lowest"
        else ""
    )
    out = ["", "## Strategy", "", f"From the main run ({st['games']} games).{fewest}", ""]
    gap = (p.get("skill_gap") or {}).get("sentence")
    out.append(
        f"**Dominant strategy: {p['sentence']}.**"
        if p.get("dominant")
        else f"No strategy dominates among bots of one strength. Skill gap: {gap}."
        if gap
        else "No persona dominates (no win-rate interval above every other's and fair share)."
    )
    for row in p["rows"]:
        src = ", ".join(f"{k} {v:.3g}" for k, v in row["points_by_source"].items())
        lo, hi = row["wilson95"]
        out.append(
            f"- {row['who']}: wins {row['rate']:.1%} [{lo:.1%}, {hi:.1%}] of {row['n']} "
            f"seat-games; mean points {row['mean_score']:.3g} ({src or 'no final table'})"
        )
    m, cb = st["margins"], st["comebacks"]
    out.append(
        f"- margin of victory: mean {m['mean']:.3g}, median {m['median']:.3g}, "
        f"p90 {m['p90']:.3g}; comebacks {cb['comebacks']}/{cb['games']}"
    )
    if st["runaway"]:
        first = st["runaway"][0]
        out.append(
            f"- runaway leader: the sole leader after round {first['round']} wins "
            f"{first['rate']:.1%} [{first['wilson95'][0]:.1%}, {first['wilson95'][1]:.1%}]"
        )
    km = st.get("kingmaking", {})
    if km.get("moves_tried"):
        out.append(
            f"- kingmaking: {km['moves_changing_winner']} of {km['moves_tried']} moves of a "
            f"seat out of contention, played differently, changed the winner "
            f"({km['games_sampled']} games sampled)"
        )
    return out


def impact_lines(impact: dict[str, Any]) -> list[str]:
    """Card impact: the controlled experiments ranked, then one line for the rest."""
    if not impact.get("ablations"):
        return [f"Card impact: {impact.get('skipped', 'not run')}"]
    clear = [a for a in impact["ablations"] if a.get("reading") == "clear effect"]
    out = [
        f"Card impact ({impact['games']} paired games, Holm-controlled over "
        f"{len(impact['ablations'])} experiments): "
        + (
            f"{len(clear)} moved their holders' win rate beyond chance, ranked"
            if clear
            else "no card change moved its holders' win rate beyond chance"
        )
    ]
    for i, a in enumerate(clear, start=1):
        lo, hi = a["holder_win_rate_delta_ci95"]
        out.append(
            f"{i}. {a['label']}: holders' win share {a['holder_win_rate_delta']:+.1%} "
            f"[{lo:+.1%}, {hi:+.1%}], Holm p {a['p_holm']:.2g}"
        )
    if impact.get("too_small"):
        out.append(impact["too_small"][0].upper() + impact["too_small"][1:])
    return out


def render(report: dict[str, Any], baseline: dict[str, Any] | None = None) -> str:
    s = report["settings"]
    lines = [
        f"# {report['title']} — playtest summary",
        "",
        f"{s['games']} games · {s['players']} players · agents {', '.join(s['agents'])} · "
        f"seed {s['seed']} · options "
        + (", ".join(f"{k}={_opt(v)}" for k, v in s["options"].items()) or "none")
        + f" · {files_line(s)}",
        "",
        *_compare_lines(report),
        *([f"_Which run: {run_named(report)}._", ""] if run_named(report) else []),
        "## Claims",
        "",
        "| claim | kind | verdict |" + (" baseline |" if baseline else ""),
        "|---|---|---|" + ("---|" if baseline else ""),
    ]
    old_claims = {c["id"]: c["verdict"] for c in (baseline or {}).get("claims", [])}
    for c in report["claims"]:
        verdict = c["verdict"]
        if c.get("with_rulings"):
            ruled = c["with_rulings"]
            verdict += f" as written; {ruled['verdict']} with {', '.join(ruled['rulings'])}"
        row = f"| {c['id']} | {c.get('kind', 'design')} | {verdict} |"
        if baseline:
            old = old_claims.get(c["id"], "—")
            row += f" {old}{' **changed**' if old != c['verdict'] else ''} |"
        lines.append(row)
    main_games = report["main"].get("outcome", {}).get("games", s["games"])
    lines += [
        "",
        "## Key figures",
        "",
        f"From the main run{_key_run(report)}: {main_games} finished {s['players']}-player games"
        + (
            "; decisions are simultaneous, so first_seat_advantage and win_rate_position_N "
            "read the engine's resolution order (position 1 resolved first), not a turn "
            "order players feel at the table"
            if is_simultaneous(report)
            else ""
        )
        + ".",
        "",
    ]
    old_head = (baseline or {}).get("headline", {})
    lines.append("| figure | value |" + (" baseline | delta |" if baseline else ""))
    lines.append("|---|---:|" + ("---:|---:|" if baseline else ""))
    for key, value in report["headline"].items():
        row = f"| {key} | {_fmt(value)} |"
        if baseline:
            old = old_head.get(key)
            delta = f"{value - old:+.4g}" if isinstance(old, int | float) else "—"
            row += f" {_fmt(old) if old is not None else '—'} | {delta} |"
        lines.append(row)
    lines += strategy_lines(report.get("strategy") or {})
    skill = report.get("skill", {})
    for cell in skill.get("cells", []):
        lines += ["", f"Skill: {cell['sentence']}"]
    if skill.get("why_not"):
        again = skill.get("replay_command") or skill.get("replay")
        replay = f"; replay: {again}" if again else ""
        lines += ["", f"Skill: no verdict: {skill['why_not']}{replay}"]
    lines += ["", *impact_lines(report.get("card_impact", {})), ""]
    return "\n".join(lines)
