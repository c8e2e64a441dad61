"""UPTIME's rulebook claims (seed 000), each checked by simulation, and UPTIME's lab
hooks: the report's default personas, the public counts a turn can change, the
resource curves (Supply size, Build Row cards the mover can claim) and card ablations."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardlab.lab.claims import INVARIANT, claim, untestable, verdict
from cardlab.lab.claims.common import length_verdict, shutout_verdict
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import MAX_SEEDS, finished
from cardlab.lab.seeds import game_seed
from cardlab.lab.simulate import Observer, load_checked
from cardlab.lab.stats import wilson
from cardlab.lab.verdicts import by_interval, part

PASS_ONLY_GAMES = 20
PASS_ONLY_CAP = 50_000
"""Decisions after which a pass-only game is declared endless by the lab."""
COMPUTERS = ("Workstation", "Blade", "Tower", "Mainframe")
STALLED = ("stalled", "lab_decision_cap")
"""End reasons meaning the game did not end by a rule: the engine's hard cap, the lab's."""


class TurnObserver(Observer):
    """At each main-turn decision: how many legal actions, and were Draw and Pass among them."""

    def __init__(self) -> None:
        super().__init__()
        self.turns = self.no_pass = self.empty = self.only_pass_draw = 0

    def see(self, state: Any, seat: int, action: int) -> None:
        if state.decision_kind() != "turn":
            return
        labels = [state.action_to_string(a) for a in state.legal_actions()]
        self.turns += 1
        self.empty += not labels
        self.no_pass += not any(lbl.startswith("Pass") for lbl in labels)
        self.only_pass_draw += all(lbl.startswith(("Pass", "Draw")) for lbl in labels)

    def finish(self, result: Any) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "no_pass": self.no_pass,
            "empty": self.empty,
            "only_pass_draw": self.only_pass_draw,
        }


@claim(
    "uptime.no_dead_turn",
    "Pass - draw the top 1 card of the Supply Deck. Always legal, even with an empty hand or an "
    "empty Build Row - this is the safety valve that guarantees no turn is ever a dead end.",
    kind=INVARIANT,
)
def no_dead_turn(ctx: LabContext) -> Any:
    """Pass is legal at every turn by construction (an invariant). What a player feels is
    different: the evidence shows how many turns did nothing at all (no card moved, no
    score changed), from the report's main run."""
    turns = no_pass = empty = only = 0
    bad: list[int] = []
    for agents in (["random"], list(ctx.agents)):
        run = ctx.run(observer=TurnObserver, agents=agents, games=ctx.probe_games)
        for g in run.records:
            turns += g["turns"]
            no_pass += g["no_pass"]
            empty += g["empty"]
            only += g["only_pass_draw"]
            if (g["no_pass"] or g["empty"]) and len(bad) < MAX_SEEDS:
                bad.append(g["seed"])
    main = ctx.run()
    turn_decisions = sum(r.kind_turns.get("turn", 0) for r in main.records)
    turn_noops = sum(r.kind_noop.get("turn", 0) for r in main.records)
    return verdict(
        no_pass == 0 and empty == 0,
        turns_checked=turns,
        turns_without_legal_actions=empty,
        turns_where_pass_was_not_legal=no_pass,
        counter_example_seeds=bad,
        turns_where_only_draw_or_pass_was_legal=only,
        main_run_turns_that_did_nothing=turn_noops,
        main_run_noop_turn_share=round(turn_noops / max(1, turn_decisions), 4),
        about_noop="a turn that moved no card and changed no score (e.g. Draw or Pass on an "
        "empty Supply): legal, but a dead end in all but name; see Turn quality",
    )


def pass_only_game(
    ctx: LabContext, players: int, index: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Every seat always passes (or takes the first option of a sub-decision), under
    the report's rules: its options, cards and variant (a variant's own end, e.g. the
    recommended rules' Build Row conveyor, is what the probe must find)."""
    game = load_checked(ctx.game, players, {**ctx.options, **options}, ctx.cards, ctx.variant)
    seed = game_seed(ctx.seed, index)
    state = game.new_initial_state(seed)
    decisions = 0
    while not state.is_terminal() and decisions < PASS_ONLY_CAP:
        legal = state.legal_actions()
        passes = [a for a in legal if state.action_to_string(a).startswith("Pass")]
        state.apply_action(passes[0] if passes else legal[0])
        decisions += 1
    reason = state.info().get("end_reason") if state.is_terminal() else "lab_decision_cap"
    return {
        "seed": seed,
        "players": players,
        "end_reason": reason,
        "decisions": decisions,
        "rounds": state.info().get("rounds"),
    }


class RowObserver(Observer):
    """When did the Build Row last change? A game that stalls with the Row unchanged
    for its last rounds froze: only a claim moves the Row, and nobody could claim."""

    def __init__(self) -> None:
        super().__init__()
        self.row: list[str] | None = None
        self.changed_round = 0

    def see(self, state: Any, seat: int, action: int) -> None:
        row = state.zones()["public:build_row"]
        if row != self.row:
            self.row = list(row)
            self.changed_round = int(state.info().get("rounds") or 0)

    def finish(self, result: Any) -> dict[str, Any]:
        rounds = int(result.info.get("rounds") or 0)
        return {
            "end_reason": result.info.get("end_reason"),
            "rounds": rounds,
            "players": len(result.returns),
            "rounds_row_frozen_at_end": rounds - self.changed_round,
        }


FROZEN_ROUNDS = 3
"""A stalled game whose Build Row did not change in its last 3+ rounds froze."""


def _ending(ctx: LabContext, stall_end: bool) -> Any:
    """Do games end by a rule? Report agents at 2-4 players, and pass-only players."""
    option = {"stall_end": stall_end}
    cls = ctx.game_class
    counts = range(cls.min_players, cls.max_players + 1)
    played: list[dict[str, Any]] = []
    for n in counts:
        run = ctx.run(observer=RowObserver, players=n, games=ctx.probe_games, options=option)
        played += run.records
    endless = [g for g in played if g["end_reason"] in STALLED]
    frozen = [g for g in endless if g["rounds_row_frozen_at_end"] >= FROZEN_ROUNDS]
    by_players = {
        str(n): {
            "games": sum(1 for g in played if g["players"] == n),
            "did_not_end_by_a_rule": sum(1 for g in endless if g["players"] == n),
            "build_row_frozen": sum(1 for g in frozen if g["players"] == n),
        }
        for n in counts
    }
    passers = [
        pass_only_game(ctx, n, i, option)
        for n in counts
        for i in range(min(PASS_ONLY_GAMES, ctx.probe_games))
    ]
    pass_endless = [g for g in passers if g["end_reason"] in STALLED]
    v = verdict(
        not endless and not pass_endless,
        stall_end=stall_end,
        agents=list(ctx.agents),
        games=len(played),
        end_reasons=dict(Counter(g["end_reason"] for g in played)),
        games_that_did_not_end_by_a_rule=len(endless),
        build_row_frozen=len(frozen),
        by_players=by_players,
        frozen_row_seeds=[g["seed"] for g in frozen[:MAX_SEEDS]],
        stalled_seeds=[g["seed"] for g in endless[:MAX_SEEDS]],
        pass_only_games=len(passers),
        pass_only_games_that_did_not_end=len(pass_endless),
        rule="fails when any game stops only by the engine's hard round cap ('stalled') or the "
        f"lab's cap; the Build Row is frozen when it did not change in the last "
        f"{FROZEN_ROUNDS}+ rounds of such a game",
    )
    if ctx.rules(option).options == ctx.rules().options:
        # one fact, one number: under the report's own rules the end reasons are read from
        # the runs the report shows (its main run and player-count runs), already played
        v.evidence["report_runs_end_reasons"] = _report_runs_end_reasons(ctx, counts)
    return v


def _report_runs_end_reasons(ctx: LabContext, counts: Any) -> dict[str, Any]:
    """End reasons (count and share) per player count in the report's runs, each with its
    games: the numbers the report's headline and its ends section give."""
    from cardlab.lab.metrics import ends

    out = {}
    for n in counts:
        e = ends(
            ctx.run(players=n, games=ctx.report_games(n)).records
        )  # the report's own computation
        out[f"{n}p"] = {"games": e["games"], "end_reasons": e["reasons"], "shares": e["shares"]}
    return out


@claim(
    "uptime.always_ends",
    "Both decks are finite, so the game always ends.",
)
def always_ends(ctx: LabContext) -> Any:
    """As written (no stall rule: option stall_end=false), with the report's agents and with
    players who only Pass; then under ruling U13 (the stall end). U13 is our ruling, not
    the rulebook's: the verdict is the rulebook's, with U13's beside it."""
    as_written = _ending(ctx, stall_end=False)
    ruled = _ending(ctx, stall_end=True)
    ev = as_written.evidence
    if ev["games_that_did_not_end_by_a_rule"]:
        # every figure names its player count and games (one fact, one number)
        per = "; ".join(
            f"{n}p {b['did_not_end_by_a_rule'] / max(1, b['games']):.0%} of {b['games']} games "
            f"(Row frozen in {b['build_row_frozen'] / max(1, b['games']):.0%})"
            for n, b in ev["by_players"].items()
        )
        ev["headline"] = (
            f"As written UPTIME does not always end ({', '.join(ctx.agents)}): {per} never end "
            "by a rule (only a claim moves the Build Row and nobody qualifies); they end only "
            "through our ruling U13"
        )
        shown = ruled.evidence.get("report_runs_end_reasons")
        if shown:
            ev["headline"] += (
                "; under U13 the report's runs end by the stall ruling in "
                + ", ".join(
                    f"{n} {b['shares'].get('stall', 0.0):.0%} of {b['games']} games"
                    for n, b in shown.items()
                )
            )
    return as_written.resting_on(
        ["U13"],
        ruled,
        "fails as written: games stall with the Build Row frozen (seeds in the evidence); "
        "holds only with ruling U13, which ends a game after a round with an empty Supply "
        "Deck and no claim",
    )


@claim(
    "uptime.one_winner",
    "Tie-break, in order: most Computers built, then most Contracts won, then fewest Draw/Pass "
    "actions taken all game, then the tied player earliest in turn order. This always produces "
    "exactly one winner.",
    kind=INVARIANT,
)
def one_winner(ctx: LabContext) -> Any:
    """One winner is guaranteed (the last level is turn order): an invariant. What matters
    to a designer is how often each level decides, shown with intervals: a game decided
    by turn order is decided by the seat, not by play."""
    checked = 0
    levels: Counter[str] = Counter()
    shared: list[int] = []
    for agents in (list(ctx.agents), ["random"]):
        for n in (2, 3, 4):
            run = ctx.run(players=n, agents=agents, games=ctx.probe_games)
            for r in finished(run.records):
                checked += 1
                levels[r.tiebreak or "not needed"] += 1
                if len(r.winners) != 1 and len(shared) < MAX_SEEDS:
                    shared.append(r.seed)
    share = {}
    for level, k in levels.most_common():
        lo, hi = wilson(k, checked)
        share[level] = {
            "games": k,
            "share": round(k / checked, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    return verdict(
        not shared,
        games=checked,
        tiebreak_levels=share,
        games_with_several_winners=shared,
    )


@claim(
    "uptime.seats_score",
    "Every seat plays for points: the share of seats that end with 0 points lies within the "
    "band games people love read (the lab's target of a mean score of 8 a seat, judged on the "
    "distribution: a mean hides a table where half the seats score nothing)",
)
def seats_score(ctx: LabContext) -> Any:
    return shutout_verdict(ctx, [2, 3, 4])


@claim("uptime.length_25_30", "3-4 players · 25-30 min")
def length_25_30(ctx: LabContext) -> Any:
    return length_verdict(ctx, [3, 4], ctx.probe_games)


@claim(
    "uptime.two_player_length",
    "2-player variant: ... also discard the top Build Deck card face-up unclaimed, so the deck "
    "still thins fast enough for a ~25-minute game.",
)
def two_player_length(ctx: LabContext) -> Any:
    return length_verdict(ctx, [2], ctx.probe_games)


PERSONAS = ("converter", "auctioneer", "greedy")
"""The bots of the Computer probes: the planned converter (builds a Computer whenever the rules
allow), the auctioneer (hoards materials for Contracts) and greedy, cycled over the seats."""
DESIGNER_OPTIONS = ("row_sweep",)
REMEDIES: tuple[dict[str, bool], ...] = ({"row_sweep": True},)
"""Designer options (not in the rulebook, docs/rules/uptime.md) the Computer claims are also
evaluated under, as evidence labelled with the option; the verdict is about the report's rules."""
MIN_SEATS = 20
BALANCE_TOLERANCE = 0.10
"""A Computer is balanced when its acquirers win within 10 points of all acquirers."""


def _rules_label(ctx: LabContext, extra: dict[str, Any] | None = None) -> str:
    """Which rule set a verdict refers to: the rulings, or the designer options switched on."""
    game = load_checked(
        ctx.game, ctx.players, {**ctx.options, **(extra or {})}, ctx.cards, ctx.variant
    )
    on = [f"{k}=true" for k in DESIGNER_OPTIONS if game.options.get(k)]
    options = " + ".join(on) + " (not in the rulebook)"
    if game.variant is not None:
        shown = f"variant {game.variant.title!r}"
        return f"{shown}, with designer option {options}" if on else shown
    return f"under designer option {options}" if on else "rules as ruled (U1-U17)"


def _records(ctx: LabContext, options: dict[str, Any] | None = None) -> list[Any]:
    """The report's main run (rules as the report sets them) plus a persona probe, or the
    persona probe alone under extra designer `options`."""
    probe = ctx.run(agents=list(PERSONAS), games=ctx.probe_games, options=options or {})
    if options:
        return list(probe.records)
    return list(ctx.run().records) + list(probe.records)


def _computer_counts(records: list[Any]) -> dict[str, Any]:
    games = finished(records)
    built = sum(1 for r in games for cards in r.acquired for c in cards if c in COMPUTERS)
    seats = sum(1 for r in games for cards in r.acquired if any(c in COMPUTERS for c in cards))
    ends = Counter(r.end_reason for r in games)
    return {
        "games": len(games),
        "computers_built": built,
        "computers_per_game": round(built / len(games), 3) if games else 0.0,
        "seats_with_a_computer": seats,
        "end_reasons": dict(ends),
        "mean_turns": round(sum(r.turns for r in games) / len(games), 1) if games else 0.0,
    }


def _scope(records: list[Any], counts: dict[str, Any]) -> str:
    """What a figure was measured on (every figure names its player count and games)."""
    return f"{counts['games']} games at {records[0].players}p" if records else "no games"


def _seat_groups(records: list[Any]) -> tuple[list[float], list[float], list[int]]:
    """Win shares of seats that built a Computer, and of seats that hoarded
    (3+ Components acquired, no Computer)."""
    conv: list[float] = []
    hoard: list[float] = []
    seeds: list[int] = []
    for r in finished(records):
        for seat, cards in enumerate(r.acquired):
            share = 1 / len(r.winners) if seat in r.winners else 0.0
            if any(c in COMPUTERS for c in cards):
                conv.append(share)
                if len(seeds) < MAX_SEEDS:
                    seeds.append(r.seed)
            elif sum(1 for c in cards if c not in COMPUTERS) >= 3:
                hoard.append(share)
    return conv, hoard, seeds


def _converting(records: list[Any], rules: str) -> Any:
    conv, hoard, seeds = _seat_groups(records)
    counts = _computer_counts(records)
    if len(conv) < MIN_SEATS or len(hoard) < MIN_SEATS:
        return untestable(
            f"{rules}: {counts['computers_built']} Computers built in {counts['games']} games "
            f"({len(conv)} converting seats, {len(hoard)} hoarding seats; {MIN_SEATS} of each "
            "are needed to compare)",
            rules=rules,
            converting_seats=len(conv),
            hoarding_seats=len(hoard),
            **counts,
        )
    c_lo, c_hi = wilson(sum(conv), len(conv))
    h_lo, h_hi = wilson(sum(hoard), len(hoard))
    return verdict(
        c_lo > h_hi,
        headline=f"Seats that built a Computer win {sum(conv) / len(conv):.0%} (95% "
        f"{c_lo:.0%}-{c_hi:.0%}); seats that hoarded 3+ Components and built none win "
        f"{sum(hoard) / len(hoard):.0%} ({h_lo:.0%}-{h_hi:.0%}) [{_scope(records, counts)}]",
        rules=rules,
        converting_seats=len(conv),
        converting_win_rate=round(sum(conv) / len(conv), 4),
        converting_wilson95=[round(c_lo, 4), round(c_hi, 4)],
        hoarding_seats=len(hoard),
        hoarding_win_rate=round(sum(hoard) / len(hoard), 4),
        hoarding_wilson95=[round(h_lo, 4), round(h_hi, 4)],
        converting_seeds=seeds,
        **counts,
        rule="holds when converters' 95% interval lies wholly above hoarders'",
    )


def _with_remedies(ctx: LabContext, check: Any, main: Any, note: str) -> Any:
    """`main` (the verdict under the report's rules) plus the same check under each designer
    remedy, as labelled evidence: the designer sees the numbers, the verdict keeps its rules."""
    extra: dict[str, Any] = {}
    seen = {_rules_label(ctx)}
    for remedy in REMEDIES:
        rules = _rules_label(ctx, remedy)
        if rules in seen:
            continue  # the report (or an earlier entry) already plays these rules
        seen.add(rules)
        v = check(_records(ctx, remedy), rules)
        extra["+".join(f"{k}=true" for k in remedy)] = {"verdict": v.verdict, **v.evidence}
    main.evidence["designer_options"] = extra
    main.evidence["designer_options_note"] = note
    main.evidence["probe_agents"] = list(PERSONAS)
    return main


@claim(
    "uptime.converting_beats_hoarding",
    "A Computer (5 points) is worth more than 3 loose Components (0 points): the game rewards "
    "converting, not hoarding.",
)
def converting_beats_hoarding(ctx: LabContext) -> Any:
    main = _converting(_records(ctx), _rules_label(ctx))
    return _with_remedies(
        ctx,
        _converting,
        main,
        "the verdict above is for the report's rules; these are the same check under designer "
        f"options (not in the rulebook), {ctx.probe_games} games each with the probe agents",
    )


def _computers_table(records: list[Any], rules: str) -> Any:
    stats: dict[str, list[float]] = {c: [] for c in COMPUTERS}
    for r in finished(records):
        for seat, cards in enumerate(r.acquired):
            for c in set(cards) & set(COMPUTERS):
                stats[c].append(1 / len(r.winners) if seat in r.winners else 0.0)
    counts = _computer_counts(records)
    built = {c: len(v) for c, v in stats.items()}
    if min(built.values()) < MIN_SEATS:
        return untestable(
            f"{rules}: {counts['computers_built']} Computers built in {counts['games']} games "
            f"(per Computer: {', '.join(f'{k} {v}' for k, v in built.items())}); "
            f"each must be built by {MIN_SEATS} seats to compare",
            rules=rules,
            seats_built=built,
            **counts,
        )
    table: dict[str, dict[str, Any]] = {}
    for c, shares in stats.items():
        lo, hi = wilson(sum(shares), len(shares))
        table[c] = {
            "seats": len(shares),
            "win_rate": round(sum(shares) / len(shares), 4),
            "wilson95": [round(lo, 4), round(hi, 4)],
        }
    # balanced: each Computer's acquirers win within BALANCE_TOLERANCE of all acquirers
    pooled = sum(sum(v) for v in stats.values()) / max(1, sum(len(v) for v in stats.values()))
    target = (pooled - BALANCE_TOLERANCE, pooled + BALANCE_TOLERANCE)
    judged_parts = {
        c: part(sum(v) / len(v), wilson(sum(v), len(v)), target, counts["games"])
        for c, v in stats.items()
    }
    v = by_interval(
        judged_parts,
        rules=rules,
        computers=table,
        pooled_win_rate=round(pooled, 4),
        **counts,
        rule=f"balanced when every Computer's acquirers' 95% interval lies within "
        f"{BALANCE_TOLERANCE:.0%} points of all Computer acquirers' win rate ({pooled:.1%}); "
        "unbalanced when one lies wholly outside; else needs data",
    )
    v.evidence["headline"] = (
        f"{rules}: "
        + ", ".join(
            f"{c} {t['win_rate']:.0%} [{t['wilson95'][0]:.0%}, {t['wilson95'][1]:.0%}] "
            f"({t['seats']} seats)"
            for c, t in table.items()
        )
        + f" against {target[0]:.0%}-{target[1]:.0%} [{_scope(records, counts)}]: "
        + v.evidence["decides_it"]
    )
    return v


@claim(
    "uptime.computers_differ",
    "The 4 Computers are not identical: Workstation, Blade, Tower, Mainframe (are they balanced?)",
)
def computers_differ(ctx: LabContext) -> Any:
    main = _computers_table(_records(ctx), _rules_label(ctx))
    return _with_remedies(
        ctx,
        _computers_table,
        main,
        "the verdict above is for the report's rules; these are the same check under designer "
        f"options (not in the rulebook), {ctx.probe_games} games each with the probe agents",
    )


# --- lab hooks (read by cardlab.lab.simulate and the report) ---


def round_count(state: Any) -> int:
    """Lab hook: `info()["rounds"]` read straight off the state (the lab asks once a turn)."""
    return int(state.round)


def resources(state: Any) -> dict[str, float]:
    """Public resources per decision: cards left in the Supply Deck and, at a main turn,
    how many claims (Requisition, Reserve, auction) the mover could make: the Row freezing
    shows as that count falling to 0 while the Supply runs dry."""
    zones = state.zones()
    out = {"supply_deck": float(len(zones.get("hidden:supply_deck", [])))}
    if state.decision_kind() == "turn":
        labels = [state.action_to_string(a) for a in state.legal_actions()]
        out["claims_open_to_mover"] = float(
            sum(1 for lbl in labels if not lbl.startswith(("Draw", "Pass")))
        )
    return out


def ablations(data: dict[str, Any]) -> list[Any]:
    """Each Computer at 3 points instead of 5, each Contract 2 lower, each Network card 1
    lower. (Component counts are fixed by U1 and costs are pairs of materials, not numbers
    to lower, so Components are not changed: their effect shows through the Computers they
    build.)"""
    from cardlab.core.variants import CardChange
    from cardlab.lab.impact import Ablation

    out = []
    for c in data.get("computer", []):
        new = max(0, int(c["points"]) - 2)
        out.append(
            Ablation(
                c["name"],
                f"{c['name']} scores {new} instead of {c['points']}",
                frozenset({c["name"]}),
                (CardChange(f"computer[{c['name']}].points", new),),
            )
        )
    for c in data.get("contract", []):
        new = max(0, int(c["value"]) - 2)
        out.append(
            Ablation(
                c["name"],
                f"Contract {c['name']} is worth {new} instead of {c['value']}",
                frozenset({c["name"]}),
                (CardChange(f"contract[{c['name']}].value", new),),
            )
        )
    for c in data.get("network", []):
        new = max(0, int(c["points"]) - 1)
        out.append(
            Ablation(
                c["name"],
                f"{c['name']} scores {new} instead of {c['points']}",
                frozenset({c["name"]}),
                (CardChange(f"network[{c['name']}].points", new),),
            )
        )
    return out
