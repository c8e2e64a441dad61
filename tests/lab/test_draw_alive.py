"""The "Draw alive" target: `dead_draw_share` counts the games whose Draw takes nothing at a
third or more of the decisions it is offered at (a game dry early counts, one dry late does
not); a game whose moves give no Draw counter has no data for it (untestable, never a
target that holds); UPTIME declares the target in its targets file, and a designer editing
that file's bound changes the verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardlab.core.moves import Move
from cardlab.core.variants import Variant
from cardlab.games import game_info
from cardlab.lab.tune.evaluate import DrawWatch, GameFacts, metrics, play_trial_game
from cardlab.lab.tune.objectives import (
    RATE_FIGURES,
    Target,
    clears,
    file_target_rows,
    game_file_targets,
    load_targets,
    unmet,
    verdicts,
)


def _facts(seed: int, offers: int, dry: int) -> GameFacts:
    return GameFacts(
        seed=seed,
        first_player=0,
        winners=[0],
        end_reason="build deck empty",
        tiebreak="points",
        rounds=8,
        decisions={"turn": 40},
        options_seen={"turn": 200},
        scores=[5.0, 3.0, 2.0, 1.0],
        lead_changes=2,
        draw_offers=offers,
        dry_draw_offers=dry,
    )


# dry from the fifth tenth of its offers on, from the ninth, at exactly a third, no counter
EARLY, LATE, THIRD, NONE = _facts(1, 40, 24), _facts(2, 40, 8), _facts(3, 30, 10), _facts(4, 0, 0)


def test_a_game_dry_early_counts_and_one_dry_late_does_not() -> None:
    assert EARLY.draw_dead is True and LATE.draw_dead is False
    assert THIRD.draw_dead is True  # dry for the whole last third: dead
    assert _facts(5, 30, 9).draw_dead is False  # one offer fewer than a third
    assert NONE.draw_dead is None  # no counter: no reading at all
    info = game_info("uptime")
    m = metrics(info, 4, [EARLY, LATE, THIRD, NONE])
    assert m["games"] == 4 and m["draw_games"] == 3  # the game without a counter is left out
    assert m["dead_draw_share"] == pytest.approx(2 / 3)
    assert m["dry_draw_offer_share"] == pytest.approx((24 + 8 + 10) / (40 + 40 + 30))
    assert metrics(info, 4, [LATE, LATE])["dead_draw_share"] == 0.0


def test_games_without_a_draw_counter_give_no_data_not_a_pass() -> None:
    info = game_info("uptime")
    m = metrics(info, 4, [NONE, NONE])
    assert m["draw_games"] == 0 and "dead_draw_share" not in m
    target = Target("draw", "Draw stays alive", "dead_draw_share", max=0.25)
    (row,) = file_target_rows((target,), m)
    assert row["verdict"] == "untestable" and row["value"] is None and row["miss"] == 0.0
    assert "supply_empty" in row["why"]
    m["file_targets"] = [row]
    assert "draw (untestable)" in unmet(m) and not clears(m)


def test_the_interval_counts_the_games_with_a_counter_not_all_games() -> None:
    target = Target("draw", "t", "dead_draw_share", max=0.25)
    # 2 dead of 20 counted games: the interval (2-30%) reaches 25%; over 2,000 it would not
    (few,) = file_target_rows((target,), {"games": 2000, "draw_games": 20, "dead_draw_share": 0.1})
    assert few["verdict"] == "needs_data" and few["interval"][1] > 0.25
    (many,) = file_target_rows(
        (target,), {"games": 2000, "draw_games": 2000, "dead_draw_share": 0.1}
    )
    assert many["verdict"] == "holds" and many["interval"][1] < 0.25
    assert (
        target.threshold
        == "<= 25% of games with Draw taking nothing for a third of the game or more"
    )
    assert "dead_draw_share" in RATE_FIGURES


def test_uptime_declares_draw_alive_in_its_targets_file() -> None:
    (own,) = [t for t in game_file_targets(game_info("uptime")) if t.id == "uptime.draw_alive"]
    assert own.figure == "dead_draw_share" and own.max == 0.25 and own.min is None
    assert "Draw" in own.text


class _Info:
    """UPTIME's GameInfo with its package folder moved: the targets file a designer edits."""

    def __init__(self, folder: Path) -> None:
        self._real = game_info("uptime")
        self._folder = folder

    def package_dir(self) -> Path:
        return self._folder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def test_a_designer_editing_the_bound_changes_the_verdict(tmp_path: Path) -> None:
    shipped = Path(str(game_info("uptime").package_dir())) / "targets.toml"
    text = shipped.read_text()
    assert 'id = "uptime.draw_alive"' in text and "max = 0.25" in text
    facts = [_facts(i, 40, 24) for i in range(150)] + [_facts(i, 40, 8) for i in range(150, 300)]
    (tmp_path / "targets.toml").write_text(text)
    m = metrics(_Info(tmp_path), 4, facts)  # half the games dead: 44-56%
    row = next(c for c in verdicts(m) if c["id"] == "uptime.draw_alive")
    assert row["value"] == 0.5 and row["verdict"] == "fails" and row["miss"] == 0.25
    looser = text.replace(
        'figure = "dead_draw_share"\nmax = 0.25', 'figure = "dead_draw_share"\nmax = 0.75'
    )
    assert looser != text
    (tmp_path / "targets.toml").write_text(looser)
    assert [
        t.max for t in load_targets(tmp_path / "targets.toml") if t.id == "uptime.draw_alive"
    ] == [0.75]
    m = metrics(_Info(tmp_path), 4, facts)
    row = next(c for c in verdicts(m) if c["id"] == "uptime.draw_alive")
    assert row["verdict"] == "holds" and row["miss"] == 0.0


class _State:
    """A state whose action 0 is a Draw at kind `turn` (dry when `dry`), its others not."""

    def __init__(self, kind: str, dry: bool | None, legal: int = 3) -> None:
        self.kind, self.dry, self.legal, self.described = kind, dry, list(range(legal)), 0

    def decision_kind(self) -> str:
        return self.kind

    def describe_action(self, action: int) -> Move:
        self.described += 1
        if action == 0 and self.kind == "turn":
            return Move("draw", extra={} if self.dry is None else {"supply_empty": self.dry})
        return Move("other")


def test_the_watch_counts_offers_and_dry_ones_from_the_moves() -> None:
    watch = DrawWatch()
    for dry in (False, False, True, True, True):
        s = _State("turn", dry)
        watch.see(s, s.legal)  # type: ignore[arg-type]
    assert (watch.offered, watch.dry) == (5, 3)
    plain = DrawWatch()  # a Draw that does not say whether it takes anything: no counter
    s = _State("turn", None)
    plain.see(s, s.legal)  # type: ignore[arg-type]
    assert plain.offered == 0


def test_a_kind_without_a_draw_is_searched_only_at_its_first_decisions() -> None:
    watch = DrawWatch()
    states = [_State("bid", None, legal=4) for _ in range(20)]
    for s in states:
        watch.see(s, s.legal)  # type: ignore[arg-type]
    assert sum(s.described for s in states) == DrawWatch.SCAN_LIMIT * 4
    turn = _State("turn", True)
    watch.see(turn, turn.legal)  # type: ignore[arg-type]
    again = _State("turn", False)
    watch.see(again, again.legal)  # type: ignore[arg-type]
    assert again.described == 1 and (watch.offered, watch.dry) == (2, 1)  # the Draw asked first


def test_real_games_uptime_offers_its_draw_at_every_main_turn_runway_has_none() -> None:
    uptime = play_trial_game(
        "uptime", 4, Variant(game="uptime", name="w", title="as written"), 0, 0
    )
    assert uptime.error is None
    assert uptime.draw_offers == uptime.decisions["turn"] > 0
    assert 0 <= uptime.dry_draw_offers <= uptime.draw_offers
    runway = play_trial_game(
        "runway", 3, Variant(game="runway", name="w", title="as written"), 0, 0
    )
    assert runway.error is None and runway.draw_offers == 0 and runway.draw_dead is None


class _Broken(_State):
    def describe_action(self, action: int) -> Move:
        raise RuntimeError("cannot describe")


def test_a_game_whose_moves_cannot_be_described_keeps_no_partial_count() -> None:
    watch = DrawWatch()
    s = _State("turn", True)
    watch.see(s, s.legal)  # type: ignore[arg-type]
    assert watch.offered == 1
    broken = _Broken("turn", True)
    watch.see(broken, broken.legal)  # type: ignore[arg-type]
    later = _State("turn", True)
    watch.see(later, later.legal)  # type: ignore[arg-type]
    assert (watch.offered, watch.dry) == (0, 0) and later.described == 0
