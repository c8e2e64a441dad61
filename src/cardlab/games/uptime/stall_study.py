"""How UPTIME games end between bots (the design note in docs/rules/uptime.md).

    python -m cardlab.games.uptime.stall_study [GAMES] [PLAYERS] [BOT[+BOT...]]

Prints one JSON line: end reasons, mean turns, the turn the Supply Deck ran out, claims,
Computers built, materials still in hands, and what the Build Row held at the end.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from typing import Any

from cardlab.games.uptime.cards import KIND_NAMES


def study(games: int, players: int, bots: list[str], **options: Any) -> dict[str, Any]:
    import cardlab.agents.personas  # noqa: F401  (registers the UPTIME personas)
    from cardlab.agents.base import make_agent
    from cardlab.agents.play import play_game

    game = cardlab.load_game("uptime", players=players, **options)
    ends: Counter[str] = Counter()
    row: Counter[str] = Counter()
    turns, empty_at, claims, computers, in_hands = [], [], [], [], []
    for seed in range(games):
        agents = [make_agent(bots[i % len(bots)], seed=seed * 10 + i) for i in range(players)]
        seen: dict[str, Any] = {}

        def watch(state: Any, seat: int, action: int, seen: dict[str, Any] = seen) -> None:
            if "empty" not in seen and not state.supply:
                seen["empty"] = state.total_turns

        result = play_game(game, agents, seed=seed, on_action=watch)
        info = result.info
        ends[str(info["end_reason"])] += 1
        turns.append(info["turns"])
        if "empty" in seen:
            empty_at.append(seen["empty"])
        claims.append(sum(len(a) for a in info["acquired"]))
        computers.append(sum(info["computers"]))
        in_hands.append(sum(info["materials_left"]))
        final = game.new_initial_state(seed)
        for a in result.history:
            final.apply_action(a)
        for c in final.row:
            row[KIND_NAMES[final.t.kind[c]] if c >= 0 else "empty"] += 1

    def mean(xs: list[int]) -> float:
        return round(statistics.mean(xs), 1) if xs else 0.0

    return {
        "players": players,
        "bots": bots,
        "games": games,
        "ends": dict(ends),
        "turns": mean(turns),
        "supply_empty_at_turn": mean(empty_at),
        "claims": mean(claims),
        "computers_built": mean(computers),
        "materials_in_hands_at_end": mean(in_hands),
        "build_row_at_end": dict(row),
    }


if __name__ == "__main__":  # pragma: no cover
    args = sys.argv[1:]
    n_games = int(args[0]) if args else 200
    n_players = int(args[1]) if len(args) > 1 else 4
    kinds = (args[2] if len(args) > 2 else "converter").split("+")
    print(json.dumps(study(n_games, n_players, kinds)))
