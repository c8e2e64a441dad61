"""Audit tests: rules and rulings that lacked a pin, and the bugs the audit found.

Each test cites the rulebook passage or ruling (U1..U17) it pins.
"""

import json

import cardlab
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.scenarios import act, arrange


def game(n=3, **opts):
    return cardlab.load_game("uptime", players=n, **opts)


def names(state, cards):
    return sorted(state.table.name[c] for c in cards)


def row_names(state):
    return [state.table.name[c] if c >= 0 else None for c in state.build_row]


def can(state, prefix):
    return any(state.action_to_string(a).startswith(prefix) for a in state.legal_actions())


def log(state, seat=0):
    return state.observation(seat)["log"]


# ---- U6: Supply Shortage revealed while a claim resolves ------------------------------
def test_shortage_revealed_by_blade_skips_the_next_claims_refill_not_the_blades():
    """U6: 'the single refill after the next claim by anyone is skipped'. A Shortage revealed
    by the Blade's draw comes after the Blade's claim, so the Blade's refill happens and the
    following claim's refill is the one skipped (bug: the Blade's own refill was skipped)."""
    s = arrange(
        game(),
        hands={1: ["Silicon", "Copper"]},
        tableaus={0: ["CPU", "RAM", "Case", "PSU"]},
        row=["Blade", "CPU", "Cable", "Router"],
        supply_deck=["Supply Shortage", "Polymer"],
        build_deck=["Motherboard", "Storage"],
    )
    act(s, "Requisition Blade", "Discard CPU", "Discard RAM", "Discard Case")
    assert row_names(s) == ["Motherboard", "CPU", "Cable", "Router"]  # the Blade's refill
    assert s.shortage_pending and names(s, s.hand[0]) == ["Polymer"]  # replacement drawn
    act(s, "Requisition CPU")  # seat 1: the next claim
    assert row_names(s) == ["Motherboard", None, "Cable", "Router"] and not s.shortage_pending
    assert "Supply Shortage: the Build Row is not refilled this time." in log(s)


def test_shortage_pending_before_a_blade_claim_skips_that_claims_refill():
    """U6: a Shortage already pending when the Blade is claimed skips the Blade's refill."""
    s = arrange(
        game(),
        tableaus={0: ["CPU", "RAM", "Case"]},
        row=["Blade", "Cable"],
        supply_deck=["Polymer"],
        build_deck=["Motherboard"],
    )
    s.shortage_pending = True
    act(s, "Requisition Blade")
    assert row_names(s) == [None, "Cable", None, None] and not s.shortage_pending


def test_two_player_discard_still_follows_a_skipped_refill_and_an_auction_win():
    """U16 + U6 + U10: after each claim (an auction win is one), the top Build card is
    discarded face-up, also when a Supply Shortage skipped the refill."""
    s = arrange(
        game(2),
        hands={0: ["Silicon"], 1: []},
        tableaus={0: ["Blade"]},
        row=["Campus Helpdesk", "CPU"],
        build_deck=["Case", "PSU", "RAM"],
    )
    s.shortage_pending = True
    act(s, "Bid on Contract")  # opening bid 1 is forced; seat 1 cannot raise
    assert names(s, s.tableau[0]) == ["Blade", "Campus Helpdesk"]
    assert row_names(s) == [None, "CPU", None, None]  # refill skipped
    assert s.table.name[s.build_discard[-1]] == "Case"  # but the top card was discarded
    assert "Two-player rule: the top Build card, Case, is discarded." in log(s)


# ---- U5 + resample: "gone" is public knowledge ----------------------------------------
def test_resample_never_puts_a_kind_seen_gone_back_into_the_supply_deck():
    """U5: naming a kind that is 'gone everywhere' tells everyone none is in the Supply Deck,
    which never grows (U3). A redeal must keep that kind out of the deck (bug: it put it back,
    and the free-material choice in the copy then had no legal action)."""
    s = arrange(
        game(),
        hands={0: [], 1: ["Copper"] * 3 + ["Silicon"], 2: ["Copper"] * 3},
        supply_deck=["Power Surge", "Rare-Earth", "Silicon", "Polymer"],
        supply_discard=[],
    )
    # all 6 Coppers are in hands 1 and 2; the other supply cards are in the discard
    act(s, "Draw", "Take a free Copper")
    assert any("names Copper, but none is left anywhere" in line for line in log(s))
    assert s.decision_kind() == "choose_material" and s.current_player() == 0
    moved = False
    for seed in range(60):
        r = s.resample_from_infostate(0, seed)
        assert json.dumps(r.observation(0)) == json.dumps(s.observation(0))
        assert "Copper" not in [r.table.name[c] for c in r.supply]
        copper_hands = [[r.table.name[c] for c in h].count("Copper") for h in r.hand]
        assert sum(copper_hands) == 6
        moved |= copper_hands != [0, 3, 3]
        while r.decision_kind() == "choose_material":  # always playable
            assert r.legal_actions()
            r.apply_action(r.legal_actions()[-1])
    assert moved  # the Coppers still move between the hands that may hold them


# ---- U4: Reserve blocks bids too ---------------------------------------------------------
def test_reserved_contract_cannot_be_bid_on_by_others_until_the_reservers_next_turn():
    """U4: nobody else may requisition or bid on a reserved card until the start of your
    next turn."""
    s = arrange(
        game(),
        hands={0: ["Patch"], 1: ["Silicon", "Copper"], 2: ["Silicon"]},
        tableaus={1: ["Blade"], 2: ["Tower"]},
        row=["Hospital Records"],
    )
    act(s, "Reserve Hospital Records")
    assert not can(s, "Bid on Contract")  # seat 1
    act(s, "Pass")
    assert not can(s, "Bid on Contract")  # seat 2
    act(s, "Pass", "Pass")  # seat 0's next turn began: the Patch is discarded
    assert s.current_player() == 1 and can(s, "Bid on Contract Hospital Records")
    assert any("Patch on Hospital Records is discarded" in line for line in log(s))


# ---- U8: Tower minimum 1 -------------------------------------------------------------------
def test_tower_discount_never_takes_a_network_below_one_material(tmp_path):
    """U8: the next Network costs one fewer raw material, minimum 1 (a designer's cost-1 Cable)."""
    from cardlab.games.uptime.cards import PACKAGED

    text = PACKAGED.read_text().replace('kind = "cable"\ncost = 3', 'kind = "cable"\ncost = 1')
    path = tmp_path / "cheap.toml"
    path.write_text(text)
    g = cardlab.load_game("uptime", players=3, cards=path)
    s = arrange(
        g, hands={0: ["Silicon", "Copper"]}, tableaus={0: ["Tower", "Blade"]}, row=["Cable"]
    )
    s.tower_discount[0] = 1
    assert can(s, "Requisition Cable from slot 1 (pay 1 raw material;")
    act(s, "Requisition Cable", "Pay Silicon")
    assert names(s, s.hand[0]) == ["Copper"] and s.tower_discount[0] == 0


# ---- U10: clockwise order, opener does not answer -------------------------------------------
def test_auction_goes_clockwise_from_the_opener_once_and_the_opener_does_not_answer():
    """U10: clockwise once around starting left of the opener (seat 2 opens: 3, 0, 1 answer);
    the opener is not asked again even when outbid; only the winner pays."""
    s = arrange(
        game(4),
        seat=2,
        first=2,
        hands={0: ["Silicon"] * 3, 1: ["Copper"] * 4, 2: ["Polymer"] * 5, 3: ["Rare-Earth"] * 2},
        tableaus={2: ["Blade"]},
        row=["Weather Supercluster"],
    )
    act(s, "Bid on Contract", "Open the bidding at 1")
    seen = []
    for label in ("Raise to 2", "Raise to 3", "Raise to 4"):
        seen.append(s.current_player())
        act(s, label)
    assert seen == [3, 0, 1]
    assert s.decision_kind() == "turn" and s.current_player() == 3  # seat 2's turn is over
    assert names(s, s.tableau[1]) == ["Weather Supercluster"] and s.hand[1] == []
    assert [len(h) for h in s.hand] == [3, 0, 5, 2]  # losers keep their cards
    text = log(s)
    assert (
        "Seat 2 opens an auction on the Contract Weather Supercluster (slot 1) at 1 material."
        in text
    )
    assert (
        "Seat 1 wins the Contract Weather Supercluster for 4 materials, "
        "paying Copper, Copper, Copper, Copper." in text
    )


# ---- observation: a perfect memory loses nothing ---------------------------------------------
def test_log_records_every_public_event_by_name():
    """Observation: payments, Blade's return, Twist reveals and free choices are in the log."""
    s = arrange(
        game(),
        hands={0: ["Silicon", "Copper"]},
        tableaus={0: ["CPU", "RAM", "Case", "PSU"]},
        row=["Blade", "Storage"],
        supply_deck=["Power Surge", "Polymer"],
        build_deck=["Motherboard"],
    )
    act(s, "Requisition Blade", "Discard CPU", "Discard RAM", "Discard Case")
    act(s, "Take a free Silicon", "Take a free Copper")
    text = log(s, 1)
    assert text == log(s, 2)  # the same public log for everyone
    for line in (
        "Seat 0 requisitions Blade from slot 1, paying CPU, RAM, Case.",
        "Seat 0 returns PSU to the bottom of the Build Deck (Blade).",
        "Seat 0 reveals the Twist Power Surge; it resolves and leaves the game.",
        "Power Surge: Seat 0 takes a free Silicon from the Supply discard.",
        "Power Surge: Seat 0 takes a free Copper from the Supply discard.",
        "Seat 0 draws 1 card for the Blade.",
        "The Build Row is refilled with Motherboard, PSU.",  # the returned card refills the Row
    ):
        assert line in text, line
    assert s.observation(1)["players"][0]["known_materials"] == {"Silicon": 1, "Copper": 1}


def test_forced_sub_decisions_are_not_in_history_and_replay_reproduces_them():
    """API: a sub-decision with one legal option is applied by the engine (not a history entry);
    replaying the history from the seed reproduces the same game and log."""
    s = arrange(game(), hands={0: ["Silicon", "Copper"]}, row=["CPU"])
    act(s, "Requisition CPU")  # both payments are forced
    assert s.history() == [A.REQ]
    assert "Seat 0 requisitions CPU from slot 1, paying Silicon, Copper." in log(s)
    g = game(4)
    import random

    rng = random.Random(5)
    a = g.new_initial_state(11)
    while not a.is_terminal():
        a.apply_action(rng.choice(a.legal_actions()))
    b = g.new_initial_state(11)
    for x in a.history():
        b.apply_action(x)
    assert b.observation(0) == a.observation(0) and b.zones() == a.zones()


# ---- resample: a function of the infostate and the seed --------------------------------------
def _named_zones(state):
    t = state.table
    by_id = {t.ids[c]: t.name[c] for c in range(t.count)}
    return {k: [by_id[i] for i in v] for k, v in state.zones().items()}


def test_resample_depends_only_on_what_the_seat_knows_and_the_seed():
    """API: two worlds that differ only in what seat p cannot see give the same redeal for the
    same seed (card for card by name), and so the same future: a bot cannot peek through it."""
    import random

    g = game(4)
    for deal in range(12):
        rng = random.Random(deal)
        s = g.new_initial_state(deal)
        for _ in range(rng.randrange(12)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        p = s.current_player()
        a = s.resample_from_infostate(p, 1).resample_from_infostate(p, 99)
        b = s.resample_from_infostate(p, 2).resample_from_infostate(p, 99)
        assert _named_zones(a) == _named_zones(b)
        for _ in range(30):  # the same actions draw the same cards
            if a.is_terminal():
                break
            x = a.legal_actions()[-1]
            a.apply_action(x)
            b.apply_action(x)
            assert _named_zones(a) == _named_zones(b)


def test_stall_study_reports_every_game():
    """U13 design note: the study behind docs/rules/uptime.md counts every game's end."""
    from cardlab.games.uptime.stall_study import study

    out = study(4, 3, ["random"])
    assert sum(out["ends"].values()) == 4 and set(out["ends"]) <= {
        "stall",
        "milestone",
        "build_deck_empty",
    }
    assert sum(out["build_row_at_end"].values()) == 16
