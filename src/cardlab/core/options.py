"""Rule options: each game declares its options once (name, allowed values,
ruling default first) and every entry point validates against that list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.core.errors import OptionError

OptionValue = bool | int | str


@dataclass(frozen=True)
class OptionSpec:
    """One rule option. `allowed[0]` is the default (the ruling's reading)."""

    name: str
    allowed: tuple[OptionValue, ...]
    doc: str
    ruling: str = ""

    @property
    def default(self) -> OptionValue:
        return self.allowed[0]

    def parse(self, raw: Any) -> OptionValue:
        """Accept a value of the right type, or its text form (from a CLI or URL)."""
        for value in self.allowed:
            if raw == value and type(raw) is type(value):
                return value
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
        raise OptionError(
            f"option {self.name!r} cannot be {raw!r}; allowed values: {allowed} "
            f"(default {_show(self.default)})"
        )


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
