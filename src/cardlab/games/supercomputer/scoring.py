"""Scoring: the round score (S6, S7, S9), the public build race (S9 option 2),
the tie-break chain (S8), the bots' evaluation and the lab's summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.contract import break_ties

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState

TIE_BREAK_LEVELS = ("fewest_4way", "fewest_scrapped")
"""S8 after points: fewest 4-way parts attached over the game, then fewest scrapped."""


def settle_race(s: SuperComputerState) -> None:
    """S9 option 2, after every turn: a face-up build met by exactly one seat goes to
    that seat; met by two or more on the same turn, it is discarded."""
    t = s.tables
    for b in list(s.race_builds):
        who = [q for q in range(s.num_players) if t.met(b, s.computers[q])]
        if len(who) == 1:
            s.race_builds.remove(b)
            s.race_won[who[0]].append(b)
            s.log = s.log.push(("race_win", who[0], b))
        elif who:
            s.race_builds.remove(b)
            s.race_discard.append(b)
            s.log = s.log.push(("race_tie", b, tuple(who)))


def build_points(s: SuperComputerState, q: int) -> tuple[int, list[tuple[str, int, bool]]]:
    """Points from builds this round for seat q, with (build name, points, met) lines."""
    t, r = s.tables, s.round_index
    if s.game.build_mode == "public_race":  # only won builds score; no penalties
        lines = [(t.build_names[b], t.bonus[b][r], True) for b in s.race_won[q]]
        return sum(p for _, p, _ in lines), lines
    kept = s.kept_builds[q]
    mets = [t.met(b, s.computers[q]) for b in kept]
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
    t, r = s.tables, s.round_index
    names, green_points, red_points = t.part_names, t.green, t.red
    for q in range(s.num_players):
        attached = tuple([(names[k], green_points[k][r]) for k in s.computers[q].values()])
        scrapped = tuple([(names[k], red_points[k][r]) for k in s.scrap_piles[q]])
        bpts, blines = build_points(s, q)
        builds = tuple(blines)
        green = sum([p for _, p in attached])
        red = sum([p for _, p in scrapped])
        s.points[q] = s.points[q] + (green + red + bpts)
        # Copy on write: clones share `round_records` (it changes once a round).
        s.round_records = [*s.round_records, (r, q, attached, scrapped, builds)]
        s.log = s.log.push(("score", q, r, green, red, bpts, builds, attached, scrapped))
        s.revealed_builds[q] = s.kept_builds[q]
        s.kept_builds[q] = []


def round_value(s: SuperComputerState, q: int) -> float:
    """Seat q's current round, valued as if it ended well: attached green, scrap red,
    the pending part, build progress, and a little for open connectors (room to grow)."""
    r = s.round_index
    if r < 0 or s.is_terminal():
        return 0.0
    columns = s.columns  # typed (state.SuperComputerColumns): compiled, field reads
    grid = s.computers[q]
    green, red = columns.green, columns.red
    v = 0.0
    for k in grid.values():
        v += green[k][r]
    for k in s.scrap_piles[q]:
        v += red[k][r]
    in_play = s.part_in_play(q)
    if in_play is not None:
        v += green[in_play][r] if s.fits(q, in_play) else red[in_play][r]
    parts = list(grid.values())
    if in_play is not None:
        parts.append(in_play)
    bonus = columns.bonus
    if columns.public_race:
        t = s.tables
        for b in s.race_won[q]:
            v += bonus[b][r]
        for b in s.race_builds:
            v += 0.3 * bonus[b][r] * t.progress(b, parts)
    else:
        have = 0
        distinct = True  # no part twice (have.bit_count() == len(parts), without the call)
        for k in parts:
            bit = 1 << k
            if have & bit:
                distinct = False
            have |= bit
        penalty, masks = columns.penalty, columns.requirement_masks
        for b in s.kept_builds[q] or s.build_offers[q][:1]:
            p = _progress_of_set(masks[b], have) if distinct else s.tables.progress(b, parts)
            lo, hi = penalty[b][r], bonus[b][r]
            # float(hi): the same sum as `v + hi`, with one type for the compiled build
            v += float(hi) if p >= 1.0 else lo + (hi - lo) * 0.7 * p
    return v + 0.25 * min(s.open_connectors(q), 8)


def _progress_of_set(requirement_masks: tuple[tuple[int, int], ...], have: int) -> float:
    """`t.progress(build, parts)` for parts that are all different, given as the bit
    mask `have` and the build's `requirement_masks`: the same counts (a popcount per
    requirement instead of a loop over the parts), so the same float."""
    need = got = 0
    for mask, count in requirement_masks:
        need += count
        x = have & mask
        n = 0  # x.bit_count() counted bit by bit (a few bits; compiled, no method call)
        while x:
            x &= x - 1
            n += 1
        got += count if n > count else n
    return got / need if need else 1.0


def progress(s: SuperComputerState) -> list[float]:
    """Each seat's banked points plus the value of its computer this round (bots
    compare them: the core's heuristic_value is own minus the best other seat's)."""
    return [float(s.points[q] + round_value(s, q)) for q in range(s.num_players)]


def winners(s: SuperComputerState) -> tuple[list[int], str | None]:
    """S8: most points; then fewest 4-way parts attached over the game; then fewest
    scrapped; then shared. Returns the winners and the level that decided (None if points)."""
    keys = [
        (s.points[q], -s.four_way_attached[q], -s.scrapped_count[q]) for q in range(s.num_players)
    ]
    result = break_ties(keys, TIE_BREAK_LEVELS)
    return result.winners, result.level


def info(s: SuperComputerState) -> dict[str, Any]:
    """The lab's summary (the shared keys plus this game's own)."""
    acquired: list[list[str]] = [[] for _ in range(s.num_players)]
    card_points: list[dict[str, int]] = [{} for _ in range(s.num_players)]
    builds_met = [0] * s.num_players
    for _r, q, attached, scrapped, blines in s.round_records:
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
    over = s.is_terminal()
    return {
        "end_reason": "three_rounds" if over else "running",
        "tiebreak": winners(s)[1] if over else None,
        "rounds": s.round_index + 1,
        "turns": s.round_index * 7 + s.turn if not over else 21,
        "decisions": len(s.moves),
        "acquired": acquired,
        "card_points": card_points,
        "scrapped": s.scrapped_count[:],
        "four_way_attached": s.four_way_attached[:],
        "builds_met": builds_met,
        "picks": s.picks_made[:],
    }
