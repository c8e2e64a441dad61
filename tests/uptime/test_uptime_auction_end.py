"""Scenario tests: the auction (U10), Twists (U6), end triggers (U12), stall (U13),
scoring (U14, U15), the tie-break chain (U17) and the 2-player variant (U16)."""

import cardlab
from cardlab.games.uptime import actions as A
from cardlab.games.uptime import scoring
from cardlab.games.uptime.scenarios import act, arrange


def game(n=3, **opts):
    return cardlab.load_game("uptime", players=n, **opts)


def names(state, cards):
    return sorted(state.table.name[c] for c in cards)


def can(state, prefix):
    return any(state.action_to_string(a).startswith(prefix) for a in state.legal_actions())


def test_opener_needs_a_computer_and_a_material():
    """U10: the opener needs 1+ Computer; bids are backed by materials in hand."""
    s = arrange(game(), hands={0: ["Silicon"]}, row=["Campus Helpdesk"])
    assert not can(s, "Bid on Contract")
    s = arrange(game(), hands={0: []}, tableaus={0: ["Blade"]}, row=["Campus Helpdesk"])
    assert not can(s, "Bid on Contract")
    s = arrange(game(), hands={0: ["Silicon"]}, tableaus={0: ["Blade"]}, row=["Campus Helpdesk"])
    assert can(s, "Bid on Contract Campus Helpdesk in slot 1 (value 4)")


def test_only_the_winner_pays_raises_strictly_higher_once_around():
    """U10: clockwise once, each raise strictly higher and backed by materials; only the
    winner pays; losers keep their cards; winning is a claim (refill)."""
    s = arrange(
        game(),
        hands={0: ["Silicon"] * 3, 1: ["Copper"] * 4, 2: ["Polymer"] * 2},
        tableaus={0: ["Blade"]},
        row=["Hospital Records", "CPU", "RAM", "Case"],
        build_deck=["PSU"],
    )
    act(s, "Bid on Contract Hospital Records")
    assert s.decision_kind() == "opening_bid" and len(s.legal_actions()) == 3  # 1..3
    act(s, "Open the bidding at 2")
    assert s.current_player() == 1  # raisers need no Computer (U10 default)
    assert s.legal_actions() == [A.BID_PASS, A.BID + 3, A.BID + 4]
    act(s, "Raise to 3")
    # Seat 2 holds only 2 materials and cannot beat 3: passes by itself; the opener does not answer.
    # Seat 1 holds 4 materials for a bid of 3: which it pays is its decision, even with one
    # kind (others cannot tell its kinds: docs/rules/uptime.md, "Paying")
    assert s.current_player() == 1 and s.decision_kind() == "pay"
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["Pay Copper"]
    act(s, "Pay Copper", "Pay Copper", "Pay Copper")  # each step: more cards than owed
    assert s.current_player() == 1 and s.decision_kind() == "turn"
    assert names(s, s.tableau[1]) == ["Hospital Records"] and s.contracts[1] == 1
    assert len(s.hand[1]) == 1 and len(s.hand[0]) == 3 and len(s.hand[2]) == 2
    assert names(s, s.supply_discard).count("Copper") >= 3
    assert s.table.name[s.build_row[0]] == "PSU"  # refilled
    assert s.turns == [1, 0, 0]  # it was seat 0's turn; seat 1 now takes its own


def test_raise_requires_computer_option():
    """U10 option: raisers need 1+ Computer too."""
    s = arrange(
        game(raise_requires_computer=True),
        hands={0: ["Silicon"], 1: ["Copper"] * 4, 2: ["Polymer"] * 4},
        tableaus={0: ["Blade"], 2: ["Tower"]},
        row=["Hospital Records"],
    )
    act(s, "Bid on Contract")  # the opening bid of 1 is forced
    assert s.current_player() == 2  # seat 1 has no Computer and is skipped
    act(s, "Pass (do not raise)")
    assert names(s, s.tableau[0]) == ["Blade", "Hospital Records"]


def test_patch_cannot_back_a_bid():
    """U4: a Patch is not a material for bids; the winner pays only in materials."""
    s = arrange(game(), hands={0: ["Patch"]}, tableaus={0: ["Blade"]}, row=["Hospital Records"])
    assert not can(s, "Bid on Contract")


def test_winning_out_of_turn_triggers_the_milestone_and_round_is_finished():
    """U12: the Cloud Milestone is checked after every claim, including an auction won
    out of turn; the round is finished so every player has the same number of turns."""
    s = arrange(
        game(),
        hands={0: ["Silicon"], 1: ["Copper", "Copper"]},
        tableaus={0: ["Workstation"], 1: ["Blade", "Tower"]},
        row=["Hospital Records"],
    )
    act(s, "Bid on Contract", "Raise to 2")
    assert s.end_pending and s.end_reason == "milestone"
    act(s, "Pass", "Pass")  # seats 1 and 2 finish the round
    assert s.is_terminal() and s.turns == [1, 1, 1]
    assert s.info()["end_reason"] == "milestone"


def test_mainframe_counts_two_for_the_milestone_but_one_for_routers():
    """U9: Mainframe = 2 Computers toward the Cloud Milestone only; 1 for Router points."""
    s = arrange(
        game(),
        hands={0: ["Silicon"]},
        tableaus={0: ["Mainframe", "Router"]},
        row=["Campus Helpdesk"],
    )
    assert scoring.breakdown(s, 0)["network"] == 2  # Router: 2 x 1 Computer
    act(s, "Bid on Contract")
    assert s.end_pending and s.end_reason == "milestone"
    t = arrange(game(), hands={0: ["Silicon"]}, tableaus={0: ["Blade"]}, row=["Campus Helpdesk"])
    act(t, "Bid on Contract")
    assert not t.end_pending  # one ordinary Computer + a Contract is no milestone


def test_empty_build_deck_at_a_refill_ends_after_the_round():
    """U12: 'can't be refilled' = a refill is due and the Build Deck is empty; round finished."""
    s = arrange(game(), hands={1: ["Silicon", "Copper"]}, row=["CPU"], build_deck=[], seat=1)
    act(s, "Requisition CPU")
    assert s.end_pending and s.end_reason == "build_deck_empty"
    act(s, "Pass")  # seat 2 ends the round (seat 0 went first)
    assert s.is_terminal() and s.turns == [0, 1, 1]


def test_power_surge_gives_two_chosen_materials_then_a_replacement():
    """U6/Twists: Power Surge resolves when drawn: 2 free materials of choice (sub-decisions),
    removed from the game, and a replacement is drawn so Draw still yields 2 cards."""
    s = arrange(game(), hands={0: []}, supply_deck=["Silicon", "Power Surge", "Copper", "Polymer"])
    act(s, "Draw")
    assert s.decision_kind() == "choose_material" and s.current_player() == 0
    act(s, "Take a free Rare-Earth", "Take a free Rare-Earth")
    assert names(s, s.hand[0]) == ["Copper", "Rare-Earth", "Rare-Earth", "Silicon"]
    assert names(s, s.removed_twists)[0] == "Power Surge" and names(s, s.supply) == ["Polymer"]
    assert s.current_player() == 1


def test_supply_shortage_skips_exactly_one_refill():
    """U6: Supply Shortage skips the single refill after the next claim by anyone;
    later claims refill to 4 again; a skipped refill does not end the game."""
    s = arrange(
        game(),
        hands={1: ["Silicon", "Copper"], 2: ["Silicon", "Polymer"]},
        row=["CPU", "RAM", "Case", "PSU"],
        supply_deck=["Supply Shortage", "Copper"],
        build_deck=["Storage", "Motherboard", "Cable"],
    )
    act(s, "Pass")  # reveals Supply Shortage, replacement Copper
    assert s.shortage_pending and names(s, s.hand[0]) == ["Copper"]
    act(s, "Requisition CPU")
    assert s.build_row[0] == -1 and not s.shortage_pending and not s.end_pending
    act(s, "Requisition RAM")
    assert [s.table.name[c] for c in s.build_row] == ["Storage", "Motherboard", "Case", "PSU"]


def test_supply_shortage_at_setup_and_its_skip_with_an_empty_deck_does_not_end():
    """U6: a Twist in the opening deal resolves too; the skipped refill does not end the game."""
    for seed in range(60):
        s = game(3).new_initial_state(seed)
        if s.shortage_pending:
            break
    assert s.shortage_pending and "Supply Shortage" in names(s, s.removed_twists)
    s = arrange(game(), hands={0: ["Silicon", "Copper"]}, row=["CPU"], build_deck=[])
    s.shortage_pending = True
    act(s, "Requisition CPU")
    assert not s.end_pending


def test_stall_ends_after_a_full_round_with_empty_supply_and_no_claim():
    """U13: the game also ends after a full round in which the Supply was dry (the Supply
    Deck empty, and with the U3 reshuffle its discard too: every material is in a hand), no
    card was drawn from it and no card left the Build Row."""
    hands = {0: ["Silicon"] * 6 + ["Copper"] * 6, 1: ["Polymer"] * 6, 2: ["Rare-Earth"] * 6}
    s = arrange(game(), hands=hands, row=["Mainframe"], supply_deck=[])
    assert s.supply_dry()
    act(s, "Pass", "Pass", "Pass")
    assert s.is_terminal() and s.info()["end_reason"] == "stall"


def test_stall_option_off_runs_to_the_hard_cap_marked_stalled():
    """U13 option stall_end=false: the rulebook's 'always ends' fails; a cap stops it, 'stalled'."""
    from cardlab.games.uptime.state import STALL_CAP_ROUNDS

    s = arrange(game(stall_end=False), row=["Mainframe"], supply_deck=[])
    while not s.is_terminal():
        act(s, "Pass")
    assert s.info()["end_reason"] == "stalled" and s.info()["rounds"] == STALL_CAP_ROUNDS


def test_scoring_computers_cables_routers_cap_contracts_leftovers():
    """U14/U15/Scoring: Computer 5, Cable 2, Router 2 x min(Computers, 3), Network cap 8,
    Contract value, floor(materials / 3); Patches and loose Components 0."""
    s = arrange(
        game(),
        hands={0: ["Silicon"] * 5 + ["Patch"]},
        tableaus={0: ["Blade", "Tower", "Router", "Router", "Cable", "CPU", "Campus Helpdesk"]},
    )
    b = scoring.breakdown(s, 0)
    assert b["computers"] == 10 and b["network_uncapped"] == 10 and b["network"] == 8
    assert b["contracts"] == 4 and b["leftovers"] == 1 and b["total"] == 23
    s = arrange(game(), tableaus={0: ["Blade", "Tower", "Workstation", "Mainframe", "Router"]})
    assert scoring.breakdown(s, 0)["network"] == 6  # max 6 per Router


def test_router_option_each_computer_attaches_to_one_router():
    """U14 option one_router_per_computer: 2 Computers and 2 Routers give 4, not 8."""
    tab = {0: ["Blade", "Tower", "Router", "Router"]}
    assert scoring.breakdown(arrange(game(), tableaus=tab), 0)["network"] == 8
    s = arrange(game(router_rule="one_router_per_computer"), tableaus=tab)
    assert scoring.breakdown(s, 0)["network"] == 4


def _finish(s):
    while not s.is_terminal():
        act(s, "Pass")
    return s


def dry(**opts):
    """A game whose empty Supply Deck is a dry Supply (no U3 reshuffle of the discard), so
    a round of passes ends it by U13 with the hands as arranged."""
    return game(supply_reshuffle=False, **opts)


def test_tiebreak_points_alone():
    """U17: no tie-break when points decide."""
    s = _finish(arrange(dry(), tableaus={1: ["Blade"]}, supply_deck=[]))
    assert s.winners() == [1] and s.info()["tiebreak"] is None


def test_tiebreak_most_computers():
    """U17 level 1: most Computers built (10 points each way: 2 Computers vs Contracts)."""
    tabs = {0: ["Blade", "Tower"], 1: ["Campus Helpdesk", "Hospital Records"]}
    s = _finish(arrange(dry(), tableaus=tabs, supply_deck=[]))
    assert scoring.points(s)[:2] == [10, 10]
    assert s.winners() == [0] and s.info()["tiebreak"] == "most_computers"


def test_tiebreak_most_contracts():
    """U17 level 2: most Contracts won."""
    mats = ["Silicon"] * 6 + ["Copper"] * 6 + ["Polymer"] * 3  # 15 leftovers = 5 points
    tabs = {0: ["Blade", "Retail Checkout"], 1: ["Tower"]}
    s = arrange(dry(), tableaus=tabs, hands={1: mats}, supply_deck=[])
    s = _finish(s)
    assert scoring.points(s)[:2] == [10, 10]
    assert s.winners() == [0] and s.info()["tiebreak"] == "most_contracts"


def test_tiebreak_fewest_draw_pass():
    """U17 level 3: fewest Draw/Pass actions taken all game."""
    s = arrange(dry(), tableaus={0: ["Blade"], 2: ["Tower"]}, supply_deck=[], draw_pass=[3, 0, 1])
    s = _finish(s)
    assert s.winners() == [2] and s.info()["tiebreak"] == "fewest_draw_pass"


def test_tiebreak_turn_order_always_one_winner():
    """U17 level 4: the tied player earliest in turn order (from the seeded first player)."""
    s = _finish(
        arrange(dry(), first=1, seat=1, tableaus={0: ["Blade"], 2: ["Tower"]}, supply_deck=[])
    )
    assert s.winners() == [2] and s.info()["tiebreak"] == "turn_order"
    assert "turn order" in __import__("cardlab.games.uptime.render", fromlist=["x"]).render_final(s)


def test_two_players_deal_five_and_discard_top_build_card_after_each_claim():
    """U16: 2 players: deal 5; after each claim, refill, then discard the top Build card face-up."""
    for seed in range(10):
        s = game(2).new_initial_state(seed)
        if s.decision_kind() == "turn":
            assert [len(h) for h in s.hand] == [5, 5]
    s = arrange(
        game(2),
        hands={0: ["Silicon", "Copper"]},
        row=["CPU", "RAM", "Case", "PSU"],
        build_deck=["Storage", "Motherboard", "Cable"],
    )
    act(s, "Requisition CPU")
    assert s.table.name[s.build_row[0]] == "Storage"
    assert names(s, s.build_discard)[-1] == "Motherboard" or "Motherboard" in names(
        s, s.build_discard
    )
    assert names(s, s.build_deck) == ["Cable"]


def test_two_players_only_a_failed_refill_ends():
    """U16: the 2p discard emptying the deck does not end the game; the next refill does."""
    s = arrange(
        game(2),
        hands={0: ["Silicon", "Copper"], 1: ["Silicon", "Polymer"]},
        row=["CPU", "RAM"],
        build_deck=["Cable"],
    )
    act(s, "Requisition CPU")  # refill takes Cable; nothing left to discard
    assert not s.end_pending and s.build_deck == []
    act(s, "Requisition RAM")
    assert s.end_pending and s.end_reason == "build_deck_empty"
