"""Scenario tests for UPTIME's turn actions, costs, Computers and Patch.

Each test cites the rulebook section or ruling (U1..U17) it pins; positions are
built with cardlab.games.uptime.scenarios.arrange.
"""

import pytest

import cardlab
from cardlab import IllegalActionError
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.scenarios import act, arrange


def game(n=3, **opts):
    return cardlab.load_game("uptime", players=n, **opts)


def names(state, cards):
    return sorted(state.table.name[c] for c in cards)


def labels(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def can(state, prefix):
    """Whether some legal action's label starts with `prefix`."""
    return any(label.startswith(prefix) for label in labels(state))


def test_setup_deals_four_and_reveals_four_first_player_from_seed():
    """Setup: 4 cards each (3-4p), Build Row of 4; U17: the seed picks the first player."""
    firsts = set()
    for seed in range(30):
        s = game(4).new_initial_state(seed)
        while s.decision_kind() != "turn":  # a Power Surge dealt at setup: its choices (U6)
            s.apply_action(s.legal_actions()[0])
        assert len([c for c in s.build_row if c >= 0]) == 4
        surge = [0, 0, 0, 0]
        if (
            s.removed_twists
            and s.table.name[s.removed_twists[0]] == "Power Surge"
            or len(s.removed_twists) == 2
        ):
            log = s.observation(0)["log"]
            surge = [
                sum(f"Seat {p} reveals the Twist Power Surge" in line for line in log)
                for p in range(4)
            ]
        assert [len(h) for h in s.hand] == [4 + 2 * x for x in surge]  # Twists replaced (U6)
        assert s.current_player() == s.first_player
        firsts.add(s.first_player)
    assert firsts == {0, 1, 2, 3}


def test_draw_takes_two_pass_takes_one_and_both_are_counted():
    """A turn: Draw = top 2 Supply cards, Pass = top 1; U17 counts both per player."""
    s = arrange(game(), hands={0: []}, supply_deck=["Silicon", "Copper", "Polymer"])
    act(s, "Draw")
    assert names(s, s.hand[0]) == ["Copper", "Silicon"]
    assert s.current_player() == 1
    act(s, "Pass")
    assert names(s, s.hand[1]) == ["Polymer"]
    assert s.draw_pass == [1, 1, 0]


def test_empty_supply_draw_gives_nothing_and_pass_is_always_legal():
    """FAQ: an empty Supply Deck makes Draw give fewer cards; Pass still works. U3: with the
    reshuffle (default) that happens only when every material is in hands (none in the discard)."""
    others = ["Silicon"] * 5 + ["Copper", "Polymer", "Rare-Earth"] * 6
    for options in ({}, {"supply_reshuffle": False}):
        s = arrange(
            game(**options),
            hands={0: ["Silicon"], 1: others},
            supply_deck=[],
            row=["Mainframe"],
        )
        assert not s.supply_discard and A.DRAW in s.legal_actions() and A.PASS in s.legal_actions()
        act(s, "Draw")
        assert len(s.hand[0]) == 1 and s.current_player() == 1


def test_u3_paid_materials_are_reshuffled_into_an_empty_supply_deck():
    """U3 (revised): materials paid go face-up to the Supply discard; a draw that finds the
    Supply Deck empty first shuffles that discard into a new Supply Deck ("discards their bid
    materials to the supply"). Option supply_reshuffle=false: never reshuffled."""
    s = arrange(game(), hands={0: ["Silicon", "Copper"]}, row=["CPU"], supply_deck=[])
    discard = len(s.supply_discard)  # every material not placed lies in the discard
    act(s, "Requisition CPU")
    assert len(s.supply_discard) == discard + 2 and not s.supply
    act(s, "Draw")  # seat 1 finds the deck empty: the discard becomes the deck, then 2 are drawn
    assert len(s.hand[1]) == 2 and not s.supply_discard and len(s.supply) == discard
    assert any("shuffled into a new Supply Deck" in line for line in s.observation(0)["log"])
    old = arrange(
        game(supply_reshuffle=False),
        hands={0: ["Silicon", "Copper"]},
        row=["CPU"],
        supply_deck=[],
    )
    act(old, "Requisition CPU", "Draw")
    assert not old.hand[1] and len(old.supply_discard) == discard + 2


def test_u3_reshuffle_is_drawn_from_the_state_generator():
    """U3: the new Supply Deck's order comes from the state's seeded generator (same seed, same
    order; replay reproduces it)."""
    orders = []
    for _ in range(2):
        s = arrange(game(), hands={0: ["Silicon"]}, supply_deck=[], seed=3)
        act(s, "Draw")
        orders.append(list(s.supply))
    assert orders[0] == orders[1]


def test_requisition_component_pays_its_two_materials_to_the_supply():
    """Requisition: a Component costs its 2 printed materials (U2); U3: paid to the supply discard."""
    s = arrange(game(), hands={0: ["Silicon", "Copper", "Polymer"]}, row=["CPU", "Case"])
    assert "Requisition Case (pay Polymer, Rare-Earth)" not in labels(s)  # no Rare-Earth
    act(s, "Requisition CPU")
    assert names(s, s.tableau[0]) == ["CPU"]
    assert names(s, s.hand[0]) == ["Polymer"]
    assert names(s, s.supply_discard) == ["Copper", "Silicon"]
    assert s.current_player() == 1


def test_computer_costs_three_different_component_types():
    """Requisition: a Computer costs discarding 3 different Component types from your tableau."""
    s = arrange(game(), tableaus={0: ["CPU", "CPU", "RAM"]}, row=["Tower"])
    assert not can(s, "Requisition Tower")  # only 2 types
    s = arrange(game(), tableaus={0: ["CPU", "CPU", "RAM", "Case"]}, row=["Tower"])
    act(s, "Requisition Tower")  # exactly 3 types: all must go, no decision
    assert names(s, s.tableau[0]) == ["CPU", "Tower"]
    assert names(s, s.build_discard) == ["CPU", "Case", "RAM"]
    s = arrange(game(), tableaus={0: ["CPU", "RAM", "Case", "PSU"]}, row=["Tower"])
    act(s, "Requisition Tower")
    assert s.decision_kind() == "pay" and len(s.legal_actions()) == 4
    act(s, "Discard CPU", "Discard RAM", "Discard PSU")
    assert names(s, s.tableau[0]) == ["Case", "Tower"]


def test_network_needs_two_computers_and_three_materials_mainframe_counts_one():
    """Requisition: Network costs 3 materials and needs 2+ Computers; U9: Mainframe is 1 here."""
    mats = ["Silicon", "Copper", "Polymer"]
    s = arrange(game(), hands={0: mats}, tableaus={0: ["Mainframe"]}, row=["Cable"])
    assert not can(s, "Requisition Cable")
    s = arrange(game(), hands={0: mats[:2]}, tableaus={0: ["Mainframe", "Blade"]}, row=["Cable"])
    assert not can(s, "Requisition Cable")  # 2 materials only
    s = arrange(
        game(), hands={0: mats + ["Copper"]}, tableaus={0: ["Mainframe", "Blade"]}, row=["Cable"]
    )
    act(s, "Requisition Cable", "Pay Silicon", "Pay Copper", "Pay Copper")
    assert names(s, s.tableau[0]) == ["Blade", "Cable", "Mainframe"] and names(s, s.hand[0]) == [
        "Polymer"
    ]


def test_workstation_takes_the_chosen_material_from_the_supply_discard_first():
    """Workstation: 1 free material of your choice; U5: from the supply discard first."""
    s = arrange(
        game(),
        tableaus={0: ["CPU", "RAM", "Case"]},
        row=["Workstation"],
        supply_discard=["Copper"],
        supply_deck=["Silicon", "Copper"],
    )
    act(s, "Requisition Workstation")
    assert s.decision_kind() == "choose_material"
    discard = len(s.supply_discard)
    act(s, "Take a free Copper")
    assert names(s, s.hand[0]) == ["Copper"]
    assert names(s, s.supply) == ["Copper", "Silicon"] and len(s.supply_discard) == discard - 1


def test_a_free_material_names_the_supply_discard_card_it_takes():
    """U5 as data: the move names the discard's card it will take (public), and names no
    card when the material would come unseen from the Supply Deck."""
    s = arrange(
        game(),
        tableaus={0: ["CPU", "RAM", "Case"]},
        row=["Workstation"],
        supply_discard=["Copper"],
        supply_deck=["Silicon", "Copper"],
    )
    act(s, "Requisition Workstation")
    by_label = {s.action_to_string(a): s.describe_action(a) for a in s.legal_actions()}
    for label, move in by_label.items():
        material = label.removeprefix("Take a free ")
        assert move.kind == "choose_material" and move.extra["material"] == material
        in_discard = [c for c in s.supply_discard if names(s, [c]) == [material]]
        assert move.targets == ((s.table.ids[in_discard[-1]],) if in_discard else ())
    copper = by_label["Take a free Copper"]
    act(s, "Take a free Copper")
    assert names(s, s.hand[0]) == ["Copper"] and s.table.ids[s.hand[0][0]] == copper.targets[0]


def test_a_requisition_names_the_cards_of_yours_that_can_pay_for_it():
    """U3's costs as data (`pays_with`), so the table can show what a seat pays with: a
    Component's two raw materials, a Computer's built Components, and the wild Patch for
    either; never a card that cannot pay (the Polymer for a CPU) nor another seat's."""
    s = arrange(
        game(),
        hands={0: ["Silicon", "Copper", "Polymer", "Patch"], 1: ["Silicon"]},
        tableaus={0: ["RAM", "Case", "PSU"]},
        row=["CPU", "Workstation"],
    )
    by_label = {s.action_to_string(a): s.describe_action(a) for a in s.legal_actions()}
    pays = {
        label.split(" from ")[0]: {names(s, [s.table.ids.index(i)])[0] for i in move.pays_with}
        for label, move in by_label.items()
        if move.kind == "requisition"
    }
    assert pays == {
        "Requisition CPU": {"Silicon", "Copper", "Patch"},
        "Requisition Workstation": {"RAM", "Case", "PSU", "Patch"},
    }, pays
    mine = {s.table.ids[c] for c in [*s.hand[0], *s.tableau[0]]}
    for move in by_label.values():
        assert set(move.pays_with) <= mine
        assert move.to_json().get("pays_with", []) == list(move.pays_with)


def test_u5_from_the_deck_then_name_another_kind_when_one_is_gone():
    """U5: none in the discard -> from the Supply Deck (then shuffled); gone everywhere -> name another."""
    s = arrange(
        game(),
        hands={1: ["Copper"] * 5, 2: ["Rare-Earth"] * 6},
        tableaus={0: ["CPU", "RAM", "Case"]},
        row=["Workstation"],
        supply_deck=["Silicon", "Copper"],
    )
    act(s, "Requisition Workstation", "Take a free Rare-Earth")  # all six are in seat 2's hand
    assert s.decision_kind() == "choose_material" and s.current_player() == 0
    assert "Take a free Rare-Earth" not in labels(s)
    assert "names Rare-Earth, but none is left anywhere" in s.observation(1)["log"][-1]
    from_deck = [a for a in s.legal_actions() if s.action_to_string(a) == "Take a free Copper"]
    assert s.describe_action(from_deck[0]).targets == ()  # unseen: no card is named
    act(s, "Take a free Copper")  # not in the discard: from the deck
    assert names(s, s.hand[0]) == ["Copper"] and names(s, s.supply) == ["Silicon"]
    assert s.known_materials[0 * 4 + 1] == 1  # everyone saw a Copper go to seat 0


def test_u5_nothing_when_no_material_is_left_anywhere():
    """U5: if no raw material is left anywhere, the free material is nothing."""
    s = arrange(
        game(),
        hands={1: ["Silicon"] * 6 + ["Copper"] * 6, 2: ["Polymer"] * 6 + ["Rare-Earth"] * 6},
        tableaus={0: ["CPU", "RAM", "Case"]},
        row=["Workstation"],
        supply_deck=[],
    )
    act(s, "Requisition Workstation")
    assert s.current_player() == 1 and s.hand[0] == []
    assert any("gets nothing from Workstation" in line for line in s.observation(0)["log"])


def test_blade_returns_own_component_to_the_bottom_then_draws():
    """Blade: U7 return a Component from your own tableau to the Build Deck bottom, then draw the top Supply card."""
    s = arrange(
        game(),
        tableaus={0: ["CPU", "RAM", "Case", "PSU", "Storage"]},
        row=["Blade", "Cable", "Cable", "Router"],
        supply_deck=["Polymer"],
        build_deck=["Router", "Motherboard"],
    )
    act(s, "Requisition Blade", "Discard CPU", "Discard RAM", "Discard Case")
    assert s.decision_kind() == "blade_return"
    act(s, "Return Storage")
    assert names(s, s.build_deck) == ["Motherboard", "Storage"]
    assert s.table.name[s.build_deck[0]] == "Storage"  # the bottom
    assert s.table.name[s.build_row[0]] == "Router"  # the refill came after the ability
    assert names(s, s.hand[0]) == ["Polymer"]
    assert names(s, s.tableau[0]) == ["Blade", "PSU"]
    assert s.observation(1)["build_deck_bottom_known"] == ["Storage"]


def test_blade_with_no_component_left_skips_the_return():
    """U7: skip the return if you have no Component; still draw."""
    s = arrange(
        game(), tableaus={0: ["CPU", "RAM", "Case"]}, row=["Blade"], supply_deck=["Polymer"]
    )
    act(s, "Requisition Blade")
    assert s.current_player() == 1 and names(s, s.hand[0]) == ["Polymer"]


def test_tower_makes_the_next_network_cost_one_less_once():
    """Tower: U8 your next Network Requisition costs 1 fewer material (min 1), once."""
    s = arrange(
        game(),
        hands={0: ["Silicon", "Copper", "Silicon", "Copper"]},
        tableaus={0: ["Tower", "Blade"]},
        row=["Cable", "Router"],
    )
    s.tower_discount[0] = 1
    assert can(s, "Requisition Cable from slot 1 (pay 2 raw materials")
    act(s, "Requisition Cable", "Pay Silicon", "Pay Silicon")
    assert s.tower_discount[0] == 0 and names(s, s.hand[0]) == ["Copper", "Copper"]
    act(s, "Pass", "Pass")
    assert s.current_player() == 0
    assert not can(s, "Requisition Router")  # now 3 again


def test_tower_claim_grants_the_discount():
    """Tower: on claim, the discount is pending."""
    s = arrange(game(), tableaus={0: ["CPU", "RAM", "Case"]}, row=["Tower"])
    act(s, "Requisition Tower")
    assert s.tower_discount[0] == 1 and s.observation(1)["players"][0]["tower_discount"]


def test_patch_claim_costs_one_material_or_zero_with_the_option():
    """U4: claiming a Patch costs 1 raw material [option patch_cost=0: free]; it goes to hand (U3)."""
    s = arrange(game(), hands={0: []}, row=["Patch"])
    assert not can(s, "Requisition Patch")
    s = arrange(game(), hands={0: ["Copper"]}, row=["Patch"])
    act(s, "Requisition Patch")
    assert names(s, s.hand[0]) == ["Patch"] and names(s, s.supply_discard) == ["Copper"]
    s = arrange(game(patch_cost=0), hands={0: []}, row=["Patch"])
    act(s, "Requisition Patch from slot 1 (free)")
    assert names(s, s.hand[0]) == ["Patch"]


def test_patch_substitutes_for_a_material_of_a_component():
    """U4: a Patch in hand substitutes for 1 raw material in a Requisition."""
    s = arrange(game(), hands={0: ["Silicon", "Patch"]}, row=["CPU"])
    act(s, "Requisition CPU")
    # Silicon or the Patch first: seat 0's one legal way (Silicon, the Patch must cover the
    # Copper) is still its decision, as others cannot see it holds no Copper (docs/rules/uptime.md, "Paying")
    assert s.decision_kind() == "pay" and len(s.legal_actions()) == 1
    act(s, "Pay Silicon")  # then the Copper is the Patch, forced (no material left)
    assert names(s, s.tableau[0]) == ["CPU"] and s.hand[0] == []
    assert names(s, s.build_discard) == ["Patch"]


def test_patch_substitutes_for_a_component_type_of_a_computer():
    """U4: a Patch substitutes for 1 Component type."""
    s = arrange(game(), hands={0: ["Patch"]}, tableaus={0: ["CPU", "RAM"]}, row=["Mainframe"])
    act(s, "Requisition Mainframe")
    assert names(s, s.tableau[0]) == ["Mainframe"] and s.patches[0] == 0


def test_patch_is_not_a_computer_for_the_network_prerequisite():
    """U4: a Patch never stands in for the 2-Computer prerequisite."""
    s = arrange(
        game(),
        hands={0: ["Patch", "Silicon", "Copper", "Polymer"]},
        tableaus={0: ["Blade"]},
        row=["Cable"],
    )
    assert not can(s, "Requisition Cable")


def test_reserve_is_a_whole_turn_blocks_others_and_ends_at_your_next_turn():
    """U4: Reserve = whole turn; nobody else may requisition or bid on it until the
    start of your next turn, when the Patch is discarded."""
    s = arrange(
        game(),
        hands={0: ["Patch"], 1: ["Silicon", "Copper"], 2: ["Silicon", "Copper"]},
        row=["CPU", "Tower"],
    )
    act(s, "Reserve CPU")
    assert s.current_player() == 1 and s.observation(1)["build_row"][0]["reserved_by"] == 0
    assert not can(s, "Requisition CPU")
    act(s, "Pass")
    act(s, "Pass")
    assert s.current_player() == 0 and s.reserved_by == [-1] * 4
    assert names(s, s.build_discard) == ["Patch"]
    assert can(s, "Requisition CPU") is False  # seat 0 has no materials
    act(s, "Pass")
    assert can(s, "Requisition CPU")  # seat 1 may now


def test_reserved_slot_is_not_refilled_and_the_row_plays_one_short():
    """U4/FAQ: a reserved card keeps its slot; refills fill only empty slots."""
    s = arrange(
        game(),
        hands={0: ["Patch"], 1: ["Silicon", "Copper"]},
        row=["RAM", "CPU", None, None],
        build_deck=["Case", "PSU", "Storage"],
    )
    act(s, "Reserve RAM", "Requisition CPU")
    row = [s.table.name[c] if c >= 0 else None for c in s.build_row]
    assert row == ["RAM", "Case", "PSU", "Storage"]
    assert s.reserved_by[0] == 0


def test_illegal_action_raises_names_it_and_changes_nothing():
    """API: an illegal action raises IllegalActionError naming it; the state is unchanged."""
    s = arrange(game(), hands={0: []}, row=["CPU"])
    before = (s.history(), s.observation(0))
    with pytest.raises(
        IllegalActionError, match=r"action 2 \(Requisition CPU.*not legal.*legal: 0=Draw"
    ):
        s.apply_action(A.REQ)
    with pytest.raises(IllegalActionError):
        s.apply_action(999)
    assert (s.history(), s.observation(0)) == before


def test_same_seed_same_actions_same_game():
    """Determinism: all draws come from the state's generator seeded by new_initial_state."""
    g = game(4)
    a, b = g.new_initial_state(7), g.new_initial_state(7)
    assert a.observation(0) == b.observation(0) and a.zones() == b.zones()
    assert g.new_initial_state(8).zones() != a.zones()


def test_two_copies_in_the_build_row_read_differently():
    """Each Build Row action names its slot, so two Motherboards are two labels."""
    s = arrange(
        game(),
        hands={0: ["Copper", "Polymer", "Patch"]},
        row=["Motherboard", "CPU", "Motherboard"],
    )
    got = labels(s)
    assert "Requisition Motherboard from slot 1 (pay Copper, Polymer)" in got
    assert "Requisition Motherboard from slot 3 (pay Copper, Polymer)" in got
    assert "Reserve Motherboard in slot 1 with a Patch" in got
    assert "Reserve Motherboard in slot 3 with a Patch" in got
    assert len(set(got)) == len(got)
