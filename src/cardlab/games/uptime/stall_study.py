"""How UPTIME games end between bots (the design notes in docs/rules/uptime.md).

    python -m cardlab.games.uptime.stall_study [GAMES] [PLAYERS] [BOT[+BOT...]] [OPTION=VALUE ...]

e.g. `... stall_study 300 4 converter+auctioneer+greedy supply_reshuffle=true row_sweep=true`.
Bots are cycled over seats 0..n-1 (the seed picks the first player, so every bot gets every
turn position). Prints one JSON line: end reasons, mean turns and decisions, the turn the
Supply Deck ran out, claims, Computers built (mean per game, games with one), Contracts won,
materials still in hands, what the Build Row held at the end, win share per turn position and
per bot kind.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from typing import Any

from cardlab.games.uptime.cards import KIND_NAMES


def study(games: int, players: int, bots: list[str], **options: Any) -> dict[str, Any]:
    import cardlab.agents  # noqa: F401  (registers the UPTIME personas)
    from cardlab.agents.base import make_agent
    from cardlab.agents.play import play_game

    game = cardlab.load_game("uptime", players=players, **options)
    ends: Counter[str] = Counter()
    row: Counter[str] = Counter()
    turns, decisions, empty_at, claims, computers, contracts, in_hands = [], [], [], [], [], [], []
    position_wins = [0] * players
    bot_wins: Counter[str] = Counter()
    bot_seats: Counter[str] = Counter()
    bot_computers: Counter[str] = Counter()
    for seed in range(games):
        kinds = [bots[i % len(bots)] for i in range(players)]
        agents = [make_agent(kinds[i], seed=seed * 10 + i) for i in range(players)]
        seen: dict[str, Any] = {}

        def watch(state: Any, seat: int, action: int, seen: dict[str, Any] = seen) -> None:
            if "empty" not in seen and not state.supply:
                seen["empty"] = state.total_turns

        result = play_game(game, agents, seed=seed, on_action=watch)
        info: dict[str, Any] = result.info
        ends[str(info["end_reason"])] += 1
        turns.append(info["turns"])
        decisions.append(info["decisions"])
        if "empty" in seen:
            empty_at.append(seen["empty"])
        claims.append(sum(len(a) for a in info["acquired"]))
        computers.append(sum(info["computers"]))
        contracts.append(sum(info["contracts"]))
        in_hands.append(sum(info["materials_left"]))
        (winner,) = result.winners
        position_wins[(winner - info["first_player"]) % players] += 1
        for seat, kind in enumerate(kinds):
            bot_seats[kind] += 1
            bot_computers[kind] += info["computers"][seat]
        bot_wins[kinds[winner]] += 1
        final: Any = game.new_initial_state(seed)
        for a in result.history:
            final.apply_action(a)
        for c in final.build_row:
            row[KIND_NAMES[final.table.kind[c]] if c >= 0 else "empty"] += 1

    def mean(xs: list[int]) -> float:
        return round(statistics.mean(xs), 2) if xs else 0.0

    return {
        "players": players,
        "bots": bots,
        "options": options,
        "games": games,
        "ends": dict(ends),
        "turns": mean(turns),
        "decisions": mean(decisions),
        "supply_empty_at_turn": mean(empty_at),
        "games_supply_ran_out": len(empty_at),
        "claims": mean(claims),
        "computers_built": mean(computers),
        "games_with_a_computer": sum(1 for c in computers if c),
        "contracts_won": mean(contracts),
        "materials_in_hands_at_end": mean(in_hands),
        "build_row_at_end": dict(row),
        "win_share_by_position": [round(w / games, 3) for w in position_wins],
        "win_share_per_seat_by_bot": {
            k: round(bot_wins[k] / bot_seats[k], 3) for k in sorted(bot_seats)
        },
        "computers_per_seat_by_bot": {
            k: round(bot_computers[k] / bot_seats[k], 3) for k in sorted(bot_seats)
        },
    }


def _parse_options(args: list[str]) -> dict[str, str]:
    out = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise SystemExit(f"error: option {arg!r} must be written NAME=VALUE")
        out[key] = value
    return out


if __name__ == "__main__":  # pragma: no cover
    args = sys.argv[1:]
    n_games = int(args[0]) if args else 200
    n_players = int(args[1]) if len(args) > 1 else 4
    kinds = (args[2] if len(args) > 2 else "converter").split("+")
    print(json.dumps(study(n_games, n_players, kinds, **_parse_options(args[3:]))))
