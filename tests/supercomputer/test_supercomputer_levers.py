"""SUPER COMPUTER's rule levers: the bounded computer (`case_width`,
`case_height`) and scrap values relative to green (`scrap_of_green`). Each changes a
rule of the page (S4, S6); at 0 the game is the rules as written."""

import random

import pytest
from sc_helpers import game, part
from test_supercomputer_audit import reference_cells

import cardlab
from cardlab.agents import make_agent
from cardlab.core.errors import OptionError
from cardlab.core.options import levers
from cardlab.games.supercomputer import scenarios
from cardlab.games.supercomputer.actions import cell_xy, xy_cell
from cardlab.games.supercomputer.rules import OPTIONS
from cardlab.testing import check_game


def _extent(cells):
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _fits(cells, w, h):
    if not cells:
        return True
    width, height = _extent(cells)
    return (not w or width <= w) and (not h or height <= h)


def test_levers_are_declared_with_the_rule_as_written_first():
    """Each lever names the passage it changes and what it is for; its
    default (0) is the page's rule."""
    named = {spec.name: spec for spec in levers(OPTIONS)}
    assert set(named) == {"case_width", "case_height", "scrap_of_green"}
    for spec in named.values():
        assert spec.default == 0
        assert spec.lever.passage and spec.lever.purpose
    g = game()
    assert (g.case_width, g.case_height, g.scrap_of_green) == (0, 0, 0)


def test_bad_lever_values_are_refused_naming_the_option():
    with pytest.raises(OptionError, match="case_width"):
        game(case_width=9)
    with pytest.raises(OptionError, match="scrap_of_green"):
        game(scrap_of_green=-5)


def test_levers_at_their_defaults_play_the_same_game():
    """At 0 the levers change nothing: the same seeds and random actions give the same
    history and scores as a game given no lever at all."""
    plain = game(4)
    zeros = game(4, case_width=0, case_height=0, scrap_of_green=0)
    for seed in range(3):
        runs = []
        for g in (plain, zeros):
            rng = random.Random(seed)
            s = g.new_initial_state(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            runs.append((s.history(), s.returns()))
        assert runs[0] == runs[1]


@pytest.mark.parametrize(("w", "h"), [(3, 3), (4, 3), (2, 5), (3, 0)])
def test_legal_cells_respect_the_case(w, h):
    """Lever case_width x case_height (S4 bounded): the engine's legal cells are exactly
    the reference reading of S4 that keep the computer within w x h cells, for every part
    on every computer reached in random games; every computer fits; a part that would fit
    only outside the case is scrapped with the reason 'case'."""
    g = game(4, case_width=w, case_height=h)
    rng = random.Random(w * 10 + h)
    checked = case_scraps = 0
    for seed in range(4):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            if s.decision_kind() == "place":
                q = s.current_player()
                grid_xy = {cell_xy(c): k for c, k in s.computers[q].items()}
                assert _fits(grid_xy, w, h)
                for k in g.tables.all_parts:
                    cells = reference_cells(g, grid_xy, k)
                    want = sorted(xy_cell(*c) for c in cells if _fits([*grid_xy, c], w, h))
                    assert s.legal_cells(q, k) == want, (grid_xy, g.tables.part_names[k])
                    assert s.fits(q, k) == bool(want)
                    checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
        for q in range(4):
            assert _fits([cell_xy(c) for c in s.computers[q]], w, h)
        for entry in s.observation(0)["log"]:
            if entry["kind"] == "scrap" and entry["reason"] == "case":
                case_scraps += 1
    assert checked > 500
    if (w, h) == (3, 3):
        assert case_scraps > 0  # a 3 x 3 case turns some placements away


def test_a_part_that_fits_only_outside_the_case_is_scrapped_for_the_case():
    """A row of three USB Hubs (black all round) fills a 3-wide case: a fourth Hub could
    go east or west as written, but in the case only north or south."""
    g = game(4, case_width=3, case_height=2)
    s = g.new_initial_state(0)
    hub = part(g, "USB Hub")
    s.set_computer(0, {(0, 0): hub, (1, 0): hub, (2, 0): hub})
    assert sorted(cell_xy(c) for c in s.legal_cells(0, hub)) == sorted(
        [(x, y) for x in range(3) for y in (-1, 1)]
    )
    s.set_computer(0, {(0, 0): hub, (1, 0): hub, (2, 0): hub, (0, 1): hub})
    assert sorted(cell_xy(c) for c in s.legal_cells(0, hub)) == [(1, 1), (2, 1)]
    with pytest.raises(ValueError, match="case"):
        s.set_computer(0, {(0, 0): hub, (1, 0): hub, (2, 0): hub, (3, 0): hub})
    s.set_computer(0, {(x, y): hub for x in range(3) for y in range(2)})
    assert s.legal_cells(0, hub) == []
    assert s.scrap_reason(0, hub) == "case"
    assert s.open_connectors(0) == 0  # every connector faces the case's walls


def test_the_sample_computer_needs_a_3_by_4_case():
    """S10 under the case: the sample computer spans 3 columns and 4 rows, so it still
    places and scores 30/40/50 in a 3 x 4 case, and a 3 x 3 case turns its last part away."""
    assert scenarios.sample_computer_scores(game(2, case_width=3, case_height=4)) == [30, 40, 50]
    with pytest.raises(ValueError, match="not legal"):
        scenarios.sample_computer_scores(game(2, case_width=3, case_height=3))


@pytest.mark.parametrize("percent", [50, 100, 150])
def test_scrap_values_follow_green(percent):
    """Lever scrap_of_green (S6 changed): a scrapped part scores minus `percent`% of its
    green value that round, rounded up; the engine's round scores use it."""
    g = game(4, scrap_of_green=percent, voluntary_scrap=True)
    plain = game(4)
    for k in g.tables.all_parts:
        for r in range(3):
            green = g.tables.green[k][r]
            assert g.tables.red[k][r] == -((green * percent + 99) // 100)
            assert g.tables.green[k][r] == plain.tables.green[k][r]
    s = g.new_initial_state(1)
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    seen = 0
    for entry in s.observation(0)["log"]:
        if entry["kind"] == "score":
            for scrap in entry["scrapped"]:
                k = g.tables.part_names.index(scrap["part"])
                assert scrap["points"] == g.tables.red[k][entry["round"] - 1]
                seen += 1
    assert seen > 0
    low, high = g.utility_bounds()
    assert all(low <= x <= high for x in s.returns())


def test_scrap_of_green_zero_keeps_the_printed_red_dot():
    assert game(4, scrap_of_green=0).tables.red == game(4).tables.red


@pytest.mark.parametrize(
    "options",
    [
        {"case_width": 3, "case_height": 4},
        {"case_width": 2, "case_height": 3, "voluntary_scrap": True},
        {"scrap_of_green": 100, "builds": "public_race"},
        {"case_width": 4, "case_height": 4, "scrap_of_green": 50, "builds": "keep_both"},
    ],
)
def test_conformance_with_levers_set(options):
    check_game(game(3, **options), games=2)


@pytest.mark.parametrize("placement", ["open", "deck"])
def test_personas_play_inside_the_case(placement):
    """Bots and the case: the personas (both placers) and greedy play whole games in a
    3 x 3 case; every computer fits it (the engine offers nothing else) and the builder
    still scraps less than a random seat."""
    g = game(4, case_width=3, case_height=3)
    kinds = ["builder", "points", "greedy", "random"]
    scrapped = {k: 0 for k in kinds}
    for seed in range(3):
        agents = [
            make_agent(k, seed=seed, placement=placement)
            if k in ("builder", "points")
            else make_agent(k, seed=seed)
            for k in kinds
        ]
        seen = []

        def watch(state, seat, action, seen=seen):
            if state.decision_kind() == "place" and not seen:
                seen.append(state)  # the game's own state object, followed to the end
            if state.decision_kind() == "place":
                cell = g.actions.cell(action) if g.actions.kind(action) == "place" else None
                if cell is not None:
                    grid = [cell_xy(c) for c in state.computers[seat]]
                    assert _fits([*grid, cell_xy(cell)], 3, 3)

        result = cardlab.play_game(g, agents, seed=seed, on_action=watch)
        for q, k in enumerate(kinds):
            scrapped[k] += result.info["scrapped"][q]
        for q in range(4):
            assert _fits([cell_xy(c) for c in seen[0].computers[q]], 3, 3)
    assert scrapped["builder"] < scrapped["random"]


def test_the_sample_claim_judges_the_reports_levers():
    """The lab's S10 claim plays the report's own rules: with a 3 x 3 case the sample
    computer cannot be built (fails, naming the part), with 3 x 4 it scores 30/40/50."""
    from cardlab.lab.claims import evaluate
    from cardlab.lab.context import LabContext

    def judge(options):
        ctx = LabContext(
            game="supercomputer",
            players=4,
            agents=("random",),
            options=options,
            games=4,
            variant=None,
            workers=1,
            progress=False,
            probe_games=4,
        )
        (row,) = evaluate(ctx, ["supercomputer.sample_30_40_50"])
        return row

    small = judge({"case_width": 3, "case_height": 3})
    assert small["verdict"] == "fails" and "4 TB NVMe" in small["evidence"]["reason"]
    fits = judge({"case_width": 3, "case_height": 4})
    assert fits["verdict"] == "holds" and fits["evidence"]["engine"] == [30, 40, 50]
