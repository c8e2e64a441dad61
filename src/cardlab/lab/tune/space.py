"""The search space of a tuning run: what may change, and from what.

Every rule option of the game is a parameter (its allowed values; the
default is the rulebook's reading or our ruling), every rule lever (an
integer lever over its whole range, searched as an Optuna integer; a listed
one as a categorical), and every card number the game declares tunable in
its `GameInfo.tunables`, with its range. Each
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
    kind: str = ""  # "option", "lever" or "card" (empty: from the name)
    grid: tuple[Any, ...] = ()
    """An integer lever's listed values: the single changes try these and its ends."""

    @property
    def is_option(self) -> bool:
        return self.name.startswith("option:")

    @property
    def kind_name(self) -> str:
        return self.kind or ("option" if self.is_option else "card")

    @property
    def is_int_range(self) -> bool:
        """Searched as an Optuna integer over low..high (an integer lever)."""
        return self.kind == "lever" and not self.choices

    def describe_range(self) -> str:
        """What the parameter may take, for `cardlab tune --list`."""
        if self.choices:
            return "|".join(_word(v) for v in self.choices)
        step = "" if float(self.step) == 1.0 else f" by {self.step:g}"
        return f"{self.low:g}..{self.high:g}{step}"

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


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def search_space(
    info: GameInfo,
    options: bool = True,
    cards: bool = True,
    fixed: dict[str, Any] | None = None,
    start: tuple[CardChange, ...] = (),
) -> list[Parameter]:
    """The game's parameters: its rule options and levers, then its tunable card
    numbers. Options in `fixed` (set with ``-o`` or by the start variant) are not
    searched; a card number the start variant changes starts from its value there."""
    started = {c.path: c.value for c in start}
    params: list[Parameter] = []
    if options:
        for spec in info.game_class().option_specs:
            if fixed and spec.name in fixed:
                continue
            if spec.lever is not None and spec.low is not None and spec.high is not None:
                params.append(
                    Parameter(
                        f"option:{spec.name}",
                        spec.default,
                        low=spec.low,
                        high=spec.high,
                        about=spec.doc,
                        kind="lever",
                        grid=tuple(spec.allowed),
                    )
                )
                continue
            params.append(
                Parameter(
                    f"option:{spec.name}",
                    spec.default,
                    choices=tuple(spec.allowed),
                    about=spec.doc,
                    kind="lever" if spec.lever is not None else "option",
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
            base = started[path] if path in started else packaged_value(info.package_dir(), path)
            params.append(
                Parameter(
                    t.target,
                    base,
                    choices=t.choices,
                    low=t.low,
                    high=t.high,
                    step=t.step,
                    about=t.about,
                    kind="card",
                )
            )
    return params


def variant_of(
    info: GameInfo,
    params: list[Parameter],
    values: dict[str, Any],
    title: str,
    fixed: dict[str, Any] | None = None,
    start: tuple[CardChange, ...] = (),
) -> Variant:
    """The variant that sets `values` (only the ones that differ from the baseline),
    on top of the `fixed` options every trial plays with and the start variant's card
    changes (`start`)."""
    options: dict[str, Any] = dict(fixed or {})
    by_path = {c.path: c for c in start}
    for p in params:
        if p.name not in values or values[p.name] == p.baseline:
            continue
        if p.is_option:
            options[p.key] = values[p.name]
        else:
            # the why (its measured effect) is written by the confirmation (confirm.py)
            by_path[p.key] = CardChange(p.key, values[p.name])
    return Variant(
        game=info.name, name="tuned", title=title, options=options, changes=tuple(by_path.values())
    )


def changed(params: list[Parameter], values: dict[str, Any]) -> list[str]:
    return [p.name for p in params if p.name in values and values[p.name] != p.baseline]


def list_tunables(info: GameInfo, fixed: dict[str, Any] | None = None) -> str:
    """Every parameter `cardlab tune` searches, by kind, with its range or choices
    and its default (the rule as written, the packaged number): `cardlab tune --list`."""
    specs = {spec.name: spec for spec in info.game_class().option_specs}
    params = search_space(info, fixed=fixed)
    lines = [f"{info.name}: {len(params)} tunables (default = as written)"]
    for kind, heading in (
        ("lever", "rule levers (change a rule of the rulebook)"),
        ("option", "rule options (readings of the rulebook)"),
        ("card", "card numbers"),
    ):
        group = [p for p in params if p.kind_name == kind]
        if not group:
            continue
        lines.append(f"{heading}: {len(group)}")
        for p in group:
            what = f"  {p.key} = {p.describe_range()}  default {_word(p.baseline)}"
            if kind == "lever":
                what += "  (Optuna int)" if p.is_int_range else "  (categorical)"
            lines.append(what)
            if p.about:
                lines.append(f"      {p.about}")
            if kind == "lever" and specs[p.key].lever is not None:
                lev = specs[p.key].lever
                assert lev is not None
                lines.append(f"      changes: {lev.passage}")
                lines.append(f"      try it to: {lev.purpose}")
    for name, value in (fixed or {}).items():
        lines.append(f"fixed by -o (not searched): {name} = {_word(value)}")
    return "\n".join(lines)
