"""What each seat may know, and the story of the game as a person reads it.

Plain functions over a `RunwayState` (imported for typing only): action labels,
the observation (one builder for a seat's view and the public view, so they
cannot drift), zones and hidden card ids, and, built from an observation alone,
`narrate` and `final_table` (`cardlab.core.narrative`).

Hidden information: another seat's hand is shown only as a count plus the
cards everyone saw it take from the Bench; the draw pile and the Deal deck only
as counts; the seed and the generator never appear. The public log names cards
by their printed names, and only cards everyone saw: a blind draw names the card
given up, never the card drawn.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError
from cardlab.core.moves import Move
from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab.games.runway.actions import (
    BLIND0,
    BLIND_TAKE,
    CARD_IDS,
    DEAL0,
    HYPE_MAX,
    KIND_SHIFT,
    MATCH,
    NUM_CAPITAL,
    NUM_SECTORS,
    OVER,
    PASS,
    PHASE_NAMES,
    PITCH,
    PITCH_ROLE,
    ROLE_NAMES,
    SECTOR0,
    SHOCK_EFFECTS,
    SHOCK_HYPE_DOWN,
    SHOCK_REWARD_MINUS_ONE,
    SKIP,
    SWAP0,
    TAKE0,
)
from cardlab.games.runway.scoring import TIEBREAK_LEVELS, deal_points, hype_bonus

if TYPE_CHECKING:
    from cardlab.games.runway.cards import RunwayCards
    from cardlab.games.runway.state import RunwayState

Observation = dict[str, Any]

ROLE_WORDS = ("match", "Cash, competes", "a Ride: +1 if the Deal is won")
ORDINALS = ("no", "a", "a second", "a third", "a fourth", "a fifth", "a sixth", "a seventh")
LEVEL_WORDS = {"most_sectors_locked": "most Sectors locked", "most_deals_won": "most Deals won"}


# -- seats and card descriptions ---------------------------------------------------------
def seat_of(state: RunwayState, player: Any) -> int:
    """`player` as a seat number; anything else is a clear error."""
    n = state.num_players
    try:
        seat = operator.index(player)
    except TypeError:
        seat = -1
    if isinstance(player, bool) or not 0 <= seat < n:
        raise CardlabError(f"no seat {player!r} in a {n}-player game; seats are 0-{n - 1}")
    return seat


def capital_name(cards: RunwayCards, card: int) -> str:
    """A Capital card's printed name and number, e.g. "Cash 7" (from the card file)."""
    return cards.capital_names[card]


def capital_view(cards: RunwayCards, card: int) -> dict[str, Any]:
    kind = cards.kinds[card >> KIND_SHIFT]
    number = cards.capital_number[card]
    return {
        "id": CARD_IDS[card],
        "name": cards.capital_names[card],
        "kind": kind.name,
        "number": number,
        "symbol": kind.symbol,
        "colour": kind.colour,
        "line_mark": kind.line_mark,
    }


def hype_change(cards: RunwayCards, deal: int, shocks: int, shock_effect: int) -> int:
    """How Hype moves if `deal` closes with a winner: + its cost, or - its cost when a
    Shock is tucked under it and the Shock pulls Hype down (R9)."""
    cost = cards.deal_hype[deal - DEAL0]
    return -cost if shocks and shock_effect == SHOCK_HYPE_DOWN else cost


def deal_view(
    cards: RunwayCards, card: int, shocks: int | None = None, shock_effect: int = SHOCK_HYPE_DOWN
) -> dict[str, Any]:
    i = card - DEAL0
    view = {
        "id": CARD_IDS[card],
        "name": cards.deals[i].name,
        "sector": cards.sectors[cards.deal_sector[i]],
        "score": cards.deal_score[i],
        "hype": cards.deal_hype[i],
    }
    if shocks is not None:
        view["shocks"] = shocks
        view["hype_change"] = hype_change(cards, card, shocks, shock_effect)
    return view


def deal_label(cards: RunwayCards, card: int) -> str:
    i = card - DEAL0
    return f"{cards.deals[i].name} ({cards.sectors[cards.deal_sector[i]]}, {cards.deal_score[i]})"


def deal_phrase(cards: RunwayCards, card: int, shocks: int, shock_effect: int) -> str:
    """A Deal as a player reads it, with what its tucked Shocks will do (R9)."""
    i = card - DEAL0
    name, sector = cards.deals[i].name, cards.sectors[cards.deal_sector[i]]
    score, cost = cards.deal_score[i], cards.deal_hype[i]
    if not shocks:
        return f"{name} ({sector}, scores {score}, Hype +{cost})"
    tucked = f"{shocks} Shock{'s' if shocks > 1 else ''} tucked under it"
    if shock_effect == SHOCK_HYPE_DOWN:
        return f"{name} ({sector}, scores {score}; {tucked}: Hype -{cost} if won)"
    if shock_effect == SHOCK_REWARD_MINUS_ONE:
        return f"{name} ({sector}, scores {score} - 1 for the Shock, Hype +{cost}; {tucked})"
    return f"{name} ({sector}, scores {score}, Hype +{cost}; {tucked}, no effect)"


def _seat(seat: int) -> str:
    return f"Seat {seat}"


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    names = [_seat(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- action labels ----------------------------------------------------------------------------
def action_label(state: RunwayState, action: int) -> str:
    """A legal action's label; unique among the legal actions of any state (the
    Bench never holds the same card twice, and every card is named)."""
    cards = state.cards
    if 0 <= action < NUM_CAPITAL:
        sector = state.sector_in_play
        role = PITCH_ROLE[sector][action] if sector >= 0 else MATCH
        return f"pitch {capital_name(cards, action)} ({ROLE_NAMES[role]})"
    if action == PASS:
        return "pass (then trade)"
    bench = state.bench
    if SWAP0 <= action < BLIND0:
        card, slot = divmod(action - SWAP0, 3)
        took = capital_name(cards, bench[slot]) if slot < len(bench) else f"slot {slot}"
        return f"trade {capital_name(cards, card)} for Bench {took}"
    if BLIND0 <= action < SKIP:
        return f"discard {capital_name(cards, action - BLIND0)} and draw blind"
    if action == SKIP:
        return "skip the trade"
    if TAKE0 <= action < BLIND_TAKE:
        slot = action - TAKE0
        took = capital_name(cards, bench[slot]) if slot < len(bench) else f"slot {slot}"
        return f"take Bench {took} (empty hand)"
    if action == BLIND_TAKE:
        return "draw a blind card (empty hand)"
    return f"unknown action {action}"


def describe_action(state: RunwayState, action: int) -> Move:
    """What `action` does, for programs (touch play, the replay, the adapters): the
    hand card it plays or gives and the Bench card it takes, by id (the mover's own
    hand and the public Bench only), the Bench slot, and a pitch's role."""
    bench = state.bench
    if 0 <= action < NUM_CAPITAL:
        sector = state.sector_in_play
        role = PITCH_ROLE[sector][action] if sector >= 0 else MATCH
        return Move("pitch", cards=(CARD_IDS[action],), extra={"role": ROLE_NAMES[role]})
    if action == PASS:
        return Move("pass")
    if SWAP0 <= action < BLIND0:
        card, slot = divmod(action - SWAP0, 3)
        took = (CARD_IDS[bench[slot]],) if slot < len(bench) else ()
        return Move("swap", cards=(CARD_IDS[card],), targets=took, slot=slot)
    if BLIND0 <= action < SKIP:
        return Move("blind_swap", cards=(CARD_IDS[action - BLIND0],))
    if action == SKIP:
        return Move("skip")
    if TAKE0 <= action < BLIND_TAKE:
        slot = action - TAKE0
        took = (CARD_IDS[bench[slot]],) if slot < len(bench) else ()
        return Move("take", targets=took, slot=slot)
    if action == BLIND_TAKE:
        return Move("blind_take")
    return Move("unknown")


# -- the public log: one entry per event -----------------------------------------------------
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "in_play": ("deal", "shocks"),
    "flip": ("deal", "shocks"),
    "last": ("seat", "reason", "fewest"),
    "pitch": ("seat", "card", "role"),
    "pass": ("seat",),
    "skip": ("seat",),
    "swap": ("seat", "gave", "took"),
    "blind": ("seat", "discarded"),
    "take": ("seat", "took", "refill"),
    "blind_take": ("seat",),
    "reshuffle": ("cards",),
    "win": (
        "seat",
        "deal",
        "card",
        "score",
        "hype_bonus",
        "cash_penalty",
        "shock_penalty",
        "reward",
    ),
    "dump": ("deal", "shocks", "hype"),
    "ride": ("seat", "deal"),
    "draw": ("seat", "cards"),
    "foothold": ("seat", "sector", "count", "lock"),
    "hype": ("before", "after", "change", "deal"),
    "sector_bonus": ("seat", "footholds", "bonus"),
    "end": ("winners", "tiebreak"),
}
"""Each state log event (a tuple: kind, then these fields) -> its field names."""


def log_entries(state: RunwayState) -> list[dict[str, Any]]:
    """The public log, one JSON-ready entry per event: its kind, readable fields
    (names, not card ids) and its text. Entries are cached per event on the card
    data (events are small tuples from a finite set) and copied out, so a caller
    may change what it gets without touching the cache."""
    effect = state.shock_effect
    cache = state.cards.event_entries.setdefault(effect, {})
    out = []
    for event in state.log:
        entry = cache.get(event)
        if entry is None:
            entry = cache[event] = _entry(state.cards, effect, event)
        out.append(entry.copy())
    return out


def _entry(cards: RunwayCards, effect: int, event: tuple[Any, ...]) -> dict[str, Any]:
    kind, values = event[0], event[1:]
    fields = dict(zip(EVENT_FIELDS[kind], values, strict=True))
    entry: dict[str, Any] = {"kind": kind}
    for name, value in fields.items():
        if name == "deal":
            entry[name] = cards.deals[value - DEAL0].name if value >= 0 else None
        elif name in ("card", "gave", "took", "discarded", "refill"):
            entry[name] = capital_name(cards, value) if value >= 0 else None
        elif name == "sector":
            entry[name] = cards.sectors[value]
        elif name == "role":
            entry[name] = ROLE_NAMES[value]
        elif name == "footholds":
            entry[name] = {cards.sectors[i]: value[i] for i in range(NUM_SECTORS)}
        elif name == "winners":
            entry[name] = list(value)
        else:
            entry[name] = value
    entry["text"] = _text(cards, effect, kind, fields, entry)
    return entry


def _text(cards: RunwayCards, effect: int, kind: str, f: dict[str, Any], e: dict[str, Any]) -> str:
    who = _seat(f["seat"]) if "seat" in f else ""
    if kind == "in_play":
        return f"Deal in play: {deal_phrase(cards, f['deal'], f['shocks'], effect)}"
    if kind == "flip":
        if f["deal"] < 0:
            return "No Deal left to flip: the Deal in play is the last"
        return f"Next Deal flipped: {deal_phrase(cards, f['deal'], f['shocks'], effect)}"
    if kind == "last":
        return (
            f"{who} pitches last on this Deal: "
            + {
                "youngest": "the youngest, chosen by the seed",
                "fewest": f"the catch-up seat, fewest Reputation ({f['fewest']})",
                "fewest_tied": f"the catch-up seat, tied on fewest Reputation ({f['fewest']}) "
                "and furthest clockwise from the previous last seat",
                "alternate": "with 2 players the last seat alternates",
                "rotate": "the last seat moves one seat clockwise every Deal (the rotation option)",
            }[f["reason"]]
        )
    if kind == "pitch":
        return f"{who} pitches {e['card']} ({ROLE_WORDS[f['role']]})"
    if kind == "pass":
        return f"{who} passes"
    if kind == "skip":
        return f"{who} skips the trade"
    if kind == "swap":
        return f"{who} trades {e['gave']} for {e['took']} from the Bench"
    if kind == "blind":
        return f"{who} discards {e['discarded']} face-up and draws a blind card"
    if kind == "take":
        refill = f"{e['refill']} refills the Bench" if e["refill"] else "nothing refills the Bench"
        return f"{who} has no cards and takes {e['took']} from the Bench; {refill}"
    if kind == "blind_take":
        return f"{who} has no cards and draws a blind card"
    if kind == "reshuffle":
        return f"The discard ({f['cards']} cards) is shuffled into a new draw pile"
    if kind == "win":
        return f"{who} wins {e['deal']} with {e['card']} for {f['reward']}{_reward_parts(f)}"
    if kind == "dump":
        shock = "; its Shock does nothing" if f["shocks"] else ""
        return (
            f"{e['deal']} is Dumped: nobody pitched a match or Cash. No score, no Foothold, "
            f"Hype stays at {f['hype']}{shock}"
        )
    if kind == "ride":
        return f"{who} is paid 1 for a Network Ride on {e['deal']}"
    if kind == "draw":
        count = f["cards"]
        return f"{who} draws {count} card{'' if count == 1 else 's'} back up toward 6"
    if kind == "foothold":
        sector, count = e["sector"], f["count"]
        if count == 0:
            return f"{who} has no Foothold left to place in {sector}"
        nth = ORDINALS[count] if count < len(ORDINALS) else f"a {count}th"
        if f["lock"]:
            return f"{who} places {nth} Foothold in {sector} and locks it: +{f['lock']}"
        if count > 2:
            return f"{who} places {nth} Foothold in {sector} (already locked: no more points)"
        return f"{who} places a Foothold in {sector}"
    if kind == "hype":
        return _hype_text(e["deal"], f["before"], f["after"], f["change"])
    if kind == "sector_bonus":
        held = [s for s, count in e["footholds"].items() if count]
        where = f"Footholds in {', '.join(held)}" if held else "no Foothold"
        return f"{who}'s Sector bonus: +{f['bonus']} ({where})"
    if kind == "end":
        winners, level = list(f["winners"]), f["tiebreak"]
        if level is None:
            return f"Game over after the 12th Deal: {_seats(winners)} wins on Reputation"
        if level == "shared":
            return (
                f"Game over after the 12th Deal: {_seats(winners)} share the win (tied on "
                "Reputation, Sectors locked and Deals won)"
            )
        return (
            f"Game over after the 12th Deal: {_seats(winners)} wins the tie on Reputation "
            f"by {LEVEL_WORDS[level]}"
        )
    raise ValueError(f"unknown RUNWAY event {kind!r}")


def _reward_parts(f: dict[str, Any]) -> str:
    parts = [f"score {f['score']}"]
    if f["hype_bonus"]:
        parts.append(f"+{f['hype_bonus']} Hype bonus")
    if f["cash_penalty"]:
        parts.append(f"-{f['cash_penalty']} Cash outside FinTech")
    if f["shock_penalty"]:
        parts.append("-1 Shock")
    total = f["score"] + f["hype_bonus"] - f["cash_penalty"] - f["shock_penalty"]
    floor = "; never below 0" if total < 0 else ""
    return f" ({', '.join(parts)}{floor})"


def _hype_text(deal: str, before: int, after: int, change: int) -> str:
    if change < 0:
        text = f"Shock under {deal}: Hype drops by {-change} instead of rising, {before} -> {after}"
    elif change == 0:
        return f"Hype stays at {before} ({deal} costs no Hype)"
    else:
        capped = f" (the track stops at {HYPE_MAX})" if before + change > HYPE_MAX else ""
        text = f"Hype +{change} for {deal}: {before} -> {after}{capped}"
    old, new = hype_bonus(before), hype_bonus(after)
    if new != old:
        text += f"; rewards now +{new}" if new else "; rewards lose their Hype bonus"
    return text


# -- the observation -------------------------------------------------------------------------
def observation(state: RunwayState, seat: int | None) -> Observation:
    """What `seat` may know (its hand plus the public view), or with `seat` None what
    everyone may know ("seat": None, no hand). One builder for both, so the public
    part of a seat's view can never drift from the public view. `known_in_hands`
    lists, for every other seat, the cards everyone saw it take from the Bench
    (they stay public while they sit in that hand)."""
    s = state
    cards = s.cards
    effect = s.shock_effect

    def cv(card: int) -> dict[str, Any]:
        return capital_view(cards, card)

    over = s.phase == OVER
    if over:
        decision = "the game is over"
    elif s.phase == PITCH:
        deal = deal_label(cards, s.deal_in_play)
        decision = f"seat {s.current_player()}: pitch a Capital card on {deal} or pass"
    else:
        decision = (
            f"seat {s.current_player()}: trade after passing (swap with the Bench, "
            "discard and draw blind, or skip)"
        )
    known = {
        str(q): [cv(x) for x in sorted(hand) if s.publicly_known[x]]
        for q, hand in enumerate(s.hands)
        if q != seat
    }
    sector = s.sector_in_play
    obs: Observation = {
        "game": "runway",
        "seat": seat,
        "num_players": s.num_players,
        "current_player": s.current_player(),
        "decision": decision,
        "phase": PHASE_NAMES[s.phase],
        "scores": list(s.reputation),
        "log": log_entries(s),
        "sectors": list(cards.sectors),
        "shock_effect": SHOCK_EFFECTS[effect],
        "hype": s.hype,
        "hype_bonus": hype_bonus(s.hype),
        "deal_in_play": deal_view(cards, s.deal_in_play, len(s.shocks_in_play), effect)
        if s.deal_in_play >= 0
        else None,
        "next_deal": deal_view(cards, s.next_deal, len(s.next_shocks), effect)
        if s.next_deal >= 0
        else None,
        "deal_deck_count": len(s.deal_deck),
        "deals_closed": s.deals_closed,
        "deals_total": len(cards.deals),
        "bench": [cv(x) for x in s.bench],
        "pitched": [
            {"seat": q, "card": cv(x), "role": ROLE_NAMES[PITCH_ROLE[sector][x]]}
            for q, x in s.pitched
        ],
        "pitch_order": list(s.pitch_order) if not over else [],
        "last_seat": s.last_seat,
    }
    if seat is not None:  # the only private part
        obs["hand"] = [cv(x) for x in s.hands[seat]]
    obs |= {
        "hand_sizes": [len(h) for h in s.hands],
        "known_in_hands": known,
        "discard": [cv(x) for x in s.discard],
        "draw_pile_count": len(s.draw_pile),
        "reputation": list(s.reputation),
        "footholds": [dict(zip(cards.sectors, f, strict=True)) for f in s.footholds],
        "footholds_left": list(s.footholds_left),
        "sectors_locked": list(s.sectors_locked),
        "deals_won": [[deal_view(cards, d) for d in won] for won in s.deals_won],
        "dumped": [deal_view(cards, d) for d in s.dumped],
        "rides_paid": list(s.rides_paid),
        "deal_points": [deal_points(s, q) for q in range(s.num_players)],
        "lock_points": list(s.lock_points),
        "sector_bonus": list(s.sector_bonus),
        "winners": s.winners(),
        "tiebreak": s.tiebreak_level,
    }
    if any(s.points_before):  # a hand-built position (scenarios.from_setup) only
        obs["points_before"] = list(s.points_before)
    return obs


# -- zones and hidden cards -------------------------------------------------------------------
def zones(state: RunwayState) -> dict[str, list[str]]:
    s, ids = state, CARD_IDS
    z: dict[str, list[str]] = {}
    for q, hand in enumerate(s.hands):
        z[f"private:{q}:hand"] = [ids[x] for x in hand]
    z["public:bench"] = [ids[x] for x in s.bench]
    z["public:pitched"] = [ids[x] for _, x in s.pitched]
    z["public:discard"] = [ids[x] for x in s.discard]
    z["hidden:draw_pile"] = [ids[x] for x in s.draw_pile]
    z["public:deal_in_play"] = [ids[s.deal_in_play]] if s.deal_in_play >= 0 else []
    z["public:shocks_under_deal_in_play"] = [ids[x] for x in s.shocks_in_play]
    z["public:next_deal"] = [ids[s.next_deal]] if s.next_deal >= 0 else []
    z["public:shocks_under_next_deal"] = [ids[x] for x in s.next_shocks]
    z["hidden:deal_deck"] = [ids[x] for x in s.deal_deck]
    for q, won in enumerate(s.deals_won):
        z[f"public:won_by_{q}"] = [ids[x] for x in won]
    z["public:dumped"] = [ids[x] for x in s.dumped]
    z["public:spent_shocks"] = [ids[x] for x in s.spent_shocks]
    z["public:sectors"] = [ids[SECTOR0 + i] for i in range(NUM_SECTORS)]
    return z


def hidden_card_ids(state: RunwayState, seat: int | None) -> set[str]:
    """Deck, draw pile and the hands of every seat but `seat` (all hands when None),
    except the cards everyone saw taken from the Bench."""
    s, ids = state, CARD_IDS
    hidden = {ids[x] for x in s.draw_pile} | {ids[x] for x in s.deal_deck}
    for q, hand in enumerate(s.hands):
        if q != seat:
            hidden.update(ids[x] for x in hand if not s.publicly_known[x])
    return hidden


# -- the story, from an observation only -------------------------------------------------------
def narrate(obs: Observation) -> list[NarrativeLine]:
    """A readable line for every public event, grouped "Deal 3 of 12" (the set-up
    belongs to Deal 1; the Sector bonus and the result to "End of the game")."""
    total = obs.get("deals_total", 12)
    deal = 0
    lines = []
    for index, entry in enumerate(obs["log"]):
        kind = entry["kind"]
        if kind == "in_play":
            deal += 1
        if kind in ("sector_bonus", "end"):
            group = "End of the game"
        else:
            group = f"Deal {max(deal, 1)} of {total}"
        lines.append(NarrativeLine(index, group, entry["text"], entry.get("seat")))
    return lines


COLUMNS = ("Deals", "Rides", "Locks", "Sector bonus")


def final_table(obs: Observation) -> FinalTable:
    """Each seat's Reputation in parts that add up to it (R7, R4, R11): Deals won
    (rewards after Hype, Cash and Shock), paid Rides, Sector locks (+2 each) and
    the Sector bonus; the winners and the tie-break line that decided (R11). A
    position built by hand mid-game adds a first column, the points it started with."""
    n = obs["num_players"]
    before = obs.get("points_before")
    columns = (("Before",) if before else ()) + COLUMNS
    rows = tuple(
        FinalRow(
            seat=p,
            name=_seat(p),
            parts=((float(before[p]),) if before else ())
            + (
                float(obs["deal_points"][p]),
                float(obs["rides_paid"][p]),
                float(obs["lock_points"][p]),
                float(obs["sector_bonus"][p]),
            ),
            total=float(obs["reputation"][p]),
        )
        for p in range(n)
    )
    winners = tuple(obs["winners"])
    notes: tuple[str, ...] = (
        "Deals: rewards of the Deals won (score, Hype bonus, Cash and Shock penalties); "
        "Rides: +1 per paid Network Ride; Locks: +2 per Sector locked with a second "
        "Foothold; Sector bonus: +1 per Sector holding a Foothold at the end.",
    )
    if before:
        notes += ("Before: the points this hand-built position started with.",)
    return FinalTable(columns, rows, winners, decided_by(obs), notes)


def decided_by(obs: Observation) -> str:
    """The tie-break line (R11): Reputation, then most Sectors locked, then most Deals
    won, then shared."""
    winners = list(obs["winners"])
    if obs["phase"] != "over" or not winners:
        return "The game is not over."
    rep = obs["reputation"]
    top = rep[winners[0]]
    tied = [p for p in range(obs["num_players"]) if rep[p] == top]
    if len(tied) == 1:
        return f"{_seat(winners[0])} wins with the most Reputation ({top})."
    locks = obs["sectors_locked"]
    won = [len(w) for w in obs["deals_won"]]
    head = f"{_seats(tied)} tie on {top} Reputation"
    level = obs["tiebreak"]
    if level == TIEBREAK_LEVELS[0]:
        return (
            f"{head}; {_seat(winners[0])} wins on most Sectors locked "
            f"({', '.join(str(locks[p]) for p in tied)})."
        )
    if level == TIEBREAK_LEVELS[1]:
        return (
            f"{head} and Sectors locked ({locks[winners[0]]}); {_seat(winners[0])} wins on "
            f"most Deals won ({', '.join(str(won[p]) for p in tied)})."
        )
    return (
        f"{head}, Sectors locked ({locks[winners[0]]}) and Deals won ({won[winners[0]]}): "
        f"{_seats(winners)} share the win."
    )


__all__ = [
    "EVENT_FIELDS",
    "action_label",
    "capital_name",
    "capital_view",
    "deal_label",
    "deal_view",
    "final_table",
    "hidden_card_ids",
    "log_entries",
    "narrate",
    "observation",
    "seat_of",
    "zones",
]
