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
plays the report's seats on the same game seeds and seating as the unchanged cards,
and reads the difference game by game: the holders' win share and
score with the change minus without it in the same game, with a 95% paired interval
(`paired.paired_diff`; the deal's luck cancels). The rows are Holm-adjusted together,
ranked (controlled first, by effect size), and each carries the games a 5-point change
in its holders' win rate would need (80% power, 5% two-sided, from its paired spread).
The rows that are not controlled are "too small to tell", folded into one line naming
their cards.
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
from cardlab.lab.paired import ALPHA, CHANGE, games_for_change, holm, paired_diff
from cardlab.lab.simulate import GameRecord, lab_hooks


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
        rows.append(experiment_row(ab, base.records, run.records, games, str(path)))
    rank(rows)
    return {
        "method": (
            f"Each row changes one card (or card kind) in the card file and replays the same "
            f"{games} game seeds with the same seats ({', '.join(ctx.agents)}), so each game is "
            "compared with itself: the difference is the mean, over the games where both arms "
            "have a holder, of the holders' win share with the change minus without it (95% "
            "paired interval). Holders are the seats that acquired the card, unless a row "
            "names other holders (e.g. the seats dealt it). The rows' p-values are "
            "Holm-adjusted together (family-wise 5%): only a controlled row is read as an "
            "effect; the rest are too small to tell at this many games, and each says how "
            "many games a 5-point change would need."
        ),
        "games": games,
        "source_cards": str(source),
        "correction": "Holm (family-wise 5%) over the rows' holder win-share differences",
        "ablations": rows,
        "too_small": too_small_line(rows, games),
        "extra": getattr(hooks, "ABLATION_NOTE", ""),
    }


def _holder_seats(
    r: GameRecord,
    holders: frozenset[str],
    holder_seats: Callable[[GameRecord], Collection[int]] | None,
) -> list[int]:
    if holder_seats is not None:
        return sorted(set(holder_seats(r)))
    return [seat for seat, cards in enumerate(r.acquired) if holders & set(cards)]


def paired_holders(
    base: Sequence[GameRecord],
    changed: Sequence[GameRecord],
    holders: frozenset[str],
    holder_seats: Callable[[GameRecord], Collection[int]] | None = None,
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Per game index finished in both arms with a holder in both: the holders' mean win
    share and mean score, without the change (a) and with it (b)."""
    a = {r.index: r for r in finished(base)}
    b = {r.index: r for r in finished(changed)}
    wa: list[float] = []
    wb: list[float] = []
    sa: list[float] = []
    sb: list[float] = []
    for i in sorted(set(a) & set(b)):
        ha = _holder_seats(a[i], holders, holder_seats)
        hb = _holder_seats(b[i], holders, holder_seats)
        if not ha or not hb:
            continue
        for rec, seats, win, score in ((a[i], ha, wa, sa), (b[i], hb, wb, sb)):
            win.append(statistics.fmean(_share(rec, s) for s in seats))
            score.append(statistics.fmean(rec.scores[s] for s in seats))
    return wa, wb, sa, sb


def _share(r: GameRecord, seat: int) -> float:
    return 1 / len(r.winners) if seat in r.winners else 0.0


def experiment_row(
    ab: Ablation,
    base: Sequence[GameRecord],
    changed: Sequence[GameRecord],
    games: int,
    path: str,
) -> dict[str, Any]:
    """One card experiment read game by game (paired), with its power line."""
    a = holder_figures(base, ab.holders, ab.holder_seats)
    b = holder_figures(changed, ab.holders, ab.holder_seats)
    a.pop("holder_scores")
    b.pop("holder_scores")
    wa, wb, sa, sb = paired_holders(base, changed, ab.holders, ab.holder_seats)
    win = paired_diff(wa, wb)
    score = paired_diff(sa, sb)
    pairs = len(wa)
    need = games_for_change(win["sd"], CHANGE)
    # paired games needed, scaled to run games (not every game has a holder in both arms)
    need_games = None if need is None or not pairs else math.ceil(need * games / pairs)
    row: dict[str, Any] = {
        "label": ab.label,
        "change": ab.change,
        "holders": ab.holders_are or "seats that acquired " + " or ".join(sorted(ab.holders)),
        "cards": path,
        "base": a,
        "changed": b,
        "paired_games": pairs,
        "holder_win_rate_delta": win["mean"],
        "holder_win_rate_delta_ci95": win["ci95"],
        "holder_score_delta": score["mean"],
        "holder_score_delta_ci95": score["ci95"] if pairs > 1 else [None, None],
        "p": win["p"],
        "sd": win["sd"],
        "effect_size": round(abs(win["mean"]) / win["sd"], 4) if win["sd"] else 0.0,
        "games_for_5_points": need_games,
        "first_seat_advantage_delta": round(
            b["first_seat_advantage"] - a["first_seat_advantage"], 4
        ),
    }
    lo, hi = win["ci95"]
    row["sentence"] = (
        f"{ab.change}: its holders' win share moves {win['mean']:+.1%} game by game "
        f"(95% {lo:+.1%} to {hi:+.1%}, {pairs} paired games; over all games its holders "
        f"win {_p(a['holder_win_rate'])} as is, {_p(b['holder_win_rate'])} changed)"
    )
    everyone = held_by_all(base, changed, ab.holders, ab.holder_seats)
    row["held_by_every_seat"] = everyone
    if pairs < 2:
        row["reading"] = "never acquired in these games"
    elif everyone >= EVERYONE_HOLDS:
        # the holders' mean win share is then 1/players whatever the change does
        row["reading"] = "held by every seat: its holders' win rate cannot move"
        row["games_for_5_points"] = None
    return row


EVERYONE_HOLDS = 0.9
"""A card every seat holds in this share of the paired games is not read on win rate."""


def held_by_all(
    base: Sequence[GameRecord],
    changed: Sequence[GameRecord],
    holders: frozenset[str],
    holder_seats: Callable[[GameRecord], Collection[int]] | None = None,
) -> float:
    """Share of the games finished in both arms where every seat holds the card in both."""
    a = {r.index: r for r in finished(base)}
    b = {r.index: r for r in finished(changed)}
    common = sorted(set(a) & set(b))
    if not common:
        return 0.0
    full = sum(
        len(_holder_seats(a[i], holders, holder_seats)) == a[i].players
        and len(_holder_seats(b[i], holders, holder_seats)) == b[i].players
        for i in common
    )
    return round(full / len(common), 4)


def rank(rows: list[dict[str, Any]]) -> None:
    """Holm-adjust the rows' p-values together, read each, and sort in place: controlled
    rows first by effect size, then the rest by effect size, errors last."""
    tested = [r for r in rows if "error" not in r and "reading" not in r]
    for row, p in zip(tested, holm([r["p"] for r in tested]), strict=True):
        row["p_holm"] = round(p, 6)
        row["p"] = round(row["p"], 6)
        row["controlled"] = p < ALPHA
        row["reading"] = "clear effect" if p < ALPHA else "too small to tell"
    rows.sort(
        key=lambda r: (
            "error" in r,
            not r.get("controlled", False),
            -r.get("effect_size", 0.0),
        )
    )


def too_small_line(rows: Sequence[dict[str, Any]], games: int) -> str:
    """The uncontrolled rows folded into one line naming their cards."""
    small = [r for r in rows if r.get("reading") == "too small to tell"]
    never = [r["label"] for r in rows if r.get("reading") == "never acquired in these games"]
    everyone = [r["label"] for r in rows if str(r.get("reading", "")).startswith("held by every")]
    parts = []
    if small:
        needs = [r["games_for_5_points"] for r in small if r.get("games_for_5_points")]
        span = (
            f"{min(needs):,}"
            if needs and min(needs) == max(needs)
            else (f"{min(needs):,}-{max(needs):,}" if needs else "")
        )
        price = f"; a 5-point change would show at about {span} games" if needs else ""
        names = ", ".join(r["label"] for r in small)
        parts.append(f"too small to tell at {games} games: {names}{price}")
    if never:
        parts.append(f"never held in these games: {', '.join(never)}")
    if everyone:
        parts.append(
            f"held by every seat, so their holders' win rate cannot move (read their "
            f"holders' score in the table): {', '.join(everyone)}"
        )
    return "; ".join(parts)


def _p(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"
