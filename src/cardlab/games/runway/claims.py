"""RUNWAY's rulebook claims (seed 001), each checked by simulation.

Probes read only the public observation (the pitches are face-up) and the
action labels ("pitch Cash 7 (match)"), so they test what a player sees."""

from __future__ import annotations

import functools
import re
import statistics
from collections import Counter
from typing import Any

from cardlab.lab.claims import INVARIANT, claim, untestable, verdict
from cardlab.lab.claims.common import length_verdict, mean_ci, style_matchup
from cardlab.lab.context import LabContext
from cardlab.lab.simulate import Observer
from cardlab.lab.stats import wilson
from cardlab.lab.verdicts import by_interval, part

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
    kind=INVARIANT,
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
    kind=INVARIANT,
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


SMALL = 3
"""A "small" matching card: numbers 1-3 of the 1-8 Capital cards."""


def _continue(state: Any, seed: int) -> tuple[int | None | str, list[int]]:
    """Play `state` to the end with greedy bots (the same bots and view seeds in both
    branches of an experiment): who won the Deal in play (None: Dumped) and the game."""
    import random

    from cardlab.agents import make_agent
    from cardlab.agents.play import agent_view

    bots = [make_agent("greedy", seed=seed + i) for i in range(state.game.num_players)]
    rng = random.Random(f"denial-views-{seed}")
    obs = state.public_observation()
    closed, won = obs["deals_closed"], [len(w) for w in obs["deals_won"]]
    deal: int | None | str = "open"
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[seat].step(agent_view(state, seat, rng))
        state.apply_action(action)
        if deal == "open":
            obs = state.public_observation()
            if obs["deals_closed"] > closed:
                gained = [p for p, w in enumerate(obs["deals_won"]) if len(w) > won[p]]
                deal = gained[0] if gained else None
    return deal, list(state.winners())


class DenialObserver(Observer):
    """At the game's first small matching pitch: replay the rest of the game twice from
    that moment (with the pitch, and with a pass instead), with the same greedy bots,
    and compare who wins the Deal and the game."""

    def __init__(self) -> None:
        super().__init__()
        self.before: Any = None
        self.seat = -1
        self.pitch = -1
        self.label = ""
        self.passed = -1

    def see(self, state: Any, seat: int, action: int) -> None:
        if self.before is not None or state.decision_kind() != "pitch":
            return
        m = PITCH.match(state.action_to_string(action))
        if not m or m.group(3) != "match" or int(m.group(2)) > SMALL:
            return
        passes = [a for a in state.legal_actions() if state.action_to_string(a).startswith("pass")]
        if passes:
            self.before, self.seat, self.pitch = state.clone(), seat, action
            self.label = state.action_to_string(action)
            self.passed = passes[0]

    def finish(self, result: Any) -> dict[str, Any]:
        if self.before is None:
            return {"event": False}
        seed = len(self.before.history())
        pitched, passed = self.before.clone(), self.before.clone()
        pitched.apply_action(self.pitch)
        passed.apply_action(self.passed)
        deal_p, game_p = _continue(pitched, seed)
        deal_x, game_x = _continue(passed, seed)
        return {
            "event": True,
            "seat": self.seat,
            "pitch": self.label,
            "deal_winner_if_pitched": deal_p,
            "deal_winner_if_passed": deal_x,
            "game_winners_if_pitched": game_p,
            "game_winners_if_passed": game_x,
        }


@claim(
    "runway.small_match_denies",
    "You do not need to want to win - a small matching card still denies, since a match beats "
    "Cash on a tie.",
)
def small_match_denies(ctx: LabContext) -> Any:
    """An experiment, not a count: at the first small matching pitch (1-3) of each probe game,
    the rest of the game is played twice from that moment with the same greedy bots, once
    with the pitch and once with a pass instead. A denial is a Deal a rival would have won
    had the seat passed, and did not win because of the small pitch. (Re-checking the tie
    rule would only test the engine: the R6 tests do that.)"""
    run = ctx.run(observer=DenialObserver, games=ctx.probe_games)
    events = [g for g in run.records if g.get("event")]
    if len(events) < 20:
        return untestable(
            f"only {len(events)} small matching pitches in {len(run.records)} probe games "
            "(20 are needed)",
            games=len(run.records),
        )
    denied = [
        g
        for g in events
        if g["deal_winner_if_passed"] not in (None, g["seat"])
        and g["deal_winner_if_pitched"] != g["deal_winner_if_passed"]
    ]
    game_changed = [
        g for g in denied if g["game_winners_if_pitched"] != g["game_winners_if_passed"]
    ]
    pitcher_gained = [
        g
        for g in game_changed
        if g["seat"] in g["game_winners_if_pitched"]
        and g["seat"] not in g["game_winners_if_passed"]
    ]
    lo, hi = wilson(len(denied), len(events))
    glo, ghi = wilson(len(game_changed), len(events))
    return verdict(
        lo > DENIAL_FLOOR,
        headline=f"{len(denied) / len(events):.0%} of small matching pitches deny a rival the "
        f"Deal (95% {lo:.0%}-{hi:.0%}); {len(game_changed) / len(events):.0%} change who wins "
        f"the game [{run.spec.players}p, {len(events)} pitches in {len(run.records)} games]",
        games=len(run.records),
        agents=list(run.spec.agents),
        experiments=len(events),
        deals_denied=len(denied),
        denial_share=round(len(denied) / len(events), 4),
        denial_share_ci95=[round(lo, 4), round(hi, 4)],
        game_winner_changed=len(game_changed),
        game_winner_changed_share_ci95=[round(glo, 4), round(ghi, 4)],
        denials_that_won_the_game_for_the_pitcher=len(pitcher_gained),
        denial_seeds=[g["seed"] for g in denied[:5]],
        method="same state, same greedy bots for the rest of the game: the small match "
        "pitched vs a pass in its place",
        rule=f"holds when the 95% interval of the share of small matching pitches that denied "
        f"a rival the Deal lies wholly above {DENIAL_FLOOR:.0%}: denying is a real use of a "
        "small card, not a curiosity",
    )


DENIAL_FLOOR = 0.05


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


def _replay_command(run: Any, seed: int) -> str:
    """`cardlab replay` for game `seed` of a probe run: its seats, run seed, options,
    variant and card file (`lab.replay.settings_command`), so it plays that game again."""
    from cardlab.lab.replay import settings_command

    return settings_command(run.spec, seed)


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
            # the game the catch-up seat narrowed most, in each arm (the same deal)
            "replay": {arm: _replay_command(r, ranked[0][1]) for arm, r in runs.items()}
            if ranked
            else {},
        }
    agents = list(ctx.spec().agents)
    first = by_players["2"]
    # the seed the evidence cites first (2 players, most narrowed): its game in each arm
    cited = (
        {
            "seed": first["seeds_most_narrowed_by_catch_up"][0],
            "commands": list(first["replay"].values()),
        }
        if first["replay"]
        else None
    )
    groups: dict[str, list[str]] = {}
    for count, reading in narrows.items():
        groups.setdefault(reading, []).append(f"{count}p")
    headline = (
        "The catch-up seat, against a plain rotation on the same seeds: "
        + "; ".join(
            f"{reading} the final score spread at {', '.join(ns)}" for reading, ns in groups.items()
        )
        + " ["
        + ", ".join(f"{n}p {b['paired_games']}" for n, b in by_players.items())
        + " paired games]"
    )
    return verdict(
        all(v == "narrows" for v in narrows.values()),
        headline=headline,
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
        cited_replay=cited,
    )


VIABLE_FLOOR = 0.75
"""A style is viable unless it wins clearly less than 3/4 of its fair share: below that a
player who picks it is measurably punished for a style the rulebook presents as a choice.
(At 3 players: under 25% against a fair 33%.)"""


@claim(
    "runway.richer_vs_specialist",
    "Cam was richer. Ana specialized. (Both styles - the Cash-rich generalist and the "
    "one-Sector specialist - are meant to be viable.)",
)
def richer_vs_specialist(ctx: LabContext) -> Any:
    """The generalist and specialist personas in rotated seats, same deals."""
    styles = ["generalist", "specialist"]
    table = style_matchup(ctx, styles, 2 * ctx.probe_games)
    fair = 1 / ctx.players
    floor = VIABLE_FLOOR * fair
    games = sum(v["seats"] for v in table.values()) // ctx.players
    judged_parts = {
        s: part(v["win_rate"], v["wilson95"], (floor, None), games) for s, v in table.items()
    }
    v = by_interval(
        judged_parts,
        players=ctx.players,
        games=games,
        styles=table,
        fair_share=round(fair, 4),
        threshold=round(floor, 4),
        rule=f"a style is viable when its 95% interval lies wholly at or above 75% of the fair "
        f"share ({floor:.1%}), not viable when it lies wholly below, else needs data",
        why_this_threshold="a style winning clearly less than three quarters of its fair share "
        "punishes the player who picks it; the rulebook presents both as choices",
    )
    v.evidence["headline"] = (
        ", ".join(
            f"{s} wins {t['win_rate']:.0%} of its seats (95% {t['wilson95'][0]:.0%}-"
            f"{t['wilson95'][1]:.0%})"
            for s, t in table.items()
        )
        + f" against a fair {fair:.0%} (viable from {floor:.0%}), {ctx.players}p, {games} games: "
        + v.evidence["decides_it"]
    )
    return v


@claim("runway.length_30", "2-4 players · 30 min")
def length_30(ctx: LabContext) -> Any:
    """The estimated range (RUNWAY's decision kinds pitch and trade, each Deal's close as
    the round overhead) at 2, 3 and 4 players against 30 minutes +-25%."""
    v = length_verdict(ctx, [2, 3, 4], ctx.probe_games)
    v.evidence["assumption"] = (
        "a table of players who know the rules; a Deal's close (compare pitches, pay the "
        "reward and Rides, draw up, Foothold, Hype, flip, reseat) is the round overhead; set-up "
        "and final scoring are not priced"
    )
    return v


@claim(
    "runway.two_players_same",
    "2 players: Nothing changes - deck, Bench, Footholds, and scoring are the same. Turn order "
    "just alternates.",
    kind=INVARIANT,
)
def two_players_same(ctx: LabContext) -> Any:
    """Under R10 (revised: the 2-player paragraph wins) the engine alternates the last seat at
    2 players by construction: an invariant, checked on every pair of consecutive Deals. The
    first reading (option two_player_last_seat=catch_up) is measured beside it: the trailing
    player keeps the last seat, so the order does not alternate."""
    run = ctx.run(observer=DealObserver, players=2, games=ctx.probe_games)
    old = ctx.run(
        observer=DealObserver,
        players=2,
        games=ctx.probe_games,
        options={"two_player_last_seat": "catch_up"},
    )
    order = _order_changes(run.records)
    old_order = _order_changes(old.records)
    return verdict(
        order["deal_to_deal_last_seat_repeats"] == 0,
        question="with 2 players under these rules, does the turn order just alternate?",
        rule="holds when no Deal's last seat equals the previous Deal's (every pair of "
        "consecutive Deals in every probe game)",
        options=run.spec.options_dict,
        games=len(run.records),
        **order,
        with_two_player_last_seat_catch_up={
            "options": old.spec.options_dict,
            "games": len(old.records),
            **old_order,
            "claim_holds": old_order["deal_to_deal_last_seat_repeats"] == 0,
            "why": "the catch-up seat at 2 players: the trailing player pitches last every "
            "Deal while behind (catch_up_repeats counts those)",
        },
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


# --- lab hooks (read by cardlab.lab.simulate and the report) ---

PERSONAS = ("generalist", "specialist")
"""The report's default seats mix these with greedy."""


def public_counts(state: Any) -> dict[str, float]:
    """Hype is a public count outside the cards: a move that changes it did something."""
    return {"hype": float(state.hype)}


def round_count(state: Any) -> int:
    """Lab hook: `info()["rounds"]` read straight off the state (the lab asks once a turn)."""
    return int(state.deals_closed)


def resources(state: Any) -> dict[str, float]:
    """Hype per decision (the resource curve), and the Reputation spread."""
    rep = [float(x) for x in state.scores()]
    return {"hype": float(state.hype), "reputation_spread": max(rep) - min(rep)}


def action_kind(state: Any, label: str) -> str:
    """pitch:match / pitch:cash / pitch:ride, pass, trade, discard, skip."""
    m = PITCH.match(label)
    if m:
        return f"pitch:{m.group(3)}"
    return label.split(" ", 1)[0].lower()


ABLATION_NOTE = (
    "RUNWAY's Capital cards are dealt, not acquired, so a Capital experiment names its "
    "holders by the deal: the seats dealt the card (or, for a whole kind, two or more of "
    "its cards) at set-up, read from each game's seed. The deal does not depend on the "
    "card numbers, so the same seats hold them with and without the change and the rates "
    "compare. Each Capital change keeps the 32 cards and their ids: only what a card "
    "prints changes (the card file's `numbers`)."
)

CAPITAL_BLANK = 0
"""What a kind's top card prints in its experiment: 0 loses every contest (it still
wins a Deal nobody else competes for, and a Network 0 still Rides)."""
KIND_RICH = 2
"""A "rich" seat for a whole-kind experiment: dealt at least this many of the kind
(about half the seats for any kind: 6 cards from 32, 8 of each kind)."""
SHIFTED_KINDS = ("cash",)
"""Kinds whose every card is also shifted one lower: Cash, the kind that competes on
every Deal (the other kinds' numbers only meet Cash and their own Sector)."""


def ablations(data: dict[str, Any]) -> list[Any]:
    """Each Deal's score moved one step toward the middle of 2-5 (5 -> 4, 2 -> 3); per
    Capital kind, its top card printing 0 (the card's worth to the seat dealt it); and
    Cash as a whole one lower (0-7: what the generalist's Cash is worth)."""
    return [*_deal_ablations(data), *_capital_ablations(data)]


def _deal_ablations(data: dict[str, Any]) -> list[Any]:
    from cardlab.core.variants import CardChange
    from cardlab.lab.impact import Ablation

    out = []
    for deal in data.get("deals", []):
        old = int(deal["score"])
        new = old - 1 if old > 3 else old + 1
        out.append(
            Ablation(
                label=deal["name"],
                change=f"{deal['name']} scores {new} instead of {old}",
                holders=frozenset({deal["name"]}),
                changes=(CardChange(f"deals[{deal['name']}].score", new),),
            )
        )
    return out


def _capital_ablations(data: dict[str, Any]) -> list[Any]:
    from cardlab.core.variants import CardChange
    from cardlab.games.runway.cards import PRINTED_NUMBERS, ROLES
    from cardlab.lab.impact import Ablation

    out = []
    shifted = []
    for kind in data.get("capital_kinds", []):
        name, role = kind["name"], kind["role"]
        numbers = [int(x) for x in kind.get("numbers", PRINTED_NUMBERS)]
        first = ROLES.index(role) * 8  # the kind's card numbers (actions.py)
        path = f"capital_kinds[{name}].numbers"
        top = max(range(8), key=lambda i: numbers[i])
        if CAPITAL_BLANK not in numbers:
            blank = numbers.copy()
            blank[top] = CAPITAL_BLANK
            out.append(
                Ablation(
                    label=f"{name} {numbers[top]}",
                    change=f"{name} {numbers[top]} prints {CAPITAL_BLANK} instead (holders: "
                    f"the seats dealt {name} {numbers[top]} at set-up)",
                    holders=frozenset(),
                    changes=(CardChange(path, blank),),
                    holder_seats=DealtAtSetUp(frozenset({first + top}), 1),
                    holders_are=f"seats dealt {name} {numbers[top]} at set-up",
                )
            )
        if role in SHIFTED_KINDS and min(numbers) > 0:
            lower = [x - 1 for x in numbers]
            shifted.append(
                Ablation(
                    label=f"every {name} card",
                    change=f"every {name} card prints one less ({min(lower)}-{max(lower)}; "
                    f"holders: the seats dealt {KIND_RICH}+ {name} cards at set-up)",
                    holders=frozenset(),
                    changes=(CardChange(path, lower),),
                    holder_seats=DealtAtSetUp(frozenset(range(first, first + 8)), KIND_RICH),
                    holders_are=f"seats dealt {KIND_RICH} or more {name} cards at set-up",
                )
            )
    return out + shifted


class DealtAtSetUp:
    """The seats of a game dealt at least `at_least` of `cards` (Capital card numbers) in
    their opening hand, replayed from the game's seed. Dealing draws from the seed
    before any card number is read, so the changed card file deals the same hands."""

    def __init__(self, cards: frozenset[int], at_least: int) -> None:
        self.cards, self.at_least = cards, at_least

    def __call__(self, record: Any) -> list[int]:
        hands = opening_hands(int(record.players), int(record.seed))
        return [p for p, hand in enumerate(hands) if len(self.cards & hand) >= self.at_least]


@functools.lru_cache(maxsize=8192)
def opening_hands(players: int, seed: int) -> tuple[frozenset[int], ...]:
    """Each seat's opening hand (Capital card numbers) in the game dealt from `seed`."""
    from cardlab.games import load_game

    state: Any = load_game("runway", players=players).new_initial_state(seed)
    return tuple(frozenset(hand) for hand in state.hands)
