"""uptime.converting_beats_hoarding and uptime.computers_differ are computed from play: under
the rulings they report the measured reason (Computers built), and they are also evaluated
under the designer options, labelled as such; turning an option on changes the verdict's rules
and its numbers."""

from __future__ import annotations

import pytest

from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext

IDS = ["uptime.converting_beats_hoarding", "uptime.computers_differ"]


def _ctx(**options: str) -> LabContext:
    return LabContext(
        game="uptime",
        players=4,
        agents=("greedy",),
        options=options,
        games=40,
        workers=1,
        progress=False,
        probe_games=40,
    )


@pytest.mark.parametrize("claim_id", IDS)
def test_ruled_verdict_reports_measured_computers_and_designer_evidence(claim_id):
    (c,) = evaluate(_ctx(), [claim_id])
    ev = c["evidence"]
    assert ev["rules"] == "rules as ruled (U1-U17)"
    assert ev["games"] == 80  # main run + persona probe
    if c["verdict"] == "untestable":
        assert f"{ev['computers_built']} Computers built in 80 games" in ev["reason"]
    designer = ev["designer_options"]
    assert set(designer) == {"row_sweep=true"}
    for sub in designer.values():
        assert sub["rules"].startswith("under designer option")
        assert sub["games"] == 40
        assert sub["verdict"] in ("holds", "fails", "needs_data", "untestable")
    # the remedies are measured, not written in: sweeping builds more Computers than the rulings
    swept = designer["row_sweep=true"]["computers_per_game"]
    assert swept > ev["computers_per_game"]


def test_verdict_follows_the_reports_options():
    (c,) = evaluate(_ctx(row_sweep="true"), [IDS[0]])
    ev = c["evidence"]
    assert ev["rules"] == "under designer option row_sweep=true (not in the rulebook)"
    # row_sweep is already the report's rule: no designer option is left to add
    assert ev["designer_options"] == {}
    (ruled,) = evaluate(_ctx(), [IDS[0]])
    assert ev["computers_built"] > ruled["evidence"]["computers_built"]
