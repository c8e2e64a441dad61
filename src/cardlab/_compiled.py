"""Choose, at import, between the mypyc-compiled engines and the plain Python source.

Why here and standard-library only: `cardlab/__init__.py` calls `install()` before it
imports anything else of cardlab, so the choice covers every hot module (cardlab.core.rng
and cardlab.core.contract load with cardlab.core itself).

Where compiled modules come from:
- a source checkout (editable install, `make`): `scripts/build_compiled.py` builds them
  out of tree into build/mypyc/<key>/ and records each module's source sha256 in that
  directory's manifest.json; src/ never holds a compiled file.
- a wheel (`python -m build`, setup.py): the extensions sit beside the .py files and
  cardlab/_compiled.json records the same hashes.
The compiled module is used only when every compiled module's recorded hash matches the
.py on disk, so an edited source never runs its stale extension: all of them fall back to
Python together (mypyc compiles them as one group that calls itself natively), with one
warning saying `make` rebuilds. `CARDLAB_PURE=1` forces the plain source, at install time
and at import time. A finder placed first on sys.meta_path makes the choice for exactly the
compiled module names, so a stray extension beside a .py cannot shadow it either.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

MODULES: tuple[str, ...] = tuple(
    f"cardlab.games.{game}.{part}"
    for game in ("uptime", "runway", "supercomputer")
    for part in ("actions", "scoring", "resample", "state")
) + (
    "cardlab.agents.ismcts",
    "cardlab.agents.evaluation",
    "cardlab.core.rng",
    "cardlab.core.contract",
    "cardlab.core.trail",
    "cardlab.core.columns",
)
"""The hot modules mypyc compiles (profiles in docs/agents.md): each game's engine, the
ISMCTS search and what it calls per playout. The one list the build script, setup.py and
this loader share."""

PURE_ENV = "CARDLAB_PURE"
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
WHEEL_MANIFEST = "_compiled.json"
PACKAGE_DIR = Path(__file__).resolve().parent


class StaleBuildWarning(RuntimeWarning):
    """A compiled engine is older than its source: cardlab runs the plain Python instead."""


@dataclass
class Status:
    """What `install()` chose, and why (reported by cardlab.core.build)."""

    compiled: bool
    reason: str
    mypyc: str | None = None
    location: str | None = None
    files: dict[str, Path] = field(default_factory=dict)


def missing_toolchain() -> str | None:
    """Why this machine cannot compile the engines (install time), or None when it can."""
    import shutil

    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(cc.split()[0]) is None:
        return f"no C compiler ({cc!r} not found; e.g. apt-get install gcc)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"no Python headers ({header} missing; e.g. apt-get install python3-dev)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy)"
    return None


def pure_forced() -> bool:
    """True when CARDLAB_PURE is set to anything but '', '0' or 'false'."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The .py file of a cardlab module under `package_dir` (the cardlab package)."""
    parts = module.split(".")[1:]
    return package_dir.joinpath(*parts).with_suffix(".py")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checkout_root(package_dir: Path = PACKAGE_DIR) -> Path | None:
    """The source checkout holding this package (src/cardlab inside it), or None."""
    root = package_dir.parent.parent
    if package_dir.parent.name == "src" and (root / "pyproject.toml").is_file():
        return root
    return None


def cache_dir(root: Path) -> Path:
    return root / "build" / "mypyc"


def current_file(root: Path) -> Path:
    """Which keyed build is current, per Python ABI (two venvs can share a checkout)."""
    return cache_dir(root) / f"current{EXT_SUFFIX.removesuffix('.so')}.json"


def stale_modules(manifest: dict[str, object], package_dir: Path) -> list[str]:
    """The compiled modules whose .py no longer matches the hash recorded at build time."""
    recorded = manifest.get("modules")
    if not isinstance(recorded, dict):
        return list(MODULES)
    stale = []
    for module in MODULES:
        entry = recorded.get(module)
        src = source_path(module, package_dir)
        if not isinstance(entry, dict) or not src.is_file() or entry.get("sha256") != sha256(src):
            stale.append(module)
    return stale


def _read_json(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _from_manifest(
    manifest: dict[str, object], base: Path, package_dir: Path, where: str
) -> Status:
    """Compiled when the manifest is for this Python, its files exist and no source changed."""
    if not manifest.get("compiled"):
        return Status(False, str(manifest.get("reason") or "built without mypyc"))
    if manifest.get("ext_suffix") != EXT_SUFFIX:
        return Status(False, f"compiled for {manifest.get('ext_suffix')}, this is {EXT_SUFFIX}")
    recorded = manifest.get("modules")
    group = manifest.get("group")
    if not isinstance(recorded, dict) or not isinstance(group, str):
        return Status(False, f"unreadable build manifest in {base}")
    stale = stale_modules(manifest, package_dir)
    if stale:
        names = ", ".join(m.removeprefix("cardlab.") for m in stale)
        return Status(False, f"stale build: source changed since it was compiled ({names})")
    files = {m: base / str(recorded[m].get("file")) for m in MODULES}
    files[group] = base / f"{group}{EXT_SUFFIX}"
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        return Status(False, f"incomplete build: {missing[0]} is missing")
    return Status(True, where, str(manifest.get("mypyc")), str(base), files)


def decide(package_dir: Path = PACKAGE_DIR, forced_pure: bool | None = None) -> Status:
    """Which build this package runs: the checks of the module docstring, in order."""
    pure = forced_pure if forced_pure is not None else pure_forced()
    wheel = _read_json(package_dir / WHEEL_MANIFEST)
    root = checkout_root(package_dir)
    if wheel is None and root is None:
        # Neither a checkout nor a wheel: an out-of-tree copy such as build/mypyc/work/src
        # on PYTHONPATH (benchmarks/compare_builds.py); Python's import order applies.
        return Status(False, "a copied tree without a build manifest (Python's import order)")
    if pure:
        return Status(False, f"{PURE_ENV}=1 is set")
    if wheel is not None:
        return _from_manifest(wheel, package_dir.parent, package_dir, "installed wheel")
    assert root is not None
    current = _read_json(current_file(root))
    if current is None:
        return Status(False, "not compiled yet (`make` or scripts/build_compiled.py builds it)")
    if not current.get("compiled"):
        return Status(False, str(current.get("reason") or "not compiled"))
    base = cache_dir(root) / str(current.get("key"))
    manifest = _read_json(base / "manifest.json")
    if manifest is None:
        return Status(False, f"no manifest in {base} (`make` rebuilds)")
    return _from_manifest(manifest, base, package_dir, "editable checkout, build/mypyc")


class _Finder(importlib.abc.MetaPathFinder):
    """Loads exactly the compiled module names from the files `decide` chose."""

    def __init__(self, files: dict[str, Path], compiled: bool) -> None:
        self.files = files
        self.compiled = compiled

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        if self.compiled:
            loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
            return importlib.util.spec_from_file_location(fullname, file, loader=loader)
        return importlib.util.spec_from_file_location(fullname, file)


STATUS: Status | None = None


def install(package_dir: Path = PACKAGE_DIR) -> Status:
    """Decide once per process and put the finder first on sys.meta_path."""
    global STATUS
    if STATUS is not None:
        return STATUS
    status = decide(package_dir)
    if status.reason.startswith("stale build"):
        warnings.warn(
            f"cardlab: {status.reason}; running the plain Python engines. "
            "`make` (or python scripts/build_compiled.py) rebuilds them.",
            StaleBuildWarning,
            stacklevel=3,
        )
    if status.compiled:
        files = status.files
    elif status.reason.startswith("a copied tree"):
        files = {}
    else:
        # Pure Python, even if some extension sits beside a .py (a wheel with CARDLAB_PURE=1).
        files = {m: source_path(m, package_dir) for m in MODULES}
        files = {m: path for m, path in files.items() if path.is_file()}
    if files:
        sys.meta_path.insert(0, _Finder(files, status.compiled))
    STATUS = status
    return status
