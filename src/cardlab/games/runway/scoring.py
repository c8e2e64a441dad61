"""RUNWAY's scoring rules as plain functions: who wins a Deal (R6), what the win is
worth (R7, R9), the Sector bonus and tie-break at the end (R11), the lab summary
and the bots' progress measure.

The forward model (state.py) calls these; the view and the personas use them to
explain or predict a close, so a Deal is judged by one piece of code everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.contract import break_ties
from cardlab.games.runway.actions import (
    CASH,
    DEAL0,
    FINTECH,
    HYPE_BONUS,
    KIND_SHIFT,
    NUMBER,
    OVER,
    SHOCK_REWARD_MINUS_ONE,
)

if TYPE_CHECKING:
    from cardlab.games.runway.state import RunwayState

TIEBREAK_LEVELS = ("most_sectors_locked", "most_deals_won")
"""R11: after Reputation, most Sectors locked, then most Deals won; else shared."""


def closing_winner(
    pitched: list[tuple[int, int]], sector: int, numbers: tuple[int, ...] = NUMBER
) -> tuple[int, int]:
    """R6: (seat, card) of the winning pitch, or (-1, -1) when the Deal is Dumped.

    Competing pitches are matches and Cash. Highest number wins; on an equal
    number a match beats Cash; on a true tie the later pitch wins (so `>=`).
    `numbers[card]` is the printed number (`cards.capital_number`; the box's by
    default). Written with a shift and a table, not `kind_of`: it runs at every
    close of every simulated game; and the key (number, match) compared field by
    field rather than as tuples (the same order; compiled, int compares).
    """
    best_number = best_match = -1
    winner = card_won = -1
    for seat, card in pitched:
        kind = card >> KIND_SHIFT
        if kind == sector:
            match = 1
        elif kind == CASH:
            match = 0
        else:
            continue
        number = numbers[card]
        if number > best_number or (number == best_number and match >= best_match):
            best_number, best_match, winner, card_won = number, match, seat, card
    return winner, card_won


def hype_bonus(hype: int) -> int:
    """R7: +1 at Hype 5-9, +2 at 10 (read before the closing Deal's advance)."""
    return HYPE_BONUS[hype]


Reward = tuple[int, int, int, int, int]
"""A won Deal's reward and its parts (R7, R9): (score, hype_bonus, cash_penalty,
shock_penalty, total), total = max(0, score + hype_bonus - cash_penalty - shock_penalty).
A plain tuple: it is built at every close of every simulated game."""


def reward(
    score: int,
    hype: int,
    winning_card: int,
    sector: int,
    shocked: bool,
    shock_effect: int,
    cash_penalty: int = 1,
) -> Reward:
    """R7: score + Hype bonus - 1 for Cash outside FinTech (`cash_penalty`, a lever; 1 as
    written) (- 1 more for a Shock under `shock_effect=reward_minus_one`), never below 0."""
    bonus = HYPE_BONUS[hype]
    cash = cash_penalty if winning_card >> KIND_SHIFT == CASH and sector != FINTECH else 0
    shock = 1 if shocked and shock_effect == SHOCK_REWARD_MINUS_ONE else 0
    total = score + bonus - cash - shock
    return (score, bonus, cash, shock, total if total > 0 else 0)


def sector_bonus(footholds: list[int], per_sector: int = 1) -> int:
    """R11: +1 (`per_sector`, the lever `breadth_bonus`) per Sector holding at least one
    of the seat's Footholds."""
    return per_sector * sum(1 for count in footholds if count)


def tiebreak(state: RunwayState) -> tuple[list[int], str | None]:
    """R11: the winners and the level that decided (None: Reputation alone)."""
    keys = [
        (state.reputation[p], state.sectors_locked[p], len(state.deals_won[p]))
        for p in range(state.num_players)
    ]
    result = break_ties(keys, TIEBREAK_LEVELS)
    return result.winners, result.level


def summary(state: RunwayState) -> dict[str, Any]:
    """The lab's facts about a game (`GameState.info()`)."""
    names = [d.name for d in state.cards.deals]
    won = state.deals_won
    return {
        "end_reason": "12th Deal closed" if state.phase == OVER else "in progress",
        "tiebreak": state.tiebreak_level,
        "rounds": state.deals_closed,
        "turns": state.turns,
        "decisions": len(state.moves),
        "acquired": [[names[d - DEAL0] for d in w] for w in won],
        "card_points": [{names[d - DEAL0]: state.deal_rewards[d - DEAL0] for d in w} for w in won],
        "deals_won": [len(w) for w in won],
        "deals_dumped": len(state.dumped),
        "sectors_locked": list(state.sectors_locked),
        "lock_points": list(state.lock_points),
        "ride_points": list(state.rides_paid),
        "sector_bonus": list(state.sector_bonus),
        "hype": state.hype,
        "reputation": list(state.reputation),
    }


def deal_points(state: RunwayState, seat: int) -> int:
    """Reputation `seat` earned from the Deals it won (rewards after every adjustment)."""
    return sum(state.deal_rewards[d - DEAL0] for d in state.deals_won[seat])


def progress(state: RunwayState, seat: int) -> float:
    """A seat's standing for bots: Reputation, the Sector bonus and locks in reach,
    the Deal it is winning right now, and the strength of its hand."""
    return progress_all(state)[seat]


def progress_all(state: RunwayState) -> list[float]:
    """`progress` of every seat in one pass (search rates every seat of every playout):
    the Deal's leader is found once, the hand summed in a loop; the same ints and float
    operations per seat, so the same floats."""
    n = state.num_players
    if state.phase == OVER:
        return [float(state.reputation[seat]) for seat in range(n)]
    columns = state.columns
    number = columns.capital_number
    leader = -1
    leader_value = 0.0
    if state.pitched and state.deal_in_play >= 0:
        deal = state.deal_in_play - DEAL0
        leader = closing_winner(state.pitched, columns.deal_sector[deal], number)[0]
        leader_value = 0.5 * columns.deal_score[deal]
    values: list[float] = []
    for seat in range(n):
        value = float(state.reputation[seat])
        feet = state.footholds[seat]
        if state.footholds_left[seat]:
            # (counted with list.count rather than generators; the same ints)
            # the end-of-game Sector bonus to come (0.8 * 1 is 0.8: as written, the same float)
            value += 0.8 * columns.breadth_bonus * (len(feet) - feet.count(0))
            value += 0.6 * feet.count(1)  # a lock is one win away
        if seat == leader:
            value += leader_value
        hand = state.hands[seat]
        total = 0
        for x in hand:
            total += number[x]
        value += 0.04 * total + 0.1 * len(hand)
        values.append(value)
    return values
