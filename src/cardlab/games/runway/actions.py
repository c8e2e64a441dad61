"""RUNWAY's card numbering and action encoding: the one table every module shares.

Card numbers (ids "rw00".."rw59"):

| numbers | cards |
|---|---|
| 0-31  | Capital: kind = n // 8 (0 Cash, 1 Network, 2 Tech, 3 Talent), number = n % 8 + 1 |
| 32-43 | Deals, in card-file order |
| 44-49 | Shocks 1-6 |
| 50-53 | Sector table cards (FinTech, Social, DeepTech, Marketplace) |
| 54-59 | Shocks 7-12 (only in a card file with more than six Shocks) |

The Shock count is card data (0-12; the tunable `shocks[Shock].count`): Shock i is
`SHOCK_CARDS[i]`, so the six of the printed box and the Sector cards keep their ids
whatever the count.

Actions (num_distinct_actions = 166):

| actions | decision | meaning |
|---|---|---|
| 0-31    | pitch | pitch Capital card n (a match, Cash, or a Network Ride, as the Deal makes it) |
| 32      | pitch | pass (the same seat then decides its trade) |
| 33-128  | trade | swap hand card c for Bench slot s: 33 + 3*c + s |
| 129-160 | trade | discard hand card c face-up and draw blind: 129 + c |
| 161     | trade | skip the trade |
| 162-164 | trade | with an empty hand: take Bench slot s without giving: 162 + s |
| 165     | trade | with an empty hand: draw one blind card without giving |
"""

from __future__ import annotations

from typing import Final

# -- Capital kinds and Sectors (R1: kind i matches Sector i) --------------------------
CASH: Final = 0
NETWORK: Final = 1
TECH: Final = 2
TALENT: Final = 3
FINTECH: Final = 0
SOCIAL: Final = 1
DEEPTECH: Final = 2
MARKETPLACE: Final = 3
NUM_KINDS: Final = 4
NUM_SECTORS: Final = 4
NUMBERS_PER_KIND: Final = 8
KIND_SHIFT: Final = 3
"""card >> KIND_SHIFT is a Capital card's kind (8 numbers per kind)."""
NUMBER_MASK: Final = 7
"""(card & NUMBER_MASK) + 1 is a Capital card's printed number."""

# -- card numbers ------------------------------------------------------------------------
NUM_CAPITAL: Final = NUM_KINDS * NUMBERS_PER_KIND
DEAL0: Final = 32
SHOCK0: Final = 44
SECTOR0: Final = 50
NUM_CARDS: Final = 54
"""The printed box: 32 Capital + 12 Deals + 6 Shocks + 4 Sector cards."""
MAX_SHOCKS: Final = 12
"""The most Shocks a card file may hold (R9 as a tunable: 0-12)."""
SHOCK_CARDS: Final = (*range(SHOCK0, SECTOR0), *range(SECTOR0 + 4, SECTOR0 + 4 + MAX_SHOCKS - 6))
"""SHOCK_CARDS[i]: the card number of Shock i (rw44-rw49, then rw54-rw59). All are
>= SHOCK0 and no Deal is, which is how a flip tells a Shock from a Deal."""
CARD_IDS: Final = tuple(f"rw{i:02d}" for i in range(max(SHOCK_CARDS) + 1))

# -- table sizes (the rulebook's set-up) --------------------------------------------------
HAND_SIZE: Final = 6
BENCH_SIZE: Final = 3
FOOTHOLDS: Final = 8
HYPE_MAX: Final = 10
HYPE_BONUS_FROM: Final = 5
HYPE_BONUS: Final = tuple(
    2 if h >= HYPE_MAX else 1 if h >= HYPE_BONUS_FROM else 0 for h in range(11)
)
"""R7: HYPE_BONUS[hype] is the reward bonus: +1 at Hype 5-9, +2 at 10 (max)."""
LOCK_POINTS: Final = 2
"""R7: a second Foothold in a Sector scores +2 at once."""
RIDE_POINTS: Final = 1
"""R4: a paid Network Ride scores +1."""

# -- decisions and pitch roles --------------------------------------------------------------
PITCH: Final = 0
TRADE: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("pitch", "trade", "over")
MATCH: Final = 0
CASH_BID: Final = 1
RIDE: Final = 2
ROLE_NAMES: Final = ("match", "cash", "ride")
SHOCK_EFFECTS: Final = ("hype_down", "none", "reward_minus_one")
SHOCK_HYPE_DOWN: Final = 0
SHOCK_NONE: Final = 1
SHOCK_REWARD_MINUS_ONE: Final = 2

# -- actions -----------------------------------------------------------------------------------
PASS: Final = 32
SWAP0: Final = 33
BLIND0: Final = 129
SKIP: Final = 161
TAKE0: Final = 162
BLIND_TAKE: Final = 165
NUM_ACTIONS: Final = 166

SWAPS: Final = tuple(
    tuple(SWAP0 + BENCH_SIZE * c + s for s in range(BENCH_SIZE)) for c in range(NUM_CAPITAL)
)
"""SWAPS[card]: the swap actions giving `card` for each Bench slot, in slot order."""
ORDERS: Final = tuple(
    tuple([(last + 1 + i) % n for i in range(n)] for last in range(n)) if n else ()
    for n in range(5)
)
"""ORDERS[n][last]: the pitch order of n seats ending with `last` (R3). Shared lists:
never mutated."""
PITCHABLE: Final = tuple(
    tuple(
        (kind := c >> KIND_SHIFT) == sector
        or kind == CASH
        or (kind == NETWORK and sector != SOCIAL)
        for c in range(NUM_CAPITAL)
    )
    for sector in range(NUM_SECTORS)
)
"""R4: PITCHABLE[sector][card]: a match, Cash anywhere, or a Network Ride off Social."""

PITCH_ROLE: Final = tuple(
    tuple(
        MATCH if c >> KIND_SHIFT == sector else CASH_BID if c >> KIND_SHIFT == CASH else RIDE
        for c in range(NUM_CAPITAL)
    )
    for sector in range(NUM_SECTORS)
)
"""PITCH_ROLE[sector][card]: how a pitched card counts on a Deal of that Sector."""

KIND: Final = tuple(c >> KIND_SHIFT for c in range(NUM_CAPITAL))
"""KIND[card]: the Capital kind of a card number (a table: the engine's hot path)."""
NUMBER: Final = tuple((c & NUMBER_MASK) + 1 for c in range(NUM_CAPITAL))
"""NUMBER[card]: the printed number (1-8) of a card number."""


def kind_of(card: int) -> int:
    return card >> KIND_SHIFT


def number_of(card: int) -> int:
    return (card & NUMBER_MASK) + 1


def capital(kind: int, number: int) -> int:
    """The card number of the Capital card of `kind` (0-3) and `number` (1-8)."""
    if not (0 <= kind < NUM_KINDS and 1 <= number <= NUMBERS_PER_KIND):
        raise ValueError(f"no Capital card of kind {kind} and number {number}")
    return kind * NUMBERS_PER_KIND + number - 1


def swap_action(card: int, slot: int) -> int:
    """Trade: give hand card `card` for Bench slot `slot`."""
    return SWAP0 + BENCH_SIZE * card + slot


def swap_parts(action: int) -> tuple[int, int]:
    """(hand card given, Bench slot taken) of a swap action."""
    return divmod(action - SWAP0, BENCH_SIZE)


def blind_action(card: int) -> int:
    """Trade: discard hand card `card` face-up and draw blind."""
    return BLIND0 + card


def take_action(slot: int) -> int:
    """Trade with an empty hand: take Bench slot `slot`."""
    return TAKE0 + slot


def is_pitch_of_a_card(action: int) -> bool:
    return 0 <= action < NUM_CAPITAL


def is_swap(action: int) -> bool:
    return SWAP0 <= action < BLIND0


def is_blind(action: int) -> bool:
    return BLIND0 <= action < SKIP


def is_take(action: int) -> bool:
    return TAKE0 <= action < BLIND_TAKE
