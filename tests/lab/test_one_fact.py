"""One fact, one number, and a report's header, on real
reports of the three games, small but built end to end (`build_report`, then the
summary and the HTML rendered from report.json's dict):

- UPTIME's stall share: the headline finding, the report's ends section and
  `uptime.always_ends`' evidence give the same share of the same games, each named with
  its player count and games;
- SUPER COMPUTER's tie share: `supercomputer.tie_break_4way`'s evidence per player count
  is the report's own outcome figure at that count (main run and player-count runs);
- every report names its variant and card file, each with its sha256, in the summary's
  and the page's header."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cardlab.lab import html, summary
from cardlab.lab.context import LabContext
from cardlab.lab.findings import _pct, headline_findings
from cardlab.lab.report import build_report


def _report(game: str, claims: list[str], out: Path | None = None, **ctx: Any) -> dict[str, Any]:
    context = LabContext(
        game=game,
        players=ctx.pop("players", 3),
        agents=ctx.pop("agents", ("greedy", "random")),
        options={},
        games=ctx.pop("games", 12),
        workers=1,
        progress=False,
        probe_games=6,
        out_dir=out,
        **ctx,
    )
    return build_report(
        context, side_games=6, ladder_games=0, claims_only=claims, kingmaking_games=0
    )


def test_uptimes_stall_share_is_one_number() -> None:
    report = _report("uptime", ["uptime.always_ends"])
    (claim,) = report["claims"]
    ruled = claim["with_rulings"]["evidence"] if claim["with_rulings"] else claim["evidence"]
    cited = ruled["report_runs_end_reasons"]["3p"]
    ends = report["main"]["ends"]
    stall = [f for f in headline_findings(report) if f["title"].endswith("stalls")]
    reason = "stall"
    assert cited["shares"].get(reason, 0.0) >= 0.10, "the test needs a stalling main run"
    (finding,) = stall
    figure = finding["figure"]
    # the same share of the same games in the headline, the ends section and the claim
    assert figure == {
        "fact": f"end_share:{reason}",
        "value": ends["shares"][reason],
        "players": 3,
        "games": ends["games"],
    }
    assert cited["shares"][reason] == figure["value"] and cited["games"] == figure["games"]
    assert f"{_pct(figure['value'])} of {figure['games']} 3-player games" in finding["text"]
    # the claim's own headline names each count with its games, the main run's included
    if claim["evidence"].get("headline"):
        assert (
            f"3p {cited['shares'][reason]:.0%} of {cited['games']} games"
            in (claim["evidence"]["headline"])
        )
    # the other counts are the report's player-count runs, not other games
    for row in report["player_counts"]:
        n = row["players"]
        assert ruled["report_runs_end_reasons"][f"{n}p"]["games"] == row["games"]
        assert ruled["report_runs_end_reasons"][f"{n}p"]["shares"] == row["ends"]["shares"]


def test_super_computers_tie_share_is_the_reports_outcome_figure() -> None:
    report = _report("supercomputer", ["supercomputer.tie_break_4way"], players=4, games=8)
    (claim,) = report["claims"]
    by_players = claim["evidence"]["by_players"]
    runs = {4: report["main"], **{row["players"]: row for row in report["player_counts"]}}
    assert sorted(runs) == [2, 3, 4, 5]
    for n, run in runs.items():
        o = run["outcome"]
        assert by_players[f"{n}p"]["games"] == o["games"]
        assert by_players[f"{n}p"]["tie_share"] == o["tiebreak_share"]
        assert f"{n}p {o['tiebreak_share']:.0%} of {o['games']}" in claim["evidence"]["headline"]
    tie = [f for f in headline_findings(report) if f["title"].startswith("Tie-breaks")]
    for finding in tie:  # when the headline names it, it is the same figure
        assert finding["figure"]["value"] == by_players["4p"]["tie_share"]
        assert finding["figure"]["games"] == by_players["4p"]["games"]
    # a simultaneous game says what its "first seat" is, everywhere it shows one
    assert report["settings"]["simultaneous"] is True
    page = html.render(report)
    assert "first-seat advantage" not in page and "first-resolved seat's edge" in page
    assert "No-op share by resolution order" in page
    digest = summary.render(report)
    assert "read the engine's resolution order" in digest


def test_a_simultaneous_games_figures_name_the_resolution_order() -> None:
    """The headline never says a player of a simultaneous game moves first, and a paired
    comparison names the figure for what it is."""
    from cardlab.lab.paired import FIRST_RESOLVED, compare_pair

    ctx = LabContext(
        game="supercomputer",
        players=4,
        agents=("greedy", "random"),
        options={},
        games=6,
        workers=1,
        progress=False,
    )
    records = ctx.run().records
    figures = {row["figure"] for row in compare_pair(records, records, "a", "b", True)["rows"]}
    assert FIRST_RESOLVED in figures and "first seat's win share" not in figures
    plain = {row["figure"] for row in compare_pair(records, records, "a", "b")["rows"]}
    assert "first seat's win share" in plain
    # a first-seat edge in a simultaneous game: worded as the resolution order
    outcome = {
        "games": 400,
        "first_seat_advantage_ci95": [0.05, 0.15],
        "win_rate_by_position": [0.35, 0.22, 0.22, 0.21],
        "fair_share": 0.25,
        "tiebreak_share": 0.0,
    }
    report = {
        "title": "SUPER COMPUTER",
        "settings": {"players": 4, "simultaneous": True},
        "claims": [],
        "main": {
            "ends": {"reasons": {}, "seeds": {}},
            "length": {"rounds": {"median": 3}},
            "outcome": outcome,
            "decisions": {"noop_turn_share": 0.0},
        },
    }
    (found,) = [f for f in headline_findings(report) if f["anchor"] == "outcome"]
    assert found["title"] == "The first-resolved seat is favoured"
    assert "first player" not in found["text"] and "resolves first wins 35%" in found["text"]
    assert found["figure"] == {
        "fact": "first_seat_win_rate",
        "value": 0.35,
        "players": 4,
        "games": 400,
    }
    report["settings"]["simultaneous"] = False
    (turn,) = [f for f in headline_findings(report) if f["anchor"] == "outcome"]
    assert turn["title"] == "Turn order decides" and "of 400 4-player games" in turn["text"]


def _a_variant(game: str, tmp_path: Path) -> Path:
    option = {"uptime": "row_sweep = true", "runway": "cash_penalty = 0"}.get(
        game, 'passing = "right"'
    )
    path = tmp_path / f"{game}-variant.toml"
    path.write_text(
        f'game = "{game}"\ntitle = "a header test"\n\n[options]\n{option}\n\n'
        f'[options_why]\n{option.split(" ")[0]} = "the header must name this file"\n'
    )
    return path


CHEAP = {
    "uptime": "uptime.one_winner",
    "runway": "runway.sample_turn",
    "supercomputer": "supercomputer.sample_30_40_50",
}


@pytest.mark.parametrize("game", ["uptime", "runway", "supercomputer"])
def test_a_reports_header_names_its_variant_and_card_file(game: str, tmp_path: Path) -> None:
    import hashlib

    from cardlab.core.registry import game_info

    cards = tmp_path / "my-cards.toml"
    shutil.copy(game_info(game).package_dir() / "cards.toml", cards)
    variant = _a_variant(game, tmp_path)
    report = _report(
        game,
        [CHEAP[game]],
        tmp_path / "report",
        players=4 if game == "supercomputer" else 3,
        games=6,
        cards=str(cards),
        variant=str(variant),
    )
    s = report["settings"]
    assert s["cards_sha256"] == hashlib.sha256(cards.read_bytes()).hexdigest()
    assert s["variant_sha256"] and len(s["variant_sha256"]) == 64
    header = summary.render(report).splitlines()[2]
    assert f"variant {variant} (sha256 {s['variant_sha256']})" in header
    assert f"cards {cards} (sha256 {s['cards_sha256']})" in header
    page = html.render(report)
    top = page[: page.index('id="findings"')]
    assert f"<code>{variant}</code> (sha256 <code>{s['variant_sha256']}</code>)" in top
    assert f"<code>{cards}</code> (sha256 <code>{s['cards_sha256']}</code>)" in top
