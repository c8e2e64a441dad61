"""The supply reshuffle (U3, default on since the ruling was revised; the old reading "never
reshuffled" is supply_reshuffle=false) and the designer option row_sweep (not in the rulebook,
default off; docs/rules/uptime.md "Designer options")."""

from __future__ import annotations

import random

import cardlab
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.scenarios import arrange


def _game(players: int = 3, **options):
    return cardlab.load_game("uptime", players=players, **options)


def _random_game(game, seed: int) -> object:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_sweep_is_offered_only_with_the_option_and_when_nothing_is_claimable():
    row = ["Blade", "Router", "Hospital Records", "Mainframe"]  # nothing claimable by seat 0
    off = arrange(_game(), hands={0: ["Silicon"]}, row=row)
    assert A.SWEEP not in off.legal_actions()
    on = arrange(_game(row_sweep=True), hands={0: ["Silicon"]}, row=row)
    assert A.SWEEP in on.legal_actions()
    # a claimable card (a CPU the hand pays for) takes the sweep away
    cpu = arrange(_game(row_sweep=True), hands={0: ["Silicon", "Copper"]}, row=["CPU", *row[1:]])
    assert A.REQ in cpu.legal_actions() and A.SWEEP not in cpu.legal_actions()


def test_sweep_sends_the_row_to_the_deck_bottom_in_view_and_refills():
    row = ["Blade", "Router", "Hospital Records", "Mainframe"]
    s = arrange(_game(row_sweep=True), hands={0: ["Silicon"]}, row=row)
    before = list(s.build_row)
    deck = len(s.build_deck)
    s.apply_action(A.SWEEP)
    assert s.build_deck[:4][::-1] == before  # slot order, bottom of the deck
    assert s.build_bottom_known >= 4  # their identity is public
    assert all(c >= 0 for c in s.build_row) and not set(s.build_row) & set(before)
    assert len(s.build_deck) == deck  # 4 down, 4 up
    assert s.draw_pass[0] == 1  # counted with Draw/Pass for the tie-break (U17)
    text = s.observation(1)["log"][-2:]
    assert any("sweeps" in line for line in map(str, text))


def test_sweeps_are_finite_and_games_end_with_both_options():
    """Each sweep draws an unseen Build card; with both options random games still end by a rule."""
    g = _game(4, row_sweep=True, supply_reshuffle=True)
    for seed in range(60):
        state = _random_game(g, seed)
        assert state.info()["end_reason"] in {"stall", "milestone", "build_deck_empty"}
        assert state.num_decisions < 600


def test_reshuffle_rebuilds_the_supply_deck_from_the_discard_only_with_the_option():
    for flag in (False, True):
        s = arrange(
            _game(supply_reshuffle=flag),
            hands={0: []},
            supply_deck=[],
            supply_discard=["Silicon", "Copper", "Polymer"],
        )
        discard = len(s.supply_discard)  # every material not placed lies in the discard
        assert discard >= 3 and not s.supply
        s.apply_action(A.DRAW)
        got = sum(s.materials[0:4])
        if flag:
            assert got == 2 and len(s.supply) == discard - 2 and not s.supply_discard
            assert s.supply_kinds_gone == 0b1111 & ~sum(
                1 << k for k in {s.table.sub[c] for c in s.supply}
            )
            assert any(
                "shuffled into a new Supply Deck" in x for x in map(str, s.observation(1)["log"])
            )
        else:
            assert got == 0 and len(s.supply_discard) == discard


def test_reshuffle_keeps_the_stall_rule_from_firing_while_the_discard_holds_cards():
    """U13 under supply_reshuffle: the Supply is 'empty' only when the discard is empty too."""
    s = arrange(_game(supply_reshuffle=True), supply_deck=[], supply_discard=["Silicon"])
    assert not s.supply_dry()
    s2 = arrange(_game(supply_reshuffle=False), supply_deck=[], supply_discard=["Silicon"])
    assert s2.supply_dry()


def test_designer_options_replay_from_seed_and_history():
    g = _game(4, row_sweep=True, supply_reshuffle=True)
    for seed in range(10):
        state = _random_game(g, seed)
        again = g.new_initial_state(seed)
        for a in state.history():
            again.apply_action(a)
        assert again.zones() == state.zones() and again.returns() == state.returns()


def test_resample_with_designer_options_keeps_the_observation():
    g = _game(4, row_sweep=True, supply_reshuffle=True)
    rng = random.Random(1)
    for seed in range(15):
        state = g.new_initial_state(seed)
        while not state.is_terminal():
            p = state.current_player()
            copy = state.resample_from_infostate(p, seed)
            assert copy.observation(p) == state.observation(p)
            assert copy.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))


def test_heuristic_value_with_no_legal_sub_decision_does_not_raise():
    """Regression: heuristic_value completed a pending choice with legal_actions()[0] and raised
    IndexError when an (inconsistent) copy had none; it now values the position as it stands."""
    s = arrange(_game(), hands={0: ["Silicon"]}, row=["CPU"])
    s.decision, s.decider, s.choose_excluded, s._legal = A.D_CHOOSE, 0, 0b1111, None
    assert s.legal_actions() == []
    assert isinstance(s.heuristic_value(0), float)
