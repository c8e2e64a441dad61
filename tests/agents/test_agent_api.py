"""make_agent, the agent registry and the text syntax for agent specs."""

import pytest

import cardlab
from cardlab.agents import (
    ISMCTSAgent,
    agent_parameters,
    kinds_for_game,
    parse_agent_list,
    parse_agent_spec,
)


def test_unknown_kind_lists_the_kinds():
    with pytest.raises(ValueError, match=r"unknown agent kind 'oracle'; kinds: .*greedy.*ismcts"):
        cardlab.make_agent("oracle")


def test_unknown_parameter_lists_the_parameters():
    with pytest.raises(ValueError, match=r"no parameter 'iter'.*iterations=None.*rollout_depth=12"):
        cardlab.make_agent("ismcts", iter=10)
    with pytest.raises(ValueError, match=r"'random'.*no parameter 'depth'.*parameters: none"):
        cardlab.make_agent("random", depth=3)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"iterations": 0}, "iterations must be a whole number > 0"),
        ({"iterations": 2.5}, "iterations must be a whole number"),
        ({"time_ms": -1}, "time_ms must be a number > 0"),
        ({"c": -0.1}, "c must be a number >= 0"),
        ({"rollout": "nope"}, "bad rollout policy 'nope'.*kinds:"),
        ({"rollout": "ismcts"}, "rollout cannot be 'ismcts'"),
        ({"normalise": "yes"}, "normalise must be true or false"),
    ],
)
def test_bad_ismcts_values_name_the_parameter_and_list_all(params, message):
    with pytest.raises(ValueError, match=message + ".*its parameters: iterations"):
        cardlab.make_agent("ismcts", **params)


def test_ismcts_defaults_to_deterministic_iterations():
    agent = cardlab.make_agent("ismcts", seed=4)
    assert isinstance(agent, ISMCTSAgent)
    assert agent.iterations == 1000 and agent.time_ms is None
    timed = cardlab.make_agent("ismcts", time_ms=50)
    assert timed.iterations is None and timed.time_ms == 50


def test_agent_parameters_come_from_the_signature():
    assert agent_parameters("random") == {}
    assert agent_parameters("ismcts")["c"] == 0.7


def test_parse_spec_converts_values():
    spec = parse_agent_spec("ismcts:iterations=300,c=0.5,rollout=greedy,rollout_depth=none")
    assert spec.kind == "ismcts"
    assert spec.params == {"iterations": 300, "c": 0.5, "rollout": "greedy", "rollout_depth": None}
    assert parse_agent_spec(spec.label) == spec


def test_parse_list_attaches_loose_parameters_to_the_previous_agent():
    specs = parse_agent_list("ismcts:iterations=300,c=0.5, greedy,random:")
    assert [s.kind for s in specs] == ["ismcts", "greedy", "random"]
    assert specs[0].params == {"iterations": 300, "c": 0.5}
    assert specs[1].params == {} and specs[2].params == {}


@pytest.mark.parametrize("text", ["c=0.5,ismcts", ":iterations=3", "ismcts:iterations"])
def test_parse_errors_say_what_is_wrong(text):
    with pytest.raises(ValueError, match="name=value|no kind|before any agent"):
        parse_agent_list(text)


def test_spec_make_uses_the_parameters():
    agent = parse_agent_spec("ismcts:iterations=7").make(seed=1)
    assert agent.iterations == 7 and agent.seed == 1


def test_kinds_for_game_excludes_other_games_personas():
    generic = {"random", "greedy", "ismcts"}
    games = set(cardlab.list_games())
    for game in games:
        kinds = set(kinds_for_game(game))
        assert generic <= kinds
        for other in games - {game}:
            foreign = set(kinds_for_game(other)) - generic
            assert not kinds & foreign
