"""Audit tests for SUPER COMPUTER: an independent reference for placement legality (S4),
secret picks indistinguishable to every other seat (S3), the placement window, the
documented sample picture (S10), the keep_both scoring (S9) and action type checks."""

import json
import pathlib
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from sc_helpers import build, game, part, pick_first_all
from test_supercomputer_cards import SAMPLE

from cardlab import IllegalActionError
from cardlab.games.supercomputer import scoring
from cardlab.games.supercomputer.actions import cell_xy, xy_cell

DOCS = pathlib.Path(__file__).parents[2] / "docs" / "rules"


# -- S4: an independent reference for placement, compared with the engine --------------
def reference_cells(g, grid_xy, k):
    """S4 read directly off the card data: every empty cell next to the computer where
    each shared edge is satisfied (same colour, either black, or two bare edges) and at
    least one shared edge is a connector pair. No window, no lookup tables."""
    parts = g.cards.parts
    if not grid_xy:
        return {(0, 0)}  # the engine's convention for "the first part goes anywhere"
    me = parts[k].edges()
    out = set()
    # neighbour offset, my edge index, the neighbour's facing edge index (N E S W)
    sides = (((0, -1), 0, 2), ((1, 0), 1, 3), ((0, 1), 2, 0), ((-1, 0), 3, 1))
    for x, y in grid_xy:
        for (dx, dy), _, _ in sides:
            cell = (x + dx, y + dy)
            if cell in grid_xy:
                continue
            ok, connected = True, False
            for (ex, ey), mine, theirs in sides:
                other = grid_xy.get((cell[0] + ex, cell[1] + ey))
                if other is None:
                    continue
                a, b = me[mine], parts[other].edges()[theirs]
                if a == "none" and b == "none":
                    continue  # two bare edges may touch
                if a == "none" or b == "none" or not (a == b or "black" in (a, b)):
                    ok = False
                    break
                connected = True
            if ok and connected:
                out.add(cell)
    return out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_engine_placement_matches_reference_in_random_games(players):
    """S4: for every computer reached in random games and every part of the set, the
    engine's legal cells equal the reference reading of the rule (so the |x|,|y| <= 6
    window never hides a legal cell either)."""
    g = game(players)
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            if s.decision_kind() == "place":
                q = s.current_player()
                grid_xy = {cell_xy(c): k for c, k in s.computers[q].items()}
                for k in g.tables.all_parts:
                    want = sorted(xy_cell(x, y) for x, y in reference_cells(g, grid_xy, k))
                    assert s.legal_cells(q, k) == want, (grid_xy, g.tables.part_names[k])
                    checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 1000


@pytest.mark.parametrize("direction", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_window_reaches_the_seventh_part_six_cells_out(direction):
    """S4 / layout: seven parts a round reach at most 6 cells from the first, and the
    window |x|, |y| <= 6 offers that farthest cell: a line of six USB Hubs (black on
    every edge) lets the 7th go 6 cells out."""
    g = game()
    s = g.new_initial_state(0)
    dx, dy = direction
    link = part(g, "USB Hub")
    s.set_computer(0, {(i * dx, i * dy): link for i in range(6)})
    assert xy_cell(6 * dx, 6 * dy) in s.legal_cells(0, link)


# -- S3: a pending pick is indistinguishable to every other seat ------------------------
def _observations_after(s, action, others):
    c = s.clone()
    c.apply_action(action)
    return json.dumps([c.observation(q) for q in others], sort_keys=True)


@pytest.mark.parametrize(
    ("players", "builds"), [(2, "choose_one"), (3, "keep_both"), (5, "public_race")]
)
def test_secret_choices_are_indistinguishable_to_other_seats(players, builds):
    """S3 (and S2's secret build choice): while picks are pending, every other seat's
    observation is the same whichever part (or build) a seat chose; the public log grows
    only at the reveal, which names every seat's pick at once."""
    g = game(players, builds=builds)
    rng = random.Random(7)
    s = g.new_initial_state(3)
    compared = 0
    while not s.is_terminal():
        kind, p = s.decision_kind(), s.current_player()
        if kind in ("pick", "choose_build") and len(s.legal_actions()) > 1:
            others = [q for q in range(players) if q != p]
            views = {_observations_after(s, a, others) for a in s.legal_actions()}
            last = kind == "pick" and p == players - 1
            if not last:  # the last pick triggers the reveal, which is public by design
                assert len(views) == 1, f"seat {p}'s secret {kind} shows to another seat"
                compared += 1
        if kind == "pick":
            log_before = len(s.log)
            picks_before = [k for k in s.pending_picks]
            action = rng.choice(s.legal_actions())
            s.apply_action(action)
            if p < players - 1:
                assert len(s.log) == log_before, "the log spoke before the reveal"
            else:
                reveal = s.observation(0)["log"][log_before]
                # the last pick by its action (g.actions.pick(k) == k), not from
                # to_place: a part that fits nowhere is scrapped at the reveal
                names = [g.tables.part_names[k] for k in picks_before[:-1] + [action]]
                for q, name in enumerate(names):
                    assert reveal["picks"][q] == {"seat": q, "part": name}
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert compared > 20


# -- API: actions must be ints ---------------------------------------------------------
def test_non_int_actions_refused_state_unchanged():
    """Bad input: a float or bool equal to a legal action is refused with a clear error
    and changes nothing (it used to be accepted and broke the observation); a numpy
    integer is converted."""
    g = game(3, builds="keep_both")
    s = g.new_initial_state(1)
    a = s.legal_actions()[0]
    before = json.dumps([s.observation(q) for q in range(3)])
    for bad in (float(a), "0", None, True):
        with pytest.raises(IllegalActionError, match="action"):
            s.apply_action(bad)
        assert json.dumps([s.observation(q) for q in range(3)]) == before
    s.apply_action(np.int64(a))
    assert s.history() == [a] and type(s.history()[0]) is int


# -- S8: 4-way parts are counted as they are attached -----------------------------------
def test_four_way_parts_counted_when_attached():
    """S8: the tie-break counts 4-way parts (CPU, Hub) attached over the game."""
    g = game(2, builds="keep_both")
    for seed in range(50):
        s = g.new_initial_state(seed)
        if g.tables.four_way[s.hands[0][0]]:
            break
    pick_first_all(s)
    s.apply_action(s.legal_actions()[0])  # seat 0's first part: the origin
    assert s.four_way_attached[0] == 1 and s.observation(1)["players"][0]["four_way_attached"] == 1


# -- S9 option 1: keep both, exact figures ---------------------------------------------
def test_keep_both_exact_points():
    """S9 option 1: both met = both bonuses; one met = only the unmet one's penalty;
    none met = both penalties."""
    g = game(2, builds="keep_both")
    t = g.tables
    s = g.new_initial_state(0)
    rig, silent = build(g, "Gaming Rig"), build(g, "Silent PC")
    s.kept_builds[0] = [rig, silent]
    P = lambda n: part(g, n)  # noqa: E731
    rig_parts = [P("Core X8 CPU"), P("24 GB GPU"), P("1000 W PSU")]
    silent_parts = [P("Air Cooler"), P("550 W PSU")]
    s.set_computer(0, {(i, 0): k for i, k in enumerate(rig_parts + silent_parts)})
    assert scoring.build_points(s, 0)[0] == t.bonus[rig][0] + t.bonus[silent][0]
    s.set_computer(0, {(i, 0): k for i, k in enumerate(rig_parts)})
    assert scoring.build_points(s, 0)[0] == t.penalty[silent][0]
    s.set_computer(0, {})
    assert scoring.build_points(s, 0)[0] == t.penalty[rig][0] + t.penalty[silent][0]


# -- S10: the picture in the docs is the tested sample ---------------------------------
def test_sample_picture_matches_cards_and_test():
    """S10: supercomputer_sample.svg draws exactly SAMPLE (positions, names, green points,
    connector letters from cards.toml), and its caption's totals are the tested ones."""
    g = game()
    t = g.tables
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(DOCS / "supercomputer_sample.svg").getroot()
    texts = [
        (float(e.get("x")), float(e.get("y")), e.text or "", e.get("font-size"))
        for e in root.iterfind("s:text", ns)
    ]
    drawn = {}
    for r in root.iterfind("s:rect", ns):
        if r.get("width") != "108":
            continue
        x0, y0 = float(r.get("x")), float(r.get("y"))
        inside = [
            (x - x0, y - y0, txt, size)
            for x, y, txt, size in texts
            if x0 <= x <= x0 + 108 and y0 <= y <= y0 + 112
        ]
        name = " ".join(txt for _, _, txt, size in inside if size in ("11.5", "13") and txt)
        greens = next(txt for _, _, txt, _ in inside if "/" in txt)
        letters = {"N": "-", "E": "-", "S": "-", "W": "-"}
        for dx, dy, txt, _ in inside:
            if len(txt) == 1:
                side = "N" if dy < 20 else "S" if dy > 90 else "W" if dx < 20 else "E"
                letters[side] = txt
        drawn[((x0 - 146) / 120, (y0 - 166) / 120)] = (name, greens, "".join(letters.values()))
    letter = dict(zip(["none", "black", "red", "blue", "green", "yellow"], "-KRBGY", strict=True))
    expected = {}
    for x, y, name in SAMPLE:
        k = part(g, name)
        edges = "".join(letter[e] for e in g.cards.parts[k].edges())
        expected[(x, y)] = (name, "/".join(str(v) for v in t.green[k]), edges)
    assert drawn == expected
    caption = " ".join(txt for _, _, txt, _ in texts)
    assert "30 / 40 / 50" in caption
    doc = " ".join((DOCS / "supercomputer.md").read_text().split())
    for x, y, name in SAMPLE:
        assert f"{name} ({x},{y})" in doc, name
