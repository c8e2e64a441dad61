"""Build the optional mypyc-compiled engines into build/compiled/ (never into src/).

Why out of tree: the plain-Python source in src/ stays the reference and the default;
`make test` and the editable install never see a compiled module. This script copies
src/ to build/compiled/src/ and compiles the hot modules there in place, so a run with
`PYTHONPATH=build/compiled/src` imports the extension modules (an extension module wins
over a .py of the same name) and everything else as plain Python from the copy.

Usage: python scripts/build_compiled.py [--check]
  --check   exit 3 with a clear message if no C compiler or Python headers are present
            (the Makefile uses it to skip the compiled run cleanly).
Plain against compiled speed: `make measure-compiled` (benchmarks/compare_builds.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "compiled"
GAMES = ("uptime", "runway", "supercomputer")
ENGINE_MODULES = ("actions", "scoring", "resample", "state")
MODULES = [f"cardlab/games/{g}/{m}.py" for g in GAMES for m in ENGINE_MODULES] + [
    "cardlab/agents/ismcts.py",
    "cardlab/agents/evaluation.py",
    "cardlab/core/rng.py",
    "cardlab/core/contract.py",
]
"""The hot modules (profiles in docs/agents.md): each game's engine, the ISMCTS search and
what it calls per playout (the evaluation; `break_ties`, which ranks every finished copy)."""


def missing_toolchain() -> str | None:
    """Why this machine cannot build C extensions, or None when it can."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(cc.split()[0]) is None:
        return f"no C compiler ({cc!r} not found; e.g. apt-get install gcc)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"no Python headers ({header} missing; e.g. apt-get install python3-dev)"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    return None


def build() -> None:
    """Copy src/ and compile MODULES in place in the copy, then check they are what loads."""
    src = OUT / "src"
    # Replace the package, keep mypy's cache and mypyc's C files beside it (incremental).
    shutil.rmtree(src / "cardlab", ignore_errors=True)
    shutil.copytree(
        ROOT / "src" / "cardlab",
        src / "cardlab",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"),
    )
    compiled = [m.removesuffix(".py").replace("/", ".") for m in MODULES]
    config = OUT / "mypyc.ini"
    config.write_text(
        # Plain (not strict) mypy: mypyc needs a consistent program; the project's strict
        # config covers cardlab.core. Modules that stay Python only inform the compiled
        # ones' types, so their own looseness is ignored; the compiled ones must check.
        "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
        "[mypy-cardlab.*]\nignore_errors = True\n"
        + "".join(f"[mypy-{m}]\nignore_errors = False\n" for m in compiled)
    )
    setup = OUT / "setup_mypyc.py"
    args = ["--config-file", str(config), *MODULES]
    setup.write_text(
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='cardlab-compiled', ext_modules=mypycify({args!r}, opt_level='3'))\n"
    )
    cmd = [sys.executable, str(setup), "build_ext", "--inplace", "--build-temp", str(OUT / "tmp")]
    print(f"compiling {len(MODULES)} modules with mypyc (about a minute)...", flush=True)
    done = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    if done.returncode:
        sys.stdout.write(done.stdout[-20000:])
        sys.stderr.write(done.stderr[-20000:])
        raise SystemExit(f"mypyc build failed (exit {done.returncode}); src/ is untouched")
    check = "import importlib,sys; sys.exit(any(not importlib.import_module(m).__file__.endswith('.so') for m in sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=str(src))
    if subprocess.run([sys.executable, "-c", check, *compiled], env=env).returncode:
        raise SystemExit("the compiled modules do not load in place of the Python ones")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the toolchain")
    args = parser.parse_args()
    why = missing_toolchain()
    if why:
        print(f"compiled engines skipped: {why}", file=sys.stderr)
        return 3
    if args.check:
        return 0
    build()
    print(f"compiled engines built in {OUT / 'src'} (use PYTHONPATH={OUT / 'src'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
