"""Verdicts are computed from play: changing a rule option changes the verdict."""

from __future__ import annotations

from cardlab.games import list_games
from cardlab.lab.claims import claims_for, evaluate
from cardlab.lab.context import LabContext


def _ctx(game: str, **options: str) -> LabContext:
    return LabContext(
        game=game,
        players=4,
        agents=("random",),
        options=options,
        games=20,
        workers=1,
        progress=False,
        probe_games=20,
    )


def test_always_ends_fails_as_written_and_holds_only_with_u13() -> None:
    """Ruling U13: the default report shows "the game always ends" failing as written,
    holding only through U13, with the stalled (frozen-Row) seeds as evidence."""
    (c,) = evaluate(_ctx("uptime"), ["uptime.always_ends"])
    assert c["kind"] == "design"
    assert c["verdict"] == "fails" and c["rests_on"] == ["U13"]
    assert c["with_rulings"]["verdict"] == "holds" and c["with_rulings"]["rulings"] == ["U13"]
    assert "only with ruling U13" in c["note"]
    ev = c["evidence"]
    assert ev["stall_end"] is False and ev["end_reasons"].get("stalled", 0) > 0
    assert ev["stalled_seeds"], "a failing verdict names replayable seeds"
    assert ev["build_row_frozen"] <= ev["games_that_did_not_end_by_a_rule"]
    assert c["with_rulings"]["evidence"]["games_that_did_not_end_by_a_rule"] == 0


def test_every_claim_has_a_kind_and_invariants_are_marked() -> None:
    kinds = {c.id: c.kind for g in list_games() for c in claims_for(g)}
    assert set(kinds.values()) <= {"design", "invariant"}
    for cid in (
        "uptime.no_dead_turn",
        "uptime.one_winner",
        "runway.one_pitch_per_deal",
        "supercomputer.must_play",
        "supercomputer.sample_30_40_50",
    ):
        assert kinds[cid] == "invariant", cid
    (circ,) = [c for c in claims_for("supercomputer") if c.id == "supercomputer.sample_30_40_50"]
    assert "designed the card values" in circ.circular


def test_every_issue_claim_id_is_registered() -> None:
    ids = {c.id for g in list_games() for c in claims_for(g)}
    assert {
        "uptime.no_dead_turn",
        "uptime.always_ends",
        "uptime.one_winner",
        "uptime.length_25_30",
        "uptime.two_player_length",
        "uptime.converting_beats_hoarding",
        "uptime.computers_differ",
        "runway.sample_turn",
        "runway.one_pitch_per_deal",
        "runway.small_match_denies",
        "runway.catch_up_seat",
        "runway.richer_vs_specialist",
        "runway.length_30",
        "runway.two_players_same",
        "supercomputer.must_play",
        "supercomputer.sample_30_40_50",
        "supercomputer.tie_break_4way",
        "supercomputer.public_race_no_negative",
    } <= ids


def test_runway_sample_turn_replays() -> None:
    (c,) = evaluate(_ctx("runway"), ["runway.sample_turn"])
    assert c["verdict"] == "holds", c["evidence"]
    assert c["evidence"]["replayed"][1].startswith("Cam wins Board Seat for 3")


def test_a_broken_probe_is_untestable_not_hidden(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cardlab.lab import claims

    (c,) = [c for c in claims.claims_for("runway") if c.id == "runway.length_30"]

    def boom(ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("probe broke")

    registry = [claims.Claim(x.id, x.text, boom) if x is c else x for x in claims._CLAIMS["runway"]]
    monkeypatch.setitem(claims._CLAIMS, "runway", registry)
    (out,) = evaluate(_ctx("runway"), ["runway.length_30"])
    assert out["verdict"] == "untestable" and "probe broke" in out["evidence"]["reason"]


def test_verdict_resting_on_a_ruling_shows_both_only_when_they_differ() -> None:
    from cardlab.lab.verdicts import Verdict, counts

    same = Verdict("holds", {}).resting_on(["U13"], Verdict("holds", {}))
    assert same.rests_on == () and same.with_rulings is None
    diff = Verdict("fails", {}).resting_on(["U13"], Verdict("holds", {}))
    d = diff.as_dict()
    assert d["rests_on"] == ["U13"] and d["with_rulings"]["verdict"] == "holds"
    rows = [
        {"kind": "design", "verdict": "holds"},
        {"kind": "invariant", "verdict": "holds"},
        {"kind": "design", "verdict": "needs_data"},
    ]
    assert counts(rows)["holds"] == 1 and counts(rows)["needs_data"] == 1
    assert counts(rows, "invariant")["holds"] == 1


def test_the_4way_tie_break_is_judged_as_written_and_under_s8() -> None:
    """The page settles a tie for most points by fewest 4-way parts only; ruling S8
    adds fewest parts scrapped, then a shared win. Ties still tied after 4-way parts
    fail the claim as written; it holds under S8 only if none ends shared."""
    from types import SimpleNamespace

    from cardlab.games.supercomputer.claims import tie_break_4way

    def record(seed: int, tiebreak: str | None) -> SimpleNamespace:
        return SimpleNamespace(seed=seed, tiebreak=tiebreak, winners=[0], error=None)

    def ctx_with(levels: list[str | None]) -> SimpleNamespace:
        records = [record(i, t) for i, t in enumerate(levels)]
        return SimpleNamespace(
            probe_games=len(records),
            games=len(records),
            players=4,
            report_games=lambda players: len(records),
            # the claim probes 2-5 players; the fake games are all at 4
            run=lambda players, games: SimpleNamespace(records=records if players == 4 else []),
        )

    settled = tie_break_4way(ctx_with([None, "fewest_4way", "fewest_scrapped"])).as_dict()
    assert settled["verdict"] == "fails" and settled["rests_on"] == ["S8"]
    assert settled["with_rulings"]["verdict"] == "holds"
    assert settled["evidence"]["still_tied_after_4way"] == 1
    shared = tie_break_4way(ctx_with([None, "fewest_scrapped", "shared"])).as_dict()
    assert shared["verdict"] == "fails" and shared["with_rulings"] is None
    assert shared["evidence"]["under_rulings_too"] == {"rulings": ["S8"], "verdict": "fails"}
    clean = tie_break_4way(ctx_with([None, "fewest_4way"])).as_dict()
    assert clean["verdict"] == "holds" and clean["rests_on"] == []
