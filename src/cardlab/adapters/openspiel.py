"""OpenSpiel games for cardlab: importing this module registers
``python_cardlab_uptime``, ``python_cardlab_runway`` and
``python_cardlab_supercomputer`` (those whose engine is installed) with pyspiel.

    import pyspiel, cardlab.adapters.openspiel
    game = pyspiel.load_game("python_cardlab_runway", {"players": 3})

Type: sequential, imperfect information, general-sum, terminal rewards (each
seat's final points, negated for a game the fewest points win, so a higher return
is always better), explicit stochastic chance.

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
- observation string: that observation as canonical JSON; tensor: the game's
  observation encoding (its package's ``encoding.py``, see ``cardlab.adapters.encoding``);
- information-state string: the observation plus the seat's own past actions
  (perfect recall: the observation carries the whole public log); tensor: the
  observation vector followed by the seat's own past actions, one slot per
  decision up to the engine's ``max_game_length()``, slot i = (action + 1) /
  num_distinct_actions, 0 when not yet taken. Two infostates that differ in the
  seat's own actions always differ in this tensor; the observation part is a
  summary of the public log, so two different public histories that leave the
  same summary (e.g. other seats' Draw and Pass in another order) can still share
  a tensor. The string is the exact perfect-recall view.

Utility bounds and the maximum game length are the engine's own
(`Game.utility_bounds()`, `Game.max_game_length()`, derived in each game's rules
doc); the maximum length adds 1 for the deal.

``resample_from_infostate(p, sampler)`` redeals what p cannot see with the
engine's resampler (the seed taken from ``sampler()``), so OpenSpiel's ISMCTS
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`) can search these games.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import pyspiel

from cardlab.adapters.encoding import encode_state, encoding_for, feature_names, has_encoding
from cardlab.adapters.table import points_sign
from cardlab.core import Game, GameState
from cardlab.core.registry import game_class, list_games, load_game

DEFAULT_DEALS = 10_000
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def implements_bounds(cls: type[Game]) -> bool:
    """Whether a game class derives its own `max_game_length` and `utility_bounds`."""
    return all(
        getattr(cls, m) is not getattr(Game, m) for m in ("max_game_length", "utility_bounds")
    )


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
        # one engine Game per parameter set: OpenSpiel makes a new game object for every
        # deserialisation, and a cardlab Game is immutable once made
        self.cardlab = _cached_game(name, players, None, tuple(sorted(merged.items())))
        # the engine's own bounds, derived from its rules and these options
        low, high = self.cardlab.utility_bounds()
        if points_sign(self.cardlab) < 0:  # penalty points: the returns are their negation
            low, high = -high, -low
        length = self.cardlab.max_game_length()
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

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pybind's own pickling restores only the C++ half (no __init__, no engine):
        # a game pickles as its OpenSpiel string, reloaded through this module (so the
        # unpickling process registers the games first)
        return _load_game, (str(self),)

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


@functools.lru_cache(maxsize=8)
def _deal_outcomes(deals: int) -> list[tuple[int, float]]:
    """The deal's chance outcomes, built once per deal count: building 10,000 tuples
    cost more than a whole random game."""
    p = 1.0 / deals
    return [(seed, p) for seed in range(deals)]


def _load_game(text: str) -> pyspiel.Game:
    """``pyspiel.load_game(text)``: how a pickled game is rebuilt."""
    return pyspiel.load_game(text)


@functools.lru_cache(maxsize=32)
def _cached_game(name: str, players: int, cards: str | None, options: tuple[Any, ...]) -> Game:
    return load_game(name, players=players, cards=cards, **dict(options))


def _replay(
    name: str,
    players: int,
    cards: str | None,
    options: tuple[Any, ...],
    deals: int,
    seed: int | None,
    moves: list[tuple[int, int]],
    redeals: list[tuple[int, int, int]],
) -> _Play:
    """A `_Play` rebuilt from its deal seed, moves and redeals (unpickling)."""
    play = _Play(_cached_game(name, players, cards, options), deals)
    if seed is None:
        return play
    play.seed = seed
    inner = play.game.new_initial_state(seed)
    pending = list(redeals)
    for i, (seat, action) in enumerate([*moves, (-1, -1)]):
        while pending and pending[0][0] == i:
            _, who, redeal_seed = pending.pop(0)
            inner = inner.resample_from_infostate(who, redeal_seed)
        if i == len(moves):
            break
        if inner.current_player() != seat:
            raise ValueError(f"replay of {name}: move {i} was seat {seat}'s, not to move now")
        inner.apply_action(action)
    play.inner, play.moves, play.redeals = inner, list(moves), list(redeals)
    play.settle()
    return play


class _Play:
    """The mutable part of a state.

    pyspiel clones a Python state by deep-copying each attribute: this one copies
    itself with the engine's cheap `clone` and shares the (immutable) game.
    pyspiel serialises a Python state as its history plus a pickle of its
    attributes: this one pickles as what determines it, the deal seed, the moves
    and any redeals (`resample_from_infostate`: when, for which seat, with which
    seed), and is rebuilt by replaying them, never as a dump of engine internals."""

    def __init__(self, game: Game, deals: int) -> None:
        self.game = game
        self.deals = deals
        self.seed: int | None = None  # the deal
        self.inner: GameState | None = None
        self.moves: list[tuple[int, int]] = []  # (seat, action) after the deal
        self.redeals: list[tuple[int, int, int]] = []  # (moves before it, seat, seed)
        self.player = CHANCE
        """`current_player()` as pyspiel wants it, kept by `settle` after every change of
        `inner`: pyspiel asks for it four times per decision (legal_actions, apply_action's
        checks), and reading an attribute is a third of asking the engine each time."""

    def settle(self) -> None:
        inner = self.inner
        if inner is None:
            self.player = CHANCE
        elif inner.is_terminal():
            self.player = TERMINAL
        else:
            self.player = inner.current_player()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        out = _Play(self.game, self.deals)
        out.seed = self.seed
        out.inner = None if self.inner is None else self.inner.clone()
        out.moves = list(self.moves)
        out.redeals = list(self.redeals)
        out.player = self.player
        return out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.game
        if game.variant is not None:
            raise NotImplementedError("serialising a cardlab game with a variant")
        cards = None if game.cards_path is None else str(game.cards_path)
        options = tuple(sorted(game.options.items()))
        args = (game.name, game.num_players, cards, options, self.deals, self.seed)
        return _replay, (*args, list(self.moves), list(self.redeals))


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
        return self.play.player

    def _legal_actions(self, player: int) -> list[int]:
        play = self.play
        assert play.inner is not None and player == play.player
        return sorted(play.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_deal_outcomes(self.play.deals))  # a copy: callers may change theirs

    def _apply_action(self, action: int) -> None:
        play = self.play
        inner = play.inner
        if inner is None:
            play.seed = int(action)
            play.inner = play.game.new_initial_state(play.seed)
        else:
            inner.apply_action(action)  # an illegal action raises here, recording nothing
            play.moves.append((play.player, action))
        play.settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        inner = self.play.inner
        live = inner is not None and not inner.is_terminal() and player == inner.current_player()
        if live and action in inner.legal_actions():  # type: ignore[union-attr]
            return inner.action_to_string(action)  # type: ignore[union-attr]
        return f"action {action}"

    def action_description(self, player: int, action: int) -> dict[str, Any]:
        """What a legal action of the player to move does (the engine's `Move` as JSON),
        beside `action_to_string`'s label; only the mover's legal actions are described."""
        inner = self.play.inner
        live = inner is not None and not inner.is_terminal() and player == inner.current_player()
        if not live or action not in inner.legal_actions():  # type: ignore[union-attr]
            raise ValueError(f"action {action} is not a legal action of player {player}")
        return inner.describe_action(action).to_json()  # type: ignore[union-attr]

    def is_terminal(self) -> bool:
        return self.play.player == TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.play.game.num_players
        sign = points_sign(self.play.game)  # penalty points: negated, higher is better
        return [sign * float(x) for x in self.play.inner.returns()]  # type: ignore[union-attr]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> CardlabSpielState:
        """A copy with everything `player_id` cannot see redealt by the engine.

        Its `history()` is this state's (OpenSpiel keeps the history on the C++
        side); what makes it a different world is recorded as a redeal (seat,
        seed, after how many moves), which its serialisation replays exactly."""
        out: CardlabSpielState = self.clone()
        if self.play.inner is not None:
            seed = int(probability_sampler() * 2**31)
            out.play.inner = self.play.inner.resample_from_infostate(player_id, seed)
            out.play.redeals.append((len(self.play.moves), player_id, seed))
            out.play.settle()
        return out

    def __str__(self) -> str:
        play = self.play
        if play.inner is None:
            return "deal pending"
        redeals = f" redeals={play.redeals}" if play.redeals else ""
        return f"{play.game.name} deal={play.seed} moves={play.moves}{redeals}"


class CardlabObserver:
    """Tensor and string views for one seat (OpenSpiel's PyObserver protocol).

    With perfect recall (the information state) the tensor is the observation vector
    followed by ``own_actions``: one slot per decision the seat can have taken (the
    engine's `max_game_length()`), slot i = (i-th own action + 1) / num_distinct_actions,
    0 for a decision not yet taken. `feature_names()` names every slot of the tensor.
    """

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = encoding_for(game).size(game)
        self.slots = game.max_game_length() if perfect_recall else 0
        self.tensor = np.zeros(size + self.slots, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[size:]

    def feature_names(self) -> list[str]:
        """One name per slot of `tensor`: the encoding's (``hand[up07]``, ...), then
        ``own_actions[i]`` with perfect recall."""
        names = feature_names(self.game)
        return names + [f"own_actions[{i}]" for i in range(self.slots)]

    def set_from(self, state: CardlabSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.inner is None:
            return
        obs = self.dict["observation"]
        obs[:] = encode_state(state.inner, player)
        if self.perfect_recall:
            own = [a for seat, a in state.moves if seat == player]
            if len(own) > self.slots:
                raise AssertionError(
                    f"{self.game.name}: seat {player} took {len(own)} decisions, more than "
                    f"max_game_length() = {self.slots}"
                )
            scale = float(self.game.num_distinct_actions)
            self.dict["own_actions"][: len(own)] = (np.asarray(own, np.float32) + 1.0) / scale

    def string_from(self, state: CardlabSpielState, player: int) -> str:
        if state.inner is None:
            return f"seat {player}: deal pending"
        obs = state.inner.observation(player)
        if not self.perfect_recall:
            # an observation is what the seat sees now, as the tensor is; the game's log
            # (the public history) belongs to the information state alone, and leaving
            # it out keeps the string's length flat over a game instead of growing
            obs = {k: v for k, v in obs.items() if k != "log"}
        text = json.dumps(obs, sort_keys=True)
        if self.perfect_recall:
            own = [a for seat, a in state.moves if seat == player]
            text += f"\nown actions: {own}"
        return text


def _register() -> list[str]:
    done = []
    for name in list_games():
        if not implements_bounds(game_class(name)) or not has_encoding(name):
            continue
        try:
            game_type = _game_type(name)
        except AttributeError:  # an engine package that is not finished yet
            continue

        # pyspiel wants a class: a closure here makes the interpreter abort at exit.
        # It is bound in this module under its own name, so pickle finds it (a game sent
        # to a multiprocessing or Ray worker, OpenSpiel's games_sim_test)
        cls_name = f"Cardlab_{name}_SpielGame"
        cls = type(cls_name, (CardlabSpielGame,), {"NAME": name, "__module__": __name__})
        cls.__qualname__ = cls_name
        globals()[cls_name] = cls
        pyspiel.register_game(game_type, cls)
        done.append(short_name(name))
    return done


REGISTERED = _register()
"""The pyspiel short names registered by this import."""
