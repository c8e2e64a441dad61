"""Nothing in the repository cites a file outside it: each
ruling's id and text live in docs/rules/<game>.md, and code and docs point there.

KNOWN lists the citations that remain in files other helpers own, so a new one
fails here while those are being rewritten; delete an entry when its file is
fixed (the test says which are fixed)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"\.\./shared|shared/rulings|shared/seeds|/work/shared|\bseeds/\d")
SCANNED = ("src", "docs", "tests", "README.md", "DEVELOPERS.md", "SECURITY.md", "pyproject.toml")
KNOWN: set[str] = set()


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            out.append(path)
        else:
            out += [p for p in path.rglob("*") if p.suffix in {".py", ".md", ".toml", ".tmpl",
                    ".html", ".js", ".txt"} and "__pycache__" not in p.parts]  # fmt: skip
    return out


def test_nothing_cites_a_file_outside_the_repository() -> None:
    this = Path(__file__).resolve()
    citing = {
        str(p.relative_to(ROOT))
        for p in _files()
        if p.resolve() != this and OUTSIDE.search(p.read_text("utf-8", errors="replace"))
    }
    assert citing <= KNOWN, f"cites a file outside the repository: {sorted(citing - KNOWN)}"
    fixed = KNOWN - citing
    if fixed:
        print(f"no longer citing outside the repo, remove from KNOWN: {sorted(fixed)}")
