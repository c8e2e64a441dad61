"""The gate's summary line says the budget it was given (`--budget`), also when an
explicit `--ladder-games` made the budget moot, and "no budget" only for `--budget none`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.lab.gate import table


def _rows(budget_s: float | None, used: bool) -> list[dict[str, Any]]:
    return [
        {
            "game": "toy", "id": "toy.skill", "kind": "skill", "verdict": "no_verdict",
            "why": "short", "skill_s": 2.0, "before_skill_s": 3.0, "budget_s": budget_s,
            "budget_used": used,
        }
    ]  # fmt: skip


def test_the_summary_reports_the_budget_given() -> None:
    assert "; budget 600 s)" in table(_rows(600.0, True), 9.0)
    moot = table(_rows(300.0, False), 9.0)
    assert "budget 300 s given, not used: --ladder-games plays exactly" in moot
    assert "no budget" not in moot
    assert "no budget (--budget none)" in table(_rows(None, False), 9.0)


def test_run_gate_keeps_the_budget_with_explicit_ladder_games(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import cardlab.lab.gate as gate

    monkeypatch.setattr(gate, "engine_ready", lambda game: True)
    monkeypatch.setattr(gate, "start_report", lambda game, out, **kw: (None, {"skill": {}}, None))
    monkeypatch.setattr(gate, "save_report", lambda *a: None)
    monkeypatch.setattr(gate, "_skill_sections", lambda *a: None)
    monkeypatch.setattr(gate, "claim_rows", lambda game, report: [])
    monkeypatch.setattr(gate, "skill_row", lambda game, s: {"game": game, "kind": "skill"})
    rows = gate.run_gate(["toy"], Path("/nonexistent"), 300.0, ladder_games=2)
    (row,) = [r for r in rows if r.get("kind") == "skill"]
    assert row["budget_s"] == 300.0 and row["budget_used"] is False
