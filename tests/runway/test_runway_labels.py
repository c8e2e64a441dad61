"""Unique action labels: in every state, no two legal actions read alike,
so a player (and OpenSpiel's random_sim_test) can always tell them apart. Checked on
every decision kind: pitches (match, Cash, Ride), the pass, and the trades (Bench
swaps "give X, take Y", blind draws, skip, and the empty-hand takes)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from runway_kit import act, build

import cardlab

OPTIONS = st.sampled_from(
    [{}, {"two_player_last_seat": "catch_up"}, {"last_seat": "rotate"}, {"shock_effect": "none"}]
)


def assert_unique_labels(state) -> None:
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    dupes = sorted({x for x in labels if labels.count(x) > 1})
    assert not dupes, f"{state.decision_kind()}: two legal actions read {dupes}"
    prefix = ("pitch ", "pass") if state.decision_kind() == "pitch" else ("trade ", "discard ")
    extra = ("skip", "take ", "draw ")
    assert all(x.startswith(prefix + extra) for x in labels), labels


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31 - 1),
    action_seed=st.integers(0, 2**31 - 1),
    options=OPTIONS,
)
def test_legal_labels_are_unique_in_every_state_of_random_games(
    players, seed, action_seed, options
):
    game = cardlab.load_game("runway", players=players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(action_seed)
    kinds = set()
    while not state.is_terminal():
        assert_unique_labels(state)
        kinds.add(state.decision_kind())
        state.apply_action(rng.choice(state.legal_actions()))
    assert "pitch" in kinds


def test_empty_hand_trade_labels_are_unique():
    """R5: with an empty hand the trade offers three Bench takes, a blind draw and a
    skip; each reads differently."""
    s = build(hands=[[], ["Cash 2"], ["Cash 3"]], last_seat=2, pile_top=["Talent 6"])
    act(s, "pass")
    assert_unique_labels(s)
    assert len(s.legal_actions()) == 5


def test_swap_labels_name_both_cards():
    """A swap reads as giving one named card and taking another: 18 swaps for a hand
    of six and a Bench of three, each different."""
    s = build(last_seat=2)
    act(s, "pass")
    assert_unique_labels(s)
    swaps = [s.action_to_string(a) for a in s.legal_actions()]
    assert "trade Tech 1 for Bench Cash 7" in swaps
    assert sum(x.startswith("trade ") for x in swaps) == 18
