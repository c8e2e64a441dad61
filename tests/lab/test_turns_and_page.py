"""Turn quality on the toy game, and the report page: findings first, evidence as
tables, no Python reprs."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cardlab.lab import metrics
from cardlab.lab.backends import run_spec
from cardlab.lab.findings import headline_findings
from cardlab.lab.simulate import make_spec


def test_a_pass_that_moves_nothing_is_a_noop_turn(toy: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """In the toy with passing (R6), laying moves a card and passing moves nothing:
    every pass turn is a no-op, every lay is not; the shares add up by seat and by
    decision kind."""
    from lab_toy import PASSING

    records = run_spec(make_spec(toy, 3, "random", 2, 40, PASSING), 1, progress=False).records
    for r in records:
        passes = sum(seat.get("pass", 0) for seat in r.seat_actions)
        assert sum(r.kind_noop.values()) == passes, r.seed
        assert sum(r.seat_noop) == passes and sum(r.seat_turns) == r.decisions
    d = metrics.decisions(records)
    total_pass = sum(seat.get("pass", 0) for r in records for seat in r.seat_actions)
    assert d["noop_turns"] == total_pass
    assert d["noop_turn_share"] == round(total_pass / d["turns"], 4)
    acts = d["actions"]
    assert set(acts["kinds"]) <= {"lay", "pass"}
    for group in (*acts["by_position"], acts["winners"], acts["losers"]):
        assert sum(group.values()) == pytest.approx(1.0, abs=1e-3)


def test_curves_and_decisiveness_are_per_tenth_of_the_game(toy: str) -> None:
    records = run_spec(make_spec(toy, 2, "random", 5, 20), 1, progress=False).records
    for r in records:
        assert len(r.branching_curve) == 10
        assert 0.0 <= r.decided_at <= 1.0
    c = metrics.curves(records)
    assert c["deciles"] == 10 and len(c["branching"]) == 10
    assert all(1 <= x <= 3 for x in c["branching"])  # the toy's hand holds 1-3 cards


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self.skip = False

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.skip = tag in ("style", "script")

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        self.skip = False

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if not self.skip:
            self.chunks.append(data)


def test_report_page_has_no_python_reprs(tmp_path: Path) -> None:
    from cardlab.lab.reporting import write_report

    write_report(
        "uptime",
        tmp_path,
        players=4,
        games=20,
        side_games=10,
        ladder_games=0,
        workers=1,
        progress=False,
        probe_games=10,
        ablation_games=0,
    )
    html = (tmp_path / "report.html").read_text()
    parser = _Text()
    parser.feed(html)
    text = " ".join(parser.chunks)
    for repr_ in ("True", "False", "None", "{'", "['", "':", "\\n"):
        assert repr_ not in text, repr_
    assert not re.search(r"\[\d{12,}", text), "no raw lists of seeds"
    assert "<pre>" not in html  # evidence is tables, not JSON
    data = json.loads((tmp_path / "report.json").read_text())
    ranked = headline_findings(data)
    assert [f["rank"] for f in ranked] == list(range(1, len(ranked) + 1))
    assert [f["severity"] for f in ranked] == sorted((f["severity"] for f in ranked), reverse=True)
    # UPTIME as ruled: the stall finding is first among what the lab found
    assert ranked and "always_ends" in ranked[0]["title"]
    assert html.index(ranked[0]["title"]) < html.index('id="gate"')


def test_draft_picks_are_recorded_with_their_pick_number() -> None:
    """SUPER COMPUTER: seven picks a round, three rounds (S3): 21 picks per seat, each
    numbered 1-7 within its round, every number equally often."""
    records = run_spec(make_spec("supercomputer", 3, "greedy", 1, 4), 1, progress=False).records
    for r in records:
        numbers = [p for positions in r.picks.values() for p in positions]
        assert len(numbers) == 21 * 3
        assert sorted(set(numbers)) == list(range(1, 8))
        assert all(numbers.count(k) == 9 for k in range(1, 8))
    table = metrics.picks(records)
    assert sum(v["picks_per_game"] for v in table.values()) == pytest.approx(63)
