"""Write tests/durations.json from a run's JUnit report (`make test` writes
artifacts/junit.xml): each test that took at least SLOW_SECONDS, with its time.

tests/conftest.py marks those tests `slow`, so `make test-fast` (pytest -m "not slow")
is the inner loop of a few minutes while `make test` still runs everything. The list is
measured, not guessed: run `make test`, then `make slow-list`, and commit the file."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW_SECONDS = 1.0


def node_id(classname: str, name: str) -> str | None:
    """JUnit's dotted classname back to pytest's node id (a test class stays a part)."""
    parts = [p for p in classname.split(".") if p]
    for cut in range(len(parts), 0, -1):
        path = Path(*parts[:cut]).with_name(parts[cut - 1] + ".py")
        if (ROOT / path).is_file():
            return "::".join([path.as_posix(), *parts[cut:], name])
    return None


def main(report: str = "artifacts/junit.xml", out: str = "tests/durations.json") -> int:
    slow: dict[str, float] = {}
    for case in ET.parse(ROOT / report).iter("testcase"):
        seconds = float(case.get("time") or 0)
        nid = node_id(case.get("classname", ""), case.get("name", ""))
        if nid and seconds >= SLOW_SECONDS:
            slow[nid] = max(round(seconds, 1), slow.get(nid, 0.0))
    (ROOT / out).write_text(json.dumps(dict(sorted(slow.items())), indent=0) + "\n")
    print(f"{len(slow)} tests of {SLOW_SECONDS:.0f} s or more written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
