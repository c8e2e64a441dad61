"""Length histograms: round bins that cover every game, counts that add up."""

from __future__ import annotations

import pytest

from cardlab.lab.claims.common import LENGTH_TOLERANCE
from cardlab.lab.metrics import histogram, nice_edges
from cardlab.lab.timemodel import BOX_TOLERANCE, box_minutes


@pytest.mark.parametrize(
    ("values", "integer"),
    [
        ([25, 34, 70, 28, 52], True),
        ([7.6, 8.41, 18.8, 12.0, 19.0], False),
        ([5, 5, 5], True),
        ([0.35], False),
    ],
)
def test_bins_cover_every_value_with_a_round_width(values: list[float], integer: bool) -> None:
    edges = nice_edges(values, integer)
    widths = {round(b - a, 6) for a, b in zip(edges, edges[1:], strict=False)}
    assert len(widths) == 1
    (width,) = widths
    assert len(edges) - 1 <= 25
    if integer:
        assert width == int(width) and all(e == int(e) for e in edges)
    assert edges[0] <= min(values) and max(values) < edges[-1]
    counts = histogram(values, edges)
    assert sum(counts) == len(values)


def test_histogram_counts_half_open_bins() -> None:
    assert histogram([0, 1, 1.5, 2, 3], [0, 1, 2, 3]) == [1, 2, 1]  # 3 is past the last edge


def test_box_minutes_use_the_claims_tolerance() -> None:
    from cardlab.games import game_info

    assert BOX_TOLERANCE == LENGTH_TOLERANCE
    assert box_minutes(game_info("uptime"))["by_players"]["3"] == [25.0, 30.0]
    assert box_minutes(game_info("supercomputer")) == {}
