"""Card numbering and the action encoding of RUNWAY (shared by every module).

Card numbers (ids "rw00".."rw53"):
  0-31  Capital: kind = n // 8 (0 Cash, 1 Network, 2 Tech, 3 Talent), number = n % 8 + 1
  32-43 Deals, in card-file order
  44-49 Shocks
  50-53 Sector table cards (FinTech, Social, DeepTech, Marketplace)

Action layout (num_distinct_actions = 166):
  0-31     pitch Capital card n (a match, Cash, or a Network Ride, as the Deal makes it)
  32       pass (the same seat then decides its trade)
  33-128   trade: swap hand card c for Bench slot s: 33 + 3*c + s
  129-160  trade: discard hand card c face-up and draw blind: 129 + c
  161      trade: skip
  162-164  trade with an empty hand: take Bench slot s without giving: 162 + s
  165      trade with an empty hand: draw one blind card without giving
"""

from __future__ import annotations

CASH, NETWORK, TECH, TALENT = 0, 1, 2, 3
FINTECH, SOCIAL, DEEPTECH, MARKETPLACE = 0, 1, 2, 3
NUM_CAPITAL = 32
DEAL0 = 32
SHOCK0 = 44
SECTOR0 = 50
NUM_CARDS = 54
CARD_IDS = tuple(f"rw{i:02d}" for i in range(NUM_CARDS))

HAND_SIZE = 6
BENCH_SIZE = 3
FOOTHOLDS = 8
HYPE_MAX = 10

PITCH, TRADE, OVER = 0, 1, 2
PHASE_NAMES = ("pitch", "trade", "over")
MATCH, CASH_BID, RIDE = 0, 1, 2
ROLE_NAMES = ("match", "cash", "ride")
SHOCK_HYPE_DOWN, SHOCK_NONE, SHOCK_REWARD_MINUS_ONE = 0, 1, 2

PASS = 32
SWAP0 = 33
BLIND0 = 129
SKIP = 161
TAKE0 = 162
BLIND_TAKE = 165
NUM_ACTIONS = 166


def kind_of(card: int) -> int:
    return card >> 3


def number_of(card: int) -> int:
    return (card & 7) + 1


def capital(kind: int, number: int) -> int:
    """The card number of the Capital card of `kind` (0-3) and `number` (1-8)."""
    if not (0 <= kind < 4 and 1 <= number <= 8):
        raise ValueError(f"no Capital card of kind {kind} and number {number}")
    return kind * 8 + number - 1


def closing_winner(pitched: list[tuple[int, int]], sector: int) -> tuple[int, int]:
    """R6: (seat, card) of the winning pitch, or (-1, -1) when the Deal is Dumped.

    Competing pitches are matches and Cash. Highest number wins; on an equal
    number a match beats Cash; on a true tie the later pitch wins (so `>=`).
    """
    best_key = (-1, -1)
    winner = card_won = -1
    for seat, card in pitched:
        kind = card >> 3
        if kind == sector:
            key = ((card & 7) + 1, 1)
        elif kind == CASH:
            key = ((card & 7) + 1, 0)
        else:
            continue
        if key >= best_key:
            best_key, winner, card_won = key, seat, card
    return winner, card_won
