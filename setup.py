"""Wheels carry the mypyc-compiled engines (issue 28): the build hook setuptools runs.

`python -m build` or `pip install .` compiles the hot modules (cardlab/_compiled.py
MODULES) with mypyc into extensions beside their .py files, and writes
cardlab/_compiled.json with each module's source sha256, which cardlab/_compiled.py checks
at import (an edited source never runs its stale extension). Without a C compiler, the
Python headers or mypy, or with CARDLAB_PURE=1, the wheel is pure Python and its
_compiled.json says why; either way the build prints which it made.
Editable installs and sdists compile nothing here: in a checkout the Makefile runs
scripts/build_compiled.py after `pip install -e .` (out of tree, cached by hash).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "_cardlab_compiled", HERE / "src/cardlab/_compiled.py"
)
assert _spec is not None and _spec.loader is not None
loader = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = loader  # dataclasses look their module up
_spec.loader.exec_module(loader)

PATHS = ["src/" + m.replace(".", "/") + ".py" for m in loader.MODULES]
BUILDS_BINARIES = {"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:])
EDITABLE = "editable_wheel" in sys.argv[1:] or "develop" in sys.argv[1:]


def _why_pure() -> str | None:
    if loader.pure_forced():
        return f"{loader.PURE_ENV}=1 at build time"
    return loader.missing_toolchain()  # type: ignore[no-any-return]


WHY_PURE = _why_pure() if BUILDS_BINARIES and not EDITABLE else "not a wheel build"
ext_modules = []
if WHY_PURE is None:
    from mypyc.build import mypycify

    config = HERE / "build" / "mypyc-wheel.ini"
    config.parent.mkdir(exist_ok=True)
    config.write_text(  # as scripts/build_compiled.py: only the compiled modules must check
        "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
        "[mypy-cardlab.*]\nignore_errors = True\n"
        + "".join(f"[mypy-{m}]\nignore_errors = False\n" for m in loader.MODULES)
    )
    ext_modules = mypycify(["--config-file", str(config), *PATHS], opt_level="3")
    print(f"cardlab: compiling {len(PATHS)} engine modules with mypyc", flush=True)
else:
    print(f"cardlab: pure Python engines ({WHY_PURE})", flush=True)


class BuildPyWithManifest(build_py):  # type: ignore[misc]
    """Adds cardlab/_compiled.json: what the wheel holds, for the import-time check."""

    def run(self) -> None:
        super().run()
        out = Path(self.build_lib) / "cardlab" / loader.WHEEL_MANIFEST
        if EDITABLE or not BUILDS_BINARIES:
            return
        manifest: dict[str, object]
        if ext_modules:
            from mypy.version import __version__

            group = next(e.name for e in ext_modules if e.name.endswith("__mypyc"))
            manifest = {
                "compiled": True,
                "mypyc": __version__,
                "ext_suffix": loader.EXT_SUFFIX,
                "group": group,
                "modules": {
                    m: {
                        "sha256": loader.sha256(HERE / p),
                        "file": m.replace(".", "/") + loader.EXT_SUFFIX,
                    }
                    for m, p in zip(loader.MODULES, PATHS, strict=True)
                },
            }
        else:
            manifest = {"compiled": False, "reason": f"a pure-Python wheel: {WHY_PURE}"}
        out.write_text(json.dumps(manifest, indent=1) + "\n")


setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPyWithManifest})
