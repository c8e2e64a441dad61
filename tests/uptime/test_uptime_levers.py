"""UPTIME's rule levers (docs/rules/uptime.md "Rule levers"): each default is the
rule as written, each changes the rulebook passage it names, and every lever keeps the game
API contract (`check_game`) and true bounds."""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab.agents.base import make_agent
from cardlab.agents.play import play_game
from cardlab.core.options import levers
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.rules import UptimeGame
from cardlab.games.uptime.scenarios import arrange
from cardlab.testing import check_game

SI, CU, PO, RE = range(
    4
)  # material kinds in card-file order (Silicon, Copper, Polymer, Rare-Earth)
AS_WRITTEN = {
    "hand_limit": 0,  # U11: no hand limit
    "trade_in": 0,
    "leftover_rate": 3,  # U15: 1 point per 3
    "computer_points": 0,  # as printed (5)
    "draw_cards": 2,
    "pass_cards": 1,
    "row_size": 4,
    "later_seat_bonus": 0,
    "row_conveyor": 0,
}


def _game(players: int = 3, **options):
    return cardlab.load_game("uptime", players=players, **options)


def _random_game(game, seed: int):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_lever_defaults_to_the_rule_as_written_and_names_its_passage():
    specs = {spec.name: spec for spec in levers(UptimeGame.option_specs)}
    assert set(specs) == set(AS_WRITTEN)
    for name, written in AS_WRITTEN.items():
        assert specs[name].default == written
        assert specs[name].lever is not None
        assert specs[name].lever.passage and specs[name].lever.purpose
    # at the defaults the action space is the one recorded games were played in
    assert _game().num_distinct_actions == A.NUM_ACTIONS == 61
    assert _game(trade_in=3).num_distinct_actions == 62  # TRADE appended after the bids


def test_an_out_of_range_lever_value_is_refused_with_its_range():
    with pytest.raises(cardlab.core.errors.OptionError, match=r"'hand_limit'.*0 to 30"):
        _game(hand_limit=31)
    assert _game(hand_limit=13).options["hand_limit"] == 13  # any whole number in range


def test_hand_limit_discards_down_at_the_end_of_the_turn_to_the_supply_discard():
    # U11 lever: seat 0 holds 5 and draws 2 with a limit of 6: one discard, its own choice
    s = arrange(
        _game(hand_limit=6),
        hands={0: ["Silicon", "Silicon", "Copper", "Polymer", "Rare-Earth"]},
        supply_deck=["Copper", "Copper", "Silicon"],
    )
    s.apply_action(A.DRAW)
    assert s.decision_kind() == "discard" and s.current_player() == 0
    labels = {s.action_to_string(a) for a in s.legal_actions()}
    assert "Discard a Polymer (hand limit 6)" in labels
    before = len(s.supply_discard)
    s.apply_action(A.PAY_MAT + PO)
    assert len(s.hand_of(0)) == 6 and s.materials_of(0)[PO] == 0
    assert len(s.supply_discard) == before + 1  # face-up, back under supply_reshuffle (U3)
    assert s.current_player() == 1 and s.decision_kind() == "turn"
    log = s.observation(1)["log"]  # another seat's view: the discard is public
    assert "Seat 0 discards Polymer face-up (hand limit 6)." in log


def test_trade_in_gives_k_materials_for_one_of_your_choice():
    hand = ["Silicon", "Silicon", "Silicon", "Copper"]
    s = arrange(_game(trade_in=3), hands={0: hand}, row=["RAM", "CPU", "Router", "Blade"])
    trade = s.game.num_distinct_actions - 1
    assert trade in s.legal_actions()
    assert s.action_to_string(trade) == "Trade in 3 raw materials for 1 of your choice"
    s.apply_action(trade)
    assert s.decision_kind() == "trade_in"
    while s.decision_kind() == "trade_in":
        s.apply_action(
            A.PAY_MAT + SI if A.PAY_MAT + SI in s.legal_actions() else s.legal_actions()[0]
        )
    assert s.decision_kind() == "choose_material"
    s.apply_action(A.CHOOSE_MAT + RE)
    assert sorted(s.materials_of(0)) == [0, 0, 1, 1] and s.materials_of(0)[RE] == 1
    events = [e["kind"] for e in s.observation(1)["events"]]
    assert events.count("trade_give") == 3 and "take" in events
    # too few materials: no trade offered
    few = arrange(_game(trade_in=3), hands={0: ["Silicon", "Copper"]})
    assert trade not in few.legal_actions()


def test_leftover_rate_and_computer_points_change_the_score():
    # U15 lever (1 per R, 0: nothing) and the printed 5 per Computer overridden
    hand = ["Silicon"] * 4 + ["Copper"] * 2
    for rate, expect in ((3, 2), (2, 3), (0, 0)):
        s = arrange(_game(leftover_rate=rate), hands={0: hand})
        assert s.observation(0)["players"][0]["points"]["leftovers"] == expect
    s = arrange(_game(computer_points=8), tableaus={0: ["Tower"]})
    assert s.observation(0)["players"][0]["points"]["computers"] == 8
    assert (
        arrange(_game(), tableaus={0: ["Tower"]}).observation(0)["players"][0]["points"][
            "computers"
        ]
        == s.table.value[s.tableau_of(0)[0]]
    )


@pytest.mark.parametrize(("draw", "pass_", "action", "got"), [(3, 1, A.DRAW, 3), (2, 0, A.PASS, 0)])
def test_draw_and_pass_take_the_lever_counts(draw, pass_, action, got):
    s = arrange(
        _game(draw_cards=draw, pass_cards=pass_),
        hands={0: []},
        supply_deck=["Silicon", "Copper", "Polymer", "Rare-Earth"],
    )
    s.apply_action(action)
    assert len(s.hand_of(0)) == got


def test_row_size_deals_and_refills_only_its_slots():
    s = _game(row_size=3).new_initial_state(5)
    assert sum(1 for c in s.build_row if c >= 0) == 3 and s.build_row[3] == -1
    end = _random_game(_game(row_size=2, row_sweep=True), 5)
    assert end.is_terminal()


def test_row_conveyor_moves_the_row_each_round_and_ends_on_an_empty_build_deck():
    game = _game(players=3, row_conveyor=1)
    s = game.new_initial_state(2)
    first = s.build_row[0]
    for _ in range(3):  # three Passes: the round ends
        while s.decision_kind() != "turn":  # a Power Surge's free choice
            s.apply_action(s.legal_actions()[0])
        s.apply_action(A.PASS)
    assert first in s.build_discard and s.build_row[0] != first
    assert "conveyor" in [e["kind"] for e in s.observation(0)["events"]]
    # passing only: the Build Deck runs out a card a round, ending by U12, not by a stall
    while not s.is_terminal():
        s.apply_action(A.PASS if A.PASS in s.legal_actions() else s.legal_actions()[0])
    assert s.info()["end_reason"] == "build_deck_empty"


LEVER_SETS = [
    {"hand_limit": 5},
    {"trade_in": 2},
    {"trade_in": 1, "hand_limit": 4},
    {"leftover_rate": 0, "computer_points": 9},
    {"draw_cards": 3, "pass_cards": 0},
    {"row_size": 3, "row_sweep": True},
    {"row_conveyor": 2, "trade_in": 3, "hand_limit": 6, "stall_end": False},
]


@pytest.mark.parametrize(
    "options", LEVER_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("players", [3, 4])
def test_conformance_with_levers_set(options, players):
    """The whole contract (labels, leaks, resample, replay, bounds) under non-default levers."""
    check_game(_game(players=players, **options), games=2, seed=3)


@pytest.mark.parametrize("players", [3, 4])
def test_conformance_of_the_recommended_rules(players):
    """The packaged variant lab (docs/rules/uptime.md "The recommended ruleset")."""
    check_game(cardlab.load_game("uptime", players=players, variant="lab"), games=2, seed=5)


@pytest.mark.parametrize("options", LEVER_SETS[:6], ids=str)
def test_bounds_hold_over_random_games(options):
    """max_game_length() and utility_bounds() stay true bounds with the levers on."""
    for players in (2, 4):
        game = _game(players=players, **options)
        low, high = game.utility_bounds()
        for seed in range(6):
            s = _random_game(game, seed)
            assert len(s.history()) <= game.max_game_length()
            assert all(low <= x <= high for x in s.returns())


def test_personas_manage_the_hand_limit_and_use_the_trade_in():
    """Bots play the levers: a converter that must discard and holds a kind no Row Component
    of a missing type asks for discards such a spare kind, and converters and greedy seats
    trade in (the engine itself makes every seat discard down to the limit)."""
    game = _game(players=4, hand_limit=6, trade_in=2, row_sweep=True)
    trade = game.num_distinct_actions - 1
    kinds = ["converter", "greedy", "auctioneer", "converter"]
    trades = {"converter": 0, "greedy": 0}
    spare_cases = spare_kept = 0

    def watch(state, seat, action):
        nonlocal spare_cases, spare_kept
        kind = kinds[seat]
        if state.decision_kind() == "turn" and action == trade and kind in trades:
            trades[kind] += 1
        if state.decision_kind() == "discard" and kind == "converter":
            needed = {m for pair in state._row_needs(seat) for m in pair}
            held = {m for m in range(4) if state.materials_of(seat)[m]}
            if held - needed:  # it had a spare kind: it must part with one of those
                spare_cases += 1
                spare_kept += action - A.PAY_MAT not in needed

    for seed in range(6):
        agents = [make_agent(k, seed * 4 + i) for i, k in enumerate(kinds)]
        result = play_game(game, agents, seed=seed, on_action=watch)
        assert result.info["end_reason"]
    assert trades["converter"] > 0, trades
    # greedy's one-step lookahead values a Draw (+2 materials) above a trade that only
    # reshapes its hand, so it is not required to trade (docs/rules/uptime.md "Rule levers")
    assert spare_cases > 0 and spare_kept == spare_cases, (spare_kept, spare_cases)
