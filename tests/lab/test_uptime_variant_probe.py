"""UPTIME's pass-only probe (`uptime.always_ends`) plays the report's rules, variant
included: under the recommended rules a game of passes ends by the Build Deck (the
conveyor empties it), as written it never ends. Before, the probe dropped the variant
and the claim read "fails" on every report of the recommended rules."""

from __future__ import annotations

from cardlab.games.uptime.claims import _rules_label, pass_only_game
from cardlab.lab.context import LabContext


def _ctx(variant: str | None) -> LabContext:
    return LabContext(
        game="uptime", players=3, agents=("greedy",), options={}, games=1, variant=variant
    )


def test_the_pass_only_probe_plays_the_variant() -> None:
    for index in range(3):
        lab = pass_only_game(_ctx("lab"), 3, index, {})
        written = pass_only_game(_ctx(None), 3, index, {})
        assert lab["end_reason"] == "build_deck_empty", lab
        assert written["end_reason"] != "build_deck_empty", written


def test_a_verdicts_rules_name_the_variant() -> None:
    assert _rules_label(_ctx(None)) == "rules as ruled (U1-U17)"
    assert _rules_label(_ctx("lab")).startswith("variant 'UPTIME, recommended rules'")
