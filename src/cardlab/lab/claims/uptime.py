"""UPTIME's rulebook claims (seed 000), each checked by simulation."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardlab.lab.claims import claim, untestable, verdict
from cardlab.lab.claims.common import length_verdict
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import MAX_SEEDS, finished
from cardlab.lab.seeds import game_seed
from cardlab.lab.simulate import Observer, load_checked
from cardlab.lab.stats import wilson

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
)
def no_dead_turn(ctx: LabContext) -> Any:
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
    return verdict(
        no_pass == 0 and empty == 0,
        turns_checked=turns,
        turns_without_legal_actions=empty,
        turns_where_pass_was_not_legal=no_pass,
        counter_example_seeds=bad,
        turns_where_only_draw_or_pass_was_legal=only,
        dead_turns_per_game_main_run=round(
            sum(r.dead_turns for r in main.records) / len(main.records), 3
        ),
        note="a turn whose only options are Draw/Pass on an empty Supply does nothing; the "
        "rulebook accepts that ('Pass still works and simply does nothing')",
    )


def pass_only_game(ctx: LabContext, players: int, index: int) -> dict[str, Any]:
    """Every seat always passes (or takes the first option of a sub-decision)."""
    game = load_checked(ctx.game, players, ctx.options)
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


@claim(
    "uptime.always_ends",
    "Both decks are finite, so the game always ends. (Probed with players who only ever Pass.)",
)
def always_ends(ctx: LabContext) -> Any:
    cls = ctx.game_class
    games = [
        pass_only_game(ctx, n, i)
        for n in range(cls.min_players, cls.max_players + 1)
        for i in range(min(PASS_ONLY_GAMES, ctx.probe_games))
    ]
    reasons = Counter(g["end_reason"] for g in games)
    endless = [g for g in games if g["end_reason"] in STALLED]
    return verdict(
        not endless,
        stall_end=ctx.options.get("stall_end", "default (true)"),
        pass_only_games=len(games),
        end_reasons=dict(reasons),
        games_that_did_not_end_by_a_rule=len(endless),
        examples=endless[:MAX_SEEDS],
        rule="fails when a game stops only by the engine's hard cap ('stalled') or the lab's "
        f"cap ({PASS_ONLY_CAP} decisions)",
    )


@claim(
    "uptime.one_winner",
    "Tie-break, in order: most Computers built, then most Contracts won, then fewest Draw/Pass "
    "actions taken all game, then the tied player earliest in turn order. This always produces "
    "exactly one winner.",
)
def one_winner(ctx: LabContext) -> Any:
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
    return verdict(
        not shared, games=checked, tiebreak_levels=dict(levels), games_with_several_winners=shared
    )


@claim("uptime.length_25_30", "3-4 players · 25-30 min")
def length_25_30(ctx: LabContext) -> Any:
    ok, evidence = length_verdict(ctx, [3, 4], 25 * 0.75, 30 * 1.25, ctx.probe_games)
    return verdict(ok, **evidence)


@claim(
    "uptime.two_player_length",
    "2-player variant: ... also discard the top Build Deck card face-up unclaimed, so the deck "
    "still thins fast enough for a ~25-minute game.",
)
def two_player_length(ctx: LabContext) -> Any:
    ok, evidence = length_verdict(ctx, [2], 25 * 0.75, 25 * 1.25, ctx.probe_games)
    return verdict(ok, **evidence)


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


@claim(
    "uptime.converting_beats_hoarding",
    "A Computer (5 points) is worth more than 3 loose Components (0 points): the game rewards "
    "converting, not hoarding.",
)
def converting_beats_hoarding(ctx: LabContext) -> Any:
    run = ctx.run()
    conv, hoard, seeds = _seat_groups(run.records)
    if len(conv) < 20 or len(hoard) < 20:
        return untestable(
            "too few converting or hoarding seats in the main run's games to compare "
            "(the agents rarely build Computers)",
            agents=list(run.spec.agents),
            games=len(run.records),
            converting_seats=len(conv),
            hoarding_seats=len(hoard),
        )
    c_lo, c_hi = wilson(sum(conv), len(conv))
    h_lo, h_hi = wilson(sum(hoard), len(hoard))
    return verdict(
        c_lo > h_hi,
        converting_seats=len(conv),
        converting_win_rate=round(sum(conv) / len(conv), 4),
        converting_wilson95=[round(c_lo, 4), round(c_hi, 4)],
        hoarding_seats=len(hoard),
        hoarding_win_rate=round(sum(hoard) / len(hoard), 4),
        hoarding_wilson95=[round(h_lo, 4), round(h_hi, 4)],
        converting_seeds=seeds,
        rule="holds when converters' 95% interval lies wholly above hoarders'",
    )


@claim(
    "uptime.computers_differ",
    "The 4 Computers are not identical: Workstation, Blade, Tower, Mainframe (are they balanced?)",
)
def computers_differ(ctx: LabContext) -> Any:
    run = ctx.run()
    stats: dict[str, list[float]] = {c: [] for c in COMPUTERS}
    for r in finished(run.records):
        for seat, cards in enumerate(r.acquired):
            for c in set(cards) & set(COMPUTERS):
                stats[c].append(1 / len(r.winners) if seat in r.winners else 0.0)
    if min(len(v) for v in stats.values()) < 20:
        return untestable(
            "each Computer must be built by at least 20 seats to compare; the agents rarely "
            "build them",
            agents=list(run.spec.agents),
            games=len(run.records),
            seats_built={c: len(v) for c, v in stats.items()},
        )
    table = {}
    for c, shares in stats.items():
        lo, hi = wilson(sum(shares), len(shares))
        table[c] = {
            "seats": len(shares),
            "win_rate": round(sum(shares) / len(shares), 4),
            "wilson95": [round(lo, 4), round(hi, 4)],
        }
    separated = [
        (a, b)
        for a in COMPUTERS
        for b in COMPUTERS
        if table[a]["wilson95"][0] > table[b]["wilson95"][1]
    ]
    return verdict(
        not separated,
        computers=table,
        clearly_stronger_pairs=separated,
        rule="balanced when no Computer's acquirers' 95% interval lies wholly above another's",
    )
