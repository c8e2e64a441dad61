"""SUPER COMPUTER personas. Both read only the state they are handed (a resample
from their seat's view) and draw ties from their own generator."""

from __future__ import annotations

from typing import Any

from cardlab.agents.base import Agent, register_agent
from cardlab.core import GameState

PICK, PLACE, CHOOSE_BUILD = "pick", "place", "choose_build"


def _check(state: GameState, kind: str) -> Any:
    if state.game.name != "supercomputer":
        raise ValueError(f"persona {kind!r} plays supercomputer, not {state.game.name}")
    return state


PLACEMENTS = ("open", "lookahead", "deck")


class _SuperComputerPersona(Agent):
    """Shared placement. `placement="open"` (the default): keep the most open
    connectors (room for later parts). `placement="lookahead"`: keep the most parts
    of the hand I pick from next turn placeable (colour-aware), then the most open
    connectors. `placement="deck"`: keep placeable the most points of every part still
    in the round's hands (each weighted by what fitting it is worth this round, green
    minus red: any of them may come round to me), then the most open connectors; the
    strongest placer we have (docs/rules/supercomputer.md, "Placement skill")."""

    def __init__(self, seed: int = 0, placement: str = "open") -> None:
        super().__init__(seed)
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}, not {placement!r}")
        self.placement = placement

    def step(self, state: GameState) -> int:
        s = _check(state, self.kind)
        kind = s.decision_kind()
        if kind == PICK:
            return self._best(s, s.legal_actions(), lambda a: self.pick_value(s, a))
        if kind == PLACE:
            return self._best(s, s.legal_actions(), lambda a: self.place_value(s, a))
        return self._best(s, s.legal_actions(), lambda a: self.build_value(s, a))

    def _best(self, s: Any, actions: list[int], value: Any) -> int:
        scored = [(value(a), a) for a in actions]
        top = max(v for v, _ in scored)
        return self.rng.choice([a for v, a in scored if v >= top - 1e-9])

    def fit_value(self, s: Any, k: int) -> float:
        """Points part k brings this round: green if it fits my computer now, else red."""
        q, r, t = s.current_player(), s.round_index, s.tables
        return float(t.green[k][r] if s.fits(q, k) else t.red[k][r])

    def place_value(self, s: Any, a: int) -> float:
        layout = s.game.actions
        if layout.kind(a) == "scrap":
            return -100.0
        q, cell = s.current_player(), layout.cell(a)
        value = float(s.open_connectors_after(q, cell))
        if self.placement == "lookahead":
            value += 100.0 * s.parts_fitting_after(q, cell, s.hands[q])
        elif self.placement == "deck":
            value += 100.0 * self.deck_value(s, s.placeable_after(q, cell))
        return value

    def deck_value(self, s: Any, placeable: int) -> float:
        """Points at stake in the parts still in hands that `placeable` (a bit per part)
        keeps placeable: green minus red this round, summed. The hands in the state I am
        handed are a resample from my seat's view, so only their union matters, and
        that is public apart from the other seats' secret picks."""
        r, t = s.round_index, s.tables
        return float(
            sum(t.green[j][r] - t.red[j][r] for hand in s.hands for j in hand if placeable >> j & 1)
        )

    def pick_value(self, s: Any, k: int) -> float:
        raise NotImplementedError

    def build_value(self, s: Any, a: int) -> float:
        raise NotImplementedError


@register_agent("points")
class PointsPersona(_SuperComputerPersona):
    """Takes the highest-value part that fits: each pick maximises this round's green
    points of a part that has a legal place on its computer now (a part that fits
    nowhere is valued at its red scrap points). Keeps the build with the fewest
    required parts (the likeliest bonus) and places to keep the most open connectors."""

    kind = "points"

    def pick_value(self, s: Any, k: int) -> float:
        return self.fit_value(s, k)

    def build_value(self, s: Any, a: int) -> float:
        b = s.game.actions.build(a)
        return float(-s.tables.parts_needed(b) + 0.01 * s.tables.bonus[b][s.round_index])


@register_agent("builder")
class BuilderPersona(_SuperComputerPersona):
    """Chases its build card: keeps the build its hand covers best (weighted by the
    bonus), then picks first the parts that fill a still-missing requirement and fit,
    otherwise the highest-value part that fits. In the public race it chases the
    face-up build it is closest to."""

    kind = "builder"

    def pick_value(self, s: Any, k: int) -> float:
        q, t = s.current_player(), s.tables
        value = self.fit_value(s, k)
        if value <= 0:
            return value
        attached = s.attached_parts(q)
        for b in s.target_builds(q):
            if t.fills_gap(b, k, attached):
                value += 10 + t.bonus[b][s.round_index] / 4
        return value

    def build_value(self, s: Any, a: int) -> float:
        b = s.game.actions.build(a)
        q, t = s.current_player(), s.tables
        cover = t.progress(b, s.hands[q])
        return float(cover * t.bonus[b][s.round_index] - (1 - cover) * -t.penalty[b][s.round_index])
