"""'X dominates' is said only among strategies of one strength (personas and greedy; random;
ISMCTS at one search budget); a stronger bot clearly ahead of a weaker one is the skill
gap, with its figure, not a dominant strategy."""

from __future__ import annotations

from cardlab.lab import strategy
from cardlab.lab.findings import play_findings
from cardlab.lab.simulate import GameRecord


def _games(agents: tuple[str, str], n: int = 80) -> list[GameRecord]:
    """`agents[0]` wins three games in four, every game of `n`, seats alternating."""
    out = []
    for i in range(n):
        seats = list(agents) if i % 2 == 0 else list(agents[::-1])
        winner = seats.index(agents[0]) if i % 4 else seats.index(agents[1])
        out.append(GameRecord(
            game="t", players=2, options="{}", agents=seats, index=i, seed=i,
            scores=[1.0 if s == winner else 0.0 for s in range(2)], winners=[winner],
        ))  # fmt: skip
    return out


def _report(personas: dict) -> dict:
    return {
        "title": "T", "settings": {"players": 2},
        "main": {"ends": {"games": 80, "reasons": {}, "seeds": {}}, "length": {"rounds": {}},
                 "outcome": {}, "decisions": {"noop_turn_share": 0.0}},
        "strategy": {"games": 80, "personas": personas},
    }  # fmt: skip


def test_the_tiers() -> None:
    tier = strategy.strength_tier
    assert tier("random") == "random"
    assert tier("greedy") == tier("converter") == tier("points:placement=open") == "heuristic"
    assert tier("ismcts:iterations=100") == tier("ismcts:iterations=100,c=1.5")
    assert tier("ismcts:iterations=100") != tier("ismcts:iterations=300")


def test_a_stronger_bot_is_a_skill_gap_not_a_dominant_strategy() -> None:
    for pair in (("greedy", "random"), ("ismcts:iterations=300", "ismcts:iterations=30")):
        out = strategy.personas(_games(pair))
        assert out["dominant"] is None, pair
        gap = out["skill_gap"]
        assert (gap["stronger"], gap["weaker"]) == pair and gap["gap"] == 0.5
        assert "a skill gap of +50 points of win rate" in gap["sentence"]
        titles = {f["title"]: f for f in play_findings(_report(out))}
        assert "A dominant strategy" not in titles
        assert titles["Skill gap"]["figure"]["value"] == 0.5


def test_strategies_of_one_strength_can_dominate() -> None:
    for pair in (("converter", "greedy"), ("ismcts:iterations=100,c=0.3", "ismcts:iterations=100")):
        out = strategy.personas(_games(pair))
        assert out["dominant"] == pair[0] and out["skill_gap"] is None
        assert f"{pair[0]} dominates" in out["sentence"] and pair[1] in out["sentence"]
        titles = [f["title"] for f in play_findings(_report(out))]
        assert "A dominant strategy" in titles and "Skill gap" not in titles
