"""Which build of the engines this process runs: compiled with mypyc or pure Python.

Why: the compiled engines are several times faster (docs/agents.md "Compiled engines"), so
`cardlab --version` and `cardlab bench` say which one a figure comes from. The choice is
made at import by cardlab/_compiled.py; this module only reports it, checking each hot
module's `__file__` (an extension module ends in the platform's EXT_SUFFIX).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from cardlab import _compiled


@dataclass(frozen=True)
class BuildInfo:
    """The engines' build: which hot modules loaded compiled, and the reason when not."""

    compiled_modules: tuple[str, ...]
    pure_modules: tuple[str, ...]
    mypyc: str | None
    reason: str

    @property
    def compiled(self) -> bool:
        return bool(self.compiled_modules) and not self.pure_modules

    def text(self) -> str:
        """One line: "compiled (mypyc X)" or "pure Python (why)"."""
        if self.compiled:
            return f"compiled (mypyc {self.mypyc}, {len(self.compiled_modules)} modules)"
        if self.compiled_modules:
            listed = ", ".join(m.removeprefix("cardlab.") for m in self.pure_modules)
            return f"partly compiled (pure Python: {listed}; {self.reason})"
        return f"pure Python ({self.reason})"


def is_compiled(module: str) -> bool:
    """True when `module` (imported here if needed) loaded from a compiled extension."""
    file = getattr(importlib.import_module(module), "__file__", None) or ""
    return file.endswith(_compiled.EXT_SUFFIX)


def build_info() -> BuildInfo:
    """Import every hot module (they are what any game loads anyway) and report each."""
    status = _compiled.install()
    compiled = tuple(m for m in _compiled.MODULES if is_compiled(m))
    pure = tuple(m for m in _compiled.MODULES if m not in compiled)
    reason = status.reason if not status.compiled else "some modules did not load compiled"
    return BuildInfo(compiled, pure, status.mypyc if compiled else None, reason)
