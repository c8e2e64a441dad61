"""A game's own report sections (`report_sections(ctx)` in its claims module): drawn
as tables (the page: tests/supercomputer/test_supercomputer_design_claims.py); a
hook that raises says so instead of losing the report."""

from __future__ import annotations

import types

import pytest

from cardlab.lab import report
from cardlab.lab.context import LabContext


def _ctx() -> LabContext:
    return LabContext(
        game="runway", players=3, agents=("random",), options={}, games=2, progress=False
    )


def _with_hooks(monkeypatch: pytest.MonkeyPatch, hooks: object) -> None:
    monkeypatch.setattr(report, "lab_hooks", lambda game: hooks)


def test_a_game_without_the_hook_has_no_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_hooks(monkeypatch, types.SimpleNamespace())
    assert report.game_sections(_ctx()) == []


def test_sections_come_from_the_hook_with_their_time(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def report_sections(ctx: LabContext) -> list[dict]:
        seen.append(ctx.game)
        rows = [{"figure": "cells", "ours": 3.1, "old": 1.7}]
        return [{"id": "x", "title": "X", "what": "why", "tables": [{"title": "T", "rows": rows}]}]

    _with_hooks(monkeypatch, types.SimpleNamespace(report_sections=report_sections))
    (sec,) = report.game_sections(_ctx())
    assert seen == ["runway"]
    assert sec["tables"][0]["rows"][0]["ours"] == 3.1 and sec["elapsed_s"] >= 0


def test_a_raising_hook_is_shown_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def report_sections(ctx: LabContext) -> list[dict]:
        raise ValueError("no cards")

    _with_hooks(monkeypatch, types.SimpleNamespace(report_sections=report_sections))
    (sec,) = report.game_sections(_ctx())
    assert "not built: ValueError: no cards" in sec["what"] and sec["tables"] == []
