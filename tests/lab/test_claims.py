"""Verdicts are computed from play: changing a rule option changes the verdict."""

from __future__ import annotations

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


def test_stall_end_flip_changes_always_ends() -> None:
    on = evaluate(_ctx("uptime", stall_end="true"), ["uptime.always_ends"])[0]
    off = evaluate(_ctx("uptime", stall_end="false"), ["uptime.always_ends"])[0]
    assert on["verdict"] == "holds"
    assert off["verdict"] == "fails"
    assert off["evidence"]["end_reasons"].get("stalled", 0) > 0
    assert off["evidence"]["examples"], "a failing verdict names replayable seeds"


def test_every_issue_claim_id_is_registered() -> None:
    ids = {c.id for g in ("uptime", "runway", "supercomputer") for c in claims_for(g)}
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
