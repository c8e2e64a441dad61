"""RUNWAY: the Game (players, rule options, card data) and its `GAME_INFO`.

The package follows cardlab's one layout: `actions.py` (card numbering and the
action encoding), `state.py` (the forward model), `view.py` (observations,
labels, the story and the final table), `resample.py`, `scoring.py`, `cards.py`
+ `cards.toml`, `render.py`, `scenarios.py`, `claims.py`, `art.py`. Rules and
rulings are cited R1-R12 and written out in docs/rules/runway.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from cardlab.core.game import Game
from cardlab.core.options import OptionSpec, lever
from cardlab.core.plugin import DecisionKind, GameInfo
from cardlab.games.runway.actions import NUM_ACTIONS
from cardlab.games.runway.cards import NUM_DEALS, RunwayCards, load_cards
from cardlab.games.runway.state import RunwayState
from cardlab.games.runway.tunables import TUNABLES

__all__ = ["GAME_INFO", "RunwayGame", "RunwayState"]


class RunwayGame(Game):
    """RUNWAY for 2-4 players; see docs/rules/runway.md."""

    name: ClassVar[str] = "runway"
    title: ClassVar[str] = "RUNWAY"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 3
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "shock_effect",
            ("hype_down", "none", "reward_minus_one"),
            "what a Shock tucked under a Deal does when that Deal closes with a winner",
            ruling="R9",
        ),
        OptionSpec(
            "two_player_last_seat",
            ("alternate", "catch_up"),
            "with 2 players: the last seat alternates every Deal (the 2-player paragraph: "
            '"Turn order just alternates"), or the catch-up seat as with more players',
            ruling="R10",
        ),
        OptionSpec(
            "last_seat",
            ("catch_up", "rotate"),
            "any player count: catch-up seat (fewest Reputation pitches last), or a designer "
            "comparison where the last seat passes one seat clockwise every Deal",
            ruling="R10",
        ),
        lever(
            "cash_penalty",
            (1, 0, 2),
            "points Cash winning outside FinTech loses (1 as written; 0: none)",
            passage="Close: 'Cash winning outside FinTech scores 1 less.' (R7)",
            purpose="make the Cash-rich generalist ('Cam was richer') viable: the lab finds it "
            "wins 27% of its seats against a fair 33% while the specialist wins 39%",
            low=0,
            high=3,
        ),
        lever(
            "breadth_bonus",
            (1, 2, 3),
            "end points per different Sector holding one of your Footholds (1 as written)",
            passage="Score: '+1 per different Sector you hold a Foothold in, added once when "
            "the 12th Deal closes' (R11)",
            purpose="pay breadth as well as locks: a generalist spread over four Sectors "
            "against a specialist's +2 locks",
            low=0,
            high=4,
        ),
    )

    cards: RunwayCards

    def load_cards(self, path: Path | None) -> RunwayCards:
        return load_cards(path)

    def new_initial_state(self, seed: int = 0) -> RunwayState:
        return RunwayState.new(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        """Bound on game length (docs/rules/runway.md): every Deal is one pitch turn per
        seat, a turn is at most two decisions (pass, then trade), and the game ends after
        the 12th Deal, whatever the options: 24 n."""
        return NUM_DEALS * self.num_players * 2

    def utility_bounds(self) -> tuple[float, float]:
        """Reputation never drops (R7: a reward is never below 0): min 0. Max: per Deal a
        seat earns either the reward (score + Hype bonus, at most +2) or one Ride (+1),
        never both, and score >= 2; one lock (+2) per Sector; +1 per Sector at the end
        (lever breadth_bonus: that many per Sector). The Cash penalty only lowers a reward."""
        cards = self.cards
        sectors = len(cards.sectors)
        per_sector = int(self.options["breadth_bonus"])
        return 0.0, float(sum(s + 2 for s in cards.deal_score) + 2 * sectors + per_sector * sectors)


GAME_INFO = GameInfo(
    pitch=(
        "You have exactly one pitch per Deal: spend it well. Four kinds of Capital (Cash, "
        "Network, Tech, Talent) chase Deals in four Sectors; the biggest matching pitch "
        "wins, a later pitch beats an earlier one on a tie, and Cash can pitch anywhere "
        "but scores less. Hype rises as Deals close, Footholds lock Sectors, and whoever "
        "trails pitches last on the next Deal."
    ),
    game="cardlab.games.runway.rules:RunwayGame",
    decision_kinds=(
        DecisionKind("pitch", (10.0, 30.0), (0.5, 1.5), about="a Capital card or a pass"),
        DecisionKind("trade", (4.0, 12.0), (0.2, 0.5), about="after a pass: swap, blind or skip"),
    ),
    box_minutes={2: (30.0, 30.0), 3: (30.0, 30.0), 4: (30.0, 30.0)},
    tunables=TUNABLES,
    round_overhead_seconds=(20.0, 45.0),
)
"""How cardlab finds RUNWAY (entry point ``cardlab.games``); see `cardlab.core.plugin`."""
