"""Build the mypyc-compiled engines into build/mypyc/ (never into src/), once per source.

Why out of tree: src/ stays the plain-Python reference that `CARDLAB_PURE=1` runs, and an
edited .py can never be shadowed by a stale extension beside it. The hot modules
(cardlab/_compiled.py MODULES) are compiled in a copy of src/ (build/mypyc/work/src) and
their extensions are published to build/mypyc/<key>/ with a manifest.json recording each
module's source sha256; build/mypyc/current<abi>.json names the current key. At import,
cardlab/_compiled.py loads those extensions only while every hash still matches src/.
The key hashes the sources, mypyc's version, the Python ABI and BUILD_FORMAT, so an
unchanged tree is not compiled again ("up to date" in well under a second).

Usage: python scripts/build_compiled.py [--check | --fallback]
  (none)      build if needed; without a C compiler, Python headers or mypy, record
              "pure Python (why)" and exit 0; a mypyc error fails (exit 1).
  --fallback  as above, but a mypyc error too records pure Python and exits 0 (installs).
  --check     exit 3 with the reason if the toolchain is missing, 0 if present.
CARDLAB_PURE=1 records pure Python without compiling. Plain against compiled speed:
`make measure-compiled` (benchmarks/compare_builds.py on build/mypyc/work/src).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "mypyc"
WORK = CACHE / "work"
BUILD_FORMAT = "mypyc opt_level 3, v1"  # change it when this script compiles differently
KEEP = 3  # keyed builds kept per ABI (a running process may still import an older one)


def _loader() -> ModuleType:
    """src/cardlab/_compiled.py, loaded on its own (standard library only)."""
    spec = importlib.util.spec_from_file_location(
        "_cardlab_compiled", ROOT / "src/cardlab/_compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


LOADER = _loader()
MODULES: tuple[str, ...] = LOADER.MODULES
PATHS = [m.replace(".", "/") + ".py" for m in MODULES]


def missing_toolchain() -> str | None:
    """Why this machine cannot build C extensions, or None when it can."""
    return LOADER.missing_toolchain()  # type: ignore[no-any-return]


def mypyc_version() -> str:
    from mypy.version import __version__

    return str(__version__)


def build_key(src: Path) -> tuple[str, dict[str, str]]:
    """The cache key of the sources under `src` and their per-module sha256."""
    hashes = {m: LOADER.sha256(src / p) for m, p in zip(MODULES, PATHS, strict=True)}
    inputs = [hashes, mypyc_version(), LOADER.EXT_SUFFIX, BUILD_FORMAT]
    return hashlib.sha256(json.dumps(inputs).encode()).hexdigest()[:16], hashes


def _write_json(path: Path, data: dict[str, object]) -> None:
    """Atomically: a reader sees the old file or the new one, never half of one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def record_pure(reason: str) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    _write_json(LOADER.current_file(ROOT), {"compiled": False, "reason": reason})
    print(f"cardlab engines: pure Python ({reason})")


def compile_copy() -> tuple[Path, str, dict[str, str]]:
    """Copy src/ to the work tree and compile MODULES in place there; return it, its key."""
    src = WORK / "src"
    shutil.rmtree(src / "cardlab", ignore_errors=True)  # keep mypy's cache and the C files
    shutil.copytree(
        ROOT / "src" / "cardlab",
        src / "cardlab",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "_compiled.json"),
    )
    key, hashes = build_key(src)  # the copy's hashes: exactly what was compiled
    config = WORK / "mypyc.ini"
    config.write_text(
        # Plain (not strict) mypy: mypyc needs a consistent program; the project's strict
        # config covers cardlab.core. Modules that stay Python only inform the compiled
        # ones' types, so their own looseness is ignored; the compiled ones must check.
        "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
        "[mypy-cardlab.*]\nignore_errors = True\n"
        + "".join(f"[mypy-{m}]\nignore_errors = False\n" for m in MODULES)
    )
    setup = WORK / "setup_mypyc.py"
    args = ["--config-file", str(config), *PATHS]
    setup.write_text(
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='cardlab-compiled', ext_modules=mypycify({args!r}, opt_level='3'))\n"
    )
    cmd = [sys.executable, str(setup), "build_ext", "--inplace", "--build-temp", str(WORK / "tmp")]
    print(
        f"compiling {len(MODULES)} engine modules with mypyc {mypyc_version()} (a few minutes)...",
        flush=True,
    )
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    log = WORK / "build.log"
    log.write_text(done.stdout + done.stderr)
    if done.returncode:
        sys.stdout.write(done.stdout[-20000:])
        sys.stderr.write(done.stderr[-20000:])
        raise RuntimeError(f"mypyc build failed (exit {done.returncode}; log in {log})")
    check = "import importlib,sys; sys.exit(any(not importlib.import_module(m).__file__.endswith('.so') for m in sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop("CARDLAB_PURE", None)
    if subprocess.run([sys.executable, "-c", check, *MODULES], env=env).returncode:
        raise RuntimeError("the compiled modules do not load in place of the Python ones")
    print(f"compiled in {time.monotonic() - started:.0f}s")
    return src, key, hashes


def publish(src: Path, key: str, hashes: dict[str, str]) -> Path:
    """Copy the extensions to build/mypyc/<key>/ with their manifest, then make it current."""
    out = CACHE / key
    groups = sorted(src.glob(f"*__mypyc{LOADER.EXT_SUFFIX}"), key=lambda p: p.stat().st_mtime)
    if not groups:
        raise RuntimeError(f"no mypyc runtime library (*__mypyc{LOADER.EXT_SUFFIX}) in {src}")
    group = groups[-1].name.removesuffix(LOADER.EXT_SUFFIX)
    if not (out / "manifest.json").is_file():
        tmp = CACHE / f".{key}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copy2(groups[-1], tmp / groups[-1].name)
        modules = {}
        for module, path in zip(MODULES, PATHS, strict=True):
            ext = path.removesuffix(".py") + LOADER.EXT_SUFFIX
            (tmp / ext).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / ext, tmp / ext)
            modules[module] = {"sha256": hashes[module], "file": ext}
        manifest = {
            "compiled": True,
            "mypyc": mypyc_version(),
            "ext_suffix": LOADER.EXT_SUFFIX,
            "group": group,
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "modules": modules,
        }
        _write_json(tmp / "manifest.json", manifest)
        shutil.rmtree(out, ignore_errors=True)
        os.replace(tmp, out)
    _write_json(LOADER.current_file(ROOT), {"compiled": True, "key": key})
    prune(keep=out)
    return out


def prune(keep: Path) -> None:
    """Remove all but the newest KEEP keyed builds for this ABI."""
    builds = []
    for manifest in CACHE.glob("*/manifest.json"):
        data = LOADER._read_json(manifest) or {}
        if data.get("ext_suffix") == LOADER.EXT_SUFFIX and manifest.parent != keep:
            builds.append(manifest.parent)
    builds.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEEP - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


def up_to_date() -> Path | None:
    """The current keyed build if it matches src/ (no compile needed), else None."""
    key, _ = build_key(ROOT / "src")
    out = CACHE / key
    if (out / "manifest.json").is_file():
        return out
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="only check the toolchain")
    mode.add_argument("--fallback", action="store_true", help="a failed build records pure Python")
    args = parser.parse_args()
    why = missing_toolchain()
    if args.check:
        if why:
            print(f"compiled engines unavailable: {why}", file=sys.stderr)
            return 3
        return 0
    CACHE.mkdir(parents=True, exist_ok=True)
    if LOADER.pure_forced():
        record_pure(f"{LOADER.PURE_ENV}=1 at install")
        return 0
    if why:
        record_pure(why)
        return 0
    with open(CACHE / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two `make`s at once build once, one after the other
        found = up_to_date()
        if found is not None:
            key = found.name
            _write_json(LOADER.current_file(ROOT), {"compiled": True, "key": key})
            print(f"cardlab engines: compiled (mypyc {mypyc_version()}), up to date in {found}")
            return 0
        try:
            src, key, hashes = compile_copy()
            out = publish(src, key, hashes)
        except RuntimeError as exc:
            if not args.fallback:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            record_pure(str(exc))
            return 0
    print(f"cardlab engines: compiled (mypyc {mypyc_version()}) into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
