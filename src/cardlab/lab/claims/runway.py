"""RUNWAY's rulebook claims (seed 001), each checked by simulation.

Probes read only the public observation (the pitches are face-up) and the
action labels ("pitch Cash 7 (match)"), so they test what a player sees."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from cardlab.lab.claims import claim, untestable, verdict
from cardlab.lab.claims.common import diff_ci, length_verdict, style_matchup
from cardlab.lab.context import LabContext
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


def _spread(run: Any) -> list[float]:
    return [max(r.scores) - min(r.scores) for r in run.records if r.error is None]


@claim(
    "runway.catch_up_seat",
    "Whoever has the fewest Reputation points pitches last next Deal - a catch-up seat.",
)
def catch_up_seat(ctx: LabContext) -> Any:
    """Only 2 players can switch the catch-up seat off (option two_player_last_seat=alternate,
    a fixed rotation); at 3-4 players the engine has no fixed-rotation option."""
    games = max(ctx.probe_games, ctx.games // 2)
    catch = ctx.run(players=2, games=games, options={"two_player_last_seat": "catch_up"})
    fixed = ctx.run(players=2, games=games, options={"two_player_last_seat": "alternate"})
    d, lo, hi = diff_ci(_spread(catch), _spread(fixed))
    return verdict(
        hi < 0,
        question="does the catch-up seat narrow the final score spread (max - min)?",
        players=2,
        games_each=games,
        agents=list(catch.spec.agents),
        mean_spread_catch_up=round(sum(_spread(catch)) / games, 3),
        mean_spread_fixed_rotation=round(sum(_spread(fixed)) / games, 3),
        difference_ci95=[round(d, 3), round(lo, 3), round(hi, 3)],
        rule="holds when the 95% interval of (catch-up - fixed) lies below 0",
        not_tested="3-4 players: the engine has no fixed-rotation option there",
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


@claim("runway.length_30", "2-4 players · 30 min")
def length_30(ctx: LabContext) -> Any:
    ok, evidence = length_verdict(ctx, [2, 3, 4], 22.5, 37.5, ctx.probe_games)
    return verdict(ok, **evidence)


@claim(
    "runway.two_players_same",
    "2 players: Nothing changes - deck, Bench, Footholds, and scoring are the same. Turn order "
    "just alternates.",
)
def two_players_same(ctx: LabContext) -> Any:
    run = ctx.run(observer=DealObserver, players=2, games=ctx.probe_games)
    changes = repeats = 0
    repeat_seeds: list[int] = []
    for g in run.records:
        lasts = [d["last_seat"] for d in g["deals"]]
        for a, b in zip(lasts, lasts[1:], strict=False):
            if a == b:
                repeats += 1
                if g["seed"] not in repeat_seeds and len(repeat_seeds) < 5:
                    repeat_seeds.append(g["seed"])
            else:
                changes += 1
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
        repeats == 0,
        question="with 2 players under the default rules, does the turn order just alternate?",
        options=run.spec.options_dict,
        deal_to_deal_last_seat_changes=changes,
        deal_to_deal_last_seat_repeats=repeats,
        repeat_seeds=repeat_seeds,
        dumped_share_by_players=dumped,
        note="the catch-up seat (R10) applies at 2 players by default; option "
        "two_player_last_seat=alternate makes the order alternate",
    )
