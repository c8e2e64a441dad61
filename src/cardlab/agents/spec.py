"""Agent specs as text: `ismcts:iterations=300,c=0.5` names a kind and its parameters.

One parser for the CLI (`--bots`, `--agents`), the playtest lab and the web
table, so the syntax is the same everywhere. In a list, items are separated by
commas; an item with `=` but no `:` continues the previous agent's parameters:
`ismcts:iterations=300,c=0.5,greedy,random` is three agents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardlab.agents.base import Agent, make_agent
from cardlab.core.errors import CardlabError


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    params: dict[str, Any] = field(default_factory=dict)

    def make(self, seed: int) -> Agent:
        return make_agent(self.kind, seed=seed, **self.params)

    @property
    def label(self) -> str:
        """The spec as text again (round-trips through `parse_agent_spec`)."""
        if not self.params:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())


def parse_value(text: str) -> Any:
    """`300` -> int, `0.5` -> float, `true`/`false` -> bool, `none` -> None, else the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for convert in (int, float):
        try:
            return convert(low)
        except ValueError:
            pass
    return text.strip()


def _param(pair: str, kind: str) -> tuple[str, Any]:
    key, sep, value = pair.partition("=")
    if not sep or not key.strip():
        raise CardlabError(f"agent {kind!r}: parameter {pair!r} is not of the form name=value")
    return key.strip(), parse_value(value)


def parse_agent_spec(text: str) -> AgentSpec:
    """`"ismcts:iterations=300,c=0.5"` -> AgentSpec("ismcts", {"iterations": 300, "c": 0.5})."""
    kind, _, rest = text.strip().partition(":")
    if not kind.strip():
        raise CardlabError(f"agent spec {text!r} has no kind (expected kind or kind:name=value)")
    params = dict(_param(p, kind) for p in rest.split(",") if p.strip())
    return AgentSpec(kind.strip(), params)


def parse_agent_list(text: str) -> list[AgentSpec]:
    """`"ismcts:iterations=300,c=0.5,greedy"` -> two specs (see the module docstring)."""
    specs: list[AgentSpec] = []
    for item in (i.strip() for i in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item:
            if not specs:
                raise CardlabError(f"parameter {item!r} comes before any agent kind in {text!r}")
            last = specs.pop()
            key, value = _param(item, last.kind)
            specs.append(AgentSpec(last.kind, {**last.params, key: value}))
        else:
            specs.append(parse_agent_spec(item))
    return specs


def check_agent_specs(specs: list[AgentSpec]) -> None:
    """Build each agent once so a bad kind or parameter fails before any game starts."""
    for spec in specs:
        spec.make(seed=0)
