"""Scenario tests for SUPER COMPUTER: one or more per rule and ruling (S1-S10),
each citing the ruling it pins. Rules doc: docs/rules/supercomputer.md."""

import json

import pytest
from sc_helpers import (
    build,
    cells,
    finish_builds,
    first_set,
    game,
    part,
    parts_meeting,
    pick_first_all,
)

from cardlab import IllegalActionError
from cardlab.games.supercomputer import scoring
from cardlab.games.supercomputer.actions import ORIGIN, xy_cell


# -- S1 / S2: the card set and the deal ---------------------------------------------------
def test_card_set_shape():
    """S1: parts with four edges, colours incl. black; CPU and Hub are the 4-way parts."""
    g = game()
    t = g.tables
    assert t.num_parts == 35 and t.num_builds == 14
    colours = {e for edges in t.edges for e in edges if e}
    assert 1 in colours and len(colours) >= 5  # black plus four colours
    for k in t.all_parts:
        assert t.four_way[k] == (t.part_types[k] in ("CPU", "Hub"))
    assert len(t.base_parts) == 28 and len(t.all_parts) == 35


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_uses_lt4_parts_only_for_five(players):
    """S2: 7 parts each; "<4" parts only with 5 players (set aside face up otherwise)."""
    g = game(players)
    s = g.new_initial_state(3)
    z = s.zones()
    for q in range(players):
        assert len(z[f"private:{q}:hand"]) == 7
    lt4 = {g.tables.part_ids[k] for k in g.tables.all_parts if k not in g.tables.base_parts}
    dealt = {i for q in range(players) for i in z[f"private:{q}:hand"]} | set(z["hidden:deck"])
    if players == 5:
        assert lt4 <= dealt and not z["public:set_aside"]
    else:
        assert not (lt4 & dealt) and set(z["public:set_aside"]) == lt4


def test_choose_one_build_keeps_one_and_returns_other_to_bottom():
    """S2: each seat is dealt 2 builds and keeps 1; the other goes under the build deck."""
    g = game(3)
    s = g.new_initial_state(1)
    assert s.decision_kind() == "choose_build"
    offer = list(s.build_offers[0])
    s.apply_action(g.actions.first_build + offer[1])
    assert s.kept_builds[0] == [offer[1]] and s.build_deck[0] == offer[0]
    obs = s.observation(0)
    assert [b["id"] for b in obs["you"]["returned_build"]] == [g.tables.build_ids[offer[0]]]
    assert g.tables.build_ids[offer[1]] not in json.dumps(s.observation(1))


def test_every_round_reshuffles_and_redeals():
    """S2/S6: each round all parts are reshuffled and dealt anew; computers start empty."""
    g = game(4)
    s = g.new_initial_state(8)
    first = [h[:] for h in s.hands]
    while s.round_index == 0:
        s.apply_action(s.legal_actions()[0])
    assert (
        s.round_index == 1
        and all(not grid for grid in s.computers)
        and all(not sc for sc in s.scrap_piles)
    )
    assert sorted(k for h in s.hands for k in h) == sorted(g.tables.base_parts)
    assert s.hands != first


# -- S3: secret simultaneous picks, passing -----------------------------------------------
def test_pending_pick_hidden_until_all_have_picked():
    """S3: a pick stays secret from the other seats until all have picked, then revealed."""
    g = game(3)
    s = g.new_initial_state(2)
    finish_builds(s)
    k = s.legal_actions()[0]
    pid = g.tables.part_ids[k]
    s.apply_action(k)
    assert s.observation(0)["you"]["pending_pick"]["id"] == pid
    for q in (1, 2):
        assert pid not in json.dumps(s.observation(q))
        assert s.observation(q)["players"][0]["has_picked"] is True
    s.apply_action(s.legal_actions()[0])
    assert pid not in json.dumps(s.observation(1)) and pid not in json.dumps(s.observation(2))
    s.apply_action(s.legal_actions()[0])  # the last pick: reveal
    for q in (1, 2):
        assert s.observation(q)["players"][0]["placing"]["id"] == pid
    reveal = [e for e in s.observation(1)["log"] if e["kind"] == "reveal"][-1]
    assert reveal["picks"][0] == {"seat": 0, "part": g.tables.part_names[k]}
    assert f"seat 0 {g.tables.part_names[k]}" in reveal["text"]


@pytest.mark.parametrize(
    ("passing", "steps"), [("left", (1, 1, 1)), ("alternate", (1, -1, 1)), ("right", (-1, -1, -1))]
)
def test_passing_direction_each_round(passing, steps):
    """S3 + S9 option 3: hands pass left; or left-right-left; or right every round."""
    g = game(4, passing=passing)
    s = g.new_initial_state(4)
    for rnd in range(3):
        while s.round_index < rnd:
            s.apply_action(s.legal_actions()[0])
        finish_builds(s)
        before = [h[:] for h in s.hands]
        picked = [before[q][0] for q in range(4)]
        pick_first_all(s)
        for q in range(4):
            assert s.hands[(q + steps[rnd]) % 4] == [k for k in before[q] if k != picked[q]]


def test_passer_knows_the_hand_it_passed_but_not_the_next_secret_pick():
    """S3: you saw the hand you passed; once its holder picks in secret, only the pool shows."""
    g = game(3)
    s = g.new_initial_state(6)
    finish_builds(s)
    pick_first_all(s)
    while s.decision_kind() == "place":
        s.apply_action(s.legal_actions()[0])
    known = s.observation(0)["players"][1]["known_hand"]
    assert sorted(c["id"] for c in known) == [g.tables.part_ids[k] for k in s.hands[1]]
    s.apply_action(s.legal_actions()[0])  # seat 0 picks
    s.apply_action(s.legal_actions()[0])  # seat 1 picks from the hand seat 0 passed
    entry = s.observation(0)["players"][1]
    assert "known_hand" not in entry and len(entry["known_hand_and_pick"]) == len(known)
    assert g.tables.part_ids[s.pending_picks[1]] not in json.dumps(s.observation(0))


# -- S4: placement legality on hand-made grids --------------------------------------------
def _grid_state(g, grid):
    s = g.new_initial_state(0)
    s.set_computer(0, grid)
    return s


def test_first_part_goes_anywhere_which_is_the_origin():
    """S4: the first part of a round goes anywhere (translation-free grid: at (0,0))."""
    g = game()
    s = g.new_initial_state(0)
    assert s.legal_cells(0, part(g, "32 GB RAM")) == [ORIGIN]


def test_same_colour_connects_and_other_colours_clash():
    """S4: connectors must match colour: 16 GB RAM (west green) cannot sit east of the
    Core X8 CPU (east blue), but may sit west of it, where the CPU's edge is black."""
    g = first_set()
    s = _grid_state(g, {(0, 0): part(g, "Core X8 CPU")})
    assert s.legal_cells(0, part(g, "16 GB RAM")) == cells((-1, 0))
    assert cells((1, 0))[0] in s.legal_cells(0, part(g, "24 GB GPU"))  # blue to blue


def test_black_is_universal():
    """S4: black accepts every colour: 32 GB RAM (green south edge) may sit above the
    Atom Lite CPU, whose north edge is black."""
    g = game()
    s = _grid_state(g, {(0, 0): part(g, "Atom Lite CPU")})
    assert xy_cell(0, -1) in s.legal_cells(0, part(g, "32 GB RAM"))


def test_connector_may_not_face_a_bare_edge():
    """S4: 32 GB RAM has bare east/west edges: it may not sit beside the CPU's side
    connectors, and green faces red below; only above (green to green) is legal."""
    g = first_set()
    s = _grid_state(g, {(0, 0): part(g, "Core X8 CPU")})
    assert s.legal_cells(0, part(g, "32 GB RAM")) == cells((0, -1))


def test_touching_needs_one_connected_pair():
    """S4: two bare edges may touch, but a part must connect somewhere: the Riser Cable
    (bare west) beside 32 GB RAM (bare east) alone is refused; with the USB Hub's
    yellow south edge above it (black riser north) it is legal."""
    g = first_set()
    riser = part(g, "Riser Cable")
    s = _grid_state(g, {(0, 0): part(g, "32 GB RAM")})
    assert s.legal_cells(0, riser) == cells((0, -1), (0, 1))
    s.set_computer(
        0,
        {
            (0, 0): part(g, "32 GB RAM"),
            (0, -1): part(g, "Atom Lite CPU"),
            (1, -1): part(g, "USB Hub"),
        },
    )
    assert xy_cell(1, 0) in s.legal_cells(0, riser)


def test_every_touching_edge_must_be_satisfied():
    """S4: 24 GB GPU at (1,0) would connect north (black) but its blue west connector
    would face the RAM's bare east edge: refused."""
    g = first_set()
    s = _grid_state(
        g,
        {
            (0, 0): part(g, "32 GB RAM"),
            (0, -1): part(g, "Atom Lite CPU"),
            (1, -1): part(g, "USB Hub"),
        },
    )
    assert xy_cell(1, 0) not in s.legal_cells(0, part(g, "24 GB GPU"))


def _to_first_placement(g, seed=0):
    s = g.new_initial_state(seed)
    finish_builds(s)
    pick_first_all(s)
    assert s.decision_kind() == "place"
    return s


def test_illegal_placement_refused_state_unchanged():
    """S4 + API: an illegal cell raises IllegalActionError and changes nothing."""
    g = game()
    s = _to_first_placement(g)
    assert s.legal_actions() == [g.actions.first_place + ORIGIN]
    before = json.dumps([s.observation(q) for q in range(4)])
    with pytest.raises(IllegalActionError):
        s.apply_action(g.place_action(1, 0))
    with pytest.raises(IllegalActionError):
        s.apply_action(g.actions.scrap)  # voluntary scrap is off by default (S5)
    assert json.dumps([s.observation(q) for q in range(4)]) == before
    assert s.action_to_string(s.legal_actions()[0]).endswith("at (0,0)")


# -- S5: scrap ----------------------------------------------------------------------------
NO_FIT_ON_RAM = ("12 GB GPU", "550 W PSU", "2 TB HDD", "8 GB GPU", "Power Hub")


def _seed_with_hand_card(g, names):
    wanted = {part(g, n) for n in names}
    for seed in range(200):
        s = g.new_initial_state(seed)
        hit = [k for k in s.hands[0] if k in wanted]
        if hit and part(g, "32 GB RAM") not in s.hands[0]:
            return s, hit[0]
    raise AssertionError("no seed found")


@pytest.mark.parametrize("voluntary", [False, True])
def test_part_with_no_legal_place_is_scrapped(voluntary):
    """S5: a part that fits nowhere is scrapped (no decision); scrap stays for the round
    and scores red. Checked parts have no green/black north or south edge, so they cannot
    join a lone 32 GB RAM (green north/south, bare sides)."""
    g = first_set(3, voluntary_scrap=voluntary)
    s, k = _seed_with_hand_card(g, NO_FIT_ON_RAM)
    finish_builds(s)
    s.set_computer(0, {(0, 0): part(g, "32 GB RAM")})
    assert s.legal_cells(0, k) == []
    s.apply_action(k)
    pick_first_all(s)
    assert s.scrap_piles[0] == [k] and s.scrapped_count[0] == 1
    assert s.current_player() != 0 or s.decision_kind() != "place"
    scrap = [e for e in s.observation(2)["log"] if e["kind"] == "scrap"][-1]
    assert (scrap["seat"], scrap["part"], scrap["reason"]) == (
        0,
        g.tables.part_names[k],
        "no_match",
    )
    assert scrap["text"].startswith(f"Seat 0 cannot attach {g.tables.part_names[k]}: no empty cell")


def test_voluntary_scrap_option_offers_scrap():
    """S5 option voluntary_scrap=true: a placeable part may also be scrapped by choice."""
    g = game(3, voluntary_scrap=True)
    s = _to_first_placement(g)
    assert g.actions.scrap in s.legal_actions()
    k = s.to_place[0]
    s.apply_action(g.actions.scrap)
    assert s.scrap_piles[0] == [k] and not s.computers[0]
    scrap = [e for e in s.observation(1)["log"] if e["kind"] == "scrap"][-1]
    assert scrap["reason"] == "chosen" and "chooses to scrap" in scrap["text"]
    assert g.actions.scrap not in _to_first_placement(game(3)).legal_actions()


# -- S6 / S7: round scoring and build matching ---------------------------------------------
def test_round_score_is_green_plus_red_plus_build():
    """S6: green[r] of attached parts + red[r] of scrap + build bonus/penalty, per round."""
    g = game(3)
    s = g.new_initial_state(11)
    for rnd in range(3):
        while not (s.round_index == rnd and s.turn == 6 and s.decision_kind() == "pick"):
            s.apply_action(s.legal_actions()[-1])
        before = s.points[:]
        pick_first_all(s)
        while s.round_index == rnd and not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
        # Last round's grids and scrap are cleared only when the next round starts,
        # so rebuild the expectation from the public records.
        for r, q, attached, scrapped, blines in s.round_records[-3:]:
            assert r == rnd
            t = g.tables
            green = sum(t.green[t.part_names.index(n)][rnd] for n, _ in attached)
            red = sum(t.red[t.part_names.index(n)][rnd] for n, _ in scrapped)
            bpts = sum(p for _, p, _ in blines)
            assert s.points[q] - before[q] == green + red + bpts
            assert len(attached) + len(scrapped) == 7


def test_build_bonus_or_penalty_uses_attached_parts_only():
    """S6: the kept build scores its bonus[r] if every requirement is met, else penalty[r]."""
    g = game(2)
    s = g.new_initial_state(5)
    finish_builds(s)
    b = s.kept_builds[0][0]
    need = parts_meeting(g, b)
    s.set_computer(0, {(i, 0): k for i, k in enumerate(need)})
    assert scoring.build_points(s, 0)[0] == g.tables.bonus[b][0]
    s.set_computer(0, {(i, 0): k for i, k in enumerate(need[:-1])})
    assert scoring.build_points(s, 0)[0] == g.tables.penalty[b][0]
    s.scrap_piles[0] = [need[-1]]  # a scrapped part never counts toward a build
    assert scoring.build_points(s, 0)[0] == g.tables.penalty[b][0]


def test_sizes_exact_range_and_any():
    """S7: a named size must match exactly; a range includes its ends; no size = any."""
    g = game()
    t = g.tables
    P = lambda n: part(g, n)  # noqa: E731
    rig = build(g, "Gaming Rig")  # CPU, GPU 12-24 GB, PSU 750-1000 W
    assert t.met(rig, [P("Core X8 CPU"), P("24 GB GPU"), P("1000 W PSU")])
    assert t.met(rig, [P("Atom Lite CPU"), P("12 GB GPU"), P("750 W PSU")])  # range ends
    assert not t.met(rig, [P("Core X8 CPU"), P("8 GB GPU"), P("1000 W PSU")])  # below range
    assert not t.met(rig, [P("Core X8 CPU"), P("24 GB GPU"), P("550 W PSU")])
    office = build(g, "Home Office PC")  # Motherboard, RAM exactly 16 GB, any Storage
    assert t.met(office, [P("Server Board"), P("16 GB RAM"), P("2 TB HDD")])
    assert t.met(office, [P("Server Board"), P("16 GB RAM"), P("4 TB NVMe")])
    assert not t.met(office, [P("Server Board"), P("32 GB RAM"), P("2 TB HDD")])
    render = build(g, "Render Node")  # 2 GPU, 1 Cooling: counts need distinct parts
    assert not t.met(render, [P("8 GB GPU"), P("Case Fan")])
    assert t.met(render, [P("8 GB GPU"), P("12 GB GPU"), P("Case Fan")])


# -- S8: tie-break ------------------------------------------------------------------------
def test_tiebreak_chain():
    """S8: points; then fewest 4-way parts attached over the game; then fewest scrapped;
    then shared. (Sets the public totals directly: the chain reads only these.)"""
    g = game(3)
    s = g.new_initial_state(0)
    s.points, s.four_way_attached, s.scrapped_count = [50, 40, 30], [9, 0, 0], [9, 0, 0]
    assert scoring.winners(s) == ([0], None)
    s.points, s.four_way_attached, s.scrapped_count = [50, 50, 30], [3, 2, 0], [0, 5, 0]
    assert scoring.winners(s) == ([1], "fewest_4way")
    s.four_way_attached = [2, 2, 0]
    assert scoring.winners(s) == ([0], "fewest_scrapped")
    s.scrapped_count = [5, 5, 0]
    assert scoring.winners(s) == ([0, 1], "shared")


# -- S9: options --------------------------------------------------------------------------
def test_keep_both_needs_both_for_the_bonus():
    """S9 option 1: both builds kept; bonus only if both met; each unmet build's penalty."""
    g = game(2, builds="keep_both")
    s = g.new_initial_state(3)
    assert s.decision_kind() == "pick" and len(s.kept_builds[0]) == 2
    b1, b2 = s.kept_builds[0]
    t = g.tables
    both = parts_meeting(g, b1) + parts_meeting(g, b2)
    s.set_computer(0, {(i, 0): k for i, k in enumerate(both)})
    assert scoring.build_points(s, 0)[0] == t.bonus[b1][0] + t.bonus[b2][0]
    only1 = [k for k in parts_meeting(g, b1)]
    s.set_computer(0, {(i, 0): k for i, k in enumerate(only1)})
    if not t.met(b2, only1):
        assert scoring.build_points(s, 0)[0] == t.penalty[b2][0]
    s.set_computer(0, {})
    assert scoring.build_points(s, 0)[0] == t.penalty[b1][0] + t.penalty[b2][0]


def test_public_race_sole_meeter_wins_tie_discards_no_penalty():
    """S9 option 2: players-1 face-up builds; after a turn a build met by exactly one seat
    is won by it, met by two or more is discarded; no penalties."""
    g = game(3, builds="public_race")
    s = g.new_initial_state(9)
    assert s.decision_kind() == "pick" and len(s.race_builds) == 2
    obs = s.observation(1)
    assert [b["id"] for b in obs["race"]] == [g.tables.build_ids[b] for b in s.race_builds]
    b1, b2 = s.race_builds
    s.set_computer(0, {(i, 0): k for i, k in enumerate(parts_meeting(g, b1))})
    s.set_computer(1, {(i, 0): k for i, k in enumerate(parts_meeting(g, b2))})
    s.set_computer(2, {(i, 0): k for i, k in enumerate(parts_meeting(g, b2))})
    scoring.settle_race(s)
    assert s.race_won[0] == [b1] and s.race_discard == [b2] and s.race_builds == []
    assert scoring.build_points(s, 0)[0] == g.tables.bonus[b1][0]
    assert scoring.build_points(s, 2)[0] == 0  # no penalty in the race


def test_race_is_settled_after_every_turn():
    """S9 option 2: the race check runs at the end of each turn during play."""
    g = game(2, builds="public_race")
    s = g.new_initial_state(2)
    b = s.race_builds[0]
    s.set_computer(1, {(i, 0): k for i, k in enumerate(parts_meeting(g, b))})
    pick_first_all(s)
    while s.decision_kind() == "place":
        s.apply_action(s.legal_actions()[0])
    assert b in s.race_won[1] or b in s.race_discard


def test_unknown_option_and_bad_value_are_named():
    """Options: unknown name lists the options; bad value lists the allowed values."""
    with pytest.raises(
        ValueError,
        match=r"'colour'.*builds, case_height, case_width, passing, scrap_of_green, voluntary_scrap",
    ):
        game(4, colour="red")
    with pytest.raises(ValueError, match=r"'builds'.*choose_one, keep_both, public_race"):
        game(4, builds="draft")
    with pytest.raises(ValueError, match="2-5 players"):
        game(6)


def test_options_default_to_the_rulings():
    """S5, S9: defaults are no voluntary scrap, choose one build, pass left; the levers
    default to the rules as written (no case, the printed red dots)."""
    g = game()
    assert g.options == {
        "voluntary_scrap": False,
        "builds": "choose_one",
        "passing": "left",
        "case_width": 0,
        "case_height": 0,
        "scrap_of_green": 0,
    }


def test_engine_shuffle_is_random_shuffle_draw_for_draw():
    """Determinism: the engine's written-out Fisher-Yates (resample.shuffle) gives
    exactly random.shuffle's order and leaves the generator in the same state, so a
    seed deals the same game as before it was written out (and on this Python)."""
    import random

    from cardlab.core.rng import shuffle

    for seed in range(200):
        for length in (0, 1, 2, 7, 14, 28, 35):
            mine, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(length)), list(range(length))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b and mine.getstate() == theirs.getstate()
