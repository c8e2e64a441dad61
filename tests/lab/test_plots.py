"""Charts: comparison bars carry their 95% intervals, and a game of
simultaneous decisions says its "positions" are the engine's resolution order."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.lab import plots


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Charts return their matplotlib figure instead of a PNG, to be read."""
    monkeypatch.setattr(plots, "_encode", lambda fig: fig)


def _row(label: Any, fsa: float, ci: list[float]) -> dict[str, Any]:
    return {
        "players": label,
        "length": {"minutes": {"n": 100, "mean": 20.0, "sd": 5.0}},
        "outcome": {"first_seat_advantage": fsa, "first_seat_advantage_ci95": ci},
    }


def test_error_lengths_come_from_the_intervals() -> None:
    below, above = plots._errors([0.5, 0.2], [[0.4, 0.7], [0.1, 0.2]]) or ([], [])
    assert below == pytest.approx([0.1, 0.1]) and above == pytest.approx([0.2, 0.0])
    assert plots._errors([0.5], [None]) is None  # no interval: no made-up error bar
    assert plots.mean_interval({"n": 100, "mean": 20.0, "sd": 5.0}) == pytest.approx([19.02, 20.98])


def test_side_by_side_bars_carry_error_bars(figures: None) -> None:
    fig: Any = plots.side_by_side([_row(3, 0.02, [-0.03, 0.07]), _row(4, -0.01, [-0.05, 0.03])],
                                  "players", "player counts")  # fmt: skip
    from matplotlib.container import BarContainer

    for ax in fig.axes:
        (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert bars.errorbar is not None and "95%" in ax.get_title()
    assert "first-seat advantage" in fig.axes[1].get_title()


def test_a_simultaneous_game_names_resolution_order(figures: None) -> None:
    outcome = {
        "win_rate_by_position": [0.3, 0.2],
        "wilson95_by_position": [[0.2, 0.4], [0.1, 0.3]],
        "fair_share": 0.25,
    }
    fig: Any = plots.win_rates(outcome, "t", simultaneous=True)
    assert "resolution order" in fig.axes[0].get_xlabel()
    assert "simultaneous" in fig.axes[0].get_xlabel()
    assert any(getattr(c, "errorbar", None) is not None for c in fig.axes[0].containers)
    plain: Any = plots.win_rates(outcome, "t")
    assert plain.axes[0].get_xlabel().startswith("turn position")
    side: Any = plots.side_by_side([_row(4, 0.0, [-0.1, 0.1])], "players", "c", True)
    assert "first-resolved seat" in side.axes[1].get_title()


def test_card_experiments_chart_has_an_interval_per_experiment(figures: None) -> None:
    rows = [
        {"label": "X", "holder_win_rate_delta": -0.3, "holder_win_rate_delta_ci95": [-0.4, -0.2],
         "controlled": True},
        {"label": "Z", "holder_win_rate_delta": 0.01, "holder_win_rate_delta_ci95": [-0.05, 0.07],
         "controlled": False},
        {"label": "W", "reading": "never acquired in these games"},
    ]  # fmt: skip
    fig: Any = plots.impact({"ablations": rows})
    from matplotlib.container import BarContainer

    ax = fig.axes[0]
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 2 and bars.errorbar is not None  # W has no experiment to draw
    assert [t.get_text() for t in ax.get_yticklabels()] == ["X", "Z"]
    assert plots.impact({"skipped": "off"}) is None
