"""The search space of a tuning run: what may change, and from what.

Every rule option of the game is a parameter (its allowed values; the
default is the rulebook's reading or our ruling), and so is every card number
the game declares tunable in its `GameInfo.tunables`, with its range. Each
parameter's baseline is the game as written: the option default, the number
in the packaged card file. A trial is a set of values; the parameters whose
value differs from the baseline are the change a designer would make."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardlab.core import CardlabError
from cardlab.core.plugin import GameInfo
from cardlab.core.variants import CardChange, Variant, packaged_value


@dataclass(frozen=True)
class Parameter:
    """One thing a trial may change: `choices` for options and categorical card values
    (words such as a connector colour), `low..high` by `step` for numbers."""

    name: str  # "option:<name>" or "cards:<path>"
    baseline: Any
    choices: tuple[Any, ...] = ()
    low: float = 0.0
    high: float = 0.0
    step: float = 1.0
    about: str = ""

    @property
    def is_option(self) -> bool:
        return self.name.startswith("option:")

    @property
    def key(self) -> str:
        return self.name.split(":", 1)[1]

    def values(self) -> list[Any]:
        """Every value this parameter may take (options and words: their choices)."""
        if self.choices:
            return list(self.choices)
        out: list[Any] = []
        integer = float(self.step).is_integer() and float(self.low).is_integer()
        v = self.low
        while v <= self.high + 1e-9:
            out.append(int(round(v)) if integer else round(v, 6))
            v += self.step
        return out


def search_space(info: GameInfo, options: bool = True, cards: bool = True) -> list[Parameter]:
    """The game's parameters: its rule options, then its tunable card numbers."""
    params: list[Parameter] = []
    if options:
        for spec in info.game_class().option_specs:
            params.append(
                Parameter(
                    f"option:{spec.name}",
                    spec.default,
                    choices=tuple(spec.allowed),
                    about=spec.doc,
                )
            )
    if cards:
        for t in info.tunables:
            if t.target.startswith("option:"):
                continue  # options are all in already
            if not t.target.startswith("cards:"):
                raise CardlabError(
                    f"{info.name}: tunable {t.target!r} is neither option: nor cards:"
                )
            path = t.target.split(":", 1)[1]
            base = packaged_value(info.package_dir(), path)
            params.append(
                Parameter(
                    t.target,
                    base,
                    choices=t.choices,
                    low=t.low,
                    high=t.high,
                    step=t.step,
                    about=t.about,
                )
            )
    return params


def variant_of(
    info: GameInfo, params: list[Parameter], values: dict[str, Any], title: str
) -> Variant:
    """The variant that sets `values` (only the ones that differ from the baseline)."""
    options: dict[str, Any] = {}
    changes: list[CardChange] = []
    for p in params:
        if p.name not in values or values[p.name] == p.baseline:
            continue
        if p.is_option:
            options[p.key] = values[p.name]
        else:
            why = f"{p.about + ': ' if p.about else ''}{p.baseline} -> {values[p.name]} (found by cardlab tune)"
            changes.append(CardChange(p.key, values[p.name], why))
    return Variant(
        game=info.name, name="tuned", title=title, options=options, changes=tuple(changes)
    )


def changed(params: list[Parameter], values: dict[str, Any]) -> list[str]:
    return [p.name for p in params if p.name in values and values[p.name] != p.baseline]
