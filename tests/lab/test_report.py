"""A small report: files written, claims first, deltas against a baseline,
and the HTML opens in headless Chromium without console errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.lab.reporting import write_report

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    write_report(
        "runway",
        out,
        games=30,
        side_games=12,
        ladder_games=0,
        workers=2,
        compare=("shock_effect", ["hype_down", "none"]),
        progress=False,
        probe_games=20,
    )
    return out


def test_report_files_and_claims(report_dir: Path) -> None:
    data = json.loads((report_dir / "report.json").read_text())
    assert [c["id"] for c in data["claims"]][0] == "runway.sample_turn"
    for c in data["claims"]:
        # `replay`: the command(s) for the seed a claim cites, when a run played it
        assert set(c) - {"replay"} == {
            "id",
            "text",
            "kind",
            "verdict",
            "evidence",
            "rests_on",
            "with_rulings",
            "note",
            "circular",
        }
        assert c["verdict"] in ("holds", "fails", "needs_data", "untestable")
        assert c["kind"] in ("design", "invariant")
    assert len(data["player_counts"]) == 3
    assert [v["value"] for v in data["compare"]["values"]] == ["hype_down", "none"]
    html = (report_dir / "report.html").read_text()
    assert html.index('id="findings"') < html.index('id="gate"') < html.index('id="outcome"')
    assert "data:image/png;base64," in html and "<script" not in html


def test_baseline_shows_deltas(report_dir: Path, tmp_path: Path) -> None:
    from cardlab.lab import summary

    data = json.loads((report_dir / "report.json").read_text())
    old = json.loads(json.dumps(data))
    old["headline"]["mean_decisions"] -= 2
    old["claims"][0]["verdict"] = "fails"
    text = summary.render(data, old)
    assert "| mean_decisions |" in text and "+2" in text
    assert "**changed**" in text


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed")
def test_html_opens_in_headless_chromium_without_console_errors(report_dir: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((report_dir / "report.html").as_uri())
        assert page.locator("h2").first.inner_text().startswith("What the lab found")
        # readable at phone width: nothing wider than the screen but scrollable tables
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate("document.images.length") >= 1
        assert page.evaluate("Array.from(document.images).every(i => i.naturalWidth > 0)")
        browser.close()
    assert errors == []


def test_gate_prints_one_screen_of_verdicts(tmp_path: Path) -> None:
    from cardlab.lab.gate import run_gate, table

    rows = run_gate(
        ["runway"], tmp_path, games=20, ladder_games=0, workers=1, progress=False, probe_games=10
    )
    text = table(rows, 1.0)
    assert "runway.sample_turn" in text and text.count("\n") <= 24
    assert (tmp_path / "runway" / "report.html").exists()


def test_length_histograms_carry_their_numbers(report_dir: Path) -> None:
    data = json.loads((report_dir / "report.json").read_text())
    main = data["main"]["length"]["histograms"]
    rows = {r["players"]: r["length"]["histograms"] for r in data["player_counts"]}
    for key in ("decisions", "minutes"):
        # one set of bins for every player count, so the series overlay; the main run is one
        assert len({json.dumps(h[key]["edges"]) for h in rows.values()}) == 1
        assert main[key] == rows[data["settings"]["players"]][key]
        for n, h in rows.items():
            games = next(r for r in data["player_counts"] if r["players"] == n)["length"]
            assert sum(h[key]["counts"]) == games["minutes"]["n"]
            assert len(h[key]["counts"]) == len(h[key]["edges"]) - 1
    edges = main["decisions"]["edges"]
    assert all(e == int(e) for e in edges)
    values = [r["length"]["decisions"] for r in data["player_counts"]]
    assert edges[0] <= min(v["min"] for v in values) and edges[-1] > max(v["max"] for v in values)
    compare = [v["length"]["histograms"]["minutes"]["edges"] for v in data["compare"]["values"]]
    assert compare[0] == compare[1]
    html = (report_dir / "report.html").read_text()
    for alt in ("estimated minutes per game, by player count", "decisions per game, by player"):
        assert f'alt="{alt}' in html


def test_box_minutes_agree_with_the_length_claim(report_dir: Path) -> None:
    """The shaded range is the one runway.length_30 checks (30 min +-25%)."""
    data = json.loads((report_dir / "report.json").read_text())
    box = data["box_minutes"]
    claim = next(c for c in data["claims"] if c["id"] == "runway.length_30")
    for n, v in claim["evidence"]["by_players"].items():
        lo, hi = box["by_players"][n]
        assert v["accepted_band"] == [lo * (1 - box["tolerance"]), hi * (1 + box["tolerance"])]
    assert sorted(box["by_players"]) == sorted(claim["evidence"]["by_players"])
