"""RUNWAY's rulebook claims (seed 001), each checked by simulation.

Probes read only the public observation (the pitches are face-up) and the
action labels ("pitch Cash 7 (match)"), so they test what a player sees."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Any

from cardlab.lab.claims import claim, untestable, verdict
from cardlab.lab.claims.common import length_verdict, mean_ci, style_matchup
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import finished
from cardlab.lab.simulate import Observer
from cardlab.lab.stats import wilson

PITCH = re.compile(r"pitch (\w+) (\d+) \((\w+)\)")


class DealObserver(Observer):
    """Per Deal: who pitched what (or passed), the last seat, and who won it."""

    def __init__(self) -> None:
        super().__init__()
        self.deals: list[dict[str, Any]] = []
        self._won: list[int] | None = None

    def _settle(self, obs: dict[str, Any]) -> None:
        won = [len(w) for w in obs["deals_won"]]
        if self._won is not None and self.deals:
            gained = [p for p, (a, b) in enumerate(zip(self._won, won, strict=True)) if b > a]
            self.deals[-1]["winner"] = gained[0] if gained else None
        self._won = won

    def see(self, state: Any, seat: int, action: int) -> None:
        if state.decision_kind() != "pitch":
            return
        obs = state.observation(seat)
        if not self.deals or self.deals[-1]["closed_before"] != obs["deals_closed"]:
            self._settle(obs)
            deal = obs["deal_in_play"]
            self.deals.append(
                {
                    "closed_before": obs["deals_closed"],
                    "deal": deal["name"],
                    "sector": deal["sector"],
                    "last_seat": obs["last_seat"],
                    "reputation": list(state.scores()),
                    "pitches": [],
                }
            )
        m = PITCH.match(state.action_to_string(action))
        pitch = (seat, m.group(1), int(m.group(2)), m.group(3)) if m else (seat, "pass", 0, "pass")
        self.deals[-1]["pitches"].append(pitch)

    def finish(self, result: Any) -> dict[str, Any]:
        if self.state is not None:
            self._settle(self.state.observation(0))
        return {"deals": self.deals, "winners": result.winners, "returns": result.returns}


@claim(
    "runway.sample_turn",
    "Sample turn: Conference Badge needs Social and scores 3; Board Seat (Social, 4) is showing "
    "next. Bo pitches Network 3. Cam ... passes, trading toward a Cash 7. Ana pitches Network 7 "
    "and wins Conference Badge for 3 ... Cam's Cash 7 beats everyone else and wins it for "
    "4 - 1 = 3 (Cash, outside FinTech).",
)
def sample_turn(ctx: LabContext) -> Any:
    from cardlab.games.runway import scenarios

    state = scenarios.sample_turn_state()
    before = list(state.scores())
    wins: list[tuple[str, int, int]] = []
    for seat, label in scenarios.SAMPLE_SCRIPT:
        state_rep = list(state.scores())
        won_before = [len(w) for w in state.observation(seat)["deals_won"]]
        scenarios.play_script(state, [(seat, label)])
        won_after = [len(w) for w in state.observation(seat)["deals_won"]]
        for p, (a, b) in enumerate(zip(won_before, won_after, strict=True)):
            if b > a:
                deal = state.observation(seat)["deals_won"][p][-1]["name"]
                wins.append((deal, p, int(state.scores()[p] - state_rep[p])))
    names = scenarios.SAMPLE_SEATS
    printed = [("Conference Badge", 0, 3), ("Board Seat", 2, 3)]
    social = state.observation(0)["footholds"][0]
    return verdict(
        [(d, p, pts) for d, p, pts in wins] == printed,
        printed=[f"{names[p]} wins {d} for {pts}" for d, p, pts in printed],
        replayed=[f"{names[p]} wins {d} for {pts} (reputation gained)" for d, p, pts in wins],
        ana_footholds=social,
        script=[f"{names[s]}: {label}" for s, label in scenarios.SAMPLE_SCRIPT],
        scores_before=before,
        scores_after=list(state.scores()),
    )


@claim(
    "runway.one_pitch_per_deal",
    "You have exactly one pitch per round. ... Close: once everyone has pitched once ...",
)
def one_pitch_per_deal(ctx: LabContext) -> Any:
    bad: list[dict[str, Any]] = []
    deals = 0
    by_players = {}
    for n in range(2, 5):
        run = ctx.run(
            observer=DealObserver, players=n, games=ctx.probe_games // 3, agents=["random"]
        )
        for g in run.records:
            for d in g["deals"]:
                deals += 1
                per_seat = Counter(p[0] for p in d["pitches"])
                if sorted(per_seat) != list(range(n)) or set(per_seat.values()) != {1}:
                    bad.append(
                        {
                            "seed": g["seed"],
                            "players": n,
                            "deal": d["deal"],
                            "pitches_by_seat": dict(per_seat),
                        }
                    )
        by_players[n] = len(run.records)
    return verdict(
        not bad,
        deals_checked=deals,
        games_by_players=by_players,
        deals_where_a_seat_pitched_other_than_once=len(bad),
        examples=bad[:5],
    )


@claim(
    "runway.small_match_denies",
    "You do not need to want to win - a small matching card still denies, since a match beats "
    "Cash on a tie.",
)
def small_match_denies(ctx: LabContext) -> Any:
    run = ctx.run(observer=DealObserver, games=ctx.probe_games)
    ties = tie_match_won = denials = small_pitches = 0
    counter_examples: list[dict[str, Any]] = []
    denial_seeds: list[int] = []
    for g in run.records:
        for d in g["deals"]:
            competing = [p for p in d["pitches"] if p[3] in ("match", "cash")]
            for i, (seat, _kind, num, role) in enumerate(competing):
                if role != "match" or num > 3:
                    continue
                small_pitches += 1
                cash_equal = [p for p in competing if p[3] == "cash" and p[2] == num]
                if cash_equal and max(p[2] for p in competing) == num:
                    ties += 1
                    if d["winner"] == seat:
                        tie_match_won += 1
                    else:
                        counter_examples.append(
                            {
                                "seed": g["seed"],
                                "deal": d["deal"],
                                "pitches": d["pitches"],
                                "winner": d["winner"],
                            }
                        )
                others = competing[:i] + competing[i + 1 :]
                if d["winner"] == seat and others:
                    denials += 1
                    if len(denial_seeds) < 5:
                        denial_seeds.append(g["seed"])
    if ties == 0:
        return untestable(
            "no small match tied a Cash pitch in the probe games",
            games=len(run.records),
            small_match_pitches=small_pitches,
        )
    lo, hi = wilson(denials, small_pitches)
    return verdict(
        tie_match_won == ties and denials > 0,
        games=len(run.records),
        agents=list(run.spec.agents),
        small_match_pitches=small_pitches,
        small_match_vs_equal_cash_ties=ties,
        ties_won_by_the_match=tie_match_won,
        small_matches_that_won_against_a_rival_pitch=denials,
        denial_rate_wilson95=[round(lo, 4), round(hi, 4)],
        denial_seeds=denial_seeds,
        counter_examples=counter_examples[:5],
    )


class SeatObserver(Observer):
    """Per Deal: everyone's Reputation when the Deal starts and who pitches last
    (both public); at the end the final scores and winners."""

    def __init__(self) -> None:
        super().__init__()
        self.rep: list[list[float]] = []
        self.last: list[int] = []

    def see(self, state: Any, seat: int, action: int) -> None:
        if state.decision_kind() != "pitch":
            return
        obs = state.observation(seat)
        if obs["deals_closed"] == len(self.rep):
            self.rep.append(list(state.scores()))
            self.last.append(obs["last_seat"])

    def finish(self, result: Any) -> dict[str, Any]:
        return {
            "rep_by_deal": self.rep,
            "last_by_deal": self.last,
            "returns": list(result.returns),
            "winners": list(result.winners),
        }


SEAT_ARMS = {
    "catch_up": {"last_seat": "catch_up", "two_player_last_seat": "catch_up"},
    "rotation": {"last_seat": "rotate", "two_player_last_seat": "catch_up"},
}
"""The two seatings compared: R10's catch-up seat, and the last seat passed one seat
clockwise every Deal (option last_seat=rotate; at 2 players that is alternation)."""

HALFWAY = 6
"""The halfway leader is the sole leader when Deal 7 of 12 starts (6 Deals closed)."""


def _replay_command(run: Any) -> str:
    opts = " ".join(f"--option {k}={v}" for k, v in sorted(run.spec.options_dict.items()))
    return (
        f"cardlab simulate runway --players {run.spec.players} --games {run.spec.games} "
        f"--agents {','.join(run.spec.agents)} --seed {run.spec.seed} {opts}"
    )


def _arm_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    spreads = [max(g["returns"]) - min(g["returns"]) for g in records]
    led = leader_won = 0.0
    lowest_last = deals = 0
    for g in records:
        for rep, last in zip(g["rep_by_deal"], g["last_by_deal"], strict=True):
            deals += 1
            lowest_last += rep[last] == min(rep)
        if len(g["rep_by_deal"]) > HALFWAY:
            rep = g["rep_by_deal"][HALFWAY]
            top = [p for p, r in enumerate(rep) if r == max(rep)]
            if len(top) == 1:
                led += 1
                if top[0] in g["winners"]:
                    leader_won += 1 / len(g["winners"])
    lo, hi = wilson(leader_won, int(led))
    return {
        "spreads": spreads,
        "mean_spread": round(statistics.fmean(spreads), 3),
        "games_with_a_sole_halfway_leader": int(led),
        "halfway_leader_win_share": round(leader_won / max(1.0, led), 4),
        "halfway_leader_win_share_wilson95": [round(lo, 4), round(hi, 4)],
        "share_of_deals_pitched_last_by_a_lowest_seat": round(lowest_last / max(1, deals), 4),
    }


@claim(
    "runway.catch_up_seat",
    "Whoever has the fewest Reputation points pitches last next Deal - a catch-up seat.",
)
def catch_up_seat(ctx: LabContext) -> Any:
    """Catch-up seat (R10) against a fixed rotation (option last_seat=rotate) at 2, 3 and 4
    players, on the same game seeds (paired: game i of both arms has the same deal and
    agent seeds). Holds when, at every player count, the 95% interval of the paired
    difference in final spread (max - min Reputation; catch-up minus rotation) lies
    wholly below 0. The halfway leader's win share is reported beside it."""
    games = ctx.probe_games
    by_players: dict[str, Any] = {}
    narrows: dict[str, str] = {}
    for n in (2, 3, 4):
        runs = {
            arm: ctx.run(observer=SeatObserver, players=n, games=games, options=opts)
            for arm, opts in SEAT_ARMS.items()
        }
        rec = {arm: {g["index"]: g for g in r.records} for arm, r in runs.items()}
        both = sorted(set(rec["catch_up"]) & set(rec["rotation"]))  # games that finished
        figs = {arm: _arm_figures([rec[arm][i] for i in both]) for arm in SEAT_ARMS}
        seeds = [rec["catch_up"][i]["seed"] for i in both]
        diffs = [
            a - b
            for a, b in zip(
                figs["catch_up"].pop("spreads"), figs["rotation"].pop("spreads"), strict=True
            )
        ]
        d, lo, hi = mean_ci(diffs)
        narrows[str(n)] = "narrows" if hi < 0 else "widens" if lo > 0 else "no clear difference"
        ranked = sorted(zip(diffs, seeds, strict=True))
        lead = {arm: figs[arm]["halfway_leader_win_share"] for arm in SEAT_ARMS}
        by_players[str(n)] = {
            "paired_games": len(seeds),
            "mean_spread": {arm: figs[arm]["mean_spread"] for arm in SEAT_ARMS},
            "spread_difference_catch_up_minus_rotation": round(d, 3),
            "difference_ci95": [round(lo, 3), round(hi, 3)],
            "reading": narrows[str(n)],
            "halfway_leader_win_share": lead,
            "halfway_leader_win_share_wilson95": {
                arm: figs[arm]["halfway_leader_win_share_wilson95"] for arm in SEAT_ARMS
            },
            "games_with_a_sole_halfway_leader": {
                arm: figs[arm]["games_with_a_sole_halfway_leader"] for arm in SEAT_ARMS
            },
            "share_of_deals_pitched_last_by_a_lowest_seat": {
                arm: figs[arm]["share_of_deals_pitched_last_by_a_lowest_seat"] for arm in SEAT_ARMS
            },
            "seeds_most_narrowed_by_catch_up": [s for _, s in ranked[:3]],
            "seeds_most_widened_by_catch_up": [s for _, s in ranked[::-1][:3]],
            "replay": {arm: _replay_command(r) for arm, r in runs.items()},
        }
    agents = list(ctx.spec().agents)
    return verdict(
        all(v == "narrows" for v in narrows.values()),
        question="does the catch-up seat narrow the final score spread, against a fixed "
        "rotation of the last seat?",
        rule="holds when, at each of 2, 3 and 4 players, the 95% interval of the paired "
        "difference in mean final spread (max - min Reputation; catch-up minus rotation) "
        "lies wholly below 0",
        arms={
            "catch_up": "R10: fewest Reputation pitches last (options last_seat=catch_up, "
            "two_player_last_seat=catch_up)",
            "rotation": "option last_seat=rotate: the last seat passes one seat clockwise "
            "every Deal (at 2 players: alternates)",
        },
        agents=agents,
        games_per_arm_and_player_count=games,
        pairing="game i of both arms has the same game seed (same set-up and agent seeds); "
        "the seatings then make the games diverge",
        halfway_leader=f"the sole leader when Deal {HALFWAY + 1} of 12 starts; win share "
        "counts a shared win 1/k; a catch-up seat should lower it",
        reading_by_players=narrows,
        by_players=by_players,
    )


@claim(
    "runway.richer_vs_specialist",
    "Cam was richer. Ana specialized. (Both styles - the Cash-rich generalist and the "
    "one-Sector specialist - are meant to be viable.)",
)
def richer_vs_specialist(ctx: LabContext) -> Any:
    styles = ["generalist", "specialist"]
    table = style_matchup(ctx, styles, 2 * ctx.probe_games)
    fair = 1 / ctx.players
    floor = 0.75 * fair
    viable = {s: v["wilson95"][1] >= floor for s, v in table.items()}
    return verdict(
        all(viable.values()),
        players=ctx.players,
        styles=table,
        fair_share=round(fair, 4),
        rule=f"a style is viable unless its 95% interval lies wholly below 75% of the fair "
        f"share ({floor:.1%})",
        viable=viable,
    )


RUNWAY_KINDS = {
    "pitch": "a seat's one pitch of the Deal: read the Deal, the next Deal and the pitches so "
    "far, then play a card (match, Cash or Ride) or pass",
    "trade": "after a pass: swap with a Bench card, discard and draw blind, or skip",
}
"""RUNWAY's decision kinds (`decision_kind()`), as the time model prices them."""


@claim("runway.length_30", "2-4 players · 30 min")
def length_30(ctx: LabContext) -> Any:
    """Estimated minutes (the lab's time model) at 2, 3 and 4 players within 30 +-25%.

    The evidence states the time model's assumption for each RUNWAY decision kind, whether
    every kind seen in play is priced (else it falls to `other`), the decisions per kind,
    and, because the model prices decisions only, how many seconds per Deal of unpriced
    table time (closing, drawing up, flipping) would bring each mean to 30 minutes."""
    counts = [2, 3, 4]
    ok, evidence = length_verdict(ctx, counts, 22.5, 37.5, ctx.probe_games)
    model = ctx.time_model
    seen: set[str] = set()
    per: dict[str, Any] = {}
    for n in counts:
        run = ctx.run(players=n, games=ctx.probe_games if n != ctx.players else ctx.games)
        recs = finished(run.records)
        kinds = sorted({k for r in recs for k in r.kind_decisions})
        seen.update(kinds)
        games = max(1, len(recs))
        mean_s = sum(model.game_seconds(r.kind_decisions, r.kind_forced) for r in recs) / games
        deals = 12
        per[str(n)] = {
            "mean_decisions_by_kind": {
                k: round(sum(r.kind_decisions.get(k, 0) for r in recs) / games, 2) for k in kinds
            },
            "mean_forced_by_kind": {
                k: round(sum(r.kind_forced.get(k, 0) for r in recs) / games, 2) for k in kinds
            },
            "mean_modelled_seconds_per_deal": round(mean_s / deals, 1),
            "unpriced_seconds_per_deal_to_reach_30_min": round((30 * 60 - mean_s) / deals, 1),
        }
    unpriced = sorted(k for k in seen if k not in model.seconds)
    evidence["decision_kinds"] = {
        k: {
            "what": RUNWAY_KINDS.get(k, "not a known RUNWAY kind"),
            "seconds": model.seconds.get(k, model.other),
            "priced_by": "time model" if k in model.seconds else "fallback 'other'",
        }
        for k in sorted(seen)
    }
    evidence["assumption"] = (
        "a table of players who know the rules: each decision costs the model's seconds for "
        "its kind (RUNWAY: pitch, trade), a forced move (one legal action: a pitch with only "
        f"pass legal) {model.forced:g} s; set-up, the close of each Deal (compare pitches, "
        "pay the reward and Rides, draw up, Foothold, Hype, flip, reseat) and final scoring "
        "are not priced. These are guesses, not stopwatch figures"
    )
    if unpriced:
        evidence["warning"] = (
            f"kinds {unpriced} are not in the time model and cost the fallback "
            f"{model.other:g} s each; pass the game's model (cardlab report uses "
            "TimeModel.for_game) or --time-model"
        )
    evidence["by_players_kinds"] = per
    return verdict(ok, **evidence)


@claim(
    "runway.two_players_same",
    "2 players: Nothing changes - deck, Bench, Footholds, and scoring are the same. Turn order "
    "just alternates.",
)
def two_players_same(ctx: LabContext) -> Any:
    """Does the 2-player last seat alternate every Deal? Measured under the report's options
    (the verdict; by default R10's catch-up seat) and, beside it, under
    two_player_last_seat=alternate (the rulebook's literal 2-player reading)."""
    run = ctx.run(observer=DealObserver, players=2, games=ctx.probe_games)
    alt = ctx.run(
        observer=DealObserver,
        players=2,
        games=ctx.probe_games,
        options={"two_player_last_seat": "alternate"},
    )
    order = _order_changes(run.records)
    alt_order = _order_changes(alt.records)
    deals3 = ctx.run(observer=DealObserver, players=3, games=ctx.probe_games)
    dumped = {
        n: round(
            sum(1 for g in r.records for d in g["deals"] if d["winner"] is None)
            / max(1, sum(len(g["deals"]) for g in r.records)),
            4,
        )
        for n, r in ((2, run), (3, deals3))
    }
    return verdict(
        order["deal_to_deal_last_seat_repeats"] == 0,
        question="with 2 players under these rules, does the turn order just alternate?",
        rule="holds when no Deal's last seat equals the previous Deal's (every pair of "
        "consecutive Deals in every probe game)",
        options=run.spec.options_dict,
        games=len(run.records),
        **order,
        why="R10: the catch-up seat applies at 2 players by default, so the trailing player "
        "pitches last every Deal while behind; the last seat changes only when the other "
        "player falls behind (or on a tie, which hands the seat on). catch_up_repeats counts "
        "the repeats where the seat pitching last again had the fewest Reputation. Option "
        "two_player_last_seat=alternate (or last_seat=rotate) makes the order alternate",
        with_two_player_last_seat_alternate={
            "options": alt.spec.options_dict,
            "games": len(alt.records),
            **alt_order,
            "claim_holds": alt_order["deal_to_deal_last_seat_repeats"] == 0,
        },
        dumped_share_by_players=dumped,
    )


def _order_changes(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Deal-to-deal last-seat changes and repeats; repeats the catch-up rule explains."""
    changes = repeats = catch_up_repeats = 0
    seeds: list[int] = []
    for g in records:
        deals = g["deals"]
        for a, b in zip(deals, deals[1:], strict=False):
            if a["last_seat"] != b["last_seat"]:
                changes += 1
                continue
            repeats += 1
            rep = b["reputation"]
            catch_up_repeats += rep[b["last_seat"]] == min(rep)
            if g["seed"] not in seeds and len(seeds) < 5:
                seeds.append(g["seed"])
    return {
        "deal_to_deal_last_seat_changes": changes,
        "deal_to_deal_last_seat_repeats": repeats,
        "catch_up_repeats": catch_up_repeats,
        "repeat_seeds": seeds,
    }
