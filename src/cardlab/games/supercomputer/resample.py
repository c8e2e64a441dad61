"""Resampling (`resample_from_infostate`): redeal what a seat cannot see,
consistently with what it knows (view.py: a seat saw every hand it held).

The redeal depends only on the seat's knowledge and the seed: unseen pools are
sorted before shuffling, so a bot cannot decide differently in two worlds it
cannot tell apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.rng import seeded, shuffle

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState

CHOOSE_BUILD, PICK, OVER = 0, 1, 3
"""The phases (state.py's constants; state.py imports this module)."""


def resample(s: SuperComputerState, p: int, seed: int) -> SuperComputerState:
    """Redeal what p cannot see, consistently with what p knows; re-seed the RNG."""
    rng = seeded(seed)  # random.Random(seed), made cheaper
    c = s.clone()
    n = s.num_players
    pool = list(s.part_deck)
    unknown = []
    for q in range(n):
        if q == p:
            continue
        if s.hand_knowers[q] >> p & 1:  # view.knows(s, p, q), inline (compiled: a C test)
            if s.pending_picks[q] >= 0:  # p knows the union, not which card was picked
                u = sorted(s.hands[q] + [s.pending_picks[q]])
                shuffle(rng, u)
                c.pending_picks[q] = u[0]
                c.hands[q] = sorted(u[1:])
        else:
            unknown.append(q)
            pool.extend(s.hands[q])
            if s.pending_picks[q] >= 0:
                pool.append(s.pending_picks[q])
    # Sorted before shuffling: the redeal depends only on what p knows and the seed,
    # never on where the hidden cards really lie.
    pool.sort()
    shuffle(rng, pool)
    for q in unknown:
        size = len(s.hands[q])
        c.hands[q] = sorted(pool[:size])
        del pool[:size]
        if s.pending_picks[q] >= 0:
            c.pending_picks[q] = pool.pop()
    c.part_deck = pool
    # Builds: everything except what p holds, sees, or put under the deck itself.
    mine = set(s.returned_builds[p])
    bpool = [b for b in s.build_deck if b not in mine]
    for q in range(n):
        if q != p:
            bpool.extend(s.build_offers[q] + s.kept_builds[q])
    bpool.sort()
    shuffle(rng, bpool)
    c.build_deck = [b if b in mine else bpool.pop() for b in s.build_deck]
    for q in range(n):
        if q != p:
            # lists, not generators, sorted (the same pops in the same order; a compiled
            # generator is an object of its own)
            c.build_offers[q] = sorted([bpool.pop() for _ in s.build_offers[q]])
            c.kept_builds[q] = sorted([bpool.pop() for _ in s.kept_builds[q]])
    # Which deck build each other seat put back is unknown to p: draw one per seat.
    free = [b for b in c.build_deck if b not in mine]
    shuffle(rng, free)
    for q in range(n):
        if q != p:
            c.returned_builds[q] = [free.pop() for _ in s.returned_builds[q]]
    c.next_seed = rng.getrandbits(64)
    c._legal = _legal_for(c)
    # the history as p saw it, sharing the moves before the first one rewritten
    c.moves = s.moves.rewritten(_seen_history(s, c, p))
    return c


def _seen_history(s: SuperComputerState, c: SuperComputerState, p: int) -> list[int]:
    """The history as p saw it, consistent with the redeal `c`: the actions p could not
    see (this turn's secret picks of the seats before it, this round's secret build
    keeps) are the ones the redealt seats made in `c`. Every other action is public or
    p's own. Without it the history would hand a bot every secret choice made so far.

    Where those actions lie is public (the log shows who has picked and kept); picks
    revealed at the end of a turn and keeps revealed at the round's scoring are public
    and stay as played."""
    out: list[int] = s.moves.items()  # a fresh list, rewritten in place (then a trail)
    phase = s.phase
    if phase == OVER:
        return out
    first = len(out) - s.to_move  # this turn's picks (or keeps) so far, seat 0 first
    if phase == PICK:
        for q in range(s.to_move):
            if q != p:
                out[first + q] = c.pending_picks[q]
    if s.game.build_mode != "choose_one":
        return out
    first_build = s.columns.first_build
    if phase == CHOOSE_BUILD:
        for q in range(s.to_move):
            if q != p:
                out[first + q] = first_build + c.kept_builds[q][0]
        return out
    # picking or placing: every seat kept one build at the round's start; each keep is
    # the last action of its number in the history (the keeps are at the round's start)
    backwards = list(s.moves.newest_first())  # the history as played, newest first
    last = len(backwards) - 1
    for q in range(s.num_players):
        if q != p and s.kept_builds[q]:
            true = first_build + s.kept_builds[q][0]
            out[last - backwards.index(true)] = first_build + c.kept_builds[q][0]
    return out


def _legal_for(c: SuperComputerState) -> list[int]:
    """The resampled state's legal actions: a build choice or a pick depends on the
    redealt cards; placing and the end depend only on public cards."""
    layout, q, kind = c.game.actions, c.to_move, c.decision_kind()
    if kind == "choose_build":
        return [layout.keep(b) for b in c.build_offers[q]]
    if kind == "pick":
        return c.hands[q][:]
    return c._legal
