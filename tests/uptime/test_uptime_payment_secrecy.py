"""Whether a seat must decide is public, so it never depends on hidden cards.

A seat p cannot tell the true state from `resample_from_infostate(p, seed)` (the contract keeps
p's observation). Apply the same next action in both worlds (when it is legal in both): p must
then see the same thing happen. Before the fix, a payment with one legal way was completed at
once and one with a choice waited as a public "pay" decision, so p learned whether the payer
held two kinds, or the owed material beside a Patch (docs/rules/uptime.md, "Paying").

What may differ between the two worlds is chance and what the rules reveal: the cards a draw or
a refill brings, and which kinds a payment names (paid materials go face-up, U3). So the
comparison is of the shape of what happens: each new public event's kind and seat, then who
must decide what. A draw can reveal a Twist (U6) and a free-material choice can find a kind
gone (U5) in one world and not the other; both depend on the redealt decks, so the comparison
stops at the first such event (the payment comes before any of them).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from uptime_options import SEEDS, load, option_sets

import cardlab
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import MATERIAL, MATERIAL_KINDS, PATCH

CHANCE = frozenset({"got", "twist", "gone", "nothing"})
"""Events whose presence follows the redealt decks (a draw's Twist, a kind found gone)."""


def shape(before: int, obs: dict) -> tuple[list[tuple[str, object]], tuple | None]:
    """The new events as (kind, seat) up to the first chance event, and, when there was none,
    who must decide what and the public counts that follow from the action alone."""
    events = []
    for ev in obs["events"][before:]:
        if ev["kind"] in CHANCE:
            return events, None
        events.append((ev["kind"], ev.get("seat")))
    after = (
        obs["decision_kind"],
        obs["current_player"],
        obs["turn_of"],
        obs["phase"],
        obs["round"],
        tuple((pl["hand_materials"], pl["hand_patches"]) for pl in obs["players"]),
    )
    return events, after


def check_next_action_secret(state, seed: int, max_actions: int = 4) -> int:
    """For every seat p but the one deciding (its twin keeps its hand, so its own choices are
    the same), p's two worlds (true, redealt) show the same shape after each next action legal
    in both (Draw and Pass left out: they are chance from their first card). Returns how many
    (seat, action) pairs were compared."""
    compared = 0
    legal = [a for a in state.legal_actions() if a not in (A.DRAW, A.PASS)]
    if not legal:
        return 0
    for p in range(state.num_players):
        if p == state.current_player():
            continue
        twin = state.resample_from_infostate(p, seed + p)
        assert twin.observation(p) == state.observation(p)  # the premise: p cannot tell
        both = [a for a in legal if a in set(twin.legal_actions())][:max_actions]
        before = len(state.observation(p)["events"])
        for a in both:
            worlds = []
            for world in (state, twin):
                w = world.clone()
                w.apply_action(a)
                worlds.append(shape(before, w.observation(p)))
            (ev_true, after_true), (ev_twin, after_twin) = worlds
            n = min(len(ev_true), len(ev_twin))
            context = (
                f"seat {p} can tell its worlds apart after {state.action_to_string(a)!r} "
                f"(decision was {state.decision_kind()!r} of seat {state.current_player()})"
            )
            assert ev_true[:n] == ev_twin[:n], f"{context}: events {ev_true} vs {ev_twin}"
            if after_true is not None and after_twin is not None:
                assert ev_true == ev_twin, f"{context}: events {ev_true} vs {ev_twin}"
                assert after_true == after_twin, f"{context}: {after_true} vs {after_twin}"
            compared += 1
    return compared


def play_checking(game, seed: int, action_seed: int) -> int:
    """A random game that prefers claims and bids (payments are what is tested), checking
    every state until the end."""
    rng = random.Random(action_seed)
    state = game.new_initial_state(seed)
    compared = 0
    while not state.is_terminal():
        compared += check_next_action_secret(state, rng.randrange(1 << 30))
        legal = state.legal_actions()
        busy = [a for a in legal if a > A.PASS]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.85 else legal))
    return compared


def give_hand(state, p: int, kinds: list[int]) -> None:
    """Make seat p's materials exactly `kinds` (swapping cards with the Supply Deck)."""
    t = state.table
    pool = state.hand[p] + state.supply
    hand = []
    for m in kinds:
        c = next(c for c in pool if t.kind[c] == MATERIAL and t.sub[c] == m and c not in hand)
        hand.append(c)
    patches = [c for c in state.hand[p] if t.kind[c] != MATERIAL]
    rest = [c for c in pool if c not in hand and c not in patches]
    state.hand[p] = hand + patches
    state.supply = [c for c in rest if c not in state.hand[p]]
    for m in range(MATERIAL_KINDS):
        state.materials[p * MATERIAL_KINDS + m] = kinds.count(m)
    state._legal = None


def test_the_issues_case_a_patch_claim_shows_the_same_to_everyone():
    """The issue's report: 3 players, seat 1 holds 4 unseen materials and requisitions the
    Patch (cost 1, U4). With 4 Silicon the payment was completed at once ("Seat 2 to take a
    turn"), with one of each kind it waited ("Seat 1: pay for Patch"); every other seat saw
    which. Now both hands give the same public decision: Seat 1 pays."""
    game = cardlab.load_game("uptime", players=3)
    seed = next(
        s
        for s in range(500)
        if any(game.table.kind[c] == PATCH for c in game.new_initial_state(s).build_row)
    )
    seen = []
    start = game.new_initial_state(seed)
    p = start.current_player()
    pool = start.hand[p] + start.supply
    mono = max(range(MATERIAL_KINDS), key=lambda m: sum(game.table.sub[c] == m for c in pool))
    for kinds in ([mono] * 4, [0, 1, 2, 3]):
        state = game.new_initial_state(seed)
        give_hand(state, p, kinds)
        slot = next(s for s, c in enumerate(state.build_row) if game.table.kind[c] == PATCH)
        state.apply_action(A.REQ + slot)
        other = state.observation((p + 1) % 3)
        seen.append((other["decision_kind"], other["current_player"], other["decision"]))
        assert state.decision_kind() == "pay" and state.current_player() == p, (kinds, seen)
    assert seen[0] == seen[1]


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(players=st.integers(2, 4), seed=SEEDS, action_seed=SEEDS, options=option_sets())
@example(players=3, seed=1, action_seed=2, options={})
@example(players=4, seed=7, action_seed=11, options={})
def test_no_seat_can_tell_its_worlds_apart_after_the_next_action(
    players, seed, action_seed, options
):
    game = load(players, options)
    assert play_checking(game, seed, action_seed) > 0
