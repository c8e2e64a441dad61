"""Rule options: each game declares its options once (name, allowed values,
ruling default first) and every entry point validates against that list.

A **rule lever** is an option that changes a rule of the rulebook rather than
reading an unclear one: its default is the rule as written, and it says which
passage it changes and what a designer would try it for (`Lever`). An integer
lever may take any whole number in ``[low, high]`` (`allowed` then lists the
values the lobby and the tuner's first grid show, the default first). Levers
are ordinary options everywhere (``-o``, variants, the table, print); declaring
one is a single `lever(...)` entry in the game's ``option_specs``."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.core.errors import OptionError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Lever:
    """What makes an option a rule lever: the rulebook passage it changes and
    what a designer would try it for (both shown in the rules doc, `cardlab games`,
    `cardlab tune --list` and the lobby's rules options)."""

    passage: str
    purpose: str
    says: str = ""
    """Optional: the changed rule in rulebook words, formatted with the value
    (``"At the end of your turn, discard down to {value} cards."``); the print's
    rules sheet of a variant uses it. Empty: the sheet falls back to the doc."""

    def rule_text(self, value: OptionValue, doc: str = "") -> str:
        """The changed rule in words for `value` (the `says` template, else the doc)."""
        shown = _show(value)
        if self.says:
            return self.says.format(value=shown)
        return f"{doc}: {shown}" if doc else shown


@dataclass(frozen=True)
class OptionSpec:
    """One rule option. `allowed[0]` is the default (the ruling's reading, or for a
    lever the rule as written). With `low`/`high` (integers) any whole number in that
    range is accepted as well as the listed values."""

    name: str
    allowed: tuple[OptionValue, ...]
    doc: str
    ruling: str = ""
    lever: Lever | None = None
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if not self.allowed:
            raise ValueError(f"option {self.name!r} lists no allowed value")
        if (self.low is None) != (self.high is None):
            raise ValueError(f"option {self.name!r}: give both low and high, or neither")
        if self.low is not None and self.high is not None:
            if self.low > self.high:
                raise ValueError(f"option {self.name!r}: low {self.low} is above high {self.high}")
            for value in self.allowed:
                if type(value) is not int:
                    raise ValueError(f"option {self.name!r}: a ranged option takes integers")

    @property
    def default(self) -> OptionValue:
        return self.allowed[0]

    @property
    def is_lever(self) -> bool:
        return self.lever is not None

    def in_range(self, value: int) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high

    def parse(self, raw: Any) -> OptionValue:
        """Accept a value of the right type, or its text form (from a CLI or URL)."""
        for value in self.allowed:
            if raw == value and type(raw) is type(value):
                return value
        if self.low is not None:
            number: Any = raw
            if isinstance(raw, str):
                with contextlib.suppress(ValueError):
                    number = int(raw.strip())
            if type(number) is int and self.in_range(number):
                return number
        if isinstance(raw, str):
            text = raw.strip().lower()
            for value in self.allowed:
                if isinstance(value, bool):
                    if text in (
                        ("true", "1", "yes", "on") if value else ("false", "0", "no", "off")
                    ):
                        return value
                elif str(value).lower() == text:
                    return value
        allowed = ", ".join(_show(v) for v in self.allowed)
        if self.low is not None:
            allowed += f", or any whole number from {self.low} to {self.high}"
        raise OptionError(
            f"option {self.name!r} cannot be {raw!r}; allowed values: {allowed} "
            f"(default {_show(self.default)})"
        )


def lever(
    name: str,
    allowed: tuple[OptionValue, ...],
    doc: str,
    *,
    passage: str,
    purpose: str,
    low: int | None = None,
    high: int | None = None,
    says: str = "",
) -> OptionSpec:
    """A rule lever: `allowed[0]` must be the rule as written. `passage` names (or
    quotes) the rulebook text it changes; `purpose` says what a designer would try it
    for; `says` (optional) is the changed rule as a sentence with ``{value}`` in it,
    for the printed rules sheet of a variant. One call in the game's
    ``option_specs`` is all a lever needs."""
    if says:
        try:
            says.format(value="1")
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(
                f"lever {name!r}: says {says!r} is not a template with only {{value}} ({exc})"
            ) from None
    return OptionSpec(
        name, allowed, doc, "lever", Lever(passage=passage, purpose=purpose, says=says), low, high
    )


def levers(specs: Sequence[OptionSpec]) -> tuple[OptionSpec, ...]:
    """The options of `specs` that are rule levers, in declaration order."""
    return tuple(spec for spec in specs if spec.lever is not None)


def _show(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def resolve_options(
    game: str, specs: Sequence[OptionSpec], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Every option with its value: the given ones parsed, the rest defaulted."""
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"{game} has no rule option {name!r}; its options are: {known}")
    return {
        spec.name: spec.parse(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Turn CLI `key=value` strings into a dict; a malformed pair is an OptionError."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not of the form name=value")
        out[key.strip()] = value.strip()
    return out
