"""OpenSpiel games for cardlab: importing this module registers
``python_cardlab_uptime``, ``python_cardlab_runway`` and
``python_cardlab_supercomputer`` (those whose engine is installed) with pyspiel.

    import pyspiel, cardlab.adapters.openspiel
    game = pyspiel.load_game("python_cardlab_runway", {"players": 3})

Type: sequential, imperfect information, general-sum, terminal rewards (each
seat's final points), explicit stochastic chance.

Chance: the engines draw all randomness from a generator seeded by
``new_initial_state(seed)``. OpenSpiel wants chance as explicit nodes, so the
first node of every game is a chance node that picks the deal seed uniformly
from ``range(deals)`` (parameter ``deals``, default 10,000); the engine's later
shuffles (reshuffles, blind draws) are determined by that seed. So the
history ``[seed, a1, a2, ...]`` replays a game exactly, which is what
OpenSpiel's serialisation relies on, and chance is sampled where OpenSpiel
samples it, but only once.

Parameters: ``players`` and every rule option of the game (its default is
the ruling's reading), plus ``deals``.

Views, built only from the engine's ``observation(p)``:
- observation string: that observation as canonical JSON; tensor: the shared
  encoding (``cardlab.adapters.encoding``);
- information-state string: the observation plus the seat's own past actions
  (perfect recall); tensor: the same vector as the observation (the encoding
  summarises the public log, so the tensor is *not* perfect recall).

``resample_from_infostate(p, sampler)`` redeals what p cannot see with the
engine's resampler (the seed taken from ``sampler()``), so OpenSpiel's ISMCTS
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`) can search these games.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from cardlab.adapters.encoding import encode_state, encoding_for
from cardlab.core import Game, GameState
from cardlab.games import game_class, list_games, load_game

DEFAULT_DEALS = 10_000


def _runway_limits(game: Game) -> tuple[float, float, int]:
    # per Deal a seat pitches, or passes then trades; 12 Deals. A seat's points:
    # at most 12 Deals x (score 5 + Hype bonus 2) + 4 locks x 2 + 12 rides + 4 sectors.
    return 0.0, 12 * 7 + 8 + 12 + 4, 12 * 2 * game.num_players


def _supercomputer_limits(game: Game) -> tuple[float, float, int]:
    # 3 rounds of (keep a build, 7 picks, 7 placements) per seat; points per round
    # between the 7 worst scraps + 2 unmet builds and the 7 best parts + 2 met builds.
    parts, builds = game.cards.parts, game.cards.builds
    low = high = 0.0
    for r in range(3):
        low += sum(sorted(p.red[r] for p in parts)[:7]) + sum(
            sorted(b.penalty[r] for b in builds)[:2]
        )
        high += sum(sorted(p.green[r] for p in parts)[-7:]) + sum(
            sorted(b.bonus[r] for b in builds)[-2:]
        )
    return low, high, 3 * 15 * game.num_players


def _uptime_limits(game: Game) -> tuple[float, float, int]:
    # Points: every Computer + the Network cap (8) + every Contract + leftovers
    # (all 24 raw materials // 3). Length with stall_end=true: the bound derived in
    # docs/rules/uptime.md ("How long a game can be"): turns <= 57 + 31n, plus
    # at most 55 payments/choices and 6 auctions of n bids. With stall_end=false the
    # engine stops after 100 rounds; a turn takes at most 1 action + 3 payments +
    # 2 material choices + 1 Blade return + an auction (n bids, up to 24 payments).
    t = game.cards
    scoring = ("computer", "contract")
    values = [t.value[i] for i in range(len(t.ids)) if t.describe(i)["kind"] in scoring]
    n = game.num_players
    length = 112 + 37 * n if game.options["stall_end"] else 100 * n * (32 + n)
    return 0.0, float(sum(values) + 8 + 24 // 3), length


LIMITS = {
    "uptime": _uptime_limits,
    "runway": _runway_limits,
    "supercomputer": _supercomputer_limits,
}
"""Per game: (min utility, max utility, max game length) from the rules; bounds, not tight."""


def short_name(name: str) -> str:
    return f"python_cardlab_{name}"


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    params: dict[str, Any] = {"players": getattr(cls, "default_players", cls.min_players)}
    params.update({spec.name: spec.default for spec in cls.option_specs})
    params["deals"] = DEFAULT_DEALS
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"cardlab {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class CardlabSpielGame(pyspiel.Game):
    """A cardlab game with its players and rule options fixed by the parameters."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        game_type = _game_type(name)
        given = dict(params or {})
        merged = {**game_type.parameter_specification, **given}
        self.deals = int(merged.pop("deals"))
        players = int(merged.pop("players"))
        self.cardlab = load_game(name, players=players, **merged)
        low, high, length = LIMITS[name](self.cardlab)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardlab.num_distinct_actions,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=length + 1,  # + the deal
        )
        super().__init__(game_type, info, given)

    def new_initial_state(self) -> CardlabSpielState:
        return CardlabSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> CardlabObserver:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("cardlab games offer only the seat's own (private + public) view")
        return CardlabObserver(self.cardlab, perfect_recall=recall)


class _Play:
    """The mutable part of a state. pyspiel clones a Python state by deep-copying
    each attribute; this one copies itself with the engine's cheap `clone` and
    shares the (immutable) game, which a generic deepcopy would copy too."""

    def __init__(self, game: Game, deals: int) -> None:
        self.game = game
        self.deals = deals
        self.inner: GameState | None = None
        self.moves: list[tuple[int, int]] = []  # (seat, action) after the deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        out = _Play(self.game, self.deals)
        out.inner = None if self.inner is None else self.inner.clone()
        out.moves = list(self.moves)
        return out


class CardlabSpielState(pyspiel.State):
    """Chance picks the deal seed, then the cardlab engine plays the game."""

    def __init__(self, game: CardlabSpielGame) -> None:
        super().__init__(game)
        self.play = _Play(game.cardlab, game.deals)

    @property
    def inner(self) -> GameState | None:
        """The cardlab state (None until chance has dealt)."""
        return self.play.inner

    @property
    def moves(self) -> list[tuple[int, int]]:
        return self.play.moves

    def current_player(self) -> int:
        inner = self.play.inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.play.inner
        assert inner is not None and player == inner.current_player()
        return sorted(inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.play.deals
        return [(seed, p) for seed in range(self.play.deals)]

    def _apply_action(self, action: int) -> None:
        play = self.play
        if play.inner is None:
            play.inner = play.game.new_initial_state(int(action))
        else:
            play.moves.append((play.inner.current_player(), int(action)))
            play.inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        inner = self.play.inner
        live = inner is not None and not inner.is_terminal() and player == inner.current_player()
        if live and action in inner.legal_actions():  # type: ignore[union-attr]
            return inner.action_to_string(action)  # type: ignore[union-attr]
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.play.inner is not None and self.play.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.play.game.num_players
        return [float(x) for x in self.play.inner.returns()]  # type: ignore[union-attr]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> CardlabSpielState:
        """A copy with everything `player_id` cannot see redealt by the engine."""
        out = self.clone()
        if self.play.inner is not None:
            seed = int(probability_sampler() * 2**31)
            out.play.inner = self.play.inner.resample_from_infostate(player_id, seed)
        return out

    def __str__(self) -> str:
        if self.play.inner is None:
            return "deal pending"
        return f"{self.play.game.name} moves={self.play.moves}"


class CardlabObserver:
    """Tensor and string views for one seat (OpenSpiel's PyObserver protocol)."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding_for(game).size(game), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardlabSpielState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode_state(state.inner, player)

    def string_from(self, state: CardlabSpielState, player: int) -> str:
        if state.inner is None:
            return f"seat {player}: deal pending"
        text = json.dumps(state.inner.observation(player), sort_keys=True)
        if self.perfect_recall:
            own = [a for seat, a in state.moves if seat == player]
            text += f"\nown actions: {own}"
        return text


def _register() -> list[str]:
    done = []
    for name in list_games():
        if name not in LIMITS:
            continue
        try:
            game_type = _game_type(name)
        except AttributeError:  # an engine package that is not finished yet
            continue

        # pyspiel wants a class: a closure here makes the interpreter abort at exit
        cls = type(f"Cardlab_{name}_SpielGame", (CardlabSpielGame,), {"NAME": name})
        pyspiel.register_game(game_type, cls)
        done.append(short_name(name))
    return done


REGISTERED = _register()
"""The pyspiel short names registered by this import."""
