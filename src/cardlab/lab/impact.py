"""Card impact by experiment: change one card (or card kind), replay the same seeds.

The correlation table ("seats that bought X won Y%") cannot say whether X helps: in
a stalled game decided by a tie-break, buying anything "wins". An ablation can. Each
game's lab hooks (its `claims` module) declare `ablations(data)`: for the parsed card
file, a list of `Ablation`s, each a small change to the card numbers (a Deal's score
shifted, a Computer's points lowered, a copy removed) and the card names whose
holders (seats that acquired one) the change concerns. A card nobody acquires (one
dealt at set-up, like RUNWAY's Capital) names its holders with `holder_seats`, a
function of the game record that must not depend on the change (e.g. the seats
dealt the card from the game's seed), and says who they are in `holders_are`.

For each ablation the lab writes the changed card file (replayable with `--cards`),
plays the report's seats on the same game seeds as the unchanged cards, and compares
the holders' win rate and score, and the first-seat advantage, with 95% intervals
(Newcombe's interval for a difference of two proportions; Welch's for means). Only
an interval that excludes 0 is read as an effect; otherwise "no clear effect".
"""

from __future__ import annotations

import copy
import math
import re
import statistics
import tomllib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.core import CardlabError
from cardlab.core.variants import CardChange, apply_change
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import finished, outcome
from cardlab.lab.simulate import GameRecord, lab_hooks
from cardlab.lab.stats import Z95, wilson


@dataclass(frozen=True)
class Ablation:
    label: str
    change: str
    """The change in words ("score 5 -> 4")."""
    holders: frozenset[str]
    """Card names in `info()["acquired"]` that make a seat a holder."""
    changes: tuple[CardChange, ...]
    holder_seats: Callable[[GameRecord], Collection[int]] | None = None
    """When holding is not acquiring: the holder seats of one game (used instead of
    `holders`); the same seats with and without the change, so the rates compare."""
    holders_are: str = ""
    """Who the holders are, in words (default: the seats that acquired the card)."""


def card_file(ctx: LabContext) -> Path:
    """The card file the report plays (the `--cards` file, else the packaged one)."""
    if ctx.cards:
        return Path(ctx.cards)
    return ctx.info.package_dir() / "cards.toml"


def newcombe(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float, float]:
    """p2 - p1 and its 95% interval (Newcombe's hybrid score interval)."""
    p1, p2 = k1 / max(1, n1), k2 / max(1, n2)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return (
        d,
        d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
        d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2),
    )


def welch(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """mean(b) - mean(a) with a Welch 95% interval (nan-free for tiny samples)."""
    if len(a) < 2 or len(b) < 2:
        return 0.0, -math.inf, math.inf
    d = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d, d - Z95 * se, d + Z95 * se


def holder_figures(
    records: Sequence[GameRecord],
    holders: frozenset[str],
    holder_seats: Callable[[GameRecord], Collection[int]] | None = None,
) -> dict[str, Any]:
    wins = 0.0
    seats = 0
    scores: list[float] = []
    for r in finished(records):
        if holder_seats is not None:
            chosen = set(holder_seats(r))
            held = [seat in chosen for seat in range(r.players)]
        else:
            held = [bool(holders & set(cards)) for cards in r.acquired]
        for seat, holder in enumerate(held):
            if holder:
                seats += 1
                scores.append(r.scores[seat])
                if seat in r.winners:
                    wins += 1 / len(r.winners)
    return {
        "holder_seats": seats,
        "holder_wins": round(wins, 3),
        "holder_win_rate": round(wins / seats, 4) if seats else None,
        "holder_scores": scores,
        "first_seat_advantage": outcome(records).get("first_seat_advantage", 0.0),
    }


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def card_impact(ctx: LabContext, out_dir: Path | None) -> dict[str, Any]:
    """Run every declared ablation (or say why none ran)."""
    hooks = lab_hooks(ctx.game)
    declare = getattr(hooks, "ablations", None)
    if ctx.ablation_games <= 0:
        return {"skipped": "card experiments turned off (--ablation-games 0)"}
    if declare is None:
        return {"skipped": f"{ctx.game} declares no card experiments (ablations)"}
    if out_dir is None:
        return {"skipped": "card experiments need an output directory for their card files"}
    source = card_file(ctx)
    data = tomllib.loads(source.read_text())
    ablations: list[Ablation] = list(declare(data))
    import tomli_w

    folder = out_dir / "ablations"
    folder.mkdir(parents=True, exist_ok=True)
    games = ctx.ablation_games
    base = ctx.run(label=f"{ctx.game} ablation baseline", games=games)
    rows: list[dict[str, Any]] = []
    for ab in ablations:
        changed = copy.deepcopy(data)
        for change in ab.changes:
            apply_change(changed, change)
        path = folder / f"{_slug(ab.label)}.toml"
        path.write_text(
            f"# {ctx.game} cards with one change for a card-impact experiment: {ab.change}\n"
            + tomli_w.dumps(changed)
        )
        try:
            run = ctx.run(label=f"{ctx.game} changed {ab.label}", games=games, cards=str(path))
        except CardlabError as exc:  # the change breaks the card file's own checks
            rows.append({"label": ab.label, "change": ab.change, "error": str(exc)})
            continue
        a = holder_figures(base.records, ab.holders, ab.holder_seats)
        b = holder_figures(run.records, ab.holders, ab.holder_seats)
        d, lo, hi = newcombe(
            a["holder_wins"], a["holder_seats"], b["holder_wins"], b["holder_seats"]
        )
        sd, slo, shi = welch(a.pop("holder_scores"), b.pop("holder_scores"))
        clear = a["holder_seats"] and b["holder_seats"] and (lo > 0 or hi < 0)
        reading = "clear effect" if clear else "no clear effect"
        if not a["holder_seats"] or not b["holder_seats"]:
            reading = "never acquired in these games"
        rate_a, rate_b = a["holder_win_rate"], b["holder_win_rate"]
        sentence = (
            f"{ab.change}: its holders' win rate goes from "
            f"{_p(rate_a)} to {_p(rate_b)} ({d:+.1%}, 95% {lo:+.1%} to {hi:+.1%})"
        )
        rows.append(
            {
                "label": ab.label,
                "change": ab.change,
                "holders": ab.holders_are
                or "seats that acquired " + " or ".join(sorted(ab.holders)),
                "cards": str(path),
                "base": a,
                "changed": b,
                "holder_win_rate_delta": round(d, 4),
                "holder_win_rate_delta_ci95": [round(lo, 4), round(hi, 4)],
                "holder_score_delta": round(sd, 3),
                "holder_score_delta_ci95": [round(slo, 3), round(shi, 3)]
                if math.isfinite(slo)
                else [None, None],
                "first_seat_advantage_delta": round(
                    b["first_seat_advantage"] - a["first_seat_advantage"], 4
                ),
                "reading": reading,
                "sentence": sentence,
            }
        )
    return {
        "method": (
            f"Each row changes one card (or card kind) in the card file and replays the same "
            f"{games} game seeds with the same seats ({', '.join(ctx.agents)}). Holders are the "
            "seats that acquired the card, unless a row names other holders (e.g. the seats "
            "dealt it). An effect is read only when the 95% interval of the difference "
            "excludes 0."
        ),
        "games": games,
        "source_cards": str(source),
        "ablations": rows,
        "extra": getattr(hooks, "ABLATION_NOTE", ""),
    }


def _p(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"
