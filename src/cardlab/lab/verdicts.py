"""What a claim's verdict means: kinds, verdicts, and the rulings a verdict rests on.

A rulebook makes two sorts of claims, and a gate that mixes them misleads:

- `design` claims are promises about play ("both styles are viable", "a game lasts
  25-30 minutes") that simulation can refute. Only these count toward the gate.
- `invariant` claims are guaranteed by the engine ("Pass is always legal", "one
  pitch per Deal"): a simulation cannot make them fail unless the engine is broken,
  so they are shown apart, as a regression check, and never counted as holding.

Verdicts:

- `holds`: measured, and the claim's stated test passed;
- `fails`: measured, and it did not;
- `needs_data`: measured, but the evidence cannot decide either way (a range that
  straddles the target, intervals too wide), with what would decide it;
- `untestable`: the lab cannot measure it (no sample, no engine hook), with the reason.

A claim is judged first under the rulebook as written. Where one of our rulings
(docs/rules/<game>.md, e.g. U13) changes the verdict, the claim lists the rulings in
`rests_on` and carries the verdict under them in `with_rulings`, so a designer sees
both: "fails as written; holds only with ruling U13".

The JSON shape (one entry of report.json `claims`) is documented in docs/lab.md and
kept stable for `cardlab tune` (issue 15).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

DESIGN, INVARIANT = "design", "invariant"
KINDS = (DESIGN, INVARIANT)

HOLDS, FAILS, UNTESTABLE, NEEDS_DATA = "holds", "fails", "untestable", "needs_data"
VERDICTS = (HOLDS, FAILS, NEEDS_DATA, UNTESTABLE)


@dataclass
class Verdict:
    """One judgement with its evidence.

    `with_rulings` is the same claim judged under our rulings when they change the
    verdict (set by the claim with `resting_on`); `note` is a plain sentence shown
    beside the verdict (e.g. why a claim is circular)."""

    verdict: str
    evidence: dict[str, Any] = field(default_factory=dict)
    rests_on: tuple[str, ...] = ()
    with_rulings: Verdict | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")

    def resting_on(self, rulings: Iterable[str], ruled: Verdict, note: str = "") -> Verdict:
        """This verdict (the rulebook as written) beside `ruled` (under `rulings`).

        When both agree the rulings change nothing and are not listed: `rests_on`
        names only rulings the verdict depends on."""
        ids = tuple(rulings)
        if ruled.verdict == self.verdict:
            self.evidence["under_rulings_too"] = {"rulings": list(ids), "verdict": ruled.verdict}
            return self
        self.rests_on = ids
        self.with_rulings = ruled
        self.note = note or (
            f"{self.verdict} as written; {ruled.verdict} only with ruling {', '.join(ids)}"
        )
        return self

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "evidence": self.evidence,
            "rests_on": list(self.rests_on),
            "with_rulings": None,
            "note": self.note,
        }
        if self.with_rulings is not None:
            out["with_rulings"] = {
                "rulings": list(self.rests_on),
                "verdict": self.with_rulings.verdict,
                "evidence": self.with_rulings.evidence,
            }
        return out


def verdict(ok: bool, **evidence: Any) -> Verdict:
    """`holds` when `ok` (a computed condition), else `fails`, with evidence."""
    return Verdict(HOLDS if ok else FAILS, evidence)


def judged(ok: bool | None, **evidence: Any) -> Verdict:
    """Three-way: True holds, False fails, None needs more data."""
    if ok is None:
        return Verdict(NEEDS_DATA, evidence)
    return verdict(ok, **evidence)


def untestable(reason: str, **evidence: Any) -> Verdict:
    return Verdict(UNTESTABLE, {"reason": reason, **evidence})


def needs_data(reason: str, **evidence: Any) -> Verdict:
    return Verdict(NEEDS_DATA, {"reason": reason, **evidence})


def counts(claims: Iterable[dict[str, Any]], kind: str = DESIGN) -> dict[str, int]:
    """Verdict counts over report.json claims of one kind (design by default):
    the gate's score, as `cardlab tune` reads it."""
    out = dict.fromkeys(VERDICTS, 0)
    for c in claims:
        if c.get("kind", DESIGN) == kind:
            out[c["verdict"]] += 1
    return out
