"""UPTIME's fixed action space and decision kinds.

Every action is a small int; the layout is the same in every state so bots and
the lab can learn over it. A sub-decision (a payment, a material choice, a bid)
is an ordinary decision of whoever must make it.

    0        DRAW                   take the top 2 Supply cards
    1        PASS                   take the top Supply card
    2..5     REQUISITION slot 0..3  claim that Build Row card (payment follows)
    6..9     BID slot 0..3          open the auction on that Contract
    10..13   RESERVE slot 0..3      put a Patch from hand on that Build Row card
    14..17   PAY_MAT kind 0..3      pay one raw material of that kind
    18..23   PAY_COMP type 0..5     discard one Component of that type
    24       PAY_PATCH              let a Patch stand in for this requirement
    25..28   CHOOSE_MAT kind 0..3   take a free material of that kind (Workstation, Power Surge)
    29..34   RETURN_COMP type 0..5  Blade: return a Component of that type
    35       BID_PASS               decline to raise
    36..59   BID amount 1..24       open at / raise to that many materials
    60       SWEEP                  designer option row_sweep: Build Row to the deck bottom, refill
    61..     BID amount 25..        only with a card file of more than 24 raw materials
    last     TRADE                  lever trade_in: k materials for 1 of your choice (after all
                                    the above, so it exists only with the lever on)

Two lever decisions reuse numbers above: a hand-limit discard (decision "discard") names
the card by PAY_MAT kind 0..3 or PAY_PATCH, and a trade-in's payment (decision
"trade_in") names each given material by PAY_MAT kind 0..3; the free material it buys is
a CHOOSE_MAT decision ("choose_material", reason "Trade-in").

The packaged deck has 24 raw materials, so no bid can exceed 24 and the space is
61 actions. A designer's deck with more materials (the material counts are a
knob, see cards.py) gets the higher bids after SWEEP, so the numbers above stay
the same for every card file: `num_actions(materials)`, `bid_action(k)`,
`bid_amount(a)`.
"""

from __future__ import annotations

from typing import Final

DRAW: Final = 0
PASS: Final = 1
REQ: Final = 2
BID_SLOT: Final = 6
RESERVE: Final = 10
PAY_MAT: Final = 14
PAY_COMP: Final = 18
PAY_PATCH: Final = 24
CHOOSE_MAT: Final = 25
RETURN_COMP: Final = 29
BID_PASS: Final = 35
BID: Final = 35  # BID + k is a bid of k materials, k = 1..MAX_BID
MAX_BID: Final = 24
SWEEP: Final = BID + MAX_BID + 1  # 60: only with the designer option row_sweep
NUM_ACTIONS: Final = SWEEP + 1  # 61: the packaged deck's action space


def num_actions(materials: int) -> int:
    """The action space for a deck of `materials` raw materials (a bid is backed by them)."""
    return NUM_ACTIONS + max(0, materials - MAX_BID)


def trade_action(materials: int) -> int:
    """The TRADE turn action (lever trade_in): the first number after the bids, so every
    other action keeps its number and the space grows by one only with the lever on."""
    return num_actions(materials)


def bid_action(k: int) -> int:
    """The action of a bid of `k` materials (k >= 1)."""
    return BID + k if k <= MAX_BID else SWEEP + k - MAX_BID


def bid_amount(a: int) -> int:
    """The materials bid by action `a` (a bid action)."""
    return a - BID if a < SWEEP else a - SWEEP + MAX_BID


def bid_actions(low: int, high: int) -> list[int]:
    """The actions of bids `low`..`high`, in increasing order (and increasing action number)."""
    if high <= MAX_BID:
        return list(range(BID + low, BID + high + 1))
    return [bid_action(k) for k in range(low, high + 1)]


# Decision kinds: what the state is waiting for.
D_TURN: Final = 0
D_PAY: Final = 1
D_CHOOSE: Final = 2
D_BLADE: Final = 3
D_OPEN_BID: Final = 4
D_RAISE: Final = 5
D_OVER: Final = 6
D_DISCARD: Final = 7  # lever hand_limit: discard one card down to the limit
D_TRADE: Final = 8  # lever trade_in: give one material of the k
DECISION_NAMES: Final = (
    "turn",
    "pay",
    "choose_material",
    "blade_return",
    "opening_bid",
    "raise_or_pass",
    "over",
    "discard",
    "trade_in",
)
BASE_DECISIONS: Final = 7
"""The decision kinds of the rules as written (the RL encoding's one-hot at the defaults)."""

# Payment requirement kinds (what the pending payment still needs).
NEED_SPECIFIC: Final = 0
NEED_ANY: Final = 1
NEED_TYPES: Final = 2
# What a payment is for.
FOR_REQUISITION: Final = 0
FOR_AUCTION: Final = 1
