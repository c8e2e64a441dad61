"""A game's own tuning targets (claims.tune_targets): SUPER COMPUTER's placement
targets are measured per trial, scored as misses and reported as claims."""

from __future__ import annotations

from cardlab.core.variants import CardChange, Variant, load_variant
from cardlab.games import game_info, packaged_variants
from cardlab.lab.tune.evaluate import evaluate
from cardlab.lab.tune.objectives import TARGETS, misses, verdicts

IDS = {
    "supercomputer.placement_cells",
    "supercomputer.one_cell_share",
    "supercomputer.builder_scrap",
    "supercomputer.random_scraps_more",
}


def test_supercomputer_trials_measure_the_placement_targets() -> None:
    first = load_variant(
        packaged_variants("supercomputer")["first_set"], game_info("supercomputer")
    )
    m = evaluate("supercomputer", 4, first, 0, 4)
    got = {g["id"]: g for g in m["game_targets"]}
    assert set(got) == IDS
    # the first card set misses the placement targets (docs/rules/supercomputer.md)
    assert got["supercomputer.placement_cells"]["value"] < 2.5
    assert got["supercomputer.placement_cells"]["miss"] > 0
    revised = evaluate("supercomputer", 4, Variant("supercomputer", "x", "as written"), 0, 4)
    cells = {g["id"]: g for g in revised["game_targets"]}["supercomputer.placement_cells"]
    assert cells["value"] >= 2.5 and cells["miss"] == 0
    claims = verdicts(m)
    assert [c["id"] for c in claims[: len(TARGETS)]] == [t.id for t in TARGETS]
    own = [c for c in claims if c["id"] in IDS]
    assert len(own) == 4 and all(c["kind"] == "design" for c in own)
    assert misses(m) >= sum(g["miss"] for g in m["game_targets"]) > 0
    # the same seeds give the same figures
    assert evaluate("supercomputer", 4, first, 0, 4)["game_targets"] == m["game_targets"]


def test_a_card_change_moves_the_placement_figures() -> None:
    black = Variant(
        "supercomputer",
        "x",
        "black",
        changes=tuple(
            CardChange(f"parts[{name}].{edge}", "black")
            for name in ("USB Hub", "Power Hub", "KVM Switch")
            for edge in ("north", "east", "south", "west")
        ),
    )
    plain = evaluate("supercomputer", 4, Variant("supercomputer", "x", "x"), 0, 4)
    more = evaluate("supercomputer", 4, black, 0, 4)
    assert more["game_targets"] != plain["game_targets"]


def test_a_game_without_its_own_targets_scores_the_shared_ones(tunetoy: str) -> None:
    m = evaluate(tunetoy, 2, Variant(tunetoy, "x", "x"), 0, 2)
    assert m["game_targets"] == []
    assert len(verdicts(m)) == len(TARGETS)
