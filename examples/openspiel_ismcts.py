"""OpenSpiel's ISMCTS against cardlab's ISMCTS, on the OpenSpiel versions of
the cardlab games (`cardlab.adapters.openspiel`).

    python examples/openspiel_ismcts.py --game runway --players 3 --games 24 --sims 50

N players: OpenSpiel's ISMCTS sits in one seat, cardlab's ISMCTS in all the
others. The OpenSpiel seat rotates game by game (game i: seat i mod N) and the
deal seed of game i is i, so over N consecutive games the OpenSpiel bot plays
every seat once. Every bot gets the same number of simulations per decision:
- OpenSpiel: `open_spiel.python.algorithms.ismcts.ISMCTSBot`, random-rollout
  evaluator (full rollouts), UCT; it maximises the OpenSpiel returns, i.e. its
  own points (general-sum). Worlds are redealt by the engine's resampler.
- cardlab: `make_agent("ismcts", iterations=sims)` with its defaults (rollouts
  cut at 12 actions and scored by the game's heuristic; maximises winning).
  It is handed a view redealt from its own infostate, as `play_game` does.
Prints one line per game and a summary: the OpenSpiel seat's wins (a shared win
counts 1/k) with a Wilson 95% interval against the fair share 1/N, mean points of
the OpenSpiel seat and of the cardlab seats, and seconds per decision of each bot.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cardlab.adapters import openspiel
from cardlab.agents import agent_view, make_agent


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def play(game: pyspiel.Game, deal: int, spiel_seat: int, sims: int, uct_c: float) -> dict:
    rs = np.random.RandomState(deal)
    rng = random.Random(deal)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, sims, random_state=rs)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
    n = game.num_players()
    ours = {p: make_agent("ismcts", seed=deal * 10 + p, iterations=sims) for p in range(n)}
    views = random.Random(f"views-{deal}")
    state = game.new_initial_state()
    state.apply_action(deal)
    spent = {"openspiel": 0.0, "cardlab": 0.0}
    moves = {"openspiel": 0, "cardlab": 0}
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        who = "openspiel" if seat == spiel_seat else "cardlab"
        start = time.perf_counter()
        if len(legal) == 1:
            action = legal[0]
        elif who == "openspiel":
            action = int(bot.step(state))
        else:
            action = ours[seat].step(agent_view(state.inner, seat, views))
        spent[who] += time.perf_counter() - start
        moves[who] += 1
        state.apply_action(action)
    winners = state.inner.winners()
    share = 1.0 / len(winners)
    return {
        "deal": deal,
        "spiel_seat": spiel_seat,
        "returns": state.returns(),
        "openspiel_win": share if spiel_seat in winners else 0.0,
        "cardlab_wins": share * sum(1 for w in winners if w != spiel_seat),
        "sec_per_move": {k: spent[k] / max(moves[k], 1) for k in spent},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--game",
        default="runway",
        choices=[s.removeprefix("python_cardlab_") for s in openspiel.REGISTERED],
    )
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--uct-c", type=float, default=10.0, help="OpenSpiel UCT c (points scale)")
    ap.add_argument("--first", type=int, default=0, help="deal seed of the first game")
    args = ap.parse_args()
    n = args.players
    game = pyspiel.load_game(openspiel.short_name(args.game), {"players": n})
    results = []
    for i in range(args.first, args.first + args.games):
        r = play(game, deal=i, spiel_seat=i % n, sims=args.sims, uct_c=args.uct_c)
        results.append(r)
        print(
            f"deal {i} openspiel@seat{r['spiel_seat']} returns={r['returns']} "
            f"openspiel_win={r['openspiel_win']} s/move={r['sec_per_move']}",
            flush=True,
        )
    g = len(results)
    ow = sum(r["openspiel_win"] for r in results)
    cw = sum(r["cardlab_wins"] for r in results)
    o_pts = np.mean([r["returns"][r["spiel_seat"]] for r in results])
    c_pts = np.mean(
        [x for r in results for p, x in enumerate(r["returns"]) if p != r["spiel_seat"]]
    )
    lo, hi = wilson(ow, g)
    o_s = np.mean([r["sec_per_move"]["openspiel"] for r in results])
    c_s = np.mean([r["sec_per_move"]["cardlab"] for r in results])
    print(
        f"SUMMARY {args.game} {n}p, {g} games, {args.sims} sims/decision: "
        f"OpenSpiel ISMCTS seat wins {ow:g}/{g} ({ow / g:.0%}, 95% CI {lo:.0%}-{hi:.0%}; "
        f"fair share {1 / n:.0%}), cardlab ISMCTS seats win {cw:g}/{g}; mean points per seat "
        f"OpenSpiel {o_pts:.1f} vs cardlab {c_pts:.1f}; "
        f"s/decision OpenSpiel {o_s:.3f} vs cardlab {c_s:.3f}"
    )


if __name__ == "__main__":
    main()
