"""One fact has one number: UPTIME's stall share in uptime.always_ends'
evidence is read from the runs the report shows (its main run and its player-count runs),
and every figure names its player count and games."""

from __future__ import annotations

from collections import Counter

from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext


def test_the_stall_share_in_the_claim_is_the_main_runs() -> None:
    ctx = LabContext(
        game="uptime",
        players=3,
        agents=("greedy", "random"),
        options={},
        games=12,
        workers=1,
        progress=False,
        probe_games=6,
    )
    (c,) = evaluate(ctx, ["uptime.always_ends"])
    ruled = c["with_rulings"]["evidence"] if c["with_rulings"] else c["evidence"]
    shown = ruled["report_runs_end_reasons"]
    main = ctx.run(players=3, games=12).records  # the report's main run (already played)
    assert shown["3p"]["games"] == 12
    assert shown["3p"]["end_reasons"] == dict(Counter(r.end_reason for r in main))
    assert shown["2p"]["games"] == shown["4p"]["games"] == 6
    headline = c["evidence"].get("headline", "")
    if headline:  # as written some games never end: each count named with its games
        assert "2p " in headline and "of 6 games" in headline and "of 12 games" in headline
