"""Scoring: the round score (S6, S7, S9), the public build race (S9 option 2),
the tie-break chain (S8), the bots' evaluation and the lab's summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState

CHOOSE_ONE, KEEP_BOTH, PUBLIC_RACE = 0, 1, 2


def settle_race(s: SuperComputerState) -> None:
    """S9 option 2, after every turn: a face-up build met by exactly one seat goes to
    that seat; met by two or more on the same turn, it is discarded."""
    t = s.t
    for b in list(s.race):
        who = [q for q in range(s.n) if t.met(b, s.grids[q])]
        if len(who) == 1:
            s.race.remove(b)
            s.race_won[who[0]].append(b)
            s.log.append(("race_win", who[0], b))
        elif who:
            s.race.remove(b)
            s.race_gone.append(b)
            s.log.append(("race_tie", b, tuple(who)))


def build_points(s: SuperComputerState, q: int) -> tuple[int, list[tuple[str, int, bool]]]:
    """Points from builds this round for seat q, with (build name, points, met) lines."""
    t, r = s.t, s.rnd
    mode = s.game.build_mode
    if mode == PUBLIC_RACE:  # only won builds score; no penalties
        lines = [(t.build_names[b], t.bonus[b][r], True) for b in s.race_won[q]]
        return sum(p for _, p, _ in lines), lines
    kept = s.kept[q]
    mets = [t.met(b, s.grids[q]) for b in kept]
    if all(mets):  # S6 (and S9 option 1: both must be met for the bonus)
        lines = [(t.build_names[b], t.bonus[b][r], True) for b in kept]
    else:  # each unmet build's penalty; a met one earns nothing without the other
        lines = [
            (t.build_names[b], 0 if m else t.penalty[b][r], m)
            for b, m in zip(kept, mets, strict=True)
        ]
    return sum(p for _, p, _ in lines), lines


def score_round(s: SuperComputerState) -> None:
    """S6: green[r] of attached + red[r] of scrap + build bonus or penalty; builds revealed."""
    t, r = s.t, s.rnd
    for q in range(s.n):
        attached = [(t.names[k], t.green[k][r]) for k in s.grids[q].values()]
        scrapped = [(t.names[k], t.red[k][r]) for k in s.scrap[q]]
        bpts, blines = build_points(s, q)
        green = sum(p for _, p in attached)
        red = sum(p for _, p in scrapped)
        s.score[q] += green + red + bpts
        # Copy on write: clones share `records` (it changes once a round).
        s.records = [*s.records, (r, q, tuple(attached), tuple(scrapped), tuple(blines))]
        s.log.append(
            ("score", q, r, green, red, bpts, tuple(blines), tuple(attached), tuple(scrapped))
        )
        s.shown[q] = s.kept[q]
        s.kept[q] = []


def round_value(s: SuperComputerState, q: int) -> float:
    """Seat q's current round, valued as if it ended well: attached green, scrap red,
    the pending part, build progress, and a little for open connectors (room to grow)."""
    t, r = s.t, s.rnd
    if r < 0 or s.phase == 3:
        return 0.0
    grid = s.grids[q]
    green = t.green
    v = 0.0
    for k in grid.values():
        v += green[k][r]
    for k in s.scrap[q]:
        v += t.red[k][r]
    k = s.picks[q] if s.picks[q] >= 0 else s.placing[q]
    if k >= 0:
        v += green[k][r] if s.legal_cells(q, k) else t.red[k][r]
    parts = list(grid.values())
    if k >= 0:
        parts.append(k)
    if s.game.build_mode == PUBLIC_RACE:
        for b in s.race_won[q]:
            v += t.bonus[b][r]
        for b in s.race:
            v += 0.3 * t.bonus[b][r] * t.progress(b, parts)
    else:
        for b in s.kept[q] or s.offer[q][:1]:
            p = t.progress(b, parts)
            lo, hi = t.penalty[b][r], t.bonus[b][r]
            v += hi if p >= 1.0 else lo + (hi - lo) * 0.7 * p
    return v + 0.25 * min(s.open_connectors(q), 8)


def progress(s: SuperComputerState) -> list[float]:
    """Each seat's banked points plus the value of its computer this round (bots
    compare them: the core's heuristic_value is own minus the best other seat's)."""
    return [float(s.score[q] + round_value(s, q)) for q in range(s.n)]


def winners(s: SuperComputerState) -> tuple[list[int], str | None]:
    """S8: most points; then fewest 4-way parts attached over the game; then fewest
    scrapped; then shared. Returns the winners and the level that decided (None if points)."""
    best = max(s.score)
    tied = [q for q in range(s.n) if s.score[q] == best]
    if len(tied) == 1:
        return tied, None
    fewest = min(s.fourway[q] for q in tied)
    four = [q for q in tied if s.fourway[q] == fewest]
    if len(four) == 1:
        return four, "fewest_4way"
    fewest = min(s.scrapped[q] for q in four)
    scr = [q for q in four if s.scrapped[q] == fewest]
    if len(scr) == 1:
        return scr, "fewest_scrapped"
    return scr, "shared"


def info(s: SuperComputerState) -> dict[str, Any]:
    """The lab's summary (the shared keys plus this game's own)."""
    acquired: list[list[str]] = [[] for _ in range(s.n)]
    card_points: list[dict[str, int]] = [{} for _ in range(s.n)]
    builds_met = [0] * s.n
    for _r, q, attached, scrapped, blines in s.records:
        pts = card_points[q]
        for name, p in attached:
            acquired[q].append(name)
            pts[name] = pts.get(name, 0) + p
        for name, p in scrapped:
            pts[name] = pts.get(name, 0) + p
        for name, p, met in blines:
            if met:
                acquired[q].append(name)
                builds_met[q] += 1
            pts[name] = pts.get(name, 0) + p
    over = s.phase == 3
    return {
        "end_reason": "three_rounds" if over else "running",
        "tiebreak": winners(s)[1] if over else None,
        "rounds": s.rnd + 1,
        "turns": s.rnd * 7 + s.turn if not over else 21,
        "decisions": len(s.hist),
        "acquired": acquired,
        "card_points": card_points,
        "scrapped": s.scrapped[:],
        "four_way_attached": s.fourway[:],
        "builds_met": builds_met,
        "picks": s.picks_made[:],
    }
