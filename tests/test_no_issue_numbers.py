"""No comment, docstring or document in src/ or tests/ cites an issue or task number.

Comments say why, not when: an issue number means nothing to the next engineer, who
reads the code without the tracker and needs the rule or behaviour itself. Say what
the code does and why it must; the history of who asked for it belongs in git."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("src", "tests")
SUFFIXES = {".py", ".js", ".html", ".css", ".tmpl", ".toml", ".md"}
CITATION = re.compile(r"\b(issue|issues|task)s? #?[0-9]+", re.IGNORECASE)


def _files() -> list[Path]:
    this = Path(__file__).resolve()
    out: list[Path] = []
    for name in SCANNED:
        for path in sorted((ROOT / name).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file() or path.resolve() == this:
                continue
            parts = path.relative_to(ROOT).parts
            if "__pycache__" in parts or any(p.startswith(".") for p in parts):
                continue
            out.append(path)
    return out


def test_no_file_in_src_or_tests_cites_an_issue_number() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {match.group(0)}"
        for path in _files()
        for n, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1)
        for match in CITATION.finditer(line)
    ]
    assert not found, "say why, not which issue asked for it:\n" + "\n".join(found)
