"""Card impact: each experiment read game by game against the same
seeds (paired), Holm-controlled over the experiments, ranked, each with the games a
5-point change needs, and the experiments too small to tell folded into one line."""

from __future__ import annotations

from cardlab.lab.impact import Ablation, experiment_row, paired_holders, rank, too_small_line
from cardlab.lab.simulate import GameRecord


def _game(i: int, winner: int, acquired: list[list[str]]) -> GameRecord:
    return GameRecord(
        game="t", players=2, options="{}", agents=["a", "b"], index=i, seed=i,
        scores=[1.0 + (winner == 0), 1.0 + (winner == 1)], winners=[winner], acquired=acquired,
    )  # fmt: skip


HOLD_X = [["X"], []]


def test_holders_are_paired_by_game_index() -> None:
    base = [_game(i, i % 2, HOLD_X) for i in range(4)]
    changed = [_game(i, 1, HOLD_X) for i in range(4)]  # X's holder now always loses
    changed[3] = _game(3, 1, [[], []])  # no holder in game 3 with the change: left out
    wa, wb, sa, sb = paired_holders(base, changed, frozenset({"X"}))
    assert wa == [1.0, 0.0, 1.0] and wb == [0.0, 0.0, 0.0]
    assert sa == [2.0, 1.0, 2.0] and sb == [1.0, 1.0, 1.0]


def test_experiments_are_controlled_ranked_and_the_rest_folded_into_one_line() -> None:
    n = 120

    def held(i: int) -> list[list[str]]:  # Z is held (by seat 1) in the odd games only
        return [["X", "Y"], ["Z"] if i % 2 else []]

    base = [_game(i, i % 2, held(i)) for i in range(n)]
    # with the change seat 0 (X's holder) loses the games it won: a 50-point drop; the
    # odd games, where seat 1 holds Z, end as before but one: too small to tell
    changed = [_game(i, 1, held(i)) for i in range(n)]
    changed[1] = _game(1, 0, held(1))
    rows = [
        experiment_row(Ablation("Z", "z", frozenset({"Z"}), ()), base, changed, n, "z.toml"),
        experiment_row(Ablation("X", "x", frozenset({"X"}), ()), base, changed, n, "x.toml"),
        experiment_row(Ablation("W", "w", frozenset({"W"}), ()), base, changed, n, "w.toml"),
    ]
    rank(rows)
    assert [r["label"] for r in rows] == ["X", "Z", "W"]
    x, z, w = rows
    assert x["controlled"] and x["reading"] == "clear effect" and x["p_holm"] < 0.05
    assert x["holder_win_rate_delta"] < -0.4 and x["paired_games"] == n
    assert x["holder_win_rate_delta_ci95"][1] < 0
    assert not z["controlled"] and z["reading"] == "too small to tell"
    assert z["games_for_5_points"] and z["games_for_5_points"] > 0
    assert w["reading"] == "never acquired in these games"
    line = too_small_line(rows, n)
    assert line.startswith(f"too small to tell at {n} games: Z") and "never held" in line
    assert "X" not in line.split(":", 1)[1].split(";")[0]


def test_a_card_every_seat_holds_is_not_read_on_win_rate() -> None:
    # both seats hold V in every game: their mean win share is 1/2 whatever changes
    base = [_game(i, i % 2, [["V"], ["V"]]) for i in range(40)]
    changed = [_game(i, 1, [["V"], ["V"]]) for i in range(40)]
    row = experiment_row(Ablation("V", "v", frozenset({"V"}), ()), base, changed, 40, "v.toml")
    rank([row])
    assert row["held_by_every_seat"] == 1.0 and "controlled" not in row
    assert row["reading"].startswith("held by every seat") and row["games_for_5_points"] is None
    assert "cannot move" in too_small_line([row], 40) and "V" in too_small_line([row], 40)
