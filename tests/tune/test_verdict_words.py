"""The tuner's words hold: "clears every target" only when every target has data and
holds; a confirmation fails when a target fails under its bots and names them; a start
variant is called by its name; targets live in files a designer edits; no trial is spent
on a change already measured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.core import CardlabError
from cardlab.games import game_info
from cardlab.lab.tune import TuneSpec, run_tune
from cardlab.lab.tune.confirm import Samples, check_seats
from cardlab.lab.tune.objectives import (
    TARGETS,
    clears,
    game_file_targets,
    load_targets,
    misses,
    unmet,
    verdicts,
)
from cardlab.lab.tune.study import start_from


def _metrics(games: int, stall: float, tiebreak: float, first: float = 0.5) -> dict:
    return {
        "games": games,
        "errors": 0,
        "stall_share": stall,
        "tiebreak_share": tiebreak,
        "first_seat_win_share": first,
        "first_seat_edge": first - 0.5,
        "first_seat_edge_ci95": 0.0,
        "box_miss": 0.0,
        "minutes": [10.0, 12.0],
    }


def test_clears_only_when_every_target_has_data_and_holds() -> None:
    few = _metrics(10, 0.0, 0.0)
    assert misses(few) == 0 and not clears(few)  # 10 games: the intervals reach the bounds
    assert "always_ends (needs_data)" in unmet(few)
    many = _metrics(2000, 0.0, 0.05)
    assert clears(many) and unmet(many) == []


def test_the_shared_targets_come_from_a_file(tmp_path: Path) -> None:
    assert [t.id for t in TARGETS] == ["always_ends", "points_decide", "seat_balance", "box_time"]
    bad = tmp_path / "targets.toml"
    bad.write_text('[[target]]\nid = "x"\nfigure = "zero_seat_share"\nmax = true\n')
    with pytest.raises(CardlabError, match=r"target\[0\] 'x': max must be a share"):
        load_targets(bad)
    bad.write_text('[[target]]\nid = "x"\nfigure = "joy"\nmax = 0.1\n')
    with pytest.raises(CardlabError, match="figure must be one of"):
        load_targets(bad)


def test_uptime_declares_its_experience_targets_in_its_targets_file() -> None:
    own, lead, draw = game_file_targets(game_info("uptime"))
    assert lead.figure == "no_lead_change_share" and lead.max == 0.5
    assert draw.id == "uptime.draw_alive" and draw.figure == "dead_draw_share"
    assert own.id == "uptime.seats_at_zero" and own.figure == "zero_seat_share"
    from cardlab.lab.tune.evaluate import evaluate
    from cardlab.lab.tune.study import start_from as start

    spec = start(TuneSpec("uptime", 4, variant="lab"))
    from cardlab.lab.tune.space import search_space, variant_of

    info = game_info("uptime")
    params = search_space(info, fixed=spec.fixed)
    v = variant_of(info, params, {p.name: p.baseline for p in params}, "t", spec.fixed)
    m = evaluate("uptime", 4, v, 0, 8)
    row = next(c for c in verdicts(m) if c["id"] == "uptime.seats_at_zero")
    assert 0 <= row["value"] <= 1 and row["verdict"] in ("holds", "fails", "needs_data")
    assert m["seats"] == 32
    assert any(c["id"] == "uptime.lead_changes" for c in verdicts(m))
    assert 0 <= m["no_lead_change_share"] <= 1
    assert m["draw_games"] == 8 and 0 <= m["dead_draw_share"] <= 1  # UPTIME offers Draw
    assert any(c["id"] == "uptime.draw_alive" for c in verdicts(m))


def test_a_start_variant_is_called_by_its_name() -> None:
    spec = start_from(TuneSpec("uptime", 4, variant="lab", options=(("draw_cards", 2),)))
    assert spec.start_name == "variant lab (UPTIME, recommended rules)"
    assert spec.fixed["row_conveyor"] == 1 and spec.fixed["draw_cards"] == 2  # -o wins
    held = start_from(TuneSpec("uptime", 4, options=(("row_conveyor", 1),)))
    assert held.start_name == "as written with row_conveyor=1 held"


def _samples(games: int, tiebreak: float) -> Samples:
    m = _metrics(games, 0.0, tiebreak)
    ties = round(tiebreak * games)
    per = {
        "stall_share": [0.0] * games,
        "tiebreak_share": [1.0] * ties + [0.0] * (games - ties),
        "first_seat_win_share": [0.5] * games,
        "minutes": [11.0] * games,
    }
    return Samples([], m, per)


def test_a_confirmation_fails_when_a_target_fails_under_its_bots() -> None:
    aim = {"metric": "tiebreak_share", "games_80": 40}
    base, cand = _samples(40, 0.9), _samples(40, 0.6)
    check = check_seats("ismcts", base, cand, aim, 2, "variant lab", ("ismcts", "greedy"))
    assert not check.confirmed and "points_decide fails" in check.why_not
    assert check.who == "ismcts, greedy" and check.targets["points_decide"] == "fails"
    good = check_seats("ismcts", base, _samples(40, 0.0), aim, 2, "variant lab", ("greedy",))
    assert good.confirmed


def test_no_trial_is_spent_on_a_change_already_measured(tunetoy: str, tmp_path: Path) -> None:
    result = run_tune(TuneSpec(tunetoy, 2, trials=40, games=2, seed=0, max_changes=1))
    keys = [json.dumps(t.values, sort_keys=True) for t in result.trials]
    assert len(keys) == len(set(keys))
